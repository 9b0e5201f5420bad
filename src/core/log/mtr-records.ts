/**
 * One mini-transaction of a MariaDB 10.8+ redo log (mtr0types.h, mtr0log.h; recv_sys_t::parse): its
 * records, then a termination byte (the sequence bit), an 8-byte nonce if the log is encrypted, and
 * the CRC-32C of the records (and nonce). Each record: a first byte (bit 7 same_page, bits 6..4 the
 * type, bits 3..0 the length or 0 for a longer one that follows), the page identifier (tablespace
 * id and page number, variable-length integers) unless same_page, then the type's body.
 */
import { crc32c } from '../pages/checksum.ts';
import { u32 } from '../pages/fil-header.ts';
import type { LogArea } from './log-file.ts';

/** Record types (mrec_type_t), in bits 6..4 of the first byte. */
export const FREE_PAGE = 0x00;
export const INIT_PAGE = 0x10;
export const EXTENDED = 0x20;
export const WRITE = 0x30;
export const MEMSET = 0x40;
export const MEMMOVE = 0x50;
export const RESERVED = 0x60;
export const OPTION = 0x70;
/** File-level records (mfile_type_t): same_page set on the first record of a mini-transaction. */
export const FILE_CREATE = 0x80;
export const FILE_DELETE = 0x90;
export const FILE_RENAME = 0xa0;
export const FILE_MODIFY = 0xb0;
export const FILE_CHECKPOINT = 0xf0;

/** The longest mini-transaction the server parses (recv_sys_t::MTR_SIZE_MAX). */
const MTR_SIZE_MAX = 1 << 20;
/** Bytes first read for a mini-transaction; most are far shorter. */
const FIRST_READ = 1 << 16;

/** The bytes a variable-length integer takes, from its first byte (mlog_decode_varint_length). */
export function varintLength(first: number): number {
  let len = 1;
  for (let b = first; b & 0x80; b = (b << 1) & 0xff) len++;
  return len;
}

/** A variable-length integer at b[at] (mlog_decode_varint), or -1 where it is malformed. */
export function varint(b: Uint8Array, at: number): number {
  const i = b[at];
  if (i < 0x80) return i;
  if (i < 0xc0) return 0x80 + (((i & 0x3f) << 8) | b[at + 1]);
  if (i < 0xe0) return 0x4080 + (((i & 0x1f) << 16) | (b[at + 1] << 8) | b[at + 2]);
  if (i < 0xf0) return 0x204080 + ((i & 0x0f) * 0x1000000 + ((b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]));
  if (i === 0xf0) {
    const v = u32(b, at + 1);
    if (v <= 0xefdfbf7f) return 0x10204080 + v;
  }
  return -1;
}

/**
 * A mini-transaction found at `startLsn`: its records' bytes (up to the termination byte) and where
 * the next begins. Its records are `bytes[from, to)`, a window of the log area valid until its next
 * read; the scan reuses one for every mini-transaction (no object or view for each of millions).
 */
export class Mtr {
  startLsn = 0;
  endLsn = 0;
  bytes: Uint8Array = new Uint8Array(0);
  from = 0;
  to = 0;
  encrypted = false;

  /** Its records, as a view. */
  get records(): Uint8Array {
    return this.bytes.subarray(this.from, this.to);
  }

  /** The 8-byte nonce after the termination byte of an encrypted log's mini-transaction (a view too), or null. */
  get nonce(): Uint8Array | null {
    return this.encrypted ? this.bytes.subarray(this.to + 1, this.to + 9) : null;
  }
}

/**
 * The mini-transaction at `lsn`, or null where the log ends there: a zero byte, a termination byte
 * of the previous pass over the circular area, a CRC-32C that does not match, or one cut short.
 */
export async function readMtr(area: LogArea, lsn: number, encrypted: boolean): Promise<Mtr | null> {
  const found = peekMtr(area, lsn, encrypted, new Mtr());
  if (found !== undefined) return found;
  for (let want = FIRST_READ; ; want *= 4) {
    const length = Math.min(want, area.capacity);
    const out = new Mtr();
    out.startLsn = lsn;
    const got = mtrIn(area, await area.bytes(lsn, length), 0, encrypted, out);
    if (got !== undefined) return got;
    if (length >= area.capacity || want > MTR_SIZE_MAX) return null;
  }
}

/**
 * The mini-transaction at `lsn` as readMtr finds it, described in `out`, without a read: undefined
 * where the window read last does not hold it whole. Most lie in the window the previous one was
 * read from, and the scan takes them so without a promise each (millions of awaits cost more than
 * the CRC-32C).
 */
export function peekMtr(area: LogArea, lsn: number, encrypted: boolean, out: Mtr): Mtr | null | undefined {
  const at = area.peek(lsn);
  if (at < 0) return undefined;
  out.startLsn = lsn;
  return mtrIn(area, area.lastWindow, at, encrypted, out);
}

/**
 * The mini-transaction at LSN `out.startLsn` (given so, not as an argument: a number object for each
 * of millions of calls else) whose bytes from there on `b` holds from `from` on, described in
 * `out`: null where the log ends, undefined where `b` cuts it short.
 */
