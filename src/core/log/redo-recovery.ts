/**
 * A table file read with its datadir's redo log: the log opened (appliable when MariaDB 10.8+'s,
 * else its bounds only, from a reader of another format given by the caller), and the file's pages
 * rolled forward where it applies (recovered-source.ts). What was done, or why not, is kept for the
 * summary and the CLI to say: an unclean datadir never reads as if its files were current.
 */
import type { EncryptionKeys } from '../tablespace/encryption.ts';
import type { ByteSource } from '../tablespace/source.ts';
import { Tablespace } from '../tablespace/tablespace.ts';
import { redoLogBounds } from './log-bounds-detect.ts';
import { Doublewrite, type DoublewriteOptions, type SharedDoublewrite } from './doublewrite.ts';
import { doublewriteRestored, withPagesReplaced } from './doublewrite-restore.ts';
import { LogFormatError } from './log-file.ts';
import type { RedoLogBounds } from './log-types.ts';
import { recoveredSource, spaceIdInLog, unappliableTo, type RecoveryStats } from './recovered-source.ts';
import { scanRedoLog, type FileOperation, type LogCensus, type RedoScan } from './redo-scan.ts';
import { scanRedoLogSplit, type LogStretchScanner } from './redo-scan-split.ts';

/** Reads the bounds of a redo log of another format (MariaDB 10.5-10.7, MySQL): null when it is not its format. */
export type BoundsReader = (log: ByteSource) => Promise<RedoLogBounds | null>;

/**
 * The reader of the bounds of a log of another format whose first file is the `log` given to
 * withRedoLog and whose other files (ib_logfile1 …, or the other #ib_redoN) are `rest`.
 */
export function logFilesReader(rest: readonly ByteSource[]): BoundsReader {
  return (log) => redoLogBounds([log, ...rest]);
}

export interface RedoOptions {
  /** Apply the log (the default); false: only say what it would change (--as-on-disk). */
  apply?: boolean;
  /** Readers of other formats' bounds (logaux's), tried where the log is not 10.8+'s. */
  boundsReaders?: readonly BoundsReader[];
  /** The datadir's system tablespace (ibdata1): its doublewrite buffer restores pages the crash tore. */
  systemTablespace?: ByteSource | null;
  /** MySQL 8.0.20+'s doublewrite files (`#ib_16384_0.dblwr` …): where given, the buffer is theirs, not ibdata1's. */
  doublewriteFiles?: readonly ByteSource[];
  /** The keys of an encrypted log (innodb_encrypt_log: key 1 of the key file). */
  keys?: EncryptionKeys;
  /** The log's census, taken once for every file of the datadir (logCensus): only the stretches of the log holding the file's records are read. */
  census?: LogCensus | null;
  /** The datadir's doublewrite buffer, read once for all of its files: where given, the buffer of systemTablespace or doublewriteFiles is read through it. */
  sharedDoublewrite?: SharedDoublewrite;
  /** A worker that scans the second half of a plain log while this thread scans the first (redo-scan-split.ts); not used with a census. */
  logScanner?: LogStretchScanner;
  signal?: AbortSignal;
}

/** What the redo log of a table file's datadir did to it, or why it did nothing. */
export interface RedoRecovery {
  /** The log file's name. */
  log: string;
  /** Its bounds, when it could be read at all. */
  bounds: RedoLogBounds | null;
  /** The server stopped cleanly: nothing was logged after the checkpoint but the checkpoint itself. */
  clean: boolean;
  /** The log was applied to the file's pages: what it did (filled in as pages are read). */
  applied: RecoveryStats | null;
  /** Why the log was not applied although the datadir was not shut down cleanly (its rows may then be stale); null otherwise. */
  notApplied: string | null;
  /** The table's pages the log changes after its checkpoint (known from a 10.8+ log even when it is not applied), or null. */
  pagesInLog: number | null;
  /** Tablespace files created, deleted or renamed after the checkpoint (FILE_CREATE, FILE_DELETE, FILE_RENAME). */
  files: FileOperation[];
  /** Where the log is not applied: the torn pages read from the doublewrite buffer's intact copies instead, and whose buffer (its files). */
  doublewrite?: { pages: number[]; from: string };
}

