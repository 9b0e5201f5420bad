/**
 * The library's entry for Node: what index.ts offers, and paths. An .ibd given by its path is read
 * through one file handle (file-source.ts), closed by InnodbFile.close(); the .frm and .sql beside it
 * (FILE.frm, FILE.sql, in any case) are looked at too, unless `files` or `schema` is given, and so is the
 * system tablespace of its server (../ibdata1, beside its database's folder), unless `dictionary`
 * is given. For a system tablespace (ibdata1) the .frm files in the database folders beside it
 * (`db/table.frm`) are its tables' companions. A companion, a schema or a dictionary may be a path.
 * The files of a partitioned table's partitions open as one table (openInnodbPartitions), with the
 * table's .par and .frm beside them.
 *
 *   const file = await openInnodb('/var/lib/mysql/shop/orders.ibd');
 *   const table = await file.table(null, { rows: 'all' });
 *   for await (const row of table.rows()) console.log(row);
 *   await file.close();
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { dblwrFilePageSize, SharedDoublewrite } from '../core/log/doublewrite.ts';
import { logFilesReader, type BoundsReader } from '../core/log/redo-recovery.ts';
import { logCensus, type LogCensus } from '../core/log/redo-scan.ts';
import type { TableDef } from '../core/schema.ts';
import type { ByteSource } from '../core/tablespace/source.ts';
import type { EncryptionKeys } from '../core/tablespace/key-files.ts';
import { Tablespace } from '../core/tablespace/tablespace.ts';
import { fileSource, type FileSource } from '../node/file-source.ts';
import { dataFilePaths, dataFilesOf } from '../node/data-files.ts';
import { logStretchScanner } from '../node/redo-scan-thread.ts';
import { dataFilesSource } from '../core/tablespace/data-files.ts';
import { companionSource, ibdSource, type FileInput, type IbdInput, type OpenInnodbOptions } from './inputs.ts';
import { openSource, type InnodbFile } from './innodb-file.ts';
import { openPartitionSources, partitionedTableName, type PartitionedOptions, type PartitionedTable } from './partitioned-table.ts';

export type { FileInput, IbdInput, NamedData, OpenInnodbOptions } from './inputs.ts';
export * from './exports.ts';

/** What only Node's entry takes. */
export interface NodeOptions {
  /** The datadir whose redo log (ib_logfile0 …, #innodb_redo) rolls the file forward, when it is not the .ibd's (its folder's parent). */
  datadir?: string;
  /** The datadir's redo log read once for all of its files (openSharedRedoLog): used where the file's log is that one, instead of the file reading it again. */
  sharedLog?: SharedRedoLog;
  /** The bundled redo-scan-worker.mjs (src/node/redo-scan-worker.ts): the redo log is then scanned on two threads. */
  logScanWorker?: URL;
}

/**
 * A datadir's redo log opened and read once for every file of it a command opens (ibd-reader DIR -o):
 * its files kept open, its census (which tablespaces it changes, and where in the log: MariaDB
 * 10.8+'s; null for another format), its doublewrite buffer read by the first file that needs it.
 */
export interface SharedRedoLog {
  /** The path of the log's first file (resolved): a file whose datadir's log this is reads through it. */
  path: string;
  log: ByteSource;
  /** Its other files (ib_logfile1 …, MySQL 8.0.30+'s other #ib_redoN). */
  logFiles: readonly ByteSource[];
  census: LogCensus | null;
  /** Its bounds where it is of another format (MySQL's), read by the first file that asks. */
  bounds: BoundsReader;
  doublewrite: SharedDoublewrite;
  close(): Promise<void>;
}

