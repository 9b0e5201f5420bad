/**
 * Mutations of a real table file for the fuzz campaign, each drawn from a seeded generator: random
 * bursts, bit flips, zeroed ranges, page-header fields (PAGE_N_RECS, PAGE_HEAP_TOP, PAGE_FREE, …),
 * next-record pointers and record info bits, FIL header fields (prev/next, page type, page number,
 * space id), and truncation. Optionally each mutated page's checksum is computed again afterwards
 * (as checksum.ts verifies it), so that only the structure can tell the damage.
 *
 * A mutated file falls in one of two classes:
 *  - `detectable`: every page mutated is left with a wrong checksum, is all zero, or lies past the end
 *    of the file. Here the decoder has what it needs: no unmarked wrong row is acceptable;
 *  - `undetectable`: some mutated page has a valid checksum (recomputed on purpose, or a field the
 *    checksum does not cover): wrong rows are a figure, not a failure.
 */
import { crc32c, verifyPage } from '../../src/core/pages/checksum.ts';
import { FIL_NULL, FIL_PAGE_DATA, FIL_PAGE_END_LSN_OLD_CHKSUM, FIL_PAGE_FILE_FLUSH_LSN, FIL_PAGE_LSN, FIL_PAGE_NEXT, FIL_PAGE_OFFSET, FIL_PAGE_PREV, FIL_PAGE_SPACE_ID, FIL_PAGE_TYPE, isAllZero, PageType, u16, u32 } from '../../src/core/pages/fil-header.ts';
import { readFspHeader } from '../../src/core/pages/fsp-header.ts';
import {
  PAGE_FREE, PAGE_GARBAGE, PAGE_HEADER, PAGE_HEAP_TOP, PAGE_INDEX_ID, PAGE_LEVEL, PAGE_N_DIR_SLOTS, PAGE_N_HEAP, PAGE_N_RECS, PAGE_NEW_INFIMUM,
  PAGE_OLD_INFIMUM, readIndexHeader, recordOrigins,
} from '../../src/core/pages/index-page.ts';

/** What each page of the intact file is, for choosing where to mutate. */
export interface FileLayout {
  pageSize: number;
  fullCrc32: boolean;
  pageCount: number;
  /** INDEX pages at level 0 / above it. */
  leaves: number[];
  nodes: number[];
  /** Every page that is not all zero. */
  used: number[];
}

export function fileLayout(bytes: Uint8Array): FileLayout {
  const { flags } = readFspHeader(bytes);
  if (flags.zipSize !== 0) throw new Error('ROW_FORMAT=COMPRESSED files are not mutated here (their pages have other checksums)');
  const pageSize = flags.pageSize;
  const pageCount = Math.floor(bytes.length / pageSize);
  const layout: FileLayout = { pageSize, fullCrc32: flags.fullCrc32, pageCount, leaves: [], nodes: [], used: [] };
  for (let p = 0; p < pageCount; p++) {
    const page = bytes.subarray(p * pageSize, (p + 1) * pageSize);
    if (isAllZero(page)) continue;
    layout.used.push(p);
    if (u16(page, FIL_PAGE_TYPE) === PageType.INDEX) (readIndexHeader(page).level === 0 ? layout.leaves : layout.nodes).push(p);
  }
  return layout;
}

export const MUTATION_KINDS = ['burst', 'bit flips', 'zeroed range', 'page header field', 'next-record pointer', 'record info bits', 'FIL field', 'truncation'] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface Mutated {
  bytes: Uint8Array;
  /** One line per mutation: kind, page, offset, value. */
  what: string[];
  kinds: MutationKind[];
  /** Pages changed (not counting truncation). */
  pages: number[];
  truncated: boolean;
  recomputed: boolean;
  kind: 'detectable' | 'undetectable';
}

type Rng = () => number;
const int = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

function put16(b: Uint8Array, o: number, v: number): void {
  b[o] = (v >>> 8) & 0xff;
  b[o + 1] = v & 0xff;
}

function put32(b: Uint8Array, o: number, v: number): void {
  put16(b, o, v >>> 16);
  put16(b, o + 2, v & 0xffff);
}

/** A 16-bit value for a page-header field: edges, near the old value, or anything. */
function value16(r: Rng, old: number, pageSize: number): number {
  return pick(r, [0, 1, 0xffff, (old + 1) & 0xffff, (old - 1) & 0xffff, old ^ (1 << int(r, 0, 15)), int(r, 0, pageSize - 1), int(r, 0, 0xffff)]);
}

