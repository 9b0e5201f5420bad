/**
 * The page map and the page inspector, worker side (issue 27). The map (src/core/readers/page-map.ts,
 * 18 bytes a page) stays in the worker whose summary scan filled it: the page asks for what it draws
 * (one PageBucket per canvas cell, a page's entry, a range's totals, the B-tree levels), small
 * answers, never the per-page arrays (a transfer of 18 bytes a page each time the map is drawn would
 * grow with the file; the answers grow with the canvas). The summary worker (src/ui/summary/listing.ts) keeps the map
 * of its full scans in a PageMapStore (viewer-methods.ts `summarize`); a file whose summary ran
 * elsewhere (a small file, listed with its full summary by a pool worker: list-methods.ts) comes with
 * the map that summary filled (`keepPageMap`, at most a few KiB); only a file with neither gets a
 * scan of its own here. The store keeps the maps of the last few files only.
 */
import { inspectPage } from '../src/core/readers/page-inspect.ts';
import type { PageInspection } from '../src/core/readers/page-inspection.ts';
import { PageMap, PageState, type IndexLevels, type PackedPageMap, type PageBucket, type PageMapEntry } from '../src/core/readers/page-map.ts';
import { summarize } from '../src/core/readers/summary.ts';
import type { TableDef } from '../src/core/schema.ts';
import type { EncryptionKeys } from '../src/core/tablespace/encryption.ts';
import { sharedBlobSource } from '../src/core/tablespace/source.ts';

export type { PackedPageMap, PageBucket, PageInspection, PageMapEntry };

/** The map drawn in cells of `pagesPerCell` pages each. */
export interface PageCells {
  pages: number;
  pageSize: number;
  pagesPerCell: number;
  cells: PageBucket[];
  /** The highest PAGE_LEVEL among each cell's B-tree pages in use, -1 for none. */
  levels: Int16Array;
  /** Index ids (decimal) in slot order: the B-tree roots' first. */
  indexIds: string[];
}

/** One index's B-tree: its pages in use per level (0: leaves), their mean fill, and its pages whose checksum is wrong. */
export interface BTreeLevels extends IndexLevels {
  fill: (number | null)[];
  damaged: number;
}

export interface PageMapMethods {
  /** The whole map in at most `cells` cells (the file's pages spread evenly). */
  pageCells(ibd: Blob, name: string, cells: number, keys?: EncryptionKeys): Promise<PageCells>;
  /** The map another worker's scan of `ibd` filled, kept unless this worker has one of its own. */
  keepPageMap(ibd: Blob, name: string, map: PackedPageMap): Promise<void>;
  pageEntry(ibd: Blob, name: string, page: number, keys?: EncryptionKeys): Promise<PageMapEntry>;
  /** Pages [first, first + count) summed up. */
  pageRange(ibd: Blob, name: string, first: number, count: number, keys?: EncryptionKeys): Promise<PageBucket>;
  pageLevels(ibd: Blob, name: string, keys?: EncryptionKeys): Promise<BTreeLevels[]>;
  /**
   * A B-tree node of the B-tree view on the map: for each cell of `pagesPerCell` pages, how many of
   * its pages in use belong to index `indexId` at `level` (every level when null); pageLevels' counts
   * summed by cell.
   */
  pageMarks(ibd: Blob, name: string, pagesPerCell: number, indexId: string, level: number | null, keys?: EncryptionKeys): Promise<Uint32Array>;
  /** One page described whole; `table`: its clustered index's leaves are decoded with it. */
  inspectPage(ibd: Blob, name: string, page: number, keys?: EncryptionKeys, table?: TableDef | null): Promise<PageInspection>;
}

/** Maps kept at once: the table on screen and the one before it. */
const KEEP_MAPS = 2;

/** A File by name, size and date (each structured clone to the worker is a new object). */
function fileKey(ibd: Blob, name: string): string {
  return `${name}\u0000${ibd.size}\u0000${ibd instanceof File ? ibd.lastModified : 0}`;
}

/** The page maps of this worker's last files, each a promise while its scan runs. */
export class PageMapStore {
  #maps = new Map<string, Promise<PageMap | null>>();

  /** Whether a map of `ibd` is kept (or being filled). */
  has(ibd: Blob, name: string): boolean {
    return this.#maps.has(fileKey(ibd, name));
  }

