/**
 * The key fields of an index record (rem0rec.cc rec_get_offsets for the first fields only): where
 * each lies in the page, for node pointer records (the key, then the child page number) and for leaf
 * records, in COMPACT and REDUNDANT format. What the B-tree walk needs to follow a node pointer and to
 * compare a record's key with a search key, without decoding the record's other fields.
 */
import type { ClusteredLayout } from './clustered-index.ts';
import { u16 } from '../pages/fil-header.ts';
import { instantShape, RecordError } from './record.ts';

/** A span's offset when the field is SQL NULL. */
export const NULL_SPAN = -1;

/**
 * Fills `at` with the offset (or NULL_SPAN) of each of the record's first `n` fields at 2 * i and its
 * length at 2 * i + 1; returns where field n - 1 ends. `leaf`: a leaf record (else a node pointer,
 * whose null bitmap, after an instant ALTER, keeps the original fields' size).
 */
export function keySpans(page: Uint8Array, origin: number, layout: ClusteredLayout, compact: boolean, leaf: boolean, n: number, at: Int32Array): number {
  return compact ? compactSpans(page, origin, layout, leaf, n, at) : redundantSpans(page, origin, n, at);
}

function compactSpans(page: Uint8Array, origin: number, layout: ClusteredLayout, leaf: boolean, n: number, at: Int32Array): number {
  let nullPtr = origin - 6;
  let nullBytes = (layout.nNullable + 7) >> 3;
  if (layout.instant) {
    // Instant ALTER: node pointers keep the original fields' null bitmap; leaf records say their own.
    if (!leaf) nullBytes = layout.instant.nodePtrNullBytes;
    else {
      const { shape, nullStart } = instantShape(page, origin, layout.instant);
      nullPtr = nullStart;
      nullBytes = shape.nullBytes;
    }
  }
  let lenPtr = nullPtr - nullBytes;
  let nullBit = 1;
  let p = origin;
  for (let i = 0; i < n; i++) {
    const f = layout.fields[i];
    if (f.nullable) {
      const isNull = (page[nullPtr] & nullBit) !== 0;
      nullBit <<= 1;
      if (nullBit === 0x100) {
        nullBit = 1;
        nullPtr--;
      }
      if (isNull) {
        at[2 * i] = NULL_SPAN;
        at[2 * i + 1] = 0;
        continue;
      }
    }
    let len = f.fixedLen;
    if (len === 0) {
      len = page[lenPtr--];
      if (f.bigCol && len & 0x80) len = ((len & 0x3f) << 8) | page[lenPtr--];
    }
    if (p + len > page.length || lenPtr < 0) throw new RecordError(`key field \`${f.name}\` (${len} bytes) runs past the end of the page`);
    at[2 * i] = p;
    at[2 * i + 1] = len;
    p += len;
  }
  return p;
}

/** REDUNDANT records give each field's end offset (1 or 2 bytes, with the NULL flag) before the header. */
function redundantSpans(page: Uint8Array, origin: number, n: number, at: Int32Array): number {
  const short = (page[origin - 3] & 1) !== 0;
  let start = 0;
  for (let i = 0; i < n; i++) {
    const v = short ? page[origin - 7 - i] : u16(page, origin - 8 - 2 * i);
    const end = v & (short ? 0x7f : 0x3fff);
    const isNull = (v & (short ? 0x80 : 0x8000)) !== 0;
    if (end < start || origin + end > page.length) throw new RecordError(`key field ${i + 1} has an impossible end offset ${end}`);
    at[2 * i] = isNull ? NULL_SPAN : origin + start;
    at[2 * i + 1] = end - start;
    start = end;
  }
  return origin + start;
}

let scratch = new Int32Array(64);

function scratchFor(n: number): Int32Array {
  if (scratch.length < 2 * n) scratch = new Int32Array(2 * n);
  return scratch;
}

function readU32(page: Uint8Array, p: number): number {
  if (p + 4 > page.length) throw new RecordError('the node pointer runs past the end of the page');
  return ((page[p] << 24) | (page[p + 1] << 16) | (page[p + 2] << 8) | page[p + 3]) >>> 0;
}

/** Page number of the child a COMPACT node pointer record points to: 4 bytes after the key fields. */
export function compactChildPage(page: Uint8Array, origin: number, layout: ClusteredLayout): number {
  return readU32(page, compactSpans(page, origin, layout, false, layout.nUnique, scratchFor(layout.nUnique)));
}

/** Page number of the child a REDUNDANT node pointer points to: its last field. */
export function redundantChildPage(page: Uint8Array, origin: number): number {
  const nFields = (u16(page, origin - 4) >> 1) & 0x3ff;
  const short = (page[origin - 3] & 1) !== 0;
  const endOf = (i: number): number => (short ? page[origin - 7 - i] & 0x7f : u16(page, origin - 8 - 2 * i) & 0x3fff);
  return readU32(page, origin + (nFields >= 2 ? endOf(nFields - 2) : 0));
}

function allZero(page: Uint8Array, from: number, to: number): boolean {
  if (to > page.length) return true;
  for (let i = from; i < to; i++) if (page[i] !== 0) return false;
  return true;
}

/**
 * Whether purge zero-filled the freed leaf record at `origin` (MariaDB scrubs a record's data when
 * purge frees it: such a record is no longer a row). In the clustered index its DB_ROLL_PTR (7 bytes
 * after the key and the 6-byte DB_TRX_ID) is then all zero, which no stored row has (the pointer
 * always carries an undo address or the insert flag); a secondary index record has no system field,
 * so there every byte of its data is zero.
 */
export function purgeScrubbed(page: Uint8Array, origin: number, layout: ClusteredLayout, compact: boolean): boolean {
  try {
    if (layout.secondary !== undefined) {
      const n = layout.fields.length;
      return allZero(page, origin, keySpans(page, origin, layout, compact, true, n, scratchFor(n)));
    }
    // DB_TRX_ID follows the key; DB_ROLL_PTR starts where it ends.
    const n = layout.nUnique + 1;
    const p = keySpans(page, origin, layout, compact, true, n, scratchFor(n));
    return allZero(page, p, p + 7);
  } catch (e) {
    if (e instanceof RecordError) return true;
    throw e;
  }
}
