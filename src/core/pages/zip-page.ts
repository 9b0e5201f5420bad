/**
 * ROW_FORMAT=COMPRESSED index pages (page0zip.cc, zipdecompress.cc): rebuilding the uncompressed page
 * the rest of the decoder reads. A compressed page of `zipSize` bytes holds:
 *  - the FIL and index page headers as on the uncompressed page (bytes 0 .. PAGE_DATA);
 *  - a zlib stream: first one deflate block describing the index fields (how long each is, whether it
 *    can be NULL, where DB_TRX_ID is), then every record of the heap in heap order, each as its
 *    "extra" bytes (null bitmap and field lengths, without the 5-byte header) and its data bytes,
 *    minus what is stored uncompressed at the end of the page, then the free space up to PAGE_HEAP_TOP;
 *  - the modification log right after the stream: records inserted or rewritten since the page was
 *    last compressed, applied on top;
 *  - from the end backwards: the dense page directory (2 bytes per record: offset, "owned" and
 *    "deleted" flags; records in key order first, then the free list), then per record the
 *    uncompressed columns: DB_TRX_ID+DB_ROLL_PTR (13 bytes) on clustered leaves, the child page number
 *    (4 bytes) on node pointer pages, and the 20-byte references of externally stored columns.
 * The rebuilt page has the record headers (next pointers, heap numbers, info bits) and the sparse page
 * directory filled in, so it reads exactly like a COMPACT page of the logical page size.
 */
import { EXTERN_REF_SIZE } from './blob-page.ts';
import { crc32c } from './checksum.ts';
import type { ChecksumResult } from './checksum.ts';
import { FIL_NULL, FIL_PAGE_LSN, FIL_PAGE_OFFSET, FIL_PAGE_PREV, FIL_PAGE_SPACE_ID, FIL_PAGE_TYPE, isAllZero, u16, u32 } from './fil-header.ts';
import { adler32, inflateRaw } from '../codecs/inflate.ts';
import {
  PAGE_DATA, PAGE_HEADER, PAGE_HEAP_TOP, PAGE_LEVEL, PAGE_N_DIR_SLOTS, PAGE_N_HEAP, PAGE_N_RECS, PAGE_NEW_INFIMUM, PAGE_NEW_SUPREMUM, PAGE_NEW_SUPREMUM_END,
  REC_INFO_DELETED, REC_INFO_MIN_REC, REC_STATUS_NODE_PTR, REC_STATUS_ORDINARY,
} from './index-page.ts';
import {
  dataSize, decodeFields, fieldStart, logOffsets, newOffsets, NODE_PTR_SIZE, recOffsets, REC_N_NEW_EXTRA_BYTES, ZipPageError, type Offsets, type ZipIndex,
} from './zip-fields.ts';

/** The compressed stream's records start right after the supremum on the uncompressed page. */
const PAGE_ZIP_START = PAGE_NEW_SUPREMUM_END;
const DIR_SLOT_SIZE = 2;
const DIR_SLOT_MASK = 0x3fff;
const DIR_SLOT_OWNED = 0x4000;
const DIR_SLOT_DEL = 0x8000;
/** Sparse page directory: from the end of the page, after the 8-byte FIL trailer. */
const PAGE_DIR = 8;
const TRX_ROLL_LEN = 13;
const HEAP_NO_SHIFT = 3;


function setNext(page: Uint8Array, rec: number, next: number): void {
  const rel = next === 0 ? 0 : (next - rec) & 0xffff;
  page[rec - 2] = rel >> 8;
  page[rec - 1] = rel & 0xff;
}

function setHeapStatus(page: Uint8Array, rec: number, hs: number): void {
  page[rec - 4] = hs >> 8;
  page[rec - 3] = hs & 0xff;
}

/**
 * A cursor over the inflated record stream: bytes are copied from it into the page, skipping the
 * holes (record headers, uncompressed columns) that the compressor left out.
 */
