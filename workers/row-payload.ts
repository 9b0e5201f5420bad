/**
 * A row's cells as the payload of a sort run's record (sort-run.ts), so that a sorted export reads
 * its rows back from the merged runs in order instead of decoding their pages again: per cell a
 * u32 length (0xFFFFFFFF for NULL, little-endian) and the cell's UTF-8 bytes as the batch holds
 * them. `readPayload` writes one back as a row of a BatchBuilder, for the export's formatters.
 */
import type { BatchBuilder, RowBatch } from '../src/core/values/row-batch.ts';
import type { ByteStore } from './sort-run.ts';

const NULL_CELL = 0xffffffff;

/** Appends row `row` of `batch` to `out`. */
export function writePayload(batch: RowBatch, row: number, out: ByteStore): void {
  const base = row * batch.cols;
  for (let c = 0; c < batch.cols; c++) {
    const cell = base + c;
    const start = batch.cells[2 * cell];
    const len = batch.nulls[cell] ? 0 : batch.cells[2 * cell + 1] - start;
    const at = out.reserve(4 + len);
    const n = batch.nulls[cell] ? NULL_CELL : len;
    const b = out.bytes;
    b[at] = n & 0xff;
    b[at + 1] = (n >>> 8) & 0xff;
    b[at + 2] = (n >>> 16) & 0xff;
    b[at + 3] = n >>> 24;
    b.set(batch.text.subarray(start, start + len), at + 4);
    out.length = at + 4 + len;
  }
}

/** Adds the row in `buf[at, at + len)` to `into`. */
export function readPayload(buf: Uint8Array, at: number, len: number, into: BatchBuilder): void {
  const base = into.startRow();
  let p = at;
  for (let c = 0; c < into.cols && p < at + len; c++) {
    const n = (buf[p] | (buf[p + 1] << 8) | (buf[p + 2] << 16) | (buf[p + 3] << 24)) >>> 0;
    p += 4;
    if (n === NULL_CELL) continue;
    into.reserve(n);
    const start = into.pos;
    into.text.set(buf.subarray(p, p + n), start);
    into.pos += n;
    into.setCell(base + c, start, into.pos);
    p += n;
  }
  into.endRow();
}
