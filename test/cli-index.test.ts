/**
 * The CLI's `--index NAME`, `--key` and `--from/--to` (dist-cli/ibd-reader.mjs, built as
 * test/cli.test.ts does) on a MariaDB table with its .frm beside it: an index's rows as the server's
 * `SELECT … FORCE INDEX`, through the worker threads too; lookups on the primary key and on an index
 * as the server's `WHERE`, in CSV and NDJSON and counted; the fallback note for a case-insensitive
 * key; a key whose leaf page is lost (said maybe missing, not absent); the errors of a key that is
 * not one, of an index the table lacks, of options that clash.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTable } from '../src/core/readers/table-reader.ts';
import { cellText } from '../src/core/values/row-batch.ts';
import { csvHeader, csvRows } from '../src/core/writers/output.ts';
import { fileSource } from '../src/node/file-source.ts';
import { tableDef } from './differential/index-query.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

function cli(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
}

describe('ibd-reader --index, --key, --from/--to', () => {
  let server: MariadbServer;
  let dir: string;
  let ibd: string;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    server = await startMariadb();
    dir = mkdtempSync(join(tmpdir(), 'ibd-cli-index-'));
    await server.exec(`CREATE TABLE people (id INT PRIMARY KEY, name VARCHAR(40), city VARCHAR(20) CHARACTER SET latin1 COLLATE latin1_bin, born DATE, KEY kn (name), KEY kcb (city, born)) ENGINE=InnoDB;
      INSERT INTO people SELECT seq, CONCAT('Person, ', seq % 5000), CONCAT('City', seq % 37), '1950-01-01' + INTERVAL seq % 20000 DAY FROM seq_1_to_200000;`);
    ibd = await server.exportTable('people');
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const csvOf = (r: { columns: string[]; rows: (string | null)[][] }) => csvHeader(r.columns) + csvRows(r.rows);

  it('--index: the index rows in its order, in worker threads (enough leaves for them) and in one', async () => {
    const expected = await server.query('SELECT name, id FROM people FORCE INDEX (kn) ORDER BY name, id');
    for (const threads of ['2', '1']) {
      const run = cli(ibd, '--index', 'kn', '--threads', threads);
      expect(run.stderr).not.toMatch(/warning/);
      expect(run.status).toBe(0);
      expect(run.stdout).toBe(csvOf(expected));
    }
    const count = cli(ibd, '--index', 'KN', '--count');
    expect(count.stdout).toBe('200000\n');
    // Enough leaves that the read above went through the worker threads (from 256 on).
    expect(Number(/on (\d+) leaf pages/.exec(count.stderr)?.[1])).toBeGreaterThanOrEqual(256);
    expect(cli(ibd, '--index', 'kcb').stdout).toBe(csvOf(await server.query('SELECT city, born, id FROM people FORCE INDEX (kcb) ORDER BY city, born, id')));
  });

  it('--key and --from/--to on the primary key and on an index: the server\'s WHERE, in key order', async () => {
    const pk = cli(ibd, '--key', '4242');
    expect(pk.status).toBe(0);
    expect(pk.stdout).toBe(csvOf(await server.query('SELECT * FROM people WHERE id = 4242')));
    expect(pk.stderr).toMatch(/1 rows by key; \d pages read/);
    const range = cli(ibd, '--from', '100', '--to', '2000', '--format', 'ndjson', '--json-strings');
    const rows = (await server.query('SELECT * FROM people WHERE id BETWEEN 100 AND 2000 ORDER BY id')).rows;
    expect(range.stdout.trimEnd().split('\n').map((l) => Object.values(JSON.parse(l) as object))).toEqual(rows);
    const composite = cli(ibd, '--index', 'kcb', '--key', 'City7,1960-01-01');
    expect(composite.stdout).toBe(csvOf(await server.query("SELECT city, born, id FROM people WHERE city = 'City7' AND born = '1960-01-01' ORDER BY id")));
    const open = cli(ibd, '--index', 'kcb', '--from', 'City36,2000-01-01');
    expect(open.stdout).toBe(csvOf(await server.query("SELECT city, born, id FROM people FORCE INDEX (kcb) WHERE (city, born) >= ('City36', '2000-01-01') ORDER BY city, born, id")));
    expect(cli(ibd, '--index', 'kcb', '--key', 'City7', '--count').stdout).toBe(`${(await server.query("SELECT COUNT(*) FROM people WHERE city = 'City7'")).rows[0][0]}\n`);
  });

  it('a key whose leaf page is lost: not found, and said to be maybe missing, not absent; a range gives the rows of the leaves that read', async () => {
    const source = await fileSource(ibd);
    const reader = await openTable(source, await tableDef(server, 'people'));
    const leaves = await reader.leafPages();
    // The leaf of id 4242, found in the intact file.
    let lost = -1;
    let ids: string[] = [];
    for (const no of leaves) {
      const batch = await reader.decodePages([no]);
      const on = Array.from({ length: batch.rows }, (_, r) => cellText(batch, r, 0) ?? '');
      if (on.includes('4242')) {
        lost = no;
        ids = on;
        break;
      }
    }
    await source.close();
    const bytes = readFileSync(ibd);
    bytes.fill(0, lost * server.pageSize, (lost + 1) * server.pageSize);
    const damaged = join(dir, 'people.ibd');
    writeFileSync(damaged, bytes);
    copyFileSync(join(dirname(ibd), 'people.frm'), join(dir, 'people.frm'));
    const key = cli(damaged, '--key', '4242');
    expect(key.status).toBe(2);
    expect(key.stdout).toBe('id,name,city,born\n');
    expect(key.stderr).toContain("warning: people.ibd: of the leaf pages the key's range reaches, 1 could not be read and 0 are damaged: rows of these keys may be missing from this answer");
    const from = Number(ids[0]) - 50;
    const to = Number(ids.at(-1)) + 50;
    const range = cli(damaged, '--from', String(from), '--to', String(to));
    expect(range.status).toBe(2);
    expect(range.stdout).toBe(csvOf(await server.query(`SELECT * FROM people WHERE id BETWEEN ${from} AND ${to} AND id NOT IN (${ids.join(',')}) ORDER BY id`)));
    expect(range.stderr).toContain('rows of these keys may be missing from this answer');
  });

  it('a key in a case-insensitive collation: found by its decoded value, with a note; an escaped comma', async () => {
    const run = cli(ibd, '--index', 'kn', '--key', 'Person\\, 77');
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(csvOf(await server.query("SELECT name, id FROM people WHERE name = 'Person, 77' ORDER BY id")));
    expect(run.stderr).toMatch(/note: column `name` is compared by the weights of collation/);
    const range = cli(ibd, '--index', 'kn', '--from', 'a', '--to', 'b');
    expect(range.status).toBe(1);
    expect(range.stderr).toMatch(/no range can be looked up/);
  });

  it('says what is wrong: a value of another type, an index the table lacks, clashing options', () => {
    expect(cli(ibd, '--key', 'abc').stderr).toMatch(/'abc' is not a value of column `id`/);
    expect(cli(ibd, '--key', '1,2').stderr).toMatch(/has 1 parts, 2 values were given/);
    const missing = cli(ibd, '--index', 'nope');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no index named `nope` \(its indexes: PRIMARY, kn, kcb\)/);
    expect(cli(ibd, '--key', '1', '--from', '2').status).toBe(64);
    expect(cli(ibd, ibd, '--page-map').stderr).toMatch(/take one file/);
  });
});
