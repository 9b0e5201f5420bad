/**
 * The grid's pure parts (src/ui/grid/): a value as a cell shows it (cell-text.ts), the automatic and
 * dragged column widths (column-widths.ts), and where the keyboard takes the active cell (grid-keys.ts).
 */
import { describe, expect, it } from 'vitest';
import { shown } from '../../src/ui/grid/cell-text.ts';
import { autoWidths, handWidth, MAX_COL_CH, MIN_COL_CH } from '../../src/ui/grid/column-widths.ts';
import { keyTarget } from '../../src/ui/grid/grid-keys.ts';

describe('the grid', () => {
  it('tells NULL from the empty string, shows line breaks and tabs, cuts long values', () => {
    expect(shown(null)).toEqual({ text: 'NULL', kind: 'null', cut: false });
    expect(shown('')).toEqual({ text: '', kind: 'empty', cut: false });
    expect(shown('a\r\nb\tc\nd')).toEqual({ text: 'a↵b⇥c↵d', kind: 'value', cut: false });
    const long = shown('x'.repeat(241));
    expect(long.cut).toBe(true);
    expect(long.text).toBe(`${'x'.repeat(240)}…`);
  });

  it('sizes columns from their names and the values seen, growing only, within the limits', () => {
    expect(autoWidths(['id', 'name'], [null], null)).toEqual([MIN_COL_CH, 5]);
    const first = autoWidths(['id', 'name'], [['1', 'a much longer name'], ['22', null]], null);
    expect(first).toEqual([MIN_COL_CH, 18]);
    expect(autoWidths(['id', 'name'], [['3', 'b']], first)).toEqual(first);
    expect(autoWidths(['v'], [['y'.repeat(100)]], null)).toEqual([42]);
    expect(handWidth(1)).toBe(MIN_COL_CH);
    expect(handWidth(10.3)).toBe(10.5);
    expect(handWidth(1e6)).toBe(MAX_COL_CH);
  });

  it('moves the active cell with the keys a grid has', () => {
    const size = { rows: 100, cols: 5, page: 20 };
    const at = { row: 10, col: 2 };
    expect(keyTarget('ArrowDown', false, at, size)).toEqual({ row: 11, col: 2 });
    expect(keyTarget('ArrowLeft', false, at, size)).toEqual({ row: 10, col: 1 });
    expect(keyTarget('PageUp', false, at, size)).toEqual({ row: -10, col: 2 });
    expect(keyTarget('Home', false, at, size)).toEqual({ row: 10, col: 0 });
    expect(keyTarget('Home', true, at, size)).toEqual({ row: 0, col: 0 });
    expect(keyTarget('End', false, at, size)).toEqual({ row: 10, col: 4 });
    expect(keyTarget('End', true, at, size)).toEqual({ row: 99, col: 2 });
    expect(keyTarget('Enter', false, at, size)).toBe('open');
    expect(keyTarget(' ', false, at, size)).toBe('open');
    expect(keyTarget('a', false, at, size)).toBeNull();
  });
});
