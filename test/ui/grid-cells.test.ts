/**
 * The grid's pure parts (src/ui/grid/): a value as a cell shows it (cell-text.ts), the automatic and
 * dragged column widths (column-widths.ts), and where the keyboard takes the active cell (grid-keys.ts).
 */
import { describe, expect, it } from 'vitest';
import { shown, valueSize } from '../../src/ui/grid/cell-text.ts';
import { autoWidths, handWidth, headWidth, MAX_COL_CH, MIN_COL_CH } from '../../src/ui/grid/column-widths.ts';
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

  it('sizes columns from their headers and the values seen, growing only, within the limits', () => {
    expect(autoWidths([2, 5], [null], null)).toEqual([MIN_COL_CH, 5]);
    const first = autoWidths([2, 5], [['1', 'a much longer name'], ['22', null]], null);
    expect(first).toEqual([MIN_COL_CH, 18]);
    expect(autoWidths([2, 5], [['3', 'b']], first)).toEqual(first);
    expect(autoWidths([1], [['y'.repeat(100)]], null)).toEqual([42]);
    // A header wider than any value sets the width, even past the limit of values.
    expect(autoWidths([50], [['y'.repeat(100)]], null)).toEqual([50]);
  });

  it('gives a header the room of its name (in the wider bold font, with its tools spot), type and keys', () => {
    // badge_code: 10 letters, 12% wider than ch, and 3 ch for the sort spot: never cut at 11 ch.
    expect(headWidth('badge_code', 'int', [])).toBe(15);
    expect(headWidth('id', 'decimal(12,2) unsigned', [])).toBe(20);
    expect(headWidth('id', 'int', ['idx_customer_created 1/2'])).toBe(23);
  });

  it('keeps hand-set widths within the limits', () => {
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

  it('sizes a binary value by the bytes it holds, not its hex text; text by characters and UTF-8 bytes', () => {
    expect(valueSize('0x0119', true)).toEqual({ bytes: 2, chars: null });
    expect(valueSize('0x', true)).toEqual({ bytes: 0, chars: null });
    // An unreadable mark in a binary column is text.
    expect(valueSize('[unreadable: x]', true)).toEqual({ bytes: 15, chars: 15 });
    expect(valueSize('0x0119', false)).toEqual({ bytes: 6, chars: 6 });
    expect(valueSize('é😀', false)).toEqual({ bytes: 6, chars: 2 });
  });
});
