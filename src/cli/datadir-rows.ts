/**
 * One table's rows into one output of `ibd-reader DIR -o OUTDIR` (datadir.ts), in key order: CSV
 * (header, NULL as `\N`), NDJSON, Parquet (parquet-output.ts), or SQL a server loads (the database
 * created and used, the CREATE TABLE, INSERTs, as output.ts writes them). A table of many leaf pages
 * is decoded over the worker threads as the one-table CLI does; a small one in this thread.
 */
import { batchRows, type RowBatch } from '../core/values/row-batch.ts';
import { csvBytes } from '../core/writers/csv-bytes.ts';
import { csvHeader, ndjsonOf, sqlColumns, sqlIdent, sqlInserts, sqlPostamble, sqlPreamble } from '../core/writers/output.ts';
import type { DecodeStats } from '../core/readers/table-reader.ts';
import type { InnodbTable } from '../lib/innodb-table.ts';
import { PARALLEL_MIN_PAGES, startPool } from '../node/pool.ts';
import { parquetDecoded } from './parquet-output.ts';
import { inKeyOrder } from './pooled-read.ts';

export type OutFormat = 'csv' | 'ndjson' | 'parquet' | 'sql';

export interface RowsOut {
  format: OutFormat;
  /** The table's database, which SQL creates and uses; null for none. */
  db: string | null;
  threads: number;
  /** --json-strings: NDJSON values all strings, as CSV shows them. */
  jsonStrings: boolean;
  /** The output file (named in Parquet's summary). */
  file: string;
  /** `done`, where given, is called once the chunk has been written: its buffer may then be reused. */
  write(chunk: string | Uint8Array, done?: () => void): Promise<void> | undefined;
  warn(message: string): void;
}

export interface Written {
  rows: number;
  stats: DecodeStats;
  /** Values its format could not hold (Parquet: written as nulls, warned). */
  amiss: boolean;
}

/** The decoding threads' script, beside the CLI's bundle. */
const workerUrl = (): URL => new URL('./decode-worker.mjs', import.meta.url);

/** The table's batches in key order: from the worker threads for a large table (CSV: their bytes), else from this thread. */
async function batchesOf(table: InnodbTable, paths: readonly string[], out: RowsOut): Promise<{ runs: AsyncIterable<RowBatch | Uint8Array>; stats(): DecodeStats; give?: (buffer: ArrayBuffer) => void }> {
  const leaves = await table.reader.leafPages();
  const csv = out.format === 'csv';
  if (out.threads === 1 || leaves.length < PARALLEL_MIN_PAGES) return { runs: table.batches({ batchSize: 5000, separated: csv }), stats: () => table.stats };
  if (csv) {
    const pool = startPool(workerUrl(), paths, table.definition, table.options, 'csv', out.threads);
    // Each run's CSV buffer goes back to its worker once written (NodePool.give), as writeCsvPooled does.
    return { runs: inKeyOrder(pool, leaves), stats: () => pool.stats(), give: (buffer) => pool.give(buffer) };
  }
  const pool = startPool(workerUrl(), paths, table.definition, table.options, 'batch', out.threads);
  return { runs: inKeyOrder(pool, leaves), stats: () => pool.stats() };
}

/** Writes the rows of `table` (data files `paths`); how many, and what the decoders met. */
export async function tableRows(table: InnodbTable, paths: readonly string[], out: RowsOut): Promise<Written> {
  if (out.format === 'parquet') {
    const decoded = await parquetDecoded(table, paths, out.threads, out.file, { warn: out.warn, line: () => undefined });
    for await (const chunk of decoded.chunks) await out.write(chunk);
    const stats = await decoded.stats();
    return { rows: stats.rowsDecoded, stats, amiss: decoded.amiss?.() === true };
  }
  const columns = table.columns;
  const sql = out.format === 'sql' ? sqlColumns(table.definition, columns) : null;
  const { db } = out;
  if (out.format === 'csv') await out.write(csvHeader(columns));
  if (sql !== null) await out.write(`${db !== null ? `CREATE DATABASE IF NOT EXISTS ${sqlIdent(db)};\nUSE ${sqlIdent(db)};\n` : ''}${sqlPreamble(table.definition, table.info.file)}`);
  const read = await batchesOf(table, paths, out);
  for await (const run of read.runs) {
    if (run instanceof Uint8Array) await out.write(run, read.give && (() => read.give?.(run.buffer as ArrayBuffer)));
    else if (out.format === 'csv') await out.write(csvBytes(run));
    else if (sql !== null) await out.write(sqlInserts(table.definition.name, sql, batchRows(run)));
    else await out.write(ndjsonOf(table.definition, columns, batchRows(run), { strings: out.jsonStrings }));
  }
  if (sql !== null) await out.write(sqlPostamble());
  const stats = read.stats();
  return { rows: stats.rowsDecoded, stats, amiss: false };
}
