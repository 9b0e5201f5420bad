/**
 * Record decoding (rem0rec.cc). COMPACT/DYNAMIC records keep, before the 5-byte header, a null
 * bitmap and then the lengths of the variable-size fields, both read backwards; REDUNDANT records
 * keep a 6-byte header and, before it, the end offset of every field (1 or 2 bytes each).
 * Fields are written straight from the page into the caller's BatchBuilder, through per-field writers.
 */
import type { ClusteredLayout } from './clustered-index.ts';
import type { FieldChecks, FieldSpec } from './field-spec.ts';
import { u16 } from '../pages/fil-header.ts';
import type { InstantInfo, RecordShape } from './instant.ts';
import { checkFailure, failingField } from './record-checks.ts';
import { putUtf8, utf8Copy } from '../values/charset-writers.ts';
import { putDecimal, putInt, type DecimalPlan } from '../values/digit-text.ts';
import { putDateValue } from '../values/temporal-writers.ts';
import { FAST_CHAR, FAST_DATE, FAST_DECIMAL, FAST_INT, FAST_VARCHAR, type FastWrite, type Write } from '../values/writer-traits.ts';
import { EXTERN_REF_SIZE } from '../pages/blob-page.ts';
import { lineQuoting, QUOTE_NEVER, QUOTE_REPORTED, QUOTE_SCAN, quoteInPlace, type BatchBuilder } from '../values/row-batch.ts';

/** A column whose value continues on BLOB pages; filled in by the caller. */
export interface ExternField {
  /** The batch cell to fill. */
  cell: number;
  fieldIndex: number;
  /** The locally stored prefix followed by the 20-byte reference (a copy: the page buffer is reused). */
  local: Uint8Array;
}

/** Thrown for a record whose bytes do not fit the table definition. */
export class RecordError extends Error {}

/**
 * Where the record last decoded (or measured) lies in its page, from its header's first byte to its
 * data's end: what a carver (page-carve.ts) needs to keep records apart. One store, no allocation.
 */
export const lastRecord = { start: 0, end: 0 };

/**
 * Thrown for a record with a field whose stored bytes are not a value of its column (value-check.ts).
 * The record itself was read whole: `recordBytes` is its size, header included (what the decoder
 * returns), so that the caller can still count its bytes against the page's heap.
 */
export class ValueCheckError extends RecordError {
  /** `offset`, `length`: the field's bytes in the page, which the check refused. */
  constructor(readonly field: string, readonly reason: string, readonly recordBytes: number, readonly offset: number, readonly length: number) {
    super(`field \`${field}\`: ${reason}`);
  }
}

/** The output column (or -1) of each field, and the fields that fill one in column order. */
export interface FieldColumns {
  columns: Int32Array;
  order: Int32Array;
}

export function fieldColumns(fields: readonly FieldSpec[]): FieldColumns {
  const order = fields.map((_, i) => i).filter((i) => fields[i].out >= 0).sort((a, b) => fields[a].out - fields[b].out);
  return { columns: Int32Array.from(fields, (f) => f.out), order: Int32Array.from(order) };
}

/**
 * Where decoded cells go: the builder, the row's first cell in it, a writer per field with its fast
 * kind (fastWriteOf), and fieldColumns().
 */
export interface RecordSink extends FieldColumns {
  out: BatchBuilder;
  base: number;
  writers: readonly Write[];
  fast: readonly FastWrite[];
}

/**
 * Where each field of the record being decoded is: its offset, or NULL_FIELD / OFF_PAGE / ABSENT,
 * at 2 * i, and its length at 2 * i + 1. Records are read whole first and written in column order
 * after, so a row comes out in output order (a CSV line as it stands, see BatchBuilder) although the
 * key fields come first in the record; a record that does not fit writes nothing.
 */
let spans = new Int32Array(128);
const NULL_FIELD = -1;
const OFF_PAGE = -2;
const ABSENT = -3;

