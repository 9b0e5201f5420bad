/**
 * The CLI's `--where` (dist-cli/ibd-reader.mjs, built as test/cli.test.ts does) against MariaDB's own
 * `SELECT id … WHERE …`: every condition of the page's typed-filter test (differential/where-table.ts),
 * a few of them on twelve copies of its rows (leaves enough for the worker threads) with 2 threads and
 * 1, as CSV, NDJSON, Parquet and --count, and within a key range; the report saying what the condition filtered out (not withheld, exit status 0); a
 * condition that does not parse or that a column's type cannot take is a usage error (64). The same
 * table partitioned (its three partition files given together) is filtered as the one file is.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';
import { exportPartitions, partitionIbds } from './harness/mariadb-partitions.ts';
import { serverIds } from './differential/sorted-table.ts';
import { CONDITIONS, createWhereTable } from './differential/where-table.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

function cli(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
}

/** The ids of CSV output (the first column; no value of the table holds a comma, a quote or a line break). */
const csvIds = (csv: string) => csv.trimEnd().split('\n').slice(1).map((line) => Number(line.slice(0, line.indexOf(','))));
const ndjsonIds = (text: string) => text.trimEnd().split('\n').filter((l) => l !== '').map((l) => Number((JSON.parse(l) as { id: number | string }).id));

