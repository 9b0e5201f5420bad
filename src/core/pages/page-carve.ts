/**
 * Carving a damaged INDEX page for its records, the way a data carver reads a disk: when the record
 * list breaks (a next-record pointer leaves the page, goes backwards or loops) or the page header is
 * damaged, the records after the break are still in the page body, byte for byte. Every offset of
 * the body not already taken by a known record is tried as a record origin: its header must be one
 * an ordinary user record can have (rem0rec.h: status, info bits, n_owned, heap number, next
 * pointer inside the page), the record must measure and pass its value checks against the table
 * definition (the caller's `measure`), and it must link up with the page's other records (its
 * next-record pointer leads to one of them or to the supremum, or one of them points to it): a run
 * of random bytes rarely passes all three (or, where both its list neighbours are gone, it lies flush
 * against another record in the heap). Where the page header is still plausible, records also lie
 * below its heap top and have heap numbers below its heap count, each its own. Pure functions over the page bytes, no allocation per
 * offset tried.
 */
import { u16 } from './fil-header.ts';
import { PAGE_HEADER, PAGE_HEAP_TOP, PAGE_N_HEAP, PAGE_NEW_SUPREMUM, PAGE_NEW_SUPREMUM_END, PAGE_OLD_SUPREMUM, PAGE_OLD_SUPREMUM_END, REC_INFO_DELETED } from './index-page.ts';

/** A record found in a page: its origin and its bytes, header included, as [start, end). */
export interface Extent {
  origin: number;
  start: number;
  end: number;
}

export interface CarveTarget {
  bytes: Uint8Array;
  compact: boolean;
  /** The record at `origin` measured and its values checked against the definition, or null when it does not fit. */
  measure(origin: number): Extent | null;
  /** REDUNDANT: the field counts a record of the table may have (more than one after instant ADD COLUMN). */
  nFieldsMin: number;
  nFieldsMax: number;
  /** Info bits a record may carry beyond the delete mark (MySQL 8's instant-ALTER bits). */
  extraInfoBits: number;
  /** Statuses an ordinary leaf record may have (1 << status: 0, and MariaDB's instant status 4). */
  statusMask: number;
}

/** PAGE_DIR_SLOT_MAX_N_OWNED: no record owns more than 8 records of the page directory. */
const MAX_N_OWNED = 8;
/** PAGE_HEAP_NO_USER_LOW: heap numbers 0 and 1 are the infimum and supremum. */
const HEAP_NO_USER_LOW = 2;
/** The FIL trailer and at least the two page directory slots of infimum and supremum. */
const PAGE_END_RESERVED = 8 + 4;

/** Where user records may lie: after the supremum, before the directory and the FIL trailer. */
export function recordArea(bytes: Uint8Array, compact: boolean): { lo: number; hi: number } {
  return { lo: compact ? PAGE_NEW_SUPREMUM_END : PAGE_OLD_SUPREMUM_END, hi: bytes.length - PAGE_END_RESERVED };
}

/** The next-record pointer of the record at `origin` as an offset in the page (0: none). */
export function nextOrigin(bytes: Uint8Array, compact: boolean, origin: number): number {
  const field = u16(bytes, origin - 2);
  if (!compact) return field;
  return field === 0 ? 0 : (origin + field) & (bytes.length - 1);
}

/** The heap number of the record at `origin` (its place in the page heap, 0 and 1 being infimum and supremum). */
function heapNo(bytes: Uint8Array, compact: boolean, origin: number): number {
  return u16(bytes, origin - (compact ? 4 : 5)) >> 3;
}

/**
 * Where user records lie: from the end of the supremum up to PAGE_HEAP_TOP, with heap numbers below
 * PAGE_N_HEAP; where the page header is not plausible (it may be damaged too), up to the page
 * directory's least extent, with any heap number.
 */
export function heapArea(bytes: Uint8Array, compact: boolean): { lo: number; top: number; nHeap: number } {
  const { lo, hi } = recordArea(bytes, compact);
  const top = u16(bytes, PAGE_HEADER + PAGE_HEAP_TOP);
  const nHeap = u16(bytes, PAGE_HEADER + PAGE_N_HEAP) & 0x7fff;
  return { lo, top: top > lo && top <= hi ? top : hi, nHeap: nHeap > HEAP_NO_USER_LOW && nHeap <= bytes.length / 5 ? nHeap : bytes.length };
}

/** Whether the header before `o` is one a user record in the page could have. */
function plausibleHeader(t: CarveTarget, o: number, lo: number, hi: number): boolean {
  const b = t.bytes;
  const supremum = t.compact ? PAGE_NEW_SUPREMUM : PAGE_OLD_SUPREMUM;
  const infoByte = b[t.compact ? o - 5 : o - 6];
  if ((infoByte & 0x0f) > MAX_N_OWNED) return false;
  if ((infoByte & 0xf0 & ~(REC_INFO_DELETED | t.extraInfoBits)) !== 0) return false;
  if (heapNo(b, t.compact, o) < HEAP_NO_USER_LOW) return false;
  if (t.compact) {
    if (((1 << (b[o - 3] & 7)) & t.statusMask) === 0) return false;
  } else {
    const nFields = (u16(b, o - 4) >> 1) & 0x3ff;
    if (nFields < t.nFieldsMin || nFields > t.nFieldsMax) return false;
  }
  const next = nextOrigin(b, t.compact, o);
  return next === supremum || (next >= lo && next < hi && next !== o);
}

