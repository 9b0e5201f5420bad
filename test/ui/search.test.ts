import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { RowQuery } from '../../workers/viewer-api.ts';
import { packRows } from '../../src/core/values/batch-edit.ts';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { openTable } from '../../src/core/readers/table-reader.ts';
import { batchText, batchToRows, cellString, unitOffsets } from '../../src/ui/grid/batch-text.ts';
import { PoolStopped } from '../../src/ui/pool.ts';
import { keyComparer, keyRows, parseKeyInput, textRows } from '../../src/ui/search/search.ts';
import { TableView } from '../../src/ui/grid/table-view.ts';
import { damagedSample, PAGE } from './damaged-sample.ts';
import { inThreadPool } from './in-thread-pool.ts';

type Cell = string | null;

const col = (name: string, sqlType: string) => ({ name, sqlType, numeric: /int|decimal/.test(sqlType), binary: false, nullable: true });

const ROWS: Cell[][] = [
  ['1', 'Ana', 'café crème'],
  ['2', 'Björn', null],
  ['3', '', 'emoji 😀 here'],
  ['5', 'İstanbul', 'ISTANBUL'],
  ['8', 'zoë', 'x'],
  ['13', 'Ana', 'ana again'],
  ['21', 'Zoë', 'Ünïcödé'],
];

describe('batch text', () => {
  it('maps UTF-8 byte offsets to UTF-16 offsets, astral characters included', () => {
    const text = new TextEncoder().encode('a😀é');
    const map = unitOffsets(text, 'a😀é');
    expect(Array.from(map!)).toEqual([0, 1, 3, 3, 3, 3, 4, 4]);
    expect(unitOffsets(new TextEncoder().encode('abc'), 'abc')).toBeNull();
  });

  it('gives back the cells, NULL and empty apart', () => {
    const batch = packRows(ROWS, 3);
    expect(batchToRows(batch)).toEqual(ROWS);
    const bt = batchText(batch);
    expect(cellString(batch, bt, 4)).toBe('Björn');
    expect(cellString(batch, bt, 5)).toBeNull();
    expect(cellString(batch, bt, 7)).toBe('');
  });
});

describe('textRows', () => {
  const batch = packRows(ROWS, 3);
  const run = (text: string, column: number | null = null, matchCase = false) => {
    const out: number[] = [];
    textRows(batch, { kind: 'text', text, column, matchCase }, out);
    return out;
  };

  it('finds text in any column, ignoring case unless asked', () => {
    expect(run('ana')).toEqual([0, 5]);
    expect(run('Ana', null, true)).toEqual([0, 5]);
    expect(run('ana', null, true)).toEqual([5]);
    expect(run('😀')).toEqual([2]);
    expect(run('ZOË')).toEqual([4, 6]);
  });

  it('searches one column only', () => {
    expect(run('ana', 1)).toEqual([0, 5]);
    expect(run('ana', 2)).toEqual([5]);
  });

  it('never matches across two cells, and NULL is not text', () => {
    expect(run('Anacafé')).toEqual([]);
    expect(run('1Ana')).toEqual([]);
    expect(run('null')).toEqual([]);
  });

  it('copes with characters whose lower case is longer (İ)', () => {
    expect(run('istanbul')).toEqual([3]);
  });
});

