/**
 * The decoded rows of one table, as the worker sent them: a list of RowBatch (src/core/row-batch.ts),
 * each one UTF-8 buffer plus start/end offsets and NULL flags. No JS object per row or per cell is
 * kept: a cell becomes a string only when it is shown, searched or copied. For narrow rows that is
 * 10–20 bytes a cell instead of ~60–100 for an array of strings, which is what lets a million rows
 * (and, memory allowing, ten million) sit in a page.
 *
 * Decision (issue 5): rows are kept in the page in this compact form rather than re-decoded from
 * the file on demand. Scrolling, filtering and jumping then never wait for the worker, and the heap
 * cost is measured by the browser test (1,000,000 rows: well under the 300 MB budget). Exports do
 * not read the store: they decode the file again in a worker of their own.
 */
import type { RowBatch } from '../core/row-batch.ts';
import { batchText, cellString, type BatchText } from './batch-text.ts';

export type Cell = string | null;

/** Batches whose text is kept decoded (the ones on screen, while scrolling). */
const TEXT_CACHE = 8;

export class RowStore {
  readonly cols: number;
  readonly batches: RowBatch[] = [];
  /** First row number of each batch. */
  readonly starts: number[] = [];
  count = 0;
  /** Bytes held (text + offsets + flags). */
  bytes = 0;
  private lastBatch = 0;
  private texts = new Map<number, BatchText>();

  constructor(cols: number) {
    this.cols = cols;
  }

  append(batch: RowBatch): void {
    if (batch.rows === 0) return;
    if (batch.cols !== this.cols) throw new Error(`a batch of ${batch.cols} columns does not fit a table of ${this.cols}`);
    this.batches.push(batch);
    this.starts.push(this.count);
    this.count += batch.rows;
    this.bytes += batch.text.byteLength + batch.cells.byteLength + batch.nulls.byteLength;
  }

  /** Batch index holding row `row` (0-based). */
  batchOf(row: number): number {
    const last = this.lastBatch;
    const starts = this.starts;
    if (last < starts.length && starts[last] <= row && (last + 1 === starts.length || starts[last + 1] > row)) return last;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= row) lo = mid;
      else hi = mid - 1;
    }
    this.lastBatch = lo;
    return lo;
  }

  /** The batch's text as one string (a few batches are cached, least recently used dropped). */
  private textOf(b: number): BatchText {
    let t = this.texts.get(b);
    if (t) {
      this.texts.delete(b);
    } else {
      t = batchText(this.batches[b]);
      if (this.texts.size >= TEXT_CACHE) this.texts.delete(this.texts.keys().next().value as number);
    }
    this.texts.set(b, t);
    return t;
  }

  cell(row: number, col: number): Cell {
    if (row < 0 || row >= this.count) return null;
    const b = this.batchOf(row);
    const batch = this.batches[b];
    const cell = (row - this.starts[b]) * this.cols + col;
    return batch.nulls[cell] ? null : cellString(batch, this.textOf(b), cell);
  }

  isNull(row: number, col: number): boolean {
    const b = this.batchOf(row);
    const batch = this.batches[b];
    return batch.nulls[(row - this.starts[b]) * this.cols + col] === 1;
  }

  row(row: number): Cell[] {
    const out = new Array<Cell>(this.cols);
    if (row < 0 || row >= this.count) return out.fill(null);
    const b = this.batchOf(row);
    const batch = this.batches[b];
    const bt = this.textOf(b);
    const base = (row - this.starts[b]) * this.cols;
    for (let c = 0; c < this.cols; c++) out[c] = cellString(batch, bt, base + c);
    return out;
  }

  /** UTF-8 byte length of a cell (0 for NULL). */
  cellBytes(row: number, col: number): number {
    const b = this.batchOf(row);
    const batch = this.batches[b];
    const cell = (row - this.starts[b]) * this.cols + col;
    return batch.nulls[cell] ? 0 : batch.cells[2 * cell + 1] - batch.cells[2 * cell];
  }
}