function spansFor(nFields: number): Int32Array {
  if (spans.length < 2 * nFields) spans = new Int32Array(2 * nFields);
  return spans;
}

/** Runs the checks of the record's fields (record-checks.ts); throws ValueCheckError for the first that fails. */
function checkRecord(fields: readonly FieldSpec[], checked: FieldChecks, page: Uint8Array, at: Int32Array, recordBytes: number): void {
  const failed = failingField(fields, checked, page, at);
  if (failed >= 0) throw new ValueCheckError(fields[failed].name, checkFailure.reason, recordBytes, at[2 * failed], at[2 * failed + 1]);
}

/**
 * Writes the fields located in `at` (see spans) in column order; NULLs become the builder's NULL
 * cells. `dataBytes`: the record's field bytes, for writeLine().
 */
function writeFields(sink: RecordSink, page: Uint8Array, at: Int32Array, dataBytes: number): void {
  if (sink.out.lineAhead()) {
    writeLine(sink, page, at, dataBytes);
    return;
  }
  const { out, order, columns, base } = sink;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    const offset = at[2 * i];
    if (offset >= 0) writeCell(sink, i, columns[i], page, offset, at[2 * i + 1]);
    else if (offset === NULL_FIELD) out.setNull(base + columns[i]);
  }
}

const COMMA = 44;

/**
 * writeFields() for a CSV row written in one go (BatchBuilder.lineAhead): each value and its comma
 * straight into the builder's text at a position held here, fast kinds (FastWrite) put down without
 * a call through their Write, NULL as `\N`. A value that needs quotes gets them in place (its cell
 * stays the value), as BatchBuilder.setCell() does cell by cell. The row is its CSV line unless a
 * field is written later (off-page, or absent from the record) or a value that needs quotes holds a
 * quote (which CSV doubles): csvBytes() then writes it cell by cell.
 */
function writeLine(sink: RecordSink, page: Uint8Array, at: Int32Array, dataBytes: number): void {
  const { out, order, columns, base, fast, writers } = sink;
  const checks = out.quoteChecks;
  const single = out.cols === 1;
  const { cells, nulls } = out;
  // A fast kind writes at most 4 bytes of text per stored byte plus a few; 40 a field is also room
  // for its quotes, its comma, and `\N`.
  const room = 4 * dataBytes + 40 * order.length;
  out.reserve(room);
  let t = out.text;
  let p = out.pos;
  let whole = true;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    const offset = at[2 * i];
    if (offset < 0) {
      if (offset !== NULL_FIELD) whole = false;
      else {
        t[p++] = 92; // \N
        t[p++] = 78;
        t[p++] = COMMA;
      }
      continue;
    }
    const len = at[2 * i + 1];
    const f = fast[i];
    let end = -1;
    // How to tell whether the value needs quotes (as BatchBuilder.quoteChecks): never, by looking at
    // it all, or (QUOTE_REPORTED, nothing reported) at its ends; and whether it holds a quote (-1:
    // not known).
    let check = QUOTE_NEVER;
    let quote = -1;
    switch (f.kind) {
      case FAST_INT: end = putInt(t, p, page, offset, f.bytes, f.unsigned); break;
      case FAST_DECIMAL: end = putDecimal(f.decimal as DecimalPlan, t, p, page, offset); break;
      case FAST_DATE: end = putDateValue(t, p, page, offset); break;
      case FAST_CHAR:
      case FAST_VARCHAR:
        end = putUtf8(t, p, page, offset, len, f.kind === FAST_CHAR);
        // Reported: with no byte that may call for quotes, only its ends can.
        check = utf8Copy.special ? QUOTE_SCAN : QUOTE_REPORTED;
        quote = utf8Copy.quote ? 1 : 0;
        break;
    }
    if (end < 0) {
      // Not a fast kind, or a value its put* function leaves to the renderer.
      out.pos = p;
      out.special = false;
      writers[i](page, offset, len, out);
      end = out.pos;
      check = checks === null || out.special ? QUOTE_SCAN : checks[columns[i]];
      quote = -1;
      out.special = false;
      out.reserve(room);
      t = out.text;
    }
    const cell = base + columns[i];
    nulls[cell] = 0;
    const quoting = lineQuoting(t, p, end, check, single, quote);
    if (quoting < 0) whole = false;
    else if (quoting > 0) {
      quoteInPlace(t, p, end);
      cells[2 * cell] = p + 1;
      cells[2 * cell + 1] = end + 1;
      t[end + 2] = COMMA;
      p = end + 3;
      continue;
    }
    cells[2 * cell] = p;
    cells[2 * cell + 1] = end;
    t[end] = COMMA;
    p = end + 1;
  }
  out.pos = p;
  out.lineWritten(whole);
}

