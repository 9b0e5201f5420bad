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

/** The system column holding DB_TRX_ID's neighbour, DB_ROLL_PTR (core/readers/system-columns.ts). */
export const ROLL_PTR_COLUMN = '_db_roll_ptr';

/**
 * A DB_ROLL_PTR cell (0x + its 7 bytes) in words: the insert flag, the rollback segment, the undo page
 * and the offset of the undo record holding the row's previous version (trx0types.h roll_ptr_t);
 * null for any other text.
 */
export function rollPtrText(value: string | null): string | null {
  if (value === null || !/^0x[0-9A-Fa-f]{14}$/.test(value)) return null;
  const byte = (i: number) => parseInt(value.slice(2 + 2 * i, 4 + 2 * i), 16);
  const page = ((byte(1) << 24) | (byte(2) << 16) | (byte(3) << 8) | byte(4)) >>> 0;
  const offset = (byte(5) << 8) | byte(6);
  const kind = byte(0) & 0x80 ? 'inserted (no earlier version)' : 'updated or deleted';
  return `${kind} · rollback segment ${byte(0) & 0x7f} · undo page ${page} · offset ${offset}`;
}
