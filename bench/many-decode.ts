/**
 * Decodes every .ibd of a directory in ONE process with the decoder core (the code the CLI bundles),
 * one CSV per table, the way a multi-file CLI would. The CLI takes one file per run, and starting
 * Node 10,000 times would measure process start-up, not the decoder.
 *
 *   node many-decode.mjs DIR SCHEMA.sql OUTDIR     → prints {"tables":…,"rows":…,"failed":[…]} on stdout
 *
 * Run as its own process (under GNU time, like the CLI), so its memory is its own.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { csvBytes } from '../src/core/writers/csv-bytes.ts';
import { parseCreateTables, pickTable } from '../src/core/definitions/ddl/create-table.ts';
import { csvHeader } from '../src/core/writers/output.ts';
import { openTable } from '../src/core/readers/table-reader.ts';
import { fileSource } from '../src/node/file-source.ts';

async function main(): Promise<void> {
  const [dir, schemaPath, outDir] = process.argv.slice(2);
  if (!dir || !schemaPath || !outDir) throw new Error('usage: many-decode DIR SCHEMA.sql OUTDIR');
  mkdirSync(outDir, { recursive: true });
  const tables = parseCreateTables(await readFile(schemaPath, 'utf8'));
  const byName = new Map(tables.map((t) => [t.name, t]));
  const encoder = new TextEncoder();
  let done = 0;
  let rows = 0;
  const failed: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ibd')).sort()) {
    const table = byName.get(file.slice(0, -4)) ?? pickTable(tables, file);
    if (!table) {
      failed.push(`${file}: no CREATE TABLE`);
      continue;
    }
    const source = await fileSource(join(dir, file));
    try {
      const reader = await openTable(source, table);
      const parts: Uint8Array[] = [encoder.encode(csvHeader(reader.columns))];
      for await (const batch of reader.batches({ batchSize: 5000, separated: true })) parts.push(csvBytes(batch));
      writeFileSync(join(outDir, `${table.name}.csv`), Buffer.concat(parts));
      const s = reader.stats;
      rows += s.rowsDecoded;
      if (s.recordsFailed + s.pagesSkipped + s.badChecksums > 0) failed.push(`${file}: ${s.recordsFailed} bad records, ${s.pagesSkipped} skipped pages, ${s.badChecksums} bad checksums`);
      done++;
    } catch (err) {
      failed.push(`${file}: ${(err as Error).message}`);
    } finally {
      await source.close();
    }
  }
  process.stdout.write(JSON.stringify({ tables: done, rows, failed: failed.slice(0, 20), failedCount: failed.length }) + '\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`many-decode: ${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
