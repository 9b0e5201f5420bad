/**
 * The CLI's command line: its usage text, the options parsed into Args (a wrong one is a
 * UsageError, exit 64), and the files sorted into a system tablespace's data files or a
 * partitioned table's partitions.
 */
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { CLI_ROW_MODES, isRowMode } from '../core/readers/row-state.ts';
import type { RowMode } from '../core/readers/table-reader.ts';
import { PAGE_SIZES } from '../core/tablespace/orphan-scan.ts';
import { dataFilePaths } from '../node/data-files.ts';
import { checkedZone } from './time-zone.ts';

export const USAGE = `usage: ibd-reader FILE.ibd [--schema FILE.sql|FILE.frm] [--table NAME] [--format csv|ndjson|parquet] [-o OUT]
       ibd-reader FILE.ibd [--schema FILE] --print-ddl
       ibd-reader FILE.ibd [--schema FILE] --count
       ibd-reader FILE.ibd --page-map | --page N [--schema FILE] [--format ndjson]
       ibd-reader T#P#P0.ibd T#P#P1.ibd … [--partition-column] [options as above]
       ibd-reader DIR -o OUTDIR [--format csv|ndjson|parquet|sql] | DIR --list-tables

  --schema FILE      the table definition: CREATE TABLE statement(s) (SHOW CREATE TABLE output or a
                     mysqldump file) or the table's .frm. Not needed for MySQL 8 files, which carry
                     their own, nor when FILE.frm or FILE.sql lies beside FILE.ibd (the .frm wins)
  --table NAME       which table of the schema (default: the one named like FILE.ibd); of a system
                     tablespace (ibdata1), db/table as its data dictionary names it (see --list-tables)
  DIR                a datadir (or any folder of table files): every table, inside ibdata1 or in its
                     own .ibd, dropped ones too, to OUTDIR/<db>/<table>.<ext>, and OUTDIR/tables.tsv
                     (a line per table: where its rows were, rows written and withheld, problems)
  --list-tables      list the tables the file holds (an ibdata1's from its InnoDB data dictionary, dropped
                     ones too; a general tablespace's or mysql.ibd's from their SDI), each row counted
  --dictionary FILE  the system tablespace (ibdata1) whose data dictionary defines FILE.ibd when no .frm
                     is found (default: ../ibdata1 beside FILE.ibd's database folder, if there is one)
  --datadir DIR      the datadir whose redo log (ib_logfile0) rolls FILE forward as the server's crash
                     recovery would (default: FILE.ibd's database folder's parent; an ibdata1's own)
  --print-ddl        print the table's CREATE TABLE (rebuilt from the .ibd or the .frm) and stop
  --count            print the exact number of rows (of --rows) and stop: counted from each leaf
                     page's record headers, no row is decoded
  --guess            when no table definition is given or found, guess the columns from the records:
                     the guessed CREATE TABLE and a report per field go to stderr, rows are decoded with it
                     (a partitioned table's: from its first partition with records, for every partition)
  --format F         csv (default; NULL as \\N), ndjson (one JSON object per row) or parquet (typed
                     columns, into -o OUT; a value its type cannot hold, a zero date, is null and warned)
  --csv-for load-data  CSV that MySQL/MariaDB's LOAD DATA reads back exactly (backslashes escaped,
                     TIMESTAMP in UTC), into -o OUT, with the LOAD DATA statement beside it (OUT.load.sql)
  --where COND       only the rows COND holds for, compared as the server's WHERE does (as the page's
                     filter): column conditions joined by AND, each = <> < <= > >=, [NOT] BETWEEN,
                     [NOT] IN (…), [NOT] LIKE, IS [NOT] NULL against literals; with --count, rows are decoded
  --json-strings     ndjson: every value a string, as CSV shows it (default: integers, DECIMAL, FLOAT,
                     DOUBLE as JSON numbers where a double holds them exactly, BIT as its number)
  --system-columns   end each row with _db_trx_id (DB_TRX_ID: the transaction that wrote it),
                     _db_roll_ptr (DB_ROLL_PTR, 0x + hex), _page and _heap (its leaf page, heap number)
  --threads N        decode with N worker threads (default: one per core)
  --time-zone ZONE   show TIMESTAMP values in ZONE: an IANA name (Europe/Berlin) or an offset (+02:00);
                     default: the server's zone when a .cnf in the file's datadir says it, else UTC
  --key-file FILE    MariaDB file_key_management key file, for an encrypted table
  --key-password PW  its password, when the key file is encrypted (file_key_management_filekey)
  --keyring FILE     MySQL keyring_file, for an encrypted table
  --rows WHICH       live (default: the table as the server shows it, from pages that pass their
                     checksum and structural checks), deleted (deleted rows still in the file:
                     delete-marked and purged), both (live and deleted), damaged (rows read from
                     damaged pages, each value checked, none vouched for), partial (the rows of lost
                     or damaged clustered leaf pages from the secondary indexes: their columns and the
                     key, the others [absent: …]) or all (every state but partial); deleted, both
                     and all add a last column _row_state: live, delete-marked, purged or damaged
  -o, --output OUT   write rows to OUT instead of stdout
  --list-indexes     list the indexes found in the file by reading every page (works on a damaged
                     file and on a raw image without page 0: a disk image, a partial copy, an ibdata1,
                     whose indexes are named by its data dictionary)
  --index-id N       decode index N (see --list-indexes) instead of the table's clustered index; on a
                     raw image, its leaves are found by scanning (give the table's DDL with --schema);
                     all, with DIR and --schema FILE|FOLDER (.sql, .frm): each dropped tree whose
                     definition is lost is read with the first given table whose definition it fits
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
  --list-transactions  a line per transaction the datadir's undo logs hold (of ibdata1, or of FILE.ibd's
                     datadir): id, commit number, state, tables changed, rows inserted/updated/deleted
  --before-trx N     the table as it was before transaction N and every later one changed it (from the
                     undo logs); rows whose earlier version is gone are withheld (--rows both: marked
                     history-lost). Transactions active at a crash are always rolled back, as the server would
  --history          every version of each row the undo logs still hold, newest first, each row ending
                     with _row_state, _trx_id (the transaction that wrote it) and _version (0: as it is);
                     --format sql: CREATE TABLE name_history and its INSERTs
  --revert-trx N --format sql  the statements that put back what transaction N changed (UPDATE, INSERT
                     of what it deleted, DELETE of what it inserted); commented out where a later one changed the row
  --as-on-disk       read the rows as the pages hold them: no redo log rolled forward, no rollback of
                     transactions active at a crash
  --page N           page N described: FIL header and trailer, checksums, its structures, records
                     (their values with a table definition), page directory, a labelled hex dump
  --version          print the version and stop`;

