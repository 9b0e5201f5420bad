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
import { CONDITIONS, createWhereTable } from './where-table.ts';

describe('typed filters and sorts by several columns, as MariaDB selects and orders', () => {
  let server: MariadbServer;
  let t: SortedTable;

  beforeAll(async () => {
    server = await startMariadb({ pageSize: 4096 });
    await createWhereTable(server);
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
