/**
 * An export of the rows the grid shows (view-rows.svelte.ts) rather than all of them: a filter's
 * matches, in key order, in reverse key order, or sorted by another column.
 *
 *  - `runOptions` / `runOrder`: in key order (or its reverse) an export is the usual runs of leaves,
 *    each filtered in its worker (ExportOptions.filter) and, for the reverse, taken last first with
 *    their rows last first;
 *  - `writeSorted`: by another column it is an external sort of its own in the export's pool
 *    (sort-rows.ts `sortRuns`), whose runs carry each row's cells, merged part by part
 *    (`exportSorted`: at most PART_ROWS rows, ~8 MiB, each; the page keeps only the merge's cursor),
 *    the parts written in order. The format is the export's, whatever it is: the worker formats
 *    each part as it formats a run of leaves.
 */
import type { SortedPart, SortPart } from '../../../workers/sort-methods.ts';
import type { ExportOptions, RowQuery } from '../../../workers/viewer-api.ts';
import type { WorkerPool } from '../pool.ts';
import { sortRuns, type SortProgress } from '../grid/sort-rows.ts';

export interface ExportOrder {
  filter: RowQuery | null;
  /** `parts`: the columns sorted by, with more than one (ViewRows.addSort). */
  sort: { column: number; descending: boolean; key: boolean; index?: boolean; parts?: SortPart[] } | null;
}

/** Rows merged and formatted per exportSorted call, at most. */
const PART_ROWS = 50_000;
/** Leaves per sorted run (as a search's). */
const SORT_RUN_PAGES = 512;

/** The options each run of leaves is exported with. */
export function runOptions(options: ExportOptions, order: ExportOrder | null): ExportOptions {
  if (!order) return options;
  return { ...options, ...(order.filter ? { filter: order.filter } : {}), ...(order.sort?.descending ? { reverse: true } : {}) };
}

/** Which run of leaves goes `i`-th: the last first in reverse key order. */
export function runOrder(order: ExportOrder | null, runs: number): (i: number) => number {
  return order?.sort?.descending ? (i) => runs - 1 - i : (i) => i;
}

export interface SortedExport {
  pool: WorkerPool;
  gen: number;
  leaves: Int32Array;
  order: ExportOrder & { sort: NonNullable<ExportOrder['sort']> };
  options: ExportOptions;
  as: 'blob' | 'bytes';
  write: (chunk: Blob | Uint8Array<ArrayBuffer>) => Promise<void>;
  /** Rows written so far (and, while the rows are sorted, how far the sort got). */
  onRows: (rows: number, sorting: SortProgress | null) => void;
  /** Rows per part and leaves per sorted run (PART_ROWS, SORT_RUN_PAGES unless given). */
  partRows?: number;
  runPages?: number;
}

/** Sorts the rows in the export's pool and writes them in order; the rows written. */
export async function writeSorted(job: SortedExport): Promise<number> {
  const { pool, gen, order } = job;
  const { parts } = order.sort;
  const sort = { column: order.sort.column, descending: order.sort.descending, payload: true, index: order.sort.index, ...(parts && parts.length > 1 ? { columns: parts } : {}) };
  // Never aborted: a cancel terminates the export's pool, which rejects what runs in it.
  const running = new AbortController().signal;
  const sorted = await sortRuns({ pool, gen, leaves: job.leaves }, sort, order.filter, running, (p) => job.onRows(0, p), job.runPages ?? SORT_RUN_PAGES);
  let cursor: Float64Array | null = null;
  let rows = 0;
  while (rows < sorted.rows) {
    const from: Float64Array | null = cursor;
    const part: SortedPart = await pool.run((api) => api.exportSorted(sorted.runs, sort, from, job.partRows ?? PART_ROWS, job.options, job.as), 'low', gen);
    if (part.rows === 0) throw new Error(`The sorted runs ended after ${rows} of their ${sorted.rows} rows.`);
    await job.write(part.data);
    rows += part.rows;
    cursor = part.cursor;
    job.onRows(rows, null);
  }
  return rows;
}
