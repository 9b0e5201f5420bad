/**
 * Every field of an INDEX page as the page inspector shows it (page0page.h, rem0rec.h): the whole
 * page header (index-page.ts reads only what the decoder's hot paths need), each record's header
 * (info bits, n_owned, heap number, status or field count, next record) and the page directory's
 * slots at the end of the page.
 */
import { FIL_PAGE_END_LSN_OLD_CHKSUM, u16, u64 } from './fil-header.ts';
import { compactNext, PAGE_BTR_SEG_TOP, PAGE_HEADER, readFsegHeader, readIndexHeader, redundantNext, type FsegHeader, type IndexPageHeader } from './index-page.ts';

export const PAGE_LAST_INSERT = 10;
export const PAGE_DIRECTION = 12;
export const PAGE_N_DIRECTION = 14;
export const PAGE_MAX_TRX_ID = 18;
export const PAGE_BTR_SEG_LEAF = 36;
/** The page header's size: after it come the infimum and supremum records. */
export const PAGE_HEADER_SIZE = 56;
/** An FSEG header: space id (4), INODE page (4), offset in it (2). */
export const FSEG_HEADER_SIZE = 10;
/** A page directory slot: the 2-byte offset of the record that owns the slot's group. */
export const PAGE_DIR_SLOT_SIZE = 2;

/** PAGE_DIRECTION: where the last inserts went. */
const DIRECTIONS = ['(none)', 'left', 'right', 'same record', 'same page', 'no direction'];

export interface IndexPageFields extends IndexPageHeader {
  /** PAGE_LAST_INSERT: the record last inserted, 0 after a delete or a reorganisation. */
  lastInsert: number;
  direction: number;
  directionName: string;
  /** PAGE_N_DIRECTION: inserts in a row in that direction. */
  nDirection: number;
  /** PAGE_MAX_TRX_ID: the newest transaction that changed a record (secondary index leaves, and the change buffer). */
  maxTrxId: bigint;
  /** The two file segments of the B-tree (kept on its root only): leaf pages and the others. */
  segLeaf: FsegHeader;
  segTop: FsegHeader;
}

export function readIndexPageFields(page: Uint8Array): IndexPageFields {
  const h = PAGE_HEADER;
  const direction = u16(page, h + PAGE_DIRECTION);
  return {
    ...readIndexHeader(page),
    lastInsert: u16(page, h + PAGE_LAST_INSERT),
    direction,
    directionName: DIRECTIONS[direction] ?? `unknown (${direction})`,
    nDirection: u16(page, h + PAGE_N_DIRECTION),
    maxTrxId: u64(page, h + PAGE_MAX_TRX_ID),
    segLeaf: readFsegHeader(page, PAGE_BTR_SEG_LEAF),
    segTop: readFsegHeader(page, PAGE_BTR_SEG_TOP),
  };
}

export interface RecordHeader {
  /** Info bits: 0x20 delete-marked, 0x10 the minimum record (of a level, or MariaDB's instant metadata). */
  infoBits: number;
  /** Records owned by this one in the page directory (non-zero only for a slot's owner). */
  nOwned: number;
  /** The record's place in the heap: 0 infimum, 1 supremum, then in order of allocation. */
  heapNo: number;
  /** COMPACT: 0 ordinary, 1 node pointer, 2 infimum, 3 supremum, 4 MariaDB instant; null in REDUNDANT. */
  status: number | null;
  /** REDUNDANT: fields in the record and whether their end offsets take one byte; null in COMPACT. */
  nFields: number | null;
  shortOffsets: boolean | null;
  /** The next record's origin, absolute (0: none). */
  next: number;
  /** Bytes of the fixed header before the origin: 5 (COMPACT) or 6 (REDUNDANT). */
  size: number;
}

export function readRecordHeader(page: Uint8Array, origin: number, compact: boolean): RecordHeader {
  if (compact) {
    return {
      infoBits: page[origin - 5] & 0xf0,
      nOwned: page[origin - 5] & 0x0f,
      heapNo: u16(page, origin - 4) >> 3,
      status: page[origin - 3] & 7,
      nFields: null,
      shortOffsets: null,
      next: compactNext(page, origin),
      size: 5,
    };
  }
  return {
    infoBits: page[origin - 6] & 0xf0,
    nOwned: page[origin - 6] & 0x0f,
    heapNo: u16(page, origin - 5) >> 3,
    status: null,
    nFields: (u16(page, origin - 4) >> 1) & 0x3ff,
    shortOffsets: (page[origin - 3] & 1) !== 0,
    next: redundantNext(page, origin),
    size: 6,
  };
}

/**
 * Where a REDUNDANT record lies, from its own header (its field end offsets): from the first end
 * offset to the end of its last field. COMPACT records need the table definition to be measured.
 */
export function redundantExtent(page: Uint8Array, origin: number): { start: number; end: number } {
  const h = readRecordHeader(page, origin, false);
  const n = h.nFields ?? 0;
  const last = n === 0 ? 0 : h.shortOffsets ? page[origin - 7 - (n - 1)] & 0x7f : u16(page, origin - 8 - 2 * (n - 1)) & 0x3fff;
  return { start: origin - 6 - n * (h.shortOffsets ? 1 : 2), end: origin + last };
}

/** Offset of the page directory's lowest byte (its last slot) for `nDirSlots` slots. */
export function directoryStart(page: Uint8Array, nDirSlots: number): number {
  return page.length - FIL_PAGE_END_LSN_OLD_CHKSUM - PAGE_DIR_SLOT_SIZE * nDirSlots;
}

/**
 * The page directory: slot 0 (the infimum's, at the page's end) first, each the origin of the record
 * owning its group. At most as many slots as fit between the records and the FIL trailer.
 */
export function directorySlots(page: Uint8Array, nDirSlots: number): number[] {
  const n = Math.min(nDirSlots, Math.floor((page.length - FIL_PAGE_END_LSN_OLD_CHKSUM - PAGE_HEADER - PAGE_HEADER_SIZE) / PAGE_DIR_SLOT_SIZE));
  const slots: number[] = [];
  for (let i = 0; i < n; i++) slots.push(u16(page, page.length - FIL_PAGE_END_LSN_OLD_CHKSUM - PAGE_DIR_SLOT_SIZE * (i + 1)));
  return slots;
}
