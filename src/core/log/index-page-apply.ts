/**
 * The EXTENDED redo records of an index page, applied as the server's recovery does (page0page.cc
 * page_create_low, page0cur.cc page_apply_insert_redundant/dynamic, page_apply_delete_redundant/
 * dynamic, with the page directory's slot split and balance and page_mem_free): a record's header
 * and payload are rebuilt from its predecessor's bytes and the literal bytes of the log, the
 * record list, the directory and the page header updated. Each checks the page first and refuses
 * (returns why) where it does not fit, as the server does before it touches the page.
 */
import { u16 } from '../pages/fil-header.ts';

const PH = 38;
const N_DIR_SLOTS = PH;
const HEAP_TOP = PH + 2;
const N_HEAP = PH + 4;
const FREE = PH + 6;
const GARBAGE = PH + 8;
const LAST_INSERT = PH + 10;
const DIRECTION_B = PH + 13;
const N_DIRECTION = PH + 14;
const N_RECS = PH + 16;
const LEVEL = PH + 26;
/** The part of the page header a page create clears (PAGE_HEADER_PRIV_END). */
const PRIV_END = 26;
const PAGE_DATA = 94;
const NEW_INFIMUM = 99;
const NEW_SUPREMUM = 112;
const NEW_SUPREMUM_END = 120;
const OLD_INFIMUM = 101;
const OLD_SUPREMUM = 116;
const OLD_SUPREMUM_END = 125;
/** REC_N_NEW_EXTRA_BYTES, REC_N_OLD_EXTRA_BYTES. */
const NEW_EXTRA = 5;
const OLD_EXTRA = 6;
const MAX_OWNED = 8;
const MIN_OWNED = 4;
const NO_DIRECTION = 5;
const LEFT = 1;
const RIGHT = 2;
const FIL_PAGE_INDEX = 17855;
const FIL_PAGE_RTREE = 17854;
const REC_STATUS_INSTANT = 4;
const REC_STATUS_NODE_PTR = 1;

/** The infimum and supremum of an empty COMPACT page: headers (n_owned 1, heap 0 and 1, statuses) and names. */
const COMPACT_EMPTY = [1, 0, 2, 0, 13, ...'infimum\0', 1, 0, 11, 0, 0, ...'supremum'];
/** The same in REDUNDANT: a 1-byte end offset, then the 6-byte header, then the name. */
const REDUNDANT_EMPTY = [8, 1, 0, 0, 3, 0, 116, ...'infimum\0', 9, 1, 0, 8, 3, 0, 0, ...'supremum\0'];
const bytesOf = (parts: (number | string)[]) => Uint8Array.from(parts.map((p) => (typeof p === 'string' ? p.charCodeAt(0) : p)));
const COMPACT_RECORDS = bytesOf(COMPACT_EMPTY);
const REDUNDANT_RECORDS = bytesOf(REDUNDANT_EMPTY);

const put16 = (p: Uint8Array, at: number, v: number) => {
  p[at] = (v >>> 8) & 0xff;
  p[at + 1] = v & 0xff;
};
const slotAt = (p: Uint8Array, n: number) => p.length - 8 - 2 * (n + 1);
const isComp = (p: Uint8Array) => (u16(p, N_HEAP) & 0x8000) !== 0;
const ownedOf = (p: Uint8Array, rec: number, comp: boolean) => p[rec - (comp ? NEW_EXTRA : OLD_EXTRA)] & 0x0f;
const setOwned = (p: Uint8Array, rec: number, n: number, comp: boolean) => {
  const at = rec - (comp ? NEW_EXTRA : OLD_EXTRA);
  p[at] = (p[at] & 0xf0) | n;
};
const heapNo = (p: Uint8Array, rec: number, comp: boolean) => u16(p, rec - (comp ? 4 : 5)) >>> 3;
const nextOf = (p: Uint8Array, rec: number, comp: boolean) => (comp ? (rec + u16(p, rec - 2)) & 0xffff : u16(p, rec - 2));
/** A REDUNDANT record's field count, and whether its offsets take one byte. */
const oldFields = (p: Uint8Array, rec: number) => (u16(p, rec - 4) >>> 1) & 0x3ff;
const oldShort = (p: Uint8Array, rec: number) => (p[rec - 3] & 1) === 1;
const oldExtra = (p: Uint8Array, rec: number) => OLD_EXTRA + oldFields(p, rec) * (oldShort(p, rec) ? 1 : 2);
/** rec_get_data_size_old(): where its last field ends. */
function oldDataSize(p: Uint8Array, rec: number): number {
  const n = oldFields(p, rec);
  return oldShort(p, rec) ? p[rec - OLD_EXTRA - n] & 0x7f : u16(p, rec - OLD_EXTRA - 2 * n) & 0x3fff;
}

