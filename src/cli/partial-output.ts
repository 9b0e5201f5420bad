/**
 * The CLI's partial rows (core/readers/partial-rows.ts): after the rows of a read whose `--rows` mode
 * has the state `partial` (`partial`, `all`), the rows of the clustered leaf pages that were lost or
 * damaged, made from the secondary indexes' entries, in the output's format, and their count in the
 * recovery report: which pages, which indexes gave columns. A partition's come after its own rows,
 * from its own indexes (an index of a partitioned table holds its partition's rows only), with the
 * partition's name where the rows end with `_partition`. Parquet's typed columns cannot hold the
 * absent mark: there they are left out, and said so.
 */
import { partialRows } from '../core/readers/partial-rows.ts';
import type { TableReader } from '../core/readers/table-reader.ts';
import type { TableDef } from '../core/schema.ts';
import { csvRows, ndjsonOf } from '../core/writers/output.ts';
import type { InnodbTable } from '../lib/innodb-table.ts';
import { PARTITION_COLUMN } from '../lib/partitioned-table.ts';

export interface PartialOutput {
  format: 'csv' | 'ndjson' | 'parquet';
  /** --json-strings: every NDJSON value a string. */
  jsonStrings: boolean;
  /** The output's columns: the table's, `_row_state`, then `_partition` when the rows end with it. */
  columns: readonly string[];
  /** The partition read, named in the `_partition` column. */
  partition?: string;
  write(text: string): Promise<void> | undefined;
  say(line: string): void;
}

/** Where the partial rows are read from: the file's name, and opens of its indexes (live rows). */
export interface PartialSource {
  name: string;
  definition: TableDef;
  /** The clustered index read before (the same tree, live rows): which of its leaves are lost. */
  clustered(): Promise<TableReader>;
  /** The table's secondary index `index`. */
  index(index: string): Promise<TableReader>;
}

/**
 * The partial rows' reads of `table`: its clustered tree again, and each secondary index opened by
 * `openIndex` (by default from the same file: a partition's; the CLI's one file opens them through
 * its InnodbFile, a system tablespace's table too).
 */
export function partialSource(table: InnodbTable, timeZone: string | undefined, openIndex = (index: string) => table.reopen({ rows: 'live', timeZone, index })): PartialSource {
  return {
    name: table.info.file,
    definition: table.definition,
    clustered: async () => (await table.reopen({ rows: 'live', timeZone, target: { index: table.options.index, raw: table.options.raw } })).reader,
    index: async (index) => (await openIndex(index)).reader,
  };
}

/** The recovery report's hint, where leaves were lost and no partial rows asked for: the table's secondary indexes hold their keys. */
export function partialHint(name: string, definition: TableDef): string | null {
  if (!definition.indexes.some((i) => i.kind === 'unique' || i.kind === 'key')) return null;
  return `${name}: of the rows of the lost or damaged leaf pages, --rows partial gives the keys and indexed columns of their rows from the secondary indexes`;
}

/** Writes the partial rows of `from`; how many there were. */
export async function writePartialRows(from: PartialSource, out: PartialOutput): Promise<number> {
  const { name } = from;
  if (out.format === 'parquet') {
    out.say(`warning: ${name}: partial rows are not written to Parquet (their absent columns cannot be marked in typed columns); read them with --format csv or ndjson`);
    return 0;
  }
  const tagged = out.columns.at(-1) === PARTITION_COLUMN;
  const columns = tagged ? out.columns.slice(0, -1) : out.columns;
  const found = await partialRows(from.definition, await from.clustered(), (index) => from.index(index), columns);
  for (const n of found.notes) out.say(`warning: ${name}: partial rows: ${n}`);
  if (found.lostPages.length === 0) return 0;
  const rows = tagged ? found.rows.map((row) => [...row, out.partition ?? null]) : found.rows;
  if (rows.length > 0) await out.write(out.format === 'csv' ? csvRows(rows) : ndjsonOf(from.definition, out.columns, rows, { strings: out.jsonStrings }));
  const byIndex = [...found.byIndex].map(([index, n]) => `\`${index}\` ${n}`).join(', ') || 'none';
  out.say(`${name}: partial rows ${rows.length} (state partial), for the keys of clustered leaf pages ${found.lostPages.join(', ')} (lost or damaged), from the secondary indexes' entries (${byIndex}); the columns no index holds say [absent: …]`);
  return rows.length;
}
