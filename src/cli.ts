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
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import type { Writable } from 'node:stream';
import { csvBytes } from './core/writers/csv-bytes.ts';
import { csvHeader, ndjsonRows } from './core/writers/output.ts';
import { decodeInParallel } from './core/readers/parallel.ts';
import { batchRows, type RowBatch } from './core/values/row-batch.ts';
import { loadKeyFile, parseMysqlKeyring, type EncryptionKeys } from './core/tablespace/encryption.ts';
import { anythingAmiss } from './core/readers/decode-stats.ts';
import { isRowMode, modeIncludes, ROW_MODES } from './core/readers/row-state.ts';
import { DefinitionMismatch, type DecodeStats, type Problem, type RowMode } from './core/readers/table-reader.ts';
import { Tablespace } from './core/tablespace/tablespace.ts';
import { leafTruncation } from './core/btree/truncation.ts';
import { formatGuess, guessColumns } from './core/definitions/guess/index.ts';
import { listIndexes, recoveryReport } from './core/readers/recovery-target.ts';
import { indexNames } from './core/definitions/dictionary/dict-tables.ts';
import { systemDictionary } from './core/definitions/dictionary/system-schema.ts';
import { PAGE_SIZES } from './core/tablespace/orphan-scan.ts';
import { NoDefinitionError, TableChoiceError, type TableEntry } from './lib/definitions.ts';
import type { InnodbFile } from './lib/innodb-file.ts';
import { sumLeafCounts, type InnodbTable, type RowCount } from './lib/innodb-table.ts';
import { openInnodb } from './lib/node.ts';
import { fileSource } from './node/file-source.ts';
import { writePageInspection } from './cli/page-inspect.ts';
import { writePageMap } from './cli/page-map.ts';
import { listTables } from './node/list-tables.ts';
import { keyRange, writeLookup } from './cli/lookup.ts';
import { writePartitions } from './cli/partitions.ts';
import { startPool, type NodePool } from './node/pool.ts';
import { ParquetOutput, type Decoded } from './cli/parquet-output.ts';

const USAGE = `usage: ibd-reader FILE.ibd [--schema FILE.sql|FILE.frm] [--table NAME] [--format csv|ndjson|parquet] [-o OUT]
       ibd-reader FILE.ibd [--schema FILE] --print-ddl
       ibd-reader FILE.ibd [--schema FILE] --count
       ibd-reader FILE.ibd --page-map | --page N [--schema FILE] [--format ndjson]
       ibd-reader T#P#P0.ibd T#P#P1.ibd … [--partition-column] [options as above]

  --schema FILE      the table definition: CREATE TABLE statement(s) (SHOW CREATE TABLE output or a
                     mysqldump file) or the table's .frm. Not needed for MySQL 8 files, which carry
                     their own, nor when FILE.frm lies beside FILE.ibd
  --table NAME       which table of the schema (default: the one named like FILE.ibd); of a system
                     tablespace (ibdata1), db/table as its data dictionary names it (see --list-tables)
  --list-tables      list the tables the file holds (an ibdata1's from its InnoDB data dictionary, dropped
                     ones too; a general tablespace's or mysql.ibd's from their SDI), each row counted
  --dictionary FILE  the system tablespace (ibdata1) whose data dictionary defines FILE.ibd when no .frm
                     is found (default: ../ibdata1 beside FILE.ibd's database folder, if there is one)
  --print-ddl        print the table's CREATE TABLE (rebuilt from the .ibd or the .frm) and stop
  --count            print the exact number of rows (of --rows) and stop: counted from each leaf
                     page's record headers, no row is decoded
  --guess            when no table definition is given or found, guess the columns from the records:
                     the guessed CREATE TABLE and a report per field go to stderr, rows are decoded with it
  --format F         csv (default; NULL as \\N), ndjson (one JSON object per row) or parquet (typed
                     columns, into -o OUT; a value its type cannot hold, a zero date, is null and warned)
  --threads N        decode with N worker threads (default: one per core)
  --key-file FILE    MariaDB file_key_management key file, for an encrypted table
  --key-password PW  its password, when the key file is encrypted (file_key_management_filekey)
  --keyring FILE     MySQL keyring_file, for an encrypted table
  --rows WHICH       live (default: the table as the server shows it, from pages that pass their
                     checksum and structural checks), deleted (deleted rows still in the file:
                     delete-marked and purged), both (live and deleted), damaged (rows read from
                     damaged pages, each value checked, none vouched for) or all (every state);
                     deleted, both and all add a last column _row_state: live, delete-marked,
                     purged or damaged
  -o, --output OUT   write rows to OUT instead of stdout
  --list-indexes     list the indexes found in the file by reading every page (works on a damaged
                     file and on a raw image without page 0: a disk image, a partial copy, an ibdata1,
                     whose indexes are named by its data dictionary)
  --index-id N       decode index N (see --list-indexes) instead of the table's clustered index; on a
                     raw image, its leaves are found by scanning (give the table's DDL with --schema)
  --page-size N      the page size in bytes, when guessing it from the content picks the wrong one
  --index NAME       decode the table's index NAME (from its definition): its columns, then the primary
                     key's, in the index's order (with --index-id N: tree N read as that index)
  --key VALUE        only the rows of this key (of --index, else the primary key), looked up through the
                     B-tree; a composite key as comma-separated parts (\\, for a comma), fewer parts
                     matching every key that begins with them
  --from A, --to B   only the rows whose key lies from A to B (inclusive, in the index's order; either
                     may be left out), looked up the same way
  --partition-column the files given are partitions of one table (T#P#P0.ibd, MySQL 8's T#p#p0.ibd),
                     read as that table in partition order (from T.par, the files' data dictionary or
                     the PARTITION BY clause): end each row with its partition's name (_partition);
                     several files given are read so with or without it
  --page-map         a line per page: number, state (valid, checksum-bad, all-zero, free, missing,
                     unreadable), type, index id, level, records, fill, LSN (text; ndjson with --format)
  --page N           page N described: FIL header and trailer, checksums, its structures, records
                     (their values with a table definition), page directory, a labelled hex dump`;