function mtrIn(area: LogArea, b: Uint8Array, from: number, encrypted: boolean, out: Mtr): Mtr | null | undefined {
  const lsn = out.startLsn;
  const trailer = 1 + (encrypted ? 8 : 0) + 4;
  const length = b.length;
  if (b[from] <= 1) return null;
  const most = from + MTR_SIZE_MAX;
  let at = from;
  while (at < length && b[at] > 1 && at < most) at = recordEnd(b, at, length);
  if (at >= most || at < 0) return null;
  if (at + trailer > length) return undefined;
  if (b[at] !== area.sequenceBit(lsn + at - from)) return null;
  // An encrypted log's nonce is covered too: CRC-32C over the records, then on over the nonce.
  const crc = encrypted ? crcWithNonce(b, from, at) : crc32c(b, from, at);
  if (crc !== u32(b, at + 1 + (encrypted ? 8 : 0))) return null;
  out.endLsn = lsn + at - from + trailer;
  out.bytes = b;
  out.from = from;
  out.to = at;
  out.encrypted = encrypted;
  return out;
}

/** The CRC-32C of the records and the nonce after the termination byte (how an encrypted mini-transaction is summed). */
function crcWithNonce(b: Uint8Array, from: number, at: number): number {
  const joined = new Uint8Array(at - from + 8);
  joined.set(b.subarray(from, at), 0);
  joined.set(b.subarray(at + 1, at + 9), at - from);
  return crc32c(joined, 0, joined.length);
}

/**
 * Where the record at b[at] ends (its first byte and length bytes included): the one walk of the
 * type-and-length bytes, which every reader of records shares (the scan, the walker, the decryption
 * of an encrypted log's bodies). -1 where the length is malformed; past `length` where the record,
 * or its length bytes, run beyond it (the caller reads more, or refuses the mini-transaction).
 */
export function recordEnd(b: Uint8Array, at: number, length = b.length): number {
  const rlen = b[at] & 0x0f;
  if (rlen !== 0) return at + 1 + rlen;
  const p = at + 1;
  if (p >= length || p + varintLength(b[p]) > length) return length + 1;
  const add = varint(b, p);
  return add < 0 || add >= MTR_SIZE_MAX ? -1 : p + add + 15;
}

/** Where the body of the record at b[at] begins: after its first byte and its length bytes, if any. */
export function recordBodyAt(b: Uint8Array, at: number): number {
  return b[at] & 0x0f ? at + 1 : at + 1 + varintLength(b[at + 1]);
}

/**
 * Walks the records of one mini-transaction, keeping the page each refers to (same_page records
 * refer to the one before). No object per record: the walker's fields describe the current one.
 */
export class MtrRecords {
  /** The record's first byte. */
  first = 0;
  /** Its type: `first & 0x70` for a page record, `first & 0xf0` for a file record. */
  type = 0;
  /** A file-level record (FILE_CREATE …), not one of a page. */
  isFile = false;
  /** The record carries its page identifier (not same_page): the offsets of its body start from 0. */
  hasPageId = false;
  spaceId = 0;
  pageNo = 0;
  /** Its body: records[bodyAt, bodyAt + bodyLength). */
  bodyAt = 0;
  bodyLength = 0;
  /** Set when a record cannot be parsed: the rest of the mini-transaction is not read. */
  malformed = false;
  /** Where the current record begins, and where it ends (the next one begins). */
  recordAt = 0;
  at = 0;
  private end: number;
  private gotPageOp = false;

  constructor(public records: Uint8Array) {
    this.end = records.length;
  }

  /**
   * Walks `records[from, to)` instead, without a new walker per mini-transaction (the scan's and the
   * apply's hot loops): a whole mini-transaction, or one page's run of records within one.
   */
  reset(records: Uint8Array, from = 0, to = records.length): this {
    this.records = records;
    this.at = from;
    this.end = to;
    this.malformed = false;
    this.gotPageOp = false;
    return this;
  }

  /** Moves to the next record; false at the end. */
  next(): boolean {
    const b = this.records;
    if (this.malformed || this.at >= this.end) return false;
    this.recordAt = this.at;
    const first = b[this.at];
    const end = recordEnd(b, this.at, this.end);
    if (end < 0 || end > this.end) return this.fail();
    let p = recordBodyAt(b, this.at);
    let rlen = end - p;
    this.at = end;
    this.first = first;
    if (first & 0x80 && this.gotPageOp) {
      this.setPageRecord(first, false, p, rlen);
      return true;
    }
    const idLength = varintLength(b[p]);
    if (idLength > 5 || idLength >= rlen) {
      // A FILE_CHECKPOINT of padding, or a corrupted page identifier.
      if (b[p] === 0 && first === FILE_CHECKPOINT + 1) return this.next();
      return this.fail();
    }
    const space = varint(b, p);
    p += idLength;
    const pageLength = varintLength(b[p]);
    const page = varint(b, p);
    if (space < 0 || page < 0 || pageLength > 5 || pageLength > rlen - idLength) return this.fail();
    this.spaceId = space;
    this.pageNo = page;
    p += pageLength;
    rlen -= idLength + pageLength;
    this.gotPageOp = (first & 0x80) === 0;
    if (this.gotPageOp) this.setPageRecord(first, true, p, rlen);
    else {
      this.isFile = true;
      this.hasPageId = true;
      this.type = first & 0xf0;
      this.bodyAt = p;
      this.bodyLength = rlen;
    }
    return true;
  }

  private setPageRecord(first: number, hasPageId: boolean, at: number, length: number): void {
    this.isFile = false;
    this.hasPageId = hasPageId;
    this.type = first & 0x70;
    this.bodyAt = at;
    this.bodyLength = length;
  }

  private fail(): boolean {
    this.malformed = true;
    return false;
  }
}
