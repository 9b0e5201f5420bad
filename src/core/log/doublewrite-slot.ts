/**
 * One slot of a doublewrite buffer (buf0dblwr): a page image as the server was about to write it to
 * its data file. A slot is always the server's page size (innodb_page_size); a smaller physical page
 * (ROW_FORMAT=COMPRESSED, a page-compressed page) fills its start and zeros the rest
 * (buf_dblwr_t::add_to_batch). The buffer does not say which tablespace format a copy is in, so the
 * copy is checked against every checksum a server accepts, and only one that passes is a copy.
 */
import { crc32c, verifyPage } from '../pages/checksum.ts';
import { FIL_PAGE_DATA, FIL_PAGE_FILE_FLUSH_LSN, FIL_PAGE_LSN, FIL_PAGE_OFFSET, FIL_PAGE_SPACE_ID, FIL_PAGE_TYPE, isAllZero, PageType, u16, u32 } from '../pages/fil-header.ts';
import { decompressFullCrc32, decompressMariadb, fullCrc32StoredSize, isFullCrc32Compressed, MARIADB_ALGORITHMS, PageCompressionError } from '../pages/page-compression.ts';
import { verifyZipPage, zipPageCrc32 } from '../pages/zip-page.ts';

/** A page copy that passes its checksum: which page it is, its LSN, and its bytes as stored. */
export interface SlotCopy {
  spaceId: number;
  pageNo: number;
  /** FIL_PAGE_LSN: the newest copy of a page wins. */
  lsn: number;
  /** The physical page: the slot, or its first zip-size bytes for a ROW_FORMAT=COMPRESSED page. */
  bytes: Uint8Array;
  /** The checksum it passed, in words ('full_crc32', 'crc32', 'innodb', 'none', 'zip crc32' …). */
  checksum: string;
}

/** Why a slot holds no usable copy. */
export type SlotRejection =
  /** Never written (all zero). */
  | 'empty'
  /** No checksum of any format matches: a torn or overwritten copy. */
  | 'bad checksum'
  /** Its checksum can only be checked after decryption (MySQL keyring; MariaDB page_compressed and encrypted outside full_crc32). */
  | 'unverifiable'
  /** A full_crc32 copy whose space id is encrypted (or compressed by no known algorithm): whose page it is, is unknown. */
  | 'space unknown';

const ZIP_SIZES = [1024, 2048, 4096, 8192, 16384];
/** MySQL's encrypted page types: their checksum is over the decrypted page. */
const MYSQL_ENCRYPTED = new Set<number>([PageType.ENCRYPTED, PageType.COMPRESSED_AND_ENCRYPTED, PageType.ENCRYPTED_RTREE]);
const MARIADB_COMPRESSED = new Set<number>([PageType.PAGE_COMPRESSED, PageType.PAGE_COMPRESSED_ENCRYPTED]);

/** The 64-bit LSN as a number (exact below 2^53, which no server reaches). */
export function lsnAt(b: Uint8Array, at: number): number {
  return u32(b, at) * 0x1_0000_0000 + u32(b, at + 4);
}

/** The classic crc32 of a page (buf_calc_page_crc32), which MariaDB keeps after the key version of an encrypted page. */
function crc32Of(page: Uint8Array): number {
  return (crc32c(page, FIL_PAGE_OFFSET, FIL_PAGE_FILE_FLUSH_LSN) ^ crc32c(page, FIL_PAGE_DATA, page.length - 8)) >>> 0;
}

/** MariaDB's encrypted page outside full_crc32: a key version, then the checksum of the encrypted bytes. */
function mariadbEncryptedValid(page: Uint8Array, zip: boolean): boolean {
  if (u32(page, FIL_PAGE_FILE_FLUSH_LSN) === 0) return false;
  return u32(page, FIL_PAGE_FILE_FLUSH_LSN + 4) === (zip ? zipPageCrc32(page) : crc32Of(page));
}

/** The checksum a page of the whole slot passes, or null. */
function wholePageChecksum(slot: Uint8Array): string | null {
  // full_crc32 (MariaDB 10.5+): over the stored bytes, which a page-compressed page records in its type.
  const stored = fullCrc32StoredSize(slot);
  if (stored !== null && u32(slot, stored - 4) === crc32c(slot, 0, stored - 4) && isAllZero(slot.subarray(stored))) return 'full_crc32';
  const classic = verifyPage(slot, false);
  if (classic === 'crc32' || classic === 'innodb' || classic === 'none') return classic;
  return mariadbEncryptedValid(slot, false) ? 'crc32 (encrypted)' : null;
}

