/**
 * Command-line front end: `ibd-reader FILE.ibd --schema FILE.sql [--format csv|ndjson] [-o OUT]`.
 * Same decoder as the page; rows stream to stdout or OUT, problems and the summary go to stderr.
 */
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import type { Writable } from 'node:stream';
import { parseCreateTables, pickTable } from './core/ddl/create-table.ts';
import { csvBytes } from './core/csv-bytes.ts';
import { csvHeader, ndjsonRows } from './core/output.ts';
import { decodeInParallel } from './core/parallel.ts';
import { batchRows, type RowBatch } from './core/row-batch.ts';
import type { TableDef } from './core/schema.ts';
import { openTable, type DecodeStats, type TableReader } from './core/table-reader.ts';
import { fileSource } from './node/file-source.ts';
import { startPool } from './node/pool.ts';

const USAGE = `usage: ibd-reader FILE.ibd --schema FILE.sql [--table NAME] [--format csv|ndjson] [-o OUT]

  --schema FILE.sql  CREATE TABLE statement(s): SHOW CREATE TABLE output or a mysqldump file
  --table NAME       which table of the schema file (default: the one named like FILE.ibd)
  --format F         csv (default; NULL as \\N) or ndjson (one JSON object per row)
  --threads N        decode with N worker threads (default: one per core)
  -o, --output OUT   write rows to OUT instead of stdout`;

interface Args {
  ibd: string;
  schema: string;
  table: string | null;
  format: 'csv' | 'ndjson';
  output: string | null;
  threads: number;
}

function parseArgs(argv: string[]): Args {
  const args: Partial<Args> & { format: Args['format']; table: string | null; output: string | null } = { format: 'csv', table: null, output: null, threads: availableParallelism() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === '--schema' || a === '-s') args.schema = value();
    else if (a === '--table' || a === '-t') args.table = value();
    else if (a === '--output' || a === '-o') args.output = value();
    else if (a === '--threads') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new UsageError('--threads takes a whole number, 1 or more');
      args.threads = n;
    }
    else if (a === '--format' || a === '-f') {
      const f = value();
      if (f !== 'csv' && f !== 'ndjson') throw new UsageError(`unknown format '${f}' (csv or ndjson)`);
      args.format = f;
    } else if (a === '--help' || a === '-h') throw new UsageError('');
    else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else if (args.ibd === undefined) args.ibd = a;
    else throw new UsageError(`unexpected argument ${a}`);
  }
  if (args.ibd === undefined) throw new UsageError('no .ibd file given');
  if (args.schema === undefined) throw new UsageError('no --schema given (a .sql file with the CREATE TABLE)');
  return args as Args;
}

class UsageError extends Error {}

/** Writes with backpressure, so a multi-GB export never piles up in memory. */
function write(out: Writable, text: string | Uint8Array): Promise<void> | undefined {
  if (out.write(text)) return undefined;
  return new Promise((resolve) => out.once('drain', resolve));
}

/** Below this many leaf pages, starting worker threads costs more than it saves. */
const PARALLEL_MIN_PAGES = 256;

/** The table's batches in key order: from a pool of worker threads, or in this thread for small tables. */
async function decodeAll(reader: TableReader, args: Args, table: TableDef): Promise<{ batches: AsyncIterable<RowBatch>; stats: () => Promise<DecodeStats> }> {
  const leaves = await reader.leafPages();
  if (args.threads === 1 || leaves.length < PARALLEL_MIN_PAGES) {
    return { batches: reader.batches({ batchSize: 5000 }), stats: () => Promise.resolve(reader.stats) };
  }
  const pool = startPool(new URL('./decode-worker.mjs', import.meta.url), args.ibd, table, args.threads);
  async function* batches(): AsyncGenerator<RowBatch> {
    try {
      for await (const run of decodeInParallel(leaves, pool.decoders)) yield run.batch;
    } finally {
      await pool.close();
    }
  }
  return { batches: batches(), stats: () => Promise.resolve(pool.stats()) };
}

async function run(args: Args): Promise<number> {
  const ddl = await readFile(args.schema, 'utf8');
  const tables = parseCreateTables(ddl);
  if (tables.length === 0) throw new Error(`${args.schema}: no CREATE TABLE statement found`);
  const table = args.table !== null
    ? tables.find((t) => t.name.toLowerCase() === args.table?.toLowerCase())
    : pickTable(tables, basename(args.ibd)) ?? (tables.length === 1 ? tables[0] : undefined);
  if (!table) {
    throw new Error(`${args.schema}: ${args.table !== null ? `no table named ${args.table}` : `no table matches ${basename(args.ibd)}`}; tables: ${tables.map((t) => t.name).join(', ')} (choose one with --table)`);
  }
  const source = await fileSource(args.ibd);
  const out: Writable = args.output !== null ? createWriteStream(args.output) : process.stdout;
  try {
    const reader = await openTable(source, table);
    if (args.format === 'csv') await write(out, csvHeader(reader.columns));
    const decoded = await decodeAll(reader, args, table);
    for await (const batch of decoded.batches) {
      await write(out, args.format === 'csv' ? csvBytes(batch) : ndjsonRows(reader.columns, batchRows(batch)));
    }
    const s = await decoded.stats();
    for (const p of s.problems) process.stderr.write(`warning: ${source.name}${p.page !== null ? `, page ${p.page}` : ''}${p.record !== null ? `, record at ${p.record}` : ''}: ${p.message}\n`);
    process.stderr.write(`${source.name}: ${s.rowsDecoded} rows from ${s.pagesRead} leaf pages (${reader.info.pageSize / 1024} KB pages, ${reader.info.rowFormat}, ${reader.info.checksumFormat} checksums); ${s.recordsFailed} undecodable records, ${s.pagesSkipped} skipped pages, ${s.badChecksums} bad checksums\n`);
    return s.recordsFailed + s.pagesSkipped + s.badChecksums > 0 ? 2 : 0;
  } finally {
    await source.close();
    if (out !== process.stdout) await new Promise<void>((resolve) => out.end(resolve));
  }
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${e.message ? `ibd-reader: ${e.message}\n\n` : ''}${USAGE}\n`);
    process.exit(e.message ? 64 : 0);
  }
  try {
    process.exitCode = await run(args);
  } catch (e) {
    process.stderr.write(`ibd-reader: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}

void main();
