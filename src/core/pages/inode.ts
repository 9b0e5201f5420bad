/**
 * INODE pages (fsp0fsp.cc): one entry per file segment. Every B-tree owns two segments (non-leaf and
 * leaf); the root is the first page the non-leaf segment allocated (FSEG_FRAG_ARR[0]), and the root's
 * PAGE_BTR_SEG_TOP points back at that entry. This finds every index root without scanning the file.
 */
import { FIL_NULL, FIL_PAGE_DATA, u32 } from './fil-header.ts';
import { FSP_SEG_INODES_FREE, FSP_SEG_INODES_FULL } from './fsp-header.ts';

/** FSEG_INODE_PAGE_NODE: the list node linking inode pages, before the entries. */
const FSEG_ARR_OFFSET = FIL_PAGE_DATA + 12;
const FSEG_ID = 0;
const FSEG_MAGIC_N = 60;
const FSEG_FRAG_ARR = 64;
const FSEG_MAGIC_N_VALUE = 97937874;

export interface InodeEntry {
  page: number;
  offset: number;
  /** First fragment page of the segment (the root, for a non-leaf segment), or FIL_NULL. */
  firstFrag: number;
}

/** Pages per extent: 1 MB worth below 32K pages, 64 pages above. */
export function extentPages(pageSize: number): number {
  return pageSize <= 16384 ? (1 << 20) / pageSize : 64;
}

export function inodeEntrySize(pageSize: number): number {
  return FSEG_FRAG_ARR + 4 * (extentPages(pageSize) / 2);
}

/** Used entries of one INODE page. */
export function inodeEntries(page: Uint8Array, pageNo: number): InodeEntry[] {
  const size = inodeEntrySize(page.length);
  const out: InodeEntry[] = [];
  for (let o = FSEG_ARR_OFFSET; o + size <= page.length - 8; o += size) {
    if (u32(page, o + FSEG_ID) === 0 && u32(page, o + FSEG_ID + 4) === 0) continue;
    if (u32(page, o + FSEG_MAGIC_N) !== FSEG_MAGIC_N_VALUE) continue;
    out.push({ page: pageNo, offset: o, firstFrag: u32(page, o + FSEG_FRAG_ARR) });
  }
  return out;
}

/**
 * Inode page numbers from the FSP header's two lists (full and free-slot inode pages); page 2 is
 * always the first. The list walk is bounded, so a damaged list cannot loop.
 */
export async function inodePageNumbers(page0: Uint8Array, readPage: (no: number) => Promise<Uint8Array>, pageCount: number): Promise<number[]> {
  const pages = new Set<number>([2]);
  for (const base of [FSP_SEG_INODES_FULL, FSP_SEG_INODES_FREE]) {
    let next = u32(page0, FIL_PAGE_DATA + base + 4);
    for (let guard = 0; next !== FIL_NULL && next < pageCount && guard < 1000; guard++) {
      if (pages.has(next) && next !== 2) break;
      pages.add(next);
      const p = await readPage(next);
      // FLST_NEXT of the page's list node: after FLST_PREV (6 bytes).
      next = u32(p, FIL_PAGE_DATA + 6);
    }
  }
  return [...pages];
}

/**
 * The logical page size of a ROW_FORMAT=COMPRESSED tablespace from its INODE page (page 2, stored
 * as is), when page 0's flags are lost: an entry's size follows the extent size and so the logical
 * page size, and only the right one puts the second entry's magic number where it is (every index
 * has two segments). Null when no candidate does.
 */
export function inodeLogicalPageSize(page: Uint8Array, candidates: readonly number[]): number | null {
  const first = FSEG_ARR_OFFSET + FSEG_MAGIC_N;
  if (page.length < first + 4 || u32(page, first) !== FSEG_MAGIC_N_VALUE) return null;
  const second = (size: number) => first + inodeEntrySize(size);
  return candidates.find((size) => second(size) + 4 <= page.length && u32(page, second(size)) === FSEG_MAGIC_N_VALUE) ?? null;
}
