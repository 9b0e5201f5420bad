/**
 * The CLI's partial rows (core/readers/partial-rows.ts): after the rows of a read whose `--rows` mode
 * has the state `partial` (`partial`, `all`), the rows of the clustered leaf pages that were lost or
 * damaged, made from the secondary indexes' entries, in the output's format, and their count in the
 * recovery report: which pages, which indexes gave columns. Parquet's typed columns cannot hold the
 * absent mark: there they are left out, and said so.
 */
import { partialRows } from '../core/readers/partial-rows.ts';
import { csvRows, ndjsonRows } from '../core/writers/output.ts';
import type { TableEntry } from '../lib/definitions.ts';
import type { InnodbFile } from '../lib/innodb-file.ts';
import type { InnodbTable } from '../lib/innodb-table.ts';

export interface PartialOutput {
  format: 'csv' | 'ndjson' | 'parquet';
  timeZone: string | null;
  write(text: string): Promise<void> | undefined;
  say(line: string): void;
}

/** Writes the partial rows of `table` (read as `entry` from `file`); how many there were. */
export async function writePartialRows(file: InnodbFile, entry: TableEntry, table: InnodbTable, out: PartialOutput): Promise<number> {
  const name = file.name;
  if (out.format === 'parquet') {
    out.say(`warning: ${name}: partial rows are not written to Parquet (their absent columns cannot be marked in typed columns); read them with --format csv or ndjson`);
    return 0;
  }
  const options = { rows: 'live' as const, timeZone: out.timeZone ?? undefined, target: { index: table.options.index, raw: table.options.raw } };
  const clustered = await file.table(entry, options);
  const open = async (index: string) => (await file.table(entry, { rows: 'live', timeZone: options.timeZone, index })).reader;
  const found = await partialRows(entry.definition, clustered.reader, open, table.columns);
  for (const n of found.notes) out.say(`warning: ${name}: partial rows: ${n}`);
  if (found.lostPages.length === 0) return 0;
  const rows = found.rows;
  if (rows.length > 0) await out.write(out.format === 'csv' ? csvRows(rows) : ndjsonRows(table.columns, rows));
  const from = [...found.byIndex].map(([index, n]) => `\`${index}\` ${n}`).join(', ') || 'none';
  out.say(`${name}: partial rows ${rows.length} (state partial), for the keys of clustered leaf pages ${found.lostPages.join(', ')} (lost or damaged), from the secondary indexes' entries (${from}); the columns no index holds say [absent: …]`);
  return rows.length;
}
