/**
 * The system columns (`--system-columns`) in a whole datadir's output (`DIR -o OUT`), and a table whose
 * own columns are named like them (`_page`, `_DB_TRX_ID`): ours are renamed with `_sys` (said on
 * stderr), the table's columns keep their names and the server's values. The datadir's CSV is the
 * one file's; its Parquet, read by DuckDB, types ours as unsigned integers and bytes, and holds the
 * server's values in the table's columns and the CSV's in ours.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { duckdbRead } from './parquet-duckdb.ts';
import { buildCli, cli } from './undo-setup.ts';

const HEADER = 'id,_page,_DB_TRX_ID,v,_db_trx_id_sys,_db_roll_ptr,_page_sys,_heap';

let server: MariadbServer;
let out: string;
let serverRows: (string | null)[][];

beforeAll(async () => {
  buildCli();
  server = await startMariadb();
  await server.exec(`CREATE TABLE clash (id INT PRIMARY KEY, _page INT, _DB_TRX_ID VARCHAR(10), v VARCHAR(20));
    INSERT INTO clash SELECT seq, seq * 3, CONCAT('t', seq), REPEAT('x', seq % 20) FROM seq_1_to_900;
    CREATE TABLE plain (id INT PRIMARY KEY, n INT);
    INSERT INTO plain SELECT seq, seq FROM seq_1_to_50;`);
  serverRows = (await server.query('SELECT id, _page, _DB_TRX_ID, v FROM clash ORDER BY id')).rows;
  await server.slowShutdown();
  out = mkdtempSync(join(server.baseDir, 'out-'));
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

describe('system columns in DIR -o, and a table with columns of their names', () => {
  it('one file: ours renamed with _sys, said on stderr; the table\'s columns keep the server\'s values', () => {
    const run = cli([join(server.datadir, 'test', 'clash.ibd'), '--system-columns', '--threads', '1']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('clash.ibd: the table has columns named like the system columns: ours are renamed (_db_trx_id is _db_trx_id_sys, _page is _page_sys)');
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(HEADER);
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 4))).toEqual(serverRows.map((r) => r.map((v) => v ?? '')));
    for (const l of lines.slice(1)) expect(l.split(',').slice(4).join(',')).toMatch(/^\d+,0x[0-9A-F]{14},\d+,\d+$/);
  });

  it('DIR -o OUT: every table with the system columns, as one file gives them; SQL leaves them out of the INSERTs', () => {
    const run = cli([server.datadir, '-o', join(out, 'csv'), '--system-columns']);
    expect(run.status, run.stderr).toBe(0);
    const one = cli([join(server.datadir, 'test', 'clash.ibd'), '--system-columns']).stdout;
    expect(readFileSync(join(out, 'csv', 'test', 'clash.csv'), 'utf8')).toBe(one);
    expect(readFileSync(join(out, 'csv', 'test', 'plain.csv'), 'utf8').split('\n')[0]).toBe('id,n,_db_trx_id,_db_roll_ptr,_page,_heap');
    const sql = cli([server.datadir, '-o', join(out, 'sql'), '--format', 'sql', '--system-columns']);
    expect(sql.status, sql.stderr).toBe(0);
    const dump = readFileSync(join(out, 'sql', 'test', 'clash.sql'), 'utf8');
    expect(dump).toContain("INSERT INTO `clash` (`id`,`_page`,`_DB_TRX_ID`,`v`) VALUES");
    expect(dump).not.toContain('_sys');
  });

  it('DIR -o OUT --format parquet: DuckDB reads ours as unsigned integers and bytes, the table\'s as the server has them', async () => {
    const run = cli([server.datadir, '-o', join(out, 'parquet'), '--format', 'parquet', '--system-columns']);
    expect(run.status, run.stderr).toBe(0);
    const csv = readFileSync(join(out, 'csv', 'test', 'clash.csv'), 'utf8').trimEnd().split('\n').slice(1).map((l) => l.split(','));
    const expected = serverRows.map((r, i) => [...r, ...csv[i].slice(4)]);
    const read = await duckdbRead(join(out, 'parquet', 'test', 'clash.parquet'), { rows: expected });
    expect(read.thrift).toEqual([]);
    expect(read.columns.join(',')).toBe(HEADER);
    expect(read.types).toMatchObject({ id: 'INTEGER', _page: 'INTEGER', _DB_TRX_ID: 'VARCHAR', _db_trx_id_sys: 'UBIGINT', _db_roll_ptr: 'BLOB', _page_sys: 'UINTEGER', _heap: 'USMALLINT' });
    expect(read.rows).toEqual(expected);
  });
});