/**
 * Writes the checksum of one page as the engine would: full_crc32 (CRC-32C of all but the last 4
 * bytes, stored there), else the crc32 algorithm (header and trailer, with the LSN's low half repeated
 * in the trailer). Checked with checksum.ts verifyPage, which throws here if it does not accept it.
 */
export function stampChecksum(page: Uint8Array, fullCrc32: boolean): void {
  const size = page.length;
  if (fullCrc32) put32(page, size - 4, crc32c(page, 0, size - 4));
  else {
    put32(page, size - 4, u32(page, FIL_PAGE_LSN + 4));
    const crc = (crc32c(page, FIL_PAGE_OFFSET, FIL_PAGE_FILE_FLUSH_LSN) ^ crc32c(page, FIL_PAGE_DATA, size - FIL_PAGE_END_LSN_OLD_CHKSUM)) >>> 0;
    put32(page, 0, crc);
    put32(page, size - FIL_PAGE_END_LSN_OLD_CHKSUM, crc);
  }
  if (verifyPage(page, fullCrc32) === 'bad' && !isAllZero(page)) throw new Error('stampChecksum: verifyPage does not accept the stamped page');
}

/** Mutates one page in place; returns what was done. */
function mutatePage(page: Uint8Array, no: number, kind: Exclude<MutationKind, 'truncation'>, r: Rng, pageCount: number): string {
  const size = page.length;
  switch (kind) {
    case 'burst': {
      const length = Math.min(size, Math.round(Math.pow(4096, r())));
      const at = int(r, 0, size - length);
      for (let i = 0; i < length; i++) page[at + i] = int(r, 0, 255);
      return `${length} random bytes at ${at}`;
    }
    case 'bit flips': {
      const flips: number[] = [];
      for (let n = int(r, 1, 8); n > 0; n--) {
        const bit = int(r, 0, size * 8 - 1);
        page[bit >> 3] ^= 1 << (bit & 7);
        flips.push(bit);
      }
      return `bits ${flips.join(', ')}`;
    }
    case 'zeroed range': {
      const whole = r() < 0.3;
      const length = whole ? size : int(r, 1, size);
      const at = whole ? 0 : int(r, 0, size - length);
      page.fill(0, at, at + length);
      return whole ? 'the whole page' : `${length} bytes at ${at}`;
    }
    case 'page header field': {
      const fields: [string, number, number][] = [
        ['PAGE_N_DIR_SLOTS', PAGE_N_DIR_SLOTS, 2], ['PAGE_HEAP_TOP', PAGE_HEAP_TOP, 2], ['PAGE_N_HEAP', PAGE_N_HEAP, 2], ['PAGE_FREE', PAGE_FREE, 2],
        ['PAGE_GARBAGE', PAGE_GARBAGE, 2], ['PAGE_N_RECS', PAGE_N_RECS, 2], ['PAGE_LEVEL', PAGE_LEVEL, 2], ['PAGE_INDEX_ID', PAGE_INDEX_ID + 6, 2],
      ];
      const [name, offset] = pick(r, fields);
      const o = PAGE_HEADER + offset;
      const v = value16(r, u16(page, o), size);
      put16(page, o, v);
      return `${name} = ${v}`;
    }
    case 'next-record pointer': {
      const compact = readIndexHeader(page).compact;
      const origins: number[] = [];
      recordOrigins(page, compact, origins);
      const infimum = compact ? PAGE_NEW_INFIMUM : PAGE_OLD_INFIMUM;
      const from = origins.length > 0 && r() < 0.8 ? pick(r, origins) : infimum;
      const target = pick(r, [from, infimum, ...origins.slice(0, 3), int(r, 0, size - 1), int(r, 0, 0xffff)]);
      // COMPACT: relative to the record, wrapping in the page; REDUNDANT: the absolute offset.
      const v = compact ? (target - from) & 0xffff : target & 0xffff;
      put16(page, from - 2, pick(r, [v, v, 0, int(r, 0, 0xffff)]));
      return `record at ${from}: next = ${u16(page, from - 2)}`;
    }
    case 'record info bits': {
      const compact = readIndexHeader(page).compact;
      const origins: number[] = [];
      recordOrigins(page, compact, origins);
      if (origins.length === 0) return mutatePage(page, no, 'bit flips', r, pageCount);
      const origin = pick(r, origins);
      // Info bits (delete mark 0x20, min-rec 0x10, MySQL's instant 0x80 / version 0x40), or the status /
      // 1-byte-offsets flag in the byte at origin - 3.
      const [o, mask] = r() < 0.8 ? [origin - (compact ? 5 : 6), pick(r, [0x20, 0x20, 0x10, 0x40, 0x80])] : [origin - 3, compact ? int(r, 1, 7) : 1];
      page[o] ^= mask;
      return `record at ${origin}: byte ${o} ^= ${mask}`;
    }
    case 'FIL field': {
      const fields: [string, number, number][] = [['FIL_PAGE_PREV', FIL_PAGE_PREV, 4], ['FIL_PAGE_NEXT', FIL_PAGE_NEXT, 4], ['FIL_PAGE_TYPE', FIL_PAGE_TYPE, 2], ['FIL_PAGE_OFFSET', FIL_PAGE_OFFSET, 4], ['FIL_PAGE_SPACE_ID', FIL_PAGE_SPACE_ID, 4]];
      const [name, o, width] = pick(r, fields);
      if (width === 2) {
        const v = pick(r, [PageType.INDEX, PageType.ALLOCATED, PageType.BLOB, PageType.FSP_HDR, PageType.INODE, int(r, 0, 0xffff)]);
        put16(page, o, v);
        return `${name} = ${v}`;
      }
      const v = pick(r, [FIL_NULL, no, no + 1, Math.max(0, no - 1), int(r, 0, pageCount - 1), pageCount + int(r, 0, 100), int(r, 0, 0xffffffff)]);
      put32(page, o, v);
      return `${name} = ${v}`;
    }
  }
}

