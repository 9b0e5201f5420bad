/**
 * The widths of the grid's columns (RowGrid.svelte), in `ch`: automatic ones from the column names
 * and the values seen so far, which only grow (so they do not jitter while scrolling), and the
 * limits of a width dragged by hand (ColumnResize.svelte).
 */

export const MIN_COL_CH = 4;
export const MAX_COL_CH = 400;
/** An automatic width stops here; a longer value is cut (and can be widened by hand). */
const MAX_AUTO_CH = 42;

/** Automatic widths of `names`' columns, from `rows` (null: not in memory) and the widths before (`prev`). */
export function autoWidths(names: readonly string[], rows: readonly ((string | null)[] | null)[], prev: readonly number[] | null): number[] {
  return names.map((name, c) => {
    let max = Math.max(prev?.[c] ?? 0, name.length + 1);
    for (const values of rows) {
      if (!values) continue;
      const len = values[c] === null ? 4 : Math.min(MAX_AUTO_CH, values[c]!.length);
      if (len > max) max = len;
    }
    return Math.min(MAX_AUTO_CH, Math.max(MIN_COL_CH, max));
  });
}

/** A width set by hand, within the limits, to half a `ch`. */
export function handWidth(ch: number): number {
  return Math.round(Math.max(MIN_COL_CH, Math.min(MAX_COL_CH, ch)) * 2) / 2;
}
