/**
 * Extent descriptors (XDES entries, fsp0fsp.h): page 0 and every `pageSize`-th page after it hold one
 * entry per extent, with two bits per page; the first says whether the page is free. A free page can
 * still carry an old index page image: a scan of the file must not take its records for live rows.
 */
import { FIL_PAGE_DATA } from './fil-header.ts';
import { extentPages } from './inode.ts';

/** XDES entries start after the 112-byte FSP header (or the same offset on an XDES page). */
const XDES_ARR_OFFSET = FIL_PAGE_DATA + 112;
/** XDES_ID (8), list node (12), state (4), then the bitmap. */
const XDES_BITMAP = 24;
const XDES_STATE = 20;
const XDES_FREE_STATE = 1;

function entrySize(pageSize: number): number {
  return XDES_BITMAP + Math.ceil((extentPages(pageSize) * 2) / 8);
}

/**
 * The page (0, N, 2N, …) holding the descriptor of page `n`, N being the physical page size: one
 * descriptor page describes as many pages as a page has bytes (compressed tablespaces: KEY_BLOCK_SIZE).
 */
export function xdesPageOf(n: number, physicalSize: number): number {
  return Math.floor(n / physicalSize) * physicalSize;
}

/** Page sizes of a tablespace: logical (sets the extent size) and physical (compressed tables). */
export interface PageSizes {
  pageSize: number;
  physicalSize: number;
}

/** Whether page `n` is marked free in the descriptor page `xdes` (which must be xdesPageOf(n)). */
export function isPageFree(xdes: Uint8Array, n: number, { pageSize, physicalSize }: PageSizes): boolean {
  const perExtent = extentPages(pageSize);
  const inGroup = n % physicalSize;
  const entry = XDES_ARR_OFFSET + Math.floor(inGroup / perExtent) * entrySize(pageSize);
  const state = (xdes[entry + XDES_STATE] << 24) | (xdes[entry + XDES_STATE + 1] << 16) | (xdes[entry + XDES_STATE + 2] << 8) | xdes[entry + XDES_STATE + 3];
  // An extent that was never initialised (state 0) or is wholly free has no live pages.
  if (state === 0 || state === XDES_FREE_STATE) return true;
  const bit = (inGroup % perExtent) * 2;
  return ((xdes[entry + XDES_BITMAP + (bit >> 3)] >> (bit & 7)) & 1) === 1;
}
