/**
 * Command-line front end: `ibd-reader FILE.ibd [--schema FILE.sql|FILE.frm] [--format csv|ndjson] [-o OUT]`.
 * Same decoder as the page; rows stream to stdout or OUT, problems and the summary go to stderr.
 * Without --schema the table definition comes from the .ibd itself (MySQL 8 data dictionary), from
 * the .frm of the same name beside it (MySQL 5.x, MariaDB), or from the InnoDB data dictionary of the
 * ibdata1 of its datadir; a table inside an ibdata1 is chosen with --table db/name (its .frm in the
 * db folder beside, else the dictionary's definition; --list-tables lists them); with --guess and none, it is guessed
 * from the records (core/definitions/guess/). The file is opened and its definition found through
 * the library's Node entry (lib/node.ts), as a program using the library would; the rows of a large
 * table are decoded in worker threads (node/pool.ts).
 */
import { createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { csvBytes } from './core/writers/csv-bytes.ts';
import { csvHeader, ndjsonOf } from './core/writers/output.ts';
import { batchRows, type RowBatch } from './core/values/row-batch.ts';
import { anythingAmiss } from './core/readers/decode-stats.ts';
import { modeIncludes } from './core/readers/row-state.ts';
import { DefinitionMismatch, type DecodeStats, type Problem } from './core/readers/table-reader.ts';
import { Tablespace } from './core/tablespace/tablespace.ts';
import { pagesReplaced, recoveryAmiss, recoveryLines, type RedoRecovery } from './core/log/redo-recovery.ts';
import { formatGuess, guessColumns } from './core/definitions/guess/index.ts';
import { listIndexes, recoveryReport } from './core/readers/recovery-target.ts';
import { SOURCE_NAMES } from './core/definitions/schema-source.ts';
import { indexNames } from './core/definitions/dictionary/dict-tables.ts';
import { systemDictionary } from './core/definitions/dictionary/system-schema.ts';
import { NoDefinitionError, TableChoiceError, type TableEntry } from './lib/definitions.ts';
import type { InnodbFile } from './lib/innodb-file.ts';
import type { InnodbTable } from './lib/innodb-table.ts';
import { openInnodb } from './lib/node.ts';
import { dataFilesOf } from './node/data-files.ts';
import { serveRecoveredFile } from './node/recovered-pages.ts';
import { writePageInspection } from './cli/page-inspect.ts';
import { writePageMap } from './cli/page-map.ts';
import { listTables } from './node/list-tables.ts';
import { keyRange, writeLookup } from './cli/lookup.ts';
import { cliTimeZone } from './cli/time-zone.ts';
import { guessedDefinition, writePartitions, type PartitionRun } from './cli/partitions.ts';
import { inKeyOrder, pooledCount, writeCsvPooled } from './cli/pooled-read.ts';
import { writeCsvHere } from './cli/csv-here.ts';
import { PARALLEL_MIN_PAGES, startPool, type NodePool } from './node/pool.ts';
import { parseArgs, sortFiles, textFormat, UsageError, USAGE, type Args } from './cli/args.ts';
import { parquetDecoded, type Decoded } from './cli/parquet-output.ts';
import { LoadDataOut, writeLoadData } from './cli/load-data-output.ts';
import { partialHint, partialSource, writePartialRows } from './cli/partial-output.ts';
import { problemLine, uncountedLines } from './cli/problem-lines.ts';
import { listTransactions, sayTakenBack } from './cli/transactions.ts';
import { datadirUndo, keysOf, rollback, rollbackOf, warn } from './cli/rollback.ts';
import { version } from '../package.json';
import { readDatadir } from './cli/datadir.ts';
import { historySqlRun, revertRun } from './cli/history.ts';
import { givenTables } from './cli/datadir-schema.ts';
import { countWhere, whereChunks, whereLine, whereOption } from './cli/where-option.ts';
import { whereFilter, type RowWhere } from './core/readers/where.ts';

/** Writes with backpressure, so a multi-GB export never piles up in memory. */
function write(out: Writable, text: string | Uint8Array): Promise<void> | undefined {
  if (out.write(text)) return undefined;
  return new Promise((resolve) => out.once('drain', resolve));
}


/** Output text of rows: CSV bytes or NDJSON lines. */
type Chunk = Uint8Array | string;

/** The rows as output chunks, in key order; Parquet's runs encoded where they are decoded (cli/parquet-output.ts). */
async function decodeAll(table: InnodbTable, args: Args, out: Writable, where: RowWhere | null): Promise<Decoded<Chunk>> {
  if (args.format === 'parquet') return parquetDecoded(table, args.files, args.threads, args.output ?? '', { warn, line: (text) => process.stderr.write(`${text}\n`) }, where ?? undefined);
  const format = (batch: RowBatch) => (args.format === 'csv' ? csvBytes(batch) : ndjsonOf(table.definition, table.reader.columns, batchRows(batch), { strings: args.jsonStrings }));
  return where === null ? decodeChunks(table, args, format, out) : whereChunks(table, args.files, args.threads, where, format);
}

/**
 * The rows as `format` makes them, in key order. With worker threads, CSV is made in the workers (the
 * main thread only writes); NDJSON is made here from their batches. In this thread CSV is written
 * to `out` as it is made (csv-here.ts), no chunk yielded.
 */
async function decodeChunks(table: InnodbTable, args: Args, format: (batch: RowBatch) => Chunk, out: Writable): Promise<Decoded<Chunk>> {
  const { reader } = table;
  const leaves = await reader.leafPages();
  if ((args.threads === 1 || leaves.length < PARALLEL_MIN_PAGES) && args.format === 'csv') {
    // eslint-disable-next-line require-yield -- its CSV goes to `out` as it is made, not through the caller's loop
    async function* written(): AsyncGenerator<Chunk> {
      await writeCsvHere(reader, leaves, out);
    }
    return { chunks: written(), stats: () => Promise.resolve(reader.stats) };
  }
  if (args.threads === 1 || leaves.length < PARALLEL_MIN_PAGES) {
    async function* chunks(): AsyncGenerator<Chunk> {
      for await (const batch of table.batches({ batchSize: 5000, separated: args.format === 'csv' })) yield format(batch);
    }
    return { chunks: chunks(), stats: () => Promise.resolve(reader.stats) };
  }
  const worker = new URL('./decode-worker.mjs', import.meta.url);
  if (args.format === 'csv') {
    const pool = startPool(worker, args.files, table.definition, table.options, 'csv', args.threads);
    // eslint-disable-next-line require-yield -- its CSV goes to `out` as it comes, each buffer back to its worker
    async function* pooled(): AsyncGenerator<Chunk> {
      await writeCsvPooled(pool, leaves, out);
    }
    return { chunks: pooled(), stats: () => Promise.resolve(pool.stats()) };
  }
  const pool = startPool(worker, args.files, table.definition, table.options, 'batch', args.threads);
  return { chunks: inOrder(pool, leaves, format), stats: () => Promise.resolve(pool.stats()) };
}

/** The pool's runs in key order, as chunks (the pool closed at the end: inKeyOrder). */
async function* inOrder<T>(pool: NodePool<T>, leaves: readonly number[], chunk: (run: T) => Chunk): AsyncGenerator<Chunk> {
  for await (const run of inKeyOrder(pool, leaves)) yield chunk(run);
}

/** The decoder's problems, one line each, naming the file, page and record. */
function warnProblems(file: string, problems: readonly Problem[]): void {
  for (const p of problems) warn(problemLine(file, p));
}

/**
 * The verdict on a definition that does not fit the file (DefinitionMismatch), before any row is
 * written: said on stderr with what the records look like (their fields as guessed from them).
 */
async function definitionFits(table: InnodbTable, file: InnodbFile): Promise<boolean> {
  try {
    await table.checkDefinition();
    return true;
  } catch (e) {
    if (!(e instanceof DefinitionMismatch)) throw e;
    process.stderr.write(`ibd-reader: ${e.message}; no row is decoded with it\n`);
  }
  const ts = await Tablespace.open(file.source, { keys: file.keys });
  const guess = await guessColumns(ts, file.name.replace(/\.ibd$/i, ''), table.info.indexId).catch(() => null);
  if (guess !== null) process.stderr.write(`what the records look like, ${formatGuess(guess)}\n`);
  return false;
}

/** Rows of damaged pages left out of this output: how many, and how to get them. */
function warnWithheld(file: string, s: DecodeStats): void {
  if (s.damagedWithheld === 0) return;
  warn(`${file}: ${s.damagedWithheld} ${s.damagedWithheld === 1 ? 'row from damaged pages was' : 'rows from damaged pages were'} withheld (their pages fail the checksum or a structural check); --rows damaged shows them alone, --rows all beside the others, each tagged in _row_state`);
}

/** The library's verdict on the definitions, with what to give or choose on this command line. */
function withHint(e: unknown, args: Args): unknown {
  if (e instanceof NoDefinitionError) return new Error(`${e.message}; give the table definition with --schema FILE.sql (or FILE.frm)`);
  if (e instanceof TableChoiceError) return new Error(`${args.schema ?? e.file}: ${e.detail} (choose one with --table${args.schema === null ? '; see --list-tables' : ''})`);
  return e;
}

/**
 * The definition named by --table, else the one named like the .ibd, else the only one: from
 * --schema, else the .ibd's own or its .frm (the library's). A .frm given with --schema defines its
 * one table, whatever --table says. Where the .ibd's own dictionary differs from --schema, it is said.
 */
function chosenTable(file: InnodbFile, args: Args): TableEntry {
  const name = args.schema !== null && file.tables()[0]?.source === 'frm' && file.dictionary === null ? null : args.table;
  let entry: TableEntry;
  try {
    entry = file.definition(name);
  } catch (e) {
    throw withHint(e, args);
  }
  // Found rather than given: say which, since a .frm, a .sql, the file's own or ibdata1's may each define it.
  if (args.schema === null && entry.source !== 'guess') process.stderr.write(`${file.name}: table definition: ${SOURCE_NAMES[entry.source]} (${entry.file})\n`);
  for (const d of entry.disagreements) warn(d);
  for (const n of entry.dictionary?.notes ?? []) warn(`${entry.name}: ${n}`);
  if (entry.dictionary && entry.dictionary.table.state !== 'live') warn(`${entry.name} was dropped (its data dictionary rows are ${entry.dictionary.table.state}); its rows are read from the pages the server freed`);
  return entry;
}

/** --guess was given (read apart from the other options, see main()). */
let guessMode = false;

/**
 * The table definition: --schema, else the .ibd's own or its .frm; with --guess and none of those, one
 * guessed from the records (definitions/guess/), printed to stderr with its per-field report so it can be
 * corrected and given back with --schema.
 */
async function tableOrGuess(file: InnodbFile, args: Args): Promise<TableEntry> {
  if (args.schema !== null || !guessMode) return chosenTable(file, args);
  try {
    return chosenTable(file, args);
  } catch (e) {
    warn(`${(e as Error).message.replace(/; give the table definition.*$/, '')}; guessing the columns from the records (--guess)`);
  }
  const guessed = await file.guess(args.indexId ?? undefined);
  process.stderr.write(`${formatGuess(guessed.guess)}\n${guessed.guess.createSql};\n`);
  return guessed;
}

/** --count: the rows of every leaf page, summed. */
async function countRows(table: InnodbTable, out: Writable, args: Args): Promise<number> {
  const { count, stats } = await pooledCount(table, args.files, args.threads);
  const { reader } = table;
  const uncounted = count.uncountedPages;
  await write(out, `${count.rows}\n`);
  const file = reader.info.file;
  warnProblems(file, [...reader.stats.problems, ...(stats === reader.stats ? [] : stats.problems)]);
  for (const line of uncountedLines(file, reader.info.indexId, uncounted)) warn(line);
  process.stderr.write(`${file}: ${count.rows} rows on ${count.leafPages - uncounted.length} leaf pages (counted from the record headers${stats.damagedPages > 0 || modeIncludes(reader.mode, 'purged') ? '; damaged pages and free lists decoded' : ', not decoded'})${uncounted.length > 0 ? `; ${uncounted.length} leaf pages could not be counted` : ''}\n`);
  warnWithheld(reader.info.file, stats);
  return anythingAmiss(reader.stats) || anythingAmiss(stats) || uncounted.length > 0 || reader.info.leafSource === 'scan' ? 2 : 0;
}

/** --count with no table definition to be had: the live rows from the record headers of the leaves found by a scan. */
async function countWithoutDefinition(file: InnodbFile, out: Writable): Promise<number> {
  const counted = await file.countLiveRows();
  await write(out, `${counted.rows}\n`);
  process.stderr.write(`${file.name}: ${counted.rows} live rows on ${counted.leaves - counted.uncounted} leaf pages of index ${counted.indexId}, counted from the record headers with no table definition (the leaves found by scanning the file)${counted.uncounted > 0 ? `; ${counted.uncounted} leaf pages could not be counted` : ''}\n`);
  if (counted.damaged > 0) warn(`${file.name}: ${counted.damaged} leaf pages are damaged (they fail the checksum or their record list's checks) and count no live row; with a table definition (--schema), --rows damaged reads what they hold`);
  return counted.uncounted + counted.damaged > 0 ? 2 : 0;
}

/** --list-indexes: every index found by reading every page, on any file (not InnoDB, no page 0). */
async function listFileIndexes(args: Args): Promise<number> {
  const source = await dataFilesOf(args.files);
  try {
    const dictionary = args.pageSize === null ? await systemDictionary(source) : null;
    process.stdout.write(await listIndexes(source, args.pageSize, dictionary && indexNames(dictionary)));
    return 0;
  } finally {
    await source.close();
  }
}

/** A folder given: every table in it (cli/datadir.ts), written to -o OUTDIR, or counted with --list-tables. */
async function runFolder(args: Args): Promise<number> {
  if (args.more.length > 0) throw new UsageError('a folder is read alone: give no other file with it');
  if (args.history || args.revertTrx !== null) throw new UsageError('--history and --revert-trx read one table: give its .ibd file');
  if (!args.listTables && args.output === null) throw new UsageError('a folder\'s tables are written into a folder: name it with -o OUTDIR (or list them with --list-tables)');
  if (args.where !== null) throw new UsageError('--where filters one table\'s rows: give its .ibd file');
  if (args.schema !== null && !args.allTrees) throw new UsageError('--schema with a folder defines its dropped trees whose definition is lost: add --index-id all');
  const timeZone = args.format === 'parquet' || args.sql ? 'UTC' : (await cliTimeZone(args.timeZone, join(args.ibd, 'ibdata1'), (line) => process.stderr.write(`${line}\n`)));
  return readDatadir({
    dir: args.ibd, out: args.listTables ? null : args.output, format: args.sql ? 'sql' : args.format, threads: args.threads, jsonStrings: args.jsonStrings, systemColumns: args.systemColumns, keys: await keysOf(args), timeZone,
    given: args.schema === null ? [] : givenTables(args.schema),
    write: (text) => write(process.stdout, text), say: (line) => process.stderr.write(`${line}\n`),
  });
}

async function run(args: Args): Promise<number> {
  if (statSync(args.ibd, { throwIfNoEntry: false })?.isDirectory() === true) return runFolder(args);
  if (args.sql && args.revertTrx === null && !args.history) throw new UsageError('--format sql is for a folder (ibd-reader DIR -o OUTDIR --format sql), --history or --revert-trx N');
  if (args.allTrees) throw new UsageError('--index-id all is for a folder: ibd-reader DIR -o OUTDIR --schema FILE --index-id all');
  if (args.sql) args.timeZone = 'UTC';
  await sortFiles(args);
  if (args.listIndexes) return listFileIndexes(args);
  // Parquet's TIMESTAMP is an instant (UTC-adjusted): a zone only changes how text shows it.
  if (args.format === 'parquet' && args.timeZone !== null) warn('--time-zone does not apply to --format parquet: its TIMESTAMP columns are instants, read in any zone');
  args.timeZone = args.format === 'parquet' ? null : await cliTimeZone(args.timeZone, args.ibd, (line) => process.stderr.write(`${line}\n`));
  // LOAD DATA reads TIMESTAMP text in the session's zone: the statement sets UTC, the file is written in it.
  if (args.csvFor !== null && args.timeZone !== 'UTC') warn(`--csv-for load-data writes TIMESTAMP values in UTC (its statement loads them so), not ${args.timeZone}`);
  if (args.csvFor !== null) args.timeZone = 'UTC';
  if (args.more.length > 0 || args.partitionColumn) return readPartitions(args);
  const file = await openInnodb(args.ibd, {
    schema: args.schema ?? undefined, keys: await keysOf(args), dictionary: args.dictionary ?? undefined, dataFiles: args.files.slice(1),
    asOnDisk: args.asOnDisk, datadir: args.datadir ?? undefined, logScanWorker: args.threads > 1 ? new URL('./redo-scan-worker.mjs', import.meta.url) : undefined,
  });
  // Recovered pages are made in this thread: the worker threads' reads of the file are served from them.
  const served = await serveRecoveredFile(file, args.files);
  if (pagesReplaced(file.recovery) && served === null) args.threads = 1;
  try {
    const code = await readOpened(file, args);
    return Math.max(code, file.recovery === null ? 0 : sayRecovery(file.name, file.recovery));
  } finally {
    served?.();
  }
}

/** The datadir's redo log, what it did to the file or why not: on stderr; exit status 2 where rows may be stale. */
function sayRecovery(name: string, recovery: RedoRecovery): number {
  for (const line of recoveryLines(name, recovery)) process.stderr.write(`${line}\n`);
  return recoveryAmiss(recovery) ? 2 : 0;
}

/** The rows, count, DDL, page map … of an opened file, as asked. */
async function readOpened(file: InnodbFile, args: Args): Promise<number> {
  let out: Writable | null = null;
  try {
    for (const w of file.warnings) warn(w);
    if (args.listTables) {
      const to = args.output !== null ? createWriteStream(args.output) : process.stdout;
      out = to;
      await listTables(file, { format: textFormat(args), count: async (table) => (await pooledCount(table, args.files, args.threads)).count, write: (text) => write(to, text), warn, progress: (line) => process.stderr.write(`${line}\n`) });
      return 0;
    }
    if (args.listTransactions) return await transactionList(file, args);
    if (args.pageMap || args.page !== null) {
      const stream = (out = args.output !== null ? createWriteStream(args.output) : process.stdout);
      const ndjson = args.format === 'ndjson';
      const keys = file.keys ?? {};
      if (args.page === null) return await writePageMap(file.source, ndjson, keys, (text) => write(stream, text));
      // The records' values need a definition; without one to be had the page is described all the same.
      const entry = args.schema !== null ? await tableOrGuess(file, args) : await tableOrGuess(file, args).catch(() => null);
      return await writePageInspection(file.source, args.page, ndjson, { keys, table: entry?.definition ?? null, timeZone: args.timeZone ?? undefined }, (text) => write(stream, text));
    }
    // Live rows are counted from the record headers: a definition helps find the leaves, none is needed.
    const countAlone = args.count && args.mode === 'live' && args.schema === null && !guessMode;
    const entry = countAlone ? await tableOrGuess(file, args).catch(() => null) : await tableOrGuess(file, args);
    out = args.output !== null ? createWriteStream(args.output) : process.stdout;
    if (args.csvFor !== null) out = new LoadDataOut(out);
    if (entry === null) return await countWithoutDefinition(file, out);
    if (args.printDdl) {
      // A MySQL 8 definition comes from the SDI pages, read in the layout the file was opened with: say when page 0 disagreed.
      const note = (await Tablespace.open(file.source, { keys: file.keys }).catch(() => null))?.headerNote;
      if (note) warn(`${file.name}: ${note}`);
      await write(out, `${entry.definition.createSql.replace(/;?\s*$/, '')};\n`);
      return 0;
    }
    // Through a secondary index, only the crash's rollback (its entries as it leaves them: core/trx/row-undo-sec.ts).
    const taken = args.index === null || (args.beforeTrx === null && !args.history && args.revertTrx === null) ? await rollback(file, args) : null;
    const table = await file.table(entry, { rows: args.mode, indexId: args.indexId ?? undefined, pageSize: args.pageSize ?? undefined, index: args.index ?? undefined, timeZone: args.timeZone ?? undefined, versions: taken?.versions, systemColumns: args.systemColumns });
    for (const w of table.warnings) warn(w);
    const space = await table.spaceDamage();
    for (const w of space.warnings) warn(w);
    const spaceDamaged = space.damaged;
    if (!(await definitionFits(table, file))) return 1;
    const where = args.where === null ? null : await whereOption(args.where, table, args.timeZone);
    const range = keyRange(args.key, args.from, args.to);
    if (args.csvFor !== null && args.output !== null) process.stderr.write(`${await writeLoadData(table.definition, table.columns, args.output)}: the LOAD DATA statement of ${args.output}\n`);
    const stream = out;
    if (args.revertTrx !== null) return Math.max(await revertRun(table, args.revertTrx, (text) => write(stream, text), warn), spaceDamaged ? 2 : 0);
    if (args.history && args.sql) return Math.max(await historySqlRun(table, (text) => write(stream, text), warn), spaceDamaged ? 2 : 0);
    const keep = where === null ? undefined : await whereFilter(where, table.columns, table.definition.columns);
    if (range !== null) return Math.max(await writeLookup(table, range, { format: textFormat(args), jsonStrings: args.jsonStrings, count: args.count, keep, write: (c) => write(stream, c), say: (l) => process.stderr.write(`${l}\n`) }), spaceDamaged ? 2 : 0);
    if (args.count && where !== null) {
      const s = await countWhere(table, args.files, args.threads, where, out);
      warnProblems(file.name, s.problems);
      warnWithheld(file.name, s);
      return anythingAmiss(s) || spaceDamaged ? 2 : 0;
    }
    if (args.count) return Math.max(await countRows(table, out, args), spaceDamaged ? 2 : 0);
    if (args.format === 'csv') await write(out, csvHeader(table.columns));
    const decoded = await decodeAll(table, args, out, where);
    for await (const chunk of decoded.chunks) await write(out, chunk);
    const s = await decoded.stats();
    // Partial rows stand for the rows of lost or damaged clustered leaves: with none, no second pass.
    const lost = s.damagedPages + s.pagesSkipped > 0;
    const hint = lost && args.mode !== 'partial' && args.index === null ? partialHint(file.name, entry.definition) : null;
    if (hint !== null) warn(hint);
    if (lost && args.mode === 'partial' && args.index === null) {
      const zone = args.timeZone ?? undefined;
      const from = partialSource(table, zone, (index) => file.table(entry, { rows: 'live', timeZone: zone, index }));
      await writePartialRows(from, { format: args.format, jsonStrings: args.jsonStrings, columns: table.columns, write: (t) => write(stream, t), say: (l) => process.stderr.write(`${l}\n`) });
    }
    const { info } = table;
    warnProblems(file.name, s.problems);
    if (taken !== null) sayTakenBack(file.name, taken, warn);
    process.stderr.write(`${file.name}: ${s.rowsDecoded} rows from ${s.pagesRead} leaf pages (${info.pageSize / 1024} KB pages, ${info.rowFormat}, ${info.checksumFormat} checksums); ${s.recordsFailed} undecodable records, ${s.pagesSkipped} skipped pages, ${s.badChecksums} bad checksums, ${s.damagedPages} damaged leaf pages\n`);
    process.stderr.write(recoveryReport(file.name, s));
    if (decoded.kept) process.stderr.write(`${whereLine(file.name, decoded.kept(), s.rowsDecoded)}\n`);
    warnWithheld(file.name, s);
    // A partial guess: every row lacks the columns it could not work out (said, and the output called incomplete).
    const partial = entry.definition.partialRecord;
    if (partial !== undefined) warn(`${file.name}: the columns were only partly guessed: ${partial} left out of every row`);
    // Leaves found by scanning: the B-tree above them is damaged, even where every row came back.
    const uncommitted = (taken?.versions.keptRows.size ?? 0) > 0;
    return anythingAmiss(s) || info.leafSource === 'scan' || spaceDamaged || uncommitted || partial !== undefined || decoded.amiss?.() === true ? 2 : 0;
  } finally {
    await file.close();
    const stream = out;
    if (stream !== null && stream !== process.stdout) await new Promise<void>((resolve) => stream.end(resolve));
  }
}

/** --list-transactions: of the file's datadir. */
async function transactionList(file: InnodbFile, args: Args): Promise<number> {
  const undo = await datadirUndo(file.dictionary !== null, args);
  if (undo === null) throw new Error(`${args.ibd}: no ibdata1 beside its database folder, whose undo logs --list-transactions reads (give the ibdata1 itself)`);
  try {
    const dictionary = file.dictionary ?? (await systemDictionary(undo.system.source));
    return await listTransactions(undo, dictionary, (text) => write(process.stdout, text), warn);
  } finally {
    await undo.close();
  }
}

/** Several files: the partitions of one table (src/cli/partitions.ts). */
async function readPartitions(args: Args): Promise<number> {
  const out = args.output !== null ? createWriteStream(args.output) : process.stdout;
  const paths = [args.ibd, ...args.more];
  const keys = await keysOf(args);
  // Through a secondary index, only the crash's rollback (as for one file).
  const taken = args.index === null || args.beforeTrx === null ? await rollbackOf(false, args) : null;
  const run: PartitionRun = {
    asOnDisk: args.asOnDisk, datadir: args.datadir ?? undefined, taken,
    paths, schema: args.schema, table: args.table, keys, rows: args.mode, index: args.index, partitionColumn: args.partitionColumn, timeZone: args.timeZone ?? 'UTC',
    threads: args.threads, range: keyRange(args.key, args.from, args.to), format: args.format, jsonStrings: args.jsonStrings, systemColumns: args.systemColumns, output: args.output, count: args.count, where: args.where, write: (c) => write(out, c), say: (l) => process.stderr.write(`${l}\n`),
  };
  try {
    try {
      return await writePartitions(run);
    } catch (e) {
      // No definition found: with --guess, the columns guessed from the records; else what to give.
      if (!(e instanceof NoDefinitionError) || !guessMode || args.schema !== null) throw withHint(e, args);
      warn(`${e.message}; guessing the columns from the records (--guess)`);
    }
    return await writePartitions({ ...run, definition: await guessedDefinition(paths, keys, run.say) });
  } finally {
    if (out !== process.stdout) await new Promise<void>((resolve) => out.end(resolve));
  }
}

/** An error as said on stderr: a file named by an option (--schema, --key-file …) that is missing, plainly. */
function errorLine(e: unknown): string {
  const { code, path, message } = e as NodeJS.ErrnoException;
  return code === 'ENOENT' && path !== undefined ? `no such file: ${path}` : message;
}

/**
 * A reader that stops reading (`| head`) closes the pipe: stop quietly, as a Unix tool killed by
 * SIGPIPE does (status 128 + 13), not with a stack trace.
 */
function quietOnClosedPipe(e: NodeJS.ErrnoException): void {
  if (e.code !== 'EPIPE') throw e;
  process.exit(141);
}

async function main(): Promise<void> {
  process.stdout.on('error', quietOnClosedPipe);
  let args: Args;
  try {
    const argv = process.argv.slice(2);
    if (argv.includes('--version')) {
      process.stdout.write(`ibd-reader ${version}\n`);
      return;
    }
    guessMode = argv.includes('--guess');
    args = parseArgs(argv.filter((a) => a !== '--guess'));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`${e.message ? `ibd-reader: ${e.message}\n\n` : ''}${USAGE}\n`);
    process.exit(e.message ? 64 : 0);
  }
  try {
    process.exitCode = await run(args);
  } catch (e) {
    process.stderr.write(`ibd-reader: ${errorLine(e)}\n`);
    // A usage error only the files could tell (sortFiles: a partitioned table's files) is one still.
    process.exitCode = e instanceof UsageError ? 64 : 1;
  }
}

void main();
