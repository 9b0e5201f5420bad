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

const HEX_VALUE = /^0x(?:[0-9A-Fa-f]{2})*$/;

/**
 * The size of a value as the cell viewer states it: of a binary value shown as 0x hex (BINARY, BLOB,
 * BIT), the bytes the column holds, not the hex text's; of text, its characters and UTF-8 bytes.
 */
export function valueSize(value: string, binary: boolean): { bytes: number; chars: number | null } {
  if (binary && HEX_VALUE.test(value)) return { bytes: (value.length - 2) / 2, chars: null };
  return { bytes: new TextEncoder().encode(value).length, chars: [...value].length };
}

/** A cell of a row whose page is not in memory yet. */
export const LOADING: Shown = { text: '…', kind: 'loading', cut: false };