/**
 * 1–3 mutations of a copy of `intact`: mostly leaf pages, some node pages, some pages of any kind;
 * truncation now and then (cut anywhere, page 0 rarely). With `recompute`, every page mutated gets a
 * valid checksum afterwards.
 */
export function mutate(intact: Uint8Array, layout: FileLayout, r: Rng, recompute: boolean): Mutated {
  let bytes = intact.slice();
  const { pageSize, pageCount } = layout;
  const what: string[] = [];
  const kinds: MutationKind[] = [];
  const pages = new Set<number>();
  let truncated = false;
  for (let n = int(r, 1, 3); n > 0; n--) {
    const kind = r() < 0.1 ? 'truncation' : pick(r, MUTATION_KINDS.slice(0, -1));
    kinds.push(kind);
    if (kind === 'truncation') {
      const cut = r() < 0.1 ? int(r, 0, pageSize - 1) : r() < 0.5 ? int(r, 1, pageCount - 1) * pageSize : int(r, pageSize, intact.length - 1);
      if (cut < bytes.length) bytes = bytes.slice(0, cut);
      truncated = true;
      what.push(`truncation at byte ${cut} (page ${Math.floor(cut / pageSize)})`);
      continue;
    }
    const x = r();
    const from = x < 0.6 && layout.leaves.length > 0 ? layout.leaves : x < 0.75 && layout.nodes.length > 0 ? layout.nodes : layout.used;
    const no = pick(r, from);
    const page = bytes.subarray(no * pageSize, (no + 1) * pageSize);
    if (page.length < pageSize) continue; // cut off by an earlier truncation
    what.push(`page ${no}: ${kind}: ${mutatePage(page, no, kind, r, pageCount)}`);
    pages.add(no);
  }
  const present = [...pages].filter((no) => (no + 1) * pageSize <= bytes.length);
  if (recompute) for (const no of present) stampChecksum(bytes.subarray(no * pageSize, (no + 1) * pageSize), layout.fullCrc32);
  const unchanged = present.filter((no) => {
    const page = bytes.subarray(no * pageSize, (no + 1) * pageSize);
    return page.every((b, i) => b === intact[no * pageSize + i]);
  });
  const valid = present.filter((no) => {
    const page = bytes.subarray(no * pageSize, (no + 1) * pageSize);
    return !unchanged.includes(no) && !isAllZero(page) && verifyPage(page, layout.fullCrc32) !== 'bad';
  });
  const changed = present.filter((no) => !unchanged.includes(no));
  const recomputed = recompute && changed.length > 0;
  return { bytes, what, kinds, pages: changed, truncated, recomputed, kind: recomputed || valid.length > 0 ? 'undetectable' : 'detectable' };
}
