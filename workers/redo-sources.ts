/**
 * The files a decoder worker reads, through the redo log of their datadir when the page gave one
 * (`useDatadirLog`): every method that opens a table file asks `fileSource` rather than making a
 * Blob source itself, so the grid, the counts, the page map, the inspector, the indexes and the
 * exports all see the pages as the server's crash recovery would leave them (core/log/). The log is
 * read by Blob slices and scanned once per file in this worker; the recovered sources of the last
 * few files are kept (each with its bounded page cache), not the log.
 */
import { logFilesReader, recoveryAmiss, recoveryLines, withRedoLog, type RedoRecovery } from '../src/core/log/redo-recovery.ts';
import { blobSource, sharedBlobSource, type ByteSource } from '../src/core/tablespace/source.ts';
import { fileKey, type DatadirLog, type RedoNotice } from './redo-api.ts';

/** Files kept read through the log (a partitioned table's partitions, its ibdata1, the listing's last few). */
const KEPT = 16;

interface Recovered {
  source: ByteSource;
  recovery: RedoRecovery;
}

let datadir: DatadirLog | null = null;
let members = new Set<string>();
/** The files read through the log, least recently used first. */
const recovered = new Map<string, Promise<Recovered>>();

/** Reads the datadir's files through `log` from now on (null: every file as it is). */
export function useDatadirLog(log: DatadirLog | null): void {
  datadir = log;
  members = new Set(log?.members ?? []);
  recovered.clear();
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
  return { unclean: !r.clean, applied: r.applied !== null, stale: recoveryAmiss(r) && (r.pagesInLog ?? 1) > 0, lines: pageLines(name, r) };
}

/**
 * `raw` (the bytes of `blob` read already, a small file's in the listing) through the datadir's log
 * where `blob` is the datadir's; not kept (the listing reads each file once).
 */
export async function throughLog(blob: Blob, name: string, raw: ByteSource): Promise<ByteSource> {
  const log = datadir !== null && members.has(fileKey(blob, name)) ? datadir : null;
  return log === null ? raw : (await rolledForward(raw, log)).source;
}

function rolledForward(raw: ByteSource, { log, more, system, asOnDisk }: DatadirLog): Promise<Recovered> {
  return withRedoLog(raw, blobSource(log.blob, log.name), {
    apply: !asOnDisk,
    boundsReaders: [logFilesReader(more.map((f) => blobSource(f.blob, f.name)))],
    systemTablespace: system && sharedBlobSource(system.blob, system.name),
  });
}

function recoveredFile(blob: Blob, name: string): Promise<Recovered> | null {
  const key = fileKey(blob, name);
  if (datadir === null || !members.has(key)) return null;
  let got = recovered.get(key);
  if (got) {
    recovered.delete(key);
  } else {
    got = rolledForward(sharedBlobSource(blob, name), datadir);
    // A failed read is tried again by the next caller.
    got.catch(() => recovered.delete(key));
    if (recovered.size >= KEPT) recovered.delete(recovered.keys().next().value as string);
  }
  recovered.set(key, got);
  return got;
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
