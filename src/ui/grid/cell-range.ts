/**
 * The grid's selection (RowGrid.svelte): a rectangle of cells from an anchor (where the click or the
 * keyboard started) to a focus (the active cell, moved by shift-click and shift-arrows), in view
 * positions (a filter's matches renumber them: the grid starts a new selection then).
 */
import type { CellAt } from './grid-keys.ts';

export interface CellRange {
  anchor: CellAt;
  focus: CellAt;
}

/** The rows and columns a range spans, inclusive. */
export interface RangeBounds {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export function rangeBounds(r: CellRange): RangeBounds {
  return {
    top: Math.min(r.anchor.row, r.focus.row),
    bottom: Math.max(r.anchor.row, r.focus.row),
    left: Math.min(r.anchor.col, r.focus.col),
    right: Math.max(r.anchor.col, r.focus.col),
  };
}

export function inBounds(b: RangeBounds, row: number, col: number): boolean {
  return row >= b.top && row <= b.bottom && col >= b.left && col <= b.right;
}

/** A range of one cell. */
export function cellRange(at: CellAt): CellRange {
  return { anchor: at, focus: at };
}

/** Rows and columns a range holds. */
export function rangeSize(b: RangeBounds): { rows: number; cols: number } {
  return { rows: b.bottom - b.top + 1, cols: b.right - b.left + 1 };
}
