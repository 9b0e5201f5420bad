/**
 * FIL header (first 38 bytes of every page) and FIL trailer (last 8 bytes), as laid out by
 * storage/innobase/include/fil0types.h. Every page of every InnoDB file starts with this.
 */

export const FIL_PAGE_SPACE_OR_CHKSUM = 0;
export const FIL_PAGE_OFFSET = 4;
export const FIL_PAGE_PREV = 8;
export const FIL_PAGE_NEXT = 12;
export const FIL_PAGE_LSN = 16;
export const FIL_PAGE_TYPE = 24;
export const FIL_PAGE_FILE_FLUSH_LSN = 26;
export const FIL_PAGE_SPACE_ID = 34;
/** Start of the page body, right after the FIL header. */
export const FIL_PAGE_DATA = 38;
/** Size of the FIL trailer (old-style checksum + low 32 bits of the LSN). */
export const FIL_PAGE_END_LSN_OLD_CHKSUM = 8;
/** "No page" in prev/next pointers and file addresses. */
export const FIL_NULL = 0xffffffff;

/** Page types (FIL_PAGE_TYPE). MySQL and MariaDB share the low numbers. */
export const PageType = {
  ALLOCATED: 0,
  UNDO_LOG: 2,
  INODE: 3,
  IBUF_FREE_LIST: 4,
  IBUF_BITMAP: 5,
  SYS: 6,
  TRX_SYS: 7,
  FSP_HDR: 8,
  XDES: 9,
  BLOB: 10,
  ZBLOB: 11,
  ZBLOB2: 12,
  UNKNOWN: 13,
  COMPRESSED: 14,
  ENCRYPTED: 15,
  COMPRESSED_AND_ENCRYPTED: 16,
  ENCRYPTED_RTREE: 17,
  SDI_BLOB: 18,
  SDI_ZBLOB: 19,
  LOB_INDEX: 22,
  LOB_DATA: 23,
  LOB_FIRST: 24,
  SDI: 17853,
  RTREE: 17854,
  INDEX: 17855,
  /** MariaDB PAGE_COMPRESSED=1 page. */
  PAGE_COMPRESSED: 34354,
  /** MariaDB page-compressed and encrypted page. */
  PAGE_COMPRESSED_ENCRYPTED: 37401,
} as const;

const typeNames = new Map<number, string>(Object.entries(PageType).map(([k, v]) => [v, k]));

/** A page of an index's records: a B-tree's (INDEX) or a SPATIAL index's R-tree (RTREE), laid out alike. */
export function isIndexPageType(type: number): boolean {
  return type === PageType.INDEX || type === PageType.RTREE;
}

export function pageTypeName(type: number): string {
  return typeNames.get(type) ?? `unknown type ${type}`;
}

export function u16(b: Uint8Array, o: number): number {
  return (b[o] << 8) | b[o + 1];
}

export function u32(b: Uint8Array, o: number): number {
  return ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
}

export function u64(b: Uint8Array, o: number): bigint {
  return (BigInt(u32(b, o)) << 32n) | BigInt(u32(b, o + 4));
}

/** A page that was allocated in the file but never written is all zero bytes. */
export function isAllZero(page: Uint8Array): boolean {
  for (let i = 0; i < page.length; i++) if (page[i] !== 0) return false;
  return true;
}
