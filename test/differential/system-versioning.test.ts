/**
 * MariaDB WITH SYSTEM VERSIONING: every version of a row is a record of the clustered index, with
 * ROW START / ROW END columns (hidden `row_start`, `row_end` unless the DDL names them) and ROW END
 * appended to the primary key. Decoded from SHOW CREATE TABLE's text (which prints neither the
 * hidden columns nor the extended key) and from the .frm, the rows must be the server's
 * `SELECT *, row_start, row_end … FOR SYSTEM_TIME ALL`: current and history rows.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFrmBytes } from '../../src/core/definitions/frm/index.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { openTable, type Row } from '../../src/core/readers/table-reader.ts';
import type { TableDef } from '../../src/core/schema.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { decodeFile, expectSameRows } from './decode.ts';

let server: MariadbServer;

beforeAll(async () => {
  server = await startMariadb();
  const rows = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join(',');
  await server.exec(`
    CREATE TABLE implicit_pk (id INT PRIMARY KEY, v VARCHAR(200), u INT UNIQUE) WITH SYSTEM VERSIONING;
    INSERT INTO implicit_pk VALUES ${rows(400, (i) => `(${i}, REPEAT('v${i}', ${i % 30}), ${i * 7})`)};
    UPDATE implicit_pk SET v = CONCAT(v, '!') WHERE id % 3 = 0;
    UPDATE implicit_pk SET u = u + 1 WHERE id % 5 = 0;
    DELETE FROM implicit_pk WHERE id % 11 = 0;
    CREATE TABLE explicit_period (id BIGINT, k CHAR(4), v TEXT, s TIMESTAMP(6) GENERATED ALWAYS AS ROW START INVISIBLE,
      e TIMESTAMP(6) GENERATED ALWAYS AS ROW END INVISIBLE, PERIOD FOR SYSTEM_TIME (s, e), PRIMARY KEY (id, k)) WITH SYSTEM VERSIONING;
    INSERT INTO explicit_period (id, k, v) VALUES ${rows(200, (i) => `(${i}, 'k${i % 4}', REPEAT('t', ${i * 3}))`)};
    UPDATE explicit_period SET v = 'changed' WHERE id < 50;
    CREATE TABLE no_key (a INT, b VARCHAR(10), c INT WITHOUT SYSTEM VERSIONING) WITH SYSTEM VERSIONING;
    INSERT INTO no_key VALUES ${rows(100, (i) => `(${i}, 'b${i}', ${i})`)};
    UPDATE no_key SET b = 'x' WHERE a < 10;
    UPDATE no_key SET c = 0 WHERE a > 90;
  `);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

async function expected(table: string, period: [string, string], order: string): Promise<{ columns: string[]; rows: Row[] }> {
  const r = await server.query(`SELECT *, ${period[0]}, ${period[1]} FROM \`${table}\` FOR SYSTEM_TIME ALL ORDER BY ${order}`);
  return { columns: r.columns, rows: r.rows as Row[] };
}

async function decodeWith(table: TableDef, ibd: string): Promise<Row[]> {
  const reader = await openTable(bytesSource(readFileSync(ibd), basename(ibd)), table);
  const rows: Row[] = [];
  for await (const batch of reader.rows()) rows.push(...batch);
  expect(reader.stats.problems).toEqual([]);
  return rows;
}

describe('WITH SYSTEM VERSIONING', () => {
  const cases: [string, [string, string], string, string][] = [
    ['implicit_pk', ['row_start', 'row_end'], 'id, row_end', 'id, v, u, row_start, row_end'],
    ['explicit_period', ['s', 'e'], 'id, k, e', 'id, k, v, s, e'],
    ['no_key', ['row_start', 'row_end'], 'a, row_start', 'a, b, c, row_start, row_end'],
  ];
  for (const [table, period, order, select] of cases) {
    it(`${table}: current and history rows from SHOW CREATE TABLE and from the .frm`, async () => {
      const ddl = (await server.query(`SHOW CREATE TABLE \`${table}\``)).rows[0][1] as string;
      const want = await server.query(`SELECT ${select} FROM \`${table}\` FOR SYSTEM_TIME ALL ORDER BY ${order}`);
      expect((await expected(table, period, order)).rows.length).toBe(want.rows.length);
      const history = (await server.query(`SELECT COUNT(*) FROM \`${table}\` FOR SYSTEM_TIME ALL WHERE ${period[1]} < '2038-01-01'`)).rows[0][0];
      expect(Number(history)).toBeGreaterThan(0);
      const ibd = await server.exportTable(table);

      const fromDdl = await decodeFile(ibd, ddl);
      expect(fromDdl.reader.columns).toEqual(want.columns);
      // a table without a key is clustered on its hidden row id, in insertion order: compare as sets
      const sorted = (rows: Row[]) => (table === 'no_key' ? rows.map((r) => JSON.stringify(r)).sort() : rows);
      expectSameRows(sorted(fromDdl.rows) as Row[], sorted(want.rows as Row[]) as Row[], `${table} from SHOW CREATE TABLE`, want.columns);

      const frm = readFrmBytes(readFileSync(ibd.replace(/\.ibd$/, '.frm')), basename(ibd).replace(/\.ibd$/, '.frm'));
      const fromFrm = await decodeWith(frm.table, ibd);
      expectSameRows(sorted(fromFrm) as Row[], sorted(want.rows as Row[]) as Row[], `${table} from the .frm`, want.columns);
      expect(frm.table.createSql).toBe(ddl);
    });
  }
});
