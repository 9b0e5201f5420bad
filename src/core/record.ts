/**
 * Record decoding (rem0rec.cc). COMPACT/DYNAMIC records keep, before the 5-byte header, a null
 * bitmap and then the lengths of the variable-size fields, both read backwards; REDUNDANT records
 * keep a 6-byte header and, before it, the end offset of every field (1 or 2 bytes each).
 * Fields are written straight from the page into the caller's BatchBuilder, through per-field writers.
 */
import type { ClusteredLayout } from './clustered-index.ts';
import { u16 } from './fil-header.ts';
import type { BatchBuilder } from './row-batch.ts';
import type { Write } from './text-writers.ts';

/** 20-byte reference to an externally stored column (BTR_EXTERN_FIELD_REF_SIZE). */
export const EXTERN_REF_SIZE = 20;

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

/** Where decoded cells go: the builder, the row's first cell in it, and a writer per field. */
export interface RecordSink {
  out: BatchBuilder;
  base: number;
  writers: readonly Write[];
}

/**
 * Decodes a COMPACT/DYNAMIC leaf record at `origin` into `sink` (or only measures it, when `sink` is
 * null); fields stored off-page are listed in `externs` for the caller to fetch. Returns the record's
 * size in bytes, header included, which the caller checks against the page's own accounting.
 */
export function decodeCompact(page: Uint8Array, origin: number, layout: ClusteredLayout, sink: RecordSink | null, externs: ExternField[]): number {
  const fields = layout.fields;
  let nullPtr = origin - 6;
  let nullBit = 1;
  let lenPtr = origin - 6 - ((layout.nNullable + 7) >> 3);
  let p = origin;
  const end = page.length - 8;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (f.nullable) {
      const isNull = (page[nullPtr] & nullBit) !== 0;
      nullBit <<= 1;
      if (nullBit === 0x100) { nullBit = 1; nullPtr--; }
      if (isNull) continue; // cells start out NULL
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
    if (sink !== null && f.out >= 0) {
      if (external) externs.push(externOf(page, p, len, sink.base + f.out, i, f.name));
      else writeCell(sink, i, f.out, page, p, len);
    }
    p += len;
  }
  // The header runs from just after the last length byte read up to the origin.
  return p - (lenPtr + 1);
}

function writeCell(sink: RecordSink, field: number, col: number, page: Uint8Array, p: number, len: number): void {
  const start = sink.out.pos;
  sink.writers[field](page, p, len, sink.out);
  sink.out.setCell(sink.base + col, start, sink.out.pos);
}

function externOf(page: Uint8Array, p: number, len: number, cell: number, fieldIndex: number, name: string): ExternField {
  if (len < EXTERN_REF_SIZE) throw new RecordError(`field \`${name}\` is marked as stored off-page but holds only ${len} bytes`);
  return { cell, fieldIndex, local: page.slice(p, p + len) };
}

/** Decodes (or, with `sink` null, measures) a REDUNDANT leaf record at `origin`; returns its size. */
export function decodeRedundant(page: Uint8Array, origin: number, layout: ClusteredLayout, sink: RecordSink | null, externs: ExternField[]): number {
  const fields = layout.fields;
  const nFields = (u16(page, origin - 4) >> 1) & 0x3ff;
  const short = (page[origin - 3] & 1) !== 0;
  if (nFields !== fields.length) {
    throw new RecordError(`the record has ${nFields} fields, the table definition gives ${fields.length} (key, system and stored columns)`);
  }
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
    if (sink !== null && f.out >= 0 && !isNull) {
      if (external) externs.push(externOf(page, origin + start, len, sink.base + f.out, i, f.name));
      else writeCell(sink, i, f.out, page, origin + start, len);
    }
    start = endOff;
  }
  // 6 header bytes plus one end offset (1 or 2 bytes) per field, then the data.
  return 6 + nFields * (short ? 1 : 2) + start;
}

/** Where the key fields of a COMPACT record end (key fields are never NULL). */
function compactKeyEnd(page: Uint8Array, origin: number, layout: ClusteredLayout): number {
  let lenPtr = origin - 6 - ((layout.nNullable + 7) >> 3);
  let p = origin;
  for (let i = 0; i < layout.nUnique; i++) {
    const f = layout.fields[i];
    let len = f.fixedLen;
    if (len === 0) {
      len = page[lenPtr--];
      if (f.bigCol && len & 0x80) len = ((len & 0x3f) << 8) | page[lenPtr--];
    }
    p += len;
  }
  return p;
}

/** Page number of the child a COMPACT node pointer record points to: 4 bytes after the key fields. */
export function compactChildPage(page: Uint8Array, origin: number, layout: ClusteredLayout): number {
  const p = compactKeyEnd(page, origin, layout);
  if (p + 4 > page.length) throw new RecordError('the node pointer runs past the end of the page');
  return ((page[p] << 24) | (page[p + 1] << 16) | (page[p + 2] << 8) | page[p + 3]) >>> 0;
}

/**
 * Whether a leaf record's DB_ROLL_PTR (7 bytes after the key and the 6-byte DB_TRX_ID) is all zero.
 * No stored row has that (the pointer always carries an undo address or the insert flag), but
 * MariaDB zero-fills a record's data when purge frees it: such a record is no longer a row.
 */
export function rollPtrIsZero(page: Uint8Array, origin: number, layout: ClusteredLayout, compact: boolean): boolean {
  let p: number;
  if (compact) p = compactKeyEnd(page, origin, layout) + 6;
  else {
    const short = (page[origin - 3] & 1) !== 0;
    const i = layout.nUnique; // DB_TRX_ID ends where DB_ROLL_PTR starts
    p = origin + (short ? page[origin - 7 - i] & 0x7f : u16(page, origin - 8 - 2 * i) & 0x3fff);
  }
  if (p + 7 > page.length) return true;
  for (let i = p; i < p + 7; i++) if (page[i] !== 0) return false;
  return true;
}

/** Page number of the child a REDUNDANT node pointer points to: its last field. */
export function redundantChildPage(page: Uint8Array, origin: number): number {
  const nFields = (u16(page, origin - 4) >> 1) & 0x3ff;
  const short = (page[origin - 3] & 1) !== 0;
  const endOf = (i: number): number => (short ? page[origin - 7 - i] & 0x7f : u16(page, origin - 8 - 2 * i) & 0x3fff);
  const p = origin + (nFields >= 2 ? endOf(nFields - 2) : 0);
  if (p + 4 > page.length) throw new RecordError('the node pointer runs past the end of the page');
  return ((page[p] << 24) | (page[p + 1] << 16) | (page[p + 2] << 8) | page[p + 3]) >>> 0;
}
