/** Differential check for the types-* tests: decode an exported table and compare with SELECT of the same columns. */
import { expect } from 'vitest';
import type { MariadbServer } from '../harness/mariadb.ts';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { openTable, type Row } from '../../src/core/readers/table-reader.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { expectSameRows, type Decoded } from '../differential/decode.ts';
import type { Gen } from '../differential/random-data.ts';

export interface ColumnCase {
  name: string;
  sql: string;
  gen: Gen;
}

export const quote = (name: string) => '`' + name.replace(/`/g, '``') + '`';

export function createTable(name: string, columns: ColumnCase[], options: string): string {
  return `CREATE TABLE ${quote(name)} (id INT NOT NULL PRIMARY KEY, ${columns.map((c) => `${quote(c.name)} ${c.sql}`).join(', ')}) ${options};`;
}

const GEOMETRIES = new Set(['geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection']);

/** The server's text of a geometry as the cells show it: ST_AsText, led by `SRID=n;` when n is not 0. */
export const ewkt = (expr: string) => `IF(ST_SRID(${expr}) = 0, ST_AsText(${expr}), CONCAT('SRID=', ST_SRID(${expr}), ';', ST_AsText(${expr})))`;

/**
 * Exports `table`, decodes it with the server's SHOW CREATE TABLE and compares every decoded column
 * with the server's SELECT of those columns by name (so invisible columns are compared too, and
 * virtual ones, which the file does not hold, are left out on both sides; geometries as `ewkt`).
 */
export async function expectSameAsServer(server: MariadbServer, table: string, orderBy = 'id'): Promise<Decoded> {
  const ddl = (await server.query(`SHOW CREATE TABLE ${quote(table)}`)).rows[0][1] as string;
  const ibd = await server.exportTable(table);
  const decoded = await decodeMarkingLegacy(ibd, ddl);
  const columns = decoded.reader.columns;
  const types = new Map(parseCreateTables(ddl)[0].columns.map((c) => [c.name, c.type]));
  const select = columns.map((c) => (GEOMETRIES.has(types.get(c) ?? '') ? ewkt(quote(c)) : quote(c)));
  const expected = await server.query(`SELECT ${select.join(', ')} FROM ${quote(table)} ORDER BY ${orderBy}`);
  expectSameRows(decoded.rows, expected.rows, `${table} (${server.pageSize / 1024}K)`, columns);
  expect(decoded.reader.stats.problems).toEqual([]);
  expect(decoded.reader.stats.recordsFailed).toBe(0);
  return decoded;
}

/**
 * Decodes with the DDL, marking the TIME/DATETIME/TIMESTAMP columns that SHOW CREATE TABLE flags as
 * `/* mariadb-5.3 *\/` as being in the pre-5.6 formats (what the DDL parser should do, see docs/verification.md).
 */
export async function decodeMarkingLegacy(ibdPath: string, createSql: string): Promise<Decoded> {
  const table = parseCreateTables(createSql)[0];
  const legacy = new Set([...createSql.matchAll(/^\s*`([^`]+)`[^\n]*\/\* mariadb-5\.3 \*\//gm)].map((m) => m[1]));
  for (const c of table.columns) if (legacy.has(c.name)) Object.assign(c, { legacyTemporal: true });
  const source = await fileSource(ibdPath);
  try {
    const reader = await openTable(source, table);
    const rows: Row[] = [];
    for await (const batch of reader.rows({ batchSize: 500 })) rows.push(...batch);
    return { reader, rows };
  } finally {
    await source.close();
  }
}
