/**
 * The values of a range of the grid, for a copy (clipboard-text.ts): read through the same RowStore
 * the grid shows, so rows not in memory are decoded on demand, a few pages at a time (the store's
 * cache stays within its budget), and only the range's own cells are kept. A copy is bounded: past
 * COPY_MAX_ROWS rows or COPY_MAX_CHARS characters the range is cut, and the caller says so.
 */
import type { Cell } from './batch-text.ts';
import type { RangeBounds } from './cell-range.ts';
import type { RowStore } from './row-store.ts';

export const COPY_MAX_ROWS = 100_000;
export const COPY_MAX_CHARS = 16 << 20;
/** Pages loaded at once while a range is read. */
const PAGES_PER_STEP = 16;

export interface RangeRows {
  rows: Cell[][];
  /** The range held more than was copied: the rows copied, of `wanted`. */
  cut: boolean;
  wanted: number;
}

/** The view positions from `from` whose rows lie on at most PAGES_PER_STEP pages: the end (exclusive). */
function stepEnd(store: RowStore, rowAt: (i: number) => number, from: number, end: number): number {
  const leaves = new Set<number>();
  let i = from;
  for (; i < end; i++) {
    leaves.add(store.map.leafOf(rowAt(i)));
    if (leaves.size > PAGES_PER_STEP) break;
  }
  return Math.max(from + 1, i);
}

/** The row's cells in columns left…right, reading its page if it is not in memory. */
async function rowCells(store: RowStore, rowNo: number, b: RangeBounds): Promise<Cell[]> {
  let row = store.row(rowNo);
  if (!row) {
    await store.load([store.map.leafOf(rowNo)]);
    row = store.row(rowNo);
  }
  if (!row) throw new Error(store.error ?? `row ${rowNo + 1} could not be read`);
  return row.slice(b.left, b.right + 1);
}

/** The cells of range `b` (view positions through `rowAt`), at most COPY_MAX_ROWS rows and COPY_MAX_CHARS characters. */
export async function rangeRows(store: RowStore, rowAt: (i: number) => number, b: RangeBounds): Promise<RangeRows> {
  const wanted = b.bottom - b.top + 1;
  const end = b.top + Math.min(wanted, COPY_MAX_ROWS);
  const rows: Cell[][] = [];
  let chars = 0;
  for (let from = b.top; from < end; ) {
    const to = stepEnd(store, rowAt, from, end);
    const leaves = new Set<number>();
    for (let i = from; i < to; i++) leaves.add(store.map.leafOf(rowAt(i)));
    await store.load([...leaves]);
    for (let i = from; i < to; i++) {
      const cells = await rowCells(store, rowAt(i), b);
      for (const v of cells) chars += (v?.length ?? 0) + 1;
      if (chars > COPY_MAX_CHARS) return { rows, cut: true, wanted };
      rows.push(cells);
    }
    from = to;
  }
  return { rows, cut: rows.length < wanted, wanted };
}
