/**
 * The scan of a redo log from its checkpoint to its end (log0recv.cc recv_scan_log / recv_sys_t::parse):
 * each mini-transaction is checked (termination byte, CRC-32C) and its records indexed, not copied:
 * for each page of the tablespaces asked for, where its records lie (runs: start LSN and length,
 * 16 bytes each), and the last that initialises or frees it. The file-level records say
 * which tablespace files were created, deleted or renamed after the checkpoint.
 */
import type { EncryptionKeys } from '../tablespace/encryption.ts';
import { LogCrypt } from './log-crypt.ts';
import { boundsOf, LogArea, readLogHeader, type LogHeader } from './log-file.ts';
import type { RedoLogBounds } from './log-types.ts';
import { FILE_CHECKPOINT, FILE_CREATE, FILE_DELETE, FILE_MODIFY, FILE_RENAME, FREE_PAGE, INIT_PAGE, Mtr, MtrRecords, peekMtr, readMtr, recordEnd } from './mtr-records.ts';
import type { ByteSource } from '../tablespace/source.ts';

/** An encrypted log's mini-transactions are found again from one that begins at or before each such stretch of it. */
const MARK_BYTES = 1 << 20;

/** A run's length is kept × 2^21 beside its distance to its mini-transaction's end (< MTR_SIZE_MAX + trailer < 2^21). */
const RUN_SHIFT = 2 ** 21;

/**
 * The records that change one page, in LSN order, as runs: a record naming the page and the
 * same_page records after it, contiguous in the log (a page named twice in one mini-transaction has
 * two). The apply reads and walks only these bytes, not whole mini-transactions.
 */
export class PageLog {
  /**
   * Each run's start LSN, then its length × 2^21 + the bytes from its start to its mini-transaction's
   * end: 16 bytes a run, in a typed array grown by doubling. Millions of runs in plain arrays were
   * copied by every young-generation GC while the scan grew them; a typed array's bytes are not.
   */
  private store = new Float64Array(8);
  private used = 0;
  /** The index (in runs) of the last one that initialises (INIT_PAGE) or frees (FREE_PAGE) the page, or -1. */
  initAt = -1;
  /** That last one frees the page (FREE_PAGE): its contents no longer matter. */
  freed = false;
  /** Records of the page, counted. */
  records = 0;

  /** The runs as start, length × 2^21 + distance to the mini-transaction's end, in turn (a view). */
  get runs(): Float64Array {
    return this.store.subarray(0, this.used);
  }

  get count(): number {
    return this.used / 2;
  }

  /** Run `i`'s start LSN. */
  start(i: number): number {
    return this.store[2 * i];
  }

  /** Run `i`'s length in bytes. */
  length(i: number): number {
    return Math.floor(this.store[2 * i + 1] / RUN_SHIFT);
  }

  /** The end LSN of run `i`'s mini-transaction: the page's LSN once it is applied. */
  mtrEnd(i: number): number {
    return this.store[2 * i] + (this.store[2 * i + 1] % RUN_SHIFT);
  }

  /** The bytes of the runs from the last INIT_PAGE on: what its apply reads. */
  bytesToApply(): number {
    let n = 0;
    for (let i = Math.max(0, this.initAt); i < this.count; i++) n += this.length(i);
    return n;
  }

  /** A run that begins at `start` in the mini-transaction ending at `mtrEnd`, `length` bytes so far. */
  addRun(start: number, length: number, mtrEnd: number): void {
    if (this.used === this.store.length) this.grow();
    this.store[this.used++] = start;
    this.store[this.used++] = length * RUN_SHIFT + (mtrEnd - start);
  }

  /** The store doubled (apart from addRun, kept small enough to be inlined: its LSNs then not boxed as number objects). */
  private grow(): void {
    const grown = new Float64Array(this.store.length * 2);
    grown.set(this.store);
    this.store = grown;
  }

  /**
   * The runs of this page that a scan of a later stretch of the log found (LogStretch: `runs` as
   * `runs` gives them, `initAt` among them or -1), after its own: the page's runs stay in LSN order.
   */
  appendRuns(runs: Float64Array, initAt: number, freed: boolean, records: number): void {
    let size = this.store.length;
    while (this.used + runs.length > size) size *= 2;
    if (size > this.store.length) {
      const grown = new Float64Array(size);
      grown.set(this.store.subarray(0, this.used));
      this.store = grown;
    }
    if (initAt >= 0) {
      this.initAt = this.count + initAt;
      this.freed = freed;
    }
    this.store.set(runs, this.used);
    this.used += runs.length;
    this.records += records;
  }