interface Args {
  ibd: string;
  schema: string | null;
  printDdl: boolean;
  count: boolean;
  table: string | null;
  format: 'csv' | 'ndjson' | 'parquet';
  output: string | null;
  threads: number;
  mode: RowMode;
  keyFile: string | null;
  keyPassword: string | undefined;
  keyring: string | null;
  listIndexes: boolean;
  listTables: boolean;
  dictionary: string | null;
  indexId: bigint | null;
  pageSize: number | null;
  pageMap: boolean;
  page: number | null;
  index: string | null;
  key: string | null;
  from: string | null;
  to: string | null;
  /** The files after the first: partitions of one table (with --partition-column, the first alone too). */
  more: string[];
  partitionColumn: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Partial<Args> & { format: Args['format']; table: string | null; output: string | null; more: string[] } = { format: 'csv', schema: null, printDdl: false, count: false, table: null, output: null, threads: availableParallelism(), mode: 'live', keyFile: null, keyPassword: undefined, keyring: null, listIndexes: false, listTables: false, dictionary: null, indexId: null, pageSize: null, pageMap: false, page: null, index: null, key: null, from: null, to: null, more: [], partitionColumn: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${a} needs a value`);
      return v;
    };
    if (a === '--schema' || a === '-s') args.schema = value();
    else if (a === '--table' || a === '-t') args.table = value();
    else if (a === '--print-ddl') args.printDdl = true;
    else if (a === '--count') args.count = true;
    else if (a === '--output' || a === '-o') args.output = value();
    else if (a === '--key-file') args.keyFile = value();
    else if (a === '--key-password') args.keyPassword = value();
    else if (a === '--keyring') args.keyring = value();
    else if (a === '--list-indexes') args.listIndexes = true;
    else if (a === '--page-map') args.pageMap = true;
    else if (a === '--index') args.index = value();
    else if (a === '--key') args.key = value();
    else if (a === '--from') args.from = value();
    else if (a === '--to') args.to = value();
    else if (a === '--partition-column') args.partitionColumn = true;
    else if (a === '--page') {
      const v = value();
      if (!/^\d+$/.test(v)) throw new UsageError('--page takes a page number');
      args.page = Number(v);
    }
    else if (a === '--list-tables') args.listTables = true;
    else if (a === '--dictionary') args.dictionary = value();
    else if (a === '--index-id') {
      const v = value();
      if (!/^\d+$/.test(v)) throw new UsageError('--index-id takes an index id (a whole number; see --list-indexes)');
      args.indexId = BigInt(v);
    } else if (a === '--page-size') {
      const n = Number(value());
      if (!PAGE_SIZES.some((size) => size === n)) throw new UsageError(`--page-size takes one of ${PAGE_SIZES.join(', ')}`);
      args.pageSize = n;
    }
    else if (a === '--rows') {
      const m = value();
      if (!isRowMode(m)) throw new UsageError(`--rows takes ${ROW_MODES.join(', ')}, not '${m}'`);
      args.mode = m;
    } else if (a === '--threads') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new UsageError('--threads takes a whole number, 1 or more');
      args.threads = n;
    }
    else if (a === '--format' || a === '-f') {
      const f = value();
      if (f !== 'csv' && f !== 'ndjson' && f !== 'parquet') throw new UsageError(`unknown format '${f}' (csv, ndjson or parquet)`);
      args.format = f;
    } else if (a === '--help' || a === '-h') throw new UsageError('');
    else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else if (args.ibd === undefined) args.ibd = a;
    else args.more.push(a);
  }
  if (args.ibd === undefined) throw new UsageError('no .ibd file given');
  if (args.key !== null && (args.from !== null || args.to !== null)) throw new UsageError('--key looks up one key; --from and --to a range: not both');
  if ((args.more.length > 0 || args.partitionColumn) && (args.listIndexes || args.pageMap || args.page !== null || args.printDdl)) throw new UsageError('--list-indexes, --page-map, --page and --print-ddl take one file, not a partitioned table\'s');
  if (args.format === 'parquet' && args.output === null) throw new UsageError('--format parquet writes a binary file: name it with -o FILE');
  if (args.format === 'parquet' && (args.key !== null || args.from !== null || args.to !== null || args.more.length > 0 || args.partitionColumn || args.count || args.printDdl || args.listTables || args.listIndexes || args.pageMap || args.page !== null)) throw new UsageError('--format parquet writes the rows of one file\'s table: not with --key, --from, --to, partitions, --count, --print-ddl, --list-*, --page-map or --page');
  return args as Args;
}

class UsageError extends Error {}

/** The format of listings, lookups and partitions: csv or ndjson (parseArgs refuses parquet there). */
const textFormat = (args: Args): 'csv' | 'ndjson' => (args.format === 'ndjson' ? 'ndjson' : 'csv');

/** Writes with backpressure, so a multi-GB export never piles up in memory. */
function write(out: Writable, text: string | Uint8Array): Promise<void> | undefined {
  if (out.write(text)) return undefined;
  return new Promise((resolve) => out.once('drain', resolve));
}

/** Below this many leaf pages, starting worker threads costs more than it saves. */
const PARALLEL_MIN_PAGES = 256;

/** Output text of rows: CSV bytes or NDJSON lines. */
type Chunk = Uint8Array | string;

/** The rows as output chunks, in key order; Parquet's from the batches in that order (cli/parquet-output.ts). */
async function decodeAll(table: InnodbTable, args: Args): Promise<Decoded<Chunk>> {
  const parquet = args.format === 'parquet' ? new ParquetOutput(table.definition, table.reader.columns) : null;
  const decoded = await decodeChunks(table, args, parquet?.chunk ?? ((batch) => (args.format === 'csv' ? csvBytes(batch) : ndjsonRows(table.reader.columns, batchRows(batch)))));
  return parquet?.decoded(decoded, warn) ?? decoded;
}

/**
 * The rows as `format` makes them, in key order. With worker threads, CSV is made in the workers (the
 * main thread only writes); other formats are made here from their batches.
 */
async function decodeChunks(table: InnodbTable, args: Args, format: (batch: RowBatch) => Chunk): Promise<Decoded<Chunk>> {
  const { reader } = table;
  const leaves = await reader.leafPages();
  if (args.threads === 1 || leaves.length < PARALLEL_MIN_PAGES) {
    async function* chunks(): AsyncGenerator<Chunk> {
      for await (const batch of table.batches({ batchSize: 5000, separated: args.format === 'csv' })) yield format(batch);
    }
    return { chunks: chunks(), stats: () => Promise.resolve(reader.stats) };
  }
  const worker = new URL('./decode-worker.mjs', import.meta.url);
  if (args.format === 'csv') {
    const pool = startPool(worker, args.ibd, table.definition, table.options, 'csv', args.threads);
    return { chunks: inOrder(pool, leaves, (bytes) => bytes), stats: () => Promise.resolve(pool.stats()) };
  }
  const pool = startPool(worker, args.ibd, table.definition, table.options, 'batch', args.threads);
  return { chunks: inOrder(pool, leaves, format), stats: () => Promise.resolve(pool.stats()) };
}

/** The pool's runs in key order, as chunks; the pool is closed at the end (or when the caller stops). */
async function* inOrder<T>(pool: NodePool<T>, leaves: readonly number[], chunk: (run: T) => Chunk): AsyncGenerator<Chunk> {
  try {
    for await (const run of decodeInParallel(leaves, pool.decoders)) yield chunk(run.batch);
  } finally {
    await pool.close();
  }
}

function warn(message: string): void {
  process.stderr.write(`warning: ${message}\n`);
}

/** The decoder's problems, one line each, naming the file, page and record. */
function warnProblems(file: string, problems: readonly Problem[]): void {
  for (const p of problems) warn(`${file}${p.page !== null ? `, page ${p.page}` : ''}${p.record !== null ? `, record at ${p.record}` : ''}: ${p.message}`);
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

/** The encryption keys of --key-file and --keyring. */
async function keysOf(args: Args): Promise<EncryptionKeys> {
  const keys: EncryptionKeys = {};
  if (args.keyFile !== null) keys.mariadb = await loadKeyFile(new Uint8Array(await readFile(args.keyFile)), args.keyPassword);
  if (args.keyring !== null) keys.mysql = parseMysqlKeyring(new Uint8Array(await readFile(args.keyring)));
  return keys;
}

/** Leaf pages per run of a count in the worker threads (4 MB of 16 KB pages, one read each). */
const COUNT_RUN_PAGES = 256;

/**
 * The rows of each leaf page from its record headers (leaf-counts.ts), in the worker threads where
 * there are enough pages (each page's checksum is most of a count's work), and the counters'
 * statistics (their damaged pages, problems).
 */
async function leafCounts(table: InnodbTable, args: Args): Promise<{ count: RowCount; stats: DecodeStats }> {
  const leaves = await table.reader.leafPages();
  if (args.threads === 1 || leaves.length < PARALLEL_MIN_PAGES) return { count: await table.count(), stats: table.stats };
  const pool = startPool(new URL('./decode-worker.mjs', import.meta.url), args.ibd, table.definition, table.options, 'count', args.threads);
  const counts = new Int32Array(leaves.length);
  let at = 0;
  try {
    for await (const run of decodeInParallel(leaves, pool.decoders, { runPages: COUNT_RUN_PAGES })) {
      counts.set(run.batch, at);
      at += run.batch.length;
    }
    return { count: sumLeafCounts(leaves, counts), stats: pool.stats() };
  } finally {
    await pool.close();
  }
}

/** --count: the rows of every leaf page, summed. */
async function countRows(table: InnodbTable, out: Writable, args: Args): Promise<number> {
  const { count, stats } = await leafCounts(table, args);
  const { reader } = table;
  const uncounted = count.uncountedPages;
  await write(out, `${count.rows}\n`);
  const file = reader.info.file;
  warnProblems(file, [...reader.stats.problems, ...(stats === reader.stats ? [] : stats.problems)]);
  for (const page of uncounted.slice(0, 20)) warn(`${file}, page ${page}: not a readable leaf page of index ${reader.info.indexId}; its rows are not in the count`);
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

/**
 * What is wrong with the file as a whole, said before its rows: page 0 damaged, space flags that
 * disagree with the pages, the file cut short. Whether the file is damaged so (exit status 2).
 */
async function warnSpace(file: InnodbFile, table: InnodbTable): Promise<boolean> {
  if (table.options.raw) return false;
  const { source } = file;
  const ts = await Tablespace.open(source, { keys: file.keys });
  if (ts.headerNote !== null) warn(`${source.name}: ${ts.headerNote}`);
  const cut = await leafTruncation(ts, await table.reader.leafPages().catch(() => []));
  if (cut !== null) warn(`${source.name}: ${cut.message}`);
  return ts.page0Damaged !== null || cut !== null;
}

/** --list-indexes: every index found by reading every page, on any file (not InnoDB, no page 0). */
async function listFileIndexes(args: Args): Promise<number> {
  const source = await fileSource(args.ibd);
  try {
    const dictionary = args.pageSize === null ? await systemDictionary(source) : null;
    process.stdout.write(await listIndexes(source, args.pageSize, dictionary && indexNames(dictionary)));
    return 0;
  } finally {
    await source.close();
  }
}

async function run(args: Args): Promise<number> {
  if (args.listIndexes) return listFileIndexes(args);
  if (args.more.length > 0 || args.partitionColumn) return readPartitions(args);
  const file = await openInnodb(args.ibd, { schema: args.schema ?? undefined, keys: await keysOf(args), dictionary: args.dictionary ?? undefined });
  let out: Writable | null = null;
  try {
    for (const w of file.warnings) warn(w);
    if (args.listTables) {
      const to = args.output !== null ? createWriteStream(args.output) : process.stdout;
      out = to;
      await listTables(file, textFormat(args), (text) => write(to, text));
      return 0;
    }
    if (args.pageMap || args.page !== null) {
      const stream = (out = args.output !== null ? createWriteStream(args.output) : process.stdout);
      const ndjson = args.format === 'ndjson';
      const keys = file.keys ?? {};
      if (args.page === null) return await writePageMap(file.source, ndjson, keys, (text) => write(stream, text));
      // The records' values need a definition; without one to be had the page is described all the same.
      const entry = args.schema !== null ? await tableOrGuess(file, args) : await tableOrGuess(file, args).catch(() => null);
      return await writePageInspection(file.source, args.page, ndjson, { keys, table: entry?.definition ?? null }, (text) => write(stream, text));
    }
    // Live rows are counted from the record headers: a definition helps find the leaves, none is needed.
    const countAlone = args.count && args.mode === 'live' && args.schema === null && !guessMode;
    const entry = countAlone ? await tableOrGuess(file, args).catch(() => null) : await tableOrGuess(file, args);
    out = args.output !== null ? createWriteStream(args.output) : process.stdout;
    if (entry === null) return await countWithoutDefinition(file, out);
    if (args.printDdl) {
      await write(out, `${entry.definition.createSql.replace(/;?\s*$/, '')};\n`);
      return 0;
    }
    const table = await file.table(entry, { rows: args.mode, indexId: args.indexId ?? undefined, pageSize: args.pageSize ?? undefined, index: args.index ?? undefined });
    for (const w of table.warnings) warn(w);
    const spaceDamaged = await warnSpace(file, table);
    if (!(await definitionFits(table, file))) return 1;
    const range = keyRange(args.key, args.from, args.to);
    const stream = out;
    if (range !== null) return Math.max(await writeLookup(table, range, { format: textFormat(args), count: args.count, write: (c) => write(stream, c), say: (l) => process.stderr.write(`${l}\n`) }), spaceDamaged ? 2 : 0);
    if (args.count) return Math.max(await countRows(table, out, args), spaceDamaged ? 2 : 0);
    if (args.format === 'csv') await write(out, csvHeader(table.columns));
    const decoded = await decodeAll(table, args);
    for await (const chunk of decoded.chunks) await write(out, chunk);
    const s = await decoded.stats();
    const { info } = table;
    warnProblems(file.name, s.problems);
    process.stderr.write(`${file.name}: ${s.rowsDecoded} rows from ${s.pagesRead} leaf pages (${info.pageSize / 1024} KB pages, ${info.rowFormat}, ${info.checksumFormat} checksums); ${s.recordsFailed} undecodable records, ${s.pagesSkipped} skipped pages, ${s.badChecksums} bad checksums, ${s.damagedPages} damaged leaf pages\n`);
    process.stderr.write(recoveryReport(file.name, s));
    warnWithheld(file.name, s);
    // Leaves found by scanning: the B-tree above them is damaged, even where every row came back.
    return anythingAmiss(s) || info.leafSource === 'scan' || spaceDamaged || decoded.amiss?.() === true ? 2 : 0;
  } finally {
    await file.close();
    const stream = out;
    if (stream !== null && stream !== process.stdout) await new Promise<void>((resolve) => stream.end(resolve));
  }
}

/** Several files: the partitions of one table (src/cli/partitions.ts). */
async function readPartitions(args: Args): Promise<number> {
  const out = args.output !== null ? createWriteStream(args.output) : process.stdout;
  try {
    return await writePartitions({
      paths: [args.ibd, ...args.more], schema: args.schema, table: args.table, keys: await keysOf(args), rows: args.mode, index: args.index, partitionColumn: args.partitionColumn,
      range: keyRange(args.key, args.from, args.to), format: textFormat(args), count: args.count, write: (c) => write(out, c), say: (l) => process.stderr.write(`${l}\n`),
    });
  } finally {
    if (out !== process.stdout) await new Promise<void>((resolve) => out.end(resolve));
  }
}

async function main(): Promise<void> {
  let args: Args;
  try {
    const argv = process.argv.slice(2);
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
    process.stderr.write(`ibd-reader: ${(e as Error).message}\n`);
    process.exitCode = 1;
  }
}

void main();
