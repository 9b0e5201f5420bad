/**
 * What the grid puts on the clipboard (RowGrid.svelte, GridTools.svelte, RecordView.svelte):
 *
 *  - TSV, the way spreadsheets (LibreOffice Calc, Excel, Google Sheets) copy and paste a range: cells
 *    separated by tabs, rows by newlines; a cell holding a tab, a line break or a double quote is put
 *    in double quotes with its quotes doubled. NULL is an empty cell (a spreadsheet has no NULL; the
 *    JSON and INSERT copies keep it).
 *  - JSON: one object per row keyed by column name (NDJSON's objects, output.ts), an array of them
 *    for several rows.
 *  - INSERT: one statement for the rows, literals quoted per column type as the SQL export writes them
 *    (output.ts: numbers bare, binary as 0x hex, strings escaped), so that it imports back equal.
 */
import type { TableDef } from '../../core/schema.ts';
import { ndjsonOf, sqlColumns, sqlInserts } from '../../core/writers/output.ts';
import type { Cell } from './batch-text.ts';

const NEEDS_QUOTES = /[\t\n\r"]/;

/** One cell as a spreadsheet copies it. */
export function tsvCell(value: Cell): string {
  if (value === null) return '';
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Rows as TSV lines (each ending in a newline), after a line of column names when `names` is given. */
export function tsvText(rows: readonly Cell[][], names?: readonly string[]): string {
  let out = names ? names.map(tsvCell).join('\t') + '\n' : '';
  for (const row of rows) out += row.map(tsvCell).join('\t') + '\n';
  return out;
}

/** One row as a JSON object, several as an array of them, one per line (numbers typed as in NDJSON exports). */
export function jsonText(table: TableDef, names: readonly string[], rows: readonly Cell[][]): string {
  const lines = ndjsonOf(table, names, rows).trimEnd().split('\n');
  return lines.length === 1 ? lines[0] + '\n' : `[\n${lines.join(',\n')}\n]\n`;
}

/** Whether values of these columns are shown in UTC (TIMESTAMP): the INSERT sets the session's zone. */
function hasTimestamp(table: TableDef, names: readonly string[]): boolean {
  const wanted = new Set(names.map((n) => n.toLowerCase()));
  return table.columns.some((c) => c.type === 'timestamp' && wanted.has(c.name.toLowerCase()));
}

/**
 * An INSERT of `rows` (values of columns `names`, as the grid shows them) into `table`. Generated
 * columns are left out (the server computes them). TIMESTAMP values are shown in UTC, so a
 * `SET time_zone = '+00:00'` comes first when there is one.
 */
export function insertText(table: TableDef, names: readonly string[], rows: readonly Cell[][]): string {
  const zone = hasTimestamp(table, names) ? "SET time_zone = '+00:00';\n" : '';
  return zone + sqlInserts(table.name, sqlColumns(table, names), rows, Math.max(1, rows.length));
}
