/**
 * Secondary indexes against a real MariaDB: every index of tables of every row format (REDUNDANT,
 * COMPACT, DYNAMIC, COMPRESSED) — single-column and composite, unique and not, nullable, prefix parts,
 * descending parts, an indexed virtual column, a primary key with a prefix, a table clustered on its
 * hidden row id — decoded by name and compared row for row with the server's
 * `SELECT … FORCE INDEX (k) ORDER BY …` (index-query.ts); delete-marked index records with the
 * deleted rows; which tree is which index beside a FULLTEXT index.
 */
import { createConnection } from 'mariadb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectSameRows } from './decode.ts';
import { decodeIndex, indexRows, tableDef } from './index-query.ts';
import { date, datetime, decimal, integer, inserts, text } from './random-data.ts';

const FORMATS = ['REDUNDANT', 'COMPACT', 'DYNAMIC', 'COMPRESSED'];
const ROWS = 2500;

/** The tables of one row format, filled; each with the indexes to check and its tie-break column. */
function tables(fmt: string): { name: string; sql: string; tieBreak?: string }[] {
  const f = fmt.toLowerCase();
  const vals = (table: string, columns: string[], gens: ((r: () => number) => string)[]) => inserts(table, columns, gens, ROWS, 26 + f.length).replace(/^INSERT/gm, 'INSERT IGNORE');
  return [
    {
      name: `sx_${f}`,
      sql: `CREATE TABLE sx_${f} (id INT NOT NULL PRIMARY KEY, a INT NULL, b BIGINT UNSIGNED NULL, c VARCHAR(30) CHARACTER SET utf8mb4 NULL,
        d DATE NULL, e DECIMAL(10,2) NOT NULL, f CHAR(10) CHARACTER SET latin1 NULL, g VARBINARY(20) NULL, v INT AS (a % 100) VIRTUAL,
        KEY ka (a), UNIQUE KEY ub (b), KEY kcd (c(5), d), KEY kd (d DESC, e), KEY kf (f, g(4)), KEY kv (v)) ROW_FORMAT=${fmt};
        ${vals(`sx_${f}`, ['id', 'a', 'b', 'c', 'd', 'e', 'f', 'g'], [integer(32, false), integer(64, true), text(30, 'utf8mb4'), date(), (r) => decimal(10, 2)(r).replace('NULL', '0'), text(10, 'latin1'), (r) => (r() < 0.1 ? 'NULL' : `UNHEX('${Math.floor(r() * 1e12).toString(16)}')`)])}`,
    },
    {
      name: `cx_${f}`,
      sql: `CREATE TABLE cx_${f} (x INT NOT NULL, y VARCHAR(10) CHARACTER SET latin1 NOT NULL, z DATETIME(3) NULL, w TINYINT NOT NULL,
        PRIMARY KEY (x, y), KEY kz (z), KEY kyz (y, z), UNIQUE KEY uwx (w, x)) ROW_FORMAT=${fmt};
        ${vals(`cx_${f}`, ['x', 'y', 'z', 'w'], [(r) => text(10, 'latin1', { nullable: false })(r), datetime(3), (r) => String(Math.floor(r() * 200) - 100)])}`,
    },
    {
      name: `rx_${f}`,
      tieBreak: 'seq',
      sql: `CREATE TABLE rx_${f} (seq INT NOT NULL AUTO_INCREMENT, a INT NULL, b VARCHAR(20) CHARACTER SET utf8mb4 NULL, KEY (seq), KEY ka (a), KEY kb (b)) ROW_FORMAT=${fmt};
        ${vals(`rx_${f}`, ['seq', 'a', 'b'], [(r) => String(Math.floor(r() * 50)), text(20, 'utf8mb4')])}`,
    },
    {
      name: `px_${f}`,
      // Long keys: a B-tree of three levels on 4K pages.
      sql: `CREATE TABLE px_${f} (s VARCHAR(150) CHARACTER SET utf8mb4 NOT NULL, n INT NULL, PRIMARY KEY (s(6)), KEY kn (n), KEY ks (s)) ROW_FORMAT=${fmt};
        INSERT INTO px_${f} SELECT CONCAT(LPAD(seq, 6, '0'), REPEAT(CHAR(97 + seq % 26), 60 + seq % 80)), IF(seq % 9 = 0, NULL, seq % 97) FROM seq_1_to_${3 * ROWS};`,
    },
  ];
}