class StreamCopy {
  pos: number;
  /** Where the next stream byte goes on the page. */
  out = PAGE_ZIP_START;
  constructor(
    private readonly data: Uint8Array,
    start: number,
    private readonly end: number,
    private readonly page: Uint8Array,
  ) {
    this.pos = start;
  }

  get left(): number {
    return this.end - this.pos;
  }

  /**
   * Copies stream bytes until the page position `to`. When the stream ends first, what is left is
   * copied (as inflate() would have written it) and the result is false.
   */
  copyTo(to: number): boolean {
    const n = to - this.out;
    if (n < 0) throw new ZipPageError(`the compressed records overlap (at offset ${this.out}, next hole at ${to})`);
    const m = Math.min(n, this.left);
    this.page.set(this.data.subarray(this.pos, this.pos + m), this.out);
    this.pos += m;
    this.out += m;
    return m === n;
  }

  /** copyTo() that must succeed: the stream cannot end inside a record. */
  mustCopyTo(to: number): void {
    if (!this.copyTo(to)) throw new ZipPageError('the compressed stream ends inside a record');
  }

  skip(n: number): void {
    this.out += n;
  }
}

/** Decompresses a ROW_FORMAT=COMPRESSED INDEX (or RTREE/SDI) page into a page of `pageSize` bytes. */
export function decompressZipPage(zip: Uint8Array, pageSize: number): Uint8Array {
  const zipSize = zip.length;
  const page = new Uint8Array(pageSize);
  page.set(zip.subarray(0, PAGE_DATA));
  const h = PAGE_HEADER;
  const nHeapRaw = u16(zip, h + PAGE_N_HEAP);
  if (!(nHeapRaw & 0x8000)) throw new ZipPageError('the compressed page is not in the COMPACT record format');
  const nDense = (nHeapRaw & 0x7fff) - 2;
  const nRecs = u16(zip, h + PAGE_N_RECS);
  if (nDense < 0 || nDense * DIR_SLOT_SIZE >= zipSize || nRecs > nDense) throw new ZipPageError(`the compressed page has an impossible record count (${nDense} in the heap, ${nRecs} in the list)`);
  const leaf = u16(zip, h + PAGE_LEVEL) === 0;
  const dir = (i: number): number => u16(zip, zipSize - DIR_SLOT_SIZE * (i + 1));

  // Sparse directory: the infimum, every record that owns a group, the supremum.
  let slot = pageSize - PAGE_DIR - DIR_SLOT_SIZE;
  const writeSlot = (v: number): void => {
    page[slot] = v >> 8;
    page[slot + 1] = v & 0xff;
    slot -= DIR_SLOT_SIZE;
  };
  writeSlot(PAGE_NEW_INFIMUM);
  const recs: number[] = [];
  for (let i = 0; i < nDense; i++) {
    const offs = dir(i);
    if (i < nRecs) {
      if (offs & DIR_SLOT_OWNED) writeSlot(offs & DIR_SLOT_MASK);
    } else if (offs & ~DIR_SLOT_MASK) {
      throw new ZipPageError('a free record in the compressed page directory carries flags');
    }
    const rec = offs & DIR_SLOT_MASK;
    if (rec < PAGE_ZIP_START + REC_N_NEW_EXTRA_BYTES || rec >= pageSize - PAGE_DIR) throw new ZipPageError(`the compressed page directory points outside the page (offset ${rec})`);
    recs.push(rec);
  }
  writeSlot(PAGE_NEW_SUPREMUM);
  if (slot + DIR_SLOT_SIZE !== pageSize - PAGE_DIR - DIR_SLOT_SIZE * u16(zip, h + PAGE_N_DIR_SLOTS)) {
    throw new ZipPageError('the compressed page directory does not match the page header\'s slot count');
  }
  // Heap order is address order: records are carved from the heap top upwards.
  recs.sort((a, b) => a - b);

  // Infimum and supremum.
  page.set([0x01, 0x00, 0x02], PAGE_NEW_INFIMUM - REC_N_NEW_EXTRA_BYTES);
  setNext(page, PAGE_NEW_INFIMUM, nRecs === 0 ? PAGE_NEW_SUPREMUM : dir(0) & DIR_SLOT_MASK);
  page.set([0x69, 0x6e, 0x66, 0x69, 0x6d, 0x75, 0x6d, 0x00], PAGE_NEW_INFIMUM); // "infimum\0"
  page.set([0x00, 0x0b, 0x00, 0x00, 0x73, 0x75, 0x70, 0x72, 0x65, 0x6d, 0x75, 0x6d], PAGE_NEW_SUPREMUM - REC_N_NEW_EXTRA_BYTES + 1); // heap 1, status 3, "supremum"

  // The trailer: dense directory, then the uncompressed columns.
  const storageEnd = zipSize - nDense * DIR_SLOT_SIZE;
  const inflated = new Uint8Array(pageSize);
  if ((zip[PAGE_DATA] & 0x0f) !== 8 || ((zip[PAGE_DATA] << 8) | zip[PAGE_DATA + 1]) % 31 !== 0) throw new ZipPageError('the compressed page does not start a zlib stream');
  let stream;
  try {
    stream = inflateRaw(zip, PAGE_DATA + 2, storageEnd, inflated);
  } catch (e) {
    throw new ZipPageError(`the compressed page does not inflate: ${(e as Error).message}`);
  }
  const logStart = stream.inEnd + 4; // after the Adler-32 of the stream
  if (logStart > storageEnd) throw new ZipPageError('the compressed stream runs into the page trailer');
  const expectedAdler = u32(zip, stream.inEnd);
  if (expectedAdler !== adler32(inflated, 0, stream.outLength)) throw new ZipPageError('the compressed page\'s zlib checksum does not match (damaged page)');
  const fieldsEnd = stream.blockEnds[0];
  const index = decodeFields(inflated, fieldsEnd, leaf);
  const clustered = leaf && index.trxIdCol >= 0;
  const o = newOffsets(index.fields.length + 1);
  const nodePtr = !leaf;
  const status = leaf ? REC_STATUS_ORDINARY : REC_STATUS_NODE_PTR;
  let heapStatus = (2 << HEAP_NO_SHIFT) | status;
  const cur = new StreamCopy(inflated, fieldsEnd, stream.outLength, page);

  // Records from the stream, in heap order; the stream may end before the last ones (they are in the log).
  let i = 0;
  for (; i < nDense; i++) {
    const rec = recs[i];
    if (!cur.copyTo(rec - REC_N_NEW_EXTRA_BYTES)) break;
    cur.skip(REC_N_NEW_EXTRA_BYTES);
    setHeapStatus(page, rec, heapStatus);
    heapStatus += 1 << HEAP_NO_SHIFT;
    if (cur.left === 0) {
      i++;
      break;
    }
    recOffsets(page, rec, index, nodePtr, o);
    if (nodePtr) {
      cur.mustCopyTo(rec + dataSize(o) - NODE_PTR_SIZE);
      cur.skip(NODE_PTR_SIZE);
    } else if (clustered) {
      for (let f = 0; f < o.n; f++) {
        if (f === index.trxIdCol) {
          if (o.ends[f] - fieldStart(o, f) < TRX_ROLL_LEN || o.externs[f]) throw new ZipPageError('DB_TRX_ID of a compressed record is too short');
          cur.mustCopyTo(rec + fieldStart(o, f));
          cur.skip(TRX_ROLL_LEN);
        } else if (o.externs[f]) {
          if (o.ends[f] - fieldStart(o, f) < EXTERN_REF_SIZE) throw new ZipPageError('an off-page reference of a compressed record is too short');
          cur.mustCopyTo(rec + o.ends[f] - EXTERN_REF_SIZE);
          cur.skip(EXTERN_REF_SIZE);
        }
      }
      cur.mustCopyTo(rec + dataSize(o));
    }
    // Secondary index leaves: the data bytes are copied with the next record's extra bytes.
  }
  // The rest of the heap (the last record's data, freed space) up to PAGE_HEAP_TOP.
  const heapTop = u16(zip, h + PAGE_HEAP_TOP);
  if (heapTop > cur.out) cur.copyTo(heapTop);

  const trailerLen = nDense * (clustered ? TRX_ROLL_LEN : nodePtr ? NODE_PTR_SIZE : 0);
  applyLog(zip, logStart, storageEnd - trailerLen, page, recs, index, nodePtr, clustered, heapStatus, o);

  // The uncompressed columns, in heap order.
  const freeOffsets = new Set<number>();
  for (let k = nRecs; k < nDense; k++) freeOffsets.add(dir(k) & DIR_SLOT_MASK);
  let storage = storageEnd;
  let externs = storageEnd - nDense * TRX_ROLL_LEN;
  for (let k = 0; k < nDense; k++) {
    const rec = recs[k];
    recOffsets(page, rec, index, nodePtr, o);
    if (nodePtr) {
      storage -= NODE_PTR_SIZE;
      page.set(zip.subarray(storage, storage + NODE_PTR_SIZE), rec + dataSize(o) - NODE_PTR_SIZE);
    } else if (clustered) {
      storage -= TRX_ROLL_LEN;
      page.set(zip.subarray(storage, storage + TRX_ROLL_LEN), rec + fieldStart(o, index.trxIdCol));
      if (!o.anyExtern) continue;
      const exists = !freeOffsets.has(rec);
      for (let f = 0; f < o.n; f++) {
        if (!o.externs[f]) continue;
        const at = rec + o.ends[f] - EXTERN_REF_SIZE;
        if (exists) {
          externs -= EXTERN_REF_SIZE;
          if (externs < logStart) throw new ZipPageError('the off-page references run into the compressed data');
          page.set(zip.subarray(externs, externs + EXTERN_REF_SIZE), at);
        } else {
          page.fill(0, at, at + EXTERN_REF_SIZE);
        }
      }
    }
  }

  setExtraBytes(page, nRecs, nDense, dir, !leaf && u32(zip, FIL_PAGE_PREV) === FIL_NULL);
  return page;
}