/**
 * Whether a record's next-record pointer leads into its own bytes: the record that follows cannot
 * lie there, so the lengths it was measured with are wrong (a damaged length or end offset).
 */
export function pointsIntoItself(bytes: Uint8Array, compact: boolean, e: Extent): boolean {
  const next = nextOrigin(bytes, compact, e.origin);
  return next > e.start && next < e.end;
}

function overlapsAny(e: Extent, taken: readonly Extent[]): boolean {
  for (const t of taken) if (e.start < t.end && t.start < e.end) return true;
  return false;
}

/**
 * The records of a damaged page: those `listed` (read off its record list as far as it went) and
 * those carved from the rest of its body, leaving out the origins in `exclude` (the free list:
 * records the page itself calls garbage). A listed record is not taken on trust either (the list may
 * lead into damaged bytes that happen to measure as a record): all compete in linked(), the listed
 * ones with one point ahead. The listed ones kept come first, in list order, then the carved ones in
 * the order of their next-record chains.
 */
export function carveRecords(t: CarveTarget, listed: readonly Extent[], exclude: ReadonlySet<number>): { records: Extent[]; carved: number } {
  const { lo, hi } = recordArea(t.bytes, t.compact);
  const { top, nHeap } = heapArea(t.bytes, t.compact);
  const isListed = new Set(listed.map((e) => e.origin));
  const headerBytes = t.compact ? 5 : 6;
  const candidates: Extent[] = [];
  for (let o = lo + headerBytes; o < top; o++) {
    if (isListed.has(o) || exclude.has(o) || !plausibleHeader(t, o, lo, hi) || heapNo(t.bytes, t.compact, o) >= nHeap) continue;
    const e = t.measure(o);
    if (e === null || e.start < lo || e.end > top || pointsIntoItself(t.bytes, t.compact, e)) continue;
    candidates.push(e);
  }
  const kept = new Set(linked(t, listed, candidates));
  const carved = chainOrder(t, candidates.filter((e) => kept.has(e)));
  return { records: [...listed.filter((e) => kept.has(e)), ...carved], carved: carved.length };
}

/**
 * The candidates that link up with the page's other records, each scored by the chain it heads: the
 * records its next-record pointers lead through (candidates or known records, the supremum counting
 * as one more), plus one when a record points to it, plus one when it lies flush against another
 * record in the heap (records are allocated one after the other, so a record whose list neighbours
 * are both gone still touches one). Real records form long chains, bytes that happen to look like a
 * header rarely more than one link; a listed record scores one more. Records that overlap (in their
 * bytes or their heap numbers) are resolved in favour of the higher score, then the lower offset.
 */
function linked(t: CarveTarget, listed: readonly Extent[], candidates: readonly Extent[]): Extent[] {
  const supremum = t.compact ? PAGE_NEW_SUPREMUM : PAGE_OLD_SUPREMUM;
  const all = [...listed, ...candidates];
  const isListed = new Set(listed);
  const next = new Map<number, number>(all.map((e) => [e.origin, nextOrigin(t.bytes, t.compact, e.origin)]));
  const pointedTo = new Set(next.values());
  const starts = new Set(all.map((e) => e.start));
  const ends = new Set(all.map((e) => e.end));
  const chain = chainLengths(next, supremum);
  const scored = all
    .map((e) => ({ e, score: (chain.get(e.origin) ?? 1) - 1 + (pointedTo.has(e.origin) ? 1 : 0) + (ends.has(e.start) || starts.has(e.end) ? 1 : 0) + (isListed.has(e) ? 1 : 0) }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || a.e.start - b.e.start);
  const kept: Extent[] = [];
  const heapNos = new Set<number>();
  for (const { e } of scored) {
    const h = heapNo(t.bytes, t.compact, e.origin);
    if (heapNos.has(h) || overlapsAny(e, kept)) continue;
    heapNos.add(h);
    kept.push(e);
  }
  return kept;
}

/**
 * For each record of `next` (origin → next origin), how many records its chain passes through,
 * itself included, the supremum as one more; a chain that loops stops where it meets itself.
 */
function chainLengths(next: ReadonlyMap<number, number>, supremum: number): Map<number, number> {
  const length = new Map<number, number>();
  for (const start of next.keys()) {
    const path: number[] = [];
    const onPath = new Set<number>();
    let o = start;
    while (next.has(o) && !length.has(o) && !onPath.has(o)) {
      path.push(o);
      onPath.add(o);
      o = next.get(o) as number;
    }
    let n = length.get(o) ?? (o === supremum ? 1 : 0);
    for (let i = path.length - 1; i >= 0; i--) length.set(path[i], ++n);
  }
  return length;
}

/** Carved records in list order: chains from records no other carved one points to, then the rest by offset. */
function chainOrder(t: CarveTarget, carved: Extent[]): Extent[] {
  const byOrigin = new Map(carved.map((e) => [e.origin, e]));
  const pointed = new Set<number>();
  for (const e of carved) pointed.add(nextOrigin(t.bytes, t.compact, e.origin));
  const out: Extent[] = [];
  const placed = new Set<number>();
  const follow = (e: Extent | undefined): void => {
    for (; e !== undefined && !placed.has(e.origin); e = byOrigin.get(nextOrigin(t.bytes, t.compact, e.origin))) {
      placed.add(e.origin);
      out.push(e);
    }
  };
  const byStart = [...carved].sort((a, b) => a.start - b.start);
  for (const e of byStart) if (!pointed.has(e.origin)) follow(e);
  for (const e of byStart) follow(e);
  return out;
}
