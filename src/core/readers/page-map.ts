/**
 * The page map: one small record per page of a tablespace, filled by the summary's scan as it reads
 * each page (summary.ts, option `pageMap`), or in the page by the row count's reads (page-map-fill.ts,
 * `merge`), so that the picture of the file costs no second pass.
 * Kept in typed arrays, 18 bytes a page (a 10 GB file of 16 KiB pages, 655,360 pages: 11.8 MB),
 * with nothing allocated per page: its state, FIL_PAGE_TYPE, FIL_PAGE_LSN and, on B-tree pages
 * (INDEX, RTREE, SDI), which index (a small slot number standing for the index id), PAGE_LEVEL,
 * PAGE_N_RECS and the bytes in use.
 *
 * Bytes in use, and fill = used / page size: everything on the page a full page would not have left
 * to give, i.e. the page size minus its free space, the free space being the gap between the heap
 * top and the page directory plus PAGE_GARBAGE (deleted records' bytes, reusable):
 *   used = PAGE_HEAP_TOP − PAGE_GARBAGE + 2 × PAGE_N_DIR_SLOTS + 8 (the FIL trailer).
 * An empty page so uses its headers, infimum, supremum and two directory slots (132 bytes in
 * COMPACT); a full one nearly all of it.
 *
 * Pages past the end of a file cut short (page 0 says the space has more) are `missing`; they take
 * no memory: the arrays hold the pages in the file only.
 */
import type { ChecksumResult } from '../pages/checksum.ts';
import { FIL_PAGE_END_LSN_OLD_CHKSUM, FIL_PAGE_LSN, FIL_PAGE_TYPE, PageType, pageTypeName, u16, u32 } from '../pages/fil-header.ts';
import { PAGE_GARBAGE, PAGE_HEADER, PAGE_HEAP_TOP, PAGE_INDEX_ID, PAGE_LEVEL, PAGE_N_DIR_SLOTS, PAGE_N_RECS } from '../pages/index-page.ts';

/**
 * What is known of a page, by the byte in `PageMap.state`: not read yet; read by the counting pass,
 * its checksum not checked yet; checked and valid; checksum wrong; all zero bytes (allocated, never
 * written); free by the extent descriptors (it may still hold an old image: type, index and records
 * are that image's); past the end of the file; not readable (cannot be decrypted or decompressed).
 */
export const PAGE_STATES = ['pending', 'unchecked', 'valid', 'checksum-bad', 'all-zero', 'free', 'missing', 'unreadable'] as const;
export type PageStateName = (typeof PAGE_STATES)[number];
export const PageState = { PENDING: 0, UNCHECKED: 1, VALID: 2, CHECKSUM_BAD: 3, ALL_ZERO: 4, FREE: 5, MISSING: 6, UNREADABLE: 7 } as const;

/** Index slots: 0 is "no index" (not a B-tree page), the last one holds every index id past the others. */
const MAX_SLOTS = 0xffff;
const TWO_32 = 2 ** 32;

/** One page of the map, as a front end shows it (a tooltip, a line of `--page-map`). */
export interface PageMapEntry {
  page: number;
  state: PageStateName;
  /** FIL_PAGE_TYPE and its name; null for a page not read (pending, all-zero, missing, unreadable). */
  type: number | null;
  typeName: string | null;
  /** B-tree pages only (else null): the index id (decimal), PAGE_LEVEL, PAGE_N_RECS and the fill (0..1). */
  indexId: string | null;
  level: number | null;
  records: number | null;
  fill: number | null;
  /** FIL_PAGE_LSN (exact below 2^53), null for a page not read. */
  lsn: number | null;
}