/** page_zip_apply_log(): replays the modification log onto the page. */
function applyLog(zip: Uint8Array, start: number, end: number, page: Uint8Array, recs: number[], index: ZipIndex, nodePtr: boolean, clustered: boolean, heapStatus: number, o: Offsets): void {
  let p = start;
  const nDense = recs.length;
  for (;;) {
    if (p >= end) throw new ZipPageError('the compressed page\'s modification log has no end marker');
    let val = zip[p++];
    if (val === 0) return;
    if (val & 0x80) {
      val = ((val & 0x7f) << 8) | zip[p++];
      if (val === 0) throw new ZipPageError('the compressed page\'s modification log is damaged');
    }
    if (p >= end || val >> 1 > nDense || val >> 1 === 0) throw new ZipPageError('the compressed page\'s modification log is damaged');
    const rec = recs[(val >> 1) - 1];
    const hs = (((val >> 1) + 1) << HEAP_NO_SHIFT) | (heapStatus & ((1 << HEAP_NO_SHIFT) - 1));
    if (hs > heapStatus) throw new ZipPageError('the compressed page\'s modification log skips a heap number');
    if (hs === heapStatus) {
      if (val & 1) throw new ZipPageError('the compressed page\'s modification log clears a record never written');
      heapStatus += 1 << HEAP_NO_SHIFT;
    }
    setHeapStatus(page, rec, hs);
    if (val & 1) {
      // A purged record: its data bytes are cleared.
      recOffsets(page, rec, index, nodePtr, o);
      page.fill(0, rec, rec + dataSize(o));
      continue;
    }
    const extra = logOffsets(zip, p, index, nodePtr, o);
    // The extra bytes are logged in reverse order.
    for (let k = 0; k < extra; k++) page[rec - REC_N_NEW_EXTRA_BYTES - 1 - k] = zip[p++];
    const copy = (from: number, to: number): void => {
      const n = to - from;
      if (n < 0 || p + n >= end) throw new ZipPageError('a record in the compressed page\'s modification log runs past its end');
      page.set(zip.subarray(p, p + n), rec + from);
      p += n;
    };
    if (nodePtr) {
      copy(0, dataSize(o) - NODE_PTR_SIZE);
    } else if (!clustered) {
      copy(0, dataSize(o));
    } else {
      let next = 0;
      for (let f = 0; f < o.n; f++) {
        if (f === index.trxIdCol) {
          copy(next, fieldStart(o, f));
          next = fieldStart(o, f) + TRX_ROLL_LEN;
        } else if (o.externs[f]) {
          copy(next, o.ends[f] - EXTERN_REF_SIZE);
          next = o.ends[f];
        }
      }
      copy(next, dataSize(o));
    }
  }
}

