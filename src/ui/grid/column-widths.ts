/**
 * The widths of the grid's columns (RowGrid.svelte), in `ch`: automatic ones from the header (name,
 * type, keys: GridHeader.svelte) and the values seen so far, which only grow (so they do not jitter while scrolling), and the
 * limits of a width dragged by hand (ColumnResize.svelte).
 */

export const MIN_COL_CH = 4;
export const MAX_COL_CH = 400;
/** An automatic width stops here; a longer value is cut (and can be widened by hand). */
const MAX_AUTO_CH = 42;

/** Bold UI-font letters against the grid's monospace `ch` (DejaVu Sans Bold runs ~12% wider). */
const NAME_CH = 1.15;
/** The free spot at the end of a header's name line (.head-tools) and the gap before it, in ch. */
const TOOLS_CH = 3;
/** The type line's and the key marks' font sizes against the grid's. */
const TYPE_CH = 0.9;
const KEY_CH = 0.85;

/** The width a header needs, in ch: its name and the spot after it, its type, its widest key mark. */
export function headWidth(name: string, type: string, keys: readonly string[]): number {
  const keyCh = keys.reduce((m, k) => Math.max(m, (k.length + 2) * KEY_CH), 0);
  return Math.ceil(Math.max(name.length * NAME_CH + TOOLS_CH, type.length * TYPE_CH, keyCh));
}

/**
 * Automatic widths of the columns, from what their headers need (`heads`, headWidth), the values of
 * `rows` (null: not in memory) and the widths before (`prev`).
 */
export function autoWidths(heads: readonly number[], rows: readonly ((string | null)[] | null)[], prev: readonly number[] | null): number[] {
  return heads.map((head, c) => {
    let max = Math.max(prev?.[c] ?? 0, head);
    for (const values of rows) {
      if (!values) continue;
      const len = values[c] === null ? 4 : Math.min(MAX_AUTO_CH, values[c]!.length);
      if (len > max) max = len;
    }
    return Math.min(Math.max(MAX_AUTO_CH, head), Math.max(MIN_COL_CH, max));
  });
}

/** A width set by hand, within the limits, to half a `ch`. */
export function handWidth(ch: number): number {
  return Math.round(Math.max(MIN_COL_CH, Math.min(MAX_COL_CH, ch)) * 2) / 2;
}
