/**
 * A run of leaf pages to Parquet row groups of its own (parquet-rows.ts parquetPart): the CLI's unit
 * of work for `--format parquet`, done where the run is decoded (a worker thread, or the main thread
 * for a small table or one thread), so the encoding spreads over the cores as the decoding does. The
 * writer of the file places the runs in key order (parquet-row-groups.ts ParquetLayout); as every
 * run is cut and encoded the same way wherever it is done, the file is the same for any thread count.
 */
import type { TableReader } from '../readers/table-reader.ts';
import type { TableDef } from '../schema.ts';
import { appendColumn } from '../values/batch-edit.ts';
import type { BatchFilter } from '../readers/where.ts';
import { parquetPart, partEnded, ParquetRows } from './parquet-rows.ts';
import { ParquetLeaf } from './parquet-leaf.ts';
import type { ParquetPart } from './parquet-row-groups.ts';

/** What a run's rows become besides the table's: the output columns, and the partition's name each row ends with (`_partition`), if any. */
export interface ParquetRunSpec {
  columns: readonly string[];
  partition: string | null;
}

/** A run's row groups: their bytes (no head, no footer) and metadata, offsets as if right after the head. */
export interface ParquetRun {
  bytes: Uint8Array<ArrayBuffer>;
  part: ParquetPart;
}

/** The rows of `pages` (in key order; `first`: they begin the table) as Parquet row groups; with `keep`, only the rows it keeps (--where). */
export async function parquetPages(reader: TableReader, table: TableDef, pages: readonly number[], first: boolean, spec: ParquetRunSpec, keep?: BatchFilter): Promise<ParquetRun> {
  if (keep === undefined && spec.partition === null) {
    // Trusted pages straight into the chunks where the table has a plan (parquet-leaf.ts); the others' rows in order between them.
    const free = idleWriters(table, spec.columns);
    const hook = free.pop() ?? new ParquetLeaf(new ParquetRows(table, spec.columns));
    try {
      hook.rows.restart();
      const rest = await reader.decodePages(pages, { first, hook });
      return partEnded(hook.rows, [...hook.parts, hook.rows.add(rest)]);
    } finally {
      hook.parts.length = 0;
      free.push(hook);
    }
  }
  const decoded = await reader.decodePages(pages, { first });
  const batch = keep === undefined ? decoded : keep(decoded);
  return parquetPart(table, spec.columns, spec.partition === null ? batch : appendColumn(batch, spec.partition));
}

/** Part writers with their page hooks not in use, per table and output columns: one per run in progress (a worker may have several), kept for the next. */
const idle = new WeakMap<TableDef, Map<string, ParquetLeaf[]>>();

function idleWriters(table: TableDef, columns: readonly string[]): ParquetLeaf[] {
  let byColumns = idle.get(table);
  if (byColumns === undefined) {
    byColumns = new Map();
    idle.set(table, byColumns);
  }
  const key = JSON.stringify(columns);
  let free = byColumns.get(key);
  if (free === undefined) {
    free = [];
    byColumns.set(key, free);
  }
  return free;
}
