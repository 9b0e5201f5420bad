/**
 * CSV as the CLI writes it (src/core/writers/output.ts), taken apart into records so that outputs can be
 * compared row by row, byte for byte: a server row's record is csvRows() of it, exactly what the CLI
 * writes for that row; a record of the CLI's output is its text between two record ends.
 */
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import type { Row } from '../../src/core/readers/table-reader.ts';

/**
 * The records of CSV text, each as written without its final `\n`: a line break inside a quoted
 * value belongs to the value (a quote inside one is doubled, so counting quotes tells inside from out).
 */
export function csvRecords(text: string): string[] {
  const records: string[] = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (c === 10 && !quoted) {
      records.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (start < text.length) records.push(text.slice(start));
  return records;
}

/** The CSV record of each row, as the CLI writes it. */
export function rowRecords(rows: readonly Row[]): string[] {
  const records = csvRecords(csvRows(rows));
  if (records.length !== rows.length) throw new Error(`csvRecords split ${rows.length} rows into ${records.length} records`);
  return records;
}

/** The header record for these columns (without its `\n`). */
export function headerRecord(columns: readonly string[]): string {
  return csvHeader(columns).slice(0, -1);
}

/** An output split into its header and data records. */
export interface CsvOutput {
  header: string | null;
  records: string[];
}

export function parseCsvOutput(text: string): CsvOutput {
  const all = csvRecords(text);
  return { header: all.length > 0 ? all[0] : null, records: all.slice(1) };
}

/**
 * A record of an output with the `_row_state` column, split into the row's own record and its state.
 * The state (live, delete-marked, purged, damaged) never needs quotes: it is the text after the last comma.
 */
export function splitState(record: string): { row: string; state: string } {
  const comma = record.lastIndexOf(',');
  return comma < 0 ? { row: '', state: record } : { row: record.slice(0, comma), state: record.slice(comma + 1) };
}

/** How many times each record occurs. */
export function tally(records: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r, (counts.get(r) ?? 0) + 1);
  return counts;
}

/** The records of `a` (as a multiset) that `b` lacks: a − b. */
export function multisetMinus(a: Iterable<string>, b: Iterable<string>): string[] {
  const left = tally(b);
  const out: string[] = [];
  for (const r of a) {
    const n = left.get(r) ?? 0;
    if (n > 0) left.set(r, n - 1);
    else out.push(r);
  }
  return out;
}