/** page_create_low(): an empty index page of the row format, its FIL header kept. */
export function createIndexPage(p: Uint8Array, comp: boolean): void {
  const size = p.length;
  put16(p, 24, FIL_PAGE_INDEX);
  p.fill(0, PH, PH + PRIV_END);
  p[N_DIR_SLOTS + 1] = 2;
  p[DIRECTION_B] = NO_DIRECTION;
  p[N_HEAP + 1] = 2;
  if (comp) p[N_HEAP] = 0x80;
  const records = comp ? COMPACT_RECORDS : REDUNDANT_RECORDS;
  const end = comp ? NEW_SUPREMUM_END : OLD_SUPREMUM_END;
  p[HEAP_TOP + 1] = end;
  p.set(records, PAGE_DATA);
  p.fill(0, end, size - 8);
  p[size - 8 - 4 + 1] = comp ? NEW_SUPREMUM : OLD_SUPREMUM;
  p[size - 8 - 2 + 1] = comp ? NEW_INFIMUM : OLD_INFIMUM;
}

/** The page checks every insert and delete makes first; null when they pass. */
function pageProblem(p: Uint8Array, pageNo: number, comp: boolean): string | null {
  const type = u16(p, 24);
  if (type !== FIL_PAGE_INDEX && type !== FIL_PAGE_RTREE) return `page type ${type} is not an index page`;
  if (((p[4] << 24) | (p[5] << 16) | (p[6] << 8) | p[7]) >>> 0 !== pageNo) return 'its FIL_PAGE_OFFSET is another page';
  if (isComp(p) !== comp) return 'its row format is not the record\'s';
  if (u16(p, N_DIR_SLOTS) < 2) return 'its page directory has fewer than 2 slots';
  if (u16(p, (comp ? NEW_SUPREMUM : OLD_SUPREMUM) - 2) !== 0) return 'its supremum has a successor';
  return null;
}

/**
 * The directory slot of the record owning `from` (the first with n_owned set), or a reason: the
 * owner is the record the slot points to (no object returned for each insert and delete).
 */
function owner(p: Uint8Array, from: number, comp: boolean, heapTop: number): number | string {
  const bottom = (comp ? NEW_SUPREMUM_END : OLD_SUPREMUM_END) + (comp ? NEW_EXTRA : OLD_EXTRA);
  const supremum = comp ? NEW_SUPREMUM : OLD_SUPREMUM;
  let rec = from;
  for (let steps = u16(p, N_RECS) + MAX_OWNED + 1; ownedOf(p, rec, comp) === 0; ) {
    rec = nextOf(p, rec, comp);
    if (rec !== supremum && (rec < bottom || rec > heapTop)) return 'its record list leaves the heap';
    if (steps-- === 0) return 'its record list loops';
  }
  const first = slotAt(p, 0);
  const hi = rec >>> 8;
  const lo = rec & 0xff;
  for (let slot = slotAt(p, u16(p, N_DIR_SLOTS) - 1); slot <= first; slot += 2) if (p[slot + 1] === lo && p[slot] === hi) return slot;
  return 'no directory slot points to the owner record';
}

/** Records up to this long are copied byte by byte: a view for each cost more than the copy. */
const SHORT_COPY = 64;

/** src[from, to) copied to p at `at`. */
export function copyIn(p: Uint8Array, at: number, src: Uint8Array, from: number, to: number): void {
  if (to - from > SHORT_COPY) p.set(src.subarray(from, to), at);
  else for (let i = from; i < to; i++) p[at++] = src[i];
}

