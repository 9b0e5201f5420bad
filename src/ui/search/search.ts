/**
 * Searching decoded rows without making a string per cell: each batch's UTF-8 text is decoded once
 * into one string, and cells are looked at as ranges of it. Pure functions over RowBatch, run by the
 * pool's workers (workers/viewer-methods.ts) on the pages they decode; unit-tested in Node.
 *
 *  - `textRows`: rows whose cell (in any column, or in one) contains the text; NULL never matches
 *    (it is not text).
 *  - `keyRows`: rows whose clustered-key cells equal the given values (exactly, or ignoring case as
 *    most collations do).
 *  - `keyComparer`: how a single key column orders, when its text tells (numbers, dates), so that a
 *    key is found by binary search over the leaf pages (src/ui/grid/table-view.ts).
 */
import type { ColumnInfo, RowQuery } from '../../../workers/viewer-api.ts';
import type { RowBatch } from '../../core/values/row-batch.ts';
import { isFixedZone } from '../../core/values/time-zone.ts';
import { batchText } from '../grid/batch-text.ts';

export type TextQuery = Extract<RowQuery, { kind: 'text' }>;
export type KeyQuery = Extract<RowQuery, { kind: 'key' }>;

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

/** Rows of `batch` with a cell containing `query.text`, appended to `out` (ascending). */
export function textRows(batch: RowBatch, query: TextQuery, out: number[]): void {
  const needle = query.matchCase ? query.text : query.text.toLowerCase();
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
        out.push(row);
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
      out.push(row);
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

/** Rows of `batch` whose key cells equal `query.values`, appended to `out`. */
export function keyRows(batch: RowBatch, query: KeyQuery, out: number[]): void {
  const { str, map } = batchText(batch);
  const want = query.fold ? query.values.map((v) => v.toLowerCase()) : query.values;
  const { cols, cells, nulls } = batch;
  for (let r = 0; r < batch.rows; r++) {
    let all = true;
    for (let k = 0; k < query.columns.length && all; k++) {
      const cell = r * cols + query.columns[k];
      if (nulls[cell]) {
        all = false;
        continue;
      }
      const s = map ? map[cells[2 * cell]] : cells[2 * cell];
      const e = map ? map[cells[2 * cell + 1]] : cells[2 * cell + 1];
      const v = str.slice(s, e);
      all = (query.fold ? v.toLowerCase() : v) === want[k];
    }
    if (all) {
      out.push(r);
      if (query.firstOnly) return;
    }
  }
}

const INTEGER = /^[-+]?\d+$/;

/**
 * Compares two values of a key column the way its rows are ordered; null when unknown. TIMESTAMP
 * shown in `zone`: its text orders like its rows only in a zone without summer time (the clocks going
 * back repeat an hour).
 */
export function keyComparer(info: ColumnInfo | undefined, zone = 'UTC'): ((a: string, b: string) => number) | null {
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
  if (/^timestamp\b/.test(t) && !isFixedZone(zone)) return null;
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
