/**
 * Damaged copies of an intact table file, each made from a fixed seed (the same copy on every run):
 * random bursts in leaf pages, one bit flipped in a record, page 0 / the root / a level-1 page
 * zeroed, and the file cut in the middle of its leaf level. Which records survive is not assumed
 * here: intact.ts computes it from the bytes that changed.
 */
import { rng } from '../differential/random-data.ts';
import { FIL_PAGE_DATA, FIL_PAGE_END_LSN_OLD_CHKSUM } from '../../src/core/pages/fil-header.ts';
import type { LeafMap } from './intact.ts';

export type DamageKind = 'burst' | 'bit flip' | 'page 0 zeroed' | 'root zeroed' | 'level-1 page zeroed' | 'truncated';

export interface DamagedCopy {
  kind: DamageKind;
  /** What was done, for messages: pages and offsets. */
  what: string;
  bytes: Uint8Array;
  /** The pages written to (none for a truncation). */
  pages: number[];
}

const int = (r: () => number, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/**
 * 1–3 bursts of random bytes, each 16 bytes to 4 KiB long (log-uniform, so short ones are as common
 * as long ones), at a random offset of the body of a random leaf page (after the FIL header, before
 * the trailer: the page's own header and records are fair game).
 */
export function burst(intact: Uint8Array, map: LeafMap, seed: number): DamagedCopy {
  const r = rng(seed);
  const bytes = intact.slice();
  const done: string[] = [];
  const pages: number[] = [];
  for (let n = int(r, 1, 3); n > 0; n--) {
    const page = map.leaves[int(r, 0, map.leaves.length - 1)];
    const length = Math.round(16 * Math.pow(256, r()));
    const bodyEnd = map.pageSize - FIL_PAGE_END_LSN_OLD_CHKSUM;
    const offset = int(r, FIL_PAGE_DATA, bodyEnd - length);
    const at = page * map.pageSize + offset;
    for (let i = 0; i < length; i++) bytes[at + i] = int(r, 0, 255);
    done.push(`page ${page}: ${length} random bytes at ${offset}`);
    pages.push(page);
  }
  return { kind: 'burst', what: done.join('; '), bytes, pages };
}

/**
 * One bit flipped in a record of a leaf page: in its header (the bytes just before the origin) or in
 * the first 100 bytes of its data (every record's key is longer than that, see tables.ts).
 */
export function bitFlip(intact: Uint8Array, map: LeafMap, seed: number): DamagedCopy {
  const r = rng(seed);
  const bytes = intact.slice();
  const record = map.records[int(r, 0, map.records.length - 1)];
  const offset = record.origin + int(r, -5, 99);
  const bit = int(r, 0, 7);
  bytes[record.page * map.pageSize + offset] ^= 1 << bit;
  return { kind: 'bit flip', what: `page ${record.page}, record at ${record.origin}: bit ${bit} of byte ${offset}`, bytes, pages: [record.page] };
}

export function zeroPage(intact: Uint8Array, map: LeafMap, page: number, kind: DamageKind): DamagedCopy {
  const bytes = intact.slice();
  bytes.fill(0, page * map.pageSize, (page + 1) * map.pageSize);
  return { kind, what: `page ${page} zeroed`, bytes, pages: [page] };
}

/** The file cut at the start of the leaf page in the middle of the leaf level (by page number). */
export function truncate(intact: Uint8Array, map: LeafMap): DamagedCopy {
  const sorted = [...map.leaves].sort((a, b) => a - b);
  const cut = sorted[sorted.length >> 1];
  return { kind: 'truncated', what: `cut at page ${cut} of ${map.pageCount}`, bytes: intact.slice(0, cut * map.pageSize), pages: [] };
}
