/**
 * File-based lists (fut0lst): a base node (length, first, last) and nodes (prev, next), each address a
 * page number and a byte offset in it, FIL_NULL for none. Undo pages and undo logs are chained so.
 */
import { FIL_NULL, u16, u32 } from '../pages/fil-header.ts';

export interface FilAddress {
  pageNo: number;
  offset: number;
}

function address(b: Uint8Array, at: number): FilAddress | null {
  const pageNo = u32(b, at);
  return pageNo === FIL_NULL ? null : { pageNo, offset: u16(b, at + 4) };
}

/** FLST_BASE_NODE at `at`: FLST_LEN, FLST_FIRST, FLST_LAST. */
export function readFlstBase(b: Uint8Array, at: number): { length: number; first: FilAddress | null; last: FilAddress | null } {
  return { length: u32(b, at), first: address(b, at + 4), last: address(b, at + 10) };
}

/** The next node of the FLST_NODE at `at` (FLST_NEXT, after FLST_PREV). */
export function flstNext(b: Uint8Array, at: number): FilAddress | null {
  return address(b, at + 6);
}
