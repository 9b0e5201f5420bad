/**
 * Strings out of a RowBatch without one TextDecoder call per cell: its cells and rows, sliced out of
 * the batch's text decoded once (core/values/batch-strings.ts). No DOM: used by the page (grid,
 * search) and the export worker.
 */
import type { RowBatch } from '../../core/values/row-batch.ts';
import { batchText, type BatchText } from '../../core/values/batch-strings.ts';

export type Cell = string | null;

export { batchText, unitOffsets, type BatchText } from '../../core/values/batch-strings.ts';

/** Cell `cell` (row * cols + col) of the batch as a string, or null for NULL. */
export function cellString(batch: RowBatch, bt: BatchText, cell: number): Cell {
  if (batch.nulls[cell]) return null;
  const s = batch.cells[2 * cell];
  const e = batch.cells[2 * cell + 1];
  return bt.map ? bt.str.slice(bt.map[s], bt.map[e]) : bt.str.slice(s, e);
}

/** Every row of the batch as an array of strings (NULL as null). */
export function batchToRows(batch: RowBatch): Cell[][] {
  const bt = batchText(batch);
  const out = new Array<Cell[]>(batch.rows);
  let cell = 0;
  for (let r = 0; r < batch.rows; r++) {
    const row = new Array<Cell>(batch.cols);
    for (let c = 0; c < batch.cols; c++, cell++) row[c] = cellString(batch, bt, cell);
    out[r] = row;
  }
  return out;
}
