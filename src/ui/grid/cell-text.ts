/**
 * A value as a grid cell shows it (RowGrid.svelte): NULL and the empty string told apart, line breaks
 * and tabs made visible, long values cut with an ellipsis (the cell viewer, CellPanel.svelte, has
 * them whole), and a placeholder while the row's page is being read.
 */

/** Characters of a value put in the DOM (the rest is in the cell viewer). */
const SHOWN_CHARS = 240;

export interface Shown {
  text: string;
  kind: 'value' | 'null' | 'empty' | 'loading';
  /** The value is longer than the text shown. */
  cut: boolean;
}

export function shown(v: string | null): Shown {
  if (v === null) return { text: 'NULL', kind: 'null', cut: false };
  if (v === '') return { text: '', kind: 'empty', cut: false };
  const cut = v.length > SHOWN_CHARS;
  const text = (cut ? v.slice(0, SHOWN_CHARS) : v).replace(/\r\n|\n|\r/g, '↵').replace(/\t/g, '⇥');
  return { text: cut ? text + '…' : text, kind: 'value', cut };
}

/** A cell of a row whose page is not in memory yet. */
export const LOADING: Shown = { text: '…', kind: 'loading', cut: false };
