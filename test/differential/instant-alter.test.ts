/**
 * ALTER TABLE ... ALGORITHM=INSTANT against a real MariaDB 10.11: rows written between every step of
 * ADD COLUMN (at the end, FIRST, AFTER), DROP COLUMN and reordering, in each row format, so that a
 * page holds records of several shapes (ordinary ones with the original fields, ones with added
 * fields, the metadata record with its defaults and column map). Every value equal to SELECT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIL_PAGE_TYPE, u16 } from '../../src/core/pages/fil-header.ts';
import { readFileSync } from 'node:fs';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectServerRows } from './decode.ts';

const instant = (sql: string): string => `${sql}, ALGORITHM=INSTANT`;

describe('instant ALTER TABLE against MariaDB 10.11', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  let next = 1;
  async function insertRows(table: string, values: (id: number) => string, n = 3): Promise<void> {
    const rows = Array.from({ length: n }, () => values(next++));
    await server.exec(`INSERT INTO ${table} ${rows.join(' UNION ALL ')}`);
  }

  it.each(['DYNAMIC', 'COMPACT', 'REDUNDANT'])('ADD, DROP, ADD FIRST/AFTER with rows between, ROW_FORMAT=%s', async (format) => {
    const t = `seq_${format.toLowerCase()}`;
    next = 1;
    await server.exec(`CREATE TABLE ${t} (id INT PRIMARY KEY, a VARCHAR(20), b INT, c TEXT) ROW_FORMAT=${format}`);
    await insertRows(t, (i) => `SELECT ${i}, 'a${i}', ${i * 10}, REPEAT('c', ${i})`);
    await server.exec(instant(`ALTER TABLE ${t} ADD COLUMN d INT NOT NULL DEFAULT 42`));
    await insertRows(t, (i) => `SELECT ${i}, 'a${i}', ${i * 10}, NULL, ${i * 100}`);
    await server.exec(instant(`ALTER TABLE ${t} ADD COLUMN e VARCHAR(30) DEFAULT 'dflt é', ADD COLUMN f DATETIME(3) NULL`));
    await insertRows(t, (i) => `SELECT ${i}, NULL, ${i}, 'c', ${i}, 'e${i}', '2024-02-29 13:05:00.123'`);
    await server.exec(instant(`ALTER TABLE ${t} DROP COLUMN b`));
    await insertRows(t, (i) => `SELECT ${i}, 'a${i}', 'c', -${i}, NULL, NULL`);
    await server.exec(instant(`ALTER TABLE ${t} ADD COLUMN g DECIMAL(8,2) NOT NULL DEFAULT 3.14 FIRST`));
    await insertRows(t, (i) => `SELECT ${i}.5, ${i}, 'a', 'c', 0, 'e', NULL`);
    await server.exec(instant(`ALTER TABLE ${t} ADD COLUMN h ENUM('x','y','z') DEFAULT 'y' AFTER id, DROP COLUMN d`));
    await insertRows(t, (i) => `SELECT 1, ${i}, 'z', 'a', 'c', 'e', NULL`);
    await server.exec(instant(`ALTER TABLE ${t} MODIFY COLUMN c TEXT AFTER g`));
    await insertRows(t, (i) => `SELECT 2, 'cc${i}', ${i}, 'x', 'a', 'e', '2000-01-01'`);
    // Updating old rows rewrites them in the current format; deleted ones stay delete-marked.
    await server.exec(`UPDATE ${t} SET a = CONCAT('u', a) WHERE id IN (2, 5, 8); DELETE FROM ${t} WHERE id IN (3, 9)`);
    const { reader } = await expectServerRows(server, t, 'id');
    const file = readFileSync(await server.exportTable(t));
    expect(u16(file, reader.info.rootPage * 16384 + FIL_PAGE_TYPE)).toBe(18); // FIL_PAGE_TYPE_INSTANT
  });

  it('many added nullable columns (the null bitmap grows by bytes), on a multi-level tree with a VARCHAR key', async () => {
    const t = 'wide';
    await server.exec(`CREATE TABLE ${t} (k VARCHAR(40) PRIMARY KEY, n1 INT NULL, v TEXT)`);
    await server.exec(`INSERT INTO ${t} SELECT CONCAT('key-', LPAD(seq, 6, '0'), REPEAT('k', seq % 20)), IF(seq % 2, seq, NULL), REPEAT('v', seq % 300) FROM seq_1_to_4000`);
    const adds = Array.from({ length: 12 }, (_, i) => `ADD COLUMN x${i} SMALLINT NULL${i % 3 === 0 ? ` DEFAULT ${i}` : ''}`).join(', ');
    await server.exec(instant(`ALTER TABLE ${t} ${adds}`));
    await server.exec(`INSERT INTO ${t} (k, n1, v, x0, x5, x11) SELECT CONCAT('key-', LPAD(seq, 6, '0'), 'new'), seq, 'v', seq, NULL, -seq FROM seq_1_to_3000`);
    await server.exec(instant(`ALTER TABLE ${t} DROP COLUMN n1`));
    await server.exec(`INSERT INTO ${t} (k, v, x3) SELECT CONCAT('key-z', seq), 'after drop', seq FROM seq_1_to_500`);
    const { reader } = await expectServerRows(server, t, 'k');
    expect(reader.info.treeHeight).toBeGreaterThan(1);
    const file = readFileSync(await server.exportTable(t));
    expect(u16(file, reader.info.rootPage * 16384 + FIL_PAGE_TYPE)).toBe(18); // FIL_PAGE_TYPE_INSTANT
  });

  it('a table without a primary key, columns added and dropped', async () => {
    const t = 'nokey';
    await server.exec(`CREATE TABLE ${t} (a INT, b CHAR(5), c BLOB)`);
    await server.exec(`INSERT INTO ${t} VALUES (1, 'one', 0x01), (2, NULL, NULL)`);
    await server.exec(instant(`ALTER TABLE ${t} ADD COLUMN d BIGINT UNSIGNED NOT NULL DEFAULT 18446744073709551615, ADD COLUMN e BLOB DEFAULT 'blob default'`));
    await server.exec(`INSERT INTO ${t} VALUES (3, 'three', 0x03, 3, 'e3')`);
    await server.exec(instant(`ALTER TABLE ${t} DROP COLUMN b, ADD COLUMN f TIME DEFAULT '-12:34:56' FIRST`));
    await server.exec(`INSERT INTO ${t} VALUES ('01:02:03', 4, 0x04, 4, 'e4')`);
    await expectServerRows(server, t, null);
  });
});
