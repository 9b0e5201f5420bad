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
 *
 * The table on screen's map is filled from the grid's row count instead (page-map-fill.ts): the page
 * tells this worker when the count starts (`countedMapStart`: the map is made, every page pending,
 * the extent descriptors read), hands it each batch of pages the pool's count read
 * (`countedMapPages`: typed arrays, transferred), and says when the count ends (`countedMapEnd`):
 * the pages the count did not read are read then, and the map is complete. The summary's scan of a
 * file whose map is kept so fills none of its own.
 */
import { findIndexRoots } from '../src/core/btree/btree.ts';
import { secondaryIndexName, secondaryTree, treeOrder } from '../src/core/readers/index-choice.ts';
import { inspectPage } from '../src/core/readers/page-inspect.ts';
import type { PageInspection } from '../src/core/readers/page-inspection.ts';
import { CountedMap, type MappedRange } from '../src/core/readers/page-map-fill.ts';
import { PageMap, PageState, type IndexLevels, type PackedPageMap, type PageBucket, type PageMapEntry } from '../src/core/readers/page-map.ts';
import { summarize } from '../src/core/readers/summary.ts';
import type { TableDef } from '../src/core/schema.ts';
import type { EncryptionKeys } from '../src/core/tablespace/encryption.ts';
import type { ByteSource } from '../src/core/tablespace/source.ts';
import { fileSource } from './redo-sources.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';

export type { MappedRange, PackedPageMap, PageBucket, PageInspection, PageMapEntry };

/** The map drawn in cells of `pagesPerCell` pages each. */
export interface PageCells {
  /** The scan filling the map has ended; before, pages it has not reached are pending, those it has not checked unchecked. */
  complete: boolean;
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

/** A B-tree's index by name, from the table definition; `doubt`: why the name may be wrong (index-choice.ts). */
export interface IndexName {
  indexId: string;
  name: string;
  /** The clustered index: the tree of the lowest index id, as the summary takes it. */
  clustered: boolean;
  doubt: string | null;
}

export interface PageMapMethods {
  /**
   * The whole map in at most `cells` cells (the file's pages spread evenly), as the scan filling it
   * has it so far. `coming`: a scan of the file is to run in this worker (the summary's): wait for it
   * rather than scan the file once more. `waitMs`: a map still filling is answered once it is
   * complete or after that long, whichever comes first (a panel drawing it again shows it complete at once).
   */
  pageCells(ibd: Blob, name: string, cells: number, keys?: EncryptionKeys, coming?: boolean, waitMs?: number): Promise<PageCells>;
  /** The grid's row count of `ibd` starts: its reads fill the map from now on, unless a complete one is kept. */
  countedMapStart(ibd: Blob, name: string, keys?: EncryptionKeys): Promise<void>;
  /** Pages the count read, recorded by the pool's workers. */
  countedMapPages(ibd: Blob, name: string, ranges: MappedRange[]): Promise<void>;
  /** The count ended (`counted`) or stopped: the pages it did not read are read (resolved then), or the map is forgotten. */
  countedMapEnd(ibd: Blob, name: string, counted: boolean): Promise<void>;
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
  /** The names of the file's B-trees by the definition: the clustered index's (the lowest index id), each secondary index's tree as `--index` finds it. */
  indexNames(ibd: Blob, name: string, table: TableDef, keys?: EncryptionKeys): Promise<IndexName[]>;
  /** One page described whole; `table`: its clustered index's leaves are decoded with it. */
  inspectPage(ibd: Blob, name: string, page: number, keys?: EncryptionKeys, table?: TableDef | null, timeZone?: string): Promise<PageInspection>;
}

/** Maps kept at once: the table on screen and the one before it. */
const KEEP_MAPS = 2;

/** A File by name, size and date (each structured clone to the worker is a new object). */
function fileKey(ibd: Blob, name: string): string {
  return `${name}\u0000${ibd.size}\u0000${ibd instanceof File ? ibd.lastModified : 0}`;
}

/** A map kept: filled as its scan reads the pages (answered from at once), `complete` once the scan ended. */
interface Kept {
  map: PageMap;
  complete: boolean;
  /** Settles when the scan filling it ends (or fails). */
  done: Promise<unknown>;
  /** Stops the scan of its own (get) that fills it: the count's map, come meanwhile, replaces it. */
  stop?: () => void;
}

/**
 * The page maps of this worker's last files, each answered from while its scan still fills it (pages
 * not read yet are pending, pages not checked yet unchecked), so that the map is on screen as soon as
 * the scan's first pass (the count's) has read the pages, not once it has checked every checksum.
 */
export class PageMapStore {
  #maps = new Map<string, Kept>();
  /** Maps the row count's reads fill, until the count ends. */
  #counted = new Map<string, Promise<{ counted: CountedMap; finish: (ok: boolean) => void; filled: Promise<void> }>>();
  /** Requests waiting for a scan to come (see get). */
  #waiting = new Map<string, (() => void)[]>();

