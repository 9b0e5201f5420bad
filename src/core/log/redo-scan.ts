/**
 * The scan of a redo log from its checkpoint to its end (log0recv.cc recv_scan_log / recv_sys_t::parse):
 * each mini-transaction is checked (termination byte, CRC-32C) and its records indexed, not copied:
 * for each page of the tablespaces asked for, where its records lie (runs: start LSN and length,
 * 16 bytes each), and the last that initialises or frees it. The file-level records say
 * which tablespace files were created, deleted or renamed after the checkpoint.
 */
import { boundsOf, LogArea, readLogHeader, type LogHeader } from './log-file.ts';
import type { RedoLogBounds } from './log-types.ts';
import { FILE_CHECKPOINT, FILE_CREATE, FILE_DELETE, FILE_MODIFY, FILE_RENAME, FREE_PAGE, INIT_PAGE, MtrRecords, readMtr } from './mtr-records.ts';
import type { ByteSource } from '../tablespace/source.ts';

/** A run's length is kept × 2^21 beside its distance to its mini-transaction's end (< MTR_SIZE_MAX + trailer < 2^21). */
const RUN_SHIFT = 2 ** 21;

/**
 * The records that change one page, in LSN order, as runs: a record naming the page and the
 * same_page records after it, contiguous in the log (a page named twice in one mini-transaction has
 * two). The apply reads and walks only these bytes, not whole mini-transactions.
 */
export class PageLog {
  /** Each run's start LSN, then its length × 2^21 + the bytes from its start to its mini-transaction's end: 16 bytes a run. */
  readonly runs: number[] = [];
  /** The index (in runs) of the last one that initialises (INIT_PAGE) or frees (FREE_PAGE) the page, or -1. */
  initAt = -1;
  /** That last one frees the page (FREE_PAGE): its contents no longer matter. */
  freed = false;
  /** Records of the page, counted. */
  records = 0;

  get count(): number {
    return this.runs.length / 2;
  }

  /** Run `i`'s start LSN. */
  start(i: number): number {
    return this.runs[2 * i];
  }

  /** Run `i`'s length in bytes. */
  length(i: number): number {
    return Math.floor(this.runs[2 * i + 1] / RUN_SHIFT);
  }

  /** The end LSN of run `i`'s mini-transaction: the page's LSN once it is applied. */
  mtrEnd(i: number): number {
    return this.runs[2 * i] + (this.runs[2 * i + 1] % RUN_SHIFT);
  }

  /** The bytes of the runs from the last INIT_PAGE on: what its apply reads. */
  bytesToApply(): number {
    let n = 0;
    for (let i = Math.max(0, this.initAt); i < this.count; i++) n += this.length(i);
    return n;
  }

  /** A run that begins at `start` in the mini-transaction ending at `mtrEnd`, `length` bytes so far. */
  addRun(start: number, length: number, mtrEnd: number): void {
    this.runs.push(start, length * RUN_SHIFT + (mtrEnd - start));
  }

