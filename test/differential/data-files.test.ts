/**
 * A system tablespace in two data files (MariaDB, innodb_data_file_path=ibdata1:12M;ibdata2:12M:autoextend,
 * --innodb-file-per-table=OFF): a table larger than ibdata1, so that most of its pages are in
 * ibdata2. Read by name with the numbered file found beside ibdata1, with the files named, and in
 * parallel; every value compared with the server's SELECT. ibdata1 alone is not said to be "cut"
 * without a word on where the rest is.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '../../src/core/readers/table-reader.ts';
import { startMariadb } from '../harness/mariadb.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

let dir: string;
let rows: Row[];

const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const read = (text: string): Row[] => text.split('\n').filter((l) => l !== '').map((l) => {
  const o = JSON.parse(l) as Record<string, string | null>;
  return [o.id, o.body, o.n];
});

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
  dir = mkdtempSync(join(tmpdir(), 'ibd-datafiles-'));
  const server = await startMariadb({ extraArgs: ['--innodb-file-per-table=OFF', '--innodb-data-file-path=ibdata1:12M;ibdata2:12M:autoextend'] });
  try {
    await server.exec(`CREATE DATABASE shop; USE shop;
      CREATE TABLE spread (id INT PRIMARY KEY, body VARCHAR(300) NOT NULL, n BIGINT) ROW_FORMAT=DYNAMIC;
      INSERT INTO spread SELECT seq, CONCAT('body ', seq, ' ', REPEAT('y', 200 + seq % 80)), IF(seq % 7 = 0, NULL, seq * 1000003) FROM seq_1_to_120000;`);
    rows = (await server.query('SELECT id, body, n FROM spread ORDER BY id', 'shop')).rows;
    await server.slowShutdown();
    mkdirSync(join(dir, 'shop'));
    for (const f of ['ibdata1', 'ibdata2']) copyFileSync(join(server.datadir, f), join(dir, f));
    copyFileSync(join(server.datadir, 'shop', 'spread.frm'), join(dir, 'shop', 'spread.frm'));
  } finally {
    await server.stop();
  }
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a system tablespace in two data files', () => {
  it('the table\'s pages are mostly in ibdata2 (else this test proves nothing)', () => {
    expect(statSync(join(dir, 'ibdata1')).size).toBe(12 << 20);
    expect(statSync(join(dir, 'ibdata2')).size).toBeGreaterThan(20 << 20);
  });

  it.each(['1', '2'])('by name, ibdata2 found beside ibdata1 (--threads %s): every value equals the server\'s', (threads) => {
    const run = cli([join(dir, 'ibdata1'), '--table', 'shop/spread', '--format', 'ndjson', '--json-strings', '--threads', threads]);
    expect(run.status, run.stderr).toBe(0);
    expect(read(run.stdout)).toEqual(rows);
  });

  it('the data files named after ibdata1, and --list-tables counts the rows', () => {
    const run = cli([join(dir, 'ibdata1'), join(dir, 'ibdata2'), '--table', 'shop/spread', '--count']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')[0]).toBe(String(rows.length));
    const listed = cli([join(dir, 'ibdata1'), '--list-tables', '--format', 'ndjson']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`"name":"shop/spread"`);
    expect(listed.stdout).toMatch(new RegExp(`"name":"shop/spread".*"rows":${rows.length}`));
    // Its 120,000 rows are counted over the worker threads (> 256 leaves), as --count counts them.
    for (const threads of ['1', '2']) expect(cli([join(dir, 'ibdata1'), '--list-tables', '--format', 'ndjson', '--threads', threads]).stdout).toBe(listed.stdout);
  });

  it('ibdata1 without ibdata2: the missing pages are said to be in the further data files', () => {
    const alone = mkdtempSync(join(tmpdir(), 'ibd-alone-'));
    try {
      copyFileSync(join(dir, 'ibdata1'), join(alone, 'ibdata1'));
      const run = cli([join(alone, 'ibdata1'), '--list-tables']);
      expect(run.stdout + run.stderr).toMatch(/further data files \(ibdata2/);
      // The table's count lacks the rows in ibdata2, and says so.
      const listed = cli([join(alone, 'ibdata1'), '--list-tables', '--format', 'ndjson']).stdout.split('\n').filter((l) => l.includes('"name":"shop/spread"'));
      expect(listed).toHaveLength(1);
      const spread = JSON.parse(listed[0]) as { rows: number | null; countComplete: boolean; problems: string[] };
      expect(spread.countComplete).toBe(false);
      expect(spread.rows ?? 0).toBeLessThan(rows.length);
      expect(spread.problems.join(' ')).toMatch(/not in its count/);
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });
});
