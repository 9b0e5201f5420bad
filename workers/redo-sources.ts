/**
 * The files a decoder worker reads, through the redo log of their datadir when the page gave one
 * (`useDatadirLog`): every method that opens a table file asks `fileSource` rather than making a
 * Blob source itself, so the grid, the counts, the page map, the inspector, the indexes and the
 * exports all see the pages as the server's crash recovery would leave them (core/log/). The log is
 * read by Blob slices. Its census (which tablespaces it changes, and where in the log) is taken once
 * per page load, in a worker of its own (decoder-connection.ts), and handed to every worker
 * (`useRedoCensus`); a file it does not change is read as it is, with no scan (a datadir of thousands
 * of tables listed); each other file's pages are indexed from the stretches of the log holding its
 * records only. The recovered sources of the last few files are kept (each with its bounded page
 * cache), not the log.
 */
import { openUndoSources, takenBack, type DatadirUndo, type TakenBack } from '../src/lib/datadir-undo.ts';
import { logFilesReader, recoveryAmiss, recoveryLines, withRedoLog as redoLogged, type RedoRecovery } from '../src/core/log/redo-recovery.ts';
import { logCensus, type LogCensus } from '../src/core/log/redo-scan.ts';
import { LogFormatError } from '../src/core/log/log-file.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';
import { blobSource, sharedBlobSource, type ByteSource } from '../src/core/tablespace/source.ts';
import { censusKey, fileKey, type DatadirLog, type RedoNotice } from './redo-api.ts';
import type { EncryptionKeys } from '../src/core/tablespace/encryption.ts';
import type { NamedBlob } from './schema-api.ts';

/** Files kept read through the log (a partitioned table's partitions, its ibdata1, the listing's last few): each keeps up to 4 MiB of recovered pages. */
const KEPT = 8;

interface Recovered {
  source: ByteSource;
  recovery: RedoRecovery;
}

/** One dropped datadir's log, and what this worker read of it once. */
interface Datadir {
  log: DatadirLog;
  /** Its undo logs, read once (through the log) for the transactions active at the crash; null until asked for. */
  undoLogs: Promise<DatadirUndo | string> | null;
}

/** A log's census as the page hands it over (null: not a 10.8+ log, or it could not be taken), by the log's fileKey; awaited until it comes. */
const censuses = new Map<string, { census: Promise<LogCensus | null>; settle: (c: LogCensus | null) => void }>();

function censusEntry(key: string) {
  let entry = censuses.get(key);
  if (entry === undefined) {
    let settle: (c: LogCensus | null) => void = () => {};
    const census = new Promise<LogCensus | null>((resolve) => (settle = resolve));
    censuses.set(key, (entry = { census, settle }));
  }
  return entry;
}

/** The census of `log` (its censusKey), taken once in the page's census worker, for every file read through it from now on. */
export function useRedoCensus(key: string, census: LogCensus | null): void {
  censusEntry(key).settle(census);
}

/** The census of `log` (an encrypted one's with `keys`' key 1), taken by this worker (the page's census worker): null for a log that is not 10.8+'s. */
export async function takeCensus(log: NamedBlob, keys?: EncryptionKeys): Promise<LogCensus | null> {
  return logCensus(blobSource(log.blob, log.name), undefined, keys).catch((e: unknown) => {
    if (e instanceof LogFormatError) return null;
    throw e;
  });
}

/** The census of the datadir's log, once the page has handed it over. */
function censusOf(log: DatadirLog): Promise<LogCensus | null> {
  return censusEntry(censusKey(log)).census;
}

/** Each dropped datadir's, by the fileKey of each of its files: a file is read through its own datadir's log. */
let datadirs = new Map<string, Datadir>();
/** The files read through the log, least recently used first. */
const recovered = new Map<string, Promise<Recovered>>();

/** Reads each datadir's files through its own log from now on (none: every file as it is). */
export function useDatadirLogs(logs: readonly DatadirLog[]): void {
  datadirs = new Map();
  for (const log of logs) {
    const at: Datadir = { log, undoLogs: null };
    for (const key of log.members) datadirs.set(key, at);
  }
  recovered.clear();
}

/** The datadir whose log `blob` is read through, or null. */
function datadirOf(blob: Blob, name: string): Datadir | null {
  return datadirs.get(fileKey(blob, name)) ?? null;
}

/** A rollback of the transactions active at the crash, for a read of one table, and what is said of it. */
export interface Rollback {
  /** null: none to take back, or the undo logs cannot be read (said in `lines`). */
  taken: TakenBack | null;
  lines: string[];
}

/**
 * The transactions active at the crash, taken back for a read of `blob` (a table file of the
 * datadir, its log applied), as the server's recovery rolls them back; null for another file or as
 * on disk. Each call loads their versions anew: a table's read counts its own rows taken back.
 */
