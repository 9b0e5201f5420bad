/**
 * What the leaf decoder decodes a table's records with (LeafContext), made from a table definition
 * and the file: the clustered index record layout as the file has it (instant ALTER read from its
 * root page, or from its SDI in MySQL 8), and a byte writer per field. For a caller that reads pages
 * one by one (the page inspector, page-inspect.ts) and for openTable() (table-reader.ts), which reads
 * a whole table with them.
 */
import { mysqlLayoutFromFile } from '../definitions/sdi/sdi-instant.ts';
import { IbdError } from '../errors.ts';
import { clusteredLayout, type ClusteredLayout } from '../records/clustered-index.ts';
import { secondaryLayout } from '../records/secondary-index.ts';
import { readInstantLayout } from '../records/instant-metadata.ts';
import { fieldColumns, RecordError } from '../records/record.ts';
import { findClusteredRoot } from '../btree/btree.ts';
import { secondaryUndo, type SecondaryUndo } from '../trx/row-undo-sec.ts';
import type { RowVersions } from '../trx/row-vers.ts';
import type { TableDef } from '../schema.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';
import { zonedRender } from '../values/column-storage.ts';
import { writerFor } from '../values/text-writers.ts';
import { UTC } from '../values/time-zone.ts';
import { fastWriteOf, quoteCheckOf } from '../values/writer-traits.ts';
import { addProblem, type DecodeStats } from './decode-stats.ts';
import type { LeafContext } from './leaf-decoder.ts';
import { hasStateColumn, type RowMode } from './row-state.ts';
import { HISTORY_COLUMNS } from './leaf-history.ts';
import { SYSTEM_COLUMNS, systemColumnNames } from './system-columns.ts';

/**
 * The layout of `table`'s clustered index records in this file, whose root is `rootPage` (-1:
 * unknown); or of its secondary index named `secondary` (secondary-index.ts), which instant ALTER
 * TABLE leaves as it is.
 */
export async function fileLayout(ts: Tablespace, table: TableDef, rootPage: number, compact: boolean, secondary: string | null = null): Promise<ClusteredLayout> {
  let layout: ClusteredLayout;
  try {
    layout = secondary === null ? clusteredLayout(table, !compact) : secondaryLayout(table, secondary, !compact);
  } catch (e) {
    throw new IbdError(ts.source.name, `table \`${table.name}\`: ${(e as Error).message}`);
  }
  if (secondary !== null) return layout;
  // Instant ADD/DROP COLUMN: fields in physical order, and the defaults of fields records lack.
  return ts.fsp.flags.sdi ? (await mysqlLayoutFromFile(ts, layout)) ?? layout : readInstantLayout(ts, rootPage, layout, compact);
}

/**
 * A LeafContext for `layout`, counting into `stats`; its columns are the table's, `_row_state` last
 * where the mode has it, then a history's `_trx_id` and `_version`, then the `system` columns
 * (system-columns.ts) when asked for; TIMESTAMP values shown in `zone`.
 */
export function leafContext(ts: Tablespace, layout: ClusteredLayout, compact: boolean, mode: RowMode, stats: DecodeStats, zone = UTC, history = false, system = false): LeafContext {
  const columns = layout.columns.length + (hasStateColumn(mode) ? 1 : 0) + (history ? HISTORY_COLUMNS.length : 0) + (system ? SYSTEM_COLUMNS.length : 0);
  const writers = layout.fields.map((f) => {
    const column = f.out >= 0 ? layout.columns[f.out] : null;
    return writerFor(column, zonedRender(column, f.render, zone));
  });
  // Scan all (QUOTE_SCAN) but where the writer knows; not for an instantly altered table, whose
  // older records show defaults written from their text.
  const quoteChecks = new Uint8Array(columns);
  if (!layout.instant) layout.fields.forEach((f, i) => {
    if (f.out >= 0) quoteChecks[f.out] = quoteCheckOf(writers[i]);
  });
  return { ts, layout, compact, mode, columns, writers, fast: writers.map(fastWriteOf), fieldColumns: fieldColumns(layout.fields), quoteChecks, stats, system };
}

/** The system columns' names where the context has them (after every other column), else none. */
export function systemColumns(ctx: LeafContext): readonly string[] {
  return ctx.system === true ? systemColumnNames(ctx.layout.columns.map((c) => c.name)) : [];
}

/**
 * For a read of the secondary index `layout` of `table` with transactions taken back: its entries as
 * their rollback leaves them (trx/row-undo-sec.ts), the rows searched in the file's clustered index;
 * or why that cannot be had here (the reader says it, the entries as on disk). Null for any other read.
 */
export async function secondaryRollback(ts: Tablespace, table: TableDef, layout: ClusteredLayout, compact: boolean, versions: RowVersions | null | undefined): Promise<SecondaryUndo | string | null> {
  if (versions == null || layout.secondary === undefined) return null;
  try {
    const root = await findClusteredRoot(ts);
    return await secondaryUndo(versions, { ts, root, layout: await fileLayout(ts, table, root.page, compact), compact }, layout);
  } catch (e) {
    if (e instanceof IbdError || e instanceof RecordError) return e.message;
    throw e;
  }
}

/** What of a secondary index's rollback is amiss, in `stats`: why it cannot be had, or undo records not read (each history-lost, exit status 2). */
export function notRolledBack(stats: DecodeStats, layout: ClusteredLayout, versions: RowVersions | null, entries: SecondaryUndo | string): void {
  const ids = [...(versions?.trxIds ?? [])].join(', ');
  const lines = typeof entries === 'string' ? [`read through index ${layout.secondary ?? ''}: the rollback of transaction(s) ${ids} does not reach its entries (${entries}): they are as on disk, and may hold entries those transactions added or lack rows they deleted`] : entries.problems;
  for (const line of lines) addProblem(stats, null, null, line);
  stats.historyLost += lines.length;
}
