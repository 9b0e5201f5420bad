/**
 * A partitioned table's secondary indexes and key lookups in the index's order across partitions,
 * against a real MariaDB: RANGE and HASH partitioned tables with unique and non-unique indexes (a
 * VARCHAR in utf8mb4_general_ci and one in utf8mb4_unicode_ci, whose case and accent variants tie and
 * fall to the primary key; NULLs; a descending part). The CLI's `--index k` is compared with
 * `SELECT k_cols, pk FROM t FORCE INDEX (k) ORDER BY k_cols, pk`, its point and range `--key` /
 * `--from` / `--to` with `SELECT … WHERE … ORDER BY`, the library's read and the page's view sorted by
 * the index's whole key (workers/sort-methods.ts, RunSort.index) with the same; a big table's
 * index read with the worker threads is byte for byte the one-thread read.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { createConnection } from 'mariadb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableDef } from '../../src/core/schema.ts';
import { batchRows, type RowBatch } from '../../src/core/values/row-batch.ts';
import { TableView } from '../../src/ui/grid/table-view.ts';
import type { ViewSpec } from '../../workers/viewer-api.ts';
import { inThreadPool } from '../ui/in-thread-pool.ts';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { openInnodbPartitions } from '../../src/lib/node.ts';
import { PARALLEL_MIN_PAGES } from '../../src/node/pool.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectSameRows } from './decode.ts';
import { indexQuery, tableDef } from './index-query.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

/** Names whose case, accent and trailing-space variants are equal in a _ci collation. */
const NAMES = "ELT(1 + seq % 9, 'abc', 'ABC', 'Abc', 'b', 'B ', 'café', 'CAFE', 'cafe', 'zed')";

