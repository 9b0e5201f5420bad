/**
 * What a ROW_FORMAT=COMPRESSED page says about its records' fields (page0zip.cc): the index
 * description at the head of its zlib stream (page_zip_fields_decode), and the field boundaries of
 * a record, read from the rebuilt page (rec_init_offsets) or from the modification log
 * (rec_get_offsets_reverse). zip-page.ts rebuilds the page with them.
 */
/** A ROW_FORMAT=COMPRESSED page that cannot be rebuilt. */
export class ZipPageError extends Error {}

/** The 5-byte header of a COMPACT record. */
export const REC_N_NEW_EXTRA_BYTES = 5;
/** The child page number a node pointer record ends with. */
export const NODE_PTR_SIZE = 4;

/** A field of the compressed page's own index description (page_zip_fields_decode). */
export interface ZipField {
  fixedLen: number;
  /** Variable-length with a maximum above 255 bytes: the length may take 2 bytes. */
  big: boolean;
  nullable: boolean;
}

export interface ZipIndex {
  fields: ZipField[];
  nNullable: number;
  /** Position of DB_TRX_ID on clustered index leaves, else -1. */
  trxIdCol: number;
}

/** Field boundaries of one record: ends[i] is the end offset of field i relative to the origin. */
export interface Offsets {
  n: number;
  ends: Int32Array;
  nulls: Uint8Array;
  externs: Uint8Array;
  anyExtern: boolean;
  /** Bytes before the origin that belong to the record: null bitmap, lengths and the 5-byte header. */
  extraSize: number;
}

export function decodeFields(b: Uint8Array, end: number, leaf: boolean): ZipIndex {
  let n = 0;
  for (let p = 0; p < end; n++) p += b[p] & 0x80 ? 2 : 1;
  n--; // the last entry is the DB_TRX_ID position (leaf) or the nullable count (node pointers)
  if (n <= 0 || n > 1023) throw new ZipPageError(`the compressed page describes ${n} index fields`);
  const fields: ZipField[] = [];
  let p = 0;
  let nNullable = 0;
  for (let i = 0; i < n; i++) {
    let val = b[p++];
    let fixedLen: number;
    let big = false;
    if (val & 0x80) {
      val = ((val & 0x7f) << 8) | b[p++];
      fixedLen = val >> 1;
    } else if (val >= 126) {
      fixedLen = 0;
      big = true;
    } else if (val <= 1) {
      fixedLen = 0;
    } else {
      fixedLen = val >> 1;
    }
    const nullable = (val & 1) === 0;
    if (nullable) nNullable++;
    fields.push({ fixedLen, big, nullable });
  }
  let val = b[p++];
  if (val & 0x80) val = ((val & 0x7f) << 8) | b[p++];
  let trxIdCol = -1;
  if (leaf) {
    if (val !== 0) {
      if (val >= n) throw new ZipPageError(`the compressed page puts DB_TRX_ID at field ${val} of ${n}`);
      trxIdCol = val;
    }
  } else {
    if (val < nNullable) throw new ZipPageError('the compressed page has an impossible nullable field count');
    nNullable = val;
  }
  return { fields, nNullable, trxIdCol };
}

export function newOffsets(nFields: number): Offsets {
  return { n: 0, ends: new Int32Array(nFields + 1), nulls: new Uint8Array(nFields + 1), externs: new Uint8Array(nFields + 1), anyExtern: false, extraSize: 0 };
}

/**
 * Field offsets of the record at `rec` on the (partly rebuilt) page, reading its null bitmap and
 * lengths backwards from rec-6 (rec_init_offsets for COMPACT records).
 */
export function recOffsets(page: Uint8Array, rec: number, index: ZipIndex, nodePtr: boolean, o: Offsets): void {
  const nKey = index.fields.length;
  o.n = nodePtr ? nKey + 1 : nKey;
  o.anyExtern = false;
  let nulls = rec - REC_N_NEW_EXTRA_BYTES - 1;
  let lens = nulls - ((index.nNullable + 7) >> 3);
  let mask = 1;
  let offs = 0;
  for (let i = 0; i < o.n; i++) {
    o.nulls[i] = 0;
    o.externs[i] = 0;
    if (i === nKey) {
      offs += NODE_PTR_SIZE; // the child page number of a node pointer
      o.ends[i] = offs;
      continue;
    }
    const f = index.fields[i];
    if (f.nullable) {
      const isNull = (page[nulls] & mask) !== 0;
      mask <<= 1;
      if (mask === 0x100) { mask = 1; nulls--; }
      if (isNull) {
        o.nulls[i] = 1;
        o.ends[i] = offs;
        continue;
      }
    }
    if (f.fixedLen) {
      offs += f.fixedLen;
    } else {
      let len = page[lens--];
      if (f.big && len & 0x80) {
        if (len & 0x40) {
          o.externs[i] = 1;
          o.anyExtern = true;
        }
        len = ((len & 0x3f) << 8) | page[lens--];
      }
      offs += len;
    }
    o.ends[i] = offs;
  }
  o.extraSize = rec - (lens + 1);
}

/** The same from a record's extra bytes written forwards in the modification log (rec_get_offsets_reverse). */
export function logOffsets(log: Uint8Array, at: number, index: ZipIndex, nodePtr: boolean, o: Offsets): number {
  const nKey = index.fields.length;
  o.n = nodePtr ? nKey + 1 : nKey;
  o.anyExtern = false;
  let nulls = at;
  let lens = at + ((index.nNullable + 7) >> 3);
  let mask = 1;
  let offs = 0;
  for (let i = 0; i < o.n; i++) {
    o.nulls[i] = 0;
    o.externs[i] = 0;
    if (i === nKey) {
      offs += NODE_PTR_SIZE;
      o.ends[i] = offs;
      continue;
    }
    const f = index.fields[i];
    if (f.nullable) {
      const isNull = (log[nulls] & mask) !== 0;
      mask <<= 1;
      if (mask === 0x100) { mask = 1; nulls++; }
      if (isNull) {
        o.nulls[i] = 1;
        o.ends[i] = offs;
        continue;
      }
    }
    if (f.fixedLen) {
      offs += f.fixedLen;
    } else {
      let len = log[lens++];
      if (f.big && len & 0x80) {
        if (len & 0x40) {
          o.externs[i] = 1;
          o.anyExtern = true;
        }
        len = ((len & 0x3f) << 8) | log[lens++];
      }
      offs += len;
    }
    o.ends[i] = offs;
  }
  o.extraSize = lens - at + REC_N_NEW_EXTRA_BYTES;
  return lens - at;
}

export const fieldStart = (o: Offsets, i: number): number => (i === 0 ? 0 : o.ends[i - 1]);
export const dataSize = (o: Offsets): number => o.ends[o.n - 1];
