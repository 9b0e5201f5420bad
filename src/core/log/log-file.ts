/**
 * MariaDB 10.8+'s redo log file, ib_logfile0 (log0log.h, log0recv.cc recv_sys_t::find_checkpoint):
 * a 512-byte header block (format 'Phys', first LSN, creator, CRC-32C), two 64-byte checkpoint
 * blocks at 4096 and 8192 (checkpoint LSN, end LSN, CRC-32C), and from 12288 to the end of the file
 * a circular buffer of mini-transactions: LSN `lsn` is at 12288 + (lsn - firstLsn) mod capacity.
 * Read by ranges through a ByteSource, a few windows of it kept, never the whole file.
 */
import { crc32c } from '../pages/checksum.ts';
import { u32 } from '../pages/fil-header.ts';
import type { ByteSource } from '../tablespace/source.ts';
import type { RedoLogBounds } from './log-types.ts';

/** log_t::FORMAT_10_8: 'Phys'. */
export const FORMAT_10_8 = 0x50687973;
/** log_t::FORMAT_ENC_11: the encrypted format of MariaDB 10.11.x and 11.x on (log-crypt.ts). */
export const FORMAT_ENC_11 = 0xf09f979d;
/** The format's flag of an encrypted log (log_t::FORMAT_ENCRYPTED). */
const FORMAT_ENCRYPTED = 0x80000000;
/** Where the circular data area starts (log_t::START_OFFSET). */
export const START_OFFSET = 12288;
const CHECKPOINTS = [4096, 8192];
/** LSNs below this are never used (log_t::FIRST_LSN). */
const FIRST_LSN = 12288;
const CREATOR = 16;
const CREATOR_END = 48;
/** Bytes read at once from the circular area. */
const WINDOW_BYTES = 4 << 20;
/** Windows kept (the apply of one page jumps between several places of the log). */
const WINDOWS_KEPT = 4;

const u64 = (b: Uint8Array, o: number) => u32(b, o) * 0x1_0000_0000 + u32(b, o + 4);

/** What the header and the newest valid checkpoint of an ib_logfile0 say. */
export interface LogHeader {
  firstLsn: number;
  creator: string;
  checkpointLsn: number;
  /** The end LSN written with that checkpoint (where the scan of the log may stop at the earliest). */
  checkpointEndLsn: number;
  encrypted: boolean;
  /**
   * How its mini-transactions are encrypted: 'stream' (FORMAT_ENC_11: each one's record bodies as
   * one stream, log-crypt.ts), 'records' (the 10.8 format's flag: each record's body apart), or null.
   */
  encryption: 'stream' | 'records' | null;
  /** The header block (512 bytes): the encryption information follows the creator. */
  block: Uint8Array;
}

/** Why an ib_logfile0 cannot be read as MariaDB 10.8+'s, in words. */
export class LogFormatError extends Error {
  constructor(
    readonly file: string,
    why: string,
    /** The header's format field, when the file had one: another format's bounds reader takes it (log-bounds-*). */
    readonly format: number | null,
  ) {
    super(`${file}: ${why}`);
  }
}

/** Reads the header block and the checkpoints: throws LogFormatError when this is no 10.8+ log or has no valid checkpoint. */
export async function readLogHeader(source: ByteSource): Promise<LogHeader> {
  if (source.size < START_OFFSET + 512) throw new LogFormatError(source.name, `the file is ${source.size} bytes long, too short for a redo log`, null);
  const head = await source.read(0, START_OFFSET);
  const format = u32(head, 0);
  if ((format & ~FORMAT_ENCRYPTED) >>> 0 !== FORMAT_10_8 && format !== FORMAT_ENC_11) {
    throw new LogFormatError(source.name, `its format ${format.toString(16)} is not MariaDB 10.8+'s ('Phys')`, format);
  }
  if (u32(head, 508) !== crc32c(head, 0, 508)) throw new LogFormatError(source.name, 'its header block fails its CRC-32C', format);
  const firstLsn = u64(head, 8);
  if (u32(head, 4) !== 0 || firstLsn < FIRST_LSN) throw new LogFormatError(source.name, 'its header block is not valid', format);
  const creator = new TextDecoder().decode(head.subarray(CREATOR, CREATOR_END)).replace(/\0[\s\S]*$/, '').trim();
  // The encryption info follows the creator (log_crypt_read_header); a 10.8 log without it is not encrypted.
  const encrypted = (format & FORMAT_ENCRYPTED) !== 0 || u32(head, CREATOR_END) !== 0;
  const encryption = format === FORMAT_ENC_11 ? 'stream' : encrypted ? 'records' : null;
  let best: { checkpointLsn: number; endLsn: number } | null = null;
  for (const at of CHECKPOINTS) {
    const b = head.subarray(at, at + 64);
    const checkpointLsn = u64(b, 0);
    const endLsn = u64(b, 8);
    if (checkpointLsn < firstLsn || endLsn < checkpointLsn || !b.subarray(16, 60).every((x) => x === 0) || crc32c(b, 0, 60) !== u32(b, 60)) continue;
    if (best === null || checkpointLsn >= best.checkpointLsn) best = { checkpointLsn, endLsn };
  }
  if (best === null) throw new LogFormatError(source.name, 'it has no valid checkpoint block', format);
  return { firstLsn, creator, checkpointLsn: best.checkpointLsn, checkpointEndLsn: best.endLsn, encrypted, encryption, block: head.slice(0, 512) };
}