export async function rollbackOf(blob: Blob, name: string): Promise<Rollback | null> {
  const dir = datadirOf(blob, name);
  const at = dir?.log ?? null;
  if (dir === null || at === null || at.asOnDisk) return null;
  if (at.system === null) return { taken: null, lines: [`${name}: no ibdata1 was given with the datadir: transactions active at the crash, if any, are not rolled back, and the rows they changed are shown as on disk`] };
  dir.undoLogs ??= openUndoSources({
    system: sharedBlobSource(at.system.blob, at.system.name),
    undoSpaces: at.undo.map((f) => blobSource(f.blob, f.name)),
    redoLog: blobSource(at.log.blob, at.log.name),
    redoCensus: await censusOf(at),
    keys: at.keys,
  }).catch((e: unknown) => (e instanceof Error ? e.message : String(e)));
  const undo = await dir.undoLogs;
  if (typeof undo === 'string') return { taken: null, lines: [`${name}: the undo logs of the datadir cannot be read (${undo}): rows of transactions active at the crash, if any, are shown as on disk`] };
  const lines: string[] = [];
  // Each transaction's line, with the rows of the table it changed, is the page's once counted (RedoNotice.svelte).
  const taken = await takenBack(undo, null, (line) => lines.push(`${name}: ${line}`));
  return { taken, lines };
}

/** The file `blob` as the decoder reads it: through its datadir's log where one was given, else as it is (`raw`, by default the worker's shared source of it). */
export async function fileSource(blob: Blob, name: string, raw: () => ByteSource = () => sharedBlobSource(blob, name)): Promise<ByteSource> {
  return (await recoveredFile(blob, name))?.source ?? raw();
}

/** What the log did to `blob`'s pages (null: no log for it), in the words of the CLI. */
export async function redoNotice(blob: Blob, name: string): Promise<RedoNotice | null> {
  const got = await recoveredFile(blob, name);
  if (got === null) return null;
  const r = got.recovery;
  return { file: name, unclean: !r.clean, applied: r.applied !== null, rolledBack: [], stale: recoveryAmiss(r) && (r.pagesInLog ?? 1) > 0, lines: pageLines(name, r) };
}

/**
 * `raw` (the bytes of `blob` read already, a small file's in the listing) through the datadir's log
 * where `blob` is the datadir's; not kept (the listing reads each file once).
 */
export async function throughLog(blob: Blob, name: string, raw: ByteSource): Promise<ByteSource> {
  const dir = datadirOf(blob, name);
  return dir === null ? raw : (await rolledForward(raw, dir)).source;
}

async function rolledForward(raw: ByteSource, dir: Datadir): Promise<Recovered> {
  const census = await censusOf(dir.log);
  return (await untouched(raw, dir.log, census)) ?? withRedoLog(raw, dir.log, census);
}

/**
 * `raw` as it is when the log (10.8+'s, after an unclean stop) changes none of its pages, known from
 * the census without a scan of its own; null when it does, or when that is not known that way (a
 * log of another format, a clean one, a file whose page 0 cannot be read: withRedoLog says it).
 */
async function untouched(raw: ByteSource, at: DatadirLog, scan: LogCensus | null): Promise<Recovered | null> {
  if (scan === null || scan.recordCount === 0 || scan.recordsPerSpace.size === 0) return null;
  const ts = await Tablespace.open(raw).catch(() => null);
  if (ts === null || ts.page0Damaged !== null) return null;
  const id = ts.fsp.spaceId;
  if (scan.recordsPerSpace.has(id) || scan.files.some((f) => f.spaceId === id)) return null;
  const files = scan.files.filter((f) => f.op !== 'modify');
  return { source: raw, recovery: { log: at.log.name, bounds: scan.bounds, clean: false, applied: null, notApplied: null, pagesInLog: 0, files } };
}

function withRedoLog(raw: ByteSource, { log, more, system, doublewrite, asOnDisk, keys }: DatadirLog, census: LogCensus | null): Promise<Recovered> {
  return redoLogged(raw, blobSource(log.blob, log.name), {
    apply: !asOnDisk,
    keys,
    census,
    boundsReaders: [logFilesReader(more.map((f) => blobSource(f.blob, f.name)))],
    systemTablespace: system && sharedBlobSource(system.blob, system.name),
    doublewriteFiles: doublewrite.map((f) => blobSource(f.blob, f.name)),
  });
}

function recoveredFile(blob: Blob, name: string): Promise<Recovered> | null {
  const key = fileKey(blob, name);
  const dir = datadirs.get(key);
  if (dir === undefined) return null;
  let got = recovered.get(key);
  if (got) {
    recovered.delete(key);
  } else {
    got = rolledForward(sharedBlobSource(blob, name), dir);
    // A failed read is tried again by the next caller.
    got.catch(() => recovered.delete(key));
    if (recovered.size >= KEPT) recovered.delete(recovered.keys().next().value as string);
  }
  recovered.set(key, got);
  return got;
}

/** The notice of what the log did, with the rollback's lines. */
export function withRollback(notice: RedoNotice | null, rollback: Rollback | null): RedoNotice | null {
  if (notice === null || rollback === null) return notice;
  const rolledBack = [...(rollback.taken?.versions.trxIds ?? [])];
  return { ...notice, rolledBack, stale: notice.stale || (rollback.taken === null && rollback.lines.length > 0), lines: [...notice.lines, ...rollback.lines] };
}

/**
 * recoveryLines as the page shows them: the log's records and pages for the file are applied as each
 * page is read (a worker reads only some), so they are said as what the log holds for it; the switch
 * rather than the CLI's option.
 */
function pageLines(name: string, r: RedoRecovery): string[] {
  const a = r.applied;
  const counted: RedoRecovery = a === null ? r : { ...r, applied: { ...a, pagesRecovered: a.pagesInLog, recordsApplied: a.recordsInLog } };
  return recoveryLines(name, counted).map((line) => line.replace('; --as-on-disk reads the pages as they are', '').replace(' (--as-on-disk)', ' ("as on disk")'));
}
