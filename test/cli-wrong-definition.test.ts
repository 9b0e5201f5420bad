/**
 * Issue 41, item 3: another table's CREATE TABLE given for a file (MariaDB-made, wrong-definition-tables.ts).
 * Its node pointers, read with the wrong key layout, gave child pages in the hundreds of millions:
 * the CLI said "the file is cut at page 704: 2,457,861,499 pages missing" and exited 2. Now the
 * node pointers are not believed (a child past the space's size, a first leaf that is not one), the
 * verdict is the definition's (exit 1), naming the other table and the file's own row format; the
 * table's own CREATE reads every row as the server's SELECT gives them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvHeader, csvRows } from '../src/core/writers/output.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';
import { wrongDefinitionFiles } from './wrong-definition-tables.ts';

const ROOT = join(import.meta.dirname, '..');

describe('ibd-reader CLI: another table\'s definition for a file', () => {
  let dir: string;
  let cli: string;
  let db: MariadbServer;
  let files: Awaited<ReturnType<typeof wrongDefinitionFiles>>;
  let expectedCsv: string;
  const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args, '--threads', '1'], { encoding: 'utf8', maxBuffer: 1 << 28 });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ibd-cli-wrong-def-'));
    cli = join(dir, 'ibd-reader.mjs');
    const common = { bundle: true, platform: 'node', target: 'node20', format: 'esm', logLevel: 'warning' } as const;
    await build({ ...common, entryPoints: [join(ROOT, 'src/cli.ts')], outfile: cli });
    await build({ ...common, entryPoints: [join(ROOT, 'src/node/decode-worker.ts')], outfile: join(dir, 'decode-worker.mjs') });
    db = await startMariadb({ checksum: 'crc32' });
    files = await wrongDefinitionFiles(db, dir);
    const rows = await db.query('SELECT * FROM h_customers ORDER BY c_custkey');
    expectedCsv = csvHeader(rows.columns) + csvRows(rows.rows);
  });
  afterAll(async () => {
    await db?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the file has a B-tree of two levels (node pointers to misread)', () => {
    const r = run(files.ibd, '--schema', files.ownSql, '--print-ddl');
    expect(r.status).toBe(0);
    const map = run(files.ibd, '--page-map', '--format', 'ndjson');
    const levels = new Set(map.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { level?: number }).level));
    expect(levels.has(1)).toBe(true);
  });

  for (const how of [[], ['--count']]) {
    it(`the definition's verdict, exit 1, with what differs ${how.join(' ')}`, () => {
      const r = run(files.ibd, '--schema', files.wrongSql, ...how);
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('the table definition does not match the records of this file');
      expect(r.stderr).toContain('the definition is of table `h_orders`, but the file is named for `h_customers`');
      expect(r.stderr).toContain("it gives ROW_FORMAT=COMPACT, but the file's records are DYNAMIC");
      expect(r.stderr).not.toMatch(/cut at page|past the end|missing/);
    });
  }

  it('its own definition reads every row, as the server gives them, with the file\'s row format', () => {
    const r = run(files.ibd, '--schema', files.ownSql);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(expectedCsv);
    expect(r.stderr).toContain('DYNAMIC');
    expect(r.stderr).not.toMatch(/cut at page|past the end/);
  });
});
