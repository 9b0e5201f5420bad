/**
 * The grid's copies and their parts (src/ui/grid/): TSV quoted as spreadsheets paste it, JSON and
 * INSERT text (clipboard-text.ts), the selection's rectangle (cell-range.ts), the key marks of the
 * headers (column-keys.ts), a range read through a row store page by page and cut at its bound
 * (range-rows.ts), and the export's progress line (export/progress-text.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { RowMap } from '../../src/ui/grid/row-map.ts';
import { RowStore } from '../../src/ui/grid/row-store.ts';
import { cellRange, inBounds, rangeBounds, rangeSize } from '../../src/ui/grid/cell-range.ts';
import { insertText, jsonText, tsvCell, tsvText } from '../../src/ui/grid/clipboard-text.ts';
import { columnKeys, keyLabel, keyTitle } from '../../src/ui/grid/column-keys.ts';
import { COPY_MAX_ROWS, rangeRows } from '../../src/ui/grid/range-rows.ts';
import { progressText } from '../../src/ui/export/progress-text.ts';
import type { ExportProgress } from '../../src/ui/export/export-run.svelte.ts';
import { BatchBuilder } from '../../src/core/values/row-batch.ts';

const [table] = parseCreateTables(`CREATE TABLE t (
  id int unsigned NOT NULL, name varchar(20), price decimal(12,2), raw varbinary(8), at timestamp NULL,
  PRIMARY KEY (id), KEY idx_name_price (name, price), UNIQUE KEY uq_raw (raw)) ENGINE=InnoDB`);

describe('TSV as spreadsheets copy it', () => {
  it('quotes a cell holding a tab, a line break or a quote, doubling its quotes; NULL is empty', () => {
    expect(tsvCell('plain')).toBe('plain');
    expect(tsvCell('a\tb')).toBe('"a\tb"');
    expect(tsvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(tsvCell('cr\rhere')).toBe('"cr\rhere"');
    expect(tsvCell('say "hi"')).toBe('"say ""hi"""');
    expect(tsvCell(null)).toBe('');
    expect(tsvCell('')).toBe('');
  });

  it('separates cells by tabs and rows by newlines, with the names first when asked', () => {
    expect(tsvText([['1', null], ['2', 'x\ty']])).toBe('1\t\n2\t"x\ty"\n');
    expect(tsvText([['1', 'a']], ['id', 'na"me'])).toBe('id\t"na""me"\n1\ta\n');
  });
});

describe('rows as JSON and as an INSERT', () => {
  it('writes one object for a row, an array for several, NULL as null, numbers typed as NDJSON exports them', () => {
    expect(jsonText(table, ['id', 'name'], [['1', null]])).toBe('{"id":1,"name":null}\n');
    expect(jsonText(table, ['id', 'price', 'raw'], [['1', '12.50', '0x00ff'], ['2', '-1.00', null]])).toBe('[\n{"id":1,"price":12.50,"raw":"0x00ff"},\n{"id":2,"price":-1.00,"raw":null}\n]\n');
  });

  it('quotes per type: numbers bare, binary as hex, strings escaped; the zone first for a TIMESTAMP', () => {
    const names = ['id', 'name', 'price', 'raw'];
    expect(insertText(table, names, [['1', "O'Brien\n", '12.50', '0x00ff'], ['2', null, '-1.00', '0x']])).toBe(
      "INSERT INTO `t` (`id`,`name`,`price`,`raw`) VALUES\n(1,'O\\'Brien\\n',12.50,0x00ff),\n(2,NULL,-1.00,'');\n",
    );
    expect(insertText(table, ['id', 'at'], [['1', '2024-01-02 03:04:05']])).toBe(
      "SET time_zone = '+00:00';\nINSERT INTO `t` (`id`,`at`) VALUES\n(1,'2024-01-02 03:04:05');\n",
    );
  });
});

describe('the selection and the header keys', () => {
  it('spans the rectangle between the anchor and the focus, whichever way it was drawn', () => {
    const b = rangeBounds({ anchor: { row: 5, col: 3 }, focus: { row: 2, col: 1 } });
    expect(b).toEqual({ top: 2, bottom: 5, left: 1, right: 3 });
    expect(rangeSize(b)).toEqual({ rows: 4, cols: 3 });
    expect(inBounds(b, 2, 3)).toBe(true);
    expect(inBounds(b, 6, 2)).toBe(false);
    expect(rangeBounds(cellRange({ row: 1, col: 1 }))).toEqual({ top: 1, bottom: 1, left: 1, right: 1 });
  });

  it('marks the primary key and the indexes by name, with the place in a composite key', () => {
    const keys = columnKeys(table, ['id', 'name', 'price', 'raw', 'at', '_row_state']);
    expect(keys[0].map(keyLabel)).toEqual(['PK']);
    expect(keys[1].map(keyLabel)).toEqual(['idx_name_price 1/2']);
    expect(keys[2].map(keyTitle)).toEqual(['index idx_name_price (column 2 of 2)']);
    expect(keys[3].map(keyTitle)).toEqual(['unique key uq_raw']);
    expect(keys[4]).toEqual([]);
    expect(keys[5]).toEqual([]);
    expect(columnKeys(null, ['a'])).toEqual([[]]);
  });
});

/** A store of `pages` pages of `perPage` rows (values `r<row>c<col>`), counting the pages decoded. */
function storeOf(pages: number, perPage: number, cols: number): { store: RowStore; fetched: number[] } {
  const map = new RowMap(new Int32Array(pages).map((_, i) => i + 3));
  map.setCounts(0, new Int32Array(pages).fill(perPage));
  const fetched: number[] = [];
  const store = new RowStore(map, cols, (from, to) => {
    const out = [];
    for (let leaf = from; leaf < to; leaf++) {
      fetched.push(leaf);
      const b = new BatchBuilder(cols);
      for (let r = 0; r < perPage; r++) {
        const base = b.startRow();
        for (let c = 0; c < cols; c++) b.setString(base + c, `r${leaf * perPage + r}c${c}`);
        b.endRow();
      }
      out.push(b.take());
    }
    return Promise.resolve(out);
  }, () => undefined);
  return { store, fetched };
}

