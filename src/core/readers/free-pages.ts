/**
 * Which pages the extent descriptors mark free (XDES entries on page 0 and on every descriptor
 * page): a page freed by a B-tree merge keeps its old bytes, so whoever counts or shows pages must
 * tell it apart from a page in use. The flags of a whole descriptor group (the summary's scan, one
 * group at a time) and of one page (the page inspector).
 */
import { FIL_PAGE_TYPE, PageType, u16 } from '../pages/fil-header.ts';
import { isPageFree, xdesPageOf } from '../pages/xdes.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';

/** Whether `bytes` is the descriptor page of the group starting at `first` and may be believed. */
function isDescriptorPage(bytes: Uint8Array, first: number, ts: Tablespace): boolean {
  const type = u16(bytes, FIL_PAGE_TYPE);
  return type === (first === 0 ? PageType.FSP_HDR : PageType.XDES) && !(first === 0 && ts.page0Damaged !== null);
}

/**
 * Free-page flags for the descriptor group starting at `first` (a multiple of the page size), from
 * its descriptor page; null when that page is not a descriptor page (damaged): then nothing in the
 * group is treated as free.
 */
export function groupFreeFlags(bytes: Uint8Array, first: number, ts: Tablespace, freeLimit: number): Uint8Array | null {
  // Pages at or past the free limit are free: only those below it are looked up (a small file's
  // group is mostly past it). A group wholly past it has no descriptor page yet: InnoDB writes one
  // only when the free limit reaches it (fsp_fill_free_list), so until then it is zeros, not damage.
  const free = new Uint8Array(ts.physicalSize).fill(1);
  if (first >= freeLimit && ts.page0Damaged === null) return free;
  if (!isDescriptorPage(bytes, first, ts)) return null;
  const below = Math.min(free.length, freeLimit - first);
  for (let i = 0; i < below; i++) free[i] = isPageFree(bytes, first + i, ts) ? 1 : 0;
  return free;
}

/**
 * Whether page `no` is free by its descriptor page, as groupFreeFlags() says it; null when that page
 * cannot say (not a descriptor page, unreadable).
 */
export async function pageIsFree(ts: Tablespace, no: number): Promise<boolean | null> {
  if (no >= ts.fsp.freeLimit && ts.page0Damaged === null) return true;
  const first = xdesPageOf(no, ts.physicalSize);
  const page = await ts.page(first).catch(() => null);
  if (page === null || !isDescriptorPage(page.bytes, first, ts)) return null;
  return isPageFree(page.bytes, no, ts);
}
