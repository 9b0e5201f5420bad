/**
 * The CLI given the files of a partitioned table's partitions (`ibd-reader t#P#*.ibd`, or one of them
 * with `--partition-column`): one table, its partitions read in their order (the .par beside, the
 * files' own data dictionary, the definition's PARTITION BY clause; lib/partitioned-table.ts), one
 * header, `--partition-column` ending each row with its partition's name (`_partition`). A partition
 * not given, or whose file cannot be read, is named in a warning and the exit status is 2, as a file
 * damaged as a whole (page 0, cut short: InnodbTable.spaceDamage); `--count`, `--index`, `--key` and
 * `--from/--to` apply to every partition, and `--where` to every partition's rows as to one file's
 * (the condition made once, over the partitions' columns; the report says what it filtered out). Each partition is read (and counted) with the worker
 * threads (pooled-read.ts), one partition after the other so the rows stay in order; `--index`
 * reads all partitions at once, their rows merged in the index's order (PartitionedTable.inKeyOrder),
 * the threads shared among the partitions (one worker each when there are as many partitions as
 * threads or more: then all partitions decode at once, and this thread merges). `--key` and
 * `--from/--to` descend each partition's B-tree in this thread: they read few pages, or a range's
 * leaves one after the other, and their rows are merged in key order too. With `--format parquet -o FILE`,
 * the runs of every partition go into one Parquet file (parquet-output.ts). After a read of rows,
 * each partition's recovery report follows on stderr; a count or a lookup says what it read. With `--rows partial`, a partition's partial rows (partial-output.ts: the
 * rows of its lost or damaged clustered leaves, from its own secondary indexes) follow its rows.
 */
import { basename } from 'node:path';
import { anythingAmiss } from '../core/readers/decode-stats.ts';
import { recoveryReport } from '../core/readers/recovery-target.ts';
import type { DecodeStats, KeyRange, RowMode } from '../core/readers/table-reader.ts';
import type { EncryptionKeys } from '../core/tablespace/encryption.ts';
import { appendColumn } from '../core/values/batch-edit.ts';
import { batchRows, type RowBatch } from '../core/values/row-batch.ts';
import { csvBytes } from '../core/writers/csv-bytes.ts';
import { csvHeader, ndjsonOf, sqlColumns, sqlInserts, sqlPostamble, sqlPreamble } from '../core/writers/output.ts';
import { partitionNamesOfClause } from '../core/definitions/partitions.ts';
import { DefinitionMismatch } from '../core/readers/leaf-decoder.ts';
import { formatGuess } from '../core/definitions/guess/index.ts';
import type { TableDef } from '../core/schema.ts';
import { openInnodb, openInnodbPartitions, type SharedRedoLog } from '../lib/node.ts';
import type { InnodbTable } from '../lib/innodb-table.ts';
import { partitionedTableName, type Partition, type PartitionedTable } from '../lib/partitioned-table.ts';
import { pooledBatches, pooledCount, pooledParquet, type PooledRead } from './pooled-read.ts';
import { ParquetOutput } from './parquet-output.ts';
import { partialHint, partialSource, writePartialRows } from './partial-output.ts';
import { lookupDamage, type WriteOut } from './lookup.ts';
import { problemLine, uncountedLines } from './problem-lines.ts';
import { sayTakenBack } from './transactions.ts';
import { whereLine, whereOption } from './where-option.ts';
import { whereFilter, type RowWhere } from '../core/readers/where.ts';
import { partitionRecoveryLines } from './partition-recovery.ts';
import { pagesReplaced } from '../core/log/redo-recovery.ts';
import type { TakenBack } from '../lib/datadir-undo.ts';

