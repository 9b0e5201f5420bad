/**
 * The secondary indexes of the real MySQL 5.6 / 5.7 / 8.0 files (test/fixtures/mysql-testsuite):
 * every index of every fixture table that has one, decoded by name (MySQL 8: its tree from the SDI;
 * 5.x: InnoDB's creation order, checked against the rows) with the table as MariaDB's
 * SHOW CREATE TABLE gives it once its script ran (some scripts add keys after CREATE TABLE), and
 * compared with MariaDB's `SELECT … FORCE INDEX (k)` of it (mysql-fixtures.test.ts fills it so).
 */
import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables, pickTable } from '../../src/core/definitions/ddl/create-table.ts';
import type { TableDef } from '../../src/core/schema.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectSameRows } from './decode.ts';
import { decodeIndex, indexQuery } from './index-query.ts';
import { expectedScript, fixtureIbd, fixtureTables, readScript, source } from './mysql-fixture-files.ts';

/** The UNIQUE key InnoDB clusters on when there is no PRIMARY KEY (the first of NOT NULL whole columns). */
function isClustered(table: TableDef, name: string): boolean {
  if (table.indexes.some((i) => i.kind === 'primary')) return false;
  const first = table.indexes.find((i) => i.kind === 'unique' && i.columns.every((c) => c.prefix === 0 && table.columns.some((col) => col.name === c.name && !col.nullable)));
  return first?.name === name;
}

const withIndexes = fixtureTables().filter(({ rel }) => {
  const table = pickTable(parseCreateTables(readScript(rel)), `${basename(rel)}.ibd`);
  return table?.indexes.some((i) => i.kind === 'key' || i.kind === 'unique') ?? false;
});

describe('secondary indexes of MySQL 5.6 / 5.7 / 8.0 fixture files', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('there are some', () => {
    expect(withIndexes.length).toBeGreaterThanOrEqual(4);
  });

  it.each(withIndexes)('$rel ($versions)', async ({ rel, versions }) => {
    const written = pickTable(parseCreateTables(readScript(rel)), `${basename(rel)}.ibd`);
    if (!written) throw new Error(`no CREATE TABLE for ${rel}`);
    for (const v of versions) {
      const db = `${rel.replace(/\W/g, '_')}_${v}`;
      await server.exec(`CREATE DATABASE \`${db}\``, 'mysql');
      source(server, db, expectedScript(rel, written.name), v === 'mysql56' ? '' : 'STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO');
      const table = parseCreateTables((await server.query(`SHOW CREATE TABLE \`${written.name}\``, db)).rows[0][1] as string)[0];
      for (const index of table.indexes.filter((i) => (i.kind === 'key' || i.kind === 'unique') && !isClustered(table, i.name))) {
        const query = indexQuery(table, index.name);
        const expected = await server.query(query.sql, db);
        const decoded = await decodeIndex(fixtureIbd(v, rel), table, index.name);
        expect(decoded.reader.columns, `${v}/${rel} ${index.name}`).toEqual(query.names);
        expectSameRows(decoded.rows, expected.rows, `${v}/${rel} ${index.name}`, query.names);
        expect(decoded.reader.stats.problems, `${v}/${rel} ${index.name}`).toEqual([]);
      }
    }
  });
});