export interface Args {
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
  /** --datadir: where the redo log is (--as-on-disk: none is applied). */
  datadir: string | null;
  indexId: bigint | null;
  /** --index-id all: with a folder and --schema, every dropped tree whose definition is lost (datadir-schema.ts). */
  allTrees: boolean;
  pageSize: number | null;
  pageMap: boolean;
  page: number | null;
  index: string | null;
  key: string | null;
  from: string | null;
  to: string | null;
  /** The files after the first: partitions of one table (with --partition-column, the first alone too), or a system tablespace's further data files. */
  more: string[];
  /** The data files of the tablespace: the first file, and the system tablespace's further ones (ibdata2 …). */
  files: string[];
  partitionColumn: boolean;
  timeZone: string | null;
  /** `--csv-for load-data`: CSV for LOAD DATA (cli/load-data-output.ts). */
  csvFor: 'load-data' | null;
  listTransactions: boolean;
  /** --before-trx N: the table before transaction N (trx/row-vers.ts). */
  beforeTrx: number | null;
  /** --history: every version of each row (cli/history.ts). */
  history: boolean;
  /** --revert-trx N: the SQL reverting transaction N (cli/history.ts). */
  revertTrx: number | null;
  asOnDisk: boolean;
  /** --json-strings: NDJSON values all strings, as CSV shows them. */
  jsonStrings: boolean;
  /** --where COND: the typed filter's text (core/readers/where-parse.ts), or null for every row. */
  where: string | null;
  /** --system-columns: rows end with DB_TRX_ID, DB_ROLL_PTR, page and heap number (core/readers/system-columns.ts). */
  systemColumns: boolean;
  /** --format sql: a folder's tables as SQL a server loads (datadir.ts); refused for a file. */
  sql: boolean;
}