/** page_zip_set_extra_bytes(): next pointers, info bits and n_owned from the dense directory. */
function setExtraBytes(page: Uint8Array, nRecs: number, nDense: number, dir: (i: number) => number, minRecFirst: boolean): void {
  let rec = PAGE_NEW_INFIMUM;
  let owned = 1;
  let info = minRecFirst ? REC_INFO_MIN_REC : 0;
  for (let i = 0; i < nRecs; i++) {
    let offs = dir(i);
    if (offs & DIR_SLOT_DEL) info |= REC_INFO_DELETED;
    if (offs & DIR_SLOT_OWNED) {
      info |= owned;
      owned = 1;
    } else {
      owned++;
    }
    offs &= DIR_SLOT_MASK;
    setNext(page, rec, offs);
    rec = offs;
    page[rec - REC_N_NEW_EXTRA_BYTES] = info;
    info = 0;
  }
  setNext(page, rec, PAGE_NEW_SUPREMUM);
  page[PAGE_NEW_SUPREMUM - REC_N_NEW_EXTRA_BYTES] = owned;
  // The free list, in directory order.
  for (let i = nRecs; i < nDense; i++) {
    const r = dir(i) & DIR_SLOT_MASK;
    page[r - REC_N_NEW_EXTRA_BYTES] = 0;
    setNext(page, r, i + 1 < nDense ? dir(i + 1) & DIR_SLOT_MASK : 0);
  }
}