/**
 * The file `file` as the datadir's log `log` leaves it: the recovered source (or the file where the log
 * is not applied), and the account of it. `boundsReaders` read other formats' bounds.
 */
export async function withRedoLog(file: ByteSource, log: ByteSource, options: RedoOptions = {}): Promise<{ source: ByteSource; recovery: RedoRecovery }> {
  return (await withRedoLogAll([file], log, options))[0];
}

/**
 * Several files of one datadir (its ibdata1 and undo tablespaces) as its log leaves them, the log
 * indexed once for all of them: withRedoLog for each.
 */
export async function withRedoLogAll(files: readonly ByteSource[], log: ByteSource, options: RedoOptions = {}): Promise<{ source: ByteSource; recovery: RedoRecovery }[]> {
  const { boundsReaders = [], signal } = options;
  const fresh = (): RedoRecovery => ({ log: log.name, bounds: null, clean: false, applied: null, notApplied: null, pagesInLog: null, files: [] });
  const opened = await Promise.all(files.map((f) => Tablespace.open(f).catch(() => null)));
  const ids: (number | null)[] = opened.map((ts) => (ts !== null && ts.page0Damaged === null ? ts.fsp.spaceId : null));
  const indexed = () => new Set(ids.filter((id): id is number => id !== null));
  const { logScanner, census } = options;
  const scanIndexed = () => (logScanner && !census ? scanRedoLogSplit(log, indexed(), logScanner, signal, options.keys) : scanRedoLog(log, indexed(), signal, options.keys, census));
  let scan: RedoScan;
  try {
    scan = await scanIndexed();
  } catch (e) {
    if (!(e instanceof LogFormatError)) throw e;
    const recovery = await boundsOnly(fresh(), log, e, boundsReaders);
    // (a torn page 0 hides no space id from the other pages' headers: opened[k].fsp has it)
    return tornPagesOnly(files, opened.map((ts) => ts?.fsp.spaceId ?? null), recovery, options);
  }
  if (ids.includes(null)) {
    // A file whose page 0 was never written: the log names its tablespace, then indexes its pages.
    const named = ids.map((id, k) => id ?? spaceIdInLog(scan, files[k].name));
    if (named.some((id, k) => id !== ids[k])) {
      ids.splice(0, ids.length, ...named);
      scan = await scanIndexed();
    }
  }
  const clean = scan.recordCount === 0;
  const buffer = clean || options.apply === false ? null : await doublewriteOf(options.systemTablespace ?? null, scan.bounds, options.sharedDoublewrite);
  const out = [];
  for (let k = 0; k < files.length; k++) {
    const recovery = fresh();
    recovery.bounds = scan.bounds;
    recovery.clean = clean;
    recovery.files = scan.files.filter((f) => f.op !== 'modify');
    const torn = opened[k] === null || opened[k]?.page0Damaged !== null;
    out.push(clean ? { source: files[k], recovery } : await recoverFile(files[k], scan, ids[k], torn, buffer, recovery, options));
  }
  return out;
}

