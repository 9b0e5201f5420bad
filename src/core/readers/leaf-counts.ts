/**
 * Rows per leaf page, without decoding any row: what a viewer needs to number rows (prefix sums over
 * the leaves in key order) before it decodes only the pages on screen.
 *
 * A page's count walks its record list and reads each record's info bits (as summary.ts counts):
 * `live` counts records that are not delete-marked, `deleted` the delete-marked ones, `both` all
 * (MariaDB's instant-ALTER metadata record is never a row). A page that is not a leaf of the index,
 * or cannot be read, is UNCOUNTED (the decoder skips it, and says so). A page that fails its
 * checksum or the record list's checks is damaged: its rows are of state `damaged` (leaf-decoder.ts),
 * none in `live`; how many a mode returns or withholds only its decode can tell (DECODE_TO_COUNT).
 * Purged records of the free lists are counted by decoding too, with `exact`; without it they are
 * left to the decode, which then corrects the count.
 *
 * Reading: in a browser, each Blob read costs about a millisecond whatever its size, so many small
 * reads are far slower than a few large ones. Plain tablespaces are therefore read in large ranges
 * of consecutive pages (leaves are mostly allocated in order); encrypted or compressed ones go
 * through Tablespace.page(), which transforms them. A range's bytes are let go once it is counted, so
 * its buffer is read into again, and the next range is read meanwhile (source.ts readAhead).
 * Plain TypeScript, no DOM.
 */
import { findClusteredRoot } from '../btree/btree.ts';
import { verifyPage } from '../pages/checksum.ts';
import { IbdError } from '../errors.ts';
import { FIL_PAGE_TYPE, isIndexPageType, u16, u64 } from '../pages/fil-header.ts';
import { PAGE_HEADER, PAGE_INDEX_ID, PAGE_LEVEL, PAGE_N_RECS, tallyRecords, type RecordTally } from '../pages/index-page.ts';
import { modeIncludes, type RowMode } from './row-state.ts';
import { scanIndexes, scanLeafPages } from '../btree/page-scan.ts';
import { mapImage, mapStored, plainPages, rangeMap, type MappedRange } from './page-map-fill.ts';
import { readAhead } from '../tablespace/source.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';

export interface LeafCountOptions {
  indexId: bigint;
  compact: boolean;
  mode: RowMode;
  /** Largest read, in bytes (default 8 MiB). */
  readBytes?: number;
  /**
   * Given, every page of each range read (leaf or not) is recorded into a map of that range, pushed
   * here (page-map-fill.ts): the page map filled by the count's own reads (of an encrypted or
   * compressed tablespace: the leaves it reads, through the Tablespace).
   */
  mapped?: MappedRange[];
  /** Count purged rows too (by decoding every page, DECODE_TO_COUNT): what a `deleted`, `both` or `all` read returns. */
  exact?: boolean;
  signal?: AbortSignal;
}

/** The count of a page that is not a leaf of the index (or cannot be read): its rows are unknown. */
export const UNCOUNTED = -1;
/** The count of a page whose rows only its decode can count (a damaged page, or purged rows asked for). */
export const DECODE_TO_COUNT = -2;

/** Scratch of leafRowCount(). */
const tally: RecordTally = { live: 0, deleted: 0, other: 0 };

/**
 * Rows on one leaf page image of index `indexId` (UNCOUNTED when it is not one, DECODE_TO_COUNT when
 * only its decode can tell). `checksumBad`: the page as stored fails its checksum.
 */
export function leafRowCount(bytes: Uint8Array, checksumBad: boolean, options: LeafCountOptions): number {
  const { mode } = options;
  // Damaged, even its header: the decoder carves its body all the same, and says what it withholds.
  if (checksumBad) return DECODE_TO_COUNT;
  if (!isIndexPageType(u16(bytes, FIL_PAGE_TYPE))) return UNCOUNTED;
  if (u16(bytes, PAGE_HEADER + PAGE_LEVEL) !== 0 || u64(bytes, PAGE_HEADER + PAGE_INDEX_ID) !== options.indexId) return UNCOUNTED;
  if (tallyRecords(bytes, options.compact, tally) !== null || tally.live + tally.deleted + tally.other !== u16(bytes, PAGE_HEADER + PAGE_N_RECS)) return DECODE_TO_COUNT;
  if (options.exact && modeIncludes(mode, 'purged')) return DECODE_TO_COUNT;
  return (modeIncludes(mode, 'live') ? tally.live : 0) + (modeIncludes(mode, 'delete-marked') ? tally.deleted : 0);
}

