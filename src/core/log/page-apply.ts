/**
 * The records of one page applied to its frame, as log_phys_t::apply does in the server's recovery:
 * INIT_PAGE (a zeroed page with its identity), WRITE, MEMSET, MEMMOVE (offsets relative to where the
 * previous record of the page ended), EXTENDED (index page create, record insert and delete:
 * index-page-apply.ts; undo page init and append), OPTION (ignored); FREE_PAGE needs no change.
 * ROW_FORMAT=COMPRESSED pages take the byte writes on their compressed frame, as the server's do.
 */
import { u16 } from '../pages/fil-header.ts';
import { copyIn, createIndexPage, deleteDynamic, deleteRedundant, insertDynamic, insertRedundant, type DynamicInsert } from './index-page-apply.ts';
import { EXTENDED, FREE_PAGE, INIT_PAGE, MEMMOVE, MEMSET, OPTION, varint, varintLength, WRITE, type MtrRecords } from './mtr-records.ts';

/** EXTENDED subtypes (mrec_ext_t). */
const INIT_ROW_FORMAT_REDUNDANT = 0;
const INIT_ROW_FORMAT_DYNAMIC = 1;
const UNDO_INIT = 2;
const UNDO_APPEND = 3;
const INSERT_HEAP_REDUNDANT = 4;
const INSERT_REUSE_DYNAMIC = 7;
const DELETE_ROW_FORMAT_REDUNDANT = 8;
const DELETE_ROW_FORMAT_DYNAMIC = 9;
const FIL_PAGE_TYPE = 24;
const FIL_PAGE_UNDO_LOG = 2;
/** TRX_UNDO_PAGE_HDR and its fields, TRX_UNDO_SEG_HDR's end. */
const UNDO_PAGE_HDR = 38;
const UNDO_PAGE_HDR_SIZE = 18;
const UNDO_SEG_HDR_END = UNDO_PAGE_HDR + UNDO_PAGE_HDR_SIZE + 30;

/** One page's state across its records: where the previous record ended (`last_offset`), 1 when the next must name the page. */
export interface ApplyState {
  lastOffset: number;
}

const put16 = (p: Uint8Array, at: number, v: number) => {
  p[at] = (v >>> 8) & 0xff;
  p[at + 1] = v & 0xff;
};

/**
 * Applies the record the walker is on to `frame` (page `pageNo` of space `spaceId`): null when
 * applied or nothing to do, else why it could not be (the page is then not to be trusted).
 */
export function applyRecord(frame: Uint8Array, spaceId: number, pageNo: number, walk: MtrRecords, state: ApplyState): string | null {
  const b = walk.records;
  if (walk.hasPageId) state.lastOffset = 0;
  switch (walk.type) {
    case FREE_PAGE:
      state.lastOffset = 1;
      return null;
    case INIT_PAGE:
      frame.fill(0);
      frame.set([pageNo >>> 24, (pageNo >>> 16) & 0xff, (pageNo >>> 8) & 0xff, pageNo & 0xff], 4);
      frame.fill(0xff, 8, 16);
      frame.set([spaceId >>> 24, (spaceId >>> 16) & 0xff, (spaceId >>> 8) & 0xff, spaceId & 0xff], 34);
      state.lastOffset = FIL_PAGE_TYPE;
      return null;
    case OPTION:
      return null;
    case EXTENDED: {
      const why = extended(frame, pageNo, fields.reset(b, walk.bodyAt, walk.bodyAt + walk.bodyLength));
      state.lastOffset = FIL_PAGE_TYPE;
      return why;
    }
    case WRITE:
    case MEMSET:
    case MEMMOVE:
      return byteRecord(frame, walk, state);
    default:
      return `record type ${walk.type.toString(16)} is not known`;
  }
}