/** Opens the redo log of datadir `dir` and takes its census (an encrypted log's with `keys`), for every file of it to read through it; null when it has no log. */
export async function openSharedRedoLog(dir: string, keys?: EncryptionKeys): Promise<SharedRedoLog | null> {
  const found = redoLogFilesOf(dir);
  if (found.length === 0) return null;
  const files: FileSource[] = [];
  const close = async () => void (await Promise.all(files.map((f) => f.close())));
  try {
    for (const path of found) files.push(await fileSource(path));
    // A log of another format, one that cannot be scanned, or an encrypted one its keys do not
    // decrypt (its records' tablespaces unknown): each file reads it itself, and says why.
    const census = await logCensus(files[0], undefined, keys).catch(() => null);
    const read = logFilesReader(files.slice(1));
    let bounds: ReturnType<BoundsReader> | null = null;
    return { path: resolve(found[0]), log: files[0], logFiles: files.slice(1), census, bounds: (log) => (bounds ??= read(log)), doublewrite: new SharedDoublewrite(), close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** `shared`, where `found` (a file's datadir's log files) is its log. */
function sharedWith(shared: SharedRedoLog | undefined, found: readonly string[]): SharedRedoLog | null {
  return shared !== undefined && found.length > 0 && resolve(found[0]) === shared.path ? shared : null;
}

/** An .ibd or a companion file in Node: a path besides what index.ts takes. */
export type NodeIbdInput = string | IbdInput;
export type NodeFileInput = string | FileInput;

/** Data files given as paths (the CLI's); those given as data are read as companions are. */
function pathsOf(files: readonly NodeFileInput[] | undefined): string[] {
  return (files ?? []).filter((f): f is string => typeof f === 'string');
}

/** The entries of a folder (none when it cannot be read). */
function entriesOf(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * FILE.frm and FILE.sql beside FILE.ibd, the case of the names aside (datadirs hold VIEWERS.frm beside
 * viewers.ibd), as the page pairs them; of the two, resolveSchema prefers the .frm.
 */
function companionsBeside(ibd: string): string[] {
  const stem = basename(ibd).replace(/\.ibd$/i, '');
  return [beside(ibd, `${stem}.frm`), beside(ibd, `${stem}.sql`)].filter((f) => f !== null);
}

/** The file named `want` (the case aside) in the folder of `path`. */
function beside(path: string, want: string): string | null {
  const exact = join(dirname(path), want);
  if (existsSync(exact)) return exact;
  const found = entriesOf(dirname(path)).find((name) => name.toLowerCase() === want.toLowerCase());
  return found === undefined ? null : join(dirname(path), found);
}

/** The datadir an .ibd lies in (datadir/db/t.ibd → datadir; an ibdata1's own folder), or `datadir`. */
function datadirOf(path: string, system: boolean, datadir: string | undefined): string {
  return datadir ?? (system ? dirname(path) : join(dirname(path), '..'));
}

/**
 * The redo log files of a datadir: ib_logfile0, ib_logfile1 … in order, else MySQL 8.0.30+'s
 * #innodb_redo/#ib_redoN (its spares, #ib_redoN_tmp, hold nothing); none when there is no log.
 */
function redoLogFilesOf(dir: string): string[] {
  const numbered = (names: string[], pattern: RegExp) =>
    names.flatMap((n) => {
      const m = pattern.exec(n);
      return m === null ? [] : [{ n, no: Number(m[1]) }];
    }).sort((a, b) => a.no - b.no).map((f) => f.n);
  const logfiles = numbered(entriesOf(dir), /^ib_logfile(\d+)$/);
  if (logfiles[0] === 'ib_logfile0') return logfiles.map((n) => join(dir, n));
  const redoDir = join(dir, '#innodb_redo');
  return numbered(entriesOf(redoDir), /^#ib_redo(\d+)$/).map((n) => join(redoDir, n));
}

/** MySQL 8.0.20+'s doublewrite files in datadir `dir` (`#ib_16384_0.dblwr` …: innodb_doublewrite_dir's default), in order. */
function doublewriteFilesOf(dir: string): string[] {
  return entriesOf(dir).filter((n) => dblwrFilePageSize(n) !== null).sort().map((n) => join(dir, n));
}

/** The system tablespace of the datadir an .ibd lies in (datadir/db/t.ibd → datadir/ibdata1), if there is one. */
function dictionaryBeside(ibd: string): string | null {
  const path = join(dirname(ibd), '..', 'ibdata1');
  return existsSync(path) ? path : null;
}

/**
 * The .frm files of the database folders beside a system tablespace, named `db/table.frm`: read when
 * a table of its dictionary is matched with one (so no file is held open meanwhile).
 */
function frmsOfDatadir(datadir: string): ByteSource[] {
  const out: ByteSource[] = [];
  for (const db of entriesOf(datadir)) {
    const dir = join(datadir, db);
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
    for (const name of entriesOf(dir).filter((n) => n.toLowerCase().endsWith('.frm'))) {
      const path = join(dir, name);
      const size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
      out.push({ name: `${db}/${name}`, size, read: async (offset, length) => (await readFile(path)).subarray(offset, offset + length) });
    }
  }
  return out;
}

/** Whether the file is a system tablespace (space 0), as its page 0 says; the tablespace opened stays with the source. */
async function isSystemSpace(source: ByteSource): Promise<boolean> {
  const ts = await Tablespace.open(source).catch(() => null);
  return ts !== null && ts.fsp.spaceId === 0;
}

/** Opens an .ibd (a path, File, Blob or bytes): throws NotInnodbError when it holds no InnoDB page; finds its table definitions. */
export async function openInnodb(input: NodeIbdInput, options: OpenInnodbOptions<NodeFileInput> & NodeOptions = {}): Promise<InnodbFile> {
  // Companions are read whole while the definitions are found, and closed then.
  const companions: FileSource[] = [];
  const sourceOf = async (f: NodeFileInput): Promise<ByteSource> => {
    if (typeof f !== 'string') return companionSource(f);
    const source = await fileSource(f);
    companions.push(source);
    return source;
  };
  const ibd = typeof input === 'string' ? await dataFilesOf(await dataFilePaths(input, pathsOf(options.dataFiles))) : null;
  const source = ibd ?? (options.dataFiles ? dataFilesSource([ibdSource(input as IbdInput, options.name), ...(await Promise.all(options.dataFiles.map(sourceOf)))]) : ibdSource(input as IbdInput, options.name));
  const path = typeof input === 'string' ? input : null;
  const redoFiles: FileSource[] = [];
  try {
    const system = path !== null && (await isSystemSpace(source));
    const looked = path !== null && options.files === undefined && options.schema === undefined;
    const beside = looked && !system ? companionsBeside(path) : [];
    const files = await Promise.all([...(options.files ?? []), ...beside].map(sourceOf));
    if (looked && system) files.push(...frmsOfDatadir(dirname(path)));
    const schema = options.schema === undefined ? undefined : await sourceOf(options.schema);
    const dictionaryPath = options.dictionary ?? (path !== null && !system && options.schema === undefined ? dictionaryBeside(path) : null);
    const dictionary = dictionaryPath === null ? undefined : await sourceOf(dictionaryPath);
    const dir = path === null ? null : datadirOf(path, system, options.datadir);
    const found = options.redoLog !== undefined || dir === null ? [] : redoLogFilesOf(dir);
    // Its doublewrite buffer is read once, when the log is applied: a companion, closed after.
    const ibdata1 = dir === null || found.length === 0 ? null : join(dir, 'ibdata1');
    const systemTablespace = system ? source : ibdata1 !== null && existsSync(ibdata1) ? await sourceOf(ibdata1) : undefined;
    const doublewriteFiles = dir === null || found.length === 0 ? [] : await Promise.all(doublewriteFilesOf(dir).map(sourceOf));
    const shared = sharedWith(options.sharedLog, found);
    const redoPath = options.redoLog !== undefined ? options.redoLog : (found[0] ?? null);
    // The log is read as pages are: kept open with the file, not closed with the companions (a shared one by its owner).
    if (typeof redoPath === 'string' && shared === null) redoFiles.push(await fileSource(redoPath));
    const redoLog = redoPath === null ? undefined : (shared?.log ?? redoFiles[0] ?? companionSource(redoPath as FileInput));
    if (shared === null) for (const other of found.slice(1)) redoFiles.push(await fileSource(other));
    const redoLogFiles = shared?.logFiles ?? redoFiles.slice(1);
    const logScanner = typeof redoPath === 'string' && shared === null && options.logScanWorker ? logStretchScanner(redoPath, options.logScanWorker) : undefined;
    const close = async () => void (await Promise.all([ibd?.close(), ...redoFiles.map((f) => f.close())]));
    return await openSource(source, { schema, files, keys: options.keys, dictionary, redoLog, redoLogFiles, systemTablespace, doublewriteFiles, asOnDisk: options.asOnDisk, redoCensus: shared?.census, sharedDoublewrite: shared?.doublewrite, boundsReader: shared?.bounds, logScanner }, close);
  } catch (e) {
    await Promise.all([ibd?.close(), ...redoFiles.map((f) => f.close())]);
    throw e;
  } finally {
    await Promise.all(companions.map((c) => c.close()));
  }
}

/** The redo log files of datadir `dir` and its ibdata1 (whose doublewrite buffer restores torn pages), opened by `open`; none without a log. */
async function datadirRedo(dir: string, open: (path: string) => Promise<ByteSource>, asOnDisk: boolean | undefined, sharedLog: SharedRedoLog | undefined) {
  const found = redoLogFilesOf(dir);
  if (found.length === 0) return undefined;
  const ibdata1 = join(dir, 'ibdata1');
  const shared = sharedWith(sharedLog, found);
  const [log, ...logFiles] = shared === null ? await Promise.all(found.map(open)) : [shared.log, ...shared.logFiles];
  const redoShared = { redoCensus: shared?.census, sharedDoublewrite: shared?.doublewrite, boundsReader: shared?.bounds };
  return { log, logFiles, systemTablespace: existsSync(ibdata1) ? await open(ibdata1) : undefined, doublewriteFiles: await Promise.all(doublewriteFilesOf(dir).map(open)), asOnDisk, ...redoShared };
}

/** A partitioned table opened from paths, and the close of its files. */
export interface OpenedPartitions {
  table: PartitionedTable;
  close(): Promise<void>;
}

/**
 * Opens the files of a partitioned table's partitions (t#P#p0.ibd …, given by path) as one table
 * (partitioned-table.ts); the table's .par and .frm beside the first file are looked at too, unless
 * `files` or `schema` is given. The redo log of their datadir rolls each forward, as openInnodb's.
 */
export async function openInnodbPartitions(
  paths: readonly NodeFileInput[], options: OpenInnodbOptions<NodeFileInput> & PartitionedOptions & NodeOptions & { definition?: TableDef } = {},
): Promise<OpenedPartitions> {
  const opened: FileSource[] = [];
  const open = async (f: NodeFileInput): Promise<ByteSource> => {
    if (typeof f !== 'string') return companionSource(f);
    const source = await fileSource(f);
    opened.push(source);
    return source;
  };
  const close = async () => void (await Promise.all(opened.map((s) => s.close())));
  try {
    const ibds = await Promise.all(paths.map(open));
    const table = partitionedTableName(ibds);
    const first = paths[0];
    const found = options.files === undefined && options.schema === undefined && typeof first === 'string' ? [beside(first, `${table}.par`), beside(first, `${table}.frm`)] : [];
    const companions = await Promise.all([...(options.files ?? []), ...found.filter((f): f is string => f !== null)].map(open));
    const schema = options.schema === undefined ? undefined : await open(options.schema);
    const redo = typeof first === 'string' ? await datadirRedo(datadirOf(first, false, options.datadir), open, options.asOnDisk, options.sharedLog) : undefined;
    return { table: await openPartitionSources(ibds, companions, { ...options, schema, redo }), close };
  } catch (e) {
    await close();
    throw e;
  }
}

