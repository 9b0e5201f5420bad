/**
 * The command-line tool end to end (built with scripts/build-cli.mjs): a table big enough for the
 * worker-thread pool, exported from a real MariaDB, decoded with 1 and 2 threads; both outputs must be
 * the server's rows, byte for byte, in primary-key order.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvHeader, csvRows, ndjsonRows } from '../src/core/writers/output.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

describe('ibd-reader CLI', () => {
  let server: MariadbServer;
  let dir: string;
  let ibd: string;
  let sql: string;
  let expectedCsv: string;
  let expectedNdjson: string;
  /** The server's COUNT(*) of the table. */
  let serverCount: number;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    server = await startMariadb();
    dir = mkdtempSync(join(tmpdir(), 'ibd-cli-'));
    // ~1,000 leaf pages: enough for several runs per worker.
    await server.exec(`CREATE TABLE wide (id INT PRIMARY KEY, k BIGINT, name VARCHAR(40), amount DECIMAL(10,2), at DATETIME(3), note TEXT) DEFAULT CHARSET=utf8mb4;
      INSERT INTO wide SELECT seq, CAST(seq AS SIGNED) * 7919 - 1000000, CONCAT('name ', seq, IF(seq % 7 = 0, ', "quoted"', '')), CAST(seq % 100000 AS SIGNED) / 100 - 500,
        TIMESTAMP'2020-01-01 00:00:00' + INTERVAL seq * 37 SECOND + INTERVAL (seq % 1000) * 1000 MICROSECOND, IF(seq % 5 = 0, NULL, REPEAT('é', seq % 30)) FROM seq_1_to_200000;`);
    const expected = await server.query('SELECT * FROM wide ORDER BY id');
    expectedCsv = csvHeader(expected.columns) + csvRows(expected.rows);
    expectedNdjson = ndjsonRows(expected.columns, expected.rows);
    serverCount = Number((await server.query('SELECT COUNT(*) FROM wide')).rows[0][0]);
    ibd = join(dir, 'wide.ibd');
    writeFileSync(ibd, readFileSync(await server.exportTable('wide')));
    sql = join(dir, 'wide.sql');
    writeFileSync(sql, (await server.query('SHOW CREATE TABLE wide')).rows[0][1] as string);
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([1, 2])('CSV with %i thread(s) equals the server rows', (threads) => {
    const out = join(dir, `out-${threads}.csv`);
    const run = spawnSync(process.execPath, [CLI, ibd, '--schema', sql, '--threads', String(threads), '-o', out], { encoding: 'utf8' });
    expect(run.stderr).toMatch(/200000 rows from \d+ leaf pages/);
    expect(run.status).toBe(0);
    const actual = readFileSync(out, "utf8");
    if (actual !== expectedCsv) writeFileSync(join(tmpdir(), `cli-debug-${threads}.csv`), actual + "\n=====\n" + expectedCsv);
    expect(actual === expectedCsv).toBe(true);
  });

  it('NDJSON to stdout', () => {
    const run = spawnSync(process.execPath, [CLI, ibd, '--schema', sql, '--format', 'ndjson', '--json-strings'], { encoding: 'utf8', maxBuffer: 1 << 30 });
    expect(run.status).toBe(0);
    expect(run.stdout === expectedNdjson).toBe(true);
  });

  it('--count prints the exact row count without decoding; a damaged leaf page is named and its rows withheld, counted in --rows all', () => {
    const run = spawnSync(process.execPath, [CLI, ibd, '--schema', sql, '--count'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(serverCount).toBe(200000);
    expect(run.stdout).toBe(`${serverCount}\n`);
    expect(run.stderr).toMatch(/^wide\.ibd: 200000 rows on \d+ leaf pages \(counted from the record headers, not decoded\)$/m);
    // A leaf in the middle whose page type is overwritten (so its checksum fails): its rows are
    // withheld from live, and said to be; --rows all counts them, as state damaged.
    const bytes = new Uint8Array(readFileSync(ibd));
    const view = new DataView(bytes.buffer);
    const leaves: number[] = [];
    for (let no = 3; no < bytes.length / 16384; no++) if (view.getUint16(no * 16384 + 24) === 17855 && view.getUint16(no * 16384 + 64) === 0) leaves.push(no);
    const damaged = leaves[leaves.length >> 1];
    view.setUint16(damaged * 16384 + 24, 0);
    const copy = join(dir, 'damaged.ibd');
    writeFileSync(copy, bytes);
    const onPage = view.getUint16(damaged * 16384 + 38 + 16);
    // In this thread alone, and beside one and two workers (which of them counts the page is chance):
    // the page named once, its rows withheld.
    for (const threads of ['1', '2', '3']) {
      const bad = spawnSync(process.execPath, [CLI, copy, '--schema', sql, '--table', 'wide', '--count', '--threads', threads], { encoding: 'utf8' });
      expect(bad.status).toBe(2);
      expect(bad.stderr.split(`damaged.ibd, page ${damaged}: the page is damaged (its checksum does not match): ${onPage} records read back`)).toHaveLength(2);
      expect(bad.stderr).toMatch(new RegExp(`^warning: damaged\\.ibd: ${onPage} rows from damaged pages were withheld`, 'm'));
      const counted = Number(bad.stdout);
      expect(counted).toBeGreaterThan(199000);
      // Exactly the server's rows less those of the damaged page (its PAGE_N_RECS: nothing is deleted).
      expect(counted).toBe(serverCount - onPage);
    }
    const all = spawnSync(process.execPath, [CLI, copy, '--schema', sql, '--table', 'wide', '--count', '--rows', 'all'], { encoding: 'utf8' });
    expect(all.status).toBe(2);
    expect(Number(all.stdout)).toBe(serverCount);
  });

  it('a wrong CREATE TABLE fails with a message naming the page', () => {
    const wrong = join(dir, 'wrong.sql');
    writeFileSync(wrong, readFileSync(sql, 'utf8').replace('`k` bigint(20)', '`k` int(11)'));
    const run = spawnSync(process.execPath, [CLI, ibd, '--schema', wrong], { encoding: 'utf8', maxBuffer: 1 << 30 });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^ibd-reader: wide\.ibd, page \d+: the table definition does not match the records/m);
  });
});
