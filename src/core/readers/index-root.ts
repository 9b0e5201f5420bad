/**
 * Where a read's B-tree starts: the root page of the index asked for, else the clustered index's
 * (found through page 0); when no root can be found, the index is still read, its leaves by a scan.
 */
import { findClusteredRoot, findIndexRoots, type IndexRoot } from '../btree/btree.ts';
import { scanIndexes } from '../btree/page-scan.ts';
import { IbdError } from '../errors.ts';
import { FIL_NULL, FIL_PAGE_NEXT, FIL_PAGE_PREV, FIL_PAGE_TYPE, isIndexPageType, u16, u32 } from '../pages/fil-header.ts';
import { readIndexHeader } from '../pages/index-page.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';

/** The root of the index asked for (`wanted`: OpenOptions.index; `raw`: a raw image's), else of the clustered index found through page 0. */
export async function chooseRoot(ts: Tablespace, wanted: { indexId: bigint; rootPage?: number | null } | undefined, raw: boolean): Promise<IndexRoot> {
  if (!wanted) {
    return findClusteredRoot(ts).catch(async (e: unknown) => {
      if (!(e instanceof IbdError)) throw e;
      return rootlessIndex(ts, e);
    });
  }
  if (wanted.rootPage !== undefined && wanted.rootPage !== null) {
    const root = await rootAt(ts, wanted.rootPage, wanted.indexId);
    if (root) return root;
  }
  // A raw image's page 0 is not trusted (it may be missing or another file's): no INODE lookup there.
  const roots = raw ? [] : await findIndexRoots(ts).catch(() => []);
  return roots.find((r) => r.header.indexId === wanted.indexId)
    ?? rootlessIndex(ts, new IbdError(ts.source.name, `no root page of index ${wanted.indexId} was found`, wanted.rootPage ?? null), wanted.indexId);
}

/** Page `no` if it is an intact root of index `indexId` (an INDEX page of it with no neighbours). */
async function rootAt(ts: Tablespace, no: number, indexId: bigint): Promise<IndexRoot | null> {
  const page = await ts.page(no).catch(() => null);
  if (page === null || page.checksum === 'bad' || !isIndexPageType(u16(page.bytes, FIL_PAGE_TYPE))) return null;
  const header = readIndexHeader(page.bytes);
  const alone = u32(page.bytes, FIL_PAGE_PREV) === FIL_NULL && u32(page.bytes, FIL_PAGE_NEXT) === FIL_NULL;
  return header.indexId === indexId && alone ? { page: no, header } : null;
}

/**
 * No root could be found (page 2 or the root itself is damaged): take the index asked for, else the
 * one with the lowest id that has leaf pages, as the clustered index is created first. Its root is
 * unknown (page -1), so its leaves will be found by scanning.
 */
async function rootlessIndex(ts: Tablespace, why: IbdError, indexId?: bigint): Promise<IndexRoot> {
  const indexes = (await scanIndexes(ts)).filter((i) => indexId === undefined || i.indexId === indexId);
  if (indexes.length === 0) throw new IbdError(ts.source.name, `${why.detail}; no leaf page of ${indexId === undefined ? 'any index' : `index ${indexId}`} was found in the file either`, why.page);
  const first = indexes[0];
  return { page: -1, header: { nDirSlots: 0, heapTop: 0, nHeap: 0, compact: first.compact, free: 0, garbage: 0, nRecs: 0, level: 0, indexId: first.indexId } };
}
