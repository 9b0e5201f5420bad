/**
 * The scan of a redo log from its checkpoint to its end (log0recv.cc recv_scan_log / recv_sys_t::parse):
 * each mini-transaction is checked (termination byte, CRC-32C) and its records indexed, not copied:
 * for each page of the tablespaces asked for, the mini-transactions that change it (start LSN and
 * length: 12 bytes each), and the last that initialises or frees it. The file-level records say
 * which tablespace files were created, deleted or renamed after the checkpoint.
 */
import { boundsOf, LogArea, readLogHeader, type LogHeader } from './log-file.ts';
import type { RedoLogBounds } from './log-types.ts';
import { FILE_CHECKPOINT, FILE_CREATE, FILE_DELETE, FILE_MODIFY, FILE_RENAME, FREE_PAGE, INIT_PAGE, MtrRecords, readMtr } from './mtr-records.ts';
import type { ByteSource } from '../tablespace/source.ts';

/** The mini-transactions that change one page, in LSN order. */
export class PageLog {
  /** Start LSN and length of each mini-transaction, in pairs. */
  readonly mtrs: number[] = [];
  /** The index (in mini-transactions) of the last one that initialises (INIT_PAGE) or frees (FREE_PAGE) the page, or -1. */
  initAt = -1;
  /** That last one frees the page (FREE_PAGE): its contents no longer matter. */
  freed = false;
  /** Records of the page, counted. */
  records = 0;

  get count(): number {
    return this.mtrs.length / 2;
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

/**
 * Scans `source` (an ib_logfile0 of MariaDB 10.8+) from its checkpoint to its end, indexing the pages
 * of the tablespaces `spaces` (every tablespace's when null). Throws LogFormatError for another format.
 */
export async function scanRedoLog(source: ByteSource, spaces: ReadonlySet<number> | null, signal?: AbortSignal): Promise<RedoScan> {
  const header = await readLogHeader(source);
  const area = new LogArea(source, header.firstLsn);
  const scan: RedoScan = {
    header, bounds: boundsOf(header, header.checkpointLsn), mtrCount: 0, recordCount: 0, recordsPerSpace: new Map(), files: [], pages: new Map(), area,
    unappliable: header.encrypted ? 'the redo log is encrypted (innodb_encrypt_log): its key is needed to apply it' : null,
  };
  let lsn = header.checkpointLsn;
  for (;;) {
    signal?.throwIfAborted();
    const mtr = await readMtr(area, lsn, header.encrypted);
    if (mtr === null) break;
    scan.mtrCount++;
    indexMtr(scan, mtr.records, lsn, mtr.endLsn - lsn, spaces);
    lsn = mtr.endLsn;
  }
  scan.bounds = boundsOf(header, lsn);
  return scan;
}

/** Indexes the records of one mini-transaction. */
function indexMtr(scan: RedoScan, records: Uint8Array, start: number, length: number, spaces: ReadonlySet<number> | null): void {
  const walk = new MtrRecords(records);
  let last: PageLog | null = null;
  while (walk.next()) {
    if (walk.isFile) {
      fileRecord(scan, walk, start);
      continue;
    }
    scan.recordCount++;
    scan.recordsPerSpace.set(walk.spaceId, (scan.recordsPerSpace.get(walk.spaceId) ?? 0) + 1);
    if (spaces !== null && !spaces.has(walk.spaceId)) continue;
    const page = pageLogOf(scan, walk.spaceId, walk.pageNo);
    page.records++;
    if (page !== last && page.mtrs[page.mtrs.length - 2] !== start) page.mtrs.push(start, length);
    last = page;
    if (walk.type === INIT_PAGE || walk.type === FREE_PAGE) {
      page.initAt = page.count - 1;
      page.freed = walk.type === FREE_PAGE;
    }
  }
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
