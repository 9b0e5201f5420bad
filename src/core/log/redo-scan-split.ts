/**
 * The scan of a plain redo log on two threads (the server's recovery parses on several too): the log
 * after the checkpoint is cut at a mini-transaction found near its middle by its termination byte and
 * CRC-32C; this thread scans the first half while a LogStretchScanner (a worker thread the platform
 * supplies) scans from the cut to the end. The cut is kept only when this thread's scan ends exactly
 * there (a mini-transaction boundary of the serial scan): the halves' page indexes are then merged,
 * the first half's runs before the second's; otherwise the worker's is dropped and the scan goes on
 * here, serially. What the split scan gives is what scanRedoLog gives.
 */
import type { EncryptionKeys } from '../tablespace/encryption.ts';
import type { ByteSource } from '../tablespace/source.ts';
import { boundsOf, LogArea, type LogHeader } from './log-file.ts';
import { Mtr, MtrRecords, peekMtr, readMtr } from './mtr-records.ts';
import { openScan, pageLogOf, scanMtrs, type FileOperation, type RedoScan } from './redo-scan.ts';

/** Below this much log after the checkpoint a thread's start (and the search for the cut) costs more than the half scan saves. */
const SPLIT_MIN_BYTES = 64 << 20;
/** A probe looks for a mini-transaction beginning within this many bytes of where it is made. */
const PROBE_BYTES = 1 << 16;
/** The search for the log's end stops within this many bytes of it: the cut need not be the exact middle. */
const END_PRECISION = 1 << 20;
/** The numbers a LogStretch keeps for each page: tablespace id, page number, runs, initAt, freed (1 or 0), records. */
const PAGE_FIELDS = 6;

/** What the scan of the log from a mini-transaction to the log's end found (plain data, its arrays transferable between threads). */
export interface LogStretch {
  /** Where the scan stopped: the log's end. */
  endLsn: number;
  mtrCount: number;
  recordCount: number;
  recordsPerSpace: Map<number, number>;
  files: FileOperation[];
  /** PAGE_FIELDS numbers for each page changed: tablespace id, page number, its runs, initAt among them (-1: none), freed, records. */
  pages: Float64Array<ArrayBuffer>;
  /** The pages' runs one page after another, each as PageLog.runs gives them. */
  runs: Float64Array<ArrayBuffer>;
}

/**
 * Scans the log given to scanRedoLogSplit from the mini-transaction at `fromLsn` to its end (for the
 * tablespaces `spaces`, every one's when null), elsewhere (a worker thread running
 * scanLogStretch on the same file); `signal` aborts it when its stretch is no longer wanted.
 */
export type LogStretchScanner = (fromLsn: number, spaces: number[] | null, signal: AbortSignal) => Promise<LogStretch>;

/** The worker's side: the log `source` scanned from the mini-transaction at `fromLsn` to its end. */
export async function scanLogStretch(source: ByteSource, fromLsn: number, spaces: readonly number[] | null, signal?: AbortSignal): Promise<LogStretch> {
  const scan = await openScan(source);
  const endLsn = await scanMtrs(scan, fromLsn, Infinity, spaces === null ? null : new Set(spaces), new MtrRecords(new Uint8Array(0)), signal);
  let pageCount = 0;
  let runCount = 0;
  for (const logs of scan.pages.values()) {
    pageCount += logs.size;
    for (const log of logs.values()) runCount += log.count;
  }
  const pages = new Float64Array(pageCount * PAGE_FIELDS);
  const runs = new Float64Array(runCount * 2);
  let p = 0;
  let r = 0;
  for (const [spaceId, logs] of scan.pages) {
    for (const [pageNo, log] of logs) {
      pages.set([spaceId, pageNo, log.count, log.initAt, log.freed ? 1 : 0, log.records], p);
      p += PAGE_FIELDS;
      runs.set(log.runs, r);
      r += log.runs.length;
    }
  }
  return { endLsn, mtrCount: scan.mtrCount, recordCount: scan.recordCount, recordsPerSpace: scan.recordsPerSpace, files: scan.files, pages, runs };
}