export interface PartitionRun {
  paths: readonly string[];
  schema: string | null;
  table: string | null;
  keys: EncryptionKeys;
  rows: RowMode;
  index: string | null;
  partitionColumn: boolean;
  /** The definition already made (--guess's), in place of `schema` and the files'. */
  definition?: TableDef;
  /** --as-on-disk: the datadir's redo log is not applied; --datadir: the datadir whose log is (else the files' folder's parent). */
  asOnDisk?: boolean;
  datadir?: string;
  /** The datadir's redo log read once for all of a folder's tables (datadir.ts). */
  sharedLog?: SharedRedoLog;
  /** The transactions taken back (those active at a crash, or --before-trx's): their versions of the rows, read in this thread. */
  taken?: TakenBack | null;
  /** The zone TIMESTAMP values are shown in. */
  timeZone: string;
  range: KeyRange | null;
  /** sql (a folder's dump, datadir.ts): the CREATE TABLE with the PARTITION BY clause its definition gives, then INSERTs. */
  format: 'csv' | 'ndjson' | 'parquet' | 'sql';
  /** --json-strings: every NDJSON value a string. */
  jsonStrings: boolean;
  /** --system-columns: rows end with DB_TRX_ID, DB_ROLL_PTR, page and heap number. */
  systemColumns?: boolean;
  /** The file written (named in the Parquet summary). */
  output: string | null;
  count: boolean;
  /** --where COND: the condition's text; none for every row. */
  where?: string | null;
  /** Worker threads each partition is decoded with. */
  threads: number;
  write: WriteOut;
  /** A line on stderr. */
  say(line: string): void;
}

/** What the datadir's redo log did to the partitions' files, or why not, said once for the table; true where rows may be stale. */
function sayRecoveries(table: PartitionedTable, run: PartitionRun): boolean {
  const { lines, amiss } = partitionRecoveryLines(table);
  for (const line of lines) run.say(line);
  return amiss;
}

/** Reads the partitions of `run.paths` as one table; the exit status. */
export async function writePartitions(given: PartitionRun): Promise<number> {
  let run = given;
  const opened = await openInnodbPartitions(run.paths, {
    definition: run.definition, schema: run.schema ?? undefined, keys: run.keys, rows: run.rows, asOnDisk: run.asOnDisk, datadir: run.datadir, sharedLog: run.sharedLog, versions: run.taken?.versions, index: run.index ?? undefined, partitionColumn: run.partitionColumn, table: run.table ?? undefined, timeZone: run.timeZone, systemColumns: run.systemColumns,
  });
  try {
    const { table } = opened;
    for (const w of table.warnings) run.say(`warning: ${w}`);
    if (!(await definitionFits(table, run))) return 1;
    let amiss = false;
    // Recovered pages and rows taken back live in this thread: the worker threads would read the files as they are.
    if (table.partitions.some((p) => pagesReplaced(p.recovery)) || run.taken) run = { ...run, threads: 1 };
    for (const p of present(table, run)) {
      const space = await p.table.spaceDamage();
      for (const w of space.warnings) run.say(`warning: ${w}`);
      amiss ||= space.damaged;
    }
    const first = present(table, run)[0];
    const where = !run.where || first === undefined ? undefined : await whereOption(run.where, first.table, run.timeZone);
    const decoded = new Map<Partition, DecodeStats>();
    const parquet = run.format === 'parquet' ? new ParquetOutput(table.definition, table.columns) : null;
    let rows: number;
    if (run.range !== null || run.count) {
      // A lookup or a count says what it read itself: a recovery report would tell of pages it never read.
      const read = run.range !== null ? await writeLookups(table, run.range, run, where) : where !== undefined ? await countWhere(table, run, where) : await writeCount(table, run);
      rows = read.rows;
      amiss ||= read.amiss;
    } else {
      rows = parquet !== null ? await writeParquet(table, parquet, run, decoded, where) : await writeRows(table, run, decoded, where);
      let read = 0;
      for (const p of present(table, run)) {
        const stats = decoded.get(p.partition) ?? p.table.stats;
        run.say(recoveryReport(p.table.info.file, stats).trimEnd());
        sayProblems(p.table, stats, run);
        amiss ||= anythingAmiss(stats);
        read += stats.rowsDecoded;
      }
      if (where !== undefined) run.say(whereLine(table.definition.name, rows, read));
    }
    const notGiven = table.partitions.filter((p) => p.table === null && p.unreadable === undefined).length;
    const unreadable = table.partitions.filter((p) => p.unreadable !== undefined).length;
    const unread = [notGiven > 0 ? `${notGiven} not given` : '', unreadable > 0 ? `${unreadable} unreadable` : ''].filter((t) => t !== '').join(', ');
    // after the reads: what the log did is counted as pages are read
    amiss = sayRecoveries(table, run) || amiss;
    if (run.taken) {
      sayTakenBack(table.definition.name, run.taken, run.say);
      amiss ||= run.taken.versions.keptRows.size > 0;
    }
    run.say(`${table.definition.name}: ${rows} rows from ${table.partitions.length - notGiven - unreadable} of ${table.partitions.length} partitions${unread ? ` (${unread})` : ''}`);
    // a partial guess (--guess): every row lacks the columns it could not work out
    const partial = table.definition.partialRecord;
    if (partial !== undefined) run.say(`warning: ${table.definition.name}: the columns were only partly guessed: ${partial} left out of every row`);
    return amiss || notGiven + unreadable > 0 || partial !== undefined || parquet?.amiss() === true ? 2 : 0;
  } finally {
    await opened.close();
  }
}