describe('a range read through the row store', () => {
  it('decodes the pages it needs and keeps the range’s columns only', async () => {
    const { store, fetched } = storeOf(10, 5, 3);
    const got = await rangeRows(store, (i) => i, { top: 3, bottom: 11, left: 1, right: 2 });
    expect(got.cut).toBe(false);
    expect(got.rows).toHaveLength(9);
    expect(got.rows[0]).toEqual(['r3c1', 'r3c2']);
    expect(got.rows[8]).toEqual(['r11c1', 'r11c2']);
    expect([...new Set(fetched)].sort((a, b) => a - b)).toEqual([0, 1, 2]);
  });

  it('follows a filter’s positions, and cuts a huge range at its bound', async () => {
    const { store } = storeOf(4, 5, 1);
    const matches = [1, 7, 18];
    expect((await rangeRows(store, (i) => matches[i], { top: 0, bottom: 2, left: 0, right: 0 })).rows).toEqual([['r1c0'], ['r7c0'], ['r18c0']]);
    const big = storeOf(Math.ceil((COPY_MAX_ROWS + 10) / 500), 500, 1).store;
    const got = await rangeRows(big, (i) => i, { top: 0, bottom: COPY_MAX_ROWS + 9, left: 0, right: 0 });
    expect(got.cut).toBe(true);
    expect(got.rows).toHaveLength(COPY_MAX_ROWS);
    expect(got.wanted).toBe(COPY_MAX_ROWS + 10);
  });
});

describe('the export progress line', () => {
  const base: ExportProgress = {
    format: 'csv', table: 't', owner: 'k', fileName: 't.csv', target: 'stream', state: 'running', sorting: null,
    rows: 0, total: 300, bytes: 0, elapsedMs: 200, rate: 0, etaMs: null, error: null, note: null,
  };

  it('says it is starting before the first rows, and gives a rate only once it can be measured', () => {
    expect(progressText(base)).toBe('Writing t.csv: decoding the first pages…');
    expect(progressText({ ...base, rows: 100, bytes: 15_400_000, elapsedMs: 500, rate: 200, etaMs: 1000 })).toBe('Writing t.csv: 100 of 300 rows · 14.7 MiB');
    expect(progressText({ ...base, rows: 100, bytes: 15_400_000, elapsedMs: 2000, rate: 50, etaMs: 4000 })).toBe('Writing t.csv: 100 of 300 rows · 50 rows/s · 14.7 MiB · about 4.0 s left');
  });
});
