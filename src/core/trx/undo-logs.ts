/**
 * Every undo log a datadir's rollback segments reach (trx0sys → trx0rseg → trx0undo, as
 * trx_lists_init_at_db_start and purge find them): the logs of the undo slots (a transaction active
 * or XA-prepared at the crash, cached segments with the committed logs they held before) and those of
 * the history list (committed, not yet purged). Each log is one transaction's (MariaDB 10.3+: one
 * persistent undo log per transaction). Pages are read through the Tablespace: one failing its checksum
 * is not read, and said.
 */
import type { Tablespace } from '../tablespace/tablespace.ts';
import { flstNext, type FilAddress } from './flst.ts';
import { readRsegHeader } from './trx-rseg.ts';
import { readTrxSys, TRX_SYS_PAGE_NO, type RsegSlot } from './trx-sys.ts';
import { FIRST_LOG_HEADER, TRX_UNDO_HISTORY_NODE, undoLogHeader, undoPageHeader, undoSegmentHeader, type UndoLogHeader } from './trx-undo.ts';

/** The tablespace of a space id (0: the system tablespace; an undo tablespace's id), or null when it is not at hand. */
export type SpaceOf = (spaceId: number) => Promise<Tablespace | null>;

/**
 * What became of a transaction, as its undo log says: `active` or `prepared` at the crash (the
 * server rolls back the first at start, and waits for XA COMMIT/ROLLBACK of the second), `committed`
 * (its log still in the history list: the old versions it replaced are all kept), `purged` (committed,
 * and purge has processed its log: what it replaced may be gone).
 */
export type TrxState = 'active' | 'prepared' | 'committed' | 'purged';

export interface UndoLog {
  header: UndoLogHeader;
  state: TrxState;
  rseg: RsegSlot;
}

export interface UndoLogs {
  maxTrxId: number;
  /** By transaction id. */
  logs: UndoLog[];
  /** Pages that could not be read, and why: the logs they held are missing from `logs`. */
  problems: string[];
}

/** The undo page `no` of a rollback segment's tablespace, or why it cannot be read. */
export async function undoPage(ts: Tablespace, no: number): Promise<Uint8Array | string> {
  if (no >= ts.pageCount) return `page ${no} lies past the end of ${ts.source.name} (${ts.pageCount} pages)`;
  const page = await ts.page(no);
  if (page.checksum === 'bad') return `page ${no} of ${ts.source.name} fails its checksum`;
  return page.bytes;
}

export async function readUndoLogs(system: Tablespace, spaceOf: SpaceOf): Promise<UndoLogs> {
  const problems: string[] = [];
  const sysPage = await undoPage(system, TRX_SYS_PAGE_NO);
  const trxSys = typeof sysPage === 'string' ? sysPage : readTrxSys(sysPage);
  if (typeof trxSys === 'string') return { maxTrxId: 0, logs: [], problems: [`${system.source.name}: the transaction system header cannot be read: ${trxSys}`] };
  const logs: UndoLog[] = [];
  for (const rseg of trxSys.rsegs) {
    const ts = await spaceOf(rseg.spaceId);
    if (ts === null) {
      problems.push(`rollback segment ${rseg.id} lies in tablespace ${rseg.spaceId}, whose file (an undo tablespace, undo${String(rseg.spaceId).padStart(3, '0')}) is not at hand`);
      continue;
    }
    await rsegLogs(ts, rseg, logs, problems);
  }
  logs.sort((a, b) => a.header.trxId - b.header.trxId);
  return { maxTrxId: trxSys.maxTrxId, logs, problems };
}

/** The logs of one rollback segment: those its history list links, then those of its slots' segments. */
async function rsegLogs(ts: Tablespace, rseg: RsegSlot, logs: UndoLog[], problems: string[]): Promise<void> {
  const where = `rollback segment ${rseg.id} (${ts.source.name} page ${rseg.pageNo})`;
  const page = await undoPage(ts, rseg.pageNo);
  if (typeof page === 'string') {
    problems.push(`${where} cannot be read: ${page}`);
    return;
  }
  const header = readRsegHeader(page, ts.pageSize);
  const seen = new Set<number>();
  let at: FilAddress | null = header.historyFirst;
  // The history list, newest first; its length bounds the walk (a damaged link cannot loop).
  for (let n = 0; at !== null && n < header.historyLength; n++) {
    const logPage = await undoPage(ts, at.pageNo);
    if (typeof logPage === 'string') {
      problems.push(`${where}: its history list breaks after ${n} of ${header.historyLength} logs: ${logPage}`);
      break;
    }
    const offset = at.offset - TRX_UNDO_HISTORY_NODE;
    const log = undoLogHeader(logPage, at.pageNo, offset);
    seen.add(at.pageNo * 65536 + offset);
    logs.push({ header: log, state: 'committed', rseg });
    at = flstNext(logPage, at.offset);
  }
  for (const slot of header.undoSlots) await slotLogs(ts, rseg, slot, seen, logs, problems, where);
}

/** The logs on the first page of an undo segment in a slot, oldest first, not already found in the history list. */
async function slotLogs(ts: Tablespace, rseg: RsegSlot, pageNo: number, seen: Set<number>, logs: UndoLog[], problems: string[], where: string): Promise<void> {
  const page = await undoPage(ts, pageNo);
  const pageHeader = typeof page === 'string' ? page : undoPageHeader(page);
  if (typeof page === 'string' || typeof pageHeader === 'string') {
    problems.push(`${where}: the undo segment of page ${pageNo} cannot be read: ${String(pageHeader)}`);
    return;
  }
  const segment = undoSegmentHeader(page);
  let offset = FIRST_LOG_HEADER;
  for (let n = 0; offset !== 0 && offset < pageHeader.free && n < 1000; n++) {
    const header = undoLogHeader(page, pageNo, offset);
    const last = offset === segment.lastLog;
    if (!seen.has(pageNo * 65536 + offset)) {
      const state = last && segment.state === 'active' ? 'active' : last && segment.state === 'prepared' ? 'prepared' : 'purged';
      logs.push({ header, state, rseg });
    }
    if (last) break;
    offset = header.nextLog;
  }
}

/** The pages of a log's records, in order, each with the bounds of its records there. */
export async function* logPages(ts: Tablespace, log: UndoLogHeader, problems: string[]): AsyncGenerator<{ pageNo: number; page: Uint8Array; from: number; to: number }> {
  const first = await undoPage(ts, log.pageNo);
  const firstHeader = typeof first === 'string' ? first : undoPageHeader(first);
  if (typeof first === 'string' || typeof firstHeader === 'string') {
    problems.push(`the undo log of transaction ${log.trxId} (${ts.source.name} page ${log.pageNo}) cannot be read: ${String(firstHeader)}`);
    return;
  }
  yield { pageNo: log.pageNo, page: first, from: log.logStart, to: log.nextLog !== 0 ? log.nextLog : firstHeader.free };
  if (log.nextLog !== 0) return;
  // The segment's last log continues on the pages after its first, in the page list.
  let next = firstHeader.next;
  for (let n = 0; next !== null && n < ts.pageCount; n++) {
    const page = await undoPage(ts, next.pageNo);
    const header = typeof page === 'string' ? page : undoPageHeader(page);
    if (typeof page === 'string' || typeof header === 'string') {
      problems.push(`the undo log of transaction ${log.trxId} breaks at ${ts.source.name} page ${next.pageNo}: ${String(header)}; its records from there on are not read`);
      return;
    }
    yield { pageNo: next.pageNo, page, from: header.start, to: header.free };
    next = header.next;
  }
}
