/**
 * Page checksums, as buf_page_is_corrupted() accepts them (buf0checksum.cc, MariaDB buf0buf.cc):
 *  - crc32: CRC-32C of bytes 4..26 xor CRC-32C of the body, in the header and again in the trailer;
 *  - innodb: the pre-5.6 "fold" checksums (new one in the header, old one in the trailer);
 *  - none: the magic 0xDEADBEEF;
 *  - full_crc32 (MariaDB 10.5+): CRC-32C of everything but the last 4 bytes, stored in those 4 bytes.
 * A never-written page (all zero) is valid in every scheme.
 */
import { crc32c } from '../codecs/crc32c.ts';
import { FIL_PAGE_DATA, FIL_PAGE_END_LSN_OLD_CHKSUM, FIL_PAGE_FILE_FLUSH_LSN, FIL_PAGE_LSN, FIL_PAGE_OFFSET, FIL_PAGE_SPACE_OR_CHKSUM, isAllZero, u32 } from './fil-header.ts';

export { crc32c };

export const MAGIC_NONE = 0xdeadbeef;
const FOLD_MASK = 1463735687;
const FOLD_MASK2 = 1653893711;

/**
 * ut_fold_binary(). The engine computes it in 64-bit words, but shifts, xors and additions only carry
 * upwards, so the low 32 bits (all that is kept) are exact in 32-bit arithmetic.
 */
export function fold(b: Uint8Array, start: number, end: number): number {
  let f = 0;
  for (let i = start; i < end; i++) {
    const x = b[i];
    f = ((((((f ^ x ^ FOLD_MASK2) << 8) + f) | 0) ^ FOLD_MASK) + x) | 0;
  }
  return f >>> 0;
}

export type ChecksumResult = 'empty' | 'crc32' | 'innodb' | 'none' | 'full_crc32' | 'bad';

function crc32Page(page: Uint8Array): number {
  const size = page.length;
  return (crc32c(page, FIL_PAGE_OFFSET, FIL_PAGE_FILE_FLUSH_LSN) ^ crc32c(page, FIL_PAGE_DATA, size - FIL_PAGE_END_LSN_OLD_CHKSUM)) >>> 0;
}

/** buf_calc_page_new_checksum(): the "innodb" checksum kept in the FIL header. */
function innodbHeaderChecksum(page: Uint8Array): number {
  return (fold(page, FIL_PAGE_OFFSET, FIL_PAGE_FILE_FLUSH_LSN) + fold(page, FIL_PAGE_DATA, page.length - FIL_PAGE_END_LSN_OLD_CHKSUM)) >>> 0;
}

/** buf_calc_page_old_checksum(): the "innodb" checksum kept in the FIL trailer. */
function innodbTrailerChecksum(page: Uint8Array): number {
  return fold(page, 0, FIL_PAGE_FILE_FLUSH_LSN);
}

function legacyValid(page: Uint8Array, stored: number, trailer: number): boolean {
  const lsnLow = u32(page, FIL_PAGE_LSN + 4);
  const oldOk = trailer === MAGIC_NONE || trailer === lsnLow || trailer === innodbTrailerChecksum(page);
  if (!oldOk) return false;
  return stored === innodbHeaderChecksum(page) || stored === MAGIC_NONE;
}

/** Which checksum a page carries (or 'bad'): accepts every algorithm the servers accept on read. */
export function verifyPage(page: Uint8Array, fullCrc32: boolean): ChecksumResult {
  const size = page.length;
  if (fullCrc32) {
    if (u32(page, size - 4) === crc32c(page, 0, size - 4)) return 'full_crc32';
    return isAllZero(page) ? 'empty' : 'bad';
  }
  const stored = u32(page, FIL_PAGE_SPACE_OR_CHKSUM);
  const trailer = u32(page, size - FIL_PAGE_END_LSN_OLD_CHKSUM);
  // The low 32 bits of the LSN are written twice; a mismatch means a torn (half-written) page.
  if (u32(page, FIL_PAGE_LSN + 4) !== u32(page, size - 4)) return isAllZero(page) ? 'empty' : 'bad';
  if (stored === MAGIC_NONE && trailer === MAGIC_NONE) return 'none';
  const crc = crc32Page(page);
  if (stored === crc && trailer === crc) return 'crc32';
  if (legacyValid(page, stored, trailer)) return 'innodb';
  return isAllZero(page) ? 'empty' : 'bad';
}

/** What each algorithm computes for a page (what the page inspector sets beside the stored values). */
export interface PageChecksums {
  /** crc32: stored in the FIL header and again in the trailer. */
  crc32: number;
  /** innodb: the header's and the trailer's, each over its own bytes. */
  innodbHeader: number;
  innodbTrailer: number;
  /** full_crc32 over the first `storedSize` - 4 bytes, stored in the 4 after them. */
  fullCrc32: number;
  /** none: the magic value stored in place of a checksum. */
  none: number;
}

/** Every algorithm's checksum of `page`; `storedSize`: the bytes full_crc32 covers (a page-compressed page's stored size). */
export function pageChecksums(page: Uint8Array, storedSize = page.length): PageChecksums {
  return {
    crc32: crc32Page(page),
    innodbHeader: innodbHeaderChecksum(page),
    innodbTrailer: innodbTrailerChecksum(page),
    fullCrc32: crc32c(page, 0, storedSize - 4),
    none: MAGIC_NONE,
  };
}
