/**
 * Partitioned tables against a real MariaDB: RANGE with HASH subpartitions, LIST, HASH and KEY
 * partitioning, their files (t#P#p0.ibd, t#P#p0#SP#p0sp0.ibd) read as one table with the .frm and
 * .par beside them (library: openInnodbPartitions; CLI: several files) and compared row for row with
 * `SELECT * FROM t PARTITION (p) ORDER BY key` in partition order; the partition column; a secondary
 * index in its order across the partitions (partition-index-order.test.ts has more) and a key lookup over every partition; the browser entry given the files as bytes; a missing
 * partition file named in a warning while the others are read; damaged partitions (an empty file
 * named unreadable, page 0 zeroed, a file cut short: the rows of its leaves before the cut, read from
 * the intact file) read, counted and looked up; the .frm lost, the columns guessed (--guess); the
 * .par file's format.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePar, partitionNamesOfClause } from '../../src/core/definitions/partitions.ts';
import { openTable } from '../../src/core/readers/table-reader.ts';
import { batchRows } from '../../src/core/values/row-batch.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { openInnodbPartitions as openInnodbPartitionsInBrowser } from '../../src/lib/index.ts';
import { openInnodbPartitions } from '../../src/lib/node.ts';
import type { PartitionedOptions } from '../../src/lib/partitioned-table.ts';
import { PARALLEL_MIN_PAGES } from '../../src/node/pool.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { exportPartitions as exportPartitionsOf, partitionIbds, serverPartitions as serverPartitionsOf } from '../harness/mariadb-partitions.ts';
import { expectSameRows } from './decode.ts';
import { tableDef } from './index-query.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

describe('partitioned tables', () => {
  let server: MariadbServer;
  let out: string;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    server = await startMariadb({ pageSize: 4096 });
    out = mkdtempSync(join(server.baseDir, 'partitions-'));
    await server.exec(`
      CREATE TABLE sales (id INT NOT NULL, yr INT NOT NULL, amt DECIMAL(8,2), note VARCHAR(30), PRIMARY KEY (id, yr), KEY kamt (amt))
        PARTITION BY RANGE (yr) SUBPARTITION BY HASH (id) SUBPARTITIONS 2
        (PARTITION p2019 VALUES LESS THAN (2020), PARTITION p2020 VALUES LESS THAN (2021), PARTITION pmax VALUES LESS THAN MAXVALUE);
      INSERT INTO sales SELECT seq, 2018 + seq % 5, seq / 7, CONCAT('sale ', seq) FROM seq_1_to_6000;
      CREATE TABLE regions (id INT NOT NULL PRIMARY KEY, region INT NOT NULL, name VARCHAR(20)) ROW_FORMAT=COMPACT
        PARTITION BY LIST (id % 4) (PARTITION east VALUES IN (0, 1), PARTITION west VALUES IN (2), PARTITION \`mid\` VALUES IN (3));
      INSERT INTO regions SELECT seq, seq % 4, CONCAT('r', seq) FROM seq_1_to_3000;
      CREATE TABLE hashed (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(10)) ROW_FORMAT=REDUNDANT PARTITION BY HASH (id) PARTITIONS 4;
      INSERT INTO hashed SELECT seq * 3, CONCAT('h', seq) FROM seq_1_to_3000;
      CREATE TABLE keyed (k VARCHAR(12) NOT NULL PRIMARY KEY, n INT, KEY kn (n)) PARTITION BY KEY (k) PARTITIONS 3;
      INSERT INTO keyed SELECT CONCAT('key', seq), seq % 50 FROM seq_1_to_3000;
      CREATE TABLE big (id INT NOT NULL PRIMARY KEY, pad VARCHAR(40)) PARTITION BY HASH (id) PARTITIONS 2;
      INSERT INTO big SELECT seq, REPEAT(CHAR(65 + seq % 26), 30 + seq % 10) FROM seq_1_to_60000;`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const exportPartitions = (table: string) => exportPartitionsOf(server, out, table);
  const ibds = partitionIbds;
  const serverPartitions = (table: string, select?: string, order?: string) => serverPartitionsOf(server, table, select, order);

  async function read(paths: string[], options: PartitionedOptions = {}): Promise<{ columns: readonly string[]; rows: (string | null)[][]; warnings: readonly string[] }> {
    const { table, close } = await openInnodbPartitions(paths, options);
    try {
      const rows: (string | null)[][] = [];
      for await (const batch of table.batches()) rows.push(...batchRows(batch));
      return { columns: table.columns, rows, warnings: table.warnings };
    } finally {
      await close();
    }
  }

  it.each(['sales', 'regions', 'hashed', 'keyed'])('%s: every partition in order, row for row, with the partition column', async (name) => {
    const dir = await exportPartitions(name);
    const expected = await serverPartitions(name);
    expect(expected.length).toBeGreaterThan(2);
    const got = await read(ibds(dir), { partitionColumn: true });
    expect(got.warnings).toEqual([]);
    expect(got.columns.at(-1)).toBe('_partition');
    expectSameRows(got.rows, expected.flatMap((p) => p.rows.map((r) => [...r, p.name])), name);
    // The .par gives the order, the .frm's PARTITION BY clause the same.
    const par = parsePar(new Uint8Array(readFileSync(join(dir, `${name}.par`))));
    expect(par).toEqual(expected.map((p) => p.name));
    expect(partitionNamesOfClause((await server.query(`SHOW CREATE TABLE ${name}`)).rows[0][1] as string)).toEqual(par);
  });

  it('the browser entry: the partitions as bytes, the .par and .frm among the files', async () => {
    const dir = await exportPartitions('regions');
    const named = (path: string) => ({ name: path.replace(/^.*\//, ''), data: new Uint8Array(readFileSync(path)) });
    const table = await openInnodbPartitionsInBrowser(ibds(dir).map(named), { files: [named(join(dir, 'regions.par')), named(join(dir, 'regions.frm'))], partitionColumn: true });
    const rows: (string | null)[][] = [];
    for await (const batch of table.batches()) rows.push(...batchRows(batch));
    expectSameRows(rows, (await serverPartitions('regions')).flatMap((p) => p.rows.map((r) => [...r, p.name])), 'regions (bytes)');
    expect(await table.count()).toBe(3000);
  });

  it('a secondary index and a key lookup over every partition', async () => {
    const dir = await exportPartitions('keyed');
    const byIndex = await read(ibds(dir), { index: 'kn' });
    // The partitions' index trees merged into one index order.
    expectSameRows(byIndex.rows, (await server.query('SELECT n, k FROM keyed FORCE INDEX (kn) ORDER BY n, k')).rows, 'keyed.kn');
    const { table, close } = await openInnodbPartitions(ibds(dir), { partitionColumn: true });
    try {
      const lookup = await table.lookup({ from: ['key1234'], to: ['key1234'] });
      const rows: (string | null)[][] = [];
      for await (const batch of lookup.batches()) rows.push(...batchRows(batch));
      expect(rows.map((r) => r.slice(0, 2))).toEqual((await server.query("SELECT * FROM keyed WHERE k = 'key1234'")).rows);
      // utf8mb4_general_ci: found by its decoded value, and said so.
      expect(lookup.notes.join(' ')).toMatch(/general_ci/);
    } finally {
      await close();
    }
  });

  it('the command line: all the files as one table; a missing partition named, the others read, exit status 2', async () => {
    const dir = await exportPartitions('sales');
    const expected = await serverPartitions('sales');
    const all = spawnSync(process.execPath, [CLI, ...ibds(dir), '--partition-column'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(all.stderr).not.toMatch(/warning/);
    expect(all.status).toBe(0);
    const columns = ['id', 'yr', 'amt', 'note', '_partition'];
    expect(all.stdout).toBe(csvHeader(columns) + csvRows(expected.flatMap((p) => p.rows.map((r) => [...r, p.name]))));
    const count = spawnSync(process.execPath, [CLI, ...ibds(dir), '--count'], { encoding: 'utf8' });
    expect(count.stdout).toBe('6000\n');
    const key = spawnSync(process.execPath, [CLI, ...ibds(dir), '--key', '77,2020'], { encoding: 'utf8' });
    expect(key.stdout).toBe(csvHeader(columns.slice(0, 4)) + csvRows((await server.query('SELECT * FROM sales WHERE id = 77 AND yr = 2020')).rows));

    unlinkSync(join(dir, 'sales#P#p2020#SP#p2020sp1.ibd'));
    const partial = spawnSync(process.execPath, [CLI, ...ibds(dir), '--partition-column'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(partial.status).toBe(2);
    expect(partial.stderr).toMatch(/warning: partition p2020#SP#p2020sp1 of sales \(named by .*sales\.par\) was not given: its rows are not read/);
    const kept = expected.filter((p) => p.name !== 'p2020#SP#p2020sp1');
    expect(partial.stdout).toBe(csvHeader(columns) + csvRows(kept.flatMap((p) => p.rows.map((r) => [...r, p.name]))));
    rmSync(dir, { recursive: true, force: true });
  });

  it('damaged partitions: an empty file named unreadable, a zeroed page 0 and a cut file said, every row still readable read', async () => {
    const dir = await exportPartitions('sales');
    const expected = await serverPartitions('sales');
    const def = await tableDef(server, 'sales');
    const file = (p: string) => join(dir, `sales#P#${p}.ibd`);
    // pmax#SP#pmaxsp1 cut in half: its rows are those of the leaves before the cut, read from the intact file.
    const cutName = 'pmax#SP#pmaxsp1';
    const size = server.pageSize;
    const cutAt = Math.floor(readFileSync(file(cutName)).length / size / 2);
    const source = await fileSource(file(cutName));
    const reader = await openTable(source, def);
    const kept = (await reader.leafPages()).filter((no) => no < cutAt);
    const cutRows = batchRows(await reader.decodePages(kept));
    await source.close();
    expect(cutRows.length).toBeGreaterThan(0);
    truncateSync(file(cutName), cutAt * size);
    truncateSync(file('p2019#SP#p2019sp0'), 0);
    const zeroed = readFileSync(file('p2020#SP#p2020sp0'));
    zeroed.fill(0, 0, size);
    writeFileSync(file('p2020#SP#p2020sp0'), zeroed);

    const r = spawnSync(process.execPath, [CLI, ...ibds(dir), '--partition-column'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('warning: partition p2019#SP#p2019sp0 of sales cannot be read: sales#P#p2019#SP#p2019sp0.ibd is not an InnoDB tablespace: it looks like an empty file (0 bytes); its rows are not read');
    expect(r.stderr).toMatch(/warning: sales#P#p2020#SP#p2020sp0\.ibd: page 0 \(the space header\) is damaged/);
    expect(r.stderr).toMatch(new RegExp(`warning: sales#P#pmax#SP#pmaxsp1\\.ibd: the file is cut at page ${cutAt}`));
    expect(r.stderr).toContain('sales: ');
    expect(r.stderr).toMatch(/rows from 5 of 6 partitions \(1 unreadable\)/);
    const want = expected.filter((p) => p.name !== 'p2019#SP#p2019sp0').flatMap((p) => (p.name === cutName ? cutRows : p.rows).map((row) => [...row, p.name]));
    expect(r.stdout).toBe(csvHeader(['id', 'yr', 'amt', 'note', '_partition']) + csvRows(want));

    const count = spawnSync(process.execPath, [CLI, ...ibds(dir), '--count'], { encoding: 'utf8' });
    expect(count.status).toBe(2);
    expect(count.stdout).toBe(`${want.length}\n`);
    expect(count.stderr).toMatch(/sales#P#pmax#SP#pmaxsp1\.ibd: \d+ rows on \d+ leaf pages; \d+ leaf pages could not be counted/);
    // A key of the partition whose page 0 is zeros, through its B-tree.
    const [[id, yr]] = expected.find((p) => p.name === 'p2020#SP#p2020sp0')?.rows ?? [[]];
    const key = spawnSync(process.execPath, [CLI, ...ibds(dir), '--key', `${id},${yr}`], { encoding: 'utf8' });
    expect(key.stdout).toBe(csvHeader(['id', 'yr', 'amt', 'note']) + csvRows((await server.query(`SELECT * FROM sales WHERE id = ${id} AND yr = ${yr}`)).rows));
    expect(key.stderr).not.toContain('recovery report');
    truncateSync(file('p2020#SP#p2020sp0'), 0);
    const none = spawnSync(process.execPath, [CLI, file('p2019#SP#p2019sp0'), file('p2020#SP#p2020sp0'), '--partition-column'], { encoding: 'utf8' });
    // Not one partition readable: the first file's reason, no empty table.
    expect(none.status).not.toBe(0);
    expect(none.stderr).toMatch(/is not an InnoDB tablespace: it looks like an empty file/);
    expect(none.stdout).toBe('');
    rmSync(dir, { recursive: true, force: true });
  });

  it('the .frm lost: what to give is said; with --guess the columns guessed from a partition\u2019s records read every partition', async () => {
    const dir = await exportPartitions('regions');
    const expected = await serverPartitions('regions');
    unlinkSync(join(dir, 'regions.frm'));
    const plain = spawnSync(process.execPath, [CLI, ...ibds(dir)], { encoding: 'utf8' });
    expect(plain.status).toBe(1);
    expect(plain.stderr).toMatch(/no \.frm or \.sql file describing it was given; give the table definition with --schema FILE\.sql \(or FILE\.frm\)/);
    const guessed = spawnSync(process.execPath, [CLI, ...ibds(dir), '--guess', '--partition-column'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(guessed.status, guessed.stderr).toBe(0);
    expect(guessed.stderr).toContain('guessing the columns from the records (--guess)');
    expect(guessed.stderr).toMatch(/CREATE TABLE `regions`/);
    const lines = guessed.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('c1,c2,c3,_partition');
    expect(lines.slice(1).join('\n') + '\n').toBe(csvRows(expected.flatMap((p) => p.rows.map((r) => [...r, p.name]))));
    rmSync(dir, { recursive: true, force: true });
  });

  it('the command line on the worker threads: each partition decoded and counted by them, rows as with one thread', async () => {
    const dir = await exportPartitions('big');
    const { table, close } = await openInnodbPartitions(ibds(dir));
    try {
      // More leaf pages per partition than the CLI reads in one thread (PARALLEL_MIN_PAGES): the pool is used.
      for (const p of table.partitions) expect((await p.table?.reader.leafPages())?.length).toBeGreaterThan(PARALLEL_MIN_PAGES);
    } finally {
      await close();
    }
    const expected = await serverPartitions('big');
    const cli = (threads: string, ...more: string[]) => spawnSync(process.execPath, [CLI, ...ibds(dir), '--partition-column', '--threads', threads, ...more], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const one = cli('1');
    const two = cli('2');
    expect(two.status).toBe(0);
    expect(two.stderr).not.toMatch(/warning/);
    expect(two.stdout).toBe(csvHeader(['id', 'pad', '_partition']) + csvRows(expected.flatMap((p) => p.rows.map((r) => [...r, p.name]))));
    expect(two.stdout).toBe(one.stdout);
    expect(two.stderr).toBe(one.stderr);
    expect(cli('2', '--count').stdout).toBe('60000\n');
    expect(cli('2', '--format', 'ndjson').stdout).toBe(cli('1', '--format', 'ndjson').stdout);
  });
});
