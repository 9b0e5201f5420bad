/**
 * Orphan pages: a raw image with no valid page 0 to go by (a disk image, a partial copy cut anywhere,
 * an ibdata1, several tablespaces one after the other). The page size, where the page grid starts
 * and the checksum format are guessed from the content, then every INDEX page is grouped by
 * (space id, index id) so the user can choose which index to decode.
 *
 * A page is recognised by what every written page carries: the low 32 bits of its LSN twice (in the
 * FIL header, and in the trailer: last 4 bytes, or 8 bytes from the end in MariaDB's full_crc32),
 * and a checksum over the candidate page size. Random bytes match the first with odds of 2^-32; the
 * checksum rules out a wrong page size whose "trailer" happens to be a neighbour's with the same LSN.
 *
 * Decoding a group goes through an ordinary Tablespace over a shifted view of the image, placed so
 * that the group's FIL page numbers are page positions again: B-tree node pointers and leaf links
 * then work unchanged (see `rawView`).
 */
import { crc32c, verifyPage } from '../pages/checksum.ts';
import {
  FIL_NULL, FIL_PAGE_LSN, FIL_PAGE_NEXT, FIL_PAGE_OFFSET, FIL_PAGE_PREV, FIL_PAGE_SPACE_ID, FIL_PAGE_TYPE, isAllZero, PageType, u16, u32,
} from '../pages/fil-header.ts';
import { readIndexHeader } from '../pages/index-page.ts';
import { fullCrc32StoredSize, isFullCrc32Compressed } from '../pages/page-compression.ts';
import type { ByteSource } from './source.ts';
import { verifyZipPage } from '../pages/zip-page.ts';

export const PAGE_SIZES = [4096, 8192, 16384, 32768, 65536] as const;
/** ROW_FORMAT=COMPRESSED page sizes as stored (KEY_BLOCK_SIZE=1 to 16). */
const ZIP_SIZES = [1024, 2048, 4096, 8192, 16384] as const;
/** Page images may start at any multiple of this (a disk sector) from the start of the image. */
const SECTOR = 512;
/** Bytes read per step; memory stays at about this much whatever the image size. */
const CHUNK_BYTES = 4 << 20;
/** Windows sampled to guess the layout, spread over the image (all of it when it is small). */
const SAMPLE_WINDOWS = 8;
/** MariaDB's instant-ALTER root (FIL_PAGE_TYPE_INSTANT), an index page in every other respect. */
const MARIADB_INSTANT_ROOT = 18;

/** Where the pages of the image lie and how they are checked. */
export interface RawLayout {
  pageSize: number;
  /** Byte offset of the page grid: pages start at gridOffset + k × pageSize. */
  gridOffset: number;
  /** MariaDB full_crc32 checksums (else crc32/innodb/none). */
  fullCrc32: boolean;
  /**
   * ROW_FORMAT=COMPRESSED pages of `pageSize` bytes (page_zip checksums, no FIL trailer): only ever
   * given from a tablespace's own layout (ScanOptions.layout), never guessed from samples.
   */
  compressed?: boolean;
}

export interface LayoutGuess extends RawLayout {
  /** Pages in the sample that checked out with this layout (the evidence). */
  validPages: number;
  /** Every layout that matched some page, best first (a second grid may hold another file). */
  alternatives: (RawLayout & { validPages: number })[];
}

/** One index found in the image. */
export interface IndexGroup {
  spaceId: number;
  indexId: bigint;
  /** INDEX pages with a valid checksum. */
  pages: number;
  leafPages: number;
  nonLeafPages: number;
  /** Distinct B-tree levels seen, lowest first. */
  levels: number[];
  /** User records on the leaf pages (PAGE_N_RECS: delete-marked ones included). */
  records: number;
  /** COMPACT/DYNAMIC records (true) or REDUNDANT, by majority of pages. */
  compact: boolean;
  /** FIL page number of the root: the only page at the highest level, with no neighbours; null if not found. */
  root: number | null;
  /** Pages of this index whose checksum does not match (their header still names the index). */
  damagedPages: number;
  /**
   * Byte offset in the image where page 0 of this index's tablespace would be (negative when the
   * image was cut in front of it): the base of `rawView`. The counts above are of the pages that lie
   * where this base puts them.
   */
  base: number;
  /** Pages of this index found at other places (copies: a doublewrite buffer, stale or repeated copies); not decoded. */
  copiesElsewhere: number;
}