  /** The last run now ends at LSN `end`. */
  extendRun(end: number): void {
    const k = this.used - 1;
    const start = this.store[k - 1];
    this.store[k] = (end - start) * RUN_SHIFT + (this.store[k] % RUN_SHIFT);
  }
}

/** A tablespace file created, deleted, renamed or first changed after the checkpoint (FILE_ records). */
export interface FileOperation {
  op: 'create' | 'delete' | 'rename' | 'modify';
  spaceId: number;
  /** The file name as the log has it ('./db/t.ibd'); for a rename, the old name. */
  name: string;
  /** A rename's new name. */
  newName?: string;
  lsn: number;
}

/** What the scan of the log found. */
export interface RedoScan {
  header: LogHeader;
  bounds: RedoLogBounds;
  /** Mini-transactions after the checkpoint, and the page records they hold. */
  mtrCount: number;
  recordCount: number;
  /** Page records per tablespace id. */
  recordsPerSpace: Map<number, number>;
  /** The file operations after the checkpoint (FILE_MODIFY: the first change of a file since it). */
  files: FileOperation[];
  /** The pages changed, per tablespace id, of the tablespaces asked for. */
  pages: Map<number, Map<number, PageLog>>;
  /** The log's records cannot be applied (encrypted without a key): only its bounds are believed. */
  unappliable: string | null;
  area: LogArea;
  /** The decryption of an encrypted log (its records indexed decrypted), or null. */
  crypt: LogCrypt | null;
  /**
   * With `crypt`: for each MARK_BYTES of the log from the checkpoint, the start of the
   * mini-transaction holding its first byte (an encrypted record is decrypted with all of its
   * mini-transaction's, from its start).
   */
  marks: number[];
  /** The keys given: an encrypted file's pages are decrypted with them before the log applies. */
  keys: EncryptionKeys | undefined;
}

/** The log is cut into stretches of this many LSNs (by where mini-transactions begin) for its census. */
const STRETCH = 1 << 20;

/**
 * What one scan of the whole log says for every reader of its datadir's files (plain data: handed
 * between workers as it is): which tablespaces it changes, and for each, the stretches of the log
 * holding its records, with where each stretch's first mini-transaction begins. A scan of some
 * tablespaces' pages given it parses only their stretches, not the whole log again.
 */
export interface LogCensus {
  bounds: RedoLogBounds;
  mtrCount: number;
  recordCount: number;
  recordsPerSpace: Map<number, number>;
  files: FileOperation[];
  /** The LSN of the first mini-transaction beginning in each stretch from the checkpoint, -1 where none does. */
  starts: Float64Array;
  /** The stretches, ascending, whose mini-transactions change pages of each tablespace. */
  stretches: Map<number, Int32Array>;
  /** An encrypted log's marks (RedoScan.marks) of the whole scan, its census taken with its key; empty for a plain log. */
  marks: Float64Array;
}

/**
 * Takes the census of `source` (an ib_logfile0 of MariaDB 10.8+): one scan, no page indexed; an
 * encrypted log's with `keys`' key 1. Throws LogFormatError for another format, and an Error for an
 * encrypted log its keys do not decrypt (whose records cannot be placed: each file then reads the log
 * itself, and says why).
 */
export async function logCensus(source: ByteSource, signal?: AbortSignal, keys?: EncryptionKeys): Promise<LogCensus> {
  const starts: number[] = [];
  const stretches = new Map<number, number[]>();
  const scan = await scanRedoLog(source, new Set(), signal, keys, null, (stretch, lsn, space) => {
    while (starts.length <= stretch) starts.push(-1);
    if (starts[stretch] < 0) starts[stretch] = lsn;
    if (space < 0) return;
    const list = stretches.get(space) ?? [];
    if (list.at(-1) !== stretch) list.push(stretch);
    stretches.set(space, list);
  });
  if (scan.unappliable !== null) throw new Error(scan.unappliable);
  return {
    bounds: scan.bounds, mtrCount: scan.mtrCount, recordCount: scan.recordCount, recordsPerSpace: scan.recordsPerSpace, files: scan.files,
    starts: Float64Array.from(starts), stretches: new Map([...stretches].map(([space, list]) => [space, Int32Array.from(list)])), marks: Float64Array.from(scan.marks),
  };
}

