/**
 * The indexes of a system tablespace that no live table owns: B-trees of dropped tables (and of
 * tables ALTER TABLE rebuilt), whose pages the server freed but did not overwrite. The extent
 * descriptors mark them free, so they are found by reading every page of the file (orphan-scan.ts
 * groups the INDEX pages by index id, with the root of each); the dictionary's removed rows
 * (dict-tables.ts) name those whose SYS_INDEXES and SYS_TABLES rows survive.
 *
 * How the B-tree of one such index is opened: through the root the dictionary names, if that page is
 * still a root of the index; else through the one a scan of the file finds.
 */
import { findIndexRoots } from '../btree/btree.ts';
import { DICT_HDR_FIRST_ID, DICT_IBUF_ID_MIN } from '../definitions/dictionary/dict-header.ts';
import { INDEX_TYPE, type DictTable, type Dictionary } from '../definitions/dictionary/dict-tables.ts';
import { FIL_NULL, FIL_PAGE_NEXT, FIL_PAGE_PREV, FIL_PAGE_TYPE, PageType, u16, u32 } from '../pages/fil-header.ts';
import { readIndexHeader } from '../pages/index-page.ts';
import { scanOrphans, type IndexGroup, type OrphanScan } from '../tablespace/orphan-scan.ts';
import type { ByteSource } from '../tablespace/source.ts';
import { Tablespace } from '../tablespace/tablespace.ts';
import type { OpenOptions } from './table-reader.ts';

export interface DroppedIndex {
  indexId: bigint;
  /** Its root page as a scan finds it (the only page of its top level, without neighbours), or null. */
  rootPage: number | null;
  pages: number;
  leafPages: number;
  /** User records on its leaf pages (delete-marked ones included). */
  records: number;
  compact: boolean;
  /** The dropped table the dictionary's removed rows give it to, with the index's name; null when those are lost. */
  table: DictTable | null;
  indexName: string | null;
  /** Whether it is that table's clustered index (its rows), as the dictionary says; null when unknown. */
  clustered: boolean | null;
}

/** Index ids of the basic system tables, of the change buffer, and every live table's. */
function ownedIds(dictionary: Dictionary): Set<bigint> {
  const ids = new Set<bigint>();
  for (const t of dictionary.tables) if (t.state === 'live') for (const i of t.indexes) ids.add(i.id);
  return ids;
}

/** The scan of a whole file, made once for all the indexes looked for in it (a datadir's thousands of dropped tables). */
export type ScanOnce = () => Promise<OrphanScan>;

/** Every index of space 0 with pages in the file that no live table owns, lowest id first (reads the whole file, or takes `scan`'s). */
export async function droppedIndexes(source: ByteSource, dictionary: Dictionary, signal?: AbortSignal, scanOnce?: ScanOnce): Promise<DroppedIndex[]> {
  const owned = ownedIds(dictionary);
  const scan = await (scanOnce ?? (() => scanOrphans(source, { signal })))();
  const removed = new Map<bigint, { table: DictTable; name: string; clustered: boolean }>();
  for (const t of dictionary.tables) {
    if (t.state === 'live') continue;
    for (const i of t.indexes) removed.set(i.id, { table: t, name: i.name, clustered: (i.type & INDEX_TYPE.CLUSTERED) !== 0 });
  }
  return scan.groups
    .filter((g) => g.spaceId === 0 && g.base === 0 && g.indexId >= DICT_HDR_FIRST_ID && g.indexId < DICT_IBUF_ID_MIN && !owned.has(g.indexId))
    .map((g) => droppedIndex(g, removed.get(g.indexId) ?? null));
}

function droppedIndex(g: IndexGroup, known: { table: DictTable; name: string; clustered: boolean } | null): DroppedIndex {
  return {
    indexId: g.indexId, rootPage: g.root, pages: g.pages, leafPages: g.leafPages, records: g.records, compact: g.compact,
    table: known?.table ?? null, indexName: known?.name ?? null, clustered: known?.clustered ?? null,
  };
}

