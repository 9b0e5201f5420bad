/**
 * The leaves of an index form one doubly linked list (FIL_PAGE_PREV / FIL_PAGE_NEXT). When a page
 * merge empties a leaf, InnoDB takes it out of that list (btr_level_list_remove: its neighbours are
 * linked to each other) and frees it, but the freed page keeps its old image on disk: its records, an
 * old copy of rows that live on in a neighbour (or were deleted since), and its old links. A B-tree
 * walk never reaches such a page; a scan for leaves (page-scan.ts) does when nothing rules freed
 * pages out: a raw image without its extent descriptors (orphan-scan.ts), or the freed extents of a
 * dropped table (dropped-indexes.ts), where every page is free.
 *
 * Freed leaves often lie side by side (a run of them merged one after the other), and their old
 * images agree with each other. So the list is cut into stretches whose pages link to each other
 * both ways; a stretch ends at the list's end (FIL_NULL), at a page that is missing, damaged or no
 * longer a leaf of the index (which proves nothing), or at an intact leaf of the index that links
 * elsewhere. That last end gives the stretch away: the leaf it links to has been relinked past it,
 * so the whole stretch was taken out of the list. Only intact pages' links are used as evidence.
 * (In a file copied while the server wrote it, neighbours flushed at different times can disagree
 * too; their rows are then marked, not lost.)
 */
import { FIL_NULL } from '../pages/fil-header.ts';

/** A leaf's links, and whether its checksum holds (only then are they evidence). */
export interface LeafLinks {
  prev: number;
  next: number;
  intact: boolean;
}

/** Why each leaf taken out of the index's leaf list is, by page number; the others are absent. */
export function disownedLeaves(leaves: ReadonlyMap<number, LeafLinks>): Map<number, string> {
  const disowned = new Map<number, string>();
  const seen = new Set<number>();
  for (const [no, own] of leaves) {
    if (seen.has(no) || !own.intact) continue;
    const stretch = [no];
    seen.add(no);
    const first = extend(leaves, no, 'prev', stretch, seen);
    const last = extend(leaves, no, 'next', stretch, seen);
    const why = relinkedPast(leaves, first, 'prev') ?? relinkedPast(leaves, last, 'next');
    if (why !== null) for (const p of stretch) disowned.set(p, why);
  }
  return disowned;
}

/** Follows `side` links from `from` while the pages link to each other both ways, both intact; the page it stops at. */
function extend(leaves: ReadonlyMap<number, LeafLinks>, from: number, side: 'prev' | 'next', stretch: number[], seen: Set<number>): number {
  const back = side === 'prev' ? 'next' : 'prev';
  let at = from;
  for (;;) {
    const to = (leaves.get(at) as LeafLinks)[side];
    const there = leaves.get(to);
    if (seen.has(to) || there === undefined || !there.intact || there[back] !== at) return at;
    at = to;
    stretch.push(to);
    seen.add(to);
  }
}

/** Why the stretch ending at `end` (on side `side`) is out of the list, or null when its neighbour there proves nothing. */
function relinkedPast(leaves: ReadonlyMap<number, LeafLinks>, end: number, side: 'prev' | 'next'): string | null {
  const to = (leaves.get(end) as LeafLinks)[side];
  const neighbour = to === FIL_NULL ? undefined : leaves.get(to);
  if (neighbour === undefined || !neighbour.intact) return null;
  const back = side === 'prev' ? neighbour.next : neighbour.prev;
  if (back === end) return null;
  const there = back === FIL_NULL ? 'none' : `page ${back}`;
  return `it is out of its index's leaf list: its stretch of leaves links to leaf page ${to}, whose ${side === 'prev' ? 'next' : 'previous'} page is ${there}, so it was freed (by a page merge) and its records are an old copy`;
}
