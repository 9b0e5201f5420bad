/**
 * A table's rows and row count in the worker threads (node/pool.ts): its leaf pages cut into runs
 * that every thread decodes, given back in key order. The CLI's count of one file, its reads of a
 * partitioned table's partitions (partitions.ts) and its Parquet runs (of one file or partitions), so
 * those use all the cores too. A table of few leaf pages is read in this thread: starting the
 * threads would cost more than they save. A --where filters the rows where they are decoded.
 */
import type { Writable } from 'node:stream';
import { alignedRuns, decodeInParallel, type ParallelOptions } from '../core/readers/parallel.ts';
import { parquetPages, type ParquetRun, type ParquetRunSpec } from '../core/writers/parquet-pages.ts';
import type { DecodeStats } from '../core/readers/table-reader.ts';
import type { RowBatch } from '../core/values/row-batch.ts';
import { sumLeafCounts, type InnodbTable, type RowCount } from '../lib/innodb-table.ts';
import { PARALLEL_MIN_PAGES, startPool, type NodePool } from '../node/pool.ts';
import { whereFilter, type BatchFilter, type RowWhere } from '../core/readers/where.ts';

/** Leaf pages per run of a count in the worker threads (4 MB of 16 KB pages, one read each). */
const COUNT_RUN_PAGES = 256;
/**
 * Leaf pages per Parquet run: its row groups (ROW_GROUP_ROWS rows at most), encoded where it is
 * decoded, one per thread at a time. Each thread holds its run's values beside the main thread, so
 * runs are a quarter of the page's (ui/export/export-run.svelte.ts): 200,000 rows of six columns
 * peaked at ~455 MB with runs of 512 pages, ~400 MB with 256 and ~260 MB with 128 (the threads
 * decoding, this one encoding all: ~350 MB); row groups then hold ~25,000 such rows, the file 0.2% larger.
 */
const PARQUET_RUN_PAGES = 128;

/** The decoding threads' script, beside the CLI's bundle (the one cli.ts starts). */
const workerUrl = (): URL => new URL('./decode-worker.mjs', import.meta.url);

/** A read: its batches in key order, then the statistics of whoever decoded them. */
export interface PooledRead {
  batches: AsyncGenerator<RowBatch>;
  stats(): DecodeStats;
}

/**
 * The rows of `table` (whose data files are `paths`) with `threads` threads; `alone`: one thread
 * means this one (else one worker, so that this thread is free for other work: a merge of partitions).
 */
export async function pooledBatches(table: InnodbTable, paths: readonly string[], threads: number, alone = true, where?: RowWhere): Promise<PooledRead> {
  const leaves = await table.reader.leafPages();
  if ((alone && threads === 1) || leaves.length < PARALLEL_MIN_PAGES) {
    const keep = where === undefined ? undefined : await whereFilter(where, table.columns, table.definition.columns);
    return { batches: kept(table.batches({ batchSize: 5000 }), keep), stats: () => table.stats };
  }
  const pool = startPool(workerUrl(), paths, table.definition, table.options, 'batch', threads, undefined, where);
  return { batches: inKeyOrder(pool, leaves), stats: () => pool.stats() };
}

/** The batches' rows `keep` keeps (all without it). */
async function* kept(batches: AsyncGenerator<RowBatch>, keep: BatchFilter | undefined): AsyncGenerator<RowBatch> {
  for await (const batch of batches) yield keep === undefined ? batch : keep(batch);
}

/** What the pool makes of each run of `leaves`, in key order; the pool is closed at the end (or when the caller stops). */
export async function* inKeyOrder<T>(pool: NodePool<T>, leaves: readonly number[], options?: ParallelOptions): AsyncGenerator<T> {
  try {
    for await (const run of decodeInParallel(leaves, pool.decoders, options)) yield run.batch;
  } finally {
    await pool.close();
  }
}

/**
 * The CSV of the pool's runs of `leaves` ('csv' output), written to `out` in key order; each run's
 * buffer goes back to its worker once written (NodePool.give), so the workers make their CSV in
 * buffers reused run after run (the pool is closed at the end).
 */
export async function writeCsvPooled(pool: NodePool<Uint8Array>, leaves: readonly number[], out: Writable): Promise<void> {
  for await (const bytes of inKeyOrder(pool, leaves)) {
    await new Promise<void>((resolve, reject) => out.write(bytes, (e) => (e ? reject(e) : resolve())));
    pool.give(bytes.buffer as ArrayBuffer);
  }
}

/**
 * The rows of each leaf page of `table` (whose data files are `paths`) from its record headers
 * (leaf-counts.ts), with `threads` threads (each page's checksum is most of a count's work), and the
 * counters' statistics (their damaged pages, problems).
 */
export async function pooledCount(table: InnodbTable, paths: readonly string[], threads: number): Promise<{ count: RowCount; stats: DecodeStats }> {
  const leaves = await table.reader.leafPages();
  if (threads === 1 || leaves.length < PARALLEL_MIN_PAGES) return { count: await table.count(), stats: table.stats };
  const pool = startPool(workerUrl(), paths, table.definition, table.options, 'count', threads);
  const counts = new Int32Array(leaves.length);
  let at = 0;
  try {
    for await (const run of decodeInParallel(leaves, pool.decoders, { runPages: COUNT_RUN_PAGES })) {
      counts.set(run.batch, at);
      at += run.batch.length;
    }
    return { count: sumLeafCounts(leaves, counts), stats: pool.stats() };
  } finally {
    await pool.close();
  }
}

/** A table's Parquet runs in key order, the statistics of whoever made them, and how many worker threads did (0: this thread). */
export interface PooledParquet {
  runs: AsyncGenerator<ParquetRun>;
  stats(): DecodeStats;
  threads: number;
}

/**
 * The rows of `table` (whose data files are `paths`) as Parquet runs, with `threads` threads; in
 * this thread cut and encoded as the threads do (parquet-pages.ts), so the file is the same.
 */
export async function pooledParquet(table: InnodbTable, paths: readonly string[], threads: number, spec: ParquetRunSpec, where?: RowWhere): Promise<PooledParquet> {
  const leaves = await table.reader.leafPages();
  if (threads === 1 || leaves.length < PARALLEL_MIN_PAGES) {
    const keep = where === undefined ? undefined : await whereFilter(where, table.columns, table.definition.columns);
    return { runs: parquetHere(table, leaves, spec, keep), stats: () => table.stats, threads: 0 };
  }
  const pool = startPool(workerUrl(), paths, table.definition, table.options, 'parquet', threads, spec, where);
  return { runs: inKeyOrder(pool, leaves, { runPages: PARQUET_RUN_PAGES, inFlight: 1 }), stats: () => pool.stats(), threads: pool.decoders.length };
}

async function* parquetHere(table: InnodbTable, leaves: readonly number[], spec: ParquetRunSpec, keep: BatchFilter | undefined): AsyncGenerator<ParquetRun> {
  const runs = alignedRuns(leaves, PARQUET_RUN_PAGES);
  for (let i = 0; i < runs.length; i++) yield await parquetPages(table.reader, table.definition, runs[i], i === 0, spec, keep);
}
