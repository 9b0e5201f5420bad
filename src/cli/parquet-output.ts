/**
 * `--format parquet -o FILE`: the rows' batches, in key order (one stream, whether decoded here or by
 * the worker threads), go into one ParquetRows (core/writers/parquet-rows.ts), which hands out each
 * row group's bytes as it fills; then the file's end, and a warning per column some of whose values
 * its Parquet type could not hold (written as nulls, named in the file's footer too).
 */
import { ParquetRows } from '../core/writers/parquet-rows.ts';
import { describeNotHeld } from '../core/writers/parquet-row-groups.ts';
import type { TableDef } from '../core/schema.ts';
import type { RowBatch } from '../core/values/row-batch.ts';
import type { DecodeStats } from '../core/readers/decode-stats.ts';

/** A table's rows on their way out: the output's chunks in key order, then the decoders' statistics. */
export interface Decoded<C> {
  chunks: AsyncIterable<C>;
  stats: () => Promise<DecodeStats>;
  /** Whether some values could not be written as they are (Parquet: written as nulls, warned). */
  amiss?: () => boolean;
}

export class ParquetOutput {
  readonly #file: ParquetRows;

  constructor(table: TableDef, columns: readonly string[]) {
    this.#file = new ParquetRows(table, columns);
  }

  /** The bytes of the row groups the batch filled (often none). */
  readonly chunk = (batch: RowBatch): Uint8Array => this.#file.add(batch);

  /**
   * `decoded`, its chunks made by `chunk`, followed by the file's end; `warn` says what was not held,
   * and `amiss` is whether some values were (the exit status 2).
   */
  decoded<C>(decoded: Decoded<C>, warn: (message: string) => void): Decoded<C | Uint8Array> {
    return { ...decoded, chunks: this.#ended(decoded.chunks, warn), amiss: () => this.#file.notHeld().length > 0 };
  }

  async *#ended<C>(chunks: AsyncIterable<C>, warn: (message: string) => void): AsyncGenerator<C | Uint8Array> {
    yield* chunks;
    yield this.#file.finish();
    for (const n of this.#file.notHeld()) warn(describeNotHeld(n));
  }
}
