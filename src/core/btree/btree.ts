/**
 * An index B-tree: find its root through the INODE entries, descend along the leftmost node pointers
 * to level 0, then follow the leaf pages' FIL_PAGE_NEXT links in key order; or descend towards a key
 * (searchPath), the caller comparing node pointers with it.
 */
import { IbdError } from '../errors.ts';
import { FIL_NULL, FIL_PAGE_NEXT, FIL_PAGE_PREV, FIL_PAGE_TYPE, isIndexPageType, pageTypeName, u16, u32 } from '../pages/fil-header.ts';
import { PAGE_BTR_SEG_TOP, readFsegHeader, readIndexHeader, recordOrigins, type IndexPageHeader } from '../pages/index-page.ts';
import { inodeEntries, inodePageNumbers } from '../pages/inode.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';

export interface IndexRoot {
  page: number;
  header: IndexPageHeader;
}

function isIndexPage(bytes: Uint8Array): boolean {
  return isIndexPageType(u16(bytes, FIL_PAGE_TYPE));
}

/**
 * A page findIndexRoots could not read (an INODE page, a file segment's first page). `first`: no
 * B-tree root came before it in the INODE entries' order, so it may hold the clustered index's (whose
 * segments, created with the table, take the first entries after the SDI's).
 */
export interface UnreadSegmentPage {
  error: IbdError;
  first: boolean;
}

/**
 * Every B-tree root of the tablespace (excluding MySQL 8's SDI tree), lowest index id first. A page
 * that cannot be read (decrypted, decompressed) throws its IbdError; with `unread`, it is put there
 * instead and the others are read on (an index whose root that page is goes unlisted).
 */
export async function findIndexRoots(ts: Tablespace, unread?: UnreadSegmentPage[]): Promise<IndexRoot[]> {
  const roots = new Map<number, IndexRoot>();
  const readBytes = async (no: number): Promise<Uint8Array | null> => {
    try {
      return (await ts.page(no)).bytes;
    } catch (e) {
      if (!unread || !(e instanceof IbdError)) throw e;
      unread.push({ error: e, first: roots.size === 0 });
      return null;
    }
  };
  // A damaged page 0's lists of INODE pages are lost; page 2, always the first, still holds the table's.
  const inodePages = ts.page0Damaged !== null ? [2] : await inodePageNumbers((await ts.page(0)).bytes, async (no) => (await ts.page(no)).bytes, ts.pageCount);
  for (const inodePage of inodePages) {
    if (inodePage >= ts.pageCount) continue;
    const inode = await readBytes(inodePage);
    for (const entry of inode ? inodeEntries(inode, inodePage) : []) {
      if (entry.firstFrag === FIL_NULL || entry.firstFrag >= ts.pageCount || roots.has(entry.firstFrag)) continue;
      const bytes = await readBytes(entry.firstFrag);
      if (bytes === null || !isIndexPage(bytes) || u32(bytes, FIL_PAGE_PREV) !== FIL_NULL || u32(bytes, FIL_PAGE_NEXT) !== FIL_NULL) continue;
      const top = readFsegHeader(bytes, PAGE_BTR_SEG_TOP);
      if (top.inodePage !== entry.page || top.inodeOffset !== entry.offset) continue;
      roots.set(entry.firstFrag, { page: entry.firstFrag, header: readIndexHeader(bytes) });
    }
  }
  return [...roots.values()].sort((a, b) => (a.header.indexId < b.header.indexId ? -1 : a.header.indexId > b.header.indexId ? 1 : 0));
}

/** The clustered index is created before any secondary index, so it has the lowest index id. */
export async function findClusteredRoot(ts: Tablespace): Promise<IndexRoot> {
  const roots = await findIndexRoots(ts);
  if (roots.length === 0) {
    throw new IbdError(ts.source.name, 'no index root page found: the INODE page (page 2) lists no B-tree, so this is not a table tablespace or its first pages are damaged', 2);
  }
  return roots[0];
}

export type ChildOf = (page: Uint8Array, origin: number) => number;

/** Reads a non-leaf page of the index at the expected level, or throws saying what was found. */
async function nodePage(ts: Tablespace, root: IndexRoot, pageNo: number, level: number, origins: number[]): Promise<Uint8Array> {
  const page = await ts.page(pageNo);
  // A damaged node page's pointers could send the walk to any page: leaves would be missed unsaid.
  if (page.checksum === 'bad') throw new IbdError(ts.source.name, `the B-tree page at level ${level} fails its checksum, so its node pointers are not trusted`, pageNo);
  const bytes = page.bytes;
  const h = readIndexHeader(bytes);
  if (!isIndexPage(bytes) || h.indexId !== root.header.indexId || h.level !== level) {
    throw new IbdError(ts.source.name, `expected an INDEX page of index ${root.header.indexId} at level ${level}, found ${pageTypeName(u16(bytes, FIL_PAGE_TYPE))} (index ${h.indexId}, level ${h.level})`, pageNo);
  }
  const damage = recordOrigins(bytes, h.compact, origins);
  if (damage !== null || origins.length === 0) {
    throw new IbdError(ts.source.name, `cannot descend the B-tree: ${damage ?? 'the non-leaf page has no records'}`, pageNo);
  }
  return bytes;
}

/** Descends along the leftmost node pointers to `level`; returns that page's number. */
async function leftmostAt(ts: Tablespace, root: IndexRoot, childOf: ChildOf, level: number): Promise<number> {
  const origins: number[] = [];
  let pageNo = root.page;
  for (let l = root.header.level; l > level; l--) {
    const bytes = await nodePage(ts, root, pageNo, l, origins);
    pageNo = childOf(bytes, origins[0]);
  }
  return pageNo;
}

