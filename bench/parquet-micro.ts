/**
 * Micro-benchmark of the CLI's Parquet encoding on one thread (no worker threads, no disk writes): the
 * first --pages leaf pages of an .ibd through parquetPages() in runs of --run-pages pages (the CLI's
 * unit of work), printing CPU time and a sha256 of the runs' bytes (to check that an optimisation
 * changed no byte).
 *
 *   node parquet-micro.mjs FILE.ibd SCHEMA.sql [--pages N] [--run-pages P] [--repeat R]
 *
 * Bundle with esbuild (like bench/run.mjs does), e.g.
 *   npx esbuild bench/parquet-micro.ts --bundle --platform=node --format=esm --outfile=/tmp/parquet-micro.mjs
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseCreateTables, pickTable } from '../src/core/definitions/ddl/create-table.ts';
import { splitRuns } from '../src/core/readers/parallel.ts';
import { openTable } from '../src/core/readers/table-reader.ts';
import { parquetPages } from '../src/core/writers/parquet-pages.ts';
import { fileSource } from '../src/node/file-source.ts';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const [ibd, schemaPath] = argv;
  if (!ibd || !schemaPath) throw new Error('usage: parquet-micro FILE.ibd SCHEMA.sql [--pages N] [--run-pages P] [--repeat R]');
  const opt = (name: string, dflt: number): number => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : dflt;
  };
  const tables = parseCreateTables(await readFile(schemaPath, 'utf8'));
  const table = pickTable(tables, basename(ibd)) ?? tables[0];
  for (let r = 0; r < opt('--repeat', 1); r++) {
    const source = await fileSource(ibd);
    const c0 = process.cpuUsage();
    const reader = await openTable(source, table);
    const hash = createHash('sha256');
    const leaves = (await reader.leafPages()).slice(0, opt('--pages', Infinity));
    let bytes = 0;
    let rows = 0;
    for (const [i, run] of splitRuns(leaves, opt('--run-pages', 256)).entries()) {
      const out = await parquetPages(reader, table, run, i === 0, { columns: reader.columns, partition: null });
      bytes += out.bytes.length;
      rows += out.part.rows;
      hash.update(out.bytes);
    }
    const c = process.cpuUsage(c0);
    await source.close();
    process.stdout.write(`${basename(ibd)}: ${leaves.length} pages, ${rows} rows, ${bytes} bytes of row groups, cpu ${((c.user + c.system) / 1e6).toFixed(2)} s, sha256 ${hash.digest('hex').slice(0, 16)}\n`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`parquet-micro: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
