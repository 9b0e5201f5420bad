/**
 * Which rows of the table on screen the grid shows, and in what order: all, or a filter's matches
 * (SearchBar), in key order or sorted by a column. The grid (TableRows) and the export
 * (TableExport) share one per TableView (`viewRows`), so that an export can write what is shown.
 *
 * A sort by the clustered key's first column needs no work: the leaves are in its order, and the
 * reverse is read from the end. On a partitioned table it is a sort by the whole key (`index`),
 * which puts the partitions' rows in one order; a secondary index's view starts with it. A sort by another column runs in the workers (TableView.sortBy,
 * sort-rows.ts) over the filter's matches, and gives their row numbers in order (8 bytes a row);
 * `DESC` reads them from the end: `ORDER BY col DESC, pk DESC`. A new filter sorts again.
 */
import type { SortPart } from '../../../workers/sort-methods.ts';
import type { RowQuery } from '../../../workers/viewer-api.ts';
import { describeError, formatCount, plural } from '../format.ts';
import type { SortProgress } from './sort-rows.ts';
import type { TableView } from './table-view.ts';

export interface RowsFilter {
  query: RowQuery;
  /** Row numbers of the matches, ascending. */
  matches: Float64Array;
}

export interface RowsSort {
  column: number;
  descending: boolean;
  /** By the clustered key's (first) column: the leaves' own order. */
  key: boolean;
  /**
   * By a partitioned table's key's first column: by its whole key, sorted in the workers into the
   * index's order across the partitions (each partition's rows come in it, one partition after the other).
   */
  index: boolean;
  /**
   * The columns sorted by, in order (shift-click adds one), each with its direction. With more than
   * one, the workers' sort puts every direction in the rows' order, read forward (`descending` false).
   */
  parts: SortPart[];
}

export class ViewRows {
  filter = $state.raw<RowsFilter | null>(null);
  sort = $state.raw<RowsSort | null>(null);
  /** A non-key sort's row numbers in ascending order, once sorted (null while it runs). */
  sorted = $state.raw<Float64Array | null>(null);
  /** The sort running: how far it got. */
  progress = $state.raw<SortProgress | null>(null);
  error = $state<string | null>(null);
  #controller: AbortController | null = null;

  #indexOrdered = false;

  constructor(readonly view: TableView) {}