/** What a census-taking scan is told of each mini-transaction: its stretch, start LSN, and each tablespace it changes (-1: none). */
export type CensusTaker = (stretch: number, lsn: number, space: number) => void;

/**
 * Scans `source` (an ib_logfile0 of MariaDB 10.8+) from its checkpoint to its end, indexing the pages
 * of the tablespaces `spaces` (every tablespace's when null); an encrypted log with `keys`' key 1.
 * With the log's `census`, only the stretches holding those tablespaces' records are read (an
 * encrypted log's decrypted from the census's marks); what is said of the whole log is the census's.
 * Throws LogFormatError for another format.
 */
export async function scanRedoLog(
  source: ByteSource, spaces: ReadonlySet<number> | null, signal?: AbortSignal, keys?: EncryptionKeys, census?: LogCensus | null, taker?: CensusTaker,
): Promise<RedoScan> {
  const scan = await openScan(source, keys);
  const walk = new MtrRecords(new Uint8Array(0));
  // (an encrypted log's apply needs the marks of a whole scan: the census's, taken with the key, serve)
  if (census && (scan.header.encryption !== 'stream' || (scan.crypt !== null && census.marks.length > 0))) return scanStretches(scan, census, spaces, walk, signal);
  scan.bounds = boundsOf(scan.header, await scanMtrs(scan, scan.header.checkpointLsn, Infinity, spaces, walk, signal, taker));
  return scan;
}

/** The scan of `source` (a 10.8+ log) begun: its header read, nothing found yet. Throws LogFormatError for another format. */
export async function openScan(source: ByteSource, keys?: EncryptionKeys): Promise<RedoScan> {
  const header = await readLogHeader(source);
  const area = new LogArea(source, header.firstLsn);
  const opened = header.encryption === 'stream' ? await LogCrypt.open(header.block, keys) : null;
  const crypt = opened instanceof LogCrypt ? opened : null;
  return {
    header, bounds: boundsOf(header, header.checkpointLsn), mtrCount: 0, recordCount: 0, recordsPerSpace: new Map(), files: [], pages: new Map(), area,
    unappliable: unappliableWhy(header, opened), crypt, marks: [], keys,
  };
}

/**
 * Indexes into `scan` the mini-transactions from the one at `from` on, up to the log's end or the
 * first that begins at or after `until`: returns the LSN the scan stopped at (the log's end, or
 * where the mini-transaction after the last indexed begins).
 */
export async function scanMtrs(
  scan: RedoScan, from: number, until: number, spaces: ReadonlySet<number> | null, walk: MtrRecords, signal?: AbortSignal, taker?: CensusTaker,
): Promise<number> {
  const { header, area } = scan;
  const found = new Mtr();
  let lsn = from;
  while (lsn < until) {
    signal?.throwIfAborted();
    lsn = indexWindow(scan, lsn, until, spaces, walk, found, taker);
    if (lsn >= until) break;
    const mtr = await readMtr(area, lsn, header.encrypted);
    if (mtr === null) break;
    indexOne(scan, mtr, spaces, walk, taker);
    lsn = mtr.endLsn;
  }
  return lsn;
}

/**
 * Indexes the mini-transactions from `lsn` on that lie whole in the window of the log read last, up
 * to the first that begins at or after `until`; returns where the next begins (to be read, or the
 * log's end). Most lie in the window of the one before: taken here, with no promise, and no LSN
 * boxed as a number object, for each of millions.
 */
function indexWindow(
  scan: RedoScan, lsn: number, until: number, spaces: ReadonlySet<number> | null, walk: MtrRecords, found: Mtr, taker?: CensusTaker,
): number {
  const { area, header } = scan;
  while (lsn < until) {
    const mtr = peekMtr(area, lsn, header.encrypted, found);
    if (!mtr) break;
    indexOne(scan, mtr, spaces, walk, taker);
    lsn = mtr.endLsn;
  }
  return lsn;
}

/**
 * What tells `taker` of each tablespace the mini-transaction at `lsn` changes: made apart from
 * indexOne, whose every call would else allocate the variables such a closure keeps.
 */