function sayProblems(table: InnodbTable, stats: DecodeStats, run: PartitionRun): void {
  for (const problem of stats.problems) run.say(`warning: ${problemLine(table.info.file, problem)}`);
}

/** Every partition's definition check: a misfit in one is said, and no row is written. */
async function definitionFits(table: PartitionedTable, run: PartitionRun): Promise<boolean> {
  for (const p of table.partitions) {
    try {
      await p.table?.checkDefinition();
    } catch (e) {
      if (!(e instanceof DefinitionMismatch)) throw e;
      run.say(`ibd-reader: ${e.message}; no row is decoded with it`);
      return false;
    }
  }
  return true;
}

function chunk(table: PartitionedTable, batch: RowBatch, run: PartitionRun): string | Uint8Array {
  if (run.format === 'sql') return sqlInserts(table.definition.name, sqlColumns(table.definition, table.columns), batchRows(batch));
  return run.format === 'csv' ? csvBytes(batch) : ndjsonOf(table.definition, table.columns, batchRows(batch), { strings: run.jsonStrings });
}

/**
 * A dump's CREATE TABLE: with its PARTITION BY clause where the definition has it (a .frm keeps it);
 * else the table unpartitioned, which holds the same rows, and a comment saying so.
 */
function sqlCreate(table: PartitionedTable, run: PartitionRun): string {
  const known = partitionNamesOfClause(table.definition.createSql) !== null;
  const note = known ? '' : `-- ${table.definition.name.replace(/[\r\n]/g, ' ')} is partitioned (${table.partitions.length} partitions), but no definition found gives its PARTITION BY clause: it is created unpartitioned, with the same rows.\n`;
  return `${note}${sqlPreamble(table.definition, run.paths.map((p) => basename(p)).join(', '))}`;
}

/** The file each present partition was opened from (the name its source has is its path's). */
function present(table: PartitionedTable, run: PartitionRun): { partition: Partition; table: InnodbTable; path: string }[] {
  const paths = new Map(run.paths.map((p) => [basename(p), p]));
  return table.partitions.flatMap((p) => (p.table === null ? [] : [{ partition: p, table: p.table, path: paths.get(p.table.info.file) ?? p.table.info.file }]));
}

