/**
 * `--format parquet -o FILE`, of one file or of a partitioned table's partitions: the runs of leaf
 * pages, each decoded and encoded into row groups of its own by the worker threads (or this thread:
 * pooled-read.ts pooledParquet), are written as they come in key order, placed one after the other
 * (ParquetLayout: only their metadata is kept), then the file's footer made from that layout; a
 * warning per column some of whose values its Parquet type could not hold (written as nulls, named
 * in the footer too), and a line saying the file's row groups and which threads encoded them.
 */
import { describeNotHeld, ParquetLayout, PARQUET_MAGIC } from '../core/writers/parquet-row-groups.ts';
import { parquetFooter } from '../core/writers/parquet-rows.ts';
import type { ParquetRun } from '../core/writers/parquet-pages.ts';
import type { TableDef } from '../core/schema.ts';
import type { DecodeStats } from '../core/readers/decode-stats.ts';
import type { InnodbTable } from '../lib/innodb-table.ts';
import { pooledParquet } from './pooled-read.ts';
import type { RowWhere } from '../core/readers/where.ts';

/** A table's rows on their way out: the output's chunks in key order, then the decoders' statistics. */
export interface Decoded<C> {
  chunks: AsyncIterable<C>;
  stats: () => Promise<DecodeStats>;
  /** Whether some values could not be written as they are (Parquet: written as nulls, warned). */
  amiss?: () => boolean;
  /** With --where (where-option.ts): the rows it kept, written. */
  kept?: () => number;
}

/** One Parquet file of runs placed in order: head, each run's bytes, footer. */
export class ParquetOutput {
  readonly head: Uint8Array = PARQUET_MAGIC;
  readonly #layout = new ParquetLayout();
  /** The most worker threads that encoded runs of the file (0: all encoded in the main thread). */
  #threads = 0;

  constructor(readonly table: TableDef, readonly columns: readonly string[]) {}

  /** The run's bytes, placed after the runs placed so far; `threads` encoded it (0: this thread). */
  place(run: ParquetRun, threads: number): Uint8Array {
    this.#layout.place(run.part);
    this.#threads = Math.max(this.#threads, threads);
    return run.bytes;
  }

  /** The file's footer, after the last run; `warn` says each column of values not held. */
  end(warn: (message: string) => void): Uint8Array {
    const footer = parquetFooter(this.table, this.columns, this.#layout.groups());
    for (const n of this.#layout.notHeld()) warn(describeNotHeld(n));
    return footer;
  }

  /** Whether some values were written as nulls, their type unable to hold them (the exit status 2). */
  amiss(): boolean {
    return this.#layout.notHeld().length > 0;
  }

  /** The rows placed so far. */
  rows(): number {
    return this.#layout.groups().rows;
  }

  /** What the file holds and where its row groups were encoded, for stderr. */
  summary(file: string): string {
    const { rows, rowGroups } = this.#layout.groups();
    const by = this.#threads === 0 ? 'in the main thread' : `by ${this.#threads} worker threads`;
    return `${file}: Parquet, ${rows} rows in ${rowGroups.length} row groups, encoded ${by}`;
  }
}

/** The rows of `table` (data files `paths`; those `where` keeps) as the chunks of one Parquet file `file`, with `threads` threads. */
export async function parquetDecoded(table: InnodbTable, paths: readonly string[], threads: number, file: string, say: { warn(message: string): void; line(text: string): void }, where?: RowWhere): Promise<Decoded<Uint8Array>> {
  const out = new ParquetOutput(table.definition, table.reader.columns);
  const read = await pooledParquet(table, paths, threads, { columns: table.reader.columns, partition: null }, where);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    yield out.head;
    for await (const run of read.runs) yield out.place(run, read.threads);
    yield out.end(say.warn);
    say.line(out.summary(file));
  }
  return { chunks: chunks(), stats: () => Promise.resolve(read.stats()), amiss: () => out.amiss(), ...(where === undefined ? {} : { kept: () => out.rows() }) };
}
