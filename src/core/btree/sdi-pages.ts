/**
 * MySQL 8.0+ Serialized Dictionary Information: every .ibd carries, in a B-tree of its own, the
 * JSON of the tables (and the tablespace) it stores. Page 0 says where the tree's root is: right
 * after the FSP header, the XDES array and the encryption info slot, a version (1) and the root page
 * number (fsp0fsp.cc, fsp_header_get_sdi_offset). The tree's pages are FIL_PAGE_SDI pages laid out
 * as COMPACT index pages; each leaf record holds
 *
 *   type INT UNSIGNED (4) | id BIGINT UNSIGNED (8) | DB_TRX_ID (6) | DB_ROLL_PTR (7) |
 *   uncompressed length (4) | compressed length (4) | zlib data (variable, may go off-page)
 *
 * with no nullable field, so the header holds only the data's 1-2 byte length. Data too long for the
 * page continues on FIL_PAGE_SDI_BLOB pages chained like the old BLOB pages.
 */
import { EXTERN_REF_SIZE, readExternRef } from '../pages/blob-page.ts';
import { FIL_NULL, FIL_PAGE_DATA, FIL_PAGE_NEXT, FIL_PAGE_PREV, FIL_PAGE_TYPE, PageType, pageTypeName, u16, u32 } from '../pages/fil-header.ts';
import {
  compactInfoBits, compactStatus, readIndexHeader, recordOrigins, REC_INFO_DELETED, REC_STATUS_NODE_PTR, REC_STATUS_ORDINARY,
} from '../pages/index-page.ts';
import { extentPages } from '../pages/inode.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';

/** The FSP header's own size; the XDES array follows it (fsp0fsp.h FSP_HEADER_SIZE). */
const FSP_HEADER_SIZE = 112;
/** An XDES entry: segment id (8), list node (12), state (4), then 2 bits per page of the extent. */
const XDES_BITMAP = 24;
/** Encryption key slot kept after the XDES array whether or not the space is encrypted (ENCRYPTION_INFO_MAX_SIZE). */
const ENCRYPTION_INFO_MAX_SIZE = 115;
const SDI_VERSION = 1;

/** Leaf record layout: offsets from the record origin. */
const REC_TYPE = 0;
const REC_ID = 4;
const REC_UNCOMPRESSED_LEN = 4 + 8 + 6 + 7;
const REC_COMPRESSED_LEN = REC_UNCOMPRESSED_LEN + 4;
const REC_DATA = REC_COMPRESSED_LEN + 4;
/** A node pointer record holds the key (type, id) and the child page number. */
const NODE_PTR_CHILD = 4 + 8;
/** An off-page value keeps this much of its start in the record (COMPACT/REDUNDANT); DYNAMIC keeps none. */

/** SDI object types (dd::Sdi_type). */
export const SDI_TYPE_TABLE = 1;
export const SDI_TYPE_TABLESPACE = 2;

export interface SdiRecord {
  type: number;
  id: bigint;
  /** The decompressed JSON text. */
  json: string;
}

/**
 * Where page 0 keeps the SDI version and root page number. The XDES array before it has one entry per
 * extent of the pages page 0 describes: as many pages as it has bytes, which in a ROW_FORMAT=COMPRESSED
 * tablespace is the physical (compressed) page size, while the extent and entry sizes follow the
 * logical one (fsp_header_get_sdi_offset: xdes_arr_size uses page_size.physical()).
 */
export function sdiOffset(pageSize: number, physicalSize = pageSize): number {
  const extent = extentPages(pageSize);
  const xdesSize = XDES_BITMAP + Math.ceil((extent * 2) / 8);
  const xdesPerPage = physicalSize / extent;
  return FIL_PAGE_DATA + FSP_HEADER_SIZE + xdesSize * xdesPerPage + ENCRYPTION_INFO_MAX_SIZE;
}

/** Thrown when the file says it has SDI but the tree cannot be read; the message says why. */
export class SdiError extends Error {}

/**
 * The SDI root page number, or null when the file carries no SDI (MySQL 5.x, MariaDB, or a MySQL 8
 * file whose flags do not announce it).
 */