/**
 * Decodes a COMPACT/DYNAMIC leaf record at `origin` into `sink` (or only measures it, when `sink` is
 * null); fields stored off-page are listed in `externs` for the caller to fetch. Returns the record's
 * size in bytes, header included, which the caller checks against the page's own accounting.
 * `check`: run the fields' value checks first (a ValueCheckError for one that fails); the caller
 * leaves them out where a page checksum already vouches for the bytes (see leaf-decoder.ts).
 */
export function decodeCompact(page: Uint8Array, origin: number, layout: ClusteredLayout, sink: RecordSink | null, externs: ExternField[], check: boolean): number {
  if (layout.instant) return decodeCompactInstant(page, origin, layout.instant, sink, externs, check);
  const fields = layout.fields;
  const at = spansFor(fields.length);
  walkCompactFields(page, origin, fields, null, origin - 6, origin - 6 - ((layout.nNullable + 7) >> 3), at, sink, externs);
  const recordBytes = lastRecord.end - lastRecord.start;
  if (check) checkRecord(fields, layout.checked, page, at, recordBytes);
  if (sink !== null) writeFields(sink, page, at, lastRecord.end - origin);
  return recordBytes;
}

/**
 * The field walk of a COMPACT record: the null bitmap read down from `nullPtr`, the variable
 * lengths down from `lenPtr`, the data up from `origin`, each field's span (or NULL_FIELD /
 * OFF_PAGE) put in `at` at its index. `stored`: the indexes of the fields the record stores, in
 * order (an instantly altered table's record), or null for all of them. Leaves the record's extent
 * in lastRecord: from just after the last length byte read up to the end of its last field.
 */
function walkCompactFields(page: Uint8Array, origin: number, fields: readonly FieldSpec[], stored: Int32Array | null, nullPtr: number, lenPtr: number, at: Int32Array, sink: RecordSink | null, externs: ExternField[]): void {
  let nullBit = 1;
  let p = origin;
  const end = page.length - 8;
  const n = stored === null ? fields.length : stored.length;
  for (let k = 0; k < n; k++) {
    const i = stored === null ? k : stored[k];
    const f = fields[i];
    if (f.nullable) {
      const isNull = (page[nullPtr] & nullBit) !== 0;
      nullBit <<= 1;
      if (nullBit === 0x100) { nullBit = 1; nullPtr--; }
      if (isNull) {
        at[2 * i] = NULL_FIELD;
        continue;
      }
    }
    let len = f.fixedLen;
    let external = false;
    if (len === 0) {
      len = page[lenPtr--];
      if (f.bigCol && len & 0x80) {
        external = (len & 0x40) !== 0;
        len = ((len & 0x3f) << 8) | page[lenPtr--];
      }
    }
    if (p + len > end || lenPtr < 0) throw new RecordError(`field \`${f.name}\` (${len} bytes) runs past the end of the page`);
    if (external) {
      at[2 * i] = OFF_PAGE;
      if (sink !== null && f.out >= 0) externs.push(externOf(page, p, len, sink.base + f.out, i, f.name));
    } else {
      at[2 * i] = p;
      at[2 * i + 1] = len;
    }
    p += len;
  }
  lastRecord.start = lenPtr + 1;
  lastRecord.end = p;
}