/** Every partition's rows in turn, each decoded by the worker threads; `decoded` gets their statistics. */
async function writeRows(table: PartitionedTable, run: PartitionRun, decoded: Map<Partition, DecodeStats>, where: RowWhere | undefined): Promise<number> {
  let rows = 0;
  if (run.format === 'csv') await run.write(csvHeader(table.columns));
  if (run.format === 'sql') await run.write(sqlCreate(table, run));
  if (table.index !== null) return writeMerged(table, run, decoded, where);
  for (const p of present(table, run)) {
    const read = await pooledBatches(p.table, [p.path], run.threads, true, where);
    for await (const batch of read.batches) {
      rows += batch.rows;
      await run.write(chunk(table, run.partitionColumn ? appendColumn(batch, p.partition.name) : batch, run));
    }
    const stats = read.stats();
    decoded.set(p.partition, stats);
    rows += await writePartial(table, p, stats, run);
  }
  if (run.format === 'sql') await run.write(sqlPostamble());
  return rows;
}

/** After a partition's rows, the partial rows of its lost or damaged leaves (`--rows partial`), or a hint at them. */
async function writePartial(table: PartitionedTable, p: { partition: Partition; table: InnodbTable }, stats: DecodeStats, run: PartitionRun): Promise<number> {
  if (stats.damagedPages + stats.pagesSkipped === 0 || table.index !== null) return 0;
  if (run.rows === 'partial' && run.format !== 'sql') {
    return writePartialRows(partialSource(p.table, run.timeZone), { format: run.format, jsonStrings: run.jsonStrings, columns: table.columns, partition: p.partition.name, write: run.write, say: run.say });
  }
  const hint = partialHint(p.table.info.file, table.definition);
  if (hint !== null) run.say(`warning: ${hint}`);
  return 0;
}

/** A secondary index's rows: every partition read at once, with a share of the threads, merged in the index's order. */
async function writeMerged(table: PartitionedTable, run: PartitionRun, decoded: Map<Partition, DecodeStats>, where: RowWhere | undefined): Promise<number> {
  const parts = present(table, run);
  const share = Math.max(1, Math.floor(run.threads / Math.max(1, parts.length)));
  // Workers only while there are no more of them than threads asked for.
  const pooled = run.threads > 1 && parts.length <= run.threads;
  const reads: PooledRead[] = [];
  let rows = 0;
  try {
    for (const p of parts) reads.push(await pooledBatches(p.table, [p.path], pooled ? share : 1, !pooled, where));
    for await (const batch of table.inKeyOrder(reads.map((r, i) => table.taggedAll(r.batches, parts[i].partition.name)))) {
      rows += batch.rows;
      await run.write(chunk(table, batch, run));
    }
  } finally {
    await Promise.all(reads.map((r) => r.batches.return(undefined)));
  }
  reads.forEach((r, i) => decoded.set(parts[i].partition, r.stats()));
  return rows;
}

/** Every partition's Parquet runs in turn into one file, each partition's made by the worker threads; `decoded` gets their statistics. */
async function writeParquet(table: PartitionedTable, out: ParquetOutput, run: PartitionRun, decoded: Map<Partition, DecodeStats>, where: RowWhere | undefined): Promise<number> {
  let rows = 0;
  await run.write(out.head);
  for (const p of present(table, run)) {
    const read = await pooledParquet(p.table, [p.path], run.threads, { columns: table.columns, partition: run.partitionColumn ? p.partition.name : null }, where);
    for await (const part of read.runs) {
      rows += part.part.rows;
      await run.write(out.place(part, read.threads));
    }
    const stats = read.stats();
    decoded.set(p.partition, stats);
    await writePartial(table, p, stats, run);
  }
  await run.write(out.end((message) => run.say(`warning: ${message}`)));
  run.say(out.summary(run.output ?? ''));
  return rows;
}

