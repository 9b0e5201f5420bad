/**
 * Batches made from batches (row-batch.ts) without decoding again: some of a batch's rows (a lookup's
 * filter), or its rows with one more column holding the same text in every row (which partition a
 * row came from), where the text buffer is shared and only the cells, NULL flags and lines are
 * copied; rows of several batches in one (a merge of partitions in key order), their text copied;
 * rows of cells given as strings packed into a batch.
 */
import { BatchBuilder, type RowBatch } from './row-batch.ts';

/** The rows `keep` (indexes, in the order given) of `batch`. */
export function selectRows(batch: RowBatch, keep: ArrayLike<number>): RowBatch {
  const { cols } = batch;
  const cells = new Uint32Array(2 * cols * keep.length);
  const nulls = new Uint8Array(cols * keep.length);
  const lines = batch.lines ? new Int32Array(2 * keep.length) : undefined;
  for (let i = 0; i < keep.length; i++) {
    const r = keep[i];
    cells.set(batch.cells.subarray(2 * cols * r, 2 * cols * (r + 1)), 2 * cols * i);
    nulls.set(batch.nulls.subarray(cols * r, cols * (r + 1)), cols * i);
    if (lines && batch.lines) lines.set(batch.lines.subarray(2 * r, 2 * r + 2), 2 * i);
  }
  return { rows: keep.length, cols, text: batch.text, cells, nulls, ...(lines ? { lines } : {}) };
}

const encoder = new TextEncoder();

/**
 * `batch` with a last column whose cell is `value` in every row. The rows are no longer their CSV
 * lines (RowBatch.lines is dropped): csvBytes() writes them cell by cell.
 */
export function appendColumn(batch: RowBatch, value: string): RowBatch {
  const { rows, cols } = batch;
  const bytes = encoder.encode(value);
  const text = new Uint8Array(batch.text.length + bytes.length);
  text.set(batch.text);
  text.set(bytes, batch.text.length);
  const wide = cols + 1;
  const cells = new Uint32Array(2 * wide * rows);
  const nulls = new Uint8Array(wide * rows);
  for (let r = 0; r < rows; r++) {
    cells.set(batch.cells.subarray(2 * cols * r, 2 * cols * (r + 1)), 2 * wide * r);
    cells[2 * wide * r + 2 * cols] = batch.text.length;
    cells[2 * wide * r + 2 * cols + 1] = text.length;
    nulls.set(batch.nulls.subarray(cols * r, cols * (r + 1)), wide * r);
  }
  return { rows, cols: wide, text, cells, nulls };
}

/** The rows of `batches` (of the same columns) one after the other, in one batch (their lines dropped, as appendColumn's). */
export function concatBatches(batches: readonly RowBatch[]): RowBatch {
  if (batches.length === 1) return batches[0];
  const cols = batches[0]?.cols ?? 0;
  const rows = batches.reduce((n, b) => n + b.rows, 0);
  const text = new Uint8Array(batches.reduce((n, b) => n + b.text.length, 0));
  const cells = new Uint32Array(2 * cols * rows);
  const nulls = new Uint8Array(cols * rows);
  let at = 0;
  let row = 0;
  for (const b of batches) {
    text.set(b.text, at);
    const cellAt = 2 * cols * row;
    for (let i = 0; i < 2 * cols * b.rows; i++) cells[cellAt + i] = b.cells[i] + at;
    nulls.set(b.nulls.subarray(0, cols * b.rows), cols * row);
    at += b.text.length;
    row += b.rows;
  }
  return { rows, cols, text, cells, nulls };
}

/** One row of a batch. */
export interface RowPick {
  batch: RowBatch;
  row: number;
}

/** The rows `picks` (of batches of `cols` columns), in the order given, copied into one batch (their lines dropped). */
export function gatherRows(picks: readonly RowPick[], cols: number): RowBatch {
  let size = 0;
  for (const { batch, row } of picks) {
    for (let c = 2 * cols * row; c < 2 * cols * (row + 1); c += 2) size += batch.cells[c + 1] - batch.cells[c];
  }
  const text = new Uint8Array(size);
  const cells = new Uint32Array(2 * cols * picks.length);
  const nulls = new Uint8Array(cols * picks.length);
  let at = 0;
  for (let i = 0; i < picks.length; i++) {
    const { batch, row } = picks[i];
    nulls.set(batch.nulls.subarray(cols * row, cols * (row + 1)), cols * i);
    for (let c = 0; c < cols; c++) {
      const start = batch.cells[2 * (cols * row + c)];
      const end = batch.cells[2 * (cols * row + c) + 1];
      text.set(batch.text.subarray(start, end), at);
      cells[2 * (cols * i + c)] = at;
      at += end - start;
      cells[2 * (cols * i + c) + 1] = at;
    }
  }
  return { rows: picks.length, cols, text, cells, nulls };
}

/** Rows of cells (null: NULL) packed into a RowBatch (one UTF-8 buffer, offsets, NULL flags). */
export function packRows(rows: readonly (readonly (string | null | undefined)[])[], cols: number, builder = new BatchBuilder(cols, rows.length)): RowBatch {
  for (const row of rows) {
    const base = builder.startRow();
    for (let c = 0; c < cols; c++) {
      const v = row[c];
      if (v !== null && v !== undefined) builder.setString(base + c, v);
    }
  }
  return builder.take();
}
