/**
 * One table of `ibd-reader DIR -o OUTDIR` (datadir.ts) read into its output file (or counted) and its
 * line of tables.tsv filled in: the same steps on the main thread and on the worker threads that
 * read a datadir's small tables in groups (datadir-threads.ts, datadir-worker.ts), so that both
 * write the same bytes and the same lines.
 */
import { anythingAmiss } from '../core/readers/decode-stats.ts';
import { DefinitionMismatch } from '../core/readers/leaf-decoder.ts';
import type { DecodeStats } from '../core/readers/table-reader.ts';
import type { InnodbTable } from '../lib/innodb-table.ts';
import { tableRows, type OutFormat } from './datadir-rows.ts';
import { pooledCount } from './pooled-read.ts';
import { problemLine } from './problem-lines.ts';
import type { TableFiles } from './table-file.ts';

/** A line of tables.tsv. */
export interface TableLine {
  db: string;
  table: string;
  state: 'live' | 'dropped';
  /** The file its rows were read from, and the index when it is one of ibdata1's. */
  file: string;
  indexId: string;
  rows: number | null;
  withheld: number | null;
  definition: string;
  problems: string[];
  /** 0 all read, 2 some withheld or damaged, 1 nothing read. */
  status: number;
}

/** What reading a table's rows needs of the run: where they go (OUTDIR, or null to count them), in what form, on how many threads. */
export interface RowsRun {
  out: string | null;
  format: OutFormat;
  jsonStrings: boolean;
  threads: number;
  files: TableFiles;
}

/** The rows of one opened table written to `path` (or counted), its line's figures filled in. */
export async function readRows(run: RowsRun, table: InnodbTable, paths: readonly string[], line: TableLine, path: string): Promise<void> {
  try {
    await table.checkDefinition();
  } catch (e) {
    if (!(e instanceof DefinitionMismatch)) throw e;
    line.problems.push(`${e.message}; no row is decoded with it`);
    line.status = 1;
    return;
  }
  const space = await table.spaceDamage();
  line.problems.push(...space.warnings);
  let stats: DecodeStats;
  if (run.out === null) {
    const counted = await pooledCount(table, paths, run.threads);
    line.rows = counted.count.rows;
    stats = counted.stats;
  } else {
    const written = await run.files.with(path, (write) => tableRows(table, paths, { format: run.format, db: line.db.startsWith('#') ? null : line.db, threads: run.threads, jsonStrings: run.jsonStrings, file: path, write, warn: (m) => line.problems.push(m) }));
    line.rows = written.rows;
    stats = written.stats;
    if (written.amiss) line.status = Math.max(line.status, 2);
  }
  line.withheld = stats.damagedWithheld;
  line.problems.push(...stats.problems.map((p) => problemLine(table.info.file, p)));
  if (space.damaged || anythingAmiss(stats) || table.info.leafSource === 'scan') line.status = Math.max(line.status, 2);
}

/** A line not read yet. */
export function newLine(db: string, table: string, state: TableLine['state'], file: string, indexId: string, definition: string): TableLine {
  return { db, table, state, file, indexId, rows: null, withheld: null, definition, problems: [], status: 0 };
}
