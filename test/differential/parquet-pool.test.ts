/**
 * `--format parquet -o FILE` on the CLI's worker threads, against a real MariaDB (4 KB pages, so
 * that a few tens of thousands of rows make more leaf pages than the CLI decodes in one thread,
 * PARALLEL_MIN_PAGES, and several runs of them): one file's table and a partitioned table's
 * partitions (with `--partition-column`), each written with --threads 1 and 2. The threads are used
 * (Node's own trace of the workers it starts, NODE_DEBUG=worker, and the CLI's line saying which
 * threads encoded the row groups), the two files are byte for byte the same, and read back with
 * hyparquet each value equals the server's SELECT, type by type (parquet-values.ts). A zero date in
 * a later run is a null, warned with its row counted from the file's first. DuckDB reads each file too
 * (parquet-duckdb.ts): its Thrift fields as parquet.thrift declares them, each value the server's.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parquetMetadata } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInnodb, openInnodbPartitions } from '../../src/lib/node.ts';
import { PARALLEL_MIN_PAGES } from '../../src/node/pool.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { exportPartitions, partitionIbds, serverPartitions } from '../harness/mariadb-partitions.ts';
import { expectSameRows } from './decode.ts';
import { parquetText, readRaw } from './parquet-values.ts';
import { duckdbRead } from './parquet-duckdb.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
/** The row (counted from 0) whose DATE is 0000-00-00: past the first run (and row group). */
const ZERO_ROW = 29_999;

