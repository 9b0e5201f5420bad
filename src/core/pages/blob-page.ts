/**
 * Externally stored columns (btr0cur.cc, "BLOB" pages). A record keeps a local prefix (768 bytes in
 * COMPACT/REDUNDANT, none in DYNAMIC) and a 20-byte reference: space id, first page, offset, length.
 * Each BLOB page holds, at the reference's offset, the part length, the next page and the part's bytes.
 */
import { FIL_NULL, FIL_PAGE_DATA, FIL_PAGE_TYPE, PageType, pageTypeName, u16, u32 } from './fil-header.ts';
import { readLob } from './lob-first-page.ts';
import { isZblobType, isZlobFirst, readZblob, readZlob } from './zblob.ts';

const BTR_EXTERN_PAGE_NO = 4;
const BTR_EXTERN_OFFSET = 8;
/** Low 32 bits of the 8-byte length (the high bytes hold the owner/inherited flags). */
const BTR_EXTERN_LEN_LOW = 16;
/** 20-byte reference to an externally stored column (BTR_EXTERN_FIELD_REF_SIZE): space id, page, offset, length. */
export const EXTERN_REF_SIZE = 20;

export const BTR_BLOB_HDR_PART_LEN = 0;
export const BTR_BLOB_HDR_NEXT_PAGE_NO = 4;
export const BTR_BLOB_HDR_SIZE = 8;

export interface ExternRef {
  pageNo: number;
  offset: number;
  length: number;
}

export function readExternRef(local: Uint8Array): ExternRef {
  const r = local.length - EXTERN_REF_SIZE;
  return { pageNo: u32(local, r + BTR_EXTERN_PAGE_NO), offset: u32(local, r + BTR_EXTERN_OFFSET), length: u32(local, r + BTR_EXTERN_LEN_LOW) };
}

/** Largest value we assemble in memory; a LONGBLOB can be 4 GB, a browser tab cannot. */
export const MAX_EXTERN_BYTES = 256 << 20;

/**
 * The whole value: the local prefix followed by the off-page parts, from a BLOB chain (MySQL 5.x,
 * MariaDB) or a MySQL 8.0 LOB, told apart by the first page's type. Throws an Error saying what is
 * wrong (unknown page type, broken chain) for the caller to report against the record.
 */
export async function readExternValue(local: Uint8Array, readPage: (no: number) => Promise<Uint8Array>): Promise<Uint8Array> {
  const prefix = local.length - EXTERN_REF_SIZE;
  const ref = readExternRef(local);
  if (ref.pageNo === 0 || ref.pageNo === FIL_NULL) throw new Error('the off-page reference is empty (the value was never written)');
  if (ref.length > MAX_EXTERN_BYTES) throw new Error(`the off-page value is ${ref.length} bytes, above the ${MAX_EXTERN_BYTES >> 20} MB this reader assembles`);
  const out = new Uint8Array(prefix + ref.length);
  out.set(local.subarray(0, prefix));
  const firstType = u16(await readPage(ref.pageNo), FIL_PAGE_TYPE);
  if (firstType === PageType.LOB_FIRST) {
    await readLob(ref.pageNo, out, prefix, readPage);
    return out;
  }
  // ROW_FORMAT=COMPRESSED: one zlib stream over a ZBLOB page chain, or MySQL 8's ZLOB (zblob.ts).
  if (isZblobType(firstType)) {
    await readZblob(ref.pageNo, ref.offset, out, prefix, readPage);
    return out;
  }
  if (isZlobFirst(firstType)) {
    // In a MySQL 8 LOB reference the offset field holds the LOB version.
    await readZlob(ref.pageNo, ref.offset, out, prefix, readPage);
    return out;
  }
  let filled = prefix;
  let pageNo = ref.pageNo;
  let offset = ref.offset;
  while (filled < out.length) {
    if (pageNo === FIL_NULL) throw new Error(`the BLOB chain ends after ${filled - prefix} of ${ref.length} bytes`);
    const page = await readPage(pageNo);
    const type = u16(page, FIL_PAGE_TYPE);
    if (type !== PageType.BLOB) throw new Error(`off-page value: page ${pageNo} is ${pageTypeName(type)}, expected a BLOB page`);
    const partLen = u32(page, offset + BTR_BLOB_HDR_PART_LEN);
    const start = offset + BTR_BLOB_HDR_SIZE;
    if (partLen === 0 || partLen > out.length - filled || start + partLen > page.length) throw new Error(`off-page value: BLOB page ${pageNo} claims a part of ${partLen} bytes, which does not fit`);
    out.set(page.subarray(start, start + partLen), filled);
    filled += partLen;
    pageNo = u32(page, offset + BTR_BLOB_HDR_NEXT_PAGE_NO);
    // Every later part starts right after the FIL header.
    offset = FIL_PAGE_DATA;
  }
  return out;
}
