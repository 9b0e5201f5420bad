/** Shared by the Parquet writer's unit tests: a RowBatch of given cell texts, and file parts joined. */
import { BatchBuilder, releaseBatch, type RowBatch } from '../src/core/values/row-batch.ts';

/** A batch whose cells are `rows`' texts (null: SQL NULL). */
export function batchOf(rows: (string | null)[][]): RowBatch {
  const b = new BatchBuilder(rows[0].length);
  for (const row of rows) {
    const base = b.startRow();
    row.forEach((v, c) => (v === null ? b.setNull(base + c) : b.setString(base + c, v)));
    b.endRow();
  }
  return releaseBatch(b);
}

/** The parts of a file, one after another, in a buffer of its own. */
export function joined(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