  /** Forgets the maps made (the files are now read otherwise: through their datadir's log, or as on disk). */
  forget(): void {
    for (const kept of this.#maps.values()) kept.stop?.();
    this.#maps.clear();
  }

  /** The map `scan` fills for `ibd` as it reads; a scan that fails or is stopped forgets it. */
  filling(ibd: Blob, name: string, map: PageMap, scan: Promise<unknown>, stop?: () => void): Kept {
    const key = fileKey(ibd, name);
    const kept: Kept = { map, complete: false, done: scan.catch(() => undefined), stop };
    const replaced = this.#maps.get(key);
    // A scan of its own still running reads the file a second time beside the count's: stopped.
    if (replaced && !replaced.complete) replaced.stop?.();
    this.#maps.delete(key);
    this.#maps.set(key, kept);
    for (const old of this.#maps.keys()) if (this.#maps.size > KEEP_MAPS) this.#maps.delete(old);
    scan.then(() => (kept.complete = true), () => this.#maps.get(key) === kept && this.#maps.delete(key));
    for (const wake of this.#waiting.get(key) ?? []) wake();
    this.#waiting.delete(key);
    return kept;
  }

  /** Once the map being filled for `ibd` (if any) is complete or dropped: a summary's scan of it then has the worker to itself. */
  async settled(ibd: Blob, name: string): Promise<void> {
    await this.#maps.get(fileKey(ibd, name))?.done;
  }

  /** A map is kept (or filling) for `ibd`: a summary's scan of it need not fill one. */
  has(ibd: Blob, name: string): boolean {
    return this.#maps.has(fileKey(ibd, name));
  }

  /** The map the row count's reads fill (see the top of this file); none when a complete map is kept. */
  countStarts(ibd: Blob, name: string, keys?: EncryptionKeys): void {
    const key = fileKey(ibd, name);
    if (this.#maps.get(key)?.complete) return;
    const ready = fileSource(ibd, name).then((source) => Tablespace.open(source, { keys })).then(CountedMap.open).then((counted) => {
      let finish: (ok: boolean) => void = () => undefined;
      const ended = new Promise<boolean>((resolve) => (finish = resolve));
      const filled = ended.then((ok) => (ok ? counted.fillRest() : Promise.reject(new Error('The count stopped.'))));
      this.filling(ibd, name, counted.map, filled);
      return { counted, finish, filled };
    });
    ready.catch(() => this.#counted.get(key) === ready && this.#counted.delete(key));
    this.#counted.set(key, ready);
  }

  async countRead(ibd: Blob, name: string, ranges: readonly MappedRange[]): Promise<void> {
    const fill = await this.#counted.get(fileKey(ibd, name))?.catch(() => null);
    for (const range of ranges) fill?.counted.merge(range);
  }

  /** Resolves once the map is complete (or forgotten). */
  async countEnds(ibd: Blob, name: string, counted: boolean): Promise<void> {
    const key = fileKey(ibd, name);
    const fill = await this.#counted.get(key)?.catch(() => null);
    this.#counted.delete(key);
    fill?.finish(counted);
    await fill?.filled.catch(() => undefined);
  }

  /** The map another worker's scan filled, kept unless this worker has one of its own. */
  keep(ibd: Blob, name: string, map: PageMap): void {
    if (!this.#maps.has(fileKey(ibd, name))) this.filling(ibd, name, map, Promise.resolve());
  }

  /**
   * The map of `ibd`: the one a scan is filling or filled; else, with `coming` (the page knows a scan
   * of it is to run here), the one that scan will fill, once it starts; else a scan of its own, once
   * it ended.
   */
  async get(ibd: Blob, name: string, keys?: EncryptionKeys, coming = false): Promise<Kept> {
    const key = fileKey(ibd, name);
    const kept = this.#maps.get(key);
    if (kept) return kept;
    // The row count's map is being made (its descriptors read): answered from, not a whole scan of its own
    // (the panel open as the count starts: a second pass of the file beside the count's).
    const counting = this.#counted.get(key);
    if (counting && (await counting.then(() => true, () => false))) return this.get(ibd, name, keys, coming);
    if (coming) {
      await new Promise<void>((wake) => this.#waiting.set(key, [...(this.#waiting.get(key) ?? []), wake]));
      return this.get(ibd, name, keys);
    }
    const map = new PageMap();
    // A scan of its own is answered from once it is over (no summary shows it filling); stopped when
    // the count's map replaces it, it is answered from that one.
    const stopping = new AbortController();
    const scan = fileSource(ibd, name).then((source) => summarize(source, { keys, pageMap: map, signal: stopping.signal }));
    const own = this.filling(ibd, name, map, scan, () => stopping.abort());
    const ended = await scan.then(() => true, (e: unknown) => (stopping.signal.aborted ? false : Promise.reject(e)));
    return ended ? own : this.get(ibd, name, keys);
  }

  /** The map of `ibd` as it stands (see get). */
  async map(ibd: Blob, name: string, keys?: EncryptionKeys): Promise<PageMap> {
    return (await this.get(ibd, name, keys)).map;
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

function cellsOf({ map, complete }: Kept, wanted: number): PageCells {
  const pagesPerCell = Math.max(1, Math.ceil(map.pages / Math.max(1, Math.floor(wanted))));
  const cells = map.buckets(pagesPerCell);
  const levels = Int16Array.from(cells, (c) => topLevel(map, c.first, c.pages));
  return { complete, pages: map.pages, pageSize: map.pageSize, pagesPerCell, cells, levels, indexIds: map.indexIds.slice() };
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

async function namesOf(source: ByteSource, table: TableDef, keys: EncryptionKeys | undefined): Promise<IndexName[]> {
  const ts = await Tablespace.open(source, { keys });
  const [clustered] = await findIndexRoots(ts);
  const names: IndexName[] = clustered ? [{ indexId: clustered.header.indexId.toString(), name: treeOrder(table)[0], clustered: true, doubt: null }] : [];
  for (const index of table.indexes) {
    const secondary = index.kind === 'fulltext' || index.kind === 'spatial' ? null : secondaryIndexName(table, index.name);
    if (secondary === null) continue;
    // A tree that cannot be told (secondaryTree says why) stays unnamed.
    const tree = await secondaryTree(ts, table, secondary).catch(() => null);
    if (tree) names.push({ indexId: tree.indexId.toString(), name: secondary, clustered: false, doubt: tree.doubt });
  }
  return names;
}

function inRange(map: PageMap, page: number): number {
  if (!Number.isInteger(page) || page < 0 || page >= map.pages) throw new Error(`Page ${page} is not in the file (pages 0 to ${map.pages - 1}).`);
  return page;
}

export function createPageMapMethods(store: PageMapStore): PageMapMethods {
  return {
    async pageCells(ibd, name, cells, keys, coming, waitMs = 0) {
      const kept = await store.get(ibd, name, keys, coming);
      if (!kept.complete && waitMs > 0) await Promise.race([kept.done, new Promise((r) => setTimeout(r, waitMs))]);
      return cellsOf(kept, cells);
    },
    countedMapStart(ibd, name, keys) {
      store.countStarts(ibd, name, keys);
      return Promise.resolve();
    },
    countedMapPages(ibd, name, ranges) {
      return store.countRead(ibd, name, ranges);
    },
    countedMapEnd(ibd, name, counted) {
      return store.countEnds(ibd, name, counted);
    },
    keepPageMap(ibd, name, map) {
      store.keep(ibd, name, PageMap.unpack(map));
      return Promise.resolve();
    },
    async pageEntry(ibd, name, page, keys) {
      const map = await store.map(ibd, name, keys);
      return map.entry(inRange(map, page));
    },
    async pageRange(ibd, name, first, count, keys) {
      const map = await store.map(ibd, name, keys);
      const start = inRange(map, first);
      return map.bucket(start, Math.max(1, Math.min(count, map.pages - start)));
    },
    async pageLevels(ibd, name, keys) {
      return btrees(await store.map(ibd, name, keys));
    },
    async pageMarks(ibd, name, pagesPerCell, indexId, level, keys) {
      return marksOf(await store.map(ibd, name, keys), pagesPerCell, indexId, level);
    },
    async indexNames(ibd, name, table, keys) {
      return namesOf(await fileSource(ibd, name), table, keys);
    },
    async inspectPage(ibd, name, page, keys, table, timeZone) {
      return inspectPage(await fileSource(ibd, name), page, { keys, table: table ?? null, timeZone });
    },
  };
}
