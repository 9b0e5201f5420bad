/** Test helpers: decode an .ibd on disk with a CREATE TABLE text, and compare with the server's rows. */
import { expect } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { openTable, type Row, type RowMode, type TableReader } from '../../src/core/readers/table-reader.ts';
import { fileSource } from '../../src/node/file-source.ts';
import type { MariadbServer } from '../harness/mariadb.ts';

export interface Decoded {
  reader: TableReader;
  rows: Row[];
}

export async function decodeFile(ibdPath: string, createSql: string, tableName?: string, mode: RowMode = 'live'): Promise<Decoded> {
  const tables = parseCreateTables(createSql);
  const table = tableName === undefined ? tables[0] : tables.find((t) => t.name === tableName);
  if (!table) throw new Error(`no CREATE TABLE for ${tableName ?? 'the table'} in the DDL`);
  const source = await fileSource(ibdPath);
  try {
    const reader = await openTable(source, table, { mode });
    const rows: Row[] = [];
    for await (const batch of reader.rows({ batchSize: 500 })) rows.push(...batch);
    return { reader, rows };
  } finally {
    await source.close();
  }
}

const clip = (v: string | null | undefined) => (typeof v === 'string' && v.length > 300 ? `${v.slice(0, 300)}… (${v.length} chars)` : v);

/** The first differing cell, named by row and column, so a failure says exactly what is wrong. */
export function expectSameRows(actual: Row[], expected: Row[], what: string, columns: string[] = []): void {
  const n = Math.min(actual.length, expected.length);
  for (let i = 0; i < n; i++) {
    const a = actual[i];
    const e = expected[i];
    for (let c = 0; c < Math.max(a.length, e.length); c++) {
      if (a[c] !== e[c]) {
        const where = { what, row: i, column: columns[c] ?? c, key: clip(e[0]) };
        expect({ ...where, value: clip(a[c]) }).toEqual({ ...where, value: clip(e[c]) });
      }
    }
  }
  expect(actual.length, `${what}: row count`).toBe(expected.length);
}

/**
 * The whole differential check: export `table`, decode it with the server's own SHOW CREATE TABLE,
 * and compare every value with `SELECT *` in the clustered index order (`orderBy`, or none for tables
 * clustered on a hidden row id, where a full scan already returns that order).
 */
export async function expectServerRows(server: MariadbServer, table: string, orderBy: string | null): Promise<Decoded> {
  const ddl = (await server.query(`SHOW CREATE TABLE \`${table}\``)).rows[0][1] as string;
  const expected = await server.query(`SELECT * FROM \`${table}\`${orderBy ? ` ORDER BY ${orderBy}` : ''}`);
  const ibd = await server.exportTable(table);
  const decoded = await decodeFile(ibd, ddl);
  expect(decoded.reader.columns).toEqual(expected.columns);
  expectSameRows(decoded.rows, expected.rows, `${table} (${server.pageSize / 1024}K, ${server.checksum})`, expected.columns);
  expect(decoded.reader.stats.problems).toEqual([]);
  expect(decoded.reader.stats.recordsFailed).toBe(0);
  return decoded;
}
