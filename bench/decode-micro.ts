/**
 * Micro-benchmark of the single-thread decode path (no worker threads, no disk writes): decodes an
 * .ibd with the core, optionally turns every batch into CSV bytes, and prints CPU time, MB/s of .ibd
 * and a sha256 of the CSV (to check that an optimisation changed no byte).
 *
 *   node decode-micro.mjs FILE.ibd SCHEMA.sql [--repeat N] [--no-csv] [--batch ROWS] [--pages | --csv-pages]
 *                         [--threads N --worker decode-worker.mjs [--run-pages P]]
 *
 * Bundle with esbuild (like bench/run.mjs does), e.g.
 *   npx esbuild bench/decode-micro.ts --bundle --platform=node --format=esm --outfile=/tmp/decode-micro.mjs
 * --pages decodes through decodePages() in runs of 64 pages (the worker pool's path) instead of batches().
 * --csv-pages makes CSV through csvPages() in runs of --run-pages pages (the export workers' path).
 * --threads decodes with the CLI's worker pool (the bundled worker script, e.g. dist-cli/decode-worker.mjs,
 * given with --worker); CPU time is then the whole process's, worker threads included.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { csvBytes } from '../src/core/writers/csv-bytes.ts';
import { parseCreateTables, pickTable } from '../src/core/definitions/ddl/create-table.ts';
import { csvHeader } from '../src/core/writers/output.ts';
import { pathToFileURL } from 'node:url';
import { decodeInParallel, splitRuns } from '../src/core/readers/parallel.ts';
import { openTable } from '../src/core/readers/table-reader.ts';
import { csvBuffers, csvPages } from '../src/core/writers/csv-pages.ts';
import { BatchBuilder } from '../src/core/values/row-batch.ts';
import { fileSource } from '../src/node/file-source.ts';
import { startPool } from '../src/node/pool.ts';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const [ibd, schemaPath] = argv;
  if (!ibd || !schemaPath) throw new Error('usage: decode-micro FILE.ibd SCHEMA.sql [--repeat N] [--no-csv] [--batch ROWS] [--pages]');
  const opt = (name: string, dflt: number): number => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : dflt;
  };
  const repeat = opt('--repeat', 1);
  const batchSize = opt('--batch', 5000);
  const csv = !argv.includes('--no-csv');
  const byPages = argv.includes('--pages');
  const csvRuns = argv.includes('--csv-pages');
  const threads = opt('--threads', 0);
  const runPages = opt('--run-pages', 64);
  const worker = argv.includes('--worker') ? argv[argv.indexOf('--worker') + 1] : null;
  const tables = parseCreateTables(await readFile(schemaPath, 'utf8'));
  const table = pickTable(tables, basename(ibd)) ?? tables[0];
  for (let r = 0; r < repeat; r++) {
    const source = await fileSource(ibd);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const reader = await openTable(source, table);
    const hash = createHash('sha256');
    hash.update(csvHeader(reader.columns));
    let rows = 0;
    let bytes = 0;
    const consume = (batch: Parameters<typeof csvBytes>[0]): void => {
      rows += batch.rows;
      if (csv) {
        const b = csvBytes(batch);
        bytes += b.length;
        hash.update(b);
      }
    };
    if (threads > 0) {
      if (worker === null) throw new Error('--threads needs --worker PATH (the bundled decode-worker.mjs)');
      const pool = startPool(pathToFileURL(worker), [ibd], table, {}, 'batch', threads);
      try {
        for await (const run of decodeInParallel(await reader.leafPages(), pool.decoders, { runPages })) consume(run.batch);
      } finally {
        await pool.close();
      }
    } else if (csvRuns) {
      const buffers = csvBuffers(reader.columns.length);
      for (const run of splitRuns(await reader.leafPages(), runPages)) {
        const out = await csvPages(reader, run, false, buffers);
        rows += out.rows;
        bytes += out.csv.length;
        hash.update(out.csv);
      }
    } else if (byPages) {
      // A comma after each cell when CSV is made, as the export's workers decode.
      const into = new BatchBuilder(reader.columns.length, 64 * 64, 64 * reader.info.pageSize, csv);
      for (const run of splitRuns(await reader.leafPages(), 64)) consume(await reader.decodePages(run, { into }));
    } else {
      for await (const batch of reader.batches({ batchSize, separated: csv })) consume(batch);
    }
    const c = process.cpuUsage(c0);
    const wall = (performance.now() - t0) / 1000;
    const cpu = (c.user + c.system) / 1e6;
    await source.close();
    process.stdout.write(`${basename(ibd)}: ${rows} rows, ${(bytes / 1e6).toFixed(0)} MB CSV, wall ${wall.toFixed(2)} s, cpu ${cpu.toFixed(2)} s, ${(source.size / 1e6 / cpu).toFixed(1)} MB/s of .ibd per CPU second${csv ? `, sha256 ${hash.digest('hex').slice(0, 16)}` : ''}\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`decode-micro: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
