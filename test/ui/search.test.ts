import { describe, expect, it } from 'vitest';
import type { ColumnInfo } from '../../workers/viewer-api.ts';
import { packRows } from '../../workers/viewer-methods.ts';
import { batchText, batchToRows, cellString, unitOffsets } from '../../src/ui/batch-text.ts';
import { RowStore } from '../../src/ui/row-store.ts';
import { filterRows, findKey, parseKeyInput } from '../../src/ui/search.ts';

type Cell = string | null;

function storeOf(rows: Cell[][], batchRows = 3): RowStore {
  const store = new RowStore(rows[0].length);
  for (let i = 0; i < rows.length; i += batchRows) store.append(packRows(rows.slice(i, i + batchRows), rows[0].length));
  return store;
}

const col = (name: string, sqlType: string): ColumnInfo => ({ name, sqlType, numeric: /int|decimal/.test(sqlType), binary: false, nullable: true });

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

describe('RowStore', () => {
  it('finds rows across batches', () => {
    const store = storeOf(ROWS);
    expect(store.count).toBe(7);
    expect(store.row(0)).toEqual(ROWS[0]);
    expect(store.row(6)).toEqual(ROWS[6]);
    expect(store.cell(4, 1)).toBe('zoë');
    expect(store.isNull(1, 2)).toBe(true);
    expect(store.cellBytes(2, 2)).toBe(new TextEncoder().encode('emoji 😀 here').length);
    for (let r = 6; r >= 0; r--) expect(store.row(r)).toEqual(ROWS[r]);
  });
});

describe('filterRows', () => {
  const store = storeOf(ROWS);
  const run = (text: string, column: number | null = null, matchCase = false) =>
    filterRows(store, { text, column, matchCase }).then((m) => Array.from(m));

  it('finds text in any column, ignoring case unless asked', async () => {
    expect(await run('ana')).toEqual([0, 5]);
    expect(await run('Ana', null, true)).toEqual([0, 5]);
    expect(await run('ana', null, true)).toEqual([5]);
    expect(await run('😀')).toEqual([2]);
    expect(await run('ZOË')).toEqual([4, 6]);
  });

  it('searches one column only', async () => {
    expect(await run('ana', 1)).toEqual([0, 5]);
    expect(await run('ana', 2)).toEqual([5]);
  });

  it('never matches across two cells, and NULL is not text', async () => {
    expect(await run('Anacafé')).toEqual([]);
    expect(await run('1Ana')).toEqual([]);
    expect(await run('null')).toEqual([]);
  });

  it('copes with characters whose lower case is longer (İ)', async () => {
    expect(await run('istanbul')).toEqual([3]);
  });

  it('finds after the first batch too, and over many rows', async () => {
    const many: Cell[][] = Array.from({ length: 5000 }, (_, i) => [String(i + 1), `name ${i + 1}`, i % 3 === 0 ? null : 'x']);
    const big = storeOf(many, 1000);
    expect(Array.from(await filterRows(big, { text: 'name 4321', column: null, matchCase: false }))).toEqual([4320]);
    expect((await filterRows(big, { text: 'name 1', column: 1, matchCase: false })).length).toBe(1 + 10 + 100 + 1000);
  });

  it('stops when aborted', async () => {
    const c = new AbortController();
    c.abort();
    await expect(filterRows(store, { text: 'a', column: null, matchCase: false }, { signal: c.signal })).rejects.toThrow();
  });
});

describe('findKey', () => {
  const store = storeOf(ROWS);
  const info = [col('id', 'int'), col('name', 'varchar(20)'), col('note', 'text')];

  it('binary-searches a numeric key', () => {
    expect(findKey(store, [0], info, ['13'])).toBe(5);
    expect(findKey(store, [0], info, ['1'])).toBe(0);
    expect(findKey(store, [0], info, ['21'])).toBe(6);
    expect(findKey(store, [0], info, ['4'])).toBe(-1);
  });

  it('scans other keys, exactly first, then ignoring case', () => {
    expect(findKey(store, [1], info, ['Zoë'])).toBe(6);
    expect(findKey(store, [1], info, ['ZOË'])).toBe(4);
    expect(findKey(store, [1, 2], info, ['Ana', 'ana again'])).toBe(5);
  });

  it('compares BIGINT keys exactly', () => {
    const big = storeOf([['9007199254740993'], ['9007199254740994'], ['9007199254740995']]);
    expect(findKey(big, [0], [col('id', 'bigint unsigned')], ['9007199254740994'])).toBe(1);
  });

  it('splits composite key input', () => {
    expect(parseKeyInput('42', 1)).toEqual(['42']);
    expect(parseKeyInput(" 'a,b' ", 1)).toEqual(['a,b']);
    expect(parseKeyInput("1, 'a,b', x", 3)).toEqual(['1', 'a,b', 'x']);
    expect(parseKeyInput(`"it""s", 'o\\'k'`, 2)).toEqual(['it"s', "o'k"]);
  });
});
