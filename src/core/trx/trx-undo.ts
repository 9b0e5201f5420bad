/**
 * Undo log pages (trx0undo): every undo page starts with TRX_UNDO_PAGE_HDR (where its records start and
 * end, its node in the segment's page list); the first page of an undo segment adds TRX_UNDO_SEG_HDR
 * (the segment's state, its last log, the page list) and one undo log header per transaction that
 * used the segment (a cached segment serves one transaction after another). A log header names its
 * transaction: id, commit number (trx no), XA identity, the table of a DDL transaction.
 */
import { FIL_PAGE_DATA, FIL_PAGE_TYPE, u16, u32 } from '../pages/fil-header.ts';
import { flstNext, readFlstBase, type FilAddress } from './flst.ts';

/** FIL_PAGE_UNDO_LOG. */
export const UNDO_PAGE_TYPE = 2;
const TRX_UNDO_PAGE_HDR = FIL_PAGE_DATA;
const TRX_UNDO_PAGE_START = 2;
const TRX_UNDO_PAGE_FREE = 4;
const TRX_UNDO_PAGE_NODE = 6;
const TRX_UNDO_SEG_HDR = TRX_UNDO_PAGE_HDR + 18;
const TRX_UNDO_STATE = 0;
const TRX_UNDO_LAST_LOG = 2;
const TRX_UNDO_PAGE_LIST = 14;
/** Where the first log header of a segment's first page begins (TRX_UNDO_SEG_HDR + TRX_UNDO_SEG_HDR_SIZE). */
export const FIRST_LOG_HEADER = TRX_UNDO_SEG_HDR + 30;
/** Offset of TRX_UNDO_HISTORY_NODE in a log header: the history list links these. */
export const TRX_UNDO_HISTORY_NODE = 34;

/**
 * TRX_UNDO_STATE: 1 active, 2 cached, 3 to-free (MySQL's insert undo), 4 to-purge, 5 prepared
 * (MySQL 8.0.28+ also 6 and 7 for a prepared transaction, in the binlog's two-phase commit).
 */
export type UndoState = 'active' | 'cached' | 'to-free' | 'to-purge' | 'prepared' | 'unknown';

export function undoStateOf(code: number): UndoState {
  switch (code) {
    case 1: return 'active';
    case 2: return 'cached';
    case 3: return 'to-free';
    case 4: return 'to-purge';
    case 5: case 6: case 7: return 'prepared';
    default: return 'unknown';
  }
}

export interface UndoPageHeader {
  /** The first record of the page's newest log, and the first free byte (the records' end). */
  start: number;
  free: number;
  /** The next page of the segment's page list, or null. */
  next: FilAddress | null;
}

/** TRX_UNDO_PAGE_HDR, or why the page is not an undo page. */
export function undoPageHeader(page: Uint8Array): UndoPageHeader | string {
  const type = u16(page, FIL_PAGE_TYPE);
  if (type !== UNDO_PAGE_TYPE) return `it is a page of type ${type}, not an undo log page`;
  const start = u16(page, TRX_UNDO_PAGE_HDR + TRX_UNDO_PAGE_START);
  const free = u16(page, TRX_UNDO_PAGE_HDR + TRX_UNDO_PAGE_FREE);
  if (free > page.length - 8 || start > free) return `its record bounds (${start} to ${free}) do not fit the page`;
  return { start, free, next: flstNext(page, TRX_UNDO_PAGE_HDR + TRX_UNDO_PAGE_NODE) };
}

export interface UndoSegmentHeader {
  state: UndoState;
  /** The newest log header's offset on this page. */
  lastLog: number;
  /** Pages of the segment, this one first. */
  pages: number;
}

export function undoSegmentHeader(page: Uint8Array): UndoSegmentHeader {
  return {
    state: undoStateOf(u16(page, TRX_UNDO_SEG_HDR + TRX_UNDO_STATE)),
    lastLog: u16(page, TRX_UNDO_SEG_HDR + TRX_UNDO_LAST_LOG),
    pages: readFlstBase(page, TRX_UNDO_SEG_HDR + TRX_UNDO_PAGE_LIST).length,
  };
}

export interface UndoLogHeader {
  /** Where it lies: its segment's first page and its offset there. */
  pageNo: number;
  offset: number;
  trxId: number;
  /** The commit number (0 while the transaction is active). */
  trxNo: number;
  /** Where its first record lies on this page. */
  logStart: number;
  /** The transaction was XA-prepared (or its XID kept): TRX_UNDO_XID_EXISTS (MySQL 8: TRX_UNDO_FLAGS bit 1). */
  xid: boolean;
  /** A data dictionary transaction (DDL), and its table id. */
  dictTrans: boolean;
  tableId: number;
  /** The next log header on this page (a later transaction's), or 0: this is the segment's last. */
  nextLog: number;
}

const u48 = (b: Uint8Array, at: number): number => u32(b, at) * 2 ** 32 + u32(b, at + 4);

export function undoLogHeader(page: Uint8Array, pageNo: number, offset: number): UndoLogHeader {
  return {
    pageNo,
    offset,
    trxId: u48(page, offset),
    trxNo: u48(page, offset + 8),
    logStart: u16(page, offset + 18),
    xid: (page[offset + 20] & 1) !== 0,
    dictTrans: page[offset + 21] !== 0,
    tableId: u48(page, offset + 22),
    nextLog: u16(page, offset + 30),
  };
}

/**
 * The offsets of the undo records from `from` up to `to` on an undo page: each record begins with the
 * offset of the next. Returns why the chain breaks, if it does (the records before are kept).
 */
export function recordOffsets(page: Uint8Array, from: number, to: number, out: number[]): string | null {
  let at = from;
  while (at < to) {
    const next = u16(page, at);
    if (next <= at + 4 || next > to) return `the undo record at offset ${at} says the next one is at ${next}, outside ${at + 5}…${to}`;
    out.push(at);
    at = next;
  }
  return null;
}