export function parseArgs(argv: string[]): Args {
  const args: Partial<Args> & { format: Args['format']; table: string | null; output: string | null; more: string[] } = { format: 'csv', schema: null, printDdl: false, count: false, table: null, output: null, threads: availableParallelism(), mode: 'live', keyFile: null, keyPassword: undefined, keyring: null, listIndexes: false, listTables: false, dictionary: null, datadir: null, indexId: null, allTrees: false, pageSize: null, pageMap: false, page: null, index: null, key: null, from: null, to: null, more: [], files: [], partitionColumn: false, timeZone: null, csvFor: null, listTransactions: false, beforeTrx: null, history: false, revertTrx: null, asOnDisk: false, jsonStrings: false, systemColumns: false, sql: false, where: null };
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
    else if (a === '--time-zone') args.timeZone = checkedZone(value(), (why) => new UsageError(`--time-zone: ${why}`));
    else if (a === '--keyring') args.keyring = value();
    else if (a === '--list-indexes') args.listIndexes = true;
    else if (a === '--page-map') args.pageMap = true;
    else if (a === '--index') args.index = value();
    else if (a === '--key') args.key = value();
    else if (a === '--from') args.from = value();
    else if (a === '--to') args.to = value();
    else if (a === '--where') args.where = value();
    else if (a === '--partition-column') args.partitionColumn = true;
    else if (a === '--csv-for') {
      if (value() !== 'load-data') throw new UsageError('--csv-for takes load-data');
      args.csvFor = 'load-data';
    }
    else if (a === '--json-strings') args.jsonStrings = true;
    else if (a === '--system-columns') args.systemColumns = true;
    else if (a === '--page') {
      const v = value();
      if (!/^\d+$/.test(v)) throw new UsageError('--page takes a page number');
      args.page = Number(v);
    }
    else if (a === '--list-tables') args.listTables = true;
    else if (a === '--list-transactions') args.listTransactions = true;
    else if (a === '--as-on-disk') args.asOnDisk = true;
    else if (a === '--before-trx') {
      const v = value();
      if (!/^\d+$/.test(v)) throw new UsageError('--before-trx takes a transaction id (see --list-transactions)');
      args.beforeTrx = Number(v);
    }
    else if (a === '--history') args.history = true;
    else if (a === '--revert-trx') {
      const v = value();
      if (!/^\d+$/.test(v)) throw new UsageError('--revert-trx takes a transaction id (see --list-transactions)');
      args.revertTrx = Number(v);
    }
    else if (a === '--dictionary') args.dictionary = value();
    else if (a === '--datadir') args.datadir = value();
    else if (a === '--index-id') {
      const v = value();
      if (v === 'all') args.allTrees = true;
      else if (!/^\d+$/.test(v)) throw new UsageError('--index-id takes an index id (a whole number; see --list-indexes), or all (a folder\'s dropped trees, with --schema)');
      else args.indexId = BigInt(v);
    } else if (a === '--page-size') {
      const n = Number(value());
      if (!PAGE_SIZES.some((size) => size === n)) throw new UsageError(`--page-size takes one of ${PAGE_SIZES.join(', ')}`);
      args.pageSize = n;
    }
    else if (a === '--rows') {
      const m = value();
      if (!isRowMode(m)) throw new UsageError(`--rows takes ${CLI_ROW_MODES.join(', ')}, not '${m}'`);
      args.mode = m;
    } else if (a === '--threads') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) throw new UsageError('--threads takes a whole number, 1 or more');
      args.threads = n;
    }
    else if (a === '--format' || a === '-f') {
      const f = value();
      if (f !== 'csv' && f !== 'ndjson' && f !== 'parquet' && f !== 'sql') throw new UsageError(`unknown format '${f}' (csv, ndjson, parquet, or sql for a folder)`);
      args.sql = f === 'sql';
      args.format = f === 'sql' ? 'csv' : f;
    } else if (a === '--help' || a === '-h') throw new UsageError('');
    else if (a.startsWith('-')) throw new UsageError(`unknown option ${a}`);
    else if (args.ibd === undefined) args.ibd = a;
    else args.more.push(a);
  }
  if (args.ibd === undefined) throw new UsageError('no .ibd file given');
  if (args.key !== null && (args.from !== null || args.to !== null)) throw new UsageError('--key looks up one key; --from and --to a range: not both');
  if (args.format === 'parquet' && args.output === null) throw new UsageError('--format parquet writes a binary file: name it with -o FILE');
  if (args.csvFor !== null && (args.count || args.printDdl || args.listTables || args.listIndexes || args.pageMap || args.page !== null)) throw new UsageError('--csv-for load-data writes a table\'s rows: not with --count, --print-ddl, --list-*, --page-map or --page');
  if (args.csvFor !== null && (args.format !== 'csv' || args.output === null)) throw new UsageError('--csv-for load-data writes CSV (--format csv) to -o FILE, and its LOAD DATA statement beside it');
  historyArgs(args);
  // The rollback of a secondary index's entries (trx/row-undo-sec.ts) takes back a crash's open transactions only.
  if (args.beforeTrx !== null && args.index !== null) throw new UsageError('--before-trx N rebuilds the table from its clustered index and undo logs: not with --index (a secondary index\'s entries are only rolled back for a crash\'s open transactions)');
  if (args.where !== null && (args.printDdl || args.listTables || args.listIndexes || args.listTransactions || args.pageMap || args.page !== null || args.history || args.revertTrx !== null || args.mode === 'partial')) {
    throw new UsageError('--where filters a table\'s rows: not with --print-ddl, --list-*, --page-map, --page, --history, --revert-trx or --rows partial');
  }
  return args as Args;
}

