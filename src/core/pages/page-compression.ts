/**
 * Whole-page compression, undone before anything reads the page:
 *
 *  - MariaDB PAGE_COMPRESSED=1 (fil0pagecompress.cc). In the original tablespace format the page type
 *    is 34354 (37401 when also encrypted), the algorithm number sits in the 8 bytes at
 *    FIL_PAGE_FILE_FLUSH_LSN (in the 2 bytes after the size when encrypted), the compressed length in
 *    2 bytes at FIL_PAGE_DATA, and the compressed stream follows. In the full_crc32 format (MariaDB
 *    10.5+ default) the algorithm is in the space flags, bit 15 of FIL_PAGE_TYPE marks a compressed
 *    page, its low byte × 256 is the stored size (checksum included), and the stream starts at byte 26.
 *    LZ4, LZO and Snappy streams carry one more byte before the checksum giving the exact stream length.
 *  - MySQL 5.7+ transparent page compression, COMPRESSION='zlib'|'lz4' (os0file.cc): page type 14
 *    (16 when also encrypted); the 8 bytes at FIL_PAGE_FILE_FLUSH_LSN hold version, algorithm,
 *    original page type, original data size and compressed size; the stream starts at FIL_PAGE_DATA
 *    and decompresses to everything after the FIL header.
 *
 * Every algorithm MariaDB offers is decoded (each decoder bounded by the page buffer, throwing on
 * damaged data): zlib (inflate.ts), LZ4 (lz4.ts), LZO1X (lzo.ts), LZMA as an .xz stream with one
 * LZMA2 block (xz.ts), bzip2 (bzip2.ts) and Snappy (snappy.ts). The stored streams (fil0pagecompress.cc):
 * zlib compress2, LZ4_compress_default, lzo1x_1_15_compress, lzma_easy_buffer_encode(level,
 * LZMA_CHECK_NONE), BZ2_bzBuffToBuffCompress(blockSize100k 1) and snappy_compress, each of the whole
 * page. The original format records the exact stream length; full_crc32 pads zlib, LZMA and bzip2
 * streams with zeros up to the checksum (their decoders stop at the stream's own end), and LZ4, LZO
 * and Snappy, which need the exact length, get the extra length byte.
 */
import { FIL_PAGE_DATA, FIL_PAGE_FILE_FLUSH_LSN, FIL_PAGE_TYPE, PageType, u16, u32 } from './fil-header.ts';
import { inflateZlib } from '../codecs/inflate.ts';
import { lz4DecodeBlock } from '../codecs/lz4.ts';
import { lzo1xDecode } from '../codecs/lzo.ts';
import { xzDecode } from '../codecs/xz.ts';
import { bzip2Decode } from '../codecs/bzip2.ts';
import { snappyDecode } from '../codecs/snappy.ts';

/** MariaDB's innodb_compression_algorithm numbers (PAGE_*_ALGORITHM). */
export const MARIADB_ALGORITHMS: Record<number, string> = { 0: 'none', 1: 'zlib', 2: 'lz4', 3: 'lzo', 4: 'lzma', 5: 'bzip2', 6: 'snappy' };
/** MySQL's Compression::Type numbers. */
export const MYSQL_ALGORITHMS: Record<number, string> = { 0: 'none', 1: 'zlib', 2: 'lz4' };

/** Thrown for a page that is compressed but cannot be decompressed (unsupported algorithm, damage). */
export class PageCompressionError extends Error {}

const FCRC32_COMPRESSED = 0x8000;
/** MariaDB full_crc32: the page payload starts here (after FIL_PAGE_LSN, the type and 26 bytes of header). */
const FCRC32_HEADER = FIL_PAGE_FILE_FLUSH_LSN;
/** MySQL's meta data in the FIL header of a type 14 page. */
const MYSQL_VERSION = FIL_PAGE_FILE_FLUSH_LSN;
const MYSQL_ALGORITHM = MYSQL_VERSION + 1;
const MYSQL_ORIGINAL_TYPE = MYSQL_ALGORITHM + 1;
const MYSQL_ORIGINAL_SIZE = MYSQL_ORIGINAL_TYPE + 2;
const MYSQL_COMPRESSED_SIZE = MYSQL_ORIGINAL_SIZE + 2;

function algorithmName(names: Record<number, string>, algo: number): string {
  return names[algo] ?? `unknown algorithm ${algo}`;
}

/** Decompresses src[start, end) with `algo` (MariaDB numbering) into out; throws naming the algorithm. */
function decompress(algo: number, src: Uint8Array, start: number, end: number, out: Uint8Array, names: Record<number, string>): void {
  let produced: number;
  try {
    if (algo === 1) produced = inflateZlib(src, start, end, out).outLength;
    else if (algo === 2) produced = lz4DecodeBlock(src, start, end, out);
    else if (names === MARIADB_ALGORITHMS && algo === 3) produced = lzo1xDecode(src, start, end, out);
    else if (names === MARIADB_ALGORITHMS && algo === 4) produced = xzDecode(src, start, end, out);
    else if (names === MARIADB_ALGORITHMS && algo === 5) produced = bzip2Decode(src, start, end, out);
    else if (names === MARIADB_ALGORITHMS && algo === 6) produced = snappyDecode(src, start, end, out);
    else {
      throw new PageCompressionError(`the page is compressed with ${algorithmName(names, algo).toUpperCase()}, which ibd-reader cannot decompress`);
    }
  } catch (e) {
    if (e instanceof PageCompressionError) throw e;
    throw new PageCompressionError(`the ${algorithmName(names, algo)}-compressed page does not decompress: ${(e as Error).message}`);
  }
  if (produced !== out.length) {
    throw new PageCompressionError(`the ${algorithmName(names, algo)}-compressed page decompresses to ${produced} bytes, expected ${out.length}`);
  }
}

