/**
 * Externally stored columns of ROW_FORMAT=COMPRESSED tables in MySQL 5.x and MariaDB
 * (btr0cur.cc btr_copy_zblob_prefix): the value is one zlib stream spread over a chain of pages of
 * the compressed page size, the first of type ZBLOB (11), the others ZBLOB2 (12) (SDI_ZBLOB, 19, for
 * MySQL's dictionary). Each page's FIL_PAGE_NEXT names the next page; the stream bytes fill each
 * page from FIL_PAGE_DATA to its end. (A reference whose offset is not FIL_PAGE_NEXT, from very old
 * versions, keeps the next-page number at that offset and the stream right after it.)
 */
import { FIL_NULL, FIL_PAGE_DATA, FIL_PAGE_NEXT, FIL_PAGE_TYPE, PageType, pageTypeName, u16, u32 } from './fil-header.ts';
import { inflateZlib } from '../codecs/inflate.ts';

/** True for the page types a compressed BLOB chain starts with. */
export function isZblobType(type: number): boolean {
  return type === PageType.ZBLOB || type === PageType.ZBLOB2 || type === PageType.SDI_ZBLOB;
}

/**
 * Inflates the compressed BLOB starting at page `pageNo` (reference offset `offset`) into
 * out[filled, out.length): exactly that many bytes must come out. Throws an Error saying what is wrong.
 */
export async function readZblob(pageNo: number, offset: number, out: Uint8Array, filled: number, readPage: (no: number) => Promise<Uint8Array>): Promise<void> {
  const parts: Uint8Array[] = [];
  let total = 0;
  const seen = new Set<number>();
  let first = true;
  while (pageNo !== FIL_NULL) {
    if (seen.has(pageNo)) throw new Error(`the compressed BLOB chain loops (page ${pageNo} again)`);
    seen.add(pageNo);
    const page = await readPage(pageNo);
    const type = u16(page, FIL_PAGE_TYPE);
    if (!isZblobType(type)) throw new Error(`compressed off-page value: page ${pageNo} is ${pageTypeName(type)}, expected a ZBLOB page`);
    if (!first && type === PageType.ZBLOB) throw new Error(`compressed off-page value: page ${pageNo} starts another BLOB`);
    let start: number;
    let next: number;
    if (offset === FIL_PAGE_NEXT) {
      next = u32(page, FIL_PAGE_NEXT);
      start = FIL_PAGE_DATA;
    } else {
      if (offset + 4 > page.length) throw new Error(`compressed off-page value: offset ${offset} is outside page ${pageNo}`);
      next = u32(page, offset);
      start = offset + 4;
    }
    parts.push(page.subarray(start));
    total += page.length - start;
    const want = out.length - filled;
    if (total > want + (want >> 6) + 2 * page.length + 64) {
      // zlib grows data by a few bytes per 16 KB at most: a chain this long is damaged.
      throw new Error('the compressed BLOB chain is longer than its value can be');
    }
    pageNo = next;
    offset = FIL_PAGE_NEXT;
    first = false;
  }
  const stream = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    stream.set(p, at);
    at += p.length;
  }
  let produced: number;
  try {
    produced = inflateZlib(stream, 0, total, out, filled).outLength;
  } catch (e) {
    throw new Error(`the compressed off-page value does not inflate: ${(e as Error).message}`);
  }
  if (produced !== out.length - filled) throw new Error(`the compressed off-page value holds ${produced} of its ${out.length - filled} bytes`);
}

/**
 * MySQL 8.0 compressed LOBs of ROW_FORMAT=COMPRESSED tables (zlob0first.h, zlob0index.h, lob0impl.h,
 * zlob0read.cc). The reference points at a ZLOB first page (type 25) holding a list of index entries;
 * each entry describes one zlib stream (a chunk of the value): the page it starts on, a fragment id,
 * its uncompressed and compressed lengths and the LOB version that wrote it. A stream lives in the
 * first page's data area, in a chain of ZLOB data pages (26, linked by FIL_PAGE_NEXT), or in one
 * fragment of a fragment page (28, found through the page directory at the end of that page).
 * Entries live on the first page or on ZLOB index pages (27), linked by file addresses.
 */
