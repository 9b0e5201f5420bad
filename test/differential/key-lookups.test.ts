/**
 * Lookups by key against a real MariaDB: point and range lookups (TableReader.lookup) on primary keys
 * of integer, composite, temporal, DECIMAL and `_bin` VARCHAR columns, and on secondary indexes
 * (duplicates, a DESC part, a prefix part), each compared with the server's `SELECT … WHERE` in key
 * order; a VARCHAR key in a case-insensitive collation takes the fallback (decoded values compared
 * exactly, a note saying so) and refuses a range; a lookup reads only the pages on the B-tree path,
 * a whole key one page per level (a leaf's first and last keys too); a path alone ends where it cannot
 * be followed, saying why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { openTable, type KeyRange, type Row, type TableReader } from '../../src/core/readers/table-reader.ts';
import { Tablespace } from '../../src/core/tablespace/tablespace.ts';
import { batchRows } from '../../src/core/values/row-batch.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectSameRows } from './decode.ts';

const q = (name: string) => `\`${name}\``;
const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;

/** `(a, b) >= (x, y)`-style bounds on as many key columns as the key gives. */
function tupleWhere(columns: string[], range: KeyRange): string {
  const side = (values: readonly string[], op: string) => {
    const cols = columns.slice(0, values.length);
    return cols.length === 1 ? `${q(cols[0])} ${op} ${lit(values[0])}` : `(${cols.map(q).join(', ')}) ${op} (${values.map(lit).join(', ')})`;
  };
  const parts = [range.from && side(range.from, '>='), range.to && side(range.to, '<=')].filter((p): p is string => !!p);
  return parts.length === 0 ? '' : ` WHERE ${parts.join(' AND ')}`;
}

async function lookupRows(reader: TableReader, range: KeyRange): Promise<{ rows: Row[]; notes: string[]; path: number[] }> {
  const lookup = reader.lookup(range);
  const rows: Row[] = [];
  for await (const batch of lookup.batches()) rows.push(...batchRows(batch));
  return { rows, notes: lookup.notes, path: lookup.path };
}