export interface OrphanScan {
  layout: LayoutGuess;
  /** Groups by space id, then index id. */
  groups: IndexGroup[];
  /** Pages on the grid that were read. */
  pagesScanned: number;
  /** Pages with a valid checksum. */
  validPages: number;
  /** Pages that name a page type and a known space but fail their checksum. */
  damagedPages: number;
  /** All-zero pages (never written, or zeroed). */
  emptyPages: number;
  /** The leaf page numbers of the indexes ScanOptions.keepLeaves asked for, by index id (pages where their number puts them). */
  keptLeaves: Map<bigint, number[]>;
}

/** The low LSN bytes where the trailer keeps them: legacy (last 4 bytes) or full_crc32 (8 from the end). */
function trailerLsnMatch(b: Uint8Array, o: number, size: number, fullCrc32: boolean): boolean {
  const lsn = u32(b, o + FIL_PAGE_LSN + 4);
  return lsn !== 0 && lsn === u32(b, o + size - (fullCrc32 ? 8 : 4));
}

/**
 * Whether the page's checksum is valid in the given format (never true for an all-zero page). A
 * full_crc32 page-compressed page has it where its stored bytes end.
 */
export function pageChecks(page: Uint8Array, fullCrc32: boolean): boolean {
  if (fullCrc32) {
    const stored = fullCrc32StoredSize(page);
    return stored !== null && u32(page, stored - 4) === crc32c(page, 0, stored - 4);
  }
  const r = verifyPage(page, false);
  return r !== 'bad' && r !== 'empty';
}

/**
 * Whether `type` can be a page's FIL_PAGE_TYPE: the small values both servers use, or one of the
 * large ones (index, SDI, R-tree, page-compressed with bit 15). Checked before a checksum: runs of equal bytes
 * (a CHAR column's spaces) match the LSN test at every sector, and each match cost a checksum per
 * page size (16 s of CRC-32C guessing the layout of a 187 MB ibdata1).
 */
function possibleType(type: number): boolean {
  // bit 15: page-compressed (MariaDB's types, and full_crc32's marker over the compressed size)
  return type < 64 || type >= 0x8000 || type === PageType.SDI || type === PageType.RTREE || type === PageType.INDEX;
}

/** The formats a page at `o` of size `size` is a valid page in. */
function formatsAt(b: Uint8Array, o: number, size: number): boolean[] {
  const found: boolean[] = [];
  if (!possibleType(u16(b, o + FIL_PAGE_TYPE))) return found;
  const page = b.subarray(o, o + size);
  for (const fullCrc32 of [false, true]) {
    // A full_crc32 page-compressed page keeps no trailer: its checksum alone vouches for it.
    const lsn = trailerLsnMatch(b, o, size, fullCrc32) || (fullCrc32 && isFullCrc32Compressed(page));
    if (lsn && pageChecks(page, fullCrc32)) found.push(fullCrc32);
  }
  return found;
}

/** Byte ranges to sample: the whole image when small, else windows spread evenly over it. */
function sampleRanges(size: number): [number, number][] {
  if (size <= SAMPLE_WINDOWS * CHUNK_BYTES) {
    const out: [number, number][] = [];
    // Consecutive chunks overlap by one largest page, so no page straddling a boundary is missed.
    for (let o = 0; o < size; o += CHUNK_BYTES) out.push([o, Math.min(size, o + CHUNK_BYTES + 65536)]);
    return out;
  }
  const step = Math.floor((size - CHUNK_BYTES) / (SAMPLE_WINDOWS - 1) / SECTOR) * SECTOR;
  return Array.from({ length: SAMPLE_WINDOWS }, (_, i): [number, number] => [i * step, i * step + CHUNK_BYTES]);
}

/**
 * Guesses page size, grid offset and checksum format by trying every sector-aligned position of a
 * sample against every page size. `pageSize` restricts the guess to that size. Null when no page
 * checks out at all.
 */