/** Pages (sorted) cut into ranges read at once: neighbours closer than `gap` pages, at most `most` pages long. */
export function readRanges(sorted: ArrayLike<number>, gap: number, most: number): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  while (i < sorted.length) {
    const from = sorted[i];
    let to = from;
    while (i + 1 < sorted.length && sorted[i + 1] - to <= gap && sorted[i + 1] - from < most) to = sorted[++i];
    out.push([from, to]);
    i++;
  }
  return out;
}

/** Rows on each of `pages` (any order; the result is in the same order), or UNCOUNTED. */
export async function countLeafRows(ts: Tablespace, pages: ArrayLike<number>, options: LeafCountOptions): Promise<Int32Array<ArrayBuffer>> {
  const counts = new Int32Array(pages.length);
  // A few pages (a small table's root, which the walk to its leaves has just read) come from the
  // Tablespace's chunks: a read of their own would be a Blob read per table of a listing of thousands.
  if (!plainPages(ts) || (pages.length <= FEW_PAGES && !options.mapped)) {
    await countThrough(ts, pages, options, counts);
    return counts;
  }
  // `pages` in ascending page order, as indexes into it (a page number appears once in a sane tree; a
  // repeat gets the same count): leaves are mostly in page order already, and no sort is needed then.
  const order = Uint32Array.from({ length: pages.length }, (_, i) => i);
  if (!ascending(pages)) order.sort((a, b) => pages[a] - pages[b] || a - b);
  const sorted = Uint32Array.from(order, (i) => pages[i]);
  const size = ts.pageSize;
  const most = Math.max(1, Math.floor((options.readBytes ?? 8 << 20) / size));
  const ranges = readRanges(sorted, 64, most);
  const range = (k: number): [number, number] => [ranges[k][0] * size, (ranges[k][1] - ranges[k][0] + 1) * size];
  const wanted: WantedPages = { sorted, order, next: 0 };
  let k = 0;
  for await (const bytes of readAhead(ts.source, ranges.length, range)) {
    options.signal?.throwIfAborted();
    await countRange(ts, bytes, ranges[k][0], ranges[k][1], wanted, options, counts);
    k++;
  }
  return counts;
}

/** Whether `pages` are in ascending order. */
function ascending(pages: ArrayLike<number>): boolean {
  for (let i = 1; i < pages.length; i++) if (pages[i] < pages[i - 1]) return false;
  return true;
}

/** The pages to count, in page order, and the next to be counted (the ranges are counted in page order too). */
interface WantedPages {
  /** Their page numbers, ascending. */
  sorted: Uint32Array;
  /** Where each is in the caller's `pages` (and its count in `counts`). */
  order: Uint32Array;
  next: number;
}

/** Leaves counted through the Tablespace's chunks rather than read in ranges of their own. */
const FEW_PAGES = 4;

/** Pages of a map range recorded through the Tablespace, at most (18 bytes each). */
const THROUGH_RANGE_PAGES = 4096;

/**
 * Counts `pages` of a tablespace whose pages must be decrypted or decompressed, one at a time through
 * the Tablespace; with `options.mapped`, each page so read is recorded too (in ranges of neighbouring
 * pages, the pages between them left pending), so the map needs no second transform of the leaves.
 */
async function countThrough(ts: Tablespace, pages: ArrayLike<number>, options: LeafCountOptions, counts: Int32Array): Promise<void> {
  const ranges = options.mapped ? readRanges([...new Set(Array.from(pages))].sort((a, b) => a - b), 64, THROUGH_RANGE_PAGES) : [];
  const maps = ranges.map(([from, to]) => rangeMap(to - from + 1, ts.pageSize));
  for (let i = 0; i < pages.length; i++) {
    options.signal?.throwIfAborted();
    const no = pages[i];
    const page = await ts.page(no).catch(() => null);
    counts[i] = page ? leafRowCount(page.bytes, page.checksum === 'bad', options) : UNCOUNTED;
    if (ranges.length === 0) continue;
    const k = rangeOf(ranges, no);
    if (page) mapImage(maps[k], no - ranges[k][0], page.bytes, page.checksum);
    else maps[k].unreadable(no - ranges[k][0]);
  }
  for (let k = 0; k < ranges.length; k++) options.mapped?.push({ first: ranges[k][0], map: maps[k].pack() });
}

