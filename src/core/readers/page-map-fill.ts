/**
 * The page map (page-map.ts) filled from the row count's own reads (issue 27), not from a scan of
 * its own. The grid's count (leaf-counts.ts) reads the clustered index's leaves in large ranges of
 * consecutive pages; every page of such a range (leaf or not: the node pointer pages, other indexes'
 * pages and free pages between the leaves come with the same read) is recorded as the summary's scan
 * records it, into a small PageMap of that range (`MappedRange`: 18 bytes a page, typed arrays), which
 * goes to the worker keeping the file's map and is merged there (`CountedMap.merge`).
 *
 * What the count does not read: the pages of the ranges' gaps (other indexes' segments, undo, BLOB
 * and free extents away from the leaves) are read once the count has ended (`CountedMap.fillRest`),
 * in large ranges of pending pages only, so that the file is read once in all, the count's share
 * first. Which pages are free comes from the extent descriptor pages (page 0 and one every page-size
 * pages: 4 reads for a 1 GB file of 16K pages), read when the map is made. A file whose pages must be
 * decrypted or decompressed is not counted in ranges: the count records the leaves it reads through
 * the Tablespace, and fillRest reads the other pages so (one at a time, as the summary's own scan of
 * such files reads them), so that no page is transformed twice.
 *
 * A page's state, type, index, level, records, fill, LSN and checksum are then those the summary's
 * scan finds (`summarize` with `pageMap`): free pages by the descriptors, all-zero pages, the
 * checksum as stored (`storedChecksum`), pages that cannot be decrypted or decompressed unreadable.
 * Plain TypeScript, no DOM.
 */
import { findIndexRoots } from '../btree/btree.ts';
import { truncationOf } from '../btree/truncation.ts';
import { verifyPage, type ChecksumResult } from '../pages/checksum.ts';
import { FIL_PAGE_TYPE, isAllZero, PageType, u16 } from '../pages/fil-header.ts';
import { readAhead } from '../tablespace/source.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';
import { groupFreeFlags } from './free-pages.ts';
import { PageMap, type PackedPageMap } from './page-map.ts';

/**
 * Page types whose stored bytes are not the page image (MySQL COMPRESSION=, encrypted, MariaDB
 * page-compressed) or that the Tablespace presents as another type (MariaDB's instant-ALTER root):
 * such pages are read through Tablespace.page(), which decrypts, decompresses and checks them.
 */
export const TRANSFORMED_TYPES = new Set<number>([
  14, // COMPRESSED (MySQL transparent page compression)
  15, 16, 17, // ENCRYPTED, COMPRESSED_AND_ENCRYPTED, ENCRYPTED_RTREE
  18, // MariaDB FIL_PAGE_TYPE_INSTANT root (MySQL: SDI_BLOB, which comes back unchanged)
  PageType.PAGE_COMPRESSED,
  PageType.PAGE_COMPRESSED_ENCRYPTED,
]);

/** The checksum of page `no` of a plain tablespace as stored (`raw`): page 0 that the Tablespace found damaged is bad. */
export function storedChecksum(ts: Tablespace, no: number, raw: Uint8Array): ChecksumResult {
  return ts.knownChecksum(no) ?? (no === 0 && ts.page0Damaged !== null ? 'bad' : verifyPage(raw, ts.fullCrc32));
}

/** Pages of the map's file that are plain (neither encrypted nor compressed): they can be read in ranges as stored. */
export function plainPages(ts: Tablespace): boolean {
  return ts.fsp.flags.zipSize === 0 && ts.encryption === null && ts.fsp.flags.pageCompression === 0 && ts.physicalSize === ts.pageSize;
}

/** A page image in use or not (free pages are told later, by the descriptors), with its checksum. */
export function mapImage(map: PageMap, at: number, bytes: Uint8Array, checksum: ChecksumResult): void {
  if (u16(bytes, FIL_PAGE_TYPE) === 0 && isAllZero(bytes)) {
    map.allZero(at);
    return;
  }
  map.read(at, bytes);
  map.checked(at, checksum);
}

/** Page `no` as stored (`raw`) into slot `at` of `map`; transformed types through the Tablespace. */
export async function mapStored(map: PageMap, at: number, ts: Tablespace, no: number, raw: Uint8Array): Promise<void> {
  if (!TRANSFORMED_TYPES.has(u16(raw, FIL_PAGE_TYPE))) return mapImage(map, at, raw, storedChecksum(ts, no, raw));
  await mapThrough(map, at, ts, no);
}

