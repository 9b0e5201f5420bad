/**
 * "Go to key" for a key whose text orders like its values (numbers, dates: search.ts keyComparer):
 * a binary search over the leaf pages counted so far by their first and last keys, then inside the
 * page. Only intact pages are in key order: a damaged page's rows come as they were read back (its
 * record list first, then the records carved from the rest of the page), and its keys are not
 * vouched for, so damaged pages are passed over by the binary search and looked through row by row
 * after it. When the key is on no row, the damaged page it would lie on (its rows withheld, or
 * unreadable) is named. Used by table-view.ts; pages are decoded through the grid's store.
 */
import type { RowBatch } from '../../core/values/row-batch.ts';
import { batchText, cellString } from '../grid/batch-text.ts';
import type { DamageTally } from '../recovery/damage.ts';
import type { RowMap } from '../grid/row-map.ts';

export type Compare = (a: string, b: string) => number;

/** Where findKey found the key: its row (-1: none), else the damaged page it would be on, if any. */
export interface KeyFound {
  row: number;
  damagedPage: number | null;
  /** Found (or not) through the B-tree: the pages read, root to leaf, the worker's time, how the lookup went. */
  via?: { pages: number; ms: number; notes: string[] };
  /** Why the B-tree's path was not followed to the end (the leaves were searched instead). */
  offPath?: string;
  /** Found through the B-tree on this leaf page, past the rows counted (the count stopped before it). */
  uncountedPage?: number;
}

/** The first row of `batch` whose every cell equals `cells` (NULL only NULL); -1 if none. */
export function rowWithCells(batch: RowBatch, cells: readonly (string | null)[]): number {
  const text = batchText(batch);
  for (let r = 0; r < batch.rows; r++) {
    let same = cells.length === batch.cols;
    for (let c = 0; c < batch.cols && same; c++) same = cellString(batch, text, r * batch.cols + c) === cells[c];
    if (same) return r;
  }
  return -1;
}

/** What the search reads: the leaves' row numbers, their damage, and their decoded rows. */
export interface KeyPages {
  map: RowMap;
  damage: DamageTally;
  page(leaf: number): Promise<RowBatch | null>;
}

/** The row whose key column `col` equals `want` (under `cmp`). */
export async function findOrderedKey(pages: KeyPages, col: number, want: string, cmp: Compare): Promise<KeyFound> {
  const map = pages.map;
  let lo = 0;
  let hi = map.known - 1;
  while (lo <= hi) {
    const mid = intactNear(pages, (lo + hi) >> 1, lo, hi);
    // Only damaged or empty leaves are left where the key would be.
    if (mid < 0) return inDamaged(pages, col, want, cmp, lo, hi);
    const batch = await pages.page(mid);
    if (!batch || batch.rows === 0) {
      // Counted, yet no row decoded (every record failed): it says nothing, so look on both sides of it.
      const left = await firstAtOrAfter(pages, col, want, cmp, lo, mid - 1);
      const row = left >= 0 ? left : await firstAtOrAfter(pages, col, want, cmp, mid + 1, hi);
      return row >= 0 ? { row, damagedPage: null } : inDamaged(pages, col, want, cmp, lo, hi);
    }
    const key = keyOf(batch, col);
    const firstKey = key(0);
    const lastKey = key(batch.rows - 1);
    if (firstKey !== null && cmp(want, firstKey) < 0) hi = mid - 1;
    else if (lastKey !== null && cmp(want, lastKey) > 0) lo = mid + 1;
    else {
      const row = inPage(batch.rows, key, want, cmp);
      // Between two keys of this intact page: no other intact page holds it, a damaged one still might.
      return row >= 0 ? { row: map.start(mid) + row, damagedPage: null } : inDamaged(pages, col, want, cmp, mid + 1, mid - 1);
    }
  }
  // Not on an intact page: in key order it lies after leaf hi and before leaf lo (hi < lo).
  return inDamaged(pages, col, want, cmp, hi + 1, lo - 1);
}

/** An intact leaf of [lo, hi] with rows, the nearest to `mid`; -1 when there is none. */
function intactNear(pages: KeyPages, mid: number, lo: number, hi: number): number {
  const usable = (leaf: number) => pages.map.counts[leaf] > 0 && !pages.damage.damaged(leaf);
  for (let d = 0; mid - d >= lo || mid + d <= hi; d++) {
    if (mid - d >= lo && usable(mid - d)) return mid - d;
    if (mid + d <= hi && usable(mid + d)) return mid + d;
  }
  return -1;
}

/**
 * Looks through every damaged leaf counted, row by row; when none holds the key, names the first
 * damaged page of leaves [from, to] (where it would lie in key order; an empty range names none).
 */
async function inDamaged(pages: KeyPages, col: number, want: string, cmp: Compare, from: number, to: number): Promise<KeyFound> {
  const { map, damage } = pages;
  let near: number | null = null;
  for (const leaf of damage.damagedLeaves()) {
    if (leaf >= map.known) break;
    if (near === null && leaf >= from && leaf <= to) near = map.leaves[leaf];
    if (map.counts[leaf] === 0) continue;
    const batch = await pages.page(leaf);
    if (!batch) continue;
    const key = keyOf(batch, col);
    for (let r = 0; r < batch.rows; r++) {
      const v = key(r);
      if (v !== null && cmp(v, want) === 0) return { row: map.start(leaf) + r, damagedPage: null };
    }
  }
  return { row: -1, damagedPage: near };
}

/** The key's row on the first intact leaf of [lo, hi] whose last key is not below it; -1 if none. */
async function firstAtOrAfter(pages: KeyPages, col: number, want: string, cmp: Compare, lo: number, hi: number): Promise<number> {
  for (let leaf = lo; leaf <= hi; leaf++) {
    if (pages.damage.damaged(leaf)) continue;
    const batch = await pages.page(leaf);
    if (!batch || batch.rows === 0) continue;
    const key = keyOf(batch, col);
    const lastKey = key(batch.rows - 1);
    if (lastKey !== null && cmp(want, lastKey) > 0) continue;
    const row = inPage(batch.rows, key, want, cmp);
    return row >= 0 ? pages.map.start(leaf) + row : -1;
  }
  return -1;
}

function keyOf(batch: RowBatch, col: number): (r: number) => string | null {
  const text = batchText(batch);
  return (r) => cellString(batch, text, r * batch.cols + col);
}

/** Binary search of an intact page's rows (in key order): the row's index on the page, or -1. */
function inPage(rows: number, key: (r: number) => string | null, want: string, cmp: Compare): number {
  let lo = 0;
  let hi = rows - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = key(mid);
    const d = v === null ? -1 : cmp(v, want);
    if (d === 0) return mid;
    if (d < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