const ZLOB_FIRST = 25;
const ZLOB_DATA = 26;
const ZLOB_FRAG = 28;
/** z_first_page_t: the index list base node and where the index entries begin. */
const ZFIRST_DATA_LEN = FIL_PAGE_DATA + 1 + 1 + 4 + 6 + 4;
const ZFIRST_INDEX_LIST = FIL_PAGE_DATA + 1 + 1 + 4 + 6 + 4 + 4 + 6 + 4 + 4 + 16;
const ZFIRST_INDEX_BEGIN = ZFIRST_INDEX_LIST + 16 + 16 + 16;
const Z_INDEX_ENTRY_SIZE = 66;
const Z_FRAG_ENTRY_SIZE = 24;
/** z_index_entry_t fields. */
const ZE_NEXT = 6;
const ZE_VERSIONS = 12;
const ZE_PAGE_NO = 12 + 16 + 6 + 6 + 4 + 4;
const ZE_FRAG_ID = ZE_PAGE_NO + 4;
const ZE_DATA_LEN = ZE_FRAG_ID + 2;
const ZE_ZDATA_LEN = ZE_DATA_LEN + 4;
const ZE_LOB_VERSION = ZE_ZDATA_LEN + 4;
/** z_data_page_t: version, data length, creator trx id, then the data. */
const ZDATA_LEN = FIL_PAGE_DATA + 1;
const ZDATA_BEGIN = ZDATA_LEN + 4 + 6;
/** Fragment pages: the page directory (2 bytes per fragment id) ends 12 bytes before the page end. */
const ZFRAG_DIR_FIRST = 8 + 2 + 2;
const FRAG_NODE_LEN = 4;
const FRAG_NODE_DATA = 8;

/** Index and fragment entries the first page holds, by page size (z_first_page_t). */
function firstPageEntries(size: number): [number, number] {
  const counts: Record<number, [number, number]> = { 16384: [100, 200], 8192: [80, 100], 4096: [40, 40], 2048: [20, 20], 1024: [5, 5] };
  const c = counts[size];
  if (!c) throw new Error(`a compressed LOB first page of ${size} bytes is not a size MySQL writes`);
  return c;
}

/** True for the first page of a MySQL 8.0 compressed LOB. */
export function isZlobFirst(type: number): boolean {
  return type === ZLOB_FIRST;
}

/**
 * Reads the compressed LOB starting at `firstPageNo` into out[filled, out.length). `lobVersion` is
 * the version the record's reference names (its offset field): chunks rewritten by later, uncommitted
 * versions are read from their older versions.
 */
export async function readZlob(firstPageNo: number, lobVersion: number, out: Uint8Array, filled: number, readPage: (no: number) => Promise<Uint8Array>): Promise<void> {
  const first = await readPage(firstPageNo);
  const page = async (no: number): Promise<Uint8Array> => (no === firstPageNo ? first : readPage(no));
  const seen = new Set<number>();
  let addrPage = u32(first, ZFIRST_INDEX_LIST + 4);
  let addrOffset = u16(first, ZFIRST_INDEX_LIST + 8);
  while (addrPage !== FIL_NULL) {
    const key = addrPage * 65536 + addrOffset;
    if (seen.has(key)) throw new Error('the compressed LOB index list loops');
    seen.add(key);
    const entryPage = await page(addrPage);
    let entry = addrOffset;
    if (entry + Z_INDEX_ENTRY_SIZE > entryPage.length) throw new Error(`compressed LOB index entry at page ${addrPage} offset ${addrOffset} is outside the page`);
    const nextPage = u32(entryPage, entry + ZE_NEXT);
    const nextOffset = u16(entryPage, entry + ZE_NEXT + 4);
    let holder = entryPage;
    if (u32(entryPage, entry + ZE_LOB_VERSION) > lobVersion) {
      // A newer chunk than the record sees: take the first older version it can see.
      let vp = u32(entryPage, entry + ZE_VERSIONS + 4);
      let vo = u16(entryPage, entry + ZE_VERSIONS + 8);
      for (let guard = 0; vp !== FIL_NULL && guard < 10000; guard++) {
        const vPage = await page(vp);
        if (u32(vPage, vo + ZE_LOB_VERSION) <= lobVersion) {
          holder = vPage;
          entry = vo;
          break;
        }
        const np = u32(vPage, vo + ZE_NEXT);
        vo = u16(vPage, vo + ZE_NEXT + 4);
        vp = np;
      }
    }
    filled = await readChunk(holder, entry, out, filled, page);
    addrPage = nextPage;
    addrOffset = nextOffset;
  }
  if (filled !== out.length) throw new Error(`the compressed LOB holds ${filled} of its ${out.length} bytes`);
}