/** True for a MariaDB full_crc32 page that is stored page-compressed. */
export function isFullCrc32Compressed(page: Uint8Array): boolean {
  return (u16(page, FIL_PAGE_TYPE) & FCRC32_COMPRESSED) !== 0;
}

/**
 * Stored length of a full_crc32 page (its checksum is in the last 4 of these bytes): the whole page,
 * or for a page-compressed one the size recorded in FIL_PAGE_TYPE; null when that size is impossible.
 */
export function fullCrc32StoredSize(page: Uint8Array): number | null {
  const t = u16(page, FIL_PAGE_TYPE);
  if (!(t & FCRC32_COMPRESSED)) return page.length;
  const size = (t & 0xff) << 8;
  return size > FCRC32_HEADER + 4 && size < page.length ? size : null;
}

/** MariaDB full_crc32 algorithms that store the exact stream length in an extra byte. */
function hasLengthByte(algo: number): boolean {
  return algo === 2 || algo === 3 || algo === 6;
}

/**
 * A MariaDB full_crc32 page-compressed page → the page image. `algo` is the tablespace's algorithm
 * (space flags bits 5-7).
 */
export function decompressFullCrc32(page: Uint8Array, algo: number): Uint8Array {
  let size = fullCrc32StoredSize(page);
  if (size === null || size === page.length) throw new PageCompressionError(`the page-compressed page records an impossible size (${(u16(page, FIL_PAGE_TYPE) & 0xff) << 8} bytes)`);
  if (hasLengthByte(algo)) {
    // The byte before the checksum is the low byte of the exact length (+5); 0 means a multiple of 256.
    const lsb = page[size - 5];
    if (lsb) size += lsb - 0x100;
    size -= 5;
  } else {
    size -= 4;
  }
  const out = new Uint8Array(page.length);
  decompress(algo, page, FCRC32_HEADER, size, out, MARIADB_ALGORITHMS);
  return out;
}

/** True for a MariaDB page_compressed page in the original (non full_crc32) format. */
export function isMariadbCompressed(page: Uint8Array): boolean {
  const t = u16(page, FIL_PAGE_TYPE);
  return t === PageType.PAGE_COMPRESSED || t === PageType.PAGE_COMPRESSED_ENCRYPTED;
}

/**
 * A MariaDB PAGE_COMPRESSED page (type 34354, or 37401 after decryption left it compressed) → the page
 * image, which carries its own FIL header and type.
 */
export function decompressMariadb(page: Uint8Array): Uint8Array {
  const encrypted = u16(page, FIL_PAGE_TYPE) === PageType.PAGE_COMPRESSED_ENCRYPTED;
  let algo: number;
  if (encrypted) {
    algo = u16(page, FIL_PAGE_DATA + 2);
  } else {
    if (u32(page, FIL_PAGE_FILE_FLUSH_LSN) !== 0 || u16(page, FIL_PAGE_FILE_FLUSH_LSN + 4) !== 0) {
      throw new PageCompressionError('the page-compressed page has an impossible algorithm number');
    }
    algo = u16(page, FIL_PAGE_FILE_FLUSH_LSN + 6);
  }
  const header = FIL_PAGE_DATA + (encrypted ? 4 : 2);
  const size = u16(page, FIL_PAGE_DATA);
  if (size === 0 || header + size > page.length) throw new PageCompressionError(`the page-compressed page records an impossible payload size (${size} bytes)`);
  const out = new Uint8Array(page.length);
  decompress(algo, page, header, header + size, out, MARIADB_ALGORITHMS);
  return out;
}

/** True for a MySQL transparent-compression page (type 14). */
export function isMysqlCompressed(page: Uint8Array): boolean {
  return u16(page, FIL_PAGE_TYPE) === PageType.COMPRESSED;
}

/** A MySQL COMPRESSION='zlib'|'lz4' page (type 14) → the page image with its original type. */
export function decompressMysql(page: Uint8Array): Uint8Array {
  const version = page[MYSQL_VERSION];
  const algo = page[MYSQL_ALGORITHM];
  const originalSize = u16(page, MYSQL_ORIGINAL_SIZE);
  const compressedSize = u16(page, MYSQL_COMPRESSED_SIZE);
  if (version !== 1 && version !== 2) throw new PageCompressionError(`the compressed page has an unknown format version ${version}`);
  if (originalSize !== page.length - FIL_PAGE_DATA) {
    throw new PageCompressionError(`the compressed page expands to ${originalSize} bytes, but pages of this file hold ${page.length - FIL_PAGE_DATA} after the header`);
  }
  if (FIL_PAGE_DATA + compressedSize > page.length) throw new PageCompressionError(`the compressed page records an impossible size (${compressedSize} bytes)`);
  const out = new Uint8Array(page.length);
  out.set(page.subarray(0, FIL_PAGE_DATA));
  decompress(algo, page, FIL_PAGE_DATA, FIL_PAGE_DATA + compressedSize, out.subarray(FIL_PAGE_DATA), MYSQL_ALGORITHMS);
  out[FIL_PAGE_TYPE] = page[MYSQL_ORIGINAL_TYPE];
  out[FIL_PAGE_TYPE + 1] = page[MYSQL_ORIGINAL_TYPE + 1];
  return out;
}