function censusOf(taker: CensusTaker, header: LogHeader, lsn: number): (space: number) => void {
  return (space) => taker(Math.floor((lsn - header.checkpointLsn) / STRETCH), lsn, space);
}

/** Indexes one mini-transaction, `mtr`, into `scan` (its marks and census too). */
function indexOne(scan: RedoScan, mtr: Mtr, spaces: ReadonlySet<number> | null, walk: MtrRecords, taker?: CensusTaker): void {
  const { header } = scan;
  const lsn = mtr.startLsn;
  scan.mtrCount++;
  const seen = taker && censusOf(taker, header, lsn);
  seen?.(-1);
  if (header.encryption === 'stream') for (let mark = scan.marks.length * MARK_BYTES + header.checkpointLsn; mark < mtr.endLsn; mark += MARK_BYTES) scan.marks.push(lsn);
  if (scan.crypt !== null && mtr.nonce !== null) {
    if (!indexDecrypted(scan, mtr, walk, spaces, seen)) countRecords(scan, mtr.records);
  } else if (header.encryption === 'stream') countRecords(scan, mtr.records);
  else indexMtr(scan, walk.reset(mtr.bytes, mtr.from, mtr.to), mtr, spaces, seen, mtr.from);
}

/**
 * Indexes the records of an encrypted mini-transaction (`mtr`) decrypted; false, the scan's pages
 * dropped and why said, when they do not decrypt (the wrong key, or a damaged log).
 */
function indexDecrypted(scan: RedoScan, mtr: Mtr, walk: MtrRecords, spaces: ReadonlySet<number> | null, seen?: (space: number) => void): boolean {
  const plain = mtr.records.slice();
  if (scan.crypt?.decryptMtr(plain, mtr.nonce!) === true) {
    indexMtr(scan, walk.reset(plain), mtr, spaces, seen, 0);
    return true;
  }
  scan.unappliable = `the redo log does not decrypt with key 1 of the key file given (the mini-transaction at LSN ${mtr.startLsn}): it is the wrong key, or the log is damaged`;
  scan.crypt = null;
  scan.pages.clear();
  return false;
}

/** Why the records of a log with this header cannot be applied (`opened`: its decryption, or why none), or null. */
function unappliableWhy(header: LogHeader, opened: LogCrypt | string | null): string | null {
  if (typeof opened === 'string') return `the redo log cannot be decrypted: ${opened}`;
  if (header.encryption === 'records') return 'the redo log is encrypted in the MariaDB 10.8 format (each record apart), which this reader does not decrypt';
  return null;
}

/**
 * The page records of a mini-transaction whose bodies (page identifiers too) cannot be decrypted,
 * counted from their type-and-length bytes, which are not encrypted: whether the log holds changes.
 */
function countRecords(scan: RedoScan, records: Uint8Array): void {
  let pageOp = false;
  for (let at = 0; at >= 0 && at < records.length; at = recordEnd(records, at)) {
    if (!(records[at] & 0x80)) pageOp = true;
    if (pageOp) scan.recordCount++;
  }
}

/**
 * The decrypted bytes [lsn, lsn + length) of an encrypted log whose scan is `scan`, where the
 * mini-transaction holding the last of them ends at `end`: read from the start of the
 * mini-transaction holding `lsn` (found from the marks), every mini-transaction up to `end` decrypted.
 */
export async function decryptedBytes(scan: RedoScan, lsn: number, length: number, end: number): Promise<Uint8Array> {
  if (scan.crypt === null) throw new Error('the log is not decrypted');
  const k = Math.min(scan.marks.length - 1, Math.floor((lsn - scan.bounds.checkpointLsn) / MARK_BYTES));
  const from = scan.marks[k];
  const bytes = (await scan.area.bytes(from, end - from)).slice();
  scan.crypt.decryptMtrs(bytes);
  return bytes.subarray(lsn - from, lsn - from + length);
}