/**
 * CRC-32C checksum of a compressed page. Both algorithms cover the same three ranges: the page number
 * and prev/next pointers, the page type, and everything from the space id on (the LSN and flush LSN
 * fields are left out).
 */
export function zipPageCrc32(zip: Uint8Array): number {
  return (crc32c(zip, FIL_PAGE_OFFSET, FIL_PAGE_LSN) ^ crc32c(zip, FIL_PAGE_TYPE, FIL_PAGE_TYPE + 2) ^ crc32c(zip, FIL_PAGE_SPACE_ID, zip.length)) >>> 0;
}

/** The checksum a ROW_FORMAT=COMPRESSED page carries (page_zip_calc_checksum); stored in bytes 0-3 only. */
export function verifyZipPage(zip: Uint8Array): ChecksumResult {
  const stored = u32(zip, 0);
  const size = zip.length;
  if (stored === 0xdeadbeef) return 'none';
  if (stored === zipPageCrc32(zip)) return 'crc32';
  let adler = adler32(zip, FIL_PAGE_OFFSET, FIL_PAGE_LSN, 0);
  adler = adler32(zip, FIL_PAGE_TYPE, FIL_PAGE_TYPE + 2, adler);
  adler = adler32(zip, FIL_PAGE_SPACE_ID, size, adler);
  if (stored === adler) return 'innodb';
  return isAllZero(zip) ? 'empty' : 'bad';
}

/** Page types whose pages are stored compressed in a ROW_FORMAT=COMPRESSED tablespace. */
export function isZipIndexType(type: number): boolean {
  return type === 17855 || type === 17854 || type === 17853; // INDEX, RTREE, SDI
}