/**
 * scanRedoLog(source, spaces, signal, keys) with the log after the checkpoint cut in two, its second
 * half scanned by `scanner` while this thread scans the first: an encrypted log, or one too short to
 * be worth it (`minBytes` after the checkpoint), is scanned here alone.
 */
export async function scanRedoLogSplit(
  source: ByteSource, spaces: ReadonlySet<number> | null, scanner: LogStretchScanner, signal?: AbortSignal, keys?: EncryptionKeys, minBytes = SPLIT_MIN_BYTES,
): Promise<RedoScan> {
  const scan = await openScan(source, keys);
  const { header } = scan;
  const walk = new MtrRecords(new Uint8Array(0));
  const cut = header.encrypted ? null : await cutLsn(source, header, minBytes);
  const dropped = new AbortController();
  const stop = () => dropped.abort();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const later = cut === null ? null : scanner(cut, spaces === null ? null : [...spaces], dropped.signal).catch(() => null);
    let lsn = await scanMtrs(scan, header.checkpointLsn, cut ?? Infinity, spaces, walk, signal);
    const stretch = lsn === cut ? await later : null;
    if (stretch) {
      mergeStretch(scan, stretch);
      lsn = stretch.endLsn;
    } else {
      // The log ended before the cut, or the cut was not a boundary of this scan (or the worker failed): the rest here.
      dropped.abort();
      lsn = await scanMtrs(scan, lsn, Infinity, spaces, walk, signal);
    }
    scan.bounds = boundsOf(header, lsn);
    return scan;
  } finally {
    dropped.abort();
    signal?.removeEventListener('abort', stop);
  }
}

/** The second half's runs of each page after the first's (the serial scan's order), and its counts added. */
function mergeStretch(scan: RedoScan, stretch: LogStretch): void {
  scan.mtrCount += stretch.mtrCount;
  scan.recordCount += stretch.recordCount;
  for (const [space, n] of stretch.recordsPerSpace) scan.recordsPerSpace.set(space, (scan.recordsPerSpace.get(space) ?? 0) + n);
  scan.files.push(...stretch.files);
  const { pages, runs } = stretch;
  for (let p = 0, r = 0; p < pages.length; p += PAGE_FIELDS) {
    const n = pages[p + 2] * 2;
    pageLogOf(scan, pages[p], pages[p + 1]).appendRuns(runs.subarray(r, r + n), pages[p + 3], pages[p + 4] === 1, pages[p + 5]);
    r += n;
  }
}

/**
 * Where to cut the log after the checkpoint of `header`: a mini-transaction near the middle between
 * the checkpoint and the log's end, the end found by halving (a probe either finds a mini-transaction
 * of the current pass over the circular area or not). Null when the log is shorter than
 * `minBytes`. Only a guess: the first half's scan confirms it.
 */
async function cutLsn(source: ByteSource, header: LogHeader, minBytes: number): Promise<number | null> {
  // an area of its own: the probes' windows are not kept for the scan
  const area = new LogArea(source, header.firstLsn);
  const from = header.checkpointLsn;
  // A shorter log costs one probe.
  let lo = minBytes > 0 ? await mtrNear(area, from + minBytes, header.encrypted) : from;
  if (lo < 0) return null;
  let hi = from + area.capacity;
  while (hi - lo > END_PRECISION) {
    const mid = lo + Math.floor((hi - lo) / 2);
    const at = await mtrNear(area, mid, header.encrypted);
    if (at >= 0) lo = at;
    else hi = mid;
  }
  if (lo - from < minBytes) return null;
  const at = await mtrNear(area, from + Math.floor((lo - from) / 2), header.encrypted);
  return at > from ? at : null;
}

/** The first LSN in [lsn, lsn + PROBE_BYTES) where a mini-transaction of the current pass begins (its sequence bit and CRC-32C right), or -1. */
async function mtrNear(area: LogArea, lsn: number, encrypted: boolean): Promise<number> {
  const found = new Mtr();
  await area.bytes(lsn, 1);
  for (let at = lsn; at < lsn + PROBE_BYTES; at++) {
    if ((peekMtr(area, at, encrypted, found) ?? (await readMtr(area, at, encrypted))) !== null) return at;
  }
  return -1;
}
