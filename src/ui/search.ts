/**
 * Searching the rows held in a RowStore, without making a string per cell: each batch's UTF-8 text is
 * decoded once into one string, and cells are looked at as ranges of it. No DOM: unit-tested in Node.
 *
 *  - `filterRows`: row numbers whose cell (in any column, or in one) contains the text; NULL never
 *    matches (it is not text). Works through the store in slices and yields between them, so the
 *    page stays responsive; abortable.
 *  - `findKey`: the row whose clustered-key value(s) equal the given ones. Rows are in key order, so
 *    a single numeric or temporal key is found by binary search; other keys (collations decide their
 *    order) by a scan for the exact value.
 */
import type { ColumnInfo } from '../../workers/viewer-api.ts';
import type { RowBatch } from '../core/row-batch.ts';
import { batchText } from './batch-text.ts';
import type { RowStore } from './row-store.ts';

export interface SearchQuery {
  text: string;
  /** Output column index, or null for any column. */
  column: number | null;
  matchCase: boolean;
}

export interface SearchOptions {
  signal?: AbortSignal;
  /** Called between slices with rows searched so far. */
  onProgress?: (searched: number, found: number) => void;
  /** Milliseconds of work between yields (default 40). */
  sliceMs?: number;
}

/** True when the non-NULL cells follow one another in the text (as BatchBuilder writes them). */
function inTextOrder(batch: RowBatch): boolean {
  let end = 0;
  for (let cell = 0; cell < batch.rows * batch.cols; cell++) {
    if (batch.nulls[cell]) continue;
    if (batch.cells[2 * cell] < end) return false;
    end = batch.cells[2 * cell + 1];
  }
  return true;
}

/** Rows of `batch` (batch-relative) with a match, appended to `out` offset by `base`. */
function searchBatch(batch: RowBatch, query: SearchQuery, needle: string, out: number[], base: number): void {
  const { str, map } = batchText(batch);
  const { cols, cells, nulls } = batch;
  const startOf = (cell: number) => (map ? map[cells[2 * cell]] : cells[2 * cell]);
  const endOf = (cell: number) => (map ? map[cells[2 * cell + 1]] : cells[2 * cell + 1]);
  const wanted = (cell: number) => query.column === null || cell % cols === query.column;
  const total = batch.rows * cols;
  const hay = query.matchCase ? str : str.toLowerCase();
  if (hay.length !== str.length || !inTextOrder(batch)) {
    // A few characters change length when lower-cased (İ), and a batch could hold its cells out of
    // text order: then compare cell by cell.
    let lastRow = -1;
    for (let cell = 0; cell < total; cell++) {
      const row = Math.floor(cell / cols);
      if (row === lastRow || nulls[cell] || !wanted(cell)) continue;
      const text = str.slice(startOf(cell), endOf(cell));
      if ((query.matchCase ? text : text.toLowerCase()).includes(needle)) {
        out.push(base + row);
        lastRow = row;
      }
    }
    return;
  }
  // Cells lie one after another in the text, so one forward scan for the needle over the whole batch
  // finds every candidate; a candidate counts when it lies inside one cell of a searched column.
  let cell = 0;
  let from = 0;
  for (;;) {
    const at = hay.indexOf(needle, from);
    if (at < 0) return;
    while (cell < total && (nulls[cell] === 1 || endOf(cell) <= at)) cell++;
    if (cell >= total) return;
    const s = startOf(cell);
    if (s <= at && at + needle.length <= endOf(cell) && wanted(cell)) {
      const row = Math.floor(cell / cols);
      out.push(base + row);
      cell = (row + 1) * cols;
      // skip to the next row's first non-NULL cell
      while (cell < total && nulls[cell] === 1) cell++;
      if (cell >= total) return;
      from = startOf(cell);
    } else {
      from = Math.max(at + 1, s);
    }
  }
}

