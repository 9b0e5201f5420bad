/**
 * MySQL 8.0's LOB format (lob0first.h, lob0index.h, lob0lob.h): the reference points at a LOB first
 * page, which holds a list of index entries (10 in the first page, more on LOB index pages); each
 * entry names a page and how many bytes of the value it holds, in value order. The first page
 * carries data too, after its 10 entry slots; LOB data pages carry it after a short header.
 * Older versions of a partially updated LOB hang off each entry's version list: the main list is
 * the current value, which is what a SELECT shows.
 */
import { FIL_NULL, FIL_PAGE_DATA, FIL_PAGE_TYPE, PageType, pageTypeName, u16, u32 } from './fil-header.ts';

/** first_page_t: version(1) flags(1) lob version(4) last trx(6) last undo(4) data len(4) trx(6). */
const FIRST_INDEX_LIST = FIL_PAGE_DATA + 1 + 1 + 4 + 6 + 4 + 4 + 6;
/** The index entry slots start after the index list and free list base nodes (16 bytes each). */
const FIRST_NODES = FIRST_INDEX_LIST + 16 + 16;
const INDEX_ENTRY_SIZE = 60;
const FIRST_DATA = FIRST_NODES + 10 * INDEX_ENTRY_SIZE;
/** data_page_t: version(1) data len(4) trx(6), then the data. */
const DATA_PAGE_DATA = FIL_PAGE_DATA + 1 + 4 + 6;

/** index_entry_t fields used here: next entry (file address) and the page/length it describes. */
const ENTRY_NEXT = 6;
const ENTRY_PAGE_NO = 6 + 6 + 16 + 6 + 6 + 4 + 4;
const ENTRY_DATA_LEN = ENTRY_PAGE_NO + 4;

/** Appends the current version of the LOB starting at `firstPageNo` to `out` from `filled` on. */
export async function readLob(firstPageNo: number, out: Uint8Array, filled: number, readPage: (no: number) => Promise<Uint8Array>): Promise<void> {
  const first = await readPage(firstPageNo);
  let entryPage = u32(first, FIRST_INDEX_LIST + 4);
  let entryOffset = u16(first, FIRST_INDEX_LIST + 8);
  // A damaged list can point back into itself: no entry is visited twice.
  const visited = new Set<number>();
  while (entryPage !== FIL_NULL) {
    const address = entryPage * 65536 + entryOffset;
    if (visited.has(address)) throw new Error(`the LOB index list loops (entry at page ${entryPage} offset ${entryOffset} again)`);
    visited.add(address);
    const page = entryPage === firstPageNo ? first : await readPage(entryPage);
    if (entryOffset + INDEX_ENTRY_SIZE > page.length) throw new Error(`LOB index entry at page ${entryPage} offset ${entryOffset} is outside the page`);
    const dataPageNo = u32(page, entryOffset + ENTRY_PAGE_NO);
    const len = u16(page, entryOffset + ENTRY_DATA_LEN);
    const data = dataPageNo === firstPageNo ? first : await readPage(dataPageNo);
    const start = dataStart(data, dataPageNo, firstPageNo);
    if (len > out.length - filled || start + len > data.length) throw new Error(`LOB page ${dataPageNo} claims ${len} bytes, which do not fit`);
    out.set(data.subarray(start, start + len), filled);
    filled += len;
    const next = entryOffset + ENTRY_NEXT;
    entryPage = u32(page, next);
    entryOffset = u16(page, next + 4);
  }
  if (filled !== out.length) throw new Error(`the LOB holds ${filled} of its ${out.length} bytes`);
}

function dataStart(page: Uint8Array, pageNo: number, firstPageNo: number): number {
  const type = u16(page, FIL_PAGE_TYPE);
  if (pageNo === firstPageNo && type === PageType.LOB_FIRST) return FIRST_DATA;
  if (type === PageType.LOB_DATA) return DATA_PAGE_DATA;
  throw new Error(`LOB data: page ${pageNo} is ${pageTypeName(type)}, expected a LOB data page`);
}