/** Info bits and status of the records that instant ALTER TABLE introduced. */
const MARIADB_STATUS_INSTANT = 4;
const MYSQL_INFO_INSTANT = 0x80;
const MYSQL_INFO_VERSION = 0x40;

/**
 * Which fields a COMPACT leaf record of an instantly altered table stores (MariaDB status 4 and its
 * added-field count, MySQL field count or row version) and where its null bitmap starts.
 */
export function instantShape(page: Uint8Array, origin: number, instant: InstantInfo): { shape: RecordShape; nullStart: number } {
  let p = origin - 6;
  let shape: RecordShape;
  try {
    if (instant.kind === 'mariadb') {
      if ((page[origin - 3] & 7) === MARIADB_STATUS_INSTANT) {
        let nAdd = page[p--];
        if (nAdd & 0x80) nAdd = (nAdd & 0x7f) | (page[p--] << 7);
        shape = instant.prefix(instant.nCore + nAdd + 1);
      } else {
        shape = instant.core();
      }
    } else {
      const info = page[origin - 5];
      if (info & MYSQL_INFO_VERSION) {
        shape = instant.version(page[p--]);
      } else if (info & MYSQL_INFO_INSTANT) {
        let n = page[p--];
        if (n & 0x80) n = ((n & 0x7f) << 8) | page[p--];
        shape = instant.prefix(n);
      } else {
        shape = instant.core();
      }
    }
  } catch (e) {
    if (e instanceof RangeError) throw new RecordError(e.message);
    throw e;
  }
  return { shape, nullStart: p };
}

/**
 * decodeCompact() for a table altered with ALGORITHM=INSTANT (see instant.ts): the record says which
 * fields it stores, its null bitmap is sized for those, and the fields it lacks show their default.
 */
function decodeCompactInstant(page: Uint8Array, origin: number, instant: InstantInfo, sink: RecordSink | null, externs: ExternField[], check: boolean): number {
  const fields = instant.fields;
  const { shape, nullStart } = instantShape(page, origin, instant);
  const at = spansFor(fields.length);
  walkCompactFields(page, origin, fields, shape.fields, nullStart, nullStart - shape.nullBytes, at, sink, externs);
  const recordBytes = lastRecord.end - lastRecord.start;
  if (check) checkRecord(fields, shape.checked, page, at, recordBytes);
  if (sink !== null) writeStored(sink, instant, shape, page, at);
  return recordBytes;
}

/** The cells of an instant record: its stored fields located in `at` (see spans), then the defaults of those it lacks. */
function writeStored(sink: RecordSink, instant: InstantInfo, shape: RecordShape, page: Uint8Array, at: Int32Array): void {
  const stored = shape.fields;
  for (let k = 0; k < stored.length; k++) {
    const i = stored[k];
    const out = instant.fields[i].out;
    if (out >= 0 && at[2 * i] >= 0) writeCell(sink, i, out, page, at[2 * i], at[2 * i + 1]);
  }
  for (let k = 0; k < shape.absent.length; k++) writeDefault(sink, instant, shape.absent[k]);
}

/** The value of a field the record does not store: the instant default (cells start out NULL). */
function writeDefault(sink: RecordSink, instant: InstantInfo, i: number): void {
  const d = instant.defaults[i];
  const out = instant.fields[i].out;
  if (d === null || out < 0) return;
  if ('bytes' in d) writeCell(sink, i, out, d.bytes, 0, d.bytes.length);
  else sink.out.setString(sink.base + out, d.text);
}

/**
 * Whether decodeCompact() can read this COMPACT leaf record with this layout: an ordinary record, or
 * one written after an instant ALTER TABLE that the layout's instant information describes.
 */