/** One file of an unclean datadir rolled forward by the log's `scan` (`torn`: its page 0 cannot be read). */
async function recoverFile(file: ByteSource, scan: RedoScan, spaceId: number | null, torn: boolean, buffer: Doublewrite | null, recovery: RedoRecovery, options: RedoOptions): Promise<{ source: ByteSource; recovery: RedoRecovery }> {
  // A page 0 torn by the crash is taken from the buffer before the file's format is read from it.
  const page0 = spaceId !== null && torn ? buffer?.copyOf(spaceId, 0) : null;
  const raw = page0 ? withPagesReplaced(file, new Map([[0, page0]]), page0.length, 'page 0 from the doublewrite buffer') : file;
  if (spaceId === null) {
    recovery.notApplied = `the file's page 0 cannot be read and the log does not name ${raw.name}`;
    return { source: raw, recovery };
  }
  // An encrypted log that is not decrypted hides which pages its records change.
  const pagesKnown = scan.header.encryption !== 'stream' || scan.crypt !== null;
  recovery.pagesInLog = pagesKnown ? (scan.pages.get(spaceId)?.size ?? 0) : null;
  const why = await unappliableTo(raw, scan, spaceId);
  if (why !== null) {
    recovery.notApplied = why;
    return { source: raw, recovery };
  }
  if (recovery.pagesInLog === 0) return { source: raw, recovery };
  if (options.apply === false) {
    recovery.notApplied = 'the pages are read as they are on disk, as asked (--as-on-disk)';
    return { source: raw, recovery };
  }
  const { source, stats } = await recoveredSource(raw, scan, spaceId, buffer);
  if (page0) stats.restored.unshift(0);
  recovery.applied = stats;
  return { source, recovery };
}

/**
 * The copies of the doublewrite buffer of the system tablespace `system` written between the log's
 * checkpoint and its end (older ones the file had whole already; newer ones the log cannot match);
 * none when there is no buffer, or it cannot be read (its pages are then read as the file has them).
 */
async function doublewriteOf(system: ByteSource | null, bounds: RedoLogBounds, shared: SharedDoublewrite | undefined): Promise<Doublewrite | null> {
  if (system === null) return null;
  return bufferOf({ lsnRange: { from: bounds.checkpointLsn, to: bounds.endLsn } }, (within) => Doublewrite.fromSystemTablespace(system, within), shared);
}

/** The buffer `read` gives `within` (through `shared` when given, read once for the datadir), or null when it cannot be read. */
function bufferOf(within: DoublewriteOptions, read: (within: DoublewriteOptions) => Promise<Doublewrite | null>, shared: SharedDoublewrite | undefined): Promise<Doublewrite | null> {
  const caught = (o: DoublewriteOptions) => read(o).catch(() => null);
  return shared ? shared.read(within, caught) : caught(within);
}

/**
 * The files of a datadir whose log is not applied (MySQL's), after an unclean stop: each with its
 * torn pages read from the doublewrite buffer's copies written between the log's checkpoint and its
 * end, as MySQL's recovery restores them before it applies its log; the buffer of its
 * `#ib_*.dblwr` files where there are any (MySQL 8.0.20+ reads no other), else ibdata1's.
 */
async function tornPagesOnly(files: readonly ByteSource[], ids: readonly (number | null)[], recovery: RedoRecovery, options: RedoOptions): Promise<{ source: ByteSource; recovery: RedoRecovery }[]> {
  const b = recovery.bounds;
  const dblwr = options.doublewriteFiles ?? [];
  if (b === null || recovery.clean || options.apply === false || (dblwr.length === 0 && !options.systemTablespace)) return files.map((source) => ({ source, recovery: { ...recovery } }));
  // A MySQL buffer holds the pages of every table: only the files' own are checked (their ids in the clear).
  const known = ids.filter((id): id is number => id !== null);
  const within = { lsnRange: { from: b.checkpointLsn, to: b.endLsn }, spaceIds: b.format.startsWith('MySQL') ? new Set(known) : undefined };
  const buffer = await bufferOf(within, (o) => (dblwr.length > 0 ? Doublewrite.fromFiles(dblwr, o) : Doublewrite.fromSystemTablespace(options.systemTablespace!, o)), options.sharedDoublewrite);
  const from = dblwr.length > 0 ? dblwr.map((f) => baseName(f.name)).join(', ') : baseName(options.systemTablespace!.name);
  const out = [];
  for (const file of files) {
    const { source, restored } = buffer === null ? { source: file, restored: [] } : await doublewriteRestored(file, buffer, options.keys);
    out.push({ source, recovery: restored.length === 0 ? { ...recovery } : { ...recovery, doublewrite: { pages: restored, from } } });
  }
  return out;
}