/** --history and --revert-trx read every row's versions, deleted ones too (the state in _row_state): not with the options that read otherwise. */
function historyArgs(args: Partial<Args>): void {
  if (!args.history && args.revertTrx === null) return;
  if (args.revertTrx !== null && !args.sql) throw new UsageError('--revert-trx N writes SQL statements: give --format sql');
  if (args.history && args.revertTrx !== null) throw new UsageError('--history and --revert-trx: one or the other');
  if (args.beforeTrx !== null || args.asOnDisk || args.count || args.index !== null || args.indexId !== null || args.key !== null || args.from !== null || args.to !== null || args.partitionColumn || (args.more?.length ?? 0) > 0) {
    throw new UsageError('--history and --revert-trx read one table\'s clustered index whole, as the pages and undo logs hold it: not with --before-trx, --as-on-disk, --count, --index, --index-id, --key, --from, --to or partitions');
  }
  if (args.mode === 'live' || args.revertTrx !== null) args.mode = 'both';
}

/**
 * Several files: the data files of a system tablespace when the first is one (ibdata1 ibdata2 …),
 * else the partitions of one table. One file that is an ibdata1: with the numbered ones beside it.
 */
export async function sortFiles(args: Args): Promise<void> {
  for (const path of [args.ibd, ...args.more]) await checkInput(path);
  args.files = await dataFilePaths(args.ibd, args.more);
  if (args.files.length > 1) args.more = [];
  if ((args.more.length > 0 || args.partitionColumn) && (args.listIndexes || args.pageMap || args.page !== null || args.printDdl)) throw new UsageError('--list-indexes, --page-map, --page and --print-ddl take one file, not a partitioned table\'s');
  if (args.format === 'parquet' && args.index !== null && (args.more.length > 0 || args.partitionColumn)) throw new UsageError('--index on a partitioned table merges the partitions\' rows into the index\'s order: not with --format parquet, whose runs are written partition by partition');
  if (args.csvFor !== null && (args.more.length > 0 || args.partitionColumn)) throw new UsageError('--csv-for load-data takes one file, not a partitioned table\'s');
  if (args.mode === 'partial' && (args.count || args.index !== null || args.key !== null || args.from !== null || args.to !== null)) throw new UsageError('--rows partial reads the whole table\'s secondary indexes for the keys of its lost leaves: not with --count, --index, --key, --from or --to');
  if (args.format === 'parquet' && (args.key !== null || args.from !== null || args.to !== null || args.count || args.printDdl || args.listTables || args.listIndexes || args.pageMap || args.page !== null)) throw new UsageError('--format parquet writes the rows of a table (of one file or its partitions\'): not with --key, --from, --to, --count, --print-ddl, --list-*, --page-map or --page');
}

/**
 * A file given on the command line that is missing (said plainly, not as ENOENT) or a folder (the
 * CLI reads the files of one table: a folder is a usage error, not a read that failed).
 */
async function checkInput(path: string): Promise<void> {
  const found = await stat(path).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') throw new Error(`no such file: ${path}`);
    throw e;
  });
  if (found.isDirectory()) throw new UsageError(`${path} is a directory: give a table's .ibd file (its .frm or .sql beside it, or --schema), or the files of one partitioned table`);
}

/** The format of listings and lookups: csv or ndjson (parquet is refused there). */
export const textFormat = (args: Args): 'csv' | 'ndjson' => (args.format === 'ndjson' ? 'ndjson' : 'csv');

export class UsageError extends Error {}