/** WRITE, MEMSET, MEMMOVE: an offset relative to the previous record's end, then bytes, a fill, or a source offset. */
function byteRecord(frame: Uint8Array, walk: MtrRecords, state: ApplyState): string | null {
  const b = walk.records;
  const size = frame.length;
  let at = walk.bodyAt;
  let rlen = walk.bodyLength;
  if (state.lastOffset === 1) return 'a same-page record follows one that ended the page\'s changes';
  const olen = varintLength(b[at]);
  if (olen >= rlen || olen > 3) return 'its offset is malformed';
  const offset = state.lastOffset + varint(b, at);
  if (offset < 8 || offset >= size) return `its offset ${offset} is outside the page`;
  at += olen;
  rlen -= olen;
  if (walk.type === WRITE) {
    if (offset + rlen > size) return 'it writes past the page';
    copyIn(frame, offset, b, at, at + rlen);
    state.lastOffset = offset + rlen;
    return null;
  }
  const llen = varintLength(b[at]);
  if (llen > rlen || llen > 3) return 'its length is malformed';
  const len = varint(b, at);
  if (offset + len > size) return 'it writes past the page';
  at += llen;
  rlen -= llen;
  if (walk.type === MEMSET) {
    if (rlen === 0) return 'it has no byte to fill with';
    // A one-byte fill (most) without a view per byte; a longer pattern repeated.
    if (rlen === 1) frame.fill(b[at], offset, offset + len);
    else for (let s = 0; s < len; s += rlen) frame.set(b.subarray(at, at + Math.min(rlen, len - s)), offset + s);
  } else {
    if (varintLength(b[at]) !== rlen) return 'its source offset is malformed';
    const s = varint(b, at);
    const from = s & 1 ? offset - (s >>> 1) - 1 : offset + (s >>> 1) + 1;
    if (from < 8 || from + len > size) return 'its source is outside the page';
    frame.copyWithin(offset, from, from + len);
  }
  state.lastOffset = offset + len;
  return null;
}

/**
 * Reads the variable-length integers of an EXTENDED record's body (b[from, end), its subtype first)
 * in turn: one reader for every record, over the log's bytes, no view of each body.
 */
class Fields {
  b: Uint8Array = new Uint8Array(0);
  from = 0;
  at = 0;
  end = 0;
  /** Reads the body b[from, end): its subtype is b[from], the integers follow. */
  reset(b: Uint8Array, from: number, end: number): this {
    this.b = b;
    this.from = from;
    this.at = from + 1;
    this.end = end;
    return this;
  }
  /** The body's length, its subtype included. */
  get length(): number {
    return this.end - this.from;
  }
  get subtype(): number {
    return this.b[this.from];
  }
  /** The next integer, or -1 when it takes more than `max` bytes or runs into the last `keep` bytes. */
  next(max: number, keep = 1): number {
    const len = varintLength(this.b[this.at]);
    if (len > max || this.at + len > this.end - keep) return -1;
    const v = varint(this.b, this.at);
    this.at += len;
    return v;
  }
  /** The bytes after those read, as a view. */
  get rest(): Uint8Array {
    return this.b.subarray(this.at, this.end);
  }
  get restLength(): number {
    return this.end - this.at;
  }
}
const fields = new Fields();

/** An EXTENDED record (mrec_ext_t) on a page other than the first three of its file. */
function extended(frame: Uint8Array, pageNo: number, f: Fields): string | null {
  if (f.length === 0) return 'an EXTENDED record without subtype';
  if (pageNo < 3) return 'an EXTENDED record on a tablespace header page';
  const subtype = f.subtype;
  switch (subtype) {
    case INIT_ROW_FORMAT_REDUNDANT:
    case INIT_ROW_FORMAT_DYNAMIC:
      createIndexPage(frame, subtype === INIT_ROW_FORMAT_DYNAMIC);
      return null;
    case UNDO_INIT:
      undoPageInit(frame);
      return null;
    case UNDO_APPEND:
      return f.length <= 3 ? 'an UNDO_APPEND without record' : undoAppend(frame, f.rest);
    case DELETE_ROW_FORMAT_REDUNDANT: {
      const prev = f.next(3, 0);
      return prev < 0 || f.restLength ? 'a malformed delete record' : deleteRedundant(frame, pageNo, prev);
    }
    case DELETE_ROW_FORMAT_DYNAMIC: {
      const prev = f.next(3);
      const hdr = f.next(2);
      const data = f.next(3, 0);
      return prev < 0 || hdr < 0 || data < 0 || f.restLength ? 'a malformed delete record' : deleteDynamic(frame, pageNo, prev, hdr, data);
    }
    default:
      return subtype >= INSERT_HEAP_REDUNDANT && subtype <= INSERT_REUSE_DYNAMIC ? insert(frame, pageNo, subtype, f) : `EXTENDED subtype ${subtype} is not known`;
  }
}