describe('ibd-reader --where', () => {
  let server: MariadbServer;
  let dir: string;
  let ibd: string;
  let big: string;
  let total: number;
  let parts: string[];

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    server = await startMariadb({ pageSize: 4096 });
    await createWhereTable(server);
    // Twelve copies (ids stay odd and apart): leaves enough for the worker threads.
    await server.query('CREATE TABLE big LIKE t');
    await server.query(`INSERT INTO big SELECT t.id + 2400 * s.seq, g, bn, lat, u, n, d, f, dd, dt, tm, yr, e, note, vb, fl, fx FROM t JOIN seq_0_to_11 s`);
    total = (await serverIds(server, 'SELECT COUNT(*) FROM big'))[0];
    ibd = await server.exportTable('t');
    big = await server.exportTable('big');
    await server.query('CREATE TABLE pt LIKE t');
    await server.query('ALTER TABLE pt PARTITION BY RANGE (id) (PARTITION p0 VALUES LESS THAN (801), PARTITION p1 VALUES LESS THAN (1601), PARTITION p2 VALUES LESS THAN MAXVALUE)');
    await server.query('INSERT INTO pt SELECT * FROM t');
    parts = partitionIbds(await exportPartitions(server, server.baseDir, 'pt'));
    dir = mkdtempSync(join(tmpdir(), 'ibd-cli-where-'));
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const expected = (cond: string, table = 't') => serverIds(server, `SELECT id FROM ${table} WHERE ${cond} ORDER BY id`);

  it('reads the table of twelve copies with worker threads (it has leaves enough)', () => {
    const r = cli(big, '--count', '--threads', '2');
    expect(r.status).toBe(0);
    expect(Number(r.stdout)).toBe(total);
    expect(Number(/ on (\d+) leaf pages/.exec(r.stderr)?.[1])).toBeGreaterThan(256);
  });

  it.each(CONDITIONS)('WHERE %s', async (cond) => {
    const want = await expected(cond);
    expect(want.length, 'the condition tells rows apart').toBeLessThan(1200);
    const r = cli(ibd, '--where', cond);
    expect(r.stderr).not.toMatch(/warning/);
    expect(r.status).toBe(0);
    expect(csvIds(r.stdout)).toEqual(want);
    expect(r.stderr).toContain(`--where kept ${want.length} of the 1200 rows read (${1200 - want.length} filtered out by the condition, not withheld)`);
  });

  const SOME = ['fx >= 0.3', "u = 'aeble'", 'n > 0 AND g LIKE \'a%\' AND dd IS NOT NULL'];

  it.each(SOME)('WHERE %s: in 2 worker threads and in this one, as CSV, NDJSON, Parquet and counted', async (cond) => {
    const want = await expected(cond, 'big');
    for (const threads of ['1', '2']) {
      const csv = cli(big, '--where', cond, '--threads', threads);
      expect(csv.status).toBe(0);
      expect(csvIds(csv.stdout)).toEqual(want);
      expect(csv.stderr).toContain(`--where kept ${want.length} of the ${total} rows read`);
      const nd = cli(big, '--where', cond, '--threads', threads, '--format', 'ndjson');
      expect(ndjsonIds(nd.stdout)).toEqual(want);
      const count = cli(big, '--where', cond, '--threads', threads, '--count');
      expect(count.status).toBe(0);
      expect(Number(count.stdout)).toBe(want.length);
      expect(count.stderr).toContain(`--where kept ${want.length} of the ${total} rows read`);
      const out = join(dir, `t${threads}.parquet`);
      const pq = cli(big, '--where', cond, '--threads', threads, '--format', 'parquet', '-o', out);
      expect(pq.status).toBe(0);
      const rows = await parquetReadObjects({ file: new Uint8Array(readFileSync(out)).buffer });
      expect(rows.map((r) => Number(r.id))).toEqual(want);
    }
  });

  it('filters a key range\'s rows', async () => {
    const cond = "g LIKE 'a%'";
    const want = await expected(`${cond} AND id BETWEEN 1001 AND 9001`, 'big');
    const r = cli(big, '--where', cond, '--from', '1001', '--to', '9001');
    expect(r.status).toBe(0);
    expect(csvIds(r.stdout)).toEqual(want);
    expect(r.stderr).toMatch(new RegExp(`--where kept ${want.length} of the \\d+ rows read`));
  });

  it('WHERE on the partitions of a partitioned table: as CSV, NDJSON, Parquet, counted, by key range and through an index', async () => {
    const cond = SOME[2];
    const want = await expected(cond, 'pt');
    expect(parts).toHaveLength(3);
    const csv = cli(...parts, '--where', cond);
    expect(csv.status).toBe(0);
    expect(csvIds(csv.stdout)).toEqual(want);
    expect(csv.stderr).toContain(`pt: --where kept ${want.length} of the 1200 rows read (${1200 - want.length} filtered out by the condition, not withheld)`);
    expect(ndjsonIds(cli(...parts, '--where', cond, '--format', 'ndjson').stdout)).toEqual(want);
    const count = cli(...parts, '--where', cond, '--count');
    expect([count.status, Number(count.stdout)]).toEqual([0, want.length]);
    expect(count.stderr).toContain(`pt: --where kept ${want.length} of the 1200 rows read`);
    const out = join(dir, 'pt.parquet');
    expect(cli(...parts, '--where', cond, '--format', 'parquet', '-o', out).status).toBe(0);
    expect((await parquetReadObjects({ file: new Uint8Array(readFileSync(out)).buffer })).map((r) => Number(r.id))).toEqual(want);
    const range = cli(...parts, '--where', cond, '--from', '401', '--to', '2001');
    expect(range.status).toBe(0);
    expect(csvIds(range.stdout)).toEqual(await expected(`${cond} AND id BETWEEN 401 AND 2001`, 'pt'));
    const byIndex = cli(...parts, '--where', cond, '--index', 'PRIMARY');
    expect(byIndex.status).toBe(0);
    expect(csvIds(byIndex.stdout)).toEqual(want);
  });

  it('refuses a condition that does not parse or that a column cannot take, as a usage error', () => {
    const bad = cli(ibd, '--where', 'n > 1 OR n < 0');
    expect(bad.status).toBe(64);
    expect(bad.stderr).toContain('--where: OR is not offered');
    const binary = cli(ibd, '--where', "vb = 'x'");
    expect(binary.status).toBe(64);
    expect(binary.stderr).toContain('--where: vb is VARBINARY: only IS NULL and IS NOT NULL');
    expect(binary.stdout).toBe('');
    expect(cli(ibd, '--where', 'n > 1', '--page-map').status).toBe(64);
    const partitioned = cli(...parts, '--where', "vb = 'x'");
    expect([partitioned.status, partitioned.stdout]).toEqual([64, '']);
    expect(partitioned.stderr).toContain('--where: vb is VARBINARY: only IS NULL and IS NOT NULL');
  });
});
