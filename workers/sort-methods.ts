/**
 * Sorting the rows by a column other than the clustered key, as an external sort in the workers
 * (mixed into ViewerApi by viewer-methods.ts): the page never holds the values.
 *
 *  - `sortLeaves(pages, …)`: decodes a run of leaf pages (as searchLeaves does, one reused builder),
 *    keeps the rows a filter matches, and makes each row's sort key (src/core/values/order-key.ts);
 *    sorts the run and writes it as a Blob of records (sort-run.ts), made in the worker: its bytes go
 *    to the browser's blob store, not into the page.
 *  - `mergeSorted(runs, …)`: merges those Blobs, reading each 1 MiB at a time (RunReader), into
 *    the sorted rows' row numbers: 8 bytes a row, transferred to the page (what the grid maps
 *    positions through, as it does a filter's matches).
 *
 * Ties are broken by the row's place in the clustered index (leaf, then row on it): the primary key
 * order, so the order is `ORDER BY col, pk`, and deterministic.
 */
import * as Comlink from 'comlink';
import { BatchBuilder, type RowBatch } from '../src/core/values/row-batch.ts';
import { columnOrder, type ColumnOrder } from '../src/core/values/order-key.ts';
import type { DecodeStats, TableReader } from '../src/core/readers/table-reader.ts';
import type { TableDef } from '../src/core/schema.ts';
import { batchText } from '../src/ui/grid/batch-text.ts';
import { keyRows, textRows } from '../src/ui/search/search.ts';
import { mergeRuns, RunWriter } from './sort-run.ts';
import type { RowQuery } from './viewer-api.ts';

export interface SortedRun {
  /** The run's rows in order, as records (sort-run.ts). */
  run: Blob;
  /** Rows in the run (matching the filter, if any). */
  rows: number;
  /** Rows each page decoded to (corrects the page's RowMap, as a search does). */
  counts: Int32Array;
  stats: DecodeStats;
}

export interface SortMethods {
  /**
   * Sorts the rows of a run of leaves (`firstLeaf`: the index of `pages[0]` among the table's leaves;
   * `first`: the run starts the table) by output column `column`, only those `filter` matches when
   * given. Rejects, naming the reason, when the column's order is not modelled.
   */
  sortLeaves(pages: Int32Array, firstLeaf: number, first: boolean, column: number, filter: RowQuery | null): Promise<SortedRun>;
  /**
   * Merges the sorted runs of `column` (`total` rows in all) into row numbers (`starts`:
   * RowMap.starts, each leaf's first row).
   */
  mergeSorted(runs: Blob[], column: number, starts: Float64Array, total: number): Promise<Float64Array>;
}

export interface SortTable {
  reader: TableReader;
  table: TableDef;
  /** Builders a run is decoded into (one per task running in this worker). */
  builders: BatchBuilder[];
}

/** The order of output column `column`, or an Error that says why there is none. */
export function outputColumnOrder(open: SortTable, column: number): ColumnOrder {
  const name = open.reader.columns[column]?.toLowerCase();
  const def = open.table.columns.find((c) => c.name.toLowerCase() === name);
  if (!def) throw new Error(`Column ${open.reader.columns[column] ?? column} is not a column of the table: it cannot be sorted by.`);
  const order = columnOrder(def);
  if ('why' in order) throw new Error(`Cannot sort by ${def.name}: ${order.why}.`);
  return order;
}

/** Appends the keys of `rows` (all rows when null) of one decoded page to the run. */
function addPage(batch: RowBatch, rows: readonly number[] | null, column: number, leaf: number, order: ColumnOrder, out: RunWriter): void {
  const { str, map } = batchText(batch);
  const n = rows ? rows.length : batch.rows;
  for (let k = 0; k < n; k++) {
    const r = rows ? rows[k] : k;
    const cell = r * batch.cols + column;
    if (batch.nulls[cell]) {
      out.add(null, leaf, r);
      continue;
    }
    const s = map ? map[batch.cells[2 * cell]] : batch.cells[2 * cell];
    const e = map ? map[batch.cells[2 * cell + 1]] : batch.cells[2 * cell + 1];
    out.add(order.key(str.slice(s, e)), leaf, r);
  }
}

export function createSortMethods(opened: () => SortTable): SortMethods {
  return {
    async sortLeaves(pages, firstLeaf, first, column, filter) {
      const open = opened();
      const { reader } = open;
      const order = outputColumnOrder(open, column);
      const builder = open.builders.pop() ?? new BatchBuilder(reader.columns.length, 64, reader.info.pageSize);
      const counts = new Int32Array(pages.length);
      const writer = new RunWriter(order.kind);
      const matched: number[] = [];
      const run = await reader.readRun(pages);
      try {
        for (let i = 0; i < pages.length; i++) {
          const batch = await reader.decodePages([pages[i]], { first: first && i === 0, into: builder, run });
          counts[i] = batch.rows;
          matched.length = 0;
          if (filter?.kind === 'text') textRows(batch, filter, matched);
          else if (filter) keyRows(batch, filter, matched);
          addPage(batch, filter ? matched : null, column, firstLeaf + i, order, writer);
        }
      } finally {
        reader.releaseRun(run);
        open.builders.push(builder);
      }
      const result: SortedRun = { run: writer.finish(), rows: writer.rows, counts, stats: { ...reader.stats, problems: reader.stats.problems.slice() } };
      return Comlink.transfer(result, [counts.buffer]);
    },

    async mergeSorted(runs, column, starts, total) {
      const order = outputColumnOrder(opened(), column);
      const rows = await mergeRuns(runs, order.kind, starts, total);
      return Comlink.transfer(rows, [rows.buffer]);
    },
  };
}