/** What a run of pages holds, for a picture that cannot show one cell per page. */
export interface PageBucket {
  first: number;
  pages: number;
  /** Pages per state, indexed like PAGE_STATES. */
  states: number[];
  /** Pages in use that were read (unchecked, valid, checksum-bad), by page type name. */
  types: Record<string, number>;
  /** B-tree pages in use, by index id. */
  indexes: Record<string, number>;
  /** B-tree pages in use, their records (PAGE_N_RECS) and mean fill (null without any). */
  btreePages: number;
  records: number;
  fill: number | null;
  /** The newest FIL_PAGE_LSN among the pages read (0 when none was). */
  maxLsn: number;
}

/** One index's B-tree by level: pages in use at each PAGE_LEVEL (0: leaves). */
export interface IndexLevels {
  indexId: string;
  pages: number[];
}

/**
 * A PageMap as plain data (its typed arrays and index ids), to cross from the worker whose scan
 * filled it to another (a small file's, summarized by a listing worker) instead of a second scan.
 */
export interface PackedPageMap {
  pageSize: number;
  pageCount: number;
  missing: number;
  indexIds: string[];
  state: Uint8Array;
  type: Uint16Array;
  index: Uint16Array;
  level: Uint8Array;
  records: Uint16Array;
  used: Uint16Array;
  lsn: Float64Array;
}

/** The buffers of a packed map, to transfer it (postMessage) rather than copy it. */
export function packedBuffers(p: PackedPageMap): ArrayBuffer[] {
  return [p.state, p.type, p.index, p.level, p.records, p.used, p.lsn].map((a) => a.buffer as ArrayBuffer);
}

const isBtreeType = (type: number) => type === PageType.INDEX || type === PageType.RTREE || type === PageType.SDI;
/** States of pages in use whose contents were read. */
const inUse = (state: number) => state === PageState.UNCHECKED || state === PageState.VALID || state === PageState.CHECKSUM_BAD;

export class PageMap {
  /** Logical page size: what fill is a share of. */
  pageSize = 0;
  /** Pages in the file. */
  pageCount = 0;
  /** Pages past the end of the file that the space header says the space has. */
  missing = 0;
  state = new Uint8Array(0);
  type = new Uint16Array(0);
  /** Index slot: 0 none, k → indexIds[k - 1]. */
  index = new Uint16Array(0);
  level = new Uint8Array(0);
  records = new Uint16Array(0);
  used = new Uint16Array(0);
  lsn = new Float64Array(0);
  /** Index ids (decimal) by slot - 1: the B-tree roots' first, in their order, then others as found. */
  indexIds: string[] = [];
  /** Index id (as hi × 2^32 + lo, exact below 2^53) → slot. */
  private slots = new Map<number, number>();

  /** Every page in the map, the missing ones included. */
  get pages(): number {
    return this.pageCount + this.missing;
  }

  /** Sized for a tablespace of `pageCount` pages (every one pending) and `missing` more; the roots' index ids take the first slots. */
  reset(pageCount: number, missing: number, pageSize: number, rootIds: readonly bigint[]): void {
    this.pageCount = pageCount;
    this.missing = missing;
    this.pageSize = pageSize;
    this.indexIds = [];
    this.state = new Uint8Array(pageCount);
    this.type = new Uint16Array(pageCount);
    this.index = new Uint16Array(pageCount);
    this.level = new Uint8Array(pageCount);
    this.records = new Uint16Array(pageCount);
    this.used = new Uint16Array(pageCount);
    this.lsn = new Float64Array(pageCount);
    this.slots.clear();
    for (const id of rootIds) this.slotOfId(id);
  }

  /** The map as plain data (copies of its arrays). */
  pack(): PackedPageMap {
    const { pageSize, pageCount, missing, state, type, index, level, records, used, lsn } = this;
    return {
      pageSize, pageCount, missing, indexIds: this.indexIds.slice(),
      state: state.slice(), type: type.slice(), index: index.slice(), level: level.slice(), records: records.slice(), used: used.slice(), lsn: lsn.slice(),
    };
  }

