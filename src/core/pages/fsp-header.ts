/**
 * FSP header (page 0, right after the FIL header) and its space flags. The flags decide the page
 * size and the checksum layout, and come in two incompatible layouts:
 *  - MySQL 5.7/8.0 and MariaDB before full_crc32 (fsp0types.h): POST_ANTELOPE bit 0, ZIP_SSIZE bits 1-4,
 *    ATOMIC_BLOBS bit 5, PAGE_SSIZE bits 6-9, DATA_DIR bit 10, SHARED 11, TEMPORARY 12, ENCRYPTION 13,
 *    SDI 14; MariaDB adds PAGE_COMPRESSION at bit 16.
 *  - MariaDB 10.5+ full_crc32 (its default): PAGE_SSIZE bits 0-3, marker bit 4, compression algorithm
 *    bits 5-7. Bit 4 can never be set in the MySQL layout (it would mean a compressed page larger than
 *    16K), which is how the two are told apart.
 *  - MariaDB 10.1.0 to 10.1.20 wrote PAGE_COMPRESSION at bit 6, its level at bits 7-10, ATOMIC_WRITES
 *    at 11-12 and PAGE_SSIZE at 13-16 (DATA_DIR at 17). Such flags are invalid in the layout above when
 *    page compression or a non-16K page size is used (MariaDB's fsp_flags_convert_from_101 tells them
 *    apart the same way); for plain 16K tables the two layouts coincide.
 */
import { FIL_PAGE_DATA, u32 } from './fil-header.ts';

export const FSP_SPACE_ID = 0;
export const FSP_SIZE = 8;
export const FSP_FREE_LIMIT = 12;
export const FSP_SPACE_FLAGS = 16;
export const FSP_SEG_INODES_FULL = 80;
export const FSP_SEG_INODES_FREE = 96;

const FCRC32_MARKER = 1 << 4;

export interface SpaceFlags {
  raw: number;
  fullCrc32: boolean;
  /** Logical page size (uncompressed), bytes. */
  pageSize: number;
  /** Compressed page size for ROW_FORMAT=COMPRESSED tablespaces, else 0. */
  zipSize: number;
  /** ATOMIC_BLOBS: DYNAMIC or COMPRESSED row format (MySQL layout only). */
  atomicBlobs: boolean;
  postAntelope: boolean;
  /** MySQL 8 SDI flag: the file carries its own data dictionary. */
  sdi: boolean;
  encrypted: boolean;
  /** MariaDB page compression (PAGE_COMPRESSED=1), or the full_crc32 algorithm number. */
  pageCompression: number;
}

/** Page size for a 4-bit "shift size": 0 means the historic 16K default. */
function ssizeToPageSize(ssize: number): number {
  return ssize === 0 ? 16384 : 512 << ssize;
}

/** Whether `raw` makes sense in the MySQL / MariaDB 10.2+ layout (bits 0-16). */
function validMysqlLayout(raw: number): boolean {
  // bit 15 is used by neither MySQL (SDI is its last, bit 14) nor MariaDB (reserved)
  if (raw >>> 15 !== 0 && raw >>> 15 !== 2) return false;
  // ATOMIC_BLOBS (DYNAMIC/COMPRESSED) implies POST_ANTELOPE
  if ((raw & 0x21) === 0x20) return false;
  const ssize = (raw >>> 6) & 15;
  if (ssize !== 0 && (ssize < 3 || ssize > 7)) return false;
  const zipSsize = (raw >>> 1) & 15;
  return zipSsize <= (ssize === 0 ? 5 : ssize);
}

/** MariaDB 10.1.0-10.1.20 flags rewritten in the 10.2+ layout, or null when they are not of that kind. */
function fromMariadb101(raw: number): number | null {
  if (raw >>> 18 !== 0 || (raw & 0x21) === 0x20) return null;
  const compressed = (raw >>> 6) & 1;
  const level = (raw >>> 7) & 15;
  if (compressed !== (level !== 0 ? 1 : 0) || level > 9) return null;
  if (((raw >>> 11) & 3) === 3) return null;
  const ssize = (raw >>> 13) & 15;
  if (ssize === 1 || ssize === 2 || ssize === 5 || ssize & 8) return null;
  const zipSsize = (raw >>> 1) & 15;
  if (zipSsize > (ssize === 0 ? 5 : ssize)) return null;
  if (zipSsize !== 0 && (raw & 0x21) !== 0x21) return null;
  return (raw & 0x3f) | (ssize << 6) | (compressed << 16);
}

export function parseSpaceFlags(stored: number): SpaceFlags {
  const raw = stored & FCRC32_MARKER || validMysqlLayout(stored) ? stored : fromMariadb101(stored) ?? stored;
  if (raw & FCRC32_MARKER) {
    return {
      raw: stored, fullCrc32: true, pageSize: ssizeToPageSize(raw & 15), zipSize: 0,
      atomicBlobs: false, postAntelope: false, sdi: false, encrypted: false,
      pageCompression: (raw >>> 5) & 7,
    };
  }
  const zipSsize = (raw >>> 1) & 15;
  return {
    raw: stored,
    fullCrc32: false,
    pageSize: ssizeToPageSize((raw >>> 6) & 15),
    zipSize: zipSsize === 0 ? 0 : 512 << zipSsize,
    atomicBlobs: (raw & (1 << 5)) !== 0,
    postAntelope: (raw & 1) !== 0,
    sdi: (raw & (1 << 14)) !== 0,
    encrypted: (raw & (1 << 13)) !== 0,
    pageCompression: (raw >>> 16) & 1,
  };
}

export function isValidPageSize(size: number): boolean {
  return size === 4096 || size === 8192 || size === 16384 || size === 32768 || size === 65536;
}

export interface FspHeader {
  spaceId: number;
  /** Tablespace size in pages, as recorded by the engine. */
  size: number;
  freeLimit: number;
  flags: SpaceFlags;
}

export function readFspHeader(page0: Uint8Array): FspHeader {
  const o = FIL_PAGE_DATA;
  return {
    spaceId: u32(page0, o + FSP_SPACE_ID),
    size: u32(page0, o + FSP_SIZE),
    freeLimit: u32(page0, o + FSP_FREE_LIMIT),
    flags: parseSpaceFlags(u32(page0, o + FSP_SPACE_FLAGS)),
  };
}
