/**
 * Typed filters (the grid's WHERE condition, src/core/readers/where.ts) and sorts by several columns
 * against MariaDB's own `SELECT id … WHERE … ORDER BY …`: a table of 1,200 rows with NULLs and
 * duplicates in integers, DECIMAL, DOUBLE, FLOAT, FLOAT(7,3), DATE, DATETIME(3), TIME with negatives, YEAR, ENUM and
 * text in utf8mb4_general_ci, utf8mb4_bin, latin1_swedish_ci and utf8mb4_uca1400_ai_ci (case,
 * accents, trailing spaces, ß, æ) is decoded from its .ibd and filtered the way the page filters
 * (TableView.filter in the worker methods, page by page) and sorted as it sorts (TableView.sortBy,
 * runs of one leaf merged); the ids must be the server's, condition by condition.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RowQuery } from '../../workers/viewer-api.ts';
import { parseWhere } from '../../src/core/readers/where-parse.ts';
import { writeSorted } from '../../src/ui/export/export-order.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { inThreadPool } from '../ui/in-thread-pool.ts';
import { lookup, openSortedTable, serverIds, type SortedTable } from './sorted-table.ts';

const TEXTS = ['a', 'A', 'á', 'b', 'B ', 'ß', 'ss', 'ä', 'å', 'ö', 'æble', 'aeble', 'Æble', 'e', 'É', 'x_1', 'x1', '', ' ', 'apple', 'Apple ', 'Äpfel', 'b%c', 'z'];

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function rowValues(id: number, rnd: () => number): string {
  const pick = <T,>(a: readonly T[]) => a[Math.floor(rnd() * a.length)];
  const maybe = (v: string) => (rnd() < 0.1 ? 'NULL' : v);
  const text = () => maybe(`'${pick(TEXTS)}'`);
  const n = Math.floor(rnd() * 200) - 100;
  return `(${id}, ${text()}, ${text()}, ${maybe(`'${pick(TEXTS.filter((x) => !/[æÆß]/.test(x)))}'`)}, ${text()}, ${maybe(String(n))},
    ${maybe((n * 37.125).toFixed(3))}, ${maybe(pick(['0', '2.5', '-2.5', '12345.678', '1e300', String(n)]))},
    ${maybe(`'20${10 + (id % 20)}-0${1 + (n & 7)}-1${n & 7}'`)}, ${maybe(`'2024-02-29 1${n & 7}:0${id % 10}:00.${n & 7}'`)},
    ${maybe(pick(["'-838:59:59'", "'-01:00:00'", "'00:00:00'", "'12:30:00'", "'100:00:00'", "'12:30:00.5'"]))}, ${maybe(String(1990 + (n & 15)))},
    ${maybe(pick(["'b'", "'a'", "'c'"]))}, ${rnd() < 0.5 ? 'NULL' : `'n${id % 7}'`}, ${maybe("X'00FF'")}, ${FLOATS[id % FLOATS.length]}, ${FLOATS[(id * 7) % 11]})`;
}

/** FLOAT values (taken by id, not from the random sequence the other columns' values come from). */
const FLOATS = ['1.1', '0.1', '2.5', '-1.1', '0.123456789', '100.1', '0.3', '1e-10', 'NULL', '33.333', '1', '3.4e38', '-2.5'];