describe('keyRows and keyComparer', () => {
  const batch = packRows(ROWS, 3);
  const find = (columns: number[], values: string[], fold = false) => {
    const out: number[] = [];
    keyRows(batch, { kind: 'key', columns, values, fold, firstOnly: false }, out);
    return out;
  };

  it('matches every key column exactly, or ignoring case', () => {
    expect(find([1], ['Zoë'])).toEqual([6]);
    expect(find([1], ['ZOË'], true)).toEqual([4, 6]);
    expect(find([1, 2], ['Ana', 'ana again'])).toEqual([5]);
    expect(find([2], ['x'])).toEqual([4]);
    expect(find([2], ['nothing'])).toEqual([]);
  });

  it('orders numeric keys as numbers, BIGINTs exactly; text keys have no order here', () => {
    const int = keyComparer(col('id', 'bigint unsigned'))!;
    expect(int('9007199254740993', '9007199254740994')).toBeLessThan(0);
    expect(int('10', '9')).toBeGreaterThan(0);
    expect(keyComparer(col('d', 'date'))!('2024-01-02', '2023-12-31')).toBeGreaterThan(0);
    expect(keyComparer(col('name', 'varchar(20)'))).toBeNull();
  });

  it('orders TIMESTAMP text only in a zone without summer time (Go to then reads every page)', () => {
    const ts = col('t', 'timestamp');
    for (const zone of ['UTC', '+02:00']) expect(keyComparer(ts, zone)!('2024-10-27 02:10:00', '2024-10-27 02:50:00')).toBeLessThan(0);
    expect(keyComparer(ts, 'Europe/Berlin')).toBeNull();
    expect(keyComparer(col('dt', 'datetime'), 'Europe/Berlin')).not.toBeNull();
  });

  it('splits composite key input', () => {
    expect(parseKeyInput('42', 1)).toEqual(['42']);
    expect(parseKeyInput(" 'a,b' ", 1)).toEqual(['a,b']);
    expect(parseKeyInput("1, 'a,b', x", 3)).toEqual(['1', 'a,b', 'x']);
    expect(parseKeyInput(`"it""s", 'o\\'k'`, 2)).toEqual(['it"s', "o'k"]);
  });
});

/**
 * The page's TableView over the bundled sample, with the worker methods called in this thread
 * through a stand-in for the worker pool: on-demand rows, search result paging, key jumps.
 */
