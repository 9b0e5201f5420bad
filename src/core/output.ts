/**
 * Text renderings of decoded rows for export. No DOM: used by the page (Blob downloads), the CLI and
 * the tests alike.
 *
 * CSV: RFC 4180 quoting (papaparse `unparse`), `\n` line ends, a header row of column names, and SQL
 * NULL written as an unquoted `\N` (the marker MySQL's LOAD DATA and mysqldump --tab use). A string
 * value that is literally `\N` is quoted (`"\N"`) so it never reads back as NULL, and the empty string
 * stays an empty field. Every function returns whole lines, each ending in `\n`, so chunks concatenate.
 *
 * NDJSON: one JSON object per row keyed by column name, NULL as `null`, each line ending in `\n`.
 *
 * The strings are JavaScript (UTF-16) strings; encode them as UTF-8 when writing (a Blob or
 * TextEncoder does that).
 */
import Papa from 'papaparse';
import type { Row } from './table-reader.ts';

/** The NULL marker in CSV output. */
export const CSV_NULL = '\\N';

const NEWLINE = '\n';

/**
 * Stands for NULL while papaparse writes the values: it prints as `\N` (papaparse calls toString) but
 * is not the string `\N`, so the quoting rule below can tell a NULL from a literal `\N` value.
 */
const NULL_CELL = Object.freeze({ toString: () => CSV_NULL });

function csvLines(data: unknown[][], singleColumn: boolean): string {
  if (data.length === 0) return '';
  const text = Papa.unparse(data, {
    newline: NEWLINE,
    header: false,
    escapeFormulae: false,
    // A literal `\N` must not read back as NULL. With one column an empty value would make an empty
    // line, which many readers skip, so it is quoted too.
    quotes: (value: unknown) => value === CSV_NULL || (singleColumn && value === ''),
  });
  return text + NEWLINE;
}

/** The header line (column names), ending in a newline. */
export function csvHeader(columns: readonly string[]): string {
  return csvLines([columns.slice()], columns.length === 1);
}

/** Data lines for `rows`, each ending in a newline; NULL as an unquoted `\N`. */
export function csvRows(rows: readonly Row[]): string {
  if (rows.length === 0) return '';
  const data = new Array<unknown[]>(rows.length);
  let single = false;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    if (row.length === 1) single = true;
    const out = new Array<unknown>(row.length);
    for (let c = 0; c < row.length; c++) {
      const v = row[c];
      out[c] = v === null ? NULL_CELL : v;
    }
    data[r] = out;
  }
  return csvLines(data, single);
}

/** One JSON object per row, keyed by column name, each line ending in a newline. */
export function ndjsonRows(columns: readonly string[], rows: readonly Row[]): string {
  // Keys are written by hand rather than through an object, so a column named `__proto__` (legal in
  // SQL) is an ordinary key, and the key text is escaped once rather than once per row.
  const keys = columns.map((c) => JSON.stringify(c) + ':');
  let out = '';
  for (const row of rows) {
    let line = '{';
    for (let c = 0; c < keys.length; c++) {
      if (c > 0) line += ',';
      const v = row[c];
      line += keys[c] + (v === null || v === undefined ? 'null' : JSON.stringify(v));
    }
    out += line + '}\n';
  }
  return out;
}
