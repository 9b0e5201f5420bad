/**
 * INDEX page (page0page.h): the page header after the FIL header, the infimum and supremum records,
 * and the singly linked list of records between them in key order.
 */
import { FIL_PAGE_DATA, u16, u32, u64 } from './fil-header.ts';

export const PAGE_HEADER = FIL_PAGE_DATA;
export const PAGE_N_DIR_SLOTS = 0;
export const PAGE_HEAP_TOP = 2;
export const PAGE_N_HEAP = 4;
export const PAGE_FREE = 6;
export const PAGE_GARBAGE = 8;
export const PAGE_N_RECS = 16;
export const PAGE_LEVEL = 26;
export const PAGE_INDEX_ID = 28;
export const PAGE_BTR_SEG_TOP = 46;
/** Start of the records area (infimum), after the 56-byte page header. */
export const PAGE_DATA = PAGE_HEADER + 56;

/** Record origins of infimum/supremum: COMPACT puts 5 header bytes before each, REDUNDANT 6 (+1 length byte). */
export const PAGE_NEW_INFIMUM = PAGE_DATA + 5;
export const PAGE_NEW_SUPREMUM = PAGE_DATA + 2 * 5 + 8;
export const PAGE_OLD_INFIMUM = PAGE_DATA + 1 + 6;
export const PAGE_OLD_SUPREMUM = PAGE_DATA + 2 + 2 * 6 + 8;
/** Where user records may start: after the supremum's data ("supremum" + NUL in REDUNDANT). */
export const PAGE_NEW_SUPREMUM_END = PAGE_NEW_SUPREMUM + 8;
export const PAGE_OLD_SUPREMUM_END = PAGE_OLD_SUPREMUM + 9;

export interface IndexPageHeader {
  nDirSlots: number;
  heapTop: number;
  /** Records in the heap, including infimum, supremum and deleted ones. */
  nHeap: number;
  /** Compact (COMPACT/DYNAMIC/COMPRESSED) record format, else REDUNDANT. */
  compact: boolean;
  free: number;
  garbage: number;
  /** User records in the list (not counting delete-marked ones already purged). */
  nRecs: number;
  level: number;
  indexId: bigint;
}

export function readIndexHeader(page: Uint8Array): IndexPageHeader {
  const h = PAGE_HEADER;
  const nHeapRaw = u16(page, h + PAGE_N_HEAP);
  return {
    nDirSlots: u16(page, h + PAGE_N_DIR_SLOTS),
    heapTop: u16(page, h + PAGE_HEAP_TOP),
    nHeap: nHeapRaw & 0x7fff,
    compact: (nHeapRaw & 0x8000) !== 0,
    free: u16(page, h + PAGE_FREE),
    garbage: u16(page, h + PAGE_GARBAGE),
    nRecs: u16(page, h + PAGE_N_RECS),
    level: u16(page, h + PAGE_LEVEL),
    indexId: u64(page, h + PAGE_INDEX_ID),
  };
}

/** A file segment header (FSEG_HEADER): where the segment's INODE entry is. */
export interface FsegHeader {
  spaceId: number;
  inodePage: number;
  inodeOffset: number;
}

export function readFsegHeader(page: Uint8Array, at: number): FsegHeader {
  const o = PAGE_HEADER + at;
  return { spaceId: u32(page, o), inodePage: u32(page, o + 4), inodeOffset: u16(page, o + 8) };
}

/** Info bits in the record header. */
export const REC_INFO_DELETED = 0x20;
export const REC_INFO_MIN_REC = 0x10;

/** Record status (COMPACT header, low 3 bits of byte origin-3): 0 ordinary, 1 node pointer, 2 infimum, 3 supremum, 4 MariaDB instant metadata. */
export const REC_STATUS_ORDINARY = 0;
export const REC_STATUS_NODE_PTR = 1;

export function compactInfoBits(page: Uint8Array, origin: number): number {
  return page[origin - 5] & 0xf0;
}

export function compactStatus(page: Uint8Array, origin: number): number {
  return page[origin - 3] & 7;
}