/** Conditions typed as a DBA types them after WHERE; each is run by the server as typed. */
const CONDITIONS = [
  'n > 50', 'n <= -3', 'n = 0', 'n <> 5', 'n != 5', 'n BETWEEN -10 AND 10', 'n NOT BETWEEN -10 AND 10', 'n IN (1, 2, 3, -100)',
  'n NOT IN (1, 2)', 'n > 5.5', 'n >= -7.25', 'n IS NULL', 'n IS NOT NULL',
  'd > 100.5', 'd = 37.125', "d = '37.1250'", 'd BETWEEN -100 AND 100.25', 'd < -1000', 'd >= 0',
  'f > 2.5', 'f = -2.5', 'f <= 0', 'f > 1e3',
  "dd >= '2015-01-01' AND dd < '2020-01-01'", "dd BETWEEN '2012-03-01' AND '2018-06-30'", "dd = '2014-05-15'", "dd <> '2014-05-15'",
  "dt >= '2024-02-29 13:00:00'", "dt > '2024-02-29'", "dt = '2024-02-29 12:05:00.3'", "dt < '2024-02-29 13:05:00.5'", "dt >= '2024-02-29 13:05:00.30001'",
  "tm < '00:00:00'", "tm >= '12:30:00'", "tm = '-01:00:00'", "tm > '-100:00:00'", "tm = '12:30:00.5'", "tm BETWEEN '00:00:00' AND '99:00:00'",
  'yr > 1995', 'yr IN (1990, 2000)',
  "g = 'a'", "g = 'A '", "g > 'b'", "g < 'ss'", "g = 'ss'", "g LIKE 'a%'", "g LIKE '_'", "g LIKE '%s%'", "g NOT LIKE 'a%'",
  "g IN ('ß', 'e')", "g BETWEEN 'a' AND 'c'", "g LIKE 'x\\_%'", "g LIKE 'b\\%%'", "g LIKE '% '", "g = ''", "g LIKE ''",
  "bn = 'a'", "bn > 'a'", "bn LIKE 'A%'", "bn = 'B'", "bn LIKE '%e'",
  "lat = 'a'", "lat < 'b'", "lat LIKE 'ä%'", "lat > 'y'",
  "u = 'a'", "u LIKE 'æ%'", "u > 'ö'", "u = 'aeble'", "u LIKE 'AE%'",
  "e = 'a'", "e > 'a'", "e IN ('b', 'c')", "e LIKE 'c'",
  // FLOAT compares as its stored single-precision value (1.1 is 1.100000023841858), FLOAT(7,3) to its decimals.
  'fl = 1.1', 'fl = 2.5', "fl = '1.1'", 'fl < 1.1', 'fl >= 1.1', 'fl <> 1.1', 'fl IN (1.1, 2.5, 0.1)', 'fl BETWEEN 0.1 AND 1.1', 'fl > 1e-10',
  'fl = 1.100000023841858', 'fl < 0.2', 'fl NOT IN (2.5)', 'fl BETWEEN -2.5 AND 1',
  'fx = 1.1', 'fx = 0.1', "fx = '0.1'", 'fx > 0.1', 'fx < 0.3', 'fx >= 0.3', 'fx <= 100.1', 'fx IN (1.1, 0.1, 0.3)', 'fx IN (0.1)', 'fx NOT IN (0.1)', 'fx NOT IN (0.1, 1.1)',
  'fx BETWEEN 0 AND 0.1', 'fx BETWEEN 0.3 AND 1', 'fx = 0.1004', 'fx <> 0.1', 'fx = 33.333', 'fx = 33.33349', 'fx > -2.5e0',
  'n > 0 AND g LIKE \'a%\' AND dd IS NOT NULL', 'note IS NULL', "note = 'n3' AND n < 0",
];

