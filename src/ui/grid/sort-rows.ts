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
import type { RunSort } from '../../../workers/sort-methods.ts';
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

/** What a sort needs: a pool with the table open, its leaves, and who hears each page's row count. */
export interface SortSource {
  pool: WorkerPool;
  gen: number;
  leaves: Int32Array;
  /** Rows leaf `leaf` decoded to (the grid's RowMap takes them: they are final). */
  onCount?: (leaf: number, rows: number) => void;
}

/** The sort passed its bound: what it had sorted when it stopped. */
export class SortBoundError extends Error {
  override name = 'SortBoundError';
}

export interface SortedRuns {
  runs: Blob[];
  /** Rows in the runs (a filter's matches, or all). */
  rows: number;
}

/** Sorts the leaves in runs in the pool's workers (those `filter` matches), as `sort` says. */
export async function sortRuns(
  src: SortSource, sort: RunSort, filter: RowQuery | null, signal: AbortSignal, onProgress: (p: SortProgress) => void, runPages: number,
): Promise<SortedRuns> {
  const { pool, gen, leaves } = src;
  const bounds = alignedBounds(leaves, runPages);
  const runs: Blob[] = [];
  let searched = 0;
  let sorted = 0;
  let bytes = 0;
  await runOrdered(
    bounds.length,
    (i) => pool.run(async (api, member) => {
      const [from, to] = bounds[i];
      const r = await api.sortLeaves(leaves.slice(from, to), from, from === 0, sort, filter);
      pool.noteStats(member, r.stats);
      return r;
    }, 'low', gen),
    (r, i) => {
      r.counts.forEach((n, k) => {
        src.onCount?.(bounds[i][0] + k, n);
        searched += n;
      });
      runs.push(r.run);
      sorted += r.rows;
      bytes += r.run.size;
      if (bytes > SORT_BOUND_BYTES) {
        throw new SortBoundError(`The sort stopped after ${formatCount(searched)} rows: its runs passed ${formatBytes(SORT_BOUND_BYTES)}, the bound on what a sort keeps. Nothing was sorted; filter the rows first.`);
      }
      onProgress({ searched, sorted, merging: false });
    },
    { ahead: pool.size * 2, signal },
  );
  return { runs, rows: sorted };
}

/**
 * Row numbers of the rows (those `filter` matches, or all) in ascending order of output column
 * `by.column`, ties in key order: `ORDER BY col, pk` (read from the end for `DESC`); with `by.index`,
 * in the order of the view's whole key (a partitioned table's index order across its partitions).
 * Every leaf's count goes to `map` as it is decoded, so that its starts are final for the merge.
 */
export async function sortRows(
  src: Omit<SortSource, 'leaves' | 'onCount'>, map: RowMap, onRenumber: () => void, by: Pick<RunSort, 'column' | 'index' | 'columns'>, filter: RowQuery | null,
  signal: AbortSignal, onProgress: (p: SortProgress) => void, runPages: number,
): Promise<Float64Array> {
  let renumbered = false;
  const onCount = (leaf: number, rows: number) => {
    renumbered = map.setDecoded(leaf, rows) || renumbered;
  };
  const progress = (p: SortProgress) => {
    if (renumbered) onRenumber();
    renumbered = false;
    onProgress(p);
  };
  const sort: RunSort = { ...by, descending: false, payload: false };
  const sorted = await sortRuns({ ...src, leaves: map.leaves, onCount }, sort, filter, signal, progress, runPages);
  onProgress({ searched: map.rows, sorted: sorted.rows, merging: true });
  return src.pool.run((api) => api.mergeSorted(sorted.runs, sort, map.starts, sorted.rows), 'low', src.gen);
}

/** Row numbers in the clustered key's order, or the reverse: the view's rows (a filter's matches, or all). */
export function keyOrder(count: number, rowAt: (i: number) => number, descending: boolean): (i: number) => number {
  return descending ? (i) => rowAt(count - 1 - i) : rowAt;
}
