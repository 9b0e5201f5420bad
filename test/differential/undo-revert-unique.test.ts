/**
 * --revert-trx N where N moved UNIQUE secondary key values, and changed many rows; --history as SQL
 * (issue 39). `u` (a UNIQUE `code`, a DATETIME, an ENUM, a DECIMAL, a stored generated column, a
 * child table referencing it ON DELETE CASCADE) takes one transaction N, a read view held open: two
 * rows swap their codes, one takes another's, a row is deleted and its code reused by an insert, and
 * 40,000 rows are updated (about 14 MB of UPDATEs putting back long names: more than the revert holds in memory, so they go
 * through a temporary file). A server recovering a copy runs the revert: `u` must equal the SELECT
 * taken before N, without a duplicate-key error, the child rows all kept; triggers on `u` say which
 * rows were deleted and which updated: only those whose code put back another row still held (the
 * swapped pair, the row whose code another took) are deleted and inserted again, the row that took
 * another's code is updated back (its own old code free), as are the 40,000. The history as SQL, loaded
 * by that server, must hold the rows `--history` gives as NDJSON.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { historyTableSql } from '../../src/core/writers/history-sql.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { buildCli, cli, flushDirtyPages, ndjsonRows } from './undo-setup.ts';

const COLUMNS = ['id', 'code', 'name', 'price', 'made', 'kind', 'twice'];
const SELECT = `SELECT ${COLUMNS.join(', ')} FROM u ORDER BY id`;
const ROWS = 40_000;
const MISTAKE = [
  "UPDATE u SET code = 'tmp' WHERE id = 1",
  "UPDATE u SET code = 'c1' WHERE id = 2",
  "UPDATE u SET code = 'c2' WHERE id = 1",
  "UPDATE u SET code = 'c4x' WHERE id = 4",
  "UPDATE u SET code = 'c4', kind = 'b' WHERE id = 3",
  'DELETE FROM u WHERE id = 5',
  "INSERT INTO u (id, code, name, price, made, kind) VALUES (90001, 'c5', 'reused', 1, '2020-01-01 00:00:00', 'c')",
  "UPDATE u SET name = CONCAT('oops ', id), price = price + 1 WHERE id > 10",
];

let server: MariadbServer;
let recovered: MariadbServer;
let before: (string | null)[][] = [];
let mistake = '';

beforeAll(async () => {
  buildCli();
  server = await startMariadb({ extraArgs: ['--innodb-undo-tablespaces=2'] });
  await server.exec(`CREATE TABLE u (id INT PRIMARY KEY, code VARCHAR(10) NOT NULL, name VARCHAR(400) NOT NULL, price DECIMAL(10,2) NOT NULL,
      made DATETIME NOT NULL, kind ENUM('a','b','c') NOT NULL, twice DECIMAL(12,2) AS (price * 2) STORED, UNIQUE KEY (code)) ROW_FORMAT=DYNAMIC;
    INSERT INTO u (id, code, name, price, made, kind) SELECT seq, CONCAT('c', seq), CONCAT('item ', seq, ' ', REPEAT('i', 300)), seq / 4, '2024-02-29 12:00:00' + INTERVAL seq MINUTE, 'a' FROM seq_1_to_${ROWS};
    CREATE TABLE uc (n INT PRIMARY KEY, u_id INT NOT NULL, FOREIGN KEY (u_id) REFERENCES u (id) ON DELETE CASCADE);
    INSERT INTO uc VALUES (1, 1), (2, 2), (3, 3), (4, 4);`);
  const view = await server.openSession();
  await view.exec('START TRANSACTION WITH CONSISTENT SNAPSHOT');
  await view.query('SELECT COUNT(*) FROM u');
  before = (await server.query(SELECT)).rows;
  const writer = await server.openSession();
  await writer.exec('START TRANSACTION');
  for (const s of MISTAKE) await writer.exec(s);
  // INFORMATION_SCHEMA.INNODB_TRX is a cache refreshed at most every 0.1 s.
  await new Promise((r) => setTimeout(r, 250));
  mistake = String((await writer.query('SELECT trx_id FROM information_schema.innodb_trx WHERE trx_mysql_thread_id = CONNECTION_ID()')).rows[0][0]);
  await writer.exec('COMMIT');
  await flushDirtyPages(server);
  await server.crash();
  recovered = await startMariadb({ datadir: server.copyDatadir(), extraArgs: ['--innodb-undo-tablespaces=2'] });
}, 600_000);

afterAll(async () => {
  await recovered?.stop();
  await server?.stop();
});

const file = () => join(server.datadir, 'test', 'u.ibd');

describe('revert of a transaction moving UNIQUE values, many rows', () => {
  it('runs without a duplicate-key error and gives back the table before N; the held statements went through a temporary file', async () => {
    const run = cli([file(), '--revert-trx', mistake, '--format', 'sql']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/\d+ statements revert transaction \d+'s changes \(\d+ MiB of them held in a temporary file/);
    const sql = run.stdout;
    await recovered.exec(`CREATE TABLE fired (op VARCHAR(6), id INT);
      CREATE TRIGGER u_del AFTER DELETE ON u FOR EACH ROW INSERT INTO fired VALUES ('delete', OLD.id);
      CREATE TRIGGER u_upd AFTER UPDATE ON u FOR EACH ROW INSERT INTO fired SELECT 'update', OLD.id FROM DUAL WHERE OLD.id <= 10`);
    await recovered.exec(sql);
    expect((await recovered.query('SELECT op, id FROM fired ORDER BY op, id')).rows).toEqual([['delete', '1'], ['delete', '2'], ['delete', '4'], ['delete', '90001'], ['update', '3']]);
    await recovered.exec('DROP TRIGGER u_del; DROP TRIGGER u_upd; DROP TABLE fired');
    expect((await recovered.query(SELECT)).rows).toEqual(before);
    expect((await recovered.query('SELECT COUNT(*) FROM uc')).rows).toEqual([['4']]);
    // The swapped rows: deleted with the DELETEs, inserted as they were after every UPDATE.
    expect(sql).toMatch(/^DELETE FROM `u` WHERE `id` = 1;$/m);
    expect(sql.indexOf("(1,'c1',")).toBeGreaterThan(sql.lastIndexOf('UPDATE `u`'));
    expect(sql).toMatch(/^DELETE FROM `u` WHERE `id` = 90001;$/m);
    expect(sql).toMatch(/^UPDATE `u` SET `code` = 'c3', `kind` = 'a' WHERE `id` = 3;$/m);
  }, 300_000);

  it('--history --format sql, loaded by the server, holds the rows --history gives as NDJSON', async () => {
    const ndjson = cli([file(), '--history', '--format', 'ndjson', '--json-strings']);
    expect(ndjson.status, ndjson.stderr).toBe(0);
    const all = [...COLUMNS, '_row_state', '_trx_id', '_version'];
    const expected = ndjsonRows(ndjson.stdout, all);
    expect(expected.filter((r) => r[9] === '1').length).toBeGreaterThan(ROWS - 20);
    const run = cli([file(), '--history', '--format', 'sql']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('CREATE TABLE `u_history`');
    await recovered.exec(run.stdout);
    const loaded = (await recovered.query(`SELECT ${all.join(', ')} FROM u_history`)).rows;
    const sorted = (rows: (string | null)[][]) => rows.map((r) => JSON.stringify(r)).sort();
    expect(sorted(loaded)).toEqual(sorted(expected));
    expect(loaded.some((r) => r[0] === '1' && r[1] === 'c1' && r[9] === '1')).toBe(true);
  }, 300_000);

  it('the history table keeps each column\'s type as the server has it, for every kind of column', async () => {
    await recovered.exec(`CREATE TABLE kinds (id BIGINT UNSIGNED PRIMARY KEY, a TINYINT, b SMALLINT UNSIGNED, c MEDIUMINT, d BOOL, e DECIMAL(20,6) UNSIGNED,
      f FLOAT, g DOUBLE(12,4), h BIT(13), i DATE, j TIME(3), k DATETIME(6), l TIMESTAMP(2) NULL, m YEAR, n CHAR(5) CHARACTER SET latin1,
      o VARCHAR(30) COLLATE utf8mb4_bin, p BINARY(4), q VARBINARY(9), r TINYTEXT, s TEXT CHARACTER SET ascii, t MEDIUMTEXT, u LONGTEXT,
      v TINYBLOB, w BLOB, x MEDIUMBLOB, y LONGBLOB, z ENUM('x','y''s'), aa SET('p','q'), ab JSON, ac GEOMETRY, ad POINT, ae INET6, af UUID,
      ag INT AS (a + 1) VIRTUAL)`);
    const create = String((await recovered.query('SHOW CREATE TABLE kinds')).rows[0][1]);
    const [def] = parseCreateTables(create);
    const columns = [...def.columns.map((c) => c.name), '_row_state', '_trx_id', '_version'];
    await recovered.exec(historyTableSql(def, columns));
    const types = async (t: string) => (await recovered.query(`SELECT COLUMN_NAME, COLUMN_TYPE, CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'test' AND TABLE_NAME = '${t}' ORDER BY ORDINAL_POSITION`)).rows;
    // An integer's display width (BOOL's tinyint(1)) is not in the table model, nor in its values.
    const width = (rows: (string | null)[][]) => rows.map((r) => [r[0], r[1]?.replace(/^((tiny|small|medium|big)?int)\(\d+\)/, '$1') ?? null, r[2], r[3]]);
    const history = await types('kinds_history');
    expect(width(history.slice(0, -3))).toEqual(width(await types('kinds')));
    expect(history.slice(-3).map((r) => r[1])).toEqual(['varchar(16)', 'bigint(20) unsigned', 'int(10) unsigned']);
  });
});
