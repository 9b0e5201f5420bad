/**
 * When the B-tree above the leaves is damaged, the leaves can still be found by reading every page:
 * INDEX pages of our index at level 0 that the extent descriptors do not mark free (a freed page keeps
 * its old image, whose rows are no longer live). Pages are ordered by following their prev/next links,
 * so each intact stretch of the leaf chain comes out in key order. Where no descriptor rules freed
 * pages out, a leaf a merge freed is found too: leaf-chain.ts tells it apart.
 */
import { IbdError } from '../errors.ts';
import { FIL_NULL, FIL_PAGE_NEXT, FIL_PAGE_OFFSET, FIL_PAGE_PREV, FIL_PAGE_SPACE_ID, FIL_PAGE_TYPE, PageType, u16, u32 } from '../pages/fil-header.ts';
import { readIndexHeader } from '../pages/index-page.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';
import { isPageFree, xdesPageOf } from '../pages/xdes.ts';
import { disownedLeaves, type LeafLinks } from './leaf-chain.ts';

/** The leaves a scan found, in chain order, and those taken out of the index's leaf list with why (leaf-chain.ts). */
export interface LeafScan {
  pages: number[];
  disowned: Map<number, string>;
}

export async function scanLeafPages(ts: Tablespace, indexId: bigint): Promise<LeafScan> {
  const leaves = new Map<number, LeafLinks>();
  let xdes: Uint8Array | null = null;
  let xdesNo = -1;
  for (let n = 0; n < ts.pageCount; n++) {
    // A raw image's descriptors are not trusted, as its page 0 is not (it may be another file's, or
    // those of the freed extents a dropped table's pages are read from).
    if (!ts.raw && xdesPageOf(n, ts.physicalSize) !== xdesNo) {
      xdesNo = xdesPageOf(n, ts.physicalSize);
      xdes = await descriptorPage(ts, xdesNo);
    }
    const page = await ts.page(n).catch((e: unknown) => {
      if (e instanceof IbdError) return null;
      throw e;
    });
    const bytes = page?.bytes;
    if (!page || !bytes || u16(bytes, FIL_PAGE_TYPE) !== PageType.INDEX) continue;
    const h = readIndexHeader(bytes);
    if (h.indexId !== indexId || h.level !== 0 || (xdes !== null && isPageFree(xdes, n, ts))) continue;
    // In a raw image, a page of the index that is not where its header puts it is a copy (a
    // doublewrite buffer, a stale or repeated copy) or another server's index with the same id.
    if (ts.raw && (u32(bytes, FIL_PAGE_OFFSET) !== n || u32(bytes, FIL_PAGE_SPACE_ID) !== ts.fsp.spaceId)) continue;
    leaves.set(n, { prev: u32(bytes, FIL_PAGE_PREV), next: u32(bytes, FIL_PAGE_NEXT), intact: page.checksum !== 'bad' });
  }
  return { pages: chainOrder(leaves), disowned: disownedLeaves(leaves) };
}

/** The extent descriptor page, or null when it is unreadable (then no page can be ruled out). */
async function descriptorPage(ts: Tablespace, n: number): Promise<Uint8Array | null> {
  const page = await ts.page(n).catch(() => null);
  if (page === null || page.checksum === 'bad') return null;
  const type = u16(page.bytes, FIL_PAGE_TYPE);
  return type === PageType.FSP_HDR || type === PageType.XDES ? page.bytes : null;
}

/** Chains first (each from a page whose predecessor is missing), then any pages left in a cycle. */
function chainOrder(leaves: Map<number, LeafLinks>): number[] {
  const order: number[] = [];
  const placed = new Set<number>();
  const follow = (start: number) => {
    for (let n = start; n !== FIL_NULL && leaves.has(n) && !placed.has(n); n = (leaves.get(n) as LeafLinks).next) {
      placed.add(n);
      order.push(n);
    }
  };
  const sorted = [...leaves.keys()].sort((a, b) => a - b);
  for (const n of sorted) if (!leaves.has((leaves.get(n) as LeafLinks).prev)) follow(n);
  for (const n of sorted) follow(n);
  return order;
}

export interface ScannedIndex {
  indexId: bigint;
  leafPages: number;
  /** COMPACT/DYNAMIC (true) or REDUNDANT records. */
  compact: boolean;
}

/**
 * Every index that has leaf pages in the file, lowest index id first (for a table, the clustered
 * index is created first): what is left to go on when no B-tree root can be found.
 */
export async function scanIndexes(ts: Tablespace): Promise<ScannedIndex[]> {
  const found = new Map<bigint, ScannedIndex>();
  for (let n = 0; n < ts.pageCount; n++) {
    const page = await ts.page(n).catch(() => null);
    if (page === null || u16(page.bytes, FIL_PAGE_TYPE) !== PageType.INDEX) continue;
    const h = readIndexHeader(page.bytes);
    if (h.level !== 0) continue;
    const entry = found.get(h.indexId) ?? { indexId: h.indexId, leafPages: 0, compact: h.compact };
    entry.leafPages++;
    found.set(h.indexId, entry);
  }
  return [...found.values()].sort((a, b) => (a.indexId < b.indexId ? -1 : 1));
}