/** page_dir_split_slot(): a slot owning MAX_OWNED + 1 records becomes two. */
function splitSlot(p: Uint8Array, slot: number, comp: boolean): void {
  const owned = MAX_OWNED + 1;
  let rec = u16(p, slot + 2);
  for (let i = owned >> 1; i--; ) rec = nextOf(p, rec, comp);
  const n = u16(p, N_DIR_SLOTS);
  const last = slotAt(p, n);
  p.copyWithin(last, last + 2, slot + 2);
  put16(p, N_DIR_SLOTS, n + 1);
  put16(p, slot, rec);
  setOwned(p, rec, owned >> 1, comp);
  setOwned(p, u16(p, slot - 2), owned - (owned >> 1), comp);
}

/** page_dir_balance_slot(): slot `s`, owning too few records, takes one from the next or merges into it. */
function balanceSlot(p: Uint8Array, s: number, comp: boolean): void {
  const n = u16(p, N_DIR_SLOTS);
  if (s + 1 === n) return;
  const slot = slotAt(p, s);
  const up = u16(p, slot - 2);
  const rec = u16(p, slot);
  const upOwned = ownedOf(p, up, comp);
  if (upOwned <= MIN_OWNED) {
    setOwned(p, rec, 0, comp);
    setOwned(p, up, upOwned + MIN_OWNED - 1, comp);
    const last = slotAt(p, n - 1);
    p.copyWithin(last + 2, last, slot);
    p.fill(0, last, last + 2);
    put16(p, N_DIR_SLOTS, n - 1);
    return;
  }
  setOwned(p, rec, 0, comp);
  const moved = nextOf(p, rec, comp);
  setOwned(p, moved, MIN_OWNED, comp);
  setOwned(p, up, upOwned - 1, comp);
  put16(p, slot, moved);
}

/** page_mem_free(): a deleted record goes to PAGE_FREE, or off the heap's top when it was the last one allocated. */
function freeRecord(p: Uint8Array, rec: number, dataSize: number, extraSize: number): void {
  const free = u16(p, FREE);
  const nHeap = (u16(p, N_HEAP) - 1) & 0xffff;
  const comp = (nHeap & 0x8000) !== 0;
  const top = nHeap === (comp ? heapNo(p, rec, true) | 0x8000 : heapNo(p, rec, false));
  if (top) {
    const savings = u16(p, HEAP_TOP) - (rec + dataSize);
    put16(p, HEAP_TOP, rec - extraSize);
    put16(p, N_HEAP, nHeap);
    if (savings) put16(p, GARBAGE, u16(p, GARBAGE) - savings);
  } else {
    put16(p, FREE, rec);
    put16(p, GARBAGE, u16(p, GARBAGE) + extraSize + dataSize);
  }
  put16(p, LAST_INSERT, 0);
  put16(p, N_RECS, u16(p, N_RECS) - 1);
  if (!top) put16(p, rec - 2, free ? (comp ? (free - rec) & 0xffff : free) : 0);
  p.fill(0, top ? rec - extraSize : rec, rec + dataSize);
}

/** PAGE_DIRECTION_B and PAGE_N_DIRECTION after an insert between `prev` and `next` (not on an R-tree page). */
function updateDirection(p: Uint8Array, lastInsert: number, prev: number, next: number): void {
  if (p[25] === (FIL_PAGE_RTREE & 0xff)) return;
  const dir = p[DIRECTION_B] & 7;
  if (lastInsert === 0) setDirection(p, NO_DIRECTION, 0);
  else if (lastInsert === prev && dir !== LEFT) setDirection(p, RIGHT, u16(p, N_DIRECTION) + 1);
  else if (lastInsert === next && dir !== RIGHT) setDirection(p, LEFT, u16(p, N_DIRECTION) + 1);
  else setDirection(p, NO_DIRECTION, 0);
}

/** PAGE_DIRECTION_B's direction bits and PAGE_N_DIRECTION (a function of its own: a closure made for each of millions of inserts fed the GC). */
function setDirection(p: Uint8Array, d: number, count: number): void {
  p[DIRECTION_B] = (p[DIRECTION_B] & ~7) | d;
  put16(p, N_DIRECTION, count);
}

/** What an INSERT_*_DYNAMIC record says (page_apply_insert_dynamic's arguments). */
export interface DynamicInsert {
  reuse: boolean;
  prev: number;
  shift: number;
  encHdrL: number;
  hdrC: number;
  dataC: number;
  /** The literal bytes are log[from, to) (read in place: no view of each record). */
  log: Uint8Array;
  from: number;
  to: number;
}