  /** The map pack() made. */
  static unpack(p: PackedPageMap): PageMap {
    const map = new PageMap();
    Object.assign(map, { pageSize: p.pageSize, pageCount: p.pageCount, missing: p.missing, state: p.state, type: p.type, index: p.index, level: p.level, records: p.records, used: p.used, lsn: p.lsn });
    for (const id of p.indexIds) map.slotOfId(BigInt(id));
    return map;
  }

  private slotOfId(id: bigint): number {
    return this.slotOf(Number(id >> 32n), Number(id & 0xffffffffn));
  }

  private slotOf(hi: number, lo: number): number {
    const key = hi * TWO_32 + lo;
    let slot = this.slots.get(key);
    if (slot === undefined) {
      if (this.indexIds.length >= MAX_SLOTS) return MAX_SLOTS;
      this.indexIds.push(((BigInt(hi) << 32n) | BigInt(lo)).toString());
      slot = this.indexIds.length;
      this.slots.set(key, slot);
    }
    return slot;
  }

  /** A page in use read by the scan (its logical image); its checksum is told apart by checked(). */
  read(no: number, bytes: Uint8Array): void {
    this.record(no, bytes, PageState.UNCHECKED);
  }

  /** A page the extent descriptors mark free, with what its bytes still show. */
  free(no: number, bytes: Uint8Array): void {
    this.record(no, bytes, PageState.FREE);
  }

  allZero(no: number): void {
    this.state[no] = PageState.ALL_ZERO;
  }

  /** A page that cannot be decrypted or decompressed: it stays so whatever its checksum. */
  unreadable(no: number): void {
    this.state[no] = PageState.UNREADABLE;
  }

  /** A page the extent descriptors mark free, recorded before as read (its image kept) or all-zero. */
  markFree(no: number): void {
    const state = this.state[no];
    if (inUse(state) || state === PageState.ALL_ZERO) this.state[no] = PageState.FREE;
  }

  isPending(no: number): boolean {
    return this.state[no] === PageState.PENDING;
  }

  /**
   * Pages [first, first + part.pageCount) as another map recorded them (one read of the row count:
   * page-map-fill.ts); its pending pages, and those past this map's end, are left as they are.
   */
  merge(part: PackedPageMap, first: number, slots = part.indexIds.map((id) => this.slotOfId(BigInt(id)))): void {
    const end = Math.min(part.pageCount, this.pageCount - first);
    for (let i = 0; i < end; i++) {
      const state = part.state[i];
      if (state === PageState.PENDING) continue;
      const no = first + i;
      this.state[no] = state;
      this.type[no] = part.type[i];
      this.index[no] = part.index[i] === 0 ? 0 : slots[part.index[i] - 1];
      this.level[no] = part.level[i];
      this.records[no] = part.records[i];
      this.used[no] = part.used[i];
      this.lsn[no] = part.lsn[i];
    }
  }

  /** The checksum of a page read as in use. */
  checked(no: number, result: ChecksumResult): void {
    if (this.state[no] === PageState.UNCHECKED) this.state[no] = result === 'bad' ? PageState.CHECKSUM_BAD : PageState.VALID;
  }

  /**
   * An unreadable page stays so, free or not (the scan counts what is stored of it, which is no
   * image of the page): a state is one of, in this order, unreadable, free, all-zero, checksum-bad, valid.
   */
  private record(no: number, bytes: Uint8Array, state: number): void {
    if (this.state[no] === PageState.UNREADABLE) return;
    const type = u16(bytes, FIL_PAGE_TYPE);
    this.state[no] = state;
    this.type[no] = type;
    this.lsn[no] = u32(bytes, FIL_PAGE_LSN) * TWO_32 + u32(bytes, FIL_PAGE_LSN + 4);
    if (!isBtreeType(type)) return;
    const h = PAGE_HEADER;
    this.index[no] = this.slotOf(u32(bytes, h + PAGE_INDEX_ID), u32(bytes, h + PAGE_INDEX_ID + 4));
    this.level[no] = Math.min(255, u16(bytes, h + PAGE_LEVEL));
    this.records[no] = u16(bytes, h + PAGE_N_RECS);
    const used = u16(bytes, h + PAGE_HEAP_TOP) - u16(bytes, h + PAGE_GARBAGE) + 2 * u16(bytes, h + PAGE_N_DIR_SLOTS) + FIL_PAGE_END_LSN_OLD_CHKSUM;
    this.used[no] = Math.max(0, Math.min(0xffff, used));
  }