export async function guessLayout(source: ByteSource, pageSize?: number): Promise<LayoutGuess | null> {
  const sizes = pageSize !== undefined ? [pageSize] : [...PAGE_SIZES];
  const votes = new Map<string, RawLayout & { validPages: number }>();
  const seen = new Set<number>();
  for (const [start, end] of sampleRanges(source.size)) {
    const b = await source.read(start, end - start);
    for (let o = 0; o + 4096 <= b.length; o += SECTOR) {
      // Overlapping chunks would count a page twice.
      if (seen.has(start + o)) continue;
      for (const size of sizes) {
        if (o + size > b.length) continue;
        for (const fullCrc32 of formatsAt(b, o, size)) {
          seen.add(start + o);
          const layout = { pageSize: size, gridOffset: (start + o) % size, fullCrc32 };
          const key = `${layout.pageSize}/${layout.gridOffset}/${fullCrc32}`;
          const v = votes.get(key) ?? { ...layout, validPages: 0 };
          v.validPages++;
          votes.set(key, v);
        }
      }
    }
  }
  const ranked = [...votes.values()].sort((a, b) => b.validPages - a.validPages || b.pageSize - a.pageSize);
  if (ranked.length === 0) return null;
  return { ...ranked[0], alternatives: ranked };
}

/** What the pages of one index that lie at one position of the grid (one base) add up to. */
interface Placement {
  pages: number;
  leafPages: number;
  nonLeafPages: number;
  levels: Set<number>;
  records: number;
  compactVotes: number;
  topLevel: number;
  topPages: { no: number; alone: boolean }[];
}

/**
 * An index's pages by base (where they put page 0 of their tablespace). Decoding reads the pages at
 * one base only (see rawView); copies elsewhere (the doublewrite buffer of an ibdata1, stale copies
 * in a disk image, the same table twice) are not reachable from it, so they are counted apart.
 */
interface GroupBuilder {
  spaceId: number;
  indexId: bigint;
  damagedPages: number;
  placements: Map<number, Placement>;
}

function newGroup(spaceId: number, indexId: bigint): GroupBuilder {
  return { spaceId, indexId, damagedPages: 0, placements: new Map() };
}

/** A leaf page's number, kept when it lies where its number puts it. */
function keepLeaf(kept: Map<bigint, number[]>, indexId: bigint, page: Uint8Array, position: number): void {
  const no = u32(page, FIL_PAGE_OFFSET);
  if (readIndexHeader(page).level !== 0 || position !== no * page.length) return;
  const list = kept.get(indexId);
  if (list) list.push(no);
  else kept.set(indexId, [no]);
}

/** An INDEX page (or MariaDB's instant root) of the given image. */
function isIndexType(type: number): boolean {
  return type === PageType.INDEX || type === MARIADB_INSTANT_ROOT;
}

function addPage(g: GroupBuilder, page: Uint8Array, position: number): void {
  const h = readIndexHeader(page);
  const no = u32(page, FIL_PAGE_OFFSET);
  const base = position - no * page.length;
  let p = g.placements.get(base);
  if (!p) {
    p = { pages: 0, leafPages: 0, nonLeafPages: 0, levels: new Set(), records: 0, compactVotes: 0, topLevel: -1, topPages: [] };
    g.placements.set(base, p);
  }
  p.pages++;
  if (h.level === 0) {
    p.leafPages++;
    p.records += h.nRecs;
  } else {
    p.nonLeafPages++;
  }
  p.levels.add(h.level);
  if (h.compact) p.compactVotes++;
  if (h.level > p.topLevel) {
    p.topLevel = h.level;
    p.topPages = [];
  }
  if (h.level === p.topLevel) p.topPages.push({ no, alone: u32(page, FIL_PAGE_PREV) === FIL_NULL && u32(page, FIL_PAGE_NEXT) === FIL_NULL });
}