/** page_apply_insert_dynamic(): null when applied, else why not. */
export function insertDynamic(p: Uint8Array, pageNo: number, r: DynamicInsert): string | null {
  const bad = pageProblem(p, pageNo, true);
  if (bad) return bad;
  let h = u16(p, N_HEAP);
  const nSlots = u16(p, N_DIR_SLOTS);
  const leaf = u16(p, LEVEL) === 0;
  const literal = r.encHdrL >>> 3;
  if (h < (2 | 0x8000) || (h & 0x7fff) < nSlots || (r.encHdrL & REC_STATUS_INSTANT && !leaf) || literal > r.to - r.from) return 'its heap or the record does not fit';
  const lastSlot = slotAt(p, nSlots - 1);
  const heapTop = u16(p, HEAP_TOP);
  if (heapTop < NEW_SUPREMUM_END || heapTop > lastSlot || u16(p, lastSlot) !== NEW_SUPREMUM || u16(p, slotAt(p, 0)) !== NEW_INFIMUM) return 'its heap top or directory is out of place';
  const prev = NEW_INFIMUM + r.prev;
  const next = (prev + u16(p, prev - 2)) & 0xffff;
  const bottom = NEW_SUPREMUM_END + NEW_EXTRA;
  if (r.prev && (prev < bottom || prev > heapTop)) return 'the predecessor is off the heap';
  if (next !== NEW_SUPREMUM && (next < bottom || next > heapTop)) return 'the successor is off the heap';
  const slot = owner(p, next, true, heapTop);
  if (typeof slot === 'string') return slot;
  const ownerRec = u16(p, slot);
  const owned = ownedOf(p, ownerRec, true);
  if (owned > MAX_OWNED) return 'a slot owns too many records';
  const extraSize = NEW_EXTRA + r.hdrC + literal;
  const dataSize = r.dataC + r.to - r.from - literal;
  let buf: number;
  if (r.reuse) {
    const free = u16(p, FREE);
    if (free < bottom || free > heapTop) return 'PAGE_FREE is off the heap';
    buf = free - extraSize + (r.shift & 1 ? -(r.shift >>> 1) : r.shift >>> 1);
    if (buf < NEW_SUPREMUM_END || buf + extraSize + dataSize > heapTop) return 'the freed space does not hold the record';
    if (u16(p, GARBAGE) < extraSize + dataSize) return 'PAGE_GARBAGE is too small';
    let nextFree = u16(p, free - 2);
    if (nextFree !== 0) {
      nextFree = (nextFree + free) & 0xffff;
      if (nextFree < bottom || nextFree > heapTop) return 'the free list leaves the heap';
    }
    put16(p, FREE, nextFree);
    put16(p, GARBAGE, u16(p, GARBAGE) - extraSize - dataSize);
    h = heapNo(p, free, true);
  } else {
    if (heapTop + extraSize + dataSize > lastSlot) return 'the record does not fit below the directory';
    put16(p, N_HEAP, h + 1);
    h &= 0x7fff;
    put16(p, HEAP_TOP, heapTop + extraSize + dataSize);
    buf = heapTop;
  }
  // The header and data shared with the predecessor are copied from it in the page, as the server's
  // memcpy does: the new record's space (above the heap top, or a freed record's) is not the predecessor's.
  copyIn(p, buf, r.log, r.from, r.from + literal);
  buf += literal;
  p.copyWithin(buf, prev - NEW_EXTRA - r.hdrC, prev - NEW_EXTRA);
  buf += r.hdrC;
  p[buf++] = (r.encHdrL & 3) << 4;
  p[buf++] = (h >>> 5) & 0xff;
  p[buf++] = (((h & 31) << 3) | (leaf ? r.encHdrL & REC_STATUS_INSTANT : REC_STATUS_NODE_PTR)) & 0xff;
  buf += 2;
  put16(p, buf - 2, (next - buf) & 0xffff);
  const lastInsert = u16(p, LAST_INSERT);
  put16(p, LAST_INSERT, buf);
  put16(p, prev - 2, (buf - prev) & 0xffff);
  p.copyWithin(buf, prev, prev + r.dataC);
  copyIn(p, buf + r.dataC, r.log, r.from + literal, r.to);
  setOwned(p, ownerRec, owned + 1, true);
  updateDirection(p, lastInsert, prev, next);
  put16(p, N_RECS, u16(p, N_RECS) + 1);
  if (owned === MAX_OWNED) splitSlot(p, slot, true);
  return null;
}

