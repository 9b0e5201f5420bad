/**
 * Issue 37: a crashed datadir's table of many leaf pages read by the CLI's worker threads. The redo
 * log is applied in the main thread, which serves the workers' reads of the file (node/
 * recovered-pages.ts): the rows with 2 threads are byte for byte those of 1 thread, and those the
 * server shows after recovering a copy of the same datadir by itself. Off-page columns make the
 * workers read pages besides their runs' leaves (the BLOB pages, asked of the main thread).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { flushAll, SERVER_ARGS } from './crash-recovery-setup.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

let crashed: MariadbServer;
let recovered: MariadbServer;
let copyA: string;

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
  crashed = await startMariadb({ extraArgs: SERVER_ARGS });
  await crashed.exec(`CREATE TABLE t_many (id INT NOT NULL PRIMARY KEY, k INT NOT NULL, s VARCHAR(300) NOT NULL, b MEDIUMBLOB NULL) ENGINE=InnoDB ROW_FORMAT=DYNAMIC;
    INSERT INTO t_many SELECT seq, seq % 97, REPEAT(CHAR(97 + seq % 26), 150 + seq % 100), IF(seq % 400 = 0, REPEAT('x', 20000), NULL) FROM seq_1_to_40000;
    CREATE TABLE t_parts (id INT NOT NULL PRIMARY KEY, s VARCHAR(100) NOT NULL) ENGINE=InnoDB PARTITION BY HASH (id) PARTITIONS 3;
    INSERT INTO t_parts SELECT seq, CONCAT('row ', seq) FROM seq_1_to_3000;`);
  await flushAll(crashed);
  await crashed.exec(`UPDATE t_many SET s = REPEAT('z', 290), k = k + 1 WHERE id % 7 = 0;
    DELETE FROM t_many WHERE id BETWEEN 10000 AND 14000;
    INSERT INTO t_many SELECT seq, 3, CONCAT('later ', seq), IF(seq % 300 = 0, REPEAT('y', 30000), NULL) FROM seq_40001_to_46000;
    UPDATE t_many SET b = REPEAT('w', 25000) WHERE id % 1000 = 1;
    UPDATE t_parts SET s = CONCAT('changed ', id) WHERE id % 5 = 0; DELETE FROM t_parts WHERE id > 2500;`);
  await crashed.crash();
  copyA = crashed.copyDatadir();
  recovered = await startMariadb({ datadir: crashed.copyDatadir(), extraArgs: SERVER_ARGS });
}, 300_000);

afterAll(async () => {
  await recovered?.stop();
  await crashed?.stop();
  if (copyA) rmSync(copyA, { recursive: true, force: true });
});

describe('a recovered table read by the worker threads', () => {
  it('gives with 2 threads the rows of 1 thread, which are the recovering server\'s', async () => {
    const file = join(copyA, 'test', 't_many.ibd');
    const one = cli(file, '--threads', '1', '--format', 'ndjson');
    const two = cli(file, '--threads', '2', '--format', 'ndjson');
    const twoCsv = cli(file, '--threads', '2');
    const oneCsv = cli(file, '--threads', '1');
    for (const r of [one, two, oneCsv, twoCsv]) expect(r.status, r.stderr).toBe(0);
    // Enough leaf pages for the worker threads (PARALLEL_MIN_PAGES), and the log applied.
    const leaves = Number(/rows from (\d+) leaf pages/.exec(two.stderr)?.[1]);
    expect(leaves).toBeGreaterThanOrEqual(256);
    const applied = (r: { stderr: string }) => /rolled forward from the checkpoint: .*/.exec(r.stderr)?.[0];
    expect(applied(two)).toMatch(/[1-9]\d* log records applied/);
    expect(two.stdout).toBe(one.stdout);
    expect(twoCsv.stdout).toBe(oneCsv.stdout);
    const expected = await recovered.query('SELECT id, k, s, LENGTH(b) FROM t_many ORDER BY id');
    // A BLOB's length from its text (hex with a 0x, else the bytes as they are: ASCII here).
    const length = (b: string | null) => (b === null ? null : String(/^0x/i.test(b) ? (b.length - 2) / 2 : b.length));
    const rows = two.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: number; k: number; s: string; b: string | null });
    expect(rows.map((r) => [String(r.id), String(r.k), r.s, length(r.b)])).toEqual(expected.rows.map((r) => [r[0], r[1], r[2], r[3]]));
    // As on disk the rows are not the server's: the log mattered.
    const disk = cli(file, '--threads', '2', '--format', 'ndjson', '--as-on-disk');
    expect(disk.stdout).not.toBe(two.stdout);
  }, 300_000);

  it('says what the log did to a partitioned table once, its partitions named, the figures added up', async () => {
    const files = [0, 1, 2].map((p) => join(copyA, 'test', `t_parts#P#p${p}.ibd`));
    const run = cli(...files, '--format', 'ndjson', '--json-strings');
    expect(run.status, run.stderr).toBe(0);
    const rows = run.stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: string; s: string }).map((r) => [r.id, r.s]);
    expect(rows.sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual((await recovered.query('SELECT id, s FROM t_parts ORDER BY id')).rows);
    const lines = (pattern: RegExp) => run.stderr.split('\n').filter((l) => pattern.test(l));
    expect(lines(/not shut down cleanly/)).toEqual([expect.stringMatching(/^t_parts \(its 3 partitions p0, p1, p2\): the datadir was not shut down cleanly \(ib_logfile0/)]);
    const rolled = lines(/rolled forward/);
    expect(rolled).toEqual([expect.stringMatching(/^t_parts \(its 3 partitions p0, p1, p2\): rolled forward from the checkpoint: \d+ log records applied to \d+ of the \d+ pages of this table/)]);
    // The figures are the sum of each partition's, read alone.
    const applied = (text: string) => Number(/(\d+) log records applied/.exec(text)?.[1]);
    const alone = files.map((f) => applied(cli(f, '--count').stderr));
    expect(applied(rolled[0])).toBe(alone.reduce((a, b) => a + b, 0));
  }, 300_000);
});