/** Next record in a COMPACT page: a relative offset, wrapping within the page. */
export function compactNext(page: Uint8Array, origin: number): number {
  const rel = u16(page, origin - 2);
  return rel === 0 ? 0 : (origin + rel) & (page.length - 1);
}

export function redundantInfoBits(page: Uint8Array, origin: number): number {
  return page[origin - 6] & 0xf0;
}

/** Next record in a REDUNDANT page: an absolute offset. */
export function redundantNext(page: Uint8Array, origin: number): number {
  return u16(page, origin - 2);
}

/** Records of a leaf page by their delete mark (filled by tallyRecords). */
export interface RecordTally {
  live: number;
  deleted: number;
  /** Records in the list that are no row (MariaDB's instant-ALTER metadata record): with the others, what PAGE_N_RECS counts. */
  other: number;
}

/**
 * Counts a leaf page's records (not delete-marked / delete-marked) along its record list, with the
 * checks of recordOrigins() and its message when the list is damaged (then the tally is partial).
 * MariaDB's instant-ALTER metadata record (REC_INFO_MIN_REC on a leaf) is not a row. One tight loop,
 * no list of origins: row counts walk every leaf of a table with it.
 */
export function tallyRecords(b: Uint8Array, compact: boolean, into: RecordTally): string | null {
  into.live = 0;
  into.deleted = 0;
  into.other = 0;
  const size = b.length;
  const limit = size / 5;
  const supremum = compact ? PAGE_NEW_SUPREMUM : PAGE_OLD_SUPREMUM;
  let rec = compact ? PAGE_NEW_INFIMUM : PAGE_OLD_INFIMUM;
  for (let seen = 0; ; seen++) {
    // The next-record field: relative (wrapping in the page) in COMPACT, absolute in REDUNDANT.
    const field = (b[rec - 2] << 8) | b[rec - 1];
    rec = compact ? (field === 0 ? 0 : (rec + field) & (size - 1)) : field;
    if (rec === supremum) return null;
    if (rec < PAGE_DATA || rec >= size - 8) return `a record pointer points outside the page (offset ${rec})`;
    if (seen > limit) return 'the record list loops';
    const info = b[rec - (compact ? 5 : 6)] & 0xf0;
    if (info & REC_INFO_MIN_REC) into.other++;
    else if (info & REC_INFO_DELETED) into.deleted++;
    else into.live++;
  }
}

/**
 * The user records of an INDEX page in list order, as origins (byte offsets of the record data).
 * Stops with an error string instead of looping when the list is damaged.
 */
export function recordOrigins(page: Uint8Array, compact: boolean, out: number[]): string | null {
  out.length = 0;
  const infimum = compact ? PAGE_NEW_INFIMUM : PAGE_OLD_INFIMUM;
  const supremum = compact ? PAGE_NEW_SUPREMUM : PAGE_OLD_SUPREMUM;
  const next = compact ? compactNext : redundantNext;
  // A page cannot hold more records than its heap has slots; beyond that the list loops.
  const limit = page.length / 5;
  let rec = next(page, infimum);
  while (rec !== supremum) {
    if (rec < PAGE_DATA || rec >= page.length - 8) return `a record pointer points outside the page (offset ${rec})`;
    if (out.length > limit) return 'the record list loops';
    out.push(rec);
    rec = next(page, rec);
  }
  return null;
}

/**
 * Records in the page's free list (PAGE_FREE): deleted records that purge removed from the list of
 * rows. Their bytes stay until the space is reused, so a deleted row can often still be read back.
 * Stops (returns what it has) at the first pointer that leaves the heap or loops.
 */
export function freeListOrigins(page: Uint8Array, compact: boolean, out: number[]): void {
  out.length = 0;
  const h = readIndexHeader(page);
  const start = compact ? PAGE_NEW_SUPREMUM_END : PAGE_OLD_SUPREMUM_END;
  let rec = h.free;
  const seen = new Set<number>();
  while (rec !== 0 && rec >= start && rec < h.heapTop && !seen.has(rec)) {
    seen.add(rec);
    out.push(rec);
    rec = compact ? compactNext(page, rec) : redundantNext(page, rec);
  }
}