/** The range of `ranges` (sorted, disjoint [from, to]) holding page `no`, which one does. */
function rangeOf(ranges: readonly [number, number][], no: number): number {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ranges[mid][0] <= no) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Counts the pages of [from, to] that are `wanted`, from `bytes` read from page `from` on; with
 * `options.mapped`, records every page of the range into a map of its own.
 */
async function countRange(ts: Tablespace, bytes: Uint8Array, from: number, to: number, wanted: WantedPages, options: LeafCountOptions, counts: Int32Array): Promise<void> {
  const size = ts.pageSize;
  const { sorted, order } = wanted;
  const map = options.mapped ? rangeMap(Math.min(to - from + 1, Math.floor(bytes.length / size)), size) : null;
  for (let no = from; no <= to; no++) {
    const off = (no - from) * size;
    const raw = bytes.subarray(off, off + size);
    if (wanted.next >= sorted.length || sorted[wanted.next] !== no) {
      if (map && raw.length === size) await mapStored(map, no - from, ts, no, raw);
      continue;
    }
    let n: number;
    // A root after instant ALTER (MariaDB type 18) and short reads go through the Tablespace. The
    // checksum streams the page through the cache before its record list's dependent loads walk it.
    if (raw.length === size && isIndexPageType(u16(raw, FIL_PAGE_TYPE))) {
      const checksum = verifyPage(raw, ts.fullCrc32);
      n = leafRowCount(raw, checksum === 'bad', options);
      if (map) mapImage(map, no - from, raw, checksum);
    } else {
      const page = await ts.page(no).catch(() => null);
      n = page ? leafRowCount(page.bytes, page.checksum === 'bad', options) : UNCOUNTED;
      if (map && raw.length === size) {
        if (page) mapImage(map, no - from, page.bytes, page.checksum);
        else map.unreadable(no - from);
      }
    }
    for (; wanted.next < sorted.length && sorted[wanted.next] === no; wanted.next++) counts[order[wanted.next]] = n;
  }
  if (map && map.pageCount > 0) options.mapped?.push({ first: from, map: map.pack() });
}

/**
 * Leaves found by a scan may include pages a merge freed (leaf-chain.ts): their counts become
 * DECODE_TO_COUNT, as a damaged page's, since the decode reads them as damaged.
 */
export function markDisowned(pages: ArrayLike<number>, counts: Int32Array, disowned: ReadonlyMap<number, string>): void {
  if (disowned.size === 0) return;
  for (let i = 0; i < pages.length; i++) if (counts[i] >= 0 && disowned.has(pages[i])) counts[i] = DECODE_TO_COUNT;
}

/**
 * The live rows of a tablespace's clustered index with no table definition at all: records are
 * counted from their headers, which need none. Without a definition the node pointers cannot be
 * read (the key's lengths are unknown), so the leaves are found by scanning the file for them
 * (page-scan.ts) and counted in file order. Damaged pages count no live row, as in a read.
 */
export async function countLiveRows(ts: Tablespace, signal?: AbortSignal): Promise<{ rows: number; leaves: number; uncounted: number; damaged: number; indexId: bigint }> {
  const root = await findClusteredRoot(ts).catch(() => null);
  const index = root !== null ? { indexId: root.header.indexId, compact: root.header.compact } : (await scanIndexes(ts))[0];
  if (index === undefined) throw new IbdError(ts.source.name, 'no leaf page of any index was found in the file', null);
  const { pages: leaves, disowned } = await scanLeafPages(ts, index.indexId);
  const counts = await countLeafRows(ts, leaves, { indexId: index.indexId, compact: index.compact, mode: 'live', signal });
  markDisowned(leaves, counts, disowned);
  let rows = 0;
  let uncounted = 0;
  let damaged = 0;
  for (const n of counts) {
    if (n === UNCOUNTED) uncounted++;
    else if (n === DECODE_TO_COUNT) damaged++;
    else rows += n;
  }
  return { rows, leaves: leaves.length, uncounted, damaged, indexId: index.indexId };
}