/** Page `no` read through the Tablespace into slot `at`: unreadable when it cannot be decrypted or decompressed. */
export async function mapThrough(map: PageMap, at: number, ts: Tablespace, no: number): Promise<void> {
  const page = await ts.page(no).catch(() => null);
  if (page === null) map.unreadable(at);
  else mapImage(map, at, page.bytes, page.checksum);
}

/** The map of pages [first, first + map.pageCount) that one read of the count recorded. */
export interface MappedRange {
  first: number;
  map: PackedPageMap;
}

/** An empty map of `pages` pages from `first` on, for one read of the count. */
export function rangeMap(pages: number, pageSize: number): PageMap {
  const map = new PageMap();
  map.reset(pages, 0, pageSize, []);
  return map;
}

/** Pages read at once by fillRest, at most; pending pages this close are read in one range. */
const REST_READ_BYTES = 16 << 20;
const REST_GAP = 8;

/** A file's map as the count's reads fill it (see the top of this file). */
export class CountedMap {
  private constructor(
    readonly map: PageMap,
    private readonly ts: Tablespace,
    /** 1 for a page the extent descriptors mark free, by page. */
    private readonly free: Uint8Array,
  ) {}

  /** The map of `ts`, every page pending; the extent descriptor pages are read for the free pages. */
  static async open(ts: Tablespace): Promise<CountedMap> {
    const map = new PageMap();
    const roots = await findIndexRoots(ts).catch(() => []);
    map.reset(ts.pageCount, truncationOf(ts)?.missingPages ?? 0, ts.pageSize, roots.map((r) => r.header.indexId));
    const free = new Uint8Array(ts.pageCount);
    const size = ts.physicalSize;
    for (let first = 0; first < ts.pageCount; first += size) {
      const page = await ts.page(first).catch(() => null);
      // A damaged descriptor page: nothing of its group is taken as free (as the summary's scan does).
      const flags = page && groupFreeFlags(page.bytes, first, ts, ts.fsp.freeLimit);
      if (flags) free.set(flags.subarray(0, Math.min(size, ts.pageCount - first)), first);
    }
    return new CountedMap(map, ts, free);
  }

  /** The pages one read of the count recorded. */
  merge({ first, map }: MappedRange): void {
    this.map.merge(map, first);
    this.markFree(first, first + map.pageCount);
  }

  /** Reads every page still pending (what the count did not read), in large ranges; then the map is complete. */
  async fillRest(signal?: AbortSignal): Promise<void> {
    const { ts, map } = this;
    if (!plainPages(ts)) {
      for (let no = 0; no < ts.pageCount; no++) {
        if ((no & 255) === 0) signal?.throwIfAborted();
        if (map.isPending(no)) await mapThrough(map, no, ts, no);
      }
      this.markFree(0, ts.pageCount);
      return;
    }
    const ranges = this.pendingRanges();
    const size = ts.pageSize;
    let k = 0;
    for await (const bytes of readAhead(ts.source, ranges.length, (i) => [ranges[i][0] * size, (ranges[i][1] - ranges[i][0]) * size])) {
      signal?.throwIfAborted();
      const [from, to] = ranges[k++];
      for (let no = from; no < to && (no - from + 1) * size <= bytes.length; no++) {
        if (map.isPending(no)) await mapStored(map, no, ts, no, bytes.subarray((no - from) * size, (no - from + 1) * size));
      }
      this.markFree(from, to);
    }
  }

  /** [from, to) ranges covering the pending pages, pending pages closer than REST_GAP in one. */
  private pendingRanges(): [number, number][] {
    const most = Math.max(1, Math.floor(REST_READ_BYTES / this.ts.pageSize));
    const out: [number, number][] = [];
    const { map } = this;
    for (let no = 0; no < map.pageCount; no++) {
      if (!map.isPending(no)) continue;
      const last = out[out.length - 1];
      if (last && no - last[1] < REST_GAP && no + 1 - last[0] <= most) last[1] = no + 1;
      else out.push([no, no + 1]);
    }
    return out;
  }

  private markFree(from: number, to: number): void {
    const end = Math.min(to, this.map.pageCount);
    for (let no = from; no < end; no++) if (this.free[no] === 1) this.map.markFree(no);
  }
}