const baseName = (n: string) => n.replace(/^.*[\\/]/, '');

/** A log that is not 10.8+'s: its bounds from the readers of other formats, if one knows it. */
async function boundsOnly(recovery: RedoRecovery, log: ByteSource, error: LogFormatError, readers: readonly BoundsReader[]): Promise<RedoRecovery> {
  let why = error.message;
  for (const read of readers) {
    // A reader that knows the format but finds the log damaged says why better than the 10.8 reader.
    const bounds = await read(log).catch((e: unknown) => {
      why = (e as Error).message;
      return null;
    });
    if (bounds === null) continue;
    recovery.bounds = bounds;
    recovery.clean = bounds.endLsn <= bounds.checkpointLsn;
    if (!recovery.clean) recovery.notApplied = `a ${bounds.format} redo log is not applied by this reader (only MariaDB 10.8+'s are)`;
    return recovery;
  }
  recovery.notApplied = `the redo log cannot be read: ${why}`;
  return recovery;
}

/** The lines that say what the log did, or why not, for a file (the CLI's stderr, the library's summary). */
export function recoveryLines(file: string, r: RedoRecovery): string[] {
  const lines: string[] = [];
  const b = r.bounds;
  if (b !== null && r.clean) return [`${file}: the datadir was shut down cleanly (${r.log}: checkpoint at LSN ${b.checkpointLsn}, nothing logged after it)`];
  const from = b === null ? '' : ` (${r.log}, ${b.format}${b.creator ? `, ${b.creator}` : ''}: checkpoint at LSN ${b.checkpointLsn}, log ends at LSN ${b.endLsn})`;
  lines.push(`${file}: the datadir was not shut down cleanly${from}`);
  if (r.applied !== null) {
    const a = r.applied;
    lines.push(`${file}: rolled forward from the checkpoint: ${a.recordsApplied} log records applied to ${a.pagesRecovered} of the ${a.pagesInLog} pages of this table the log changes${a.pagesBeyondEnd > 0 ? ` (${a.pagesBeyondEnd} of them beyond the file's end, built from the log)` : ''}; --as-on-disk reads the pages as they are`);
    if (a.restored.length > 0) lines.push(`${file}: ${a.restored.length} pages restored from the doublewrite buffer (torn by the crash: pages ${a.restored.join(', ')})`);
    for (const f of a.failed) lines.push(`${file}: page ${f.page}: ${f.why}; the page is read as the file has it, and may be stale`);
  } else if (r.notApplied !== null) {
    const pages = r.pagesInLog === null ? '' : ` ${r.pagesInLog} pages of this table were changed after the checkpoint;`;
    lines.push(`${file}: the log is not applied: ${r.notApplied};${pages} rows may be stale (older than what the server committed), missing or deleted rows still shown`);
  }
  const dw = r.doublewrite;
  if (dw) lines.push(`${file}: ${dw.pages.length} pages restored from ${dw.from} (torn by the crash, read as the doublewrite buffer's intact copies: pages ${dw.pages.join(', ')})`);
  for (const f of r.files) {
    const what = f.op === 'create' ? 'created' : f.op === 'delete' ? 'deleted (dropped)' : `renamed to ${f.newName ?? '?'}`;
    lines.push(`${file}: after the checkpoint, ${f.name} (tablespace ${f.spaceId}) was ${what}`);
  }
  return lines;
}

/**
 * Whether the file is read otherwise than as it is on disk: rolled forward by the log, or torn pages
 * taken from the doublewrite buffer (other threads reading the file itself would not see them).
 */
export function pagesReplaced(r: RedoRecovery | null | undefined): boolean {
  return !!r && (r.applied !== null || (r.doublewrite?.pages.length ?? 0) > 0);
}

/** Whether what the log did leaves the rows possibly stale: not applied, or some page's records failed. */
export function recoveryAmiss(r: RedoRecovery): boolean {
  return r.notApplied !== null || (r.applied !== null && r.applied.failed.length > 0);
}