describe('Parquet on the worker threads (CLI) against MariaDB', () => {
  let server: MariadbServer;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    server = await startMariadb({ pageSize: 4096 });
    await server.exec(`
      CREATE TABLE wide (id INT PRIMARY KEY, u BIGINT UNSIGNED, amount DECIMAL(12,2), at DATETIME(6), d DATE, f DOUBLE, name VARCHAR(60), b VARBINARY(8), e ENUM('x','y','z')) DEFAULT CHARSET=utf8mb4;
      INSERT INTO wide SELECT seq, seq * 92233720368547, (seq % 100000) / 100 - 500, TIMESTAMP'2020-01-01 00:00:00' + INTERVAL seq * 37 SECOND + INTERVAL seq % 999983 MICROSECOND,
        DATE'1990-01-01' + INTERVAL seq DAY, seq / 7, IF(seq % 7 = 0, NULL, CONCAT('name ', seq, ' é😀')), UNHEX(LPAD(HEX(seq), 8, '0')), ELT(1 + seq % 3, 'x', 'y', 'z') FROM seq_1_to_40000;
      SET SESSION sql_mode = '';
      UPDATE wide SET d = '0000-00-00' WHERE id = ${ZERO_ROW + 1};
      CREATE TABLE parted (id INT NOT NULL PRIMARY KEY, pad VARCHAR(40), amount DECIMAL(8,2), at DATETIME) DEFAULT CHARSET=utf8mb4 PARTITION BY HASH (id) PARTITIONS 2;
      INSERT INTO parted SELECT seq, REPEAT(CHAR(65 + seq % 26), 30 + seq % 10), seq / 7, TIMESTAMP'2001-02-03 04:05:06' + INTERVAL seq MINUTE FROM seq_1_to_40000;`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The CLI writing `files` to `out` as Parquet with `threads` threads (Node tracing its workers); the file, stderr and status. */
  function parquet(files: string[], out: string, threads: number, more: string[] = []): { file: ArrayBuffer; out: string; stderr: string; status: number | null } {
    const run = spawnSync(process.execPath, [CLI, ...files, '--format', 'parquet', '-o', out, '--threads', String(threads), ...more], { encoding: 'utf8', env: { ...process.env, NODE_DEBUG: 'worker' } });
    const bytes = readFileSync(out);
    return { file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), out, stderr: run.stderr, status: run.status };
  }

  /** Written by one thread and by two: the same bytes, and only two's made by worker threads (two per pool, a pool per file). */
  function bothWays(files: string[], dir: string, more: string[] = []): { file: ArrayBuffer; out: string; stderr: string; status: number | null } {
    const one = parquet(files, join(dir, 'one.parquet'), 1, more);
    const two = parquet(files, join(dir, 'two.parquet'), 2, more);
    expect(one.stderr).not.toMatch(/created Worker with ID/);
    expect(one.stderr).toMatch(/: Parquet, \d+ rows in \d+ row groups, encoded in the main thread\n/);
    expect(two.stderr.match(/created Worker with ID \d+/g)?.length).toBe(2 * files.length);
    expect(two.stderr).toMatch(/: Parquet, \d+ rows in \d+ row groups, encoded by 2 worker threads\n/);
    expect(two.status).toBe(one.status);
    expect(two.file.byteLength).toBe(one.file.byteLength);
    expect(Buffer.from(two.file).equals(Buffer.from(one.file))).toBe(true);
    return two;
  }

  it('one file: the same file with 1 and 2 threads, each value the server\'s, the zero date warned by its row', async () => {
    const ibd = await server.exportTable('wide');
    const lib = await openInnodb(ibd);
    try {
      expect((await (await lib.table(null)).reader.leafPages()).length).toBeGreaterThan(PARALLEL_MIN_PAGES);
    } finally {
      await lib.close();
    }
    const { file, out, stderr, status } = bothWays([ibd], dirname(ibd));
    expect(status).toBe(2);
    expect(stderr).toContain(`column \`d\`: 1 value its Parquet type cannot hold, written as null ("0000-00-00"; row ${ZERO_ROW}, counted from 0)`);
    const meta = parquetMetadata(file);
    // A row group per run at least (runs are encoded apart).
    expect(meta.row_groups.length).toBeGreaterThanOrEqual(2);
    expect(Number(meta.row_groups[0].num_rows)).toBeLessThanOrEqual(ZERO_ROW);
    expect(Number(meta.num_rows)).toBe(40_000);
    const notes = JSON.parse(meta.key_value_metadata?.find((k) => k.key === 'ibd-reader.values-not-held')?.value ?? '[]') as { column: string; rows: number[] }[];
    expect(notes.map((n) => [n.column, n.rows])).toEqual([['d', [ZERO_ROW]]]);
    const expected = await server.query('SELECT * FROM wide ORDER BY id');
    const schema = meta.schema.slice(1);
    expect(schema.map((e) => e.name)).toEqual(expected.columns);
    const d = expected.columns.indexOf('d');
    const raw = await readRaw(file);
    const got = raw.rows.map((row, r) => row.map((v, c) => (r === ZERO_ROW && c === d ? (v === null ? expected.rows[r][c] : `${String(v)}, not null`) : parquetText(v, schema[c], expected.rows[r][c]))));
    expectSameRows(got, expected.rows, 'wide');
    const duck = await duckdbRead(out, expected);
    expect(duck.thrift).toEqual([]);
    expect(duck.types).toEqual({ id: 'INTEGER', u: 'UBIGINT', amount: 'DECIMAL(12,2)', at: 'TIMESTAMP', d: 'DATE', f: 'DOUBLE', name: 'VARCHAR', b: 'BLOB', e: 'VARCHAR' });
    expectSameRows(duck.rows.map((row, r) => row.map((text, c) => (r === ZERO_ROW && c === d && text === null ? expected.rows[r][c] : text))), expected.rows, 'wide (DuckDB)');
  });

  it('partitions: one file of every partition in order, the same with 1 and 2 threads, each value the server\'s', async () => {
    const dir = await exportPartitions(server, mkdtempSync(join(server.baseDir, 'parquet-')), 'parted');
    const { table, close } = await openInnodbPartitions(partitionIbds(dir));
    try {
      for (const p of table.partitions) expect((await p.table?.reader.leafPages())?.length).toBeGreaterThan(PARALLEL_MIN_PAGES);
    } finally {
      await close();
    }
    const { file, out, stderr, status } = bothWays(partitionIbds(dir), dir, ['--partition-column']);
    expect(status, stderr).toBe(0);
    expect(stderr).not.toMatch(/warning/);
    const expected = (await serverPartitions(server, 'parted')).flatMap((p) => p.rows.map((r) => [...r, p.name]));
    const meta = parquetMetadata(file);
    const schema = meta.schema.slice(1);
    expect(schema.map((e) => e.name)).toEqual(['id', 'pad', 'amount', 'at', '_partition']);
    const raw = await readRaw(file);
    expectSameRows(raw.rows.map((row, r) => row.map((v, c) => parquetText(v, schema[c], expected[r][c]))), expected, 'parted');
    const duck = await duckdbRead(out, { rows: expected });
    expect(duck.thrift).toEqual([]);
    expectSameRows(duck.rows, expected, 'parted (DuckDB)');
    // An index's rows are merged across the partitions; the Parquet runs are not: refused, not written in partition order.
    const merged = spawnSync(process.execPath, [CLI, ...partitionIbds(dir), '--index', 'PRIMARY', '--format', 'parquet', '-o', join(dir, 'index.parquet')], { encoding: 'utf8' });
    expect(merged.status, merged.stderr).toBe(64);
    expect(merged.stderr).toMatch(/--index on a partitioned table merges .*not with --format parquet/);
  });
});