/** The circular data area of an ib_logfile0, read by LSN. */
export class LogArea {
  /** Bytes of the circular area (log_t::capacity()). */
  readonly capacity: number;
  private readonly windows = new Map<number, Uint8Array>();
  private lastAt = -1;
  private last: Uint8Array | null = null;

  constructor(
    readonly source: ByteSource,
    readonly firstLsn: number,
  ) {
    this.capacity = source.size - START_OFFSET;
  }

  /** The file offset of `lsn`. */
  offsetOf(lsn: number): number {
    return START_OFFSET + ((lsn - this.firstLsn) % this.capacity);
  }

  /**
   * The termination marker a mini-transaction ending at `lsn` carries (log_t::get_sequence_bit):
   * it flips with each pass over the circular area, so bytes left from the previous pass end the log.
   */
  sequenceBit(lsn: number): number {
    return (Math.floor((lsn - this.firstLsn) / this.capacity) & 1) ^ 1;
  }

  /**
   * `length` bytes from `lsn` on (length ≤ the area), as one view: read across the end of the area
   * and on from its start where they wrap. Views of a kept window are valid until the next call.
   */
  async bytes(lsn: number, length: number): Promise<Uint8Array> {
    const start = this.offsetOf(lsn);
    const windowStart = start - ((start - START_OFFSET) % WINDOW_BYTES);
    if (start + length <= Math.min(windowStart + WINDOW_BYTES, this.source.size)) {
      const window = await this.window(windowStart);
      return window.subarray(start - windowStart, start - windowStart + length);
    }
    const out = new Uint8Array(length);
    const first = Math.min(length, this.source.size - start);
    out.set(await this.source.read(start, first), 0);
    if (first < length) out.set(await this.source.read(START_OFFSET, length - first), first);
    return out;
  }

  /**
   * Where `lsn` is in the window read last (lastWindow), without a read, or -1 when it is not in it:
   * the scan's fast path, one mini-transaction after another in the same window.
   */
  peek(lsn: number): number {
    if (this.last === null) return -1;
    const start = this.offsetOf(lsn);
    if (start < this.lastAt || start >= this.lastAt + this.last.length) return -1;
    return start - this.lastAt;
  }

  /** The window read last (empty before the first read). */
  get lastWindow(): Uint8Array {
    return this.last ?? new Uint8Array(0);
  }

  /**
   * `length` bytes from `lsn` on, read as they are asked for (no window kept): for the apply of a
   * page, whose mini-transactions lie anywhere in the log, where a window read for each would cost
   * megabytes a record.
   */
  async exact(lsn: number, length: number): Promise<Uint8Array> {
    const start = this.offsetOf(lsn);
    for (const [at, window] of this.windows) {
      if (start >= at && start + length <= at + window.length) return window.subarray(start - at, start - at + length);
    }
    if (start + length <= this.source.size) return this.source.read(start, length);
    return this.bytes(lsn, length);
  }

  private async window(at: number): Promise<Uint8Array> {
    // The scan asks for the same window for thousands of mini-transactions in a row: no LRU move then.
    if (at === this.lastAt && this.last !== null) return this.last;
    let got = this.windows.get(at);
    if (got) {
      this.windows.delete(at);
    } else {
      got = await this.source.read(at, Math.min(WINDOW_BYTES, this.source.size - at));
      if (this.windows.size >= WINDOWS_KEPT) this.windows.delete(this.windows.keys().next().value as number);
    }
    this.windows.set(at, got);
    this.lastAt = at;
    this.last = got;
    return got;
  }
}

/** The bounds of a 10.8+ log: its checkpoint, and the end its scan found. */
export function boundsOf(header: LogHeader, endLsn: number): RedoLogBounds {
  return { format: 'MariaDB 10.8+', creator: header.creator, checkpointLsn: header.checkpointLsn, endLsn, encrypted: header.encrypted };
}