  /** The map `scan` is filling for `ibd`; null from it (the scan failed or was stopped) forgets it. */
  filling(ibd: Blob, name: string, scan: Promise<PageMap | null>): void {
    const key = fileKey(ibd, name);
    this.#maps.delete(key);
    this.#maps.set(key, scan.catch(() => null));
    for (const old of this.#maps.keys()) if (this.#maps.size > KEEP_MAPS) this.#maps.delete(old);
  }

  /** The map of `ibd`, from the scan that filled it or a scan of its own. */
  async get(ibd: Blob, name: string, keys?: EncryptionKeys): Promise<PageMap> {
    const kept = await this.#maps.get(fileKey(ibd, name));
    if (kept) return kept;
    const map = new PageMap();
    const scan = summarize(sharedBlobSource(ibd, name), { keys, pageMap: map }).then(() => map);
    this.filling(ibd, name, scan);
    return scan;
  }
}

const inUse = (state: number) => state === PageState.UNCHECKED || state === PageState.VALID || state === PageState.CHECKSUM_BAD;

/** Highest PAGE_LEVEL among the B-tree pages in use of [first, first + count), -1 for none. */
function topLevel(map: PageMap, first: number, count: number): number {
  let top = -1;
  const end = Math.min(first + count, map.pageCount);
  for (let no = first; no < end; no++) if (map.index[no] !== 0 && inUse(map.state[no]) && map.level[no] > top) top = map.level[no];
  return top;
}

/** The map's levels() with each level's mean fill and each index's checksum-wrong pages. */
function btrees(map: PageMap): BTreeLevels[] {
  const trees = map.levels().map((t) => ({ ...t, fill: t.pages.map(() => 0 as number | null), damaged: 0 }));
  for (let no = 0; no < map.pageCount; no++) {
    const slot = map.index[no];
    if (slot === 0 || !inUse(map.state[no])) continue;
    const tree = trees[slot - 1];
    tree.fill[map.level[no]] = (tree.fill[map.level[no]] ?? 0) + map.used[no];
    if (map.state[no] === PageState.CHECKSUM_BAD) tree.damaged++;
  }
  for (const t of trees) t.fill = t.fill.map((used, l) => (t.pages[l] > 0 ? (used ?? 0) / t.pages[l] / map.pageSize : null));
  return trees;
}

function cellsOf(map: PageMap, wanted: number): PageCells {
  const pagesPerCell = Math.max(1, Math.ceil(map.pages / Math.max(1, Math.floor(wanted))));
  const cells = map.buckets(pagesPerCell);
  const levels = Int16Array.from(cells, (c) => topLevel(map, c.first, c.pages));
  return { pages: map.pages, pageSize: map.pageSize, pagesPerCell, cells, levels, indexIds: map.indexIds.slice() };
}

function marksOf(map: PageMap, pagesPerCell: number, indexId: string, level: number | null): Uint32Array {
  const per = Math.max(1, Math.floor(pagesPerCell));
  const marks = new Uint32Array(Math.ceil(map.pages / per));
  const slot = map.indexIds.indexOf(indexId) + 1;
  if (slot === 0) return marks;
  for (let no = 0; no < map.pageCount; no++) {
    if (map.index[no] !== slot || !inUse(map.state[no]) || (level !== null && map.level[no] !== level)) continue;
    marks[Math.floor(no / per)]++;
  }
  return marks;
}

function inRange(map: PageMap, page: number): number {
  if (!Number.isInteger(page) || page < 0 || page >= map.pages) throw new Error(`Page ${page} is not in the file (pages 0 to ${map.pages - 1}).`);
  return page;
}

export function createPageMapMethods(store: PageMapStore): PageMapMethods {
  return {
    async pageCells(ibd, name, cells, keys) {
      return cellsOf(await store.get(ibd, name, keys), cells);
    },
    keepPageMap(ibd, name, map) {
      if (!store.has(ibd, name)) store.filling(ibd, name, Promise.resolve(PageMap.unpack(map)));
      return Promise.resolve();
    },
    async pageEntry(ibd, name, page, keys) {
      const map = await store.get(ibd, name, keys);
      return map.entry(inRange(map, page));
    },
    async pageRange(ibd, name, first, count, keys) {
      const map = await store.get(ibd, name, keys);
      const start = inRange(map, first);
      return map.bucket(start, Math.max(1, Math.min(count, map.pages - start)));
    },
    async pageLevels(ibd, name, keys) {
      return btrees(await store.get(ibd, name, keys));
    },
    async pageMarks(ibd, name, pagesPerCell, indexId, level, keys) {
      return marksOf(await store.get(ibd, name, keys), pagesPerCell, indexId, level);
    },
    inspectPage(ibd, name, page, keys, table) {
      return inspectPage(sharedBlobSource(ibd, name), page, { keys, table: table ?? null });
    },
  };
}