export async function sdiRootPage(ts: Tablespace): Promise<number | null> {
  if (!ts.fsp.flags.sdi || ts.fullCrc32) return null;
  if (ts.page0Damaged !== null) return findSdiRoot(ts);
  const page0 = (await ts.page(0)).bytes;
  const at = sdiOffset(ts.pageSize, ts.physicalSize);
  const version = u32(page0, at);
  const root = u32(page0, at + 4);
  if (version !== SDI_VERSION) throw new SdiError(`page 0 announces SDI, but its SDI version is ${version} (expected ${SDI_VERSION})`);
  if (root === 0 || root >= ts.pageCount) throw new SdiError(`the SDI root page number on page 0 (${root}) is outside the file`);
  return root;
}

/**
 * The SDI root without page 0 to say where it is: the SDI page of the first extent, where the
 * server creates it with the tablespace (page 3 of a file-per-table file), with no siblings at the
 * highest level found.
 */
async function findSdiRoot(ts: Tablespace): Promise<number> {
  let root: { no: number; level: number } | null = null;
  for (let no = 1; no < Math.min(ts.pageCount, extentPages(ts.pageSize)); no++) {
    const page = await ts.page(no).catch(() => null);
    if (!page || page.checksum === 'bad' || u16(page.bytes, FIL_PAGE_TYPE) !== PageType.SDI) continue;
    if (u32(page.bytes, FIL_PAGE_PREV) !== FIL_NULL || u32(page.bytes, FIL_PAGE_NEXT) !== FIL_NULL) continue;
    const level = readIndexHeader(page.bytes).level;
    if (root === null || level > root.level) root = { no, level };
  }
  if (root === null) throw new SdiError('page 0, which says where the SDI is, is damaged, and no SDI root page was found in the first extent');
  return root.no;
}

/** Every SDI record of the tablespace, in key (type, id) order; null when the file has no SDI. */
export async function readSdiRecords(ts: Tablespace): Promise<SdiRecord[] | null> {
  const root = await sdiRootPage(ts);
  if (root === null) return null;
  const out: SdiRecord[] = [];
  const origins: number[] = [];
  let pageNo = await leftmostSdiLeaf(ts, root);
  for (let visited = 0; pageNo !== FIL_NULL; visited++) {
    if (visited > ts.pageCount) throw new SdiError('the SDI leaf page chain loops');
    const page = await sdiPage(ts, pageNo);
    const damage = recordOrigins(page, true, origins);
    if (damage !== null) throw new SdiError(`SDI page ${pageNo}: ${damage}`);
    for (const origin of origins) {
      if (compactInfoBits(page, origin) & REC_INFO_DELETED || compactStatus(page, origin) !== REC_STATUS_ORDINARY) continue;
      out.push(await readRecord(ts, page, pageNo, origin));
    }
    pageNo = u32(page, FIL_PAGE_NEXT);
  }
  return out;
}

async function sdiPage(ts: Tablespace, pageNo: number): Promise<Uint8Array> {
  const bytes = (await ts.page(pageNo)).bytes;
  const type = u16(bytes, FIL_PAGE_TYPE);
  if (type !== PageType.SDI) throw new SdiError(`page ${pageNo} should be an SDI page but is ${pageTypeName(type)}`);
  if (!readIndexHeader(bytes).compact) throw new SdiError(`SDI page ${pageNo} is not in the COMPACT record format`);
  return bytes;
}

async function leftmostSdiLeaf(ts: Tablespace, root: number): Promise<number> {
  const origins: number[] = [];
  let pageNo = root;
  // A B-tree deeper than the file has pages is a loop.
  for (let depth = 0; depth <= ts.pageCount; depth++) {
    const page = await sdiPage(ts, pageNo);
    if (readIndexHeader(page).level === 0) return pageNo;
    const damage = recordOrigins(page, true, origins);
    const first = origins.find((o) => compactStatus(page, o) === REC_STATUS_NODE_PTR);
    if (damage !== null || first === undefined) throw new SdiError(`SDI page ${pageNo}: ${damage ?? 'a non-leaf page without node pointers'}`);
    pageNo = u32(page, first + NODE_PTR_CHILD);
  }
  throw new SdiError('the SDI B-tree loops');
}