/** Whether page `no` is a root of index `indexId`: an intact INDEX page of it with no neighbours. */
async function isRootOf(ts: Tablespace, no: number, indexId: bigint): Promise<boolean> {
  const page = await ts.page(no).catch(() => null);
  if (page === null || page.checksum === 'bad' || u16(page.bytes, FIL_PAGE_TYPE) !== PageType.INDEX) return false;
  return readIndexHeader(page.bytes).indexId === indexId && u32(page.bytes, FIL_PAGE_PREV) === FIL_NULL && u32(page.bytes, FIL_PAGE_NEXT) === FIL_NULL;
}

/** The OpenOptions that point openTable at an index of a system tablespace. */
export type IndexTarget = Pick<OpenOptions, 'index' | 'raw'>;

/**
 * Where the indexes of a system tablespace are, for many of them (a datadir's 50,000 dropped tables).
 * Index `indexId`: through the root the dictionary names when that page is still one, else the one
 * its file segment names (INODE); else, when its pages were freed (a dropped table's), through the
 * root a scan of the file finds. With no root left at all (its page reused), its leaves are found by
 * scanning the file read as a raw image, whose extent descriptors (which mark them free) are not
 * consulted: rows may then come out of key order, and the leaves a merge freed before the drop are
 * told apart by their links (leaf-chain.ts). The file opened, the roots its INODE pages name and the
 * scan's groups are read once and looked up by index id: read per table, the INODE pages of a file of
 * 100,000 segments were read and checksummed again for each (the CLI's `DIR -o` of 5,000 dropped
 * tables: 14 of its 21 CPU-seconds).
 */
export class SystemTargets {
  #ts: Promise<Tablespace> | null = null;
  #roots: Promise<Map<bigint, number>> | null = null;
  #scanned: Promise<Map<bigint, number | null>> | null = null;

  constructor(
    private readonly source: ByteSource,
    private readonly scanOnce: ScanOnce,
  ) {}

  async target(indexId: bigint, rootPage: number | null): Promise<IndexTarget> {
    const ts = await (this.#ts ??= Tablespace.open(this.source));
    const through = (root: number): IndexTarget => ({ index: { indexId, rootPage: root } });
    if (rootPage !== null && (await isRootOf(ts, rootPage, indexId))) return through(rootPage);
    const inUse = (await (this.#roots ??= rootsById(ts))).get(indexId);
    if (inUse !== undefined) return through(inUse);
    const found = (await (this.#scanned ??= this.#scanRoots(ts))).get(indexId);
    if (found !== undefined && found !== null) return through(found);
    return rootlessTarget(ts, indexId);
  }

  /** The root the scan found of each index of the file's own space (the first group of an id, as a search would find it). */
  async #scanRoots(ts: Tablespace): Promise<Map<bigint, number | null>> {
    const roots = new Map<bigint, number | null>();
    for (const g of (await this.scanOnce()).groups) {
      if (g.spaceId === ts.fsp.spaceId && g.base === 0 && !roots.has(g.indexId)) roots.set(g.indexId, g.root);
    }
    return roots;
  }
}

/** The root page of each index the INODE pages name (the first found of an id); none when they cannot be read. */
async function rootsById(ts: Tablespace): Promise<Map<bigint, number>> {
  const roots = new Map<bigint, number>();
  for (const r of await findIndexRoots(ts).catch(() => [])) if (!roots.has(r.header.indexId)) roots.set(r.header.indexId, r.page);
  return roots;
}

/** Index `indexId` of system tablespace `ts` with no root left: its leaves found by scanning the file read as a raw image (see SystemTargets). */
export function rootlessTarget(ts: Tablespace, indexId: bigint): IndexTarget {
  return { index: { indexId, rootPage: null }, raw: { pageSize: ts.pageSize, fullCrc32: ts.fullCrc32, base: 0, spaceId: ts.fsp.spaceId } };
}