/** Inflates the zlib stream one index entry describes (z_read_chunk, z_read_strm). */
async function readChunk(holder: Uint8Array, entry: number, out: Uint8Array, filled: number, page: (no: number) => Promise<Uint8Array>): Promise<number> {
  const dataLen = u32(holder, entry + ZE_DATA_LEN);
  const zLen = u32(holder, entry + ZE_ZDATA_LEN);
  let pageNo = u32(holder, entry + ZE_PAGE_NO);
  if (pageNo === FIL_NULL || dataLen === 0) return filled;
  if (dataLen > out.length - filled) throw new Error(`a compressed LOB chunk of ${dataLen} bytes does not fit the value`);
  const stream = new Uint8Array(zLen);
  let got = 0;
  const seen = new Set<number>();
  while (got < zLen && pageNo !== FIL_NULL) {
    if (seen.has(pageNo)) throw new Error('the compressed LOB data page chain loops');
    seen.add(pageNo);
    const p = await page(pageNo);
    const type = u16(p, FIL_PAGE_TYPE);
    let start: number;
    let len: number;
    if (type === ZLOB_FRAG) {
      const fragId = u16(holder, entry + ZE_FRAG_ID);
      const node = u16(p, p.length - ZFRAG_DIR_FIRST - 2 * fragId);
      start = node + FRAG_NODE_DATA;
      len = u16(p, node + FRAG_NODE_LEN) - FRAG_NODE_DATA;
    } else if (type === ZLOB_FIRST) {
      const [nIndex, nFrag] = firstPageEntries(p.length);
      start = ZFIRST_INDEX_BEGIN + nIndex * Z_INDEX_ENTRY_SIZE + nFrag * Z_FRAG_ENTRY_SIZE;
      len = u32(p, ZFIRST_DATA_LEN);
    } else if (type === ZLOB_DATA) {
      start = ZDATA_BEGIN;
      len = u32(p, ZDATA_LEN);
    } else {
      throw new Error(`compressed LOB data: page ${pageNo} is ${pageTypeName(type)}, expected a ZLOB page`);
    }
    if (len < 0 || start + len > p.length || got + len > zLen) throw new Error(`compressed LOB page ${pageNo} claims ${len} bytes, which do not fit`);
    stream.set(p.subarray(start, start + len), got);
    got += len;
    pageNo = u32(p, FIL_PAGE_NEXT);
  }
  if (got !== zLen) throw new Error(`a compressed LOB chunk holds ${got} of its ${zLen} compressed bytes`);
  let produced: number;
  try {
    produced = inflateZlib(stream, 0, zLen, out.subarray(0, filled + dataLen), filled).outLength;
  } catch (e) {
    throw new Error(`a compressed LOB chunk does not inflate: ${(e as Error).message}`);
  }
  if (produced !== dataLen) throw new Error(`a compressed LOB chunk inflates to ${produced} bytes, its entry says ${dataLen}`);
  return filled + dataLen;
}