/**
 * The index's first leaf page (in key order), by descending the leftmost node pointers: one read per
 * level, so the first rows can be decoded before the whole leaf level is planned.
 */
export async function leftmostLeaf(ts: Tablespace, root: IndexRoot, childOf: ChildOf): Promise<number> {
  const leaf = await leftmostAt(ts, root, childOf, 0);
  if (root.header.level > 0) await checkFirstLeaf(ts, root, leaf);
  return leaf;
}

/**
 * Every leaf page of the index in key order, read off the level-1 pages' node pointers: about one
 * page in a hundred, so the whole leaf level can be planned (and split between workers) before any
 * leaf is read. `childOf` reads a node pointer's child page number (it depends on the key layout).
 */
export async function leafPageNumbers(ts: Tablespace, root: IndexRoot, childOf: ChildOf): Promise<number[]> {
  if (root.header.level === 0) return [root.page];
  const leaves: number[] = [];
  const origins: number[] = [];
  let pageNo = await leftmostAt(ts, root, childOf, 1);
  const bound = pageBound(ts);
  // The level-1 chain cannot be longer than the file; past that it loops.
  for (let visited = 0; pageNo !== FIL_NULL; visited++) {
    if (visited > ts.pageCount) throw new IbdError(ts.source.name, 'the chain of level-1 B-tree pages loops', pageNo);
    const bytes = await nodePage(ts, root, pageNo, 1, origins);
    for (const origin of origins) {
      const child = childOf(bytes, origin);
      if (child >= bound) throw impossibleChild(ts, pageNo, child, bound);
      leaves.push(child);
    }
    pageNo = u32(bytes, FIL_PAGE_NEXT);
  }
  await checkFirstLeaf(ts, root, leaves[0]);
  return leaves;
}

/**
 * The pages a node pointer can point to: those the space header gives the space (a file cut short
 * lacks some of them), or, with no space header to trust, those in the file. A child page number
 * read with a key layout that does not fit the node pointers is any 4 bytes of the record: believed,
 * it would say the file is cut millions of pages short.
 */
function pageBound(ts: Tablespace): number {
  return ts.page0Damaged === null && !ts.raw ? Math.max(ts.fsp.size, ts.pageCount) : ts.pageCount;
}

function impossibleChild(ts: Tablespace, pageNo: number | null, child: number, bound: number): IbdError {
  return new IbdError(ts.source.name, `a node pointer gives child page ${child}, but the space has ${bound} pages: the node pointers do not read with this key layout (a table definition that does not fit), or the page is damaged`, pageNo);
}

/**
 * The first node pointer must lead to a leaf page of the index (when that page is in the file): a
 * key layout that does not fit the node pointers gives page numbers that are not, even below the bound.
 */
async function checkFirstLeaf(ts: Tablespace, root: IndexRoot, first: number | undefined): Promise<void> {
  if (first === undefined) return;
  const bound = pageBound(ts);
  if (first >= bound) throw impossibleChild(ts, null, first, bound);
  if (first >= ts.pageCount) return;
  const page = await ts.page(first);
  if (page.checksum === 'bad') return;
  const h = readIndexHeader(page.bytes);
  if (!isIndexPage(page.bytes) || h.indexId !== root.header.indexId || h.level !== 0) {
    throw new IbdError(ts.source.name, `the first node pointer leads to page ${first}, which is not a leaf page of index ${root.header.indexId} (${pageTypeName(u16(page.bytes, FIL_PAGE_TYPE))}, index ${h.indexId}, level ${h.level}): the node pointers do not read with this key layout (a table definition that does not fit), or the page is damaged`, first);
  }
}

/**
 * The path of a search for the first record not below a key (btr_cur_search_to_nth_level, PAGE_CUR_GE):
 * from the root, at each level the child of the last node pointer that `below` says sorts before the
 * key, else of the first (the leftmost's key stands for minus infinity); one read per level. Returns
 * the pages read, root first, then the leaf to start from (not read).
 */
export function searchPath(ts: Tablespace, root: IndexRoot, childOf: ChildOf, below: (page: Uint8Array, origin: number) => boolean): Promise<number[]> {
  return pathBy(ts, root, childOf, (bytes, origins) => {
    let chosen = origins[0];
    for (let i = 1; i < origins.length && below(bytes, origins[i]); i++) chosen = origins[i];
    return chosen;
  });
}

/** The path through the middle node pointer of each level: a leaf from the middle of the index. */
export function middlePath(ts: Tablespace, root: IndexRoot, childOf: ChildOf): Promise<number[]> {
  return pathBy(ts, root, childOf, (_, origins) => origins[origins.length >> 1]);
}

/** From the root down, following the node pointer `choose` picks on each page; the pages read, then the leaf. */
async function pathBy(ts: Tablespace, root: IndexRoot, childOf: ChildOf, choose: (page: Uint8Array, origins: readonly number[]) => number): Promise<number[]> {
  const origins: number[] = [];
  const path: number[] = [];
  let pageNo = root.page;
  for (let l = root.header.level; l > 0; l--) {
    const bytes = await nodePage(ts, root, pageNo, l, origins);
    path.push(pageNo);
    pageNo = childOf(bytes, choose(bytes, origins));
  }
  path.push(pageNo);
  return path;
}