export function compactRecordReadable(page: Uint8Array, origin: number, layout: ClusteredLayout): boolean {
  const status = page[origin - 3] & 7;
  const info = page[origin - 5] & (MYSQL_INFO_INSTANT | MYSQL_INFO_VERSION);
  const kind = layout.instant?.kind;
  if (kind === 'mysql') return status === 0;
  if (kind === 'mariadb') return (status === 0 || status === MARIADB_STATUS_INSTANT) && info === 0;
  return status === 0 && info === 0;
}

function writeCell(sink: RecordSink, field: number, col: number, page: Uint8Array, p: number, len: number): void {
  const out = sink.out;
  const start = out.pos;
  sink.writers[field](page, p, len, out);
  out.setCell(sink.base + col, start, out.pos);
}

function externOf(page: Uint8Array, p: number, len: number, cell: number, fieldIndex: number, name: string): ExternField {
  if (len < EXTERN_REF_SIZE) throw new RecordError(`field \`${name}\` is marked as stored off-page but holds only ${len} bytes`);
  return { cell, fieldIndex, local: page.slice(p, p + len) };
}

/** Decodes (or, with `sink` null, measures) a REDUNDANT leaf record at `origin`; returns its size. `check`: as decodeCompact(). */
export function decodeRedundant(page: Uint8Array, origin: number, layout: ClusteredLayout, sink: RecordSink | null, externs: ExternField[], check: boolean): number {
  const fields = layout.fields;
  const nFields = (u16(page, origin - 4) >> 1) & 0x3ff;
  const short = (page[origin - 3] & 1) !== 0;
  // After instant ADD COLUMN a record may stop short: the fields it lacks show their default.
  const instant = layout.instant;
  if (nFields !== fields.length && !(instant && nFields >= instant.nCore && nFields < fields.length)) {
    throw new RecordError(`the record has ${nFields} fields, the table definition gives ${fields.length} (key, system and stored columns)`);
  }
  const at = spansFor(fields.length);
  let start = 0;
  for (let i = 0; i < nFields; i++) {
    const f = fields[i];
    let endOff: number;
    let isNull: boolean;
    let external = false;
    if (short) {
      const v = page[origin - 7 - i];
      endOff = v & 0x7f;
      isNull = (v & 0x80) !== 0;
    } else {
      const v = u16(page, origin - 8 - 2 * i);
      endOff = v & 0x3fff;
      isNull = (v & 0x8000) !== 0;
      external = (v & 0x4000) !== 0;
    }
    const len = endOff - start;
    if (len < 0 || origin + endOff > page.length - 8) throw new RecordError(`field \`${f.name}\` has an impossible end offset ${endOff}`);
    // REDUNDANT keeps every field's length: a fixed-size one (NULL or not) must take its size.
    if (f.fixedLen !== 0 && len !== f.fixedLen && !external) throw new RecordError(`field \`${f.name}\` takes ${len} bytes, its type takes ${f.fixedLen}`);
    if (isNull) at[2 * i] = NULL_FIELD;
    else if (external) {
      at[2 * i] = OFF_PAGE;
      if (sink !== null && f.out >= 0) externs.push(externOf(page, origin + start, len, sink.base + f.out, i, f.name));
    } else {
      at[2 * i] = origin + start;
      at[2 * i + 1] = len;
    }
    start = endOff;
  }
  for (let i = nFields; i < fields.length; i++) at[2 * i] = ABSENT;
  // 6 header bytes plus one end offset (1 or 2 bytes) per field, then the data.
  const recordBytes = 6 + nFields * (short ? 1 : 2) + start;
  if (check) checkRecord(fields, layout.checked, page, at, recordBytes);
  if (sink !== null) writeFields(sink, page, at, start);
  if (sink !== null && instant) for (let i = nFields; i < fields.length; i++) writeDefault(sink, instant, i);
  lastRecord.start = origin - (recordBytes - start);
  lastRecord.end = origin + start;
  return recordBytes;
}