describe('TableView over the sample (on-demand rows, search, key jump)', () => {
  const dir = join(import.meta.dirname, '../../public/sample');
  const sql = readFileSync(join(dir, 'employees.sql'), 'utf8');
  const table = parseCreateTables(sql)[0];
  const csv = Papa.parse<string[]>(readFileSync(join(import.meta.dirname, '../fixtures/sample-employees.csv'), 'utf8').trimEnd()).data.slice(1);
  const ids = csv.map((row) => row[0]);
  const ibd = new Blob([readFileSync(join(dir, 'employees.ibd'))]);

  const inThread = () => inThreadPool((name) => (name === table.name ? table : undefined));

  async function open(): Promise<TableView> {
    const view = await TableView.open(inThread(), { ibd, name: 'employees.ibd', table, mode: 'live' }, () => undefined);
    await view.count(new AbortController().signal, () => Promise.resolve(), () => undefined);
    return view;
  }

  it('counts only while nothing else has the cores (an export), and stops waiting when stopped', async () => {
    const pool = inThread();
    const view = await TableView.open(pool, { ibd, name: 'employees.ibd', table, mode: 'live' }, () => undefined);
    let release = (): void => undefined;
    const busy = new Promise<void>((resolve) => (release = resolve));
    const tasks = () => (pool as unknown as { tasks: number }).tasks;
    const before = tasks();
    let done = false;
    const counting = view.count(new AbortController().signal, () => busy, () => undefined).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(tasks()).toBe(before);
    expect(done).toBe(false);
    release();
    await counting;
    expect(view.map.rows).toBe(300);

    const again = await TableView.open(pool, { ibd, name: 'employees.ibd', table, mode: 'both' }, () => undefined);
    const stop = new AbortController();
    const waiting = again.count(stop.signal, () => new Promise<void>(() => undefined), () => undefined);
    stop.abort();
    await expect(waiting).rejects.toBeDefined();
  });

  it('counts the rows per leaf page, then decodes only the pages asked for', async () => {
    const view = await open();
    expect(view.map.rows).toBe(300);
    expect(view.map.complete).toBe(true);
    const last = view.map.rows - 1;
    expect(view.store.row(last)).toBeNull();
    await view.store.load([view.map.leafOf(last)]);
    expect(view.store.cell(last, 0)).toBe('300');
    expect(view.store.row(last)?.[1]).toBe(csv[last][1]);
  });

  it('filters every page and pages through the matches by global row number', async () => {
    const view = await open();
    const query: RowQuery = { kind: 'text', text: 'finance', column: 6, matchCase: false };
    let progress = 0;
    const rows = await view.filter(query, new AbortController().signal, (p) => (progress = p.searched));
    const want = csv.flatMap((row, i) => (row[6] === 'Finance' ? [i] : []));
    expect(Array.from(rows)).toEqual(want);
    expect(progress).toBe(300);
    await view.store.load([view.map.leafOf(rows[rows.length - 1])]);
    expect(view.store.cell(rows[rows.length - 1], 6)).toBe('Finance');
  });

  it('jumps to a key through the B-tree: one page per level, its row numbered from the leaves before it', async () => {
    const view = await open();
    const signal = new AbortController().signal;
    const via = { pages: view.view.info.treeHeight, notes: [] };
    for (const id of ['1', '150', '300']) expect(await view.findKey([id], signal)).toMatchObject({ row: ids.indexOf(id), damagedPage: null, via });
    expect(await view.findKey(['301'], signal)).toMatchObject({ row: -1, damagedPage: null, via });
    expect(await view.findKey(['0'], signal)).toMatchObject({ row: -1, damagedPage: null, via });
    await expect(view.findKey(['x'], signal)).rejects.toThrow(/'x' is not a value of column `id` \(INT UNSIGNED\)/);
  });

  it('jumps to the keys of a damaged page: named where withheld, found where shown', async () => {
    const bytes = damagedSample(7 * PAGE + 4000, 4096, 12345);
    const damaged = new Blob([bytes]);
    const signal = new AbortController().signal;
    const all = await openTable(bytesSource(bytes, 'employees.ibd'), table, { mode: 'all' });
    const rows: (string | null)[][] = [];
    for await (const batch of all.rows()) rows.push(...batch);
    const state = rows[0].length - 1;
    // A row of the damaged page (its key is searched for outside the binary search), on no other row.
    const at = rows.findIndex((r, i) => r[state] === 'damaged' && i > 0 && rows.filter((o) => o[0] === r[0]).length === 1);
    expect(at).toBeGreaterThan(0);
    for (const mode of ['live', 'all'] as const) {
      const view = await TableView.open(inThread(), { ibd: damaged, name: 'employees.ibd', table, mode }, () => undefined);
      await view.count(signal, () => Promise.resolve(), () => undefined);
      expect(view.damage.figures.damagedList).toEqual([7]);
      const first = rows.findIndex((r) => r[state] === 'damaged');
      // The B-tree's path ends on the damaged leaf: shown (marked), its row is found there; withheld,
      // the leaves are searched instead, and that is said.
      const offPath = 'leaf page 7 on the path is damaged';
      if (mode === 'all') {
        expect(await view.findKey([rows[at][0]!], signal)).toMatchObject({ row: at, damagedPage: null });
        expect(await view.findKey([rows[first][0]!], signal)).toMatchObject({ row: first, damagedPage: null });
      } else {
        expect(await view.findKey([rows[at][0]!], signal)).toEqual({ row: -1, damagedPage: 7, offPath });
        expect(await view.findKey([rows[first][0]!], signal)).toEqual({ row: -1, damagedPage: 7, offPath });
      }
    }
  });

  it('a superseded view rejects its tasks (another table was opened)', async () => {
    const pool = inThread();
    const first = await TableView.open(pool, { ibd, name: 'employees.ibd', table, mode: 'live' }, () => undefined);
    await TableView.open(pool, { ibd, name: 'employees.ibd', table, mode: 'both' }, () => undefined);
    expect(first.current).toBe(false);
    await expect(first.count(new AbortController().signal, () => Promise.resolve(), () => undefined)).rejects.toBeInstanceOf(PoolStopped);
  });
});