/** The one description of a dynamic insert, filled for each (no object for each of millions). */
const dynamicInsert: DynamicInsert = { reuse: false, prev: 0, shift: 0, encHdrL: 0, hdrC: 0, dataC: 0, log: new Uint8Array(0), from: 0, to: 0 };

/** INSERT_HEAP_/INSERT_REUSE_ REDUNDANT/DYNAMIC: the predecessor, the header's encoding, the bytes shared with the predecessor, the literal bytes. */
function insert(frame: Uint8Array, pageNo: number, subtype: number, f: Fields): string | null {
  const reuse = (subtype & 1) === 1;
  const prev = f.next(3);
  if (prev < 0) return 'a malformed insert record';
  if (subtype & 2) {
    const shift = reuse ? f.next(3) : 0;
    const encHdrL = f.next(3);
    const hdrC = f.next(2);
    const dataC = f.next(3, 0);
    if (shift < 0 || encHdrL < 0 || hdrC < 0 || dataC < 0) return 'a malformed insert record';
    const r = dynamicInsert;
    r.reuse = reuse;
    r.prev = prev;
    r.shift = shift;
    r.encHdrL = encHdrL;
    r.hdrC = hdrC;
    r.dataC = dataC;
    r.log = f.b;
    r.from = f.at;
    r.to = f.end;
    return insertDynamic(frame, pageNo, r);
  }
  const encHdr = f.next(2);
  const hdrC = f.next(2);
  const dataC = f.next(2, 0);
  if (encHdr < 0 || hdrC < 0 || dataC < 0) return 'a malformed insert record';
  return insertRedundant(frame, pageNo, { reuse, prev, encHdr, hdrC, dataC, data: f.rest });
}

/** trx_undo_page_init(): an undo log page, its segment header kept, the rest cleared. */
function undoPageInit(frame: Uint8Array): void {
  put16(frame, FIL_PAGE_TYPE, FIL_PAGE_UNDO_LOG);
  frame.fill(0, UNDO_PAGE_HDR, UNDO_PAGE_HDR + 4);
  put16(frame, UNDO_PAGE_HDR + 2, UNDO_PAGE_HDR + UNDO_PAGE_HDR_SIZE);
  put16(frame, UNDO_PAGE_HDR + 4, UNDO_PAGE_HDR + UNDO_PAGE_HDR_SIZE);
  // The page's list node: no previous, no next page.
  frame.fill(0xff, UNDO_PAGE_HDR + 6, UNDO_PAGE_HDR + 10);
  frame.fill(0, UNDO_PAGE_HDR + 10, UNDO_PAGE_HDR + 12);
  frame.fill(0xff, UNDO_PAGE_HDR + 12, UNDO_PAGE_HDR + 16);
  frame.fill(0, UNDO_PAGE_HDR + 16, UNDO_PAGE_HDR + 18);
  frame.fill(0, UNDO_SEG_HDR_END, frame.length - 8);
}

/** An undo record appended at TRX_UNDO_PAGE_FREE, framed by its next and its start offsets (log_phys_t::undo_append). */
function undoAppend(frame: Uint8Array, data: Uint8Array): string | null {
  const free = u16(frame, UNDO_PAGE_HDR + 4);
  if (free < UNDO_PAGE_HDR + UNDO_PAGE_HDR_SIZE || free + data.length + 6 >= frame.length - 8) return 'the undo record does not fit its page';
  put16(frame, UNDO_PAGE_HDR + 4, free + 4 + data.length);
  put16(frame, free, free + 4 + data.length);
  frame.set(data, free + 2);
  put16(frame, free + 2 + data.length, free);
  return null;
}
