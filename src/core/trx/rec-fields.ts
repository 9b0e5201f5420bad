/**
 * A clustered leaf record's fields as values (rem0rec rec_get_offsets, for every field) and a record
 * made back from such values in the same row format (rec_convert_dtuple_to_rec): what an older version
 * of a row is built with, so that the record decoder (records/record.ts) reads it as it reads any
 * record. Tables altered with ALGORITHM=INSTANT are not covered (their records say which fields they
 * store): the caller says so instead of building one.
 */
import type { ClusteredLayout } from '../records/clustered-index.ts';
import { u16 } from '../pages/fil-header.ts';
import type { UndoValue } from './trx-rec.ts';
import { UndoRecordError } from './mach-compressed.ts';

/** The record's fields, in index order: each a view of the page's bytes (or null for SQL NULL), off-page ones as their local part. */
export function recordFields(page: Uint8Array, origin: number, layout: ClusteredLayout, compact: boolean): UndoValue[] {
  return compact ? compactFields(page, origin, layout) : redundantFields(page, origin, layout);
}

function compactFields(page: Uint8Array, origin: number, layout: ClusteredLayout): UndoValue[] {
  const out: UndoValue[] = [];
  let nullPtr = origin - 6;
  let lenPtr = nullPtr - ((layout.nNullable + 7) >> 3);
  let nullBit = 1;
  let p = origin;
  for (const f of layout.fields) {
    if (f.nullable) {
      const isNull = (page[nullPtr] & nullBit) !== 0;
      nullBit <<= 1;
      if (nullBit === 0x100) {
        nullBit = 1;
        nullPtr--;
      }
      if (isNull) {
        out.push({ bytes: null, external: false });
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
    if (p + len > page.length) throw new UndoRecordError(`field \`${f.name}\` runs past the end of the page`);
    out.push({ bytes: page.subarray(p, p + len), external });
    p += len;
  }
  return out;
}

function redundantFields(page: Uint8Array, origin: number, layout: ClusteredLayout): UndoValue[] {
  const n = (u16(page, origin - 4) >> 1) & 0x3ff;
  if (n !== layout.fields.length) throw new UndoRecordError(`the record has ${n} fields, the table definition gives ${layout.fields.length}`);
  const short = (page[origin - 3] & 1) !== 0;
  const out: UndoValue[] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const v = short ? page[origin - 7 - i] : u16(page, origin - 8 - 2 * i);
    const end = v & (short ? 0x7f : 0x3fff);
    const isNull = (v & (short ? 0x80 : 0x8000)) !== 0;
    const external = !short && (v & 0x4000) !== 0;
    if (end < start || origin + end > page.length) throw new UndoRecordError(`field ${i + 1} has an impossible end offset ${end}`);
    out.push({ bytes: isNull ? null : page.subarray(origin + start, origin + end), external });
    start = end;
  }
  return out;
}

/** A record of these field values in the layout's row format, with these info bits (the delete mark); returns its bytes and origin. */
export function buildRecord(values: readonly UndoValue[], layout: ClusteredLayout, compact: boolean, infoBits: number): { bytes: Uint8Array; origin: number } {
  const data = values.reduce((n, v) => n + (v.bytes?.length ?? 0), 0);
  // REDUNDANT keeps a NULL fixed-size field's bytes (zeros).
  const nullFixed = compact ? 0 : values.reduce((n, v, i) => n + (v.bytes === null ? layout.fields[i].fixedLen : 0), 0);
  const extra = compact ? 5 + ((layout.nNullable + 7) >> 3) + 2 * values.length : 6 + 2 * values.length;
  // 8 bytes of slack after the data: the decoders keep clear of a page's trailer.
  const bytes = new Uint8Array(extra + data + nullFixed + 8);
  const origin = extra;
  if (compact) buildCompact(values, layout, bytes, origin);
  else buildRedundant(values, layout, bytes, origin);
  bytes[origin - (compact ? 5 : 6)] = infoBits & 0xf0;
  return { bytes, origin };
}

function buildCompact(values: readonly UndoValue[], layout: ClusteredLayout, b: Uint8Array, origin: number): void {
  let nullPtr = origin - 6;
  let lenPtr = nullPtr - ((layout.nNullable + 7) >> 3);
  let nullBit = 1;
  let p = origin;
  values.forEach((v, i) => {
    const f = layout.fields[i];
    if (f.nullable) {
      if (v.bytes === null) b[nullPtr] |= nullBit;
      nullBit <<= 1;
      if (nullBit === 0x100) {
        nullBit = 1;
        nullPtr--;
      }
    }
    if (v.bytes === null) return;
    if (f.fixedLen === 0) {
      const len = v.bytes.length;
      if (f.bigCol && (len >= 128 || v.external)) {
        b[lenPtr--] = 0x80 | (v.external ? 0x40 : 0) | (len >> 8);
        b[lenPtr--] = len & 0xff;
      } else b[lenPtr--] = len;
    }
    b.set(v.bytes, p);
    p += v.bytes.length;
  });
}

function buildRedundant(values: readonly UndoValue[], layout: ClusteredLayout, b: Uint8Array, origin: number): void {
  const n = values.length;
  // Two-byte end offsets (1byte_offs_flag clear), the field count above them.
  const head = (n << 1) & 0x7fe;
  b[origin - 4] = head >> 8;
  b[origin - 3] = head & 0xff;
  let end = 0;
  values.forEach((v, i) => {
    const len = v.bytes === null ? layout.fields[i].fixedLen : v.bytes.length;
    if (v.bytes !== null) b.set(v.bytes, origin + end);
    end += len;
    const word = end | (v.bytes === null ? 0x8000 : 0) | (v.external ? 0x4000 : 0);
    b[origin - 8 - 2 * i] = word >> 8;
    b[origin - 7 - 2 * i] = word & 0xff;
  });
}
