/**
 * `--where COND`: the page's typed filter (core/readers/where-parse.ts, where.ts) on the command
 * line. The condition is parsed over the table's output columns and made into its test once before
 * any row is written, so a typo or a test the column's type cannot take is a usage error naming it.
 * The rows are filtered where they are decoded (this thread, or each worker thread: pooled-read.ts),
 * whatever the output (CSV, NDJSON, Parquet, --count); the report says how many the condition kept
 * and how many it filtered out, which are not "withheld" (they were read, and did not match).
 */
import type { Writable } from 'node:stream';
import { parseWhere } from '../core/readers/where-parse.ts';
import { whereFilter, type RowWhere } from '../core/readers/where.ts';
import type { DecodeStats } from '../core/readers/decode-stats.ts';
import type { RowBatch } from '../core/values/row-batch.ts';
import type { InnodbTable } from '../lib/innodb-table.ts';
import { UsageError } from './args.ts';
import { pooledBatches } from './pooled-read.ts';
import type { Decoded } from './parquet-output.ts';

/** `text` over `table`'s output columns, TIMESTAMP compared as shown in `zone` (UTC when none is set). */
export async function whereOption(text: string, table: InnodbTable, zone: string | null): Promise<RowWhere> {
  try {
    const where: RowWhere = { conditions: parseWhere(text, table.columns), zone: zone ?? 'UTC' };
    // Made once here for its refusals (a type that cannot take the test), before the threads make it again.
    await whereFilter(where, table.columns, table.definition.columns);
    return where;
  } catch (e) {
    throw new UsageError(`--where: ${(e as Error).message}`);
  }
}

/** The report's line on what the condition kept of the rows read. */
export function whereLine(file: string, kept: number, read: number): string {
  return `${file}: --where kept ${kept} of the ${read} rows read (${read - kept} filtered out by the condition, not withheld)`;
}

/** The rows `where` keeps of `table` (data files `paths`), decoded with `threads` threads, as `format` makes them, in key order. */
export async function whereChunks<C>(table: InnodbTable, paths: readonly string[], threads: number, where: RowWhere, format: (batch: RowBatch) => C): Promise<Decoded<C>> {
  const read = await pooledBatches(table, paths, threads, true, where);
  let kept = 0;
  async function* chunks(): AsyncGenerator<C> {
    for await (const batch of read.batches) {
      kept += batch.rows;
      yield format(batch);
    }
  }
  return { chunks: chunks(), stats: () => Promise.resolve(read.stats()), kept: () => kept };
}

/** --count --where: the rows the condition holds for (decoded, unlike a count of all), written to `out`; the decoders' statistics. */
export async function countWhere(table: InnodbTable, paths: readonly string[], threads: number, where: RowWhere, out: Writable): Promise<DecodeStats> {
  const read = await pooledBatches(table, paths, threads, true, where);
  let kept = 0;
  for await (const batch of read.batches) kept += batch.rows;
  const s = read.stats();
  await new Promise<void>((resolve, reject) => out.write(`${kept}\n`, (e) => (e ? reject(e) : resolve())));
  process.stderr.write(`${whereLine(table.info.file, kept, s.rowsDecoded)}; ${s.pagesRead} leaf pages decoded\n`);
  return s;
}