  /**
   * A partitioned table's secondary index is put in its order across the partitions (a sort by its
   * whole key), as the CLI's --index gives it: once, when its rows are first shown.
   */
  orderIndex(): void {
    const { partitions, keyColumns } = this.view.view;
    if (this.#indexOrdered || this.view.spec.indexName === undefined || partitions?.unmerged !== null || keyColumns.length === 0) return;
    this.#indexOrdered = true;
    if (this.sort === null) this.setSort(keyColumns[0], false);
  }

  /** Rows shown, out of `rowCount` in the table. */
  count(rowCount: number): number {
    if (this.sort && !this.sort.key && this.sorted) return this.sorted.length;
    return this.filter ? this.filter.matches.length : rowCount;
  }

  /** View position → row number. */
  rowAt(rowCount: number): (i: number) => number {
    const n = this.count(rowCount);
    const desc = this.sort?.descending ?? false;
    const sorted = this.sort && !this.sort.key ? this.sorted : null;
    const base = sorted ?? this.filter?.matches ?? null;
    if (base) return desc && (sorted || this.sort?.key) ? (i) => base[n - 1 - i] : (i) => base[i];
    return desc && this.sort?.key ? (i) => n - 1 - i : (i) => i;
  }

  /** Where row number `rowNo` is shown, or -1 when the view leaves it out (a filter) or is being sorted. */
  positionOf(rowNo: number, rowCount: number): number {
    const n = this.count(rowCount);
    const sorted = this.sort && !this.sort.key ? this.sorted : null;
    if (this.sort && !this.sort.key && !sorted) return -1;
    const base = sorted ?? this.filter?.matches ?? null;
    // A filter's matches ascend; a sort's row numbers are in its order: looked through (8 bytes a row, in memory).
    const at = base === null ? (rowNo < n ? rowNo : -1) : sorted ? base.indexOf(rowNo) : ascendingIndex(base, rowNo);
    const desc = this.sort?.descending ?? false;
    return at >= 0 && desc && (sorted !== null || this.sort?.key) ? n - 1 - at : at;
  }

  /**
   * The sort by several columns: `column` added at the end of those sorted by, its direction changed
   * if it is one of them, or taken out (`descending` null).
   */
  addSort(column: number, descending: boolean | null): void {
    const now = this.sort?.parts ?? [];
    const parts = now.some((p) => p.column === column)
      ? now.flatMap((p) => (p.column !== column ? [p] : descending === null ? [] : [{ column, descending }]))
      : descending === null ? now : [...now, { column, descending }];
    if (parts.length <= 1) {
      this.setSort(parts[0]?.column ?? column, parts[0]?.descending ?? null);
      return;
    }
    this.#stop();
    this.sort = { column: parts[0].column, descending: false, key: false, index: false, parts };
    void this.#run();
  }

  /** How the grid is sorted by `column`: its direction, or null when not by it. */
  directionOf(column: number): 'asc' | 'desc' | null {
    const part = this.sort?.parts.find((p) => p.column === column);
    return part ? (part.descending ? 'desc' : 'asc') : null;
  }

  /** The sort of a column, or none (`descending` null). */
  setSort(column: number, descending: boolean | null): void {
    const { partitions, keyColumns } = this.view.view;
    // Rows already in the key's order: not a partitioned table's (its partitions' rows come one partition after the other).
    const key = partitions === null && keyColumns[0] === column;
    const index = partitions !== null && partitions.unmerged === null && keyColumns[0] === column;
    // The other direction of the sort made: the same rows, read from the other end.
    const made = this.sort !== null && !this.sort.key && this.sort.parts.length === 1 && this.sort.column === column && this.sorted !== null;
    const parts = descending === null ? [] : [{ column, descending }];
    if (descending !== null && made) {
      this.sort = { column, descending, key, index, parts };
      return;
    }
    this.#stop();
    this.sort = descending === null ? null : { column, descending, key, index, parts };
    if (descending !== null && !key) void this.#run();
  }

  /** A new filter (null: none): a sort by a non-key column is made again over its matches. */
  setFilter(filter: RowsFilter | null): void {
    this.filter = filter;
    if (this.sort && !this.sort.key) {
      this.#stop();
      void this.#run();
    }
  }

  cancelSort(): void {
    this.#stop();
    this.sort = null;
  }

  /** What an export of these rows writes, for its choice: "all 300 rows", "the 24 filtered rows, sorted by x". */
  describe(rowCount: number): string {
    const n = this.count(rowCount);
    const rows = this.filter ? `the ${plural(n, 'filtered row')}` : `all ${formatCount(n)} rows`;
    const s = this.sort;
    if (!s || (!s.key && !this.sorted)) return rows;
    return `${rows}, sorted by ${this.sortNames()}`;
  }

  /** What the rows are sorted by: "salary descending, name", "the key (a, b)". */
  sortNames(): string {
    const s = this.sort;
    if (!s) return '';
    if (s.index) return `the key (${this.keyNames()})${s.descending ? ' descending' : ''}`;
    const { columns } = this.view.view;
    if (s.parts.length <= 1) return `${columns[s.column]}${s.descending ? ' descending' : ''}`;
    return s.parts.map((p) => `${columns[p.column]}${p.descending ? ' descending' : ''}`).join(', ');
  }

  /** The view's key columns, as the index orders by them. */
  keyNames(): string {
    return this.view.view.keyColumns.map((c) => this.view.view.columns[c]).join(', ');
  }

  #stop(): void {
    this.#controller?.abort();
    this.#controller = null;
    this.progress = null;
    this.error = null;
    this.sorted = null;
  }

  async #run(): Promise<void> {
    const sort = this.sort;
    if (!sort) return;
    const mine = new AbortController();
    this.#controller = mine;
    this.progress = { searched: 0, sorted: 0, merging: false };
    try {
      const rows = await this.view.sortBy({ column: sort.column, index: sort.index, ...(sort.parts.length > 1 ? { columns: sort.parts } : {}) }, this.filter?.query ?? null, mine.signal, (p) => {
        if (this.#controller === mine) this.progress = p;
      });
      if (this.#controller !== mine) return;
      this.sorted = rows;
    } catch (err) {
      if (this.#controller !== mine || mine.signal.aborted || (err instanceof Error && err.name === 'PoolStopped')) return;
      this.error = describeError(err);
      this.sort = null;
    } finally {
      if (this.#controller === mine) {
        this.progress = null;
        this.#controller = null;
      }
    }
  }
}

/** Where `v` is in ascending `list`, or -1. */
function ascendingIndex(list: Float64Array, v: number): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] === v) return mid;
    if (list[mid] < v) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

const shared = new WeakMap<TableView, ViewRows>();

/** The rows shown of `view` (made on first use). */
export function viewRows(view: TableView): ViewRows {
  let rows = shared.get(view);
  if (!rows) {
    rows = new ViewRows(view);
    shared.set(view, rows);
  }
  return rows;
}