/** The most levels a B-tree decoded so far had. */
let deepest = 0;

async function expectEveryIndex(server: MariadbServer, name: string, tieBreak?: string): Promise<void> {
  const table = await tableDef(server, name);
  const ibd = await server.exportTable(name);
  for (const index of table.indexes.filter((i) => i.kind !== 'primary' && i.kind !== 'fulltext')) {
    const expected = await indexRows(server, table, index.name, '', tieBreak ?? null);
    const decoded = await decodeIndex(ibd, table, index.name);
    const what = `${name}.${index.name} (${server.pageSize / 1024}K)`;
    expect(decoded.reader.columns, what).toEqual(expected.names);
    expectSameRows(decoded.rows, expected.rows, what, expected.names);
    expect(decoded.reader.stats.problems, what).toEqual([]);
    expect(decoded.reader.stats.pagesRead, what).toBeGreaterThan(0);
    deepest = Math.max(deepest, decoded.reader.info.treeHeight);
  }
}

describe.each([16384, 4096])('secondary indexes, %i-byte pages', (pageSize) => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(FORMATS)('every index of every table, ROW_FORMAT=%s', async (fmt) => {
    for (const t of tables(fmt)) {
      await server.exec(t.sql);
      await expectEveryIndex(server, t.name, t.tieBreak);
    }
    if (pageSize === 4096) expect(deepest).toBeGreaterThanOrEqual(3);
  });

  it('delete-marked index records come back with the deleted rows', async () => {
    await server.exec(tables('DYNAMIC')[0].sql.replace(/sx_dynamic/g, 'sx_deleted'));
    const table = await tableDef(server, 'sx_deleted');
    const indexes = ['ka', 'kcd', 'kd', 'kv'];
    const doomed = await Promise.all(indexes.map((k) => indexRows(server, table, k, ' WHERE id % 7 = 0')));
    const snapshot = await createConnection({ socketPath: server.socket, user: 'root', database: 'test' });
    try {
      // An open read view stops purge: the deleted rows' index records stay, delete-marked.
      await snapshot.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
      await server.exec('DELETE FROM sx_deleted WHERE id % 7 = 0');
      const ibd = await server.exportTable('sx_deleted');
      for (const [i, index] of indexes.entries()) {
        const live = await indexRows(server, table, index);
        expectSameRows((await decodeIndex(ibd, table, index)).rows, live.rows, `${index} live`);
        const deleted = await decodeIndex(ibd, table, index, 'deleted');
        expect(new Set(deleted.rows.map((r) => r.at(-1))), index).toEqual(new Set(['delete-marked']));
        expectSameRows(deleted.rows.map((r) => r.slice(0, -1)), doomed[i].rows, `${index} deleted`);
      }
    } finally {
      await snapshot.end();
    }
  });

  it('tells the trees apart after ALTER TABLE added a UNIQUE key (created last, listed first), by the rows', async () => {
    await server.exec(`CREATE TABLE alt (id INT PRIMARY KEY, x INT, y INT, v VARCHAR(20), u INT NOT NULL, KEY kx (x), KEY kv (v));
      INSERT INTO alt SELECT seq, seq % 100, seq * 7, CONCAT('v', seq % 300), seq * 3 FROM seq_1_to_3000;
      ALTER TABLE alt ADD UNIQUE KEY uy (y), ADD UNIQUE KEY uu (u);`);
    const table = await tableDef(server, 'alt');
    expect(table.indexes.map((i) => i.name)).toEqual(['PRIMARY', 'uu', 'uy', 'kx', 'kv']);
    await expectEveryIndex(server, 'alt');
  });

  it('tells the trees apart beside a FULLTEXT index (FTS_DOC_ID_INDEX comes right after the clustered one)', async () => {
    await server.exec(`CREATE TABLE ft (id INT PRIMARY KEY, a INT, body TEXT, b VARCHAR(10), FULLTEXT KEY fb (body), KEY ka (a), UNIQUE KEY ub (b));
      INSERT INTO ft SELECT seq, seq % 13, CONCAT('word', seq), CONCAT('b', seq) FROM seq_1_to_500;`);
    await expectEveryIndex(server, 'ft');
  });
});
