/**
 * The records the guess works from: leaf pages of the clustered index (or of an index the user chose),
 * read in file order since no key layout is known yet, each with its user records in heap order and
 * whether they tile the heap (what the COMPACT structure search relies on).
 */
import { findClusteredRoot } from '../../btree/btree.ts';
import { scanIndexes } from '../../btree/page-scan.ts';
import { IbdError } from '../../errors.ts';
import { FIL_PAGE_TYPE, PageType, u16 } from '../../pages/fil-header.ts';
import {
  compactInfoBits, compactStatus, freeListOrigins, readIndexHeader, recordOrigins, redundantInfoBits, REC_INFO_MIN_REC,
} from '../../pages/index-page.ts';
import type { Tablespace } from '../../tablespace/tablespace.ts';

/** Leaf pages read for the guess: enough records for statistics, bounded time on huge files. */
const MAX_PAGES = 24;
const MAX_RECORDS = 3000;

export interface SamplePage {
  no: number;
  bytes: Uint8Array;
  /** User records, in heap order (ascending origin). */
  origins: number[];
  heapTop: number;
  /** No garbage, no damage, nothing skipped: the records tile the heap exactly. */
  tiled: boolean;
  /**
   * Undamaged, every record an ordinary row, but with garbage (freed records, leftovers of reused
   * ones) somewhere in the heap: adjacent records mostly still tile, and a gap only adds bytes.
   */
  loose: boolean;
  /** The lowest record origin in the free list (Infinity when it is empty). */
  firstFree: number;
}

export interface Sample {
  compact: boolean;
  pageSize: number;
  pages: SamplePage[];
}

/** What a caller knows of the index already (a scan's group): its format, and its one page when the tree is that leaf alone. */
export interface KnownIndex {
  compact: boolean;
  /** Its root when that is its only leaf; -1 when not known to be. */
  rootLeaf: number;
}

/** The clustered index's id and format: its root if it can be found, else the lowest index id with leaves. */
async function clusteredIndex(ts: Tablespace, wanted?: bigint, known?: KnownIndex): Promise<{ indexId: bigint; compact: boolean; rootLeaf: number }> {
  if (wanted !== undefined && known !== undefined) return { indexId: wanted, ...known };
  if (wanted !== undefined) {
    // an index the user chose (from a scan of a raw image): its leaves are found by reading the pages
    const chosen = (await scanIndexes(ts)).find((i) => i.indexId === wanted);
    if (!chosen) throw new IbdError(ts.source.name, `no leaf page of index ${wanted} was found`, null);
    return { indexId: chosen.indexId, compact: chosen.compact, rootLeaf: -1 };
  }
  try {
    const root = await findClusteredRoot(ts);
    return { indexId: root.header.indexId, compact: root.header.compact, rootLeaf: root.header.level === 0 ? root.page : -1 };
  } catch (e) {
    if (!(e instanceof IbdError)) throw e;
    const found = await scanIndexes(ts);
    if (found.length === 0) throw e;
    return { indexId: found[0].indexId, compact: found[0].compact, rootLeaf: -1 };
  }
}

/** Leaf pages of the clustered index, found by reading pages in file order (no key layout is known yet). */
export async function samplePages(ts: Tablespace, indexId?: bigint, known?: KnownIndex): Promise<Sample> {
  const index = await clusteredIndex(ts, indexId, known);
  const pages: SamplePage[] = [];
  let records = 0;
  const first = index.rootLeaf >= 0 ? index.rootLeaf : 0;
  const last = index.rootLeaf >= 0 ? index.rootLeaf : ts.pageCount - 1;
  for (let n = first; n <= last; n++) {
    if (pages.length >= MAX_PAGES || records >= MAX_RECORDS) break;
    const page = await ts.page(n).catch(() => null);
    if (page === null || u16(page.bytes, FIL_PAGE_TYPE) !== PageType.INDEX) continue;
    const h = readIndexHeader(page.bytes);
    if (h.indexId !== index.indexId || h.level !== 0 || h.compact !== index.compact) continue;
    const sample = pageRecords(page.no, page.bytes, index.compact);
    if (sample.origins.length === 0) continue;
    pages.push(sample);
    records += sample.origins.length;
  }
  return { compact: index.compact, pageSize: ts.pageSize, pages };
}

function pageRecords(no: number, bytes: Uint8Array, compact: boolean): SamplePage {
  const h = readIndexHeader(bytes);
  const listed: number[] = [];
  const damage = recordOrigins(bytes, compact, listed);
  // Records that are not ordinary rows (MariaDB's instant-ALTER metadata record, node pointers) are left out.
  const origins = listed.filter((o) => compact
    ? compactStatus(bytes, o) === 0 && (compactInfoBits(bytes, o) & REC_INFO_MIN_REC) === 0
    : (redundantInfoBits(bytes, o) & REC_INFO_MIN_REC) === 0);
  origins.sort((a, b) => a - b);
  const intact = damage === null && origins.length === listed.length;
  const free: number[] = [];
  if (compact) freeListOrigins(bytes, compact, free);
  return { no, bytes, origins, heapTop: h.heapTop, tiled: intact && h.garbage === 0, loose: intact && h.garbage > 0, firstFree: Math.min(Infinity, ...free) };
}