describe('typed filters and sorts by several columns, as MariaDB selects and orders', () => {
  let server: MariadbServer;
  let t: SortedTable;

  beforeAll(async () => {
    server = await startMariadb({ pageSize: 4096 });
    await server.query(`CREATE TABLE t (
      id INT PRIMARY KEY,
      g VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci,
      bn VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
      lat VARCHAR(20) CHARACTER SET latin1 COLLATE latin1_swedish_ci,
      u VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_ai_ci,
      n INT, d DECIMAL(12,3), f DOUBLE, dd DATE, dt DATETIME(3), tm TIME(1), yr YEAR, e ENUM('b','a','c'), note VARCHAR(10), vb VARBINARY(4), fl FLOAT, fx FLOAT(7,3)
    ) ENGINE=InnoDB`);
    const rnd = random(11);
    const rows = Array.from({ length: 1200 }, (_, i) => rowValues(i * 2 + 1, rnd));
    await server.query(`INSERT INTO t VALUES ${rows.join(',\n')}`);
    t = await openSortedTable(server);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  const where = (text: string): RowQuery => ({ kind: 'where', text, conditions: parseWhere(text, t.view.view.columns) });
  const filteredIds = async (text: string) => Array.from(await t.view.filter(where(text), new AbortController().signal, () => undefined), (r) => t.ids[r]);

  it('spans many leaf pages', () => {
    expect(t.view.map.leaves.length).toBeGreaterThan(10);
  });

  it.each(CONDITIONS)('WHERE %s', async (cond) => {
    const expected = await serverIds(server, `SELECT id FROM t WHERE ${cond} ORDER BY id`);
    // A condition matching nothing or everything would not tell a filter from none.
    expect(expected.length, 'the condition tells rows apart').toBeLessThan(1200);
    expect(await filteredIds(cond)).toEqual(expected);
  });

  it('refuses what a type cannot take or what does not parse, saying why', async () => {
    await expect(filteredIds("vb = 'x'")).rejects.toThrow(/vb is VARBINARY: only IS NULL and IS NOT NULL/);
    await expect(filteredIds("dd > 'yesterday'")).rejects.toThrow(/dd is DATE: “yesterday” is not a date/);
    expect(() => parseWhere('n > 1 OR n < 0', t.view.view.columns)).toThrow(/OR is not offered/);
    expect(() => parseWhere('nope = 1', t.view.view.columns)).toThrow(/no column is named nope/);
    expect(() => parseWhere('n >', t.view.view.columns)).toThrow(/expected a value .* at the end/);
    expect(await filteredIds('vb IS NOT NULL')).toEqual(await serverIds(server, 'SELECT id FROM t WHERE vb IS NOT NULL ORDER BY id'));
  });

  const part = (name: string, descending = false) => ({ column: t.view.view.columns.indexOf(name), descending });
  const sortedIds = async (parts: { column: number; descending: boolean }[], filter: RowQuery | null = null) => {
    const rows = await t.view.sortBy({ column: parts[0].column, columns: parts }, filter, new AbortController().signal, () => undefined, 1);
    return Array.from(rows, (r) => t.ids[r]);
  };

  it.each([
    ['g', 'n DESC'], ['n DESC', 'g'], ['e', 'dd DESC', 'tm'], ['u DESC', 'd'], ['yr', 'lat DESC'], ['note DESC', 'f'],
  ])('ORDER BY %s, %s…, id', async (...order) => {
    const parts = order.map((o) => part(o.split(' ')[0], o.endsWith(' DESC')));
    expect(await sortedIds(parts)).toEqual(await serverIds(server, `SELECT id FROM t ORDER BY ${order.join(', ')}, id`));
  });

  it('sorts by several columns over a typed filter\'s matches, and an export writes that order', async () => {
    const cond = "n > -50 AND g LIKE '%a%'";
    const expected = await serverIds(server, `SELECT id FROM t WHERE ${cond} ORDER BY g DESC, n, id`);
    expect(await sortedIds([part('g', true), part('n')], where(cond))).toEqual(expected);
    const pool = inThreadPool(lookup(t.spec.table));
    const gen = pool.setSpec(t.spec);
    const parts: (Blob | Uint8Array<ArrayBuffer>)[] = [];
    const order = { filter: where(cond), sort: { column: part('g').column, descending: false, key: false, parts: [part('g', true), part('n')] } };
    await writeSorted({ pool, gen, leaves: t.view.map.leaves, order, options: { format: 'ndjson', jsonStrings: true }, as: 'blob', write: async (c) => void parts.push(c), onRows: () => undefined, partRows: 40, runPages: 2 });
    const ids = (await new Blob(parts).text()).trim().split('\n').map((l) => Number((JSON.parse(l) as { id: string }).id));
    expect(ids).toEqual(expected);
  });
});
