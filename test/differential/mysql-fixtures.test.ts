/**
 * Real files written by MySQL 5.6, 5.7 and 8.0 (test/fixtures/mysql-testsuite). The `.sql`
 * beside each table filled it; running that script in MariaDB gives the rows the file must decode to.
 * MySQL 5.6 ran without strict mode (out-of-range values were clamped), 5.7 and 8.0 with it, so the
 * script runs once per mode. A few scripts keep their data as `--insert ...` lines (not a comment for
 * MySQL, which needs a space after `--`, but not valid SQL either); the files were filled with them,
 * so they are run as the INSERTs they are.
 *
 * Two adaptations let MariaDB compute the expected rows; neither changes what SELECT returns:
 *  - MariaDB counts the 65,535-byte row limit a little differently from MySQL 5.6 and refuses tb04's
 *    VARCHAR(47474), so VARCHARs of 10,000+ characters are created as MEDIUMTEXT for that run;
 *  - column/char/tb04.sql goes on, after "-- below is test data for mysql8.0", to recreate the table
 *    for an 8.0 file that is not among the fixtures; only the part before it made the 5.6 file;
 *  - pk/tb24_sk.sql only creates the table: it holds pk/tb24's rows (same columns), so tb24's script
 *    runs first and its rows are copied over.
 */
import { basename } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables, pickTable } from '../../src/core/definitions/ddl/create-table.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { decodeFile, expectSameRows } from './decode.ts';
import { expectedScript, fixtureIbd, fixtureTables, readScript, source } from './mysql-fixture-files.ts';

/** Every fixture table with at least one .ibd, and the versions that have it. */
const cases = fixtureTables();

describe('MySQL 5.6 / 5.7 / 8.0 fixture files', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(cases)('$rel ($versions)', async ({ rel, sql, versions }) => {
    const script = readScript(rel);
    const table = pickTable(parseCreateTables(script), `${basename(rel)}.ibd`);
    if (!table) throw new Error(`${sql} has no CREATE TABLE for ${basename(rel)}`);
    const pk = table.indexes.find((i) => i.kind === 'primary');
    const orderBy = pk ? pk.columns.map((c) => `\`${c.name}\``).join(', ') : null;
    const expectedFor = new Map<string, (string | null)[][]>();
    for (const [mode, sqlMode] of [['lax', ''], ['strict', 'STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO']] as const) {
      const db = `${rel.replace(/\W/g, '_')}_${mode}`;
      await server.exec(`CREATE DATABASE \`${db}\``, 'mysql');
      const errors = source(server, db, expectedScript(rel, table.name), sqlMode);
      // Some scripts carry stray lines (pasted client output); like the mysql client, go on past them.
      if (errors) console.warn(`${rel} (${mode}): the script has statements MariaDB refuses:\n${errors.slice(0, 2000)}`);
      expectedFor.set(mode, (await server.query(`SELECT * FROM \`${table.name}\`${orderBy ? ` ORDER BY ${orderBy}` : ''}`, db)).rows);
    }
    for (const v of versions) {
      const decoded = await decodeFile(fixtureIbd(v, rel), script, table.name);
      expectSameRows(decoded.rows, expectedFor.get(v === 'mysql56' ? 'lax' : 'strict') ?? [], `${v}/${rel}`, decoded.reader.columns);
      expect(decoded.reader.stats.problems, `${v}/${rel}`).toEqual([]);
    }
  });
});