/** What an INSERT_*_REDUNDANT record says (page_apply_insert_redundant's arguments). */
export interface RedundantInsert {
  reuse: boolean;
  prev: number;
  encHdr: number;
  hdrC: number;
  dataC: number;
  data: Uint8Array;
}

/** page_apply_insert_redundant(): null when applied, else why not. */
export function insertRedundant(p: Uint8Array, pageNo: number, r: RedundantInsert): string | null {
  const bad = pageProblem(p, pageNo, false);
  if (bad) return bad;
  const h = u16(p, N_HEAP);
  const nSlots = u16(p, N_DIR_SLOTS);
  if (h < nSlots || h < 2 || h >= p.length / OLD_EXTRA) return 'its heap count is out of range';
  const lastSlot = slotAt(p, nSlots - 1);
  const heapTop = u16(p, HEAP_TOP);
  if (heapTop < OLD_SUPREMUM_END || heapTop > lastSlot || u16(p, lastSlot) !== OLD_SUPREMUM || u16(p, slotAt(p, 0)) !== OLD_INFIMUM) return 'its heap top or directory is out of place';
  const prev = OLD_INFIMUM + r.prev;
  if (r.prev && (prev < OLD_SUPREMUM_END + OLD_EXTRA + 1 || prev > heapTop)) return 'the predecessor is off the heap';
  if (oldFields(p, prev) === 0 || prev + oldDataSize(p, prev) > heapTop) return 'the predecessor is malformed';
  const next = u16(p, prev - 2);
  if (next !== OLD_SUPREMUM && (next < OLD_SUPREMUM_END + OLD_EXTRA || next > heapTop)) return 'the successor is off the heap';
  const short = ((r.encHdr >>> 2) & 1) === 1;
  const nFields = (r.encHdr >>> 3) + 1;
  const extraSize = OLD_EXTRA + (short ? nFields : nFields * 2);
  const hdrC = r.hdrC + OLD_EXTRA;
  if (nFields > 1023 || hdrC > extraSize || extraSize - hdrC > r.data.length) return 'the record header does not fit';
  const slot = owner(p, next, false, heapTop);
  if (typeof slot === 'string') return slot;
  const ownerRec = u16(p, slot);
  const owned = ownedOf(p, ownerRec, false);
  if (owned > MAX_OWNED) return 'a slot owns too many records';
  // The record's header built apart first: the literal bytes, then those it shares with its predecessor.
  const head = new Uint8Array(extraSize);
  head.set(r.data.subarray(0, extraSize - hdrC), 0);
  head.set(p.subarray(prev - hdrC, prev), extraSize - hdrC);
  const rec = extraSize;
  head[rec - 6] = (r.encHdr & 3) << 4;
  head[rec - 3] = (head[rec - 3] & ~1) | (short ? 1 : 0);
  put16(head, rec - 4, (u16(head, rec - 4) & ~0x7fe) | (nFields << 1));
  const dataSize = short ? head[rec - OLD_EXTRA - nFields] & 0x7f : u16(head, rec - OLD_EXTRA - 2 * nFields) & 0x3fff;
  if (r.dataC > dataSize || extraSize - hdrC + dataSize - r.dataC !== r.data.length) return 'the record\'s lengths disagree';
  let buf: number;
  let heap = h;
  if (r.reuse) {
    const free = u16(p, FREE);
    if (free < OLD_SUPREMUM_END + OLD_EXTRA || free > heapTop) return 'PAGE_FREE is off the heap';
    const freeExtra = oldExtra(p, free);
    const freeData = oldDataSize(p, free);
    if (free - freeExtra < OLD_SUPREMUM_END || free + freeData > heapTop || extraSize + dataSize > freeExtra + freeData) return 'the freed record does not hold the new one';
    if (u16(p, GARBAGE) < freeExtra + freeData) return 'PAGE_GARBAGE is too small';
    const nextFree = u16(p, free - 2);
    if (nextFree !== 0 && (nextFree < OLD_SUPREMUM_END + OLD_EXTRA + 1 || nextFree > heapTop)) return 'the free list leaves the heap';
    put16(p, GARBAGE, u16(p, GARBAGE) - extraSize - dataSize);
    heap = heapNo(p, free, false);
    buf = free - freeExtra;
    put16(p, FREE, nextFree);
  } else {
    if (heapTop + extraSize + dataSize > lastSlot) return 'the record does not fit below the directory';
    put16(p, N_HEAP, h + 1);
    put16(p, HEAP_TOP, heapTop + extraSize + dataSize);
    buf = heapTop;
  }
  put16(head, rec - 5, (u16(head, rec - 5) & 7) | (heap << 3));
  const common = p.slice(prev, prev + r.dataC);
  const lastInsert = u16(p, LAST_INSERT);
  p.set(head, buf);
  buf += extraSize;
  put16(p, LAST_INSERT, buf);
  put16(p, prev - 2, buf);
  p.set(common, buf);
  p.set(r.data.subarray(extraSize - hdrC), buf + r.dataC);
  setOwned(p, ownerRec, owned + 1, false);
  updateDirection(p, lastInsert, prev, next);
  put16(p, N_RECS, u16(p, N_RECS) + 1);
  if (owned === MAX_OWNED) splitSlot(p, slot, false);
  return null;
}