async function readRecord(ts: Tablespace, page: Uint8Array, pageNo: number, origin: number): Promise<SdiRecord> {
  const type = u32(page, origin + REC_TYPE);
  const id = (BigInt(u32(page, origin + REC_ID)) << 32n) | BigInt(u32(page, origin + REC_ID + 4));
  const uncompressedLen = u32(page, origin + REC_UNCOMPRESSED_LEN);
  const compressedLen = u32(page, origin + REC_COMPRESSED_LEN);
  const where = `SDI page ${pageNo}, record at ${origin} (type ${type}, id ${id})`;
  // The data is the only variable-length field: its length sits right before the 5-byte header.
  let len = page[origin - 6];
  let external = false;
  if (len & 0x80) {
    external = (len & 0x40) !== 0;
    len = ((len & 0x3f) << 8) | page[origin - 7];
  }
  const start = origin + REC_DATA;
  if (start + len > page.length - 8) throw new SdiError(`${where}: the data (${len} bytes) runs past the end of the page`);
  let data = page.subarray(start, start + len);
  if (external) data = await readSdiBlob(ts, data, where);
  if (data.length !== compressedLen) throw new SdiError(`${where}: ${data.length} bytes of compressed data, the record says ${compressedLen}`);
  const json = await inflate(data, where);
  if (json.length !== uncompressedLen) throw new SdiError(`${where}: the data inflates to ${json.length} bytes, the record says ${uncompressedLen}`);
  return { type, id, json: new TextDecoder('utf-8').decode(json) };
}

/** An off-page SDI value: the local prefix, then the parts on the SDI BLOB page chain. */
async function readSdiBlob(ts: Tablespace, local: Uint8Array, where: string): Promise<Uint8Array> {
  if (local.length < EXTERN_REF_SIZE) throw new SdiError(`${where}: an off-page value with a ${local.length}-byte reference`);
  const ref = readExternRef(local);
  const prefix = local.length - EXTERN_REF_SIZE;
  if (ref.length > ts.pageCount * ts.pageSize) throw new SdiError(`${where}: the off-page value claims ${ref.length} bytes, more than the file holds`);
  const out = new Uint8Array(prefix + ref.length);
  out.set(local.subarray(0, prefix));
  let filled = prefix;
  let pageNo = ref.pageNo;
  let offset = ref.offset;
  while (filled < out.length) {
    if (pageNo === FIL_NULL || pageNo >= ts.pageCount) throw new SdiError(`${where}: the SDI BLOB chain ends after ${filled - prefix} of ${ref.length} bytes`);
    const page = (await ts.page(pageNo)).bytes;
    const type = u16(page, FIL_PAGE_TYPE);
    if (type !== PageType.SDI_BLOB && type !== PageType.BLOB) throw new SdiError(`${where}: page ${pageNo} is ${pageTypeName(type)}, expected an SDI BLOB page`);
    // Each part: its length and the next page, then the bytes (the old BLOB page layout).
    const partLen = u32(page, offset);
    if (partLen === 0 || partLen > out.length - filled || offset + 8 + partLen > page.length) {
      throw new SdiError(`${where}: SDI BLOB page ${pageNo} claims a part of ${partLen} bytes, which does not fit`);
    }
    out.set(page.subarray(offset + 8, offset + 8 + partLen), filled);
    filled += partLen;
    pageNo = u32(page, offset + 4);
    offset = FIL_PAGE_DATA;
  }
  return out;
}

/** zlib (RFC 1950) data, inflated with the platform's DecompressionStream (browsers, Node 18+). */
async function inflate(data: Uint8Array, where: string): Promise<Uint8Array> {
  try {
    // Written into the stream rather than read from a Blob's stream (which Chromium may collect while
    // it is read: source.ts). A copy: the stream takes the bytes, not a view into the page cache.
    // The write is not awaited, so that the output is read as it comes; its errors reach the output.
    const inflater = new DecompressionStream('deflate');
    const writer = inflater.writable.getWriter();
    writer.write(data.slice()).catch(() => undefined);
    writer.close().catch(() => undefined);
    return new Uint8Array(await new Response(inflater.readable).arrayBuffer());
  } catch (e) {
    throw new SdiError(`${where}: the zlib data does not inflate (${(e as Error).message})`);
  }
}
