/**
 * A copy from the grid (Ctrl+C, GridTools.svelte, RecordView.svelte): the selected range's values read
 * through the row store (range-rows.ts, bounded), put in the form asked for (clipboard-text.ts) and
 * written to the clipboard; what was copied, in words, for the grid's status line.
 */
import type { ColumnInfo } from '../../../workers/viewer-api.ts';
import type { TableDef } from '../../core/schema.ts';
import { formatCount, plural } from '../format.ts';
import type { RangeBounds } from './cell-range.ts';
import { insertText, jsonText, tsvText } from './clipboard-text.ts';
import { COPY_MAX_ROWS, rangeRows } from './range-rows.ts';
import type { RowStore } from './row-store.ts';

/** TSV of the range (with a line of column names), or its rows whole as JSON or as an INSERT. */
export type CopyFormat = 'tsv' | 'tsv-names' | 'json' | 'insert';

export interface CopySource {
  store: RowStore;
  /** View position → row number. */
  rowAt: (i: number) => number;
  columns: ColumnInfo[];
  /** Output column of `_row_state` (not a column of the table: left out of an INSERT), or -1. */
  stateColumn: number;
  table: TableDef;
}

const FORMAT_TEXT: Record<CopyFormat, string> = {
  tsv: 'as TSV; NULL as an empty cell',
  'tsv-names': 'as TSV with the column names; NULL as an empty cell',
  json: 'as JSON',
  insert: 'as an INSERT',
};

/** The text of `b` in `format`, and what it holds in words. */
export async function copyText(src: CopySource, b: RangeBounds, format: CopyFormat): Promise<{ text: string; said: string }> {
  const whole = format === 'json' || format === 'insert';
  const bounds = whole ? { ...b, left: 0, right: src.columns.length - 1 } : b;
  const got = await rangeRows(src.store, src.rowAt, bounds);
  let names = src.columns.slice(bounds.left, bounds.right + 1).map((c) => c.name);
  let rows = got.rows;
  if (format === 'insert' && src.stateColumn >= 0) {
    names = names.filter((_, c) => c !== src.stateColumn);
    rows = rows.map((r) => r.filter((_, c) => c !== src.stateColumn));
  }
  const text = format === 'json' ? jsonText(src.table, names, rows) : format === 'insert' ? insertText(src.table, names, rows) : tsvText(rows, format === 'tsv-names' ? names : undefined);
  const what = whole ? plural(rows.length, 'row') : `${plural(rows.length, 'row')} × ${plural(names.length, 'column')}`;
  const said = got.cut
    ? `Copied the first ${what} of ${formatCount(got.wanted)} selected, ${FORMAT_TEXT[format]}: a copy holds at most ${formatCount(COPY_MAX_ROWS)} rows (16 Mi characters); export the table for all of them.`
    : `Copied ${what} ${FORMAT_TEXT[format]}.`;
  return { text, said };
}

/** Writes `text` to the clipboard (the Clipboard API; else the copy command, for a page not served securely). */
export async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const put = (e: ClipboardEvent) => {
    e.clipboardData?.setData('text/plain', text);
    e.preventDefault();
  };
  document.addEventListener('copy', put, { once: true });
  const ok = document.execCommand('copy');
  document.removeEventListener('copy', put);
  if (!ok) throw new Error('the browser did not allow it');
}
