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
 *  - `exportSorted(runs, …)`: for an export, whose runs carry each row's cells (row-payload.ts):
 *    the next rows of the merge, from a cursor, formatted as the export's other runs are; the page
 *    keeps the cursor (an offset per run) between calls, so any worker can take the next part.
 *
 * Ties are broken by the row's place in the clustered index (leaf, then row on it): the primary key
 * order, so the order is `ORDER BY col, pk`, and deterministic. A sort by a partitioned view's whole
 * key (RunSort.index) is the index's order across its partitions, the partitions' rows being each in
 * it already: the runs' sorts find them sorted, and the merge interleaves them.
 */
import * as Comlink from 'comlink';
import { BatchBuilder, type RowBatch } from '../src/core/values/row-batch.ts';
import { compareOrderKeys, loadColumnOrder, type ColumnOrder, type KeySink } from '../src/core/values/order-key.ts';
import { compareMergeKeys, writeMergeKey } from '../src/core/readers/key-merge.ts';
import type { DecodeStats } from '../src/core/readers/table-reader.ts';
import type { ViewReader } from './partition-view.ts';
import type { TableDef } from '../src/core/schema.ts';
import { batchText } from '../src/ui/grid/batch-text.ts';
import { rowFilter, type FilterTable } from './row-filter.ts';
import { Merger, mergeRuns, RunWriter, type KeyCompare } from './sort-run.ts';
import { readPayload, writePayload } from './row-payload.ts';
import type { ExportOptions, RowQuery } from './viewer-api.ts';

export interface SortedRun {
  /** The run's rows in order, as records (sort-run.ts). */
  run: Blob;
  /** Rows in the run (matching the filter, if any). */
  rows: number;
  /** Rows each page decoded to (corrects the page's RowMap, as a search does). */
  counts: Int32Array;
  stats: DecodeStats;
}

/**
 * How a run is sorted: by output column `column`, descending or not, with the rows' cells (`payload`)
 * or not; with `index`, by the view's whole key from that column on (ViewReader.keyOrder: the index's
 * order across a partitioned table's partitions), compared whole as the index compares its records.
 */
export interface RunSort {
  column: number;
  descending: boolean;
  payload: boolean;
  index?: boolean;
  /**
   * Several sort columns (shift-click in the grid), each ascending or descending, compared in turn:
   * `ORDER BY a DESC, b, pk` (`column` is the first; `descending` then stays false: the run is read forward).
   */
  columns?: SortPart[];
}

/** One column of a sort by several, and its direction. */
export interface SortPart {
  column: number;
  descending: boolean;
}

/** A part of a sorted export, and where the merge goes on from. */
export interface SortedPart {
  data: Blob | Uint8Array<ArrayBuffer>;
  rows: number;
  cursor: Float64Array;
}

/** Formats decoded rows for an export (viewer-methods.ts's formatters, whatever the format). */
export type FormatBatch = (batch: RowBatch, options: ExportOptions, as: 'blob' | 'bytes') => Blob | Uint8Array<ArrayBuffer>;

export interface SortMethods {
  /**
   * Sorts the rows of a run of leaves (`firstLeaf`: the index of `pages[0]` among the table's leaves;
   * `first`: the run starts the table) as `sort` says, only those `filter` matches when given.
   * Rejects, naming the reason, when the column's order is not modelled.
   */
  sortLeaves(pages: Int32Array, firstLeaf: number, first: boolean, sort: RunSort, filter: RowQuery | null): Promise<SortedRun>;
  /**
   * Merges the runs sorted as `sort` says (`total` rows in all) into row numbers (`starts`:
   * RowMap.starts, each leaf's first row).
   */
  mergeSorted(runs: Blob[], sort: RunSort, starts: Float64Array, total: number): Promise<Float64Array>;
  /**
   * The next rows (at most `limit`, and about 8 MiB) of the merge of runs sorted with their payload,
   * from `cursor` (null: the start), formatted.
   */
  exportSorted(runs: Blob[], sort: RunSort, cursor: Float64Array | null, limit: number, options: ExportOptions, as: 'blob' | 'bytes'): Promise<SortedPart>;
}

/** Text bytes of rows an exportSorted call formats at most. */
const PART_BYTES = 8 << 20;

export interface SortTable {
  reader: ViewReader;
  table: TableDef;
  /** Builders a run is decoded into (one per task running in this worker). */
  builders: BatchBuilder[];
  /** The zone TIMESTAMP text is shown in. */
  timeZone: string;
  /** What a typed filter is tested against. */
  filterTable: FilterTable;
}

