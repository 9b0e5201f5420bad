/**
 * The page's side of a sort by a column other than the clustered key (workers/sort-methods.ts does
 * the work): the leaf pages are cut into runs as a search cuts them, every worker sorts runs into
 * Blobs (each run's rows, those a filter matches, by the column, ties by the primary key), then one
 * worker merges them into the rows' numbers in order. The page holds the Blob handles and, at the
 * end, 8 bytes per sorted row (the same as a filter's matches), never the values; the runs' bytes are
 * bounded by SORT_BOUND_BYTES, past which the sort stops and says so (never a part sorted as if it
 * were all). A sort by the clustered key needs none of this: the leaves are in its order
 * (`keyOrder`).
 */
import type { RowQuery } from '../../../workers/viewer-api.ts';
import { alignedBounds } from '../../core/readers/parallel.ts';
import { formatBytes, formatCount } from '../format.ts';
import { runOrdered } from '../ordered.ts';
import type { WorkerPool } from '../pool.ts';
import type { RowMap } from './row-map.ts';

/** Bytes of sorted runs (in the browser's blob store) a sort may make: ~30 bytes a row of a short text key. */
export const SORT_BOUND_BYTES = 1 << 30;

export interface SortProgress {
  /** Rows decoded so far, and of them those in the sort (a filter's matches, or all). */
  searched: number;
  sorted: number;
  /** The runs are being merged. */
  merging: boolean;
}

/** What a sort needs of the table on screen (TableView). */
export interface SortSource {
  pool: WorkerPool;
  gen: number;
  map: RowMap;
  /** Row numbers changed (a page decoded to another count than counted). */
  onRenumber: () => void;
}

/** The sort passed its bound: what it had sorted when it stopped. */
export class SortBoundError extends Error {
  override name = 'SortBoundError';
}

/**
 * Row numbers of the rows (those `filter` matches, or all) in ascending order of output column
 * `column`, ties in key order: `ORDER BY col, pk` (read from the end for `DESC`).
 */
export async function sortRows(
  src: SortSource, column: number, filter: RowQuery | null, signal: AbortSignal, onProgress: (p: SortProgress) => void, runPages: number,
): Promise<Float64Array> {
  const { pool, gen, map } = src;
  const runs = alignedBounds(map.leaves, runPages);
  const blobs: Blob[] = [];
  let searched = 0;
  let sorted = 0;
  let bytes = 0;
  await runOrdered(
    runs.length,
    (i) => pool.run(async (api, member) => {
      const [from, to] = runs[i];
      const r = await api.sortLeaves(map.leaves.slice(from, to), from, from === 0, column, filter);
      pool.noteStats(member, r.stats);
      return r;
    }, 'low', gen),
    (r, i) => {
      let renumbered = false;
      r.counts.forEach((n, k) => {
        renumbered = map.setDecoded(runs[i][0] + k, n) || renumbered;
        searched += n;
      });
      if (renumbered) src.onRenumber();
      blobs.push(r.run);
      sorted += r.rows;
      bytes += r.run.size;
      if (bytes > SORT_BOUND_BYTES) {
        throw new SortBoundError(`The sort stopped after ${formatCount(searched)} rows: its runs passed ${formatBytes(SORT_BOUND_BYTES)}, the bound on what a sort keeps. Nothing is shown sorted; filter the rows first.`);
      }
      onProgress({ searched, sorted, merging: false });
    },
    { ahead: pool.size * 2, signal },
  );
  onProgress({ searched, sorted, merging: true });
  // Every leaf was decoded: the starts are final.
  return pool.run((api) => api.mergeSorted(blobs, column, map.starts, sorted), 'low', gen);
}

/** Row numbers in the clustered key's order, or the reverse: the view's rows (a filter's matches, or all). */
export function keyOrder(count: number, rowAt: (i: number) => number, descending: boolean): (i: number) => number {
  return descending ? (i) => rowAt(count - 1 - i) : rowAt;
}