/** The record after `prev` unlinked and freed, its owner's count lowered and its slot balanced (both delete records). */
function unlink(p: Uint8Array, prev: number, rec: number, next: number, comp: boolean, dataSize: number, extraSize: number): string | null {
  const slot = owner(p, rec, comp, slotAt(p, u16(p, N_DIR_SLOTS) - 1));
  if (typeof slot === 'string') return slot;
  let ownerRec = u16(p, slot);
  const owned = ownedOf(p, ownerRec, comp);
  if (rec === ownerRec) {
    ownerRec = prev;
    put16(p, slot, prev);
  }
  put16(p, prev - 2, comp ? (next - prev) & 0xffff : next);
  setOwned(p, ownerRec, owned - 1, comp);
  freeRecord(p, rec, dataSize, extraSize);
  if (owned - 1 < MIN_OWNED) balanceSlot(p, (slotAt(p, 0) - slot) / 2, comp);
  return null;
}

/** page_apply_delete_redundant(): the successor of the record at `prev` (from the infimum) deleted. */
export function deleteRedundant(p: Uint8Array, pageNo: number, prevOffset: number): string | null {
  const bad = pageProblem(p, pageNo, false) ?? (u16(p, N_RECS) === 0 ? 'the page has no record' : null);
  if (bad) return bad;
  const lastSlot = slotAt(p, u16(p, N_DIR_SLOTS) - 1);
  const prev = OLD_INFIMUM + prevOffset;
  const rec = u16(p, prev - 2);
  if (prev > lastSlot || rec < OLD_SUPREMUM_END + OLD_EXTRA || rec > lastSlot) return 'the record is off the page';
  const extraSize = oldExtra(p, rec);
  const dataSize = oldDataSize(p, rec);
  if (rec < OLD_SUPREMUM_END + extraSize || rec + dataSize > lastSlot) return 'the record is malformed';
  const next = u16(p, rec - 2);
  if (next !== OLD_SUPREMUM && (next < OLD_SUPREMUM_END + OLD_EXTRA || next > lastSlot)) return 'the successor is off the page';
  return unlink(p, prev, rec, next, false, dataSize, extraSize);
}

/** page_apply_delete_dynamic(): the successor of the record at `prev` (from the infimum) deleted; its sizes are logged. */
export function deleteDynamic(p: Uint8Array, pageNo: number, prevOffset: number, hdrSize: number, dataSize: number): string | null {
  const bad = pageProblem(p, pageNo, true) ?? (u16(p, N_RECS) === 0 ? 'the page has no record' : null);
  if (bad) return bad;
  const lastSlot = slotAt(p, u16(p, N_DIR_SLOTS) - 1);
  const prev = NEW_INFIMUM + prevOffset;
  if (prev > lastSlot) return 'the predecessor is off the page';
  const rec = (prev + u16(p, prev - 2)) & 0xffff;
  const extraSize = NEW_EXTRA + hdrSize;
  if (rec < NEW_SUPREMUM_END + extraSize || rec + dataSize > lastSlot) return 'the record is off the page';
  const next = (rec + u16(p, rec - 2)) & 0xffff;
  if (next !== NEW_SUPREMUM && (next < NEW_SUPREMUM_END + NEW_EXTRA || next > lastSlot)) return 'the successor is off the page';
  return unlink(p, prev, rec, next, true, dataSize, extraSize);
}