const INTEGER_BYTES: Record<string, number> = { tinyint: 1, bool: 1, smallint: 2, mediumint: 3, int: 4, bigint: 8 };

/** How many bytes the server's sort key gives the primary key (which breaks ties): integers' only, null for another key or none. */
function primaryKeyBytes(table: TableDef): number | null {
  const pk = table.indexes.find((i) => i.kind === 'primary');
  if (!pk) return null;
  let n = 0;
  for (const part of pk.columns) {
    const bytes = INTEGER_BYTES[table.columns.find((c) => c.name.toLowerCase() === part.name.toLowerCase())?.type ?? ''];
    if (bytes === undefined) return null;
    n += bytes;
  }
  return n;
}

/** The order of output column `column`, or an Error that says why there is none. */
export async function outputColumnOrder(open: SortTable, column: number): Promise<ColumnOrder> {
  const name = open.reader.columns[column]?.toLowerCase();
  const def = open.table.columns.find((c) => c.name.toLowerCase() === name);
  if (!def) throw new Error(`Column ${open.reader.columns[column] ?? column} is not a column of the table: it cannot be sorted by.`);
  // TIMESTAMP is ordered by its text, which in a zone with summer time repeats an hour each autumn.
  if (def.type === 'timestamp' && open.timeZone !== 'UTC' && !/^[+-]\d\d:\d\d$/.test(open.timeZone)) throw new Error(`Cannot sort by ${def.name} while TIMESTAMP is shown in ${open.timeZone}: its text repeats an hour where the clocks go back. Show it in UTC to sort by it.`);
  const order = await loadColumnOrder(def, { tieBytes: primaryKeyBytes(open.table) });
  if ('why' in order) throw new Error(`Cannot sort by ${def.name}: ${order.why}.`);
  return order;
}

/** How a run's rows are keyed and compared. */
interface RunOrder {
  compare: KeyCompare;
  /** For one decoded page: whether row r's key is NULL, and writing it. */
  page(batch: RowBatch): { isNull(r: number): boolean; write(r: number, out: KeySink): void };
}

/** By one column's ORDER BY order. */
function columnRunOrder(order: ColumnOrder, column: number): RunOrder {
  const { kind } = order;
  return {
    compare: (a, ao, al, b, bo, bl) => compareOrderKeys(kind, a, ao, al, b, bo, bl),
    page(batch) {
      const { str, map } = batchText(batch);
      return {
        isNull: (r) => batch.nulls[r * batch.cols + column] === 1,
        write(r, out) {
          const cell = r * batch.cols + column;
          const s = map ? map[batch.cells[2 * cell]] : batch.cells[2 * cell];
          const e = map ? map[batch.cells[2 * cell + 1]] : batch.cells[2 * cell + 1];
          order.key(str.slice(s, e), out);
        },
      };
    },
  };
}

/**
 * By several columns: each column's part of the key is a NULL flag, its key's length and its key
 * (order-key.ts); parts compare in turn, NULL first, each reversed when its column is descending
 * (a descending column's NULLs come last, as the server puts them).
 */
async function columnsRunOrder(open: SortTable, parts: readonly SortPart[]): Promise<RunOrder> {
  const orders = await Promise.all(parts.map((p) => outputColumnOrder(open, p.column)));
  const signs = parts.map((p) => (p.descending ? -1 : 1));
  const kinds = orders.map((o) => o.kind);
  return {
    compare(a, ao, _al, b, bo) {
      let x = ao;
      let y = bo;
      for (let k = 0; k < kinds.length; k++) {
        const xl = a[x + 1] | (a[x + 2] << 8) | (a[x + 3] << 16) | (a[x + 4] << 24);
        const yl = b[y + 1] | (b[y + 2] << 8) | (b[y + 3] << 16) | (b[y + 4] << 24);
        let c = a[x] - b[y];
        if (c === 0 && a[x] === 1) c = compareOrderKeys(kinds[k], a, x + 5, xl, b, y + 5, yl);
        if (c !== 0) return signs[k] * c;
        x += 5 + xl;
        y += 5 + yl;
      }
      return 0;
    },
    page(batch) {
      const { str, map } = batchText(batch);
      return {
        isNull: () => false,
        write(r, out) {
          for (let k = 0; k < parts.length; k++) {
            const cell = r * batch.cols + parts[k].column;
            const isNull = batch.nulls[cell] === 1;
            const head = out.reserve(5);
            out.bytes[head] = isNull ? 0 : 1;
            out.length = head + 5;
            if (!isNull) {
              const s = map ? map[batch.cells[2 * cell]] : batch.cells[2 * cell];
              const e = map ? map[batch.cells[2 * cell + 1]] : batch.cells[2 * cell + 1];
              orders[k].key(str.slice(s, e), out);
            }
            const len = out.length - head - 5;
            // The key may have grown the buffer: its length goes into the bytes as they are now.
            const b = out.bytes;
            b[head + 1] = len & 0xff;
            b[head + 2] = (len >>> 8) & 0xff;
            b[head + 3] = (len >>> 16) & 0xff;
            b[head + 4] = (len >>> 24) & 0xff;
          }
        },
      };
    },
  };
}