describe('lookups by key', () => {
  let server: MariadbServer;
  const open: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 4096 });
  });
  afterAll(async () => {
    await Promise.all(open.map((s) => s.close()));
    await server?.stop();
  });

  async function reader(table: string, indexName?: string): Promise<TableReader> {
    const ddl = (await server.query(`SHOW CREATE TABLE ${q(table)}`)).rows[0][1] as string;
    const source = await fileSource(await server.exportTable(table));
    open.push(source);
    return openTable(source, parseCreateTables(ddl)[0], { indexName });
  }

  /** Every range against `SELECT select FROM table [FORCE INDEX] WHERE … ORDER BY order`. */
  async function expectRanges(table: string, keyColumns: string[], order: string, ranges: KeyRange[], index?: string, select = '*'): Promise<void> {
    const r = await reader(table, index);
    for (const range of ranges) {
      const got = await lookupRows(r, range);
      const sql = `SELECT ${select} FROM ${q(table)}${index ? ` FORCE INDEX (${q(index)})` : ''}${tupleWhere(keyColumns, range)} ORDER BY ${order}`;
      expectSameRows(got.rows, (await server.query(sql)).rows, `${table} ${JSON.stringify(range)}`);
      expect(got.notes, JSON.stringify(range)).toEqual([]);
    }
  }

  it('an INT primary key: points (present, absent, the ends) and ranges over many leaves, open at either end', async () => {
    await server.exec('CREATE TABLE ints (id INT PRIMARY KEY, v VARCHAR(40)); INSERT INTO ints SELECT CAST(seq AS SIGNED) * 2 - 20000, REPEAT(\'x\', seq % 37) FROM seq_1_to_30000;');
    const point = (k: string): KeyRange => ({ from: [k], to: [k] });
    await expectRanges('ints', ['id'], 'id', [
      point('100'), point('101'), point('-19998'), point('39980'), point('-2147483648'),
      { from: ['1000'], to: ['9000'] }, { from: ['-7'], to: ['7'] }, { from: null, to: ['-19000'] }, { from: ['38000'], to: null },
      { from: null, to: null },
    ]);
    // Bounds reversed: none, as BETWEEN 500 AND 100 gives, and said.
    const none = await lookupRows(await reader('ints'), { from: ['500'], to: ['100'] });
    expect(none.rows).toEqual([]);
    expect(none.notes).toEqual(['the lower key (500) is above the upper (100): no key lies between them']);
  });

  it('a composite primary key: a prefix, a whole key, a range between partial keys', async () => {
    await server.exec(`CREATE TABLE comp (a INT NOT NULL, b DATE NOT NULL, c VARCHAR(10), PRIMARY KEY (a, b));
      INSERT INTO comp SELECT seq % 40, '2020-01-01' + INTERVAL (seq DIV 40) DAY, CONCAT('c', seq) FROM seq_1_to_12000;`);
    await expectRanges('comp', ['a', 'b'], 'a, b', [
      { from: ['5'], to: ['5'] }, { from: ['5', '2020-03-01'], to: ['5', '2020-03-01'] },
      { from: ['3', '2020-05-10'], to: ['7'] }, { from: ['3'], to: ['7', '2020-02-01'] }, { from: ['39', '2020-08-01'], to: null },
    ]);
  });

  it('temporal and DECIMAL primary keys, negative values among them', async () => {
    await server.exec(`CREATE TABLE tdt (k DATETIME(3) PRIMARY KEY, v INT); INSERT INTO tdt SELECT TIMESTAMPADD(MICROSECOND, seq * 1000, TIMESTAMPADD(SECOND, seq * 7777, '2001-01-01 00:00:00')), seq FROM seq_1_to_8000;
      CREATE TABLE tts (k TIMESTAMP(2) NOT NULL PRIMARY KEY, v INT); INSERT INTO tts SELECT FROM_UNIXTIME(1000000 + seq * 3599.37), seq FROM seq_1_to_8000;
      CREATE TABLE ttm (k TIME(4) PRIMARY KEY, v INT); INSERT INTO ttm SELECT SEC_TO_TIME(CAST(seq AS SIGNED) * 71.3717 - 300000), seq FROM seq_1_to_8000;
      CREATE TABLE tdc (k DECIMAL(12,3) PRIMARY KEY, v INT); INSERT INTO tdc SELECT CAST(seq AS SIGNED) * 12.345 - 50000, seq FROM seq_1_to_8000;`);
    const some = async (table: string, i: number) => (await server.query(`SELECT k FROM ${table} ORDER BY k LIMIT 1 OFFSET ${i}`)).rows[0][0] as string;
    for (const table of ['tdt', 'tts', 'ttm', 'tdc']) {
      const [a, b, c] = [await some(table, 10), await some(table, 3000), await some(table, 3001)];
      await expectRanges(table, ['k'], 'k', [{ from: [a], to: [a] }, { from: [a], to: [b] }, { from: [c], to: null }, { from: null, to: [a] }]);
    }
    // Values between the stored ones, and ones the column cannot hold.
    await expectRanges('ttm', ['k'], 'k', [{ from: ['-10:00:00'], to: ['-09:59:00.5'] }, { from: ['-00:00:00.0001'], to: ['00:01:00'] }]);
    await expectRanges('tdc', ['k'], 'k', [{ from: ['-100'], to: ['100.5'] }, { from: ['-0.001'], to: ['0'] }]);
    await expect(async () => (await reader('tdc')).lookup({ from: ['1.2345'], to: null })).rejects.toThrow(/not a value of column `k`/);
  });

  it('VARCHAR keys in _bin collations (PAD SPACE) are searched exactly', async () => {
    await server.exec(`CREATE TABLE vb (k VARCHAR(30) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin PRIMARY KEY, v INT);
      INSERT INTO vb SELECT CONCAT(CHAR(65 + seq % 58), 'é', seq, IF(seq % 3 = 0, '😀', '')), seq FROM seq_1_to_6000;
      CREATE TABLE vl (k VARCHAR(20) CHARACTER SET latin1 COLLATE latin1_bin PRIMARY KEY, v INT);
      INSERT INTO vl SELECT CONCAT(CHAR(192 + seq % 60 USING latin1), seq), seq FROM seq_1_to_6000;`);
    await expectRanges('vb', ['k'], 'k', [{ from: ['Aé1000'], to: ['Aé1000'] }, { from: ['Z'], to: ['aé2'] }, { from: ['zz'], to: null }, { from: ['Bé1 '], to: ['Bé1 '] }]);
    await expectRanges('vl', ['k'], 'k', [{ from: ['Ê'], to: ['Ëzz'] }, { from: ['Ä1000'], to: ['Ä1000'] }]);
  });

  it('secondary indexes: duplicates in key order, a DESC part, a prefix part', async () => {
    await server.exec(`CREATE TABLE sec (id INT PRIMARY KEY, a INT, d DATE, s VARCHAR(40) CHARACTER SET latin1 COLLATE latin1_bin, KEY ka (a), KEY kd (d DESC, a), KEY ks (s(3)));
      INSERT INTO sec SELECT seq, IF(seq % 97 = 0, NULL, seq % 61), '2000-01-01' + INTERVAL seq % 500 DAY, CONCAT(CHAR(97 + seq % 26), seq) FROM seq_1_to_15000;`);
    await expectRanges('sec', ['a', 'id'], 'a, id', [{ from: ['7'], to: ['7'] }, { from: ['7', '5000'], to: ['9', '100'] }, { from: null, to: ['0'] }], 'ka', 'a, id');
    await expectRanges('sec', ['d', 'a', 'id'], 'd DESC, a, id', [{ from: ['2001-01-01'], to: ['2001-01-01'] }], 'kd', 'd, a, id');
    // Bounds in the index's order: on a DESC part, from the later date to the earlier.
    const kd = await lookupRows(await reader('sec', 'kd'), { from: ['2001-01-01', '10'], to: ['2000-12-20'] });
    const expected = await server.query("SELECT d, a, id FROM sec WHERE d BETWEEN '2000-12-20' AND '2001-01-01' AND (d < '2001-01-01' OR a >= 10) ORDER BY d DESC, a, id");
    expect(expected.rows.length).toBeGreaterThan(100);
    expectSameRows(kd.rows, expected.rows, 'kd DESC range');
    // The smaller date first, as in BETWEEN: the same rows, not none, and a note says how it is read.
    const asBetween = await lookupRows(await reader('sec', 'kd'), { from: ['2000-12-20'], to: ['2001-01-01'] });
    expectSameRows(asBetween.rows, (await server.query("SELECT d, a, id FROM sec WHERE d BETWEEN '2000-12-20' AND '2001-01-01' ORDER BY d DESC, a, id")).rows, 'kd BETWEEN order');
    expect(asBetween.notes.join(' ')).toMatch(/`d` is a descending key part: the range is read in the index's order, from 2001-01-01 to 2000-12-20/);
    const r = await reader('sec', 'ks');
    const got = await lookupRows(r, { from: ['b12'], to: ['b12'] });
    expectSameRows(got.rows, (await server.query('SELECT LEFT(s, 3), id FROM sec WHERE s LIKE \'b12%\' ORDER BY id')).rows, 'ks b12');
    expect(got.notes.join(' ')).toMatch(/prefix key part/);
  });

  it('a VARCHAR key in a case-insensitive collation: exact comparison of decoded values, said in a note; no range', async () => {
    await server.exec(`CREATE TABLE ci (k VARCHAR(30) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci PRIMARY KEY, v INT);
      INSERT INTO ci SELECT CONCAT('Key', seq), seq FROM seq_1_to_5000;
      CREATE TABLE ci2 (a INT NOT NULL, k VARCHAR(30) NOT NULL, v INT, PRIMARY KEY (a, k)) DEFAULT CHARSET=latin1;
      INSERT INTO ci2 SELECT seq % 10, CONCAT('w', seq), seq FROM seq_1_to_5000;`);
    const r = await reader('ci');
    const got = await lookupRows(r, { from: ['Key77'], to: ['Key77'] });
    expectSameRows(got.rows, (await server.query("SELECT * FROM ci WHERE k = 'Key77'")).rows, 'ci Key77');
    expect(got.notes.join(' ')).toMatch(/utf8mb4_general_ci.*every leaf page of the index is read/);
    expect((await lookupRows(r, { from: ['key77'], to: ['key77'] })).rows).toEqual([]);
    expect(() => r.lookup({ from: ['a'], to: ['b'] })).toThrow(/no range can be looked up/);
    // The part before it is searched: only the leaves of a = 3.
    const r2 = await reader('ci2');
    const some = await lookupRows(r2, { from: ['3', 'w1003'], to: ['3', 'w1003'] });
    expectSameRows(some.rows, (await server.query("SELECT * FROM ci2 WHERE a = 3 AND k = 'w1003'")).rows, 'ci2');
    expect(some.path.length).toBeLessThan((await r2.leafPages()).length / 2);
  });

  it('reads only the pages on the path: one per level, then the leaves the range covers', async () => {
    const r = await reader('ints');
    const height = r.info.treeHeight;
    expect(height).toBeGreaterThanOrEqual(3);
    const pages: number[] = [];
    const original = Tablespace.prototype.page;
    Tablespace.prototype.page = function (no, run) {
      pages.push(no);
      return original.call(this, no, run);
    };
    try {
      const point = await lookupRows(r, { from: ['1234'], to: ['1234'] });
      expect(point.rows.length).toBe(1);
      expect(point.path.length).toBe(height);
      expect([...new Set(pages)].sort()).toEqual([...point.path].sort());
      pages.length = 0;
      const range = await lookupRows(r, { from: ['1000'], to: ['3000'] });
      expect([...new Set(pages)].sort()).toEqual([...new Set(range.path)].sort());
      expect(range.rows.length).toBe(1001);
      // The levels above, then consecutive leaves only, from the one holding the first key.
      const leaves = await r.leafPages();
      const walked = range.path.slice(height - 1);
      const first = leaves.indexOf(walked[0]);
      expect(walked).toEqual(leaves.slice(first, first + walked.length));
      expect(walked.length).toBeLessThan(leaves.length / 10);
    } finally {
      Tablespace.prototype.page = original;
    }
  });

  it('a whole key is found on its own leaf: one page per level, the first and last keys of a leaf too', async () => {
    const r = await reader('ints');
    const height = r.info.treeHeight;
    const leaves = await r.leafPages();
    for (const at of [1, leaves.length >> 1, leaves.length - 1]) {
      const rows = batchRows(await r.decodePages([leaves[at]]));
      for (const row of [rows[0], rows[rows.length - 1]]) {
        const id = row[0] as string;
        const point = await lookupRows(r, { from: [id], to: [id] });
        expect(point.rows).toEqual([row]);
        expect(point.path, `key ${id} of leaf ${leaves[at]}`).toEqual([...point.path.slice(0, height - 1), leaves[at]]);
      }
    }
    // An absent key between two leaves: the leaf it would be on, alone.
    const before = batchRows(await r.decodePages([leaves[2]]))[0][0] as string;
    const absent = await lookupRows(r, { from: [String(Number(before) - 1)], to: [String(Number(before) - 1)] });
    expect(absent.rows).toEqual([]);
    expect(absent.path.length).toBe(height);
  });

  it('a path alone (pathOnly): where the tree cannot be searched, it ends and says why', async () => {
    const r = await reader('ci2');
    const lookup = r.lookup({ from: ['3', 'w1003'], to: ['3', 'w1003'] });
    const rows: Row[] = [];
    for await (const batch of lookup.batches(undefined, { pathOnly: true })) rows.push(...batchRows(batch));
    expect(lookup.offPath).toBeNull();
    expect(rows.length).toBe(1);
    const inexact = (await reader('ci')).lookup({ from: ['w1003'], to: ['w1003'] });
    for await (const batch of inexact.batches(undefined, { pathOnly: true })) rows.push(...batchRows(batch));
    expect(inexact.offPath).toMatch(/utf8mb4_general_ci/);
    expect(rows.length).toBe(1);
    expect(inexact.path).toEqual([]);
  });
});