  stateOf(no: number): number {
    return no < this.pageCount ? this.state[no] : PageState.MISSING;
  }

  /** Page `no` (0 ≤ no < pages) as an object. */
  entry(no: number): PageMapEntry {
    const state = this.stateOf(no);
    const read = no < this.pageCount && (inUse(state) || state === PageState.FREE);
    const btree = read && this.index[no] !== 0;
    return {
      page: no,
      state: PAGE_STATES[state],
      type: read ? this.type[no] : null,
      typeName: read ? pageTypeName(this.type[no]) : null,
      indexId: btree ? this.indexIds[this.index[no] - 1] : null,
      level: btree ? this.level[no] : null,
      records: btree ? this.records[no] : null,
      fill: btree ? this.used[no] / this.pageSize : null,
      lsn: read ? this.lsn[no] : null,
    };
  }

  /** Pages [first, first + count) summed up (the missing ones included). */
  bucket(first: number, count: number): PageBucket {
    const b: PageBucket = { first, pages: count, states: PAGE_STATES.map(() => 0), types: {}, indexes: {}, btreePages: 0, records: 0, fill: null, maxLsn: 0 };
    const end = Math.min(first + count, this.pageCount);
    // Counted by type code and by slot, named at the end: a name per page would cost more than the rest.
    const types = new Map<number, number>();
    const slots = new Map<number, number>();
    let used = 0;
    for (let no = first; no < end; no++) {
      const state = this.state[no];
      b.states[state]++;
      if (!inUse(state)) continue;
      if (this.lsn[no] > b.maxLsn) b.maxLsn = this.lsn[no];
      types.set(this.type[no], (types.get(this.type[no]) ?? 0) + 1);
      const slot = this.index[no];
      if (slot === 0) continue;
      slots.set(slot, (slots.get(slot) ?? 0) + 1);
      b.btreePages++;
      b.records += this.records[no];
      used += this.used[no];
    }
    b.states[PageState.MISSING] += Math.max(0, first + count - Math.max(first, this.pageCount));
    for (const [type, n] of types) b.types[pageTypeName(type)] = n;
    for (const [slot, n] of slots) b.indexes[this.indexIds[slot - 1]] = n;
    if (b.btreePages > 0) b.fill = used / b.btreePages / this.pageSize;
    return b;
  }

  /** The whole map in buckets of `pagesPerBucket` pages, in page order (the last one may be shorter). */
  buckets(pagesPerBucket: number): PageBucket[] {
    const size = Math.max(1, Math.floor(pagesPerBucket));
    const out: PageBucket[] = [];
    for (let first = 0; first < this.pages; first += size) out.push(this.bucket(first, Math.min(size, this.pages - first)));
    return out;
  }

  /** The whole map in one bucket. */
  totals(): PageBucket {
    return this.bucket(0, this.pages);
  }

  /** Each index's pages in use per level, in slot order (the B-tree roots' first). */
  levels(): IndexLevels[] {
    const out: IndexLevels[] = this.indexIds.map((indexId) => ({ indexId, pages: [] }));
    for (let no = 0; no < this.pageCount; no++) {
      const slot = this.index[no];
      if (slot === 0 || !inUse(this.state[no])) continue;
      const pages = out[slot - 1].pages;
      const level = this.level[no];
      for (let l = pages.length; l <= level; l++) pages.push(0);
      pages[level]++;
    }
    return out;
  }
}