/** How `sort` orders the rows of the open view, or an Error that says why it cannot. */
async function runOrder(open: SortTable, sort: RunSort): Promise<RunOrder> {
  if (sort.columns !== undefined && sort.columns.length > 1) return columnsRunOrder(open, sort.columns);
  if (sort.index !== true) return columnRunOrder(await outputColumnOrder(open, sort.column), sort.column);
  const key = open.reader.keyOrder;
  if (key === undefined) throw new Error('The rows are read in the index\'s order already: there is no other tree to merge them with.');
  if ('why' in key) throw new Error(`The rows cannot be put in the index's order across the partitions: ${key.why}.`);
  return {
    compare: (a, ao, _, b, bo) => compareMergeKeys(key, a, ao, b, bo),
    page: (batch) => ({ isNull: () => false, write: (r, out) => writeMergeKey(key, batch, r, out) }),
  };
}

/** Appends the keys (and cells, with `payload`) of `rows` (all rows when null) of one decoded page to the run. */
function addPage(batch: RowBatch, rows: readonly number[] | null, payload: boolean, leaf: number, order: RunOrder, out: RunWriter): void {
  const keys = order.page(batch);
  const n = rows ? rows.length : batch.rows;
  for (let k = 0; k < n; k++) {
    const r = rows ? rows[k] : k;
    const isNull = keys.isNull(r);
    out.begin(isNull, leaf, r);
    if (!isNull) keys.write(r, out.data);
    out.keyDone();
    if (payload) writePayload(batch, r, out.data);
  }
}

export function createSortMethods(opened: () => SortTable, format: FormatBatch): SortMethods {
  return {
    async sortLeaves(pages, firstLeaf, first, sort, filter) {
      const open = opened();
      const { reader } = open;
      const order = await runOrder(open, sort);
      const builder = open.builders.pop() ?? new BatchBuilder(reader.columns.length, 64, reader.info.pageSize);
      const counts = new Int32Array(pages.length);
      const writer = new RunWriter(order.compare, sort.descending);
      const matched: number[] = [];
      const matching = filter ? await rowFilter(filter, open.filterTable) : null;
      const run = await reader.readRun(pages);
      try {
        for (let i = 0; i < pages.length; i++) {
          const batch = await reader.decodePages([pages[i]], { first: first && i === 0, into: builder, run });
          counts[i] = batch.rows;
          matched.length = 0;
          matching?.(batch, matched);
          addPage(batch, matching ? matched : null, sort.payload, firstLeaf + i, order, writer);
        }
      } finally {
        reader.releaseRun(run);
        open.builders.push(builder);
      }
      const result: SortedRun = { run: writer.finish(), rows: writer.rows, counts, stats: { ...reader.stats, problems: reader.stats.problems.slice() } };
      return Comlink.transfer(result, [counts.buffer]);
    },

    async mergeSorted(runs, sort, starts, total) {
      const order = await runOrder(opened(), sort);
      const rows = await mergeRuns(runs, order.compare, starts, total);
      return Comlink.transfer(rows, [rows.buffer]);
    },

    async exportSorted(runs, sort, cursor, limit, options, as) {
      const open = opened();
      const merger = new Merger(runs, (await runOrder(open, sort)).compare, sort.descending, cursor ?? undefined);
      const builder = new BatchBuilder(open.reader.columns.length, 256, PART_BYTES);
      while (builder.rows < limit && builder.pos < PART_BYTES) {
        const r = await merger.next();
        if (!r) break;
        readPayload(r.buf, r.payAt, r.payLen, builder);
      }
      const batch = builder.take();
      const part: SortedPart = { data: format(batch, options, as), rows: batch.rows, cursor: merger.cursor() };
      return part.data instanceof Blob ? part : Comlink.transfer(part, [part.data.buffer]);
    },
  };
}
