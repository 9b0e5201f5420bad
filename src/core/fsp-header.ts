/**
 * FSP header (page 0, right after the FIL header) and its space flags. The flags decide the page
 * size and the checksum layout, and come in two incompatible layouts:
 *  - MySQL 5.7/8.0 and MariaDB before full_crc32 (fsp0types.h): POST_ANTELOPE bit 0, ZIP_SSIZE bits 1-4,
 *    ATOMIC_BLOBS bit 5, PAGE_SSIZE bits 6-9, DATA_DIR bit 10, SHARED 11, TEMPORARY 12, ENCRYPTION 13,
 *    SDI 14; MariaDB adds PAGE_COMPRESSION at bit 16.
 *  - MariaDB 10.5+ full_crc32 (its default): PAGE_SSIZE bits 0-3, marker bit 4, compression algorithm
 *    bits 5-7. Bit 4 can never be set in the MySQL layout (it would mean a compressed page larger than
 *    16K), which is how the two are told apart.
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

export function parseSpaceFlags(raw: number): SpaceFlags {
  if (raw & FCRC32_MARKER) {
    return {
      raw, fullCrc32: true, pageSize: ssizeToPageSize(raw & 15), zipSize: 0,
      atomicBlobs: false, postAntelope: false, sdi: false, encrypted: false,
      pageCompression: (raw >>> 5) & 7,
    };
  }
  const zipSsize = (raw >>> 1) & 15;
  return {
    raw,
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