describe('partitioned tables in index order', () => {
  let server: MariadbServer;
  let out: string;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    server = await startMariadb({ pageSize: 4096 });
    out = mkdtempSync(join(server.baseDir, 'partition-order-'));
    await server.exec(`
      CREATE TABLE ranged (id INT NOT NULL PRIMARY KEY, name VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci, code INT NOT NULL, grp INT, amt DECIMAL(8,2),
        KEY kname (name), UNIQUE KEY ucode (code, id), KEY kdesc (grp DESC, amt))
        PARTITION BY RANGE (id) (PARTITION p0 VALUES LESS THAN (1000), PARTITION p1 VALUES LESS THAN (2500), PARTITION pmax VALUES LESS THAN MAXVALUE);
      INSERT INTO ranged SELECT seq, IF(seq % 11 = 0, NULL, ${NAMES}), (seq * 7919) % 100003, IF(seq % 13 = 0, NULL, seq % 17), (seq % 50) / 4 FROM seq_1_to_4000;
      CREATE TABLE hashed (id INT NOT NULL, sub INT NOT NULL, name VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci, u VARCHAR(12) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci,
        PRIMARY KEY (id, sub), KEY kname (name), UNIQUE KEY uu (u, id))
        PARTITION BY HASH (id) PARTITIONS 3;
      INSERT INTO hashed SELECT seq, seq % 3, IF(seq % 10 = 0, NULL, ${NAMES}), CONCAT(IF(seq % 2 = 0, 'U', 'u'), seq % 700) FROM seq_1_to_3000;
      CREATE TABLE big (id INT NOT NULL PRIMARY KEY, pad VARCHAR(40), KEY kpad (pad)) PARTITION BY HASH (id) PARTITIONS 2;
      INSERT INTO big SELECT seq, CONCAT(REPEAT(CHAR(65 + seq % 26), 30 + seq % 10), IF(seq % 2 = 0, 'x', 'X')) FROM seq_1_to_60000;`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The table's partition files and .frm/.par, copied while FLUSH TABLES … FOR EXPORT holds it. */
  async function exportPartitions(table: string): Promise<string[]> {
    const dir = mkdtempSync(join(out, `${table}-`));
    const c = await createConnection({ socketPath: server.socket, user: 'root', database: 'test' });
    try {
      await c.query(`FLUSH TABLES ${table} FOR EXPORT`);
      const db = join(server.datadir, 'test');
      for (const f of readdirSync(db)) if ((f.startsWith(`${table}#P#`) && f.endsWith('.ibd')) || f === `${table}.frm` || f === `${table}.par`) copyFileSync(join(db, f), join(dir, f));
    } finally {
      await c.query('UNLOCK TABLES');
      await c.end();
    }
    // Given in reverse: the order must come from the .par, not from the command line.
    return readdirSync(dir).filter((f) => f.endsWith('.ibd')).sort().reverse().map((f) => join(dir, f));
  }

  /** The partitioned table as the page opens it (a TableView on an in-thread pool), its index `index` chosen, counted. */
  async function pageView(files: string[], table: TableDef, index: string): Promise<TableView> {
    const named = (f: string) => ({ name: basename(f), blob: new Blob([readFileSync(f)]) });
    const dir = dirname(files[0]);
    const partitions = files.map(named);
    const companions = readdirSync(dir).filter((f) => !f.endsWith('.ibd')).map((f) => named(join(dir, f)));
    const spec: ViewSpec = { ibd: partitions[0].blob, name: partitions[0].name, table, mode: 'live', partitions, companions, indexName: index };
    const view = await TableView.open(inThreadPool((name) => (name === table.name ? table : undefined)), spec, () => undefined);
    await view.count(new AbortController().signal, () => Promise.resolve(), () => undefined);
    return view;
  }

  const cli = (files: string[], ...args: string[]) => spawnSync(process.execPath, [CLI, ...files, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

  /** The server's rows of index `index` of `table` (with `where`), and its CSV as the CLI writes it. */
  async function serverIndex(table: string, index: string, where = ''): Promise<{ rows: (string | null)[][]; csv: string }> {
    const query = indexQuery(await tableDef(server, table), index, where);
    const { rows } = await server.query(query.sql);
    return { rows, csv: csvHeader(query.names) + csvRows(rows) };
  }

  it.each([
    ['ranged', 'kname'], ['ranged', 'ucode'], ['ranged', 'kdesc'], ['hashed', 'kname'], ['hashed', 'uu'],
  ])('%s --index %s: one order across the partitions, as FORCE INDEX … ORDER BY', async (table, index) => {
    const files = await exportPartitions(table);
    const expected = await serverIndex(table, index);
    const got = cli(files, '--index', index);
    expect(got.stderr).not.toMatch(/warning|partition by partition/);
    expect(got.status).toBe(0);
    expect(got.stdout).toBe(expected.csv);
    // The library's read, with the partition column, in the same order.
    const { table: opened, close } = await openInnodbPartitions(files, { index, partitionColumn: true });
    try {
      const rows: (string | null)[][] = [];
      for await (const batch of opened.batches({ batchSize: 97 })) rows.push(...batchRows(batch));
      expectSameRows(rows.map((r) => r.slice(0, -1)), expected.rows, `${table}.${index}`);
    } finally {
      await close();
    }
    // The page's view of the index, sorted by its whole key in runs of 3 leaves (runs that span partitions): the same order.
    const view = await pageView(files, await tableDef(server, table), index);
    const sorted = await view.sortBy({ column: view.view.keyColumns[0], index: true }, null, new AbortController().signal, () => undefined, 3);
    const all: (string | null)[][] = [];
    for (let leaf = 0; leaf < view.map.leaves.length; leaf++) all.push(...batchRows((await view.store.page(leaf)) as RowBatch));
    expectSameRows(Array.from(sorted, (n) => all[n].slice(0, -1)), expected.rows, `the page's ${table}.${index}`);
  });

  it('--key and --from/--to: each partition searched, the rows merged in key order', async () => {
    const hashed = await exportPartitions('hashed');
    const q = async (sql: string) => (await server.query(sql)).rows;
    // The clustered key: a range crossing every partition, and a prefix of the key.
    const range = cli(hashed, '--from', '100', '--to', '400');
    expect(range.status).toBe(0);
    expect(range.stdout).toBe(csvHeader(['id', 'sub', 'name', 'u']) + csvRows(await q('SELECT * FROM hashed WHERE id BETWEEN 100 AND 400 ORDER BY id, sub')));
    expect(cli(hashed, '--key', '777').stdout).toBe(csvHeader(['id', 'sub', 'name', 'u']) + csvRows(await q('SELECT * FROM hashed WHERE id = 777')));
    // A name in a _ci collation: a point lookup compares the decoded value exactly (as on one file), and says so.
    const name = cli(hashed, '--index', 'kname', '--key', 'cafe');
    expect(name.stdout).toBe((await serverIndex('hashed', 'kname', " WHERE name = BINARY 'cafe'")).csv);
    expect(name.stderr).toMatch(/compared exactly/);
    const ranged = await exportPartitions('ranged');
    expect(cli(ranged, '--index', 'ucode', '--from', '10', '--to', '30000').stdout).toBe((await serverIndex('ranged', 'ucode', ' WHERE code BETWEEN 10 AND 30000')).csv);
    expect(cli(ranged, '--index', 'kdesc', '--key', '5,2.50').stdout).toBe((await serverIndex('ranged', 'kdesc', ' WHERE grp = 5 AND amt = 2.50')).csv);
    // A range on a descending part, the smaller value first as in BETWEEN: read in the index's order, and said.
    const desc = cli(ranged, '--index', 'kdesc', '--from', '3', '--to', '6');
    const between = await serverIndex('ranged', 'kdesc', ' WHERE grp BETWEEN 3 AND 6');
    expect(between.rows.length).toBeGreaterThan(10);
    expect(desc.stdout).toBe(between.csv);
    expect(desc.stderr).toMatch(/`grp` is a descending key part: the range is read in the index's order, from 6 to 3/);
    const count = cli(ranged, '--index', 'ucode', '--to', '5000', '--count');
    expect(count.stdout).toBe(`${(await q('SELECT COUNT(*) FROM ranged WHERE code <= 5000'))[0][0]}\n`);
  });

  it('a big index read with the worker threads: every partition decoded at once, byte for byte the one-thread read', async () => {
    const files = await exportPartitions('big');
    const { table, close } = await openInnodbPartitions(files, { index: 'kpad' });
    try {
      // More leaf pages per partition than the CLI reads in one thread: the workers are used.
      for (const p of table.partitions) expect((await p.table?.reader.leafPages())?.length).toBeGreaterThan(PARALLEL_MIN_PAGES);
    } finally {
      await close();
    }
    const expected = await serverIndex('big', 'kpad');
    const one = cli(files, '--index', 'kpad', '--threads', '1', '--partition-column');
    const two = cli(files, '--index', 'kpad', '--threads', '2', '--partition-column');
    expect(two.status).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toBe(one.stderr);
    const plain = cli(files, '--index', 'kpad', '--threads', '2');
    expect(plain.stdout).toBe(expected.csv);
  });
});