/**
 * A ROW_FORMAT=COMPRESSED page at the start of the slot: the smallest zip size whose checksum passes
 * with only zeros after it. A page with the 'none' magic is not taken: nothing then says its size.
 */
function zipCopy(slot: Uint8Array): { size: number; checksum: string } | null {
  for (const size of ZIP_SIZES) {
    if (size >= slot.length) break;
    if (!isAllZero(slot.subarray(size))) continue;
    const zip = slot.subarray(0, size);
    const result = verifyZipPage(zip);
    if (result === 'crc32' || result === 'innodb') return { size, checksum: `zip ${result}` };
    if (mariadbEncryptedValid(zip, true)) return { size, checksum: 'zip crc32 (encrypted)' };
  }
  return null;
}

/**
 * MariaDB's page-compressed page in the original format has no checksum of its own: the page it
 * decompresses to keeps the one written before compression (buf_flush_init_for_writing, then
 * fil_page_compress), and that is what recovery checks of a doublewrite copy (recv_dblwr_t::
 * validate_page). Encrypted too (type 37401), it is checked after decryption only: not here.
 */
function originalCompressedChecksum(slot: Uint8Array): string | null {
  if (u16(slot, FIL_PAGE_TYPE) !== PageType.PAGE_COMPRESSED) return null;
  let page: Uint8Array;
  try {
    page = decompressMariadb(slot);
  } catch (e) {
    if (e instanceof PageCompressionError) return null;
    throw e;
  }
  const result = verifyPage(page, false);
  return result === 'crc32' || result === 'innodb' || result === 'none' ? `${result} (page-compressed)` : null;
}

/**
 * The space id of a full_crc32 page, which only the plain page keeps in its header: an encrypted one
 * has its key version in bytes 0-3 and the rest encrypted; a page-compressed one is compressed from
 * byte 26 on, so its id is read from the page it decompresses to (by whichever of MariaDB's
 * algorithms gives back the same page number and LSN). Null when it cannot be known.
 */
function fullCrc32SpaceId(slot: Uint8Array): number | null {
  if (u32(slot, 0) !== 0) return null;
  if (!isFullCrc32Compressed(slot)) return u32(slot, FIL_PAGE_SPACE_ID);
  for (const algo of Object.keys(MARIADB_ALGORITHMS).map(Number).filter((a) => a > 0)) {
    let page: Uint8Array;
    try {
      page = decompressFullCrc32(slot, algo);
    } catch {
      continue;
    }
    if (u32(page, FIL_PAGE_OFFSET) === u32(slot, FIL_PAGE_OFFSET) && lsnAt(page, FIL_PAGE_LSN) === lsnAt(slot, FIL_PAGE_LSN)) return u32(page, FIL_PAGE_SPACE_ID);
  }
  return null;
}

/** What slot `slot` holds: a copy that passes its checksum, or why not. */
export function readSlot(slot: Uint8Array): SlotCopy | SlotRejection {
  if (isAllZero(slot)) return 'empty';
  const id = { spaceId: u32(slot, FIL_PAGE_SPACE_ID), pageNo: u32(slot, FIL_PAGE_OFFSET), lsn: lsnAt(slot, FIL_PAGE_LSN) };
  const whole = wholePageChecksum(slot);
  if (whole === 'full_crc32') {
    const spaceId = fullCrc32SpaceId(slot);
    return spaceId === null ? 'space unknown' : { ...id, spaceId, bytes: slot, checksum: whole };
  }
  if (whole !== null) return { ...id, bytes: slot, checksum: whole };
  const compressed = originalCompressedChecksum(slot);
  if (compressed !== null) return { ...id, bytes: slot, checksum: compressed };
  const zip = zipCopy(slot);
  if (zip !== null) return { ...id, bytes: slot.subarray(0, zip.size), checksum: zip.checksum };
  const type = u16(slot, FIL_PAGE_TYPE);
  return MYSQL_ENCRYPTED.has(type) || MARIADB_COMPRESSED.has(type) ? 'unverifiable' : 'bad checksum';
}