/** The group as found at its main base (the one with the most pages). */
function finishGroup(g: GroupBuilder): IndexGroup {
  const [base, p] = [...g.placements.entries()].sort((a, b) => b[1].pages - a[1].pages)[0];
  const root = p.topPages.length === 1 && p.topPages[0].alone ? p.topPages[0].no : null;
  return {
    spaceId: g.spaceId, indexId: g.indexId, pages: p.pages, leafPages: p.leafPages, nonLeafPages: p.nonLeafPages,
    levels: [...p.levels].sort((a, b) => a - b), records: p.records, compact: p.compactVotes * 2 >= p.pages, root,
    damagedPages: g.damagedPages, base, copiesElsewhere: g.placements.size > 1 ? [...g.placements.values()].reduce((n, x) => n + x.pages, 0) - p.pages : 0,
  };
}

export interface ScanOptions {
  /** Page size to use instead of guessing it. */
  pageSize?: number;
  signal?: AbortSignal;
  /** Called after each chunk with the bytes done so far. */
  progress?: (done: number, total: number) => void;
  /** Indexes whose leaf page numbers to keep (OrphanScan.keptLeaves): a system tablespace's dictionary trees, say. */
  keepLeaves?: (spaceId: number, indexId: bigint) => boolean;
  /** The layout, when a sound page 0 gives it (a system tablespace's): not guessed from samples. */
  layout?: RawLayout;
}

/**
 * Reads the whole image once, page by page along the guessed grid, and groups its INDEX pages.
 * Throws when no page of any size checks out (nothing in the image looks like InnoDB).
 */
export async function scanOrphans(source: ByteSource, options: ScanOptions = {}): Promise<OrphanScan> {
  // (a layout given has no sample behind it: validPages 0)
  const layout = options.layout ? { ...options.layout, validPages: 0, alternatives: [] } : await guessLayout(source, options.pageSize);
  if (layout === null) {
    throw new Error(`${source.name}: no InnoDB page found${options.pageSize ? ` of ${options.pageSize / 1024} KB` : ''} (no page whose checksum and LSN check out, at any 512-byte boundary)`);
  }
  const size = layout.pageSize;
  const groups = new Map<string, GroupBuilder>();
  const damaged: Uint8Array[] = [];
  const result = { pagesScanned: 0, validPages: 0, damagedPages: 0, emptyPages: 0, keptLeaves: new Map<bigint, number[]>() };
  const perChunk = Math.max(1, Math.floor(CHUNK_BYTES / size));
  for (let start = layout.gridOffset; start + size <= source.size; start += perChunk * size) {
    options.signal?.throwIfAborted();
    const b = await source.read(start, perChunk * size);
    for (let o = 0; o + size <= b.length; o += size) {
      const page = b.subarray(o, o + size);
      result.pagesScanned++;
      if (isAllZero(page)) {
        result.emptyPages++;
        continue;
      }
      const valid = layout.compressed === true ? zipValid(page) : pageChecks(page, layout.fullCrc32);
      if (valid) result.validPages++;
      if (!isIndexType(u16(page, FIL_PAGE_TYPE))) continue;
      if (!valid) {
        // Kept (header only) until the groups are known: a damaged page counts only if it names one of them.
        if (damaged.length < 100_000) damaged.push(page.slice(0, 128));
        continue;
      }
      const key = groupKey(u32(page, FIL_PAGE_SPACE_ID), readIndexHeader(page).indexId);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = newGroup(u32(page, FIL_PAGE_SPACE_ID), readIndexHeader(page).indexId)));
      addPage(g, page, start + o);
      if (options.keepLeaves?.(g.spaceId, g.indexId) === true) keepLeaf(result.keptLeaves, g.indexId, page, start + o - layout.gridOffset);
    }
    options.progress?.(Math.min(source.size, start + perChunk * size), source.size);
  }
  for (const head of damaged) {
    const g = groups.get(groupKey(u32(head, FIL_PAGE_SPACE_ID), readIndexHeader(head).indexId));
    if (!g) continue;
    g.damagedPages++;
    result.damagedPages++;
  }
  const list = [...groups.values()].map(finishGroup).sort((a, b) => a.spaceId - b.spaceId || (a.indexId < b.indexId ? -1 : a.indexId > b.indexId ? 1 : 0));
  return { layout, groups: list, ...result };
}

function groupKey(spaceId: number, indexId: bigint): string {
  return `${spaceId}/${indexId}`;
}