/** Row numbers (ascending) whose cells contain `query.text`. */
export async function filterRows(store: RowStore, query: SearchQuery, options: SearchOptions = {}): Promise<Uint32Array> {
  const needle = query.matchCase ? query.text : query.text.toLowerCase();
  const found: number[] = [];
  const slice = options.sliceMs ?? 40;
  let started = performance.now();
  for (let b = 0; b < store.batches.length; b++) {
    options.signal?.throwIfAborted();
    searchBatch(store.batches[b], query, needle, found, store.starts[b]);
    if (performance.now() - started > slice) {
      options.onProgress?.(store.starts[b] + store.batches[b].rows, found.length);
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      started = performance.now();
    }
  }
  options.signal?.throwIfAborted();
  return Uint32Array.from(found);
}

const INTEGER = /^[-+]?\d+$/;

/** Compares two values of a key column the way its rows are ordered; null when unknown. */
function comparer(info: ColumnInfo | undefined): ((a: string, b: string) => number) | null {
  if (!info) return null;
  const t = info.sqlType;
  if (/^(tinyint|smallint|mediumint|int|bigint|bool)\b/.test(t)) {
    return (a, b) => {
      if (!INTEGER.test(a) || !INTEGER.test(b)) return Number(a) - Number(b);
      const x = BigInt(a);
      const y = BigInt(b);
      return x < y ? -1 : x > y ? 1 : 0;
    };
  }
  if (/^(decimal|float|double)\b/.test(t)) return (a, b) => Number(a) - Number(b);
  // Canonical date/datetime/timestamp/year text sorts like the value (no negatives).
  if (/^(date|datetime|timestamp|year)\b/.test(t)) return (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  return null;
}

/**
 * Splits what the user typed into key values: one value for a single-column key; for a composite key
 * values separated by commas (quotes optional: `1, 'a,b'`).
 */
export function parseKeyInput(input: string, parts: number): string[] {
  const trimmed = input.trim();
  if (parts <= 1) return [unquote(trimmed)];
  const out: string[] = [];
  const re = /\s*('(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|[^,]*)\s*(?:,|$)/gy;
  let m: RegExpExecArray | null;
  while (out.length < parts && (m = re.exec(trimmed)) !== null) {
    out.push(unquote(m[1].trim()));
    if (re.lastIndex >= trimmed.length) break;
  }
  return out;
}

function unquote(v: string): string {
  const q = v[0];
  if (v.length >= 2 && (q === "'" || q === '"') && v[v.length - 1] === q) {
    return v.slice(1, -1).replace(q === "'" ? /''|\\(.)/g : /""|\\(.)/g, (_all, ch: string | undefined) => ch ?? q);
  }
  return v;
}

/**
 * Row number whose key cells equal `values`, or -1. `keyColumns` are output column indexes. For a
 * single numeric/temporal key the rows' key order allows a binary search; otherwise a scan compares
 * exactly, then (if nothing is equal) ignoring case, as most collations do.
 */
export function findKey(store: RowStore, keyColumns: readonly number[], info: readonly ColumnInfo[], values: readonly string[]): number {
  if (keyColumns.length === 0 || values.length !== keyColumns.length || store.count === 0) return -1;
  if (keyColumns.length === 1) {
    const col = keyColumns[0];
    const cmp = comparer(info[col]);
    if (cmp) {
      const want = values[0];
      let lo = 0;
      let hi = store.count - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const v = store.cell(mid, col);
        const d = v === null ? -1 : cmp(v, want);
        if (d === 0) return mid;
        if (d < 0) lo = mid + 1;
        else hi = mid - 1;
      }
      return -1;
    }
  }
  for (const fold of [false, true]) {
    const want = fold ? values.map((v) => v.toLowerCase()) : values;
    for (let r = 0; r < store.count; r++) {
      let all = true;
      for (let k = 0; k < keyColumns.length && all; k++) {
        const v = store.cell(r, keyColumns[k]);
        all = v !== null && (fold ? v.toLowerCase() : v) === want[k];
      }
      if (all) return r;
    }
  }
  return -1;
}