  /** The last run now ends at LSN `end`. */
  extendRun(end: number): void {
    const k = this.runs.length - 1;
    const start = this.runs[k - 1];
    this.runs[k] = (end - start) * RUN_SHIFT + (this.runs[k] % RUN_SHIFT);
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
}

/** Takes the census of `source` (an ib_logfile0 of MariaDB 10.8+): one scan, no page indexed. Throws LogFormatError for another format. */
export async function logCensus(source: ByteSource, signal?: AbortSignal): Promise<LogCensus> {
  const starts: number[] = [];
  const stretches = new Map<number, number[]>();
  const scan = await scanRedoLog(source, new Set(), signal, null, (stretch, lsn, space) => {
    while (starts.length <= stretch) starts.push(-1);
    if (starts[stretch] < 0) starts[stretch] = lsn;
    if (space < 0) return;
    const list = stretches.get(space) ?? [];
    if (list.at(-1) !== stretch) list.push(stretch);
    stretches.set(space, list);
  });
  return {
    bounds: scan.bounds, mtrCount: scan.mtrCount, recordCount: scan.recordCount, recordsPerSpace: scan.recordsPerSpace, files: scan.files,
    starts: Float64Array.from(starts), stretches: new Map([...stretches].map(([space, list]) => [space, Int32Array.from(list)])),
  };
}

/** What a census-taking scan is told of each mini-transaction: its stretch, start LSN, and each tablespace it changes (-1: none). */
type CensusTaker = (stretch: number, lsn: number, space: number) => void;

/**
 * Scans `source` (an ib_logfile0 of MariaDB 10.8+) from its checkpoint to its end, indexing the pages
 * of the tablespaces `spaces` (every tablespace's when null). With the log's `census`, only the
 * stretches holding those tablespaces' records are read; what is said of the whole log is the
 * census's. Throws LogFormatError for another format.
 */
export async function scanRedoLog(source: ByteSource, spaces: ReadonlySet<number> | null, signal?: AbortSignal, census?: LogCensus | null, taker?: CensusTaker): Promise<RedoScan> {
  const header = await readLogHeader(source);
  const area = new LogArea(source, header.firstLsn);
  const scan: RedoScan = {
    header, bounds: boundsOf(header, header.checkpointLsn), mtrCount: 0, recordCount: 0, recordsPerSpace: new Map(), files: [], pages: new Map(), area,
    unappliable: header.encrypted ? 'the redo log is encrypted (innodb_encrypt_log): its key is needed to apply it' : null,
  };
  const walk = new MtrRecords(new Uint8Array(0));
  if (census) return scanStretches(scan, census, spaces, walk, signal);
  let lsn = header.checkpointLsn;
  for (;;) {
    signal?.throwIfAborted();
    const mtr = await readMtr(area, lsn, header.encrypted);
    if (mtr === null) break;
    scan.mtrCount++;
    const seen = taker && ((space: number) => taker(Math.floor((mtr.startLsn - header.checkpointLsn) / STRETCH), mtr.startLsn, space));
    seen?.(-1);
    indexMtr(scan, walk.reset(mtr.records), lsn, mtr.endLsn, spaces, seen);
    lsn = mtr.endLsn;
  }
  scan.bounds = boundsOf(header, lsn);
  return scan;
}

/** The pages of `spaces` indexed from the stretches of the log the census says hold their records; the rest of the scan is the census's. */
async function scanStretches(scan: RedoScan, census: LogCensus, spaces: ReadonlySet<number> | null, walk: MtrRecords, signal?: AbortSignal): Promise<RedoScan> {
  const wanted = new Set<number>();
  for (const [space, list] of census.stretches) if (spaces === null || spaces.has(space)) for (const k of list) wanted.add(k);
  const { checkpointLsn } = scan.header;
  for (const k of [...wanted].sort((a, b) => a - b)) {
    const until = checkpointLsn + (k + 1) * STRETCH;
    for (let lsn = census.starts[k]; lsn >= 0 && lsn < until && lsn < census.bounds.endLsn; ) {
      signal?.throwIfAborted();
      const mtr = await readMtr(scan.area, lsn, scan.header.encrypted);
      if (mtr === null) break;
      indexMtr(scan, walk.reset(mtr.records), lsn, mtr.endLsn, spaces);
      lsn = mtr.endLsn;
    }
  }
  Object.assign(scan, { bounds: census.bounds, mtrCount: census.mtrCount, recordCount: census.recordCount, recordsPerSpace: census.recordsPerSpace, files: census.files });
  return scan;
}

/**
 * Indexes the records of one mini-transaction (starting at LSN `start`, ending at `end`), walked by
 * `walk`; `seen` is told each tablespace whose pages it changes.
 */
function indexMtr(scan: RedoScan, walk: MtrRecords, start: number, end: number, spaces: ReadonlySet<number> | null, seen?: (space: number) => void): void {
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
      run?.addRun(start + walk.recordAt, walk.at - walk.recordAt, end);
    } else run?.extendRun(start + walk.at);
    if (run === null) continue;
    run.records++;
    if (walk.type === INIT_PAGE || walk.type === FREE_PAGE) {
      run.initAt = run.count - 1;
      run.freed = walk.type === FREE_PAGE;
    }
  }
  if (space >= 0) scan.recordsPerSpace.set(space, (scan.recordsPerSpace.get(space) ?? 0) + spaceRecords);
}

function pageLogOf(scan: RedoScan, spaceId: number, pageNo: number): PageLog {
  let space = scan.pages.get(spaceId);
  if (!space) scan.pages.set(spaceId, (space = new Map()));
  let page = space.get(pageNo);
  if (!page) space.set(pageNo, (page = new PageLog()));
  return page;
}

const OPS: Record<number, FileOperation['op']> = { [FILE_CREATE]: 'create', [FILE_DELETE]: 'delete', [FILE_RENAME]: 'rename', [FILE_MODIFY]: 'modify' };

/** A FILE_ record: the names of tablespace files (no trailing NUL; a rename's two names split by one). */
function fileRecord(scan: RedoScan, walk: MtrRecords, lsn: number): void {
  if (walk.type === FILE_CHECKPOINT || scan.header.encrypted) return;
  const op = OPS[walk.type];
  if (op === undefined) return;
  const text = new TextDecoder().decode(walk.records.subarray(walk.bodyAt, walk.bodyAt + walk.bodyLength));
  const [name, newName] = text.split('\0');
  scan.files.push({ op, spaceId: walk.spaceId, name, ...(newName === undefined ? {} : { newName }), lsn });
}