/** The pages of `spaces` indexed from the stretches of the log the census says hold their records; the rest of the scan is the census's. */
async function scanStretches(scan: RedoScan, census: LogCensus, spaces: ReadonlySet<number> | null, walk: MtrRecords, signal?: AbortSignal): Promise<RedoScan> {
  const wanted = new Set<number>();
  for (const [space, list] of census.stretches) if (spaces === null || spaces.has(space)) for (const k of list) wanted.add(k);
  const { checkpointLsn } = scan.header;
  const found = new Mtr();
  if (scan.crypt !== null) scan.marks = Array.from(census.marks);
  for (const k of [...wanted].sort((a, b) => a - b)) {
    const until = checkpointLsn + (k + 1) * STRETCH;
    for (let lsn = census.starts[k]; lsn >= 0 && lsn < until && lsn < census.bounds.endLsn; ) {
      signal?.throwIfAborted();
      const mtr = peekMtr(scan.area, lsn, scan.header.encrypted, found) ?? (await readMtr(scan.area, lsn, scan.header.encrypted));
      if (mtr === null) break;
      if (scan.crypt === null || mtr.nonce === null) indexMtr(scan, walk.reset(mtr.bytes, mtr.from, mtr.to), mtr, spaces, undefined, mtr.from);
      else if (!indexDecrypted(scan, mtr, walk, spaces)) break;
      lsn = mtr.endLsn;
    }
    if (scan.unappliable !== null) break;
  }
  Object.assign(scan, { bounds: census.bounds, mtrCount: census.mtrCount, recordCount: census.recordCount, recordsPerSpace: census.recordsPerSpace, files: census.files });
  return scan;
}

/**
 * Indexes the records of one mini-transaction, `mtr`, walked by `walk` over bytes whose byte `from`
 * is its first (its start LSN); `seen` is told each tablespace whose pages it changes.
 */
function indexMtr(scan: RedoScan, walk: MtrRecords, mtr: Mtr, spaces: ReadonlySet<number> | null, seen: ((space: number) => void) | undefined, from: number): void {
  const start = mtr.startLsn;
  const end = mtr.endLsn;
  const base = start - from;
  /** The page whose run the records extend: null after a record of a tablespace not indexed. */
  let run: PageLog | null = null;
  let space = -1;
  let spaceRecords = 0;
  while (walk.next()) {
    if (walk.isFile) {
      fileRecord(scan, walk, start);
      continue;
    }
    scan.recordCount++;
    if (walk.spaceId !== space) {
      if (space >= 0) scan.recordsPerSpace.set(space, (scan.recordsPerSpace.get(space) ?? 0) + spaceRecords);
      space = walk.spaceId;
      spaceRecords = 0;
      seen?.(space);
    }
    spaceRecords++;
    if (walk.hasPageId) {
      // A same_page record follows the page's previous record: only a record naming a page starts a run.
      run = spaces !== null && !spaces.has(walk.spaceId) ? null : pageLogOf(scan, walk.spaceId, walk.pageNo);
      run?.addRun(base + walk.recordAt, walk.at - walk.recordAt, end);
    } else run?.extendRun(base + walk.at);
    if (run === null) continue;
    run.records++;
    if (walk.type === INIT_PAGE || walk.type === FREE_PAGE) {
      run.initAt = run.count - 1;
      run.freed = walk.type === FREE_PAGE;
    }
  }
  if (space >= 0) scan.recordsPerSpace.set(space, (scan.recordsPerSpace.get(space) ?? 0) + spaceRecords);
}

export function pageLogOf(scan: RedoScan, spaceId: number, pageNo: number): PageLog {
  let space = scan.pages.get(spaceId);
  if (!space) scan.pages.set(spaceId, (space = new Map()));
  let page = space.get(pageNo);
  if (!page) space.set(pageNo, (page = new PageLog()));
  return page;
}

const OPS: Record<number, FileOperation['op']> = { [FILE_CREATE]: 'create', [FILE_DELETE]: 'delete', [FILE_RENAME]: 'rename', [FILE_MODIFY]: 'modify' };

/** A FILE_ record: the names of tablespace files (no trailing NUL; a rename's two names split by one). */
function fileRecord(scan: RedoScan, walk: MtrRecords, lsn: number): void {
  if (walk.type === FILE_CHECKPOINT || (scan.header.encrypted && scan.crypt === null)) return;
  const op = OPS[walk.type];
  if (op === undefined) return;
  const text = new TextDecoder().decode(walk.records.subarray(walk.bodyAt, walk.bodyAt + walk.bodyLength));
  const [name, newName] = text.split('\0');
  scan.files.push({ op, spaceId: walk.spaceId, name, ...(newName === undefined ? {} : { newName }), lsn });
}