/** How the pages of a tablespace file lie, as its pages show it (guessSpaceLayout). */
export interface SpaceLayout {
  /** Bytes per page as stored: the compressed size for ROW_FORMAT=COMPRESSED. */
  physicalSize: number;
  /** ROW_FORMAT=COMPRESSED pages (page_zip checksums, no FIL trailer). */
  compressed: boolean;
  fullCrc32: boolean;
  /** The space id most of the pages carry in their FIL header. */
  spaceId: number;
  /** Pages that check out in this layout at the place their page number puts them. */
  validPages: number;
}

/** Whether a ROW_FORMAT=COMPRESSED page carries a real checksum (not the 'none' magic, which proves nothing). */
function zipChecks(page: Uint8Array): boolean {
  const r = verifyZipPage(page);
  return r === 'crc32' || r === 'innodb';
}

/** Whether a ROW_FORMAT=COMPRESSED page checks out as the engine accepts it (the 'none' magic too, as pageChecks does). */
function zipValid(page: Uint8Array): boolean {
  const r = verifyZipPage(page);
  return r !== 'bad' && r !== 'empty';
}

/**
 * The layout of a tablespace file whose page 0 cannot be trusted (Tablespace.open), from the pages
 * after it in the first chunk: the page size, format and checksum under which the most pages check
 * out where their FIL page number says they are. The same checks as guessLayout, plus compressed
 * pages (whose checksums it does not know), but only on the grid from byte 0: pages found elsewhere
 * make a raw image, not a tablespace file. Null when no page checks out in place.
 */
export async function guessSpaceLayout(source: ByteSource): Promise<SpaceLayout | null> {
  const b = await source.read(0, Math.min(source.size, CHUNK_BYTES));
  let best: SpaceLayout | null = null;
  const consider = (physicalSize: number, compressed: boolean, fullCrc32: boolean) => {
    const ids = new Map<number, number>();
    let valid = 0;
    for (let k = 1, o = physicalSize; o + physicalSize <= b.length; k++, o += physicalSize) {
      if (u32(b, o + FIL_PAGE_OFFSET) !== k) continue;
      if (compressed ? !zipChecks(b.subarray(o, o + physicalSize)) : !formatsAt(b, o, physicalSize).includes(fullCrc32)) continue;
      valid++;
      const id = u32(b, o + FIL_PAGE_SPACE_ID);
      ids.set(id, (ids.get(id) ?? 0) + 1);
    }
    if (valid === 0 || valid <= (best?.validPages ?? 0)) return;
    const spaceId = [...ids.entries()].sort((x, y) => y[1] - x[1])[0][0];
    best = { physicalSize, compressed, fullCrc32, spaceId, validPages: valid };
  };
  for (const size of PAGE_SIZES) for (const fullCrc32 of [false, true]) consider(size, false, fullCrc32);
  for (const size of ZIP_SIZES) consider(size, true, false);
  return best;
}

/** What openTable needs to decode one group of a raw image (see OpenOptions.raw). */
export interface RawTarget {
  pageSize: number;
  fullCrc32: boolean;
  /** Byte offset of the tablespace's page 0 in the image (may be negative). */
  base: number;
  spaceId: number;
}

export function rawTarget(scan: OrphanScan, group: IndexGroup): RawTarget {
  return { pageSize: scan.layout.pageSize, fullCrc32: scan.layout.fullCrc32, base: group.base, spaceId: group.spaceId };
}

/**
 * The image seen from `base`: offset 0 is byte `base` of the image, bytes before the image's start
 * read as zeros (pages cut off in front are then "never written"), so a Tablespace over it finds
 * page N at N × pageSize as the FIL header numbers it.
 */
export function rawView(source: ByteSource, base: number): ByteSource {
  if (base === 0) return source;
  return {
    name: source.name,
    size: Math.max(0, source.size - base),
    async read(offset, length) {
      const from = base + offset;
      const to = Math.min(source.size, from + length);
      if (to <= 0 || to <= from) return new Uint8Array(0);
      if (from >= 0) return source.read(from, to - from);
      const out = new Uint8Array(to - from);
      out.set(await source.read(0, to), -from);
      return out;
    },
  };
}