/** `--count`: each partition's rows counted from its leaves' record headers, what could not be counted said per partition. */
async function writeCount(table: PartitionedTable, run: PartitionRun): Promise<{ rows: number; amiss: boolean }> {
  let rows = 0;
  let amiss = false;
  for (const p of present(table, run)) {
    const { count, stats } = await pooledCount(p.table, [p.path], run.threads);
    rows += count.rows;
    const file = p.table.info.file;
    const uncounted = count.uncountedPages;
    sayProblems(p.table, stats, run);
    for (const line of uncountedLines(file, p.table.info.indexId, uncounted)) run.say(`warning: ${line}`);
    run.say(`${file}: ${count.rows} rows on ${count.leafPages - uncounted.length} leaf pages${uncounted.length > 0 ? `; ${uncounted.length} leaf pages could not be counted` : ''}`);
    amiss ||= uncounted.length > 0 || anythingAmiss(stats) || p.table.info.leafSource === 'scan';
  }
  await run.write(`${rows}\n`);
  return { rows, amiss };
}

/** `--count --where`: each partition's rows the condition holds for (decoded, unlike a count of all); what was filtered out said once. */
async function countWhere(table: PartitionedTable, run: PartitionRun, where: RowWhere): Promise<{ rows: number; amiss: boolean }> {
  let rows = 0;
  let read = 0;
  let amiss = false;
  for (const p of present(table, run)) {
    const decoded = await pooledBatches(p.table, [p.path], run.threads, true, where);
    for await (const batch of decoded.batches) rows += batch.rows;
    const stats = decoded.stats();
    read += stats.rowsDecoded;
    sayProblems(p.table, stats, run);
    amiss ||= anythingAmiss(stats) || p.table.info.leafSource === 'scan';
  }
  await run.write(`${rows}\n`);
  run.say(whereLine(table.definition.name, rows, read));
  return { rows, amiss };
}

async function writeLookups(table: PartitionedTable, range: KeyRange, run: PartitionRun, where: RowWhere | undefined): Promise<{ rows: number; amiss: boolean }> {
  let rows = 0;
  let looked = 0;
  const lookup = await table.lookup(range);
  const keep = where === undefined ? null : await whereFilter(where, table.columns, table.definition.columns);
  if (!run.count && run.format === 'csv') await run.write(csvHeader(table.columns));
  for await (const found of lookup.batches()) {
    looked += found.rows;
    const batch = keep === null ? found : keep(found);
    rows += batch.rows;
    if (!run.count) await run.write(chunk(table, batch, run));
  }
  if (run.count) await run.write(`${rows}\n`);
  for (const note of lookup.notes) run.say(`note: ${note}`);
  run.say(`${table.definition.name}: ${looked} rows by key; ${lookup.path.length} pages read in all`);
  if (keep !== null) run.say(whereLine(table.definition.name, rows, looked));
  let amiss = false;
  for (const p of present(table, run)) {
    sayProblems(p.table, p.table.stats, run);
    const missing = lookupDamage(p.table.info.file, p.table.stats);
    if (missing !== null) run.say(`warning: ${missing}`);
    amiss ||= anythingAmiss(p.table.stats);
  }
  return { rows, amiss };
}

/**
 * `--guess` with no definition to be had: the columns guessed from the records of the first
 * partition that has any (InnodbFile.guess), said on stderr with the CREATE TABLE to correct and
 * give back with --schema, and used for every partition (they share one definition).
 */
export async function guessedDefinition(paths: readonly string[], keys: EncryptionKeys, say: (line: string) => void): Promise<TableDef> {
  let why = '';
  for (const path of paths) {
    const file = await openInnodb(path, { keys }).catch((e: unknown) => e as Error);
    if (file instanceof Error) {
      why ||= file.message;
      continue;
    }
    try {
      const { guess, definition } = await file.guess();
      say(`${file.name}: ${formatGuess(guess)}\n${guess.createSql};`);
      return definition;
    } catch (e) {
      why ||= (e as Error).message;
    } finally {
      await file.close();
    }
  }
  throw new Error(`the columns of ${partitionedTableName(paths.map((p) => ({ name: basename(p) })))} could not be guessed from any of its partitions: ${why}`);
}
