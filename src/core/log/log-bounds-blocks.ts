/**
 * The 512-byte log blocks of every redo log before MariaDB 10.8 (log0log.h, log0constants.h): a
 * 12-byte header (block number, bytes used, first record group, checkpoint or epoch number), the
 * records, and a 4-byte checksum. An LSN counts every byte of every block, headers included, so the
 * block an LSN falls in and its number follow from the LSN alone. Where the log ends is where
 * recovery's scan stops (recv_scan_log_recs): the first block that is not the one expected there
 * (a block of an earlier lap), fails its checksum, or is not full.
 */
import { crc32c } from '../pages/checksum.ts';
import { u16, u32 } from '../pages/fil-header.ts';
import type { ByteSource } from '../tablespace/source.ts';

export const LOG_BLOCK = 512;
/** LOG_FILE_HDR_SIZE: the header, two checkpoint blocks and the encryption block before the data of a file. */
export const LOG_FILE_HEADER = 2048;
/** The checkpoint blocks of the first (or each) log file. */
export const CHECKPOINT_BLOCKS = [512, 1536];
/** LOG_BLOCK_HDR_SIZE. */
const BLOCK_HEADER = 12;
/** LOG_BLOCK_CHECKSUM: the trailer. */
const BLOCK_CHECKSUM = LOG_BLOCK - 4;
/** LOG_NO_CHECKSUM_MAGIC: innodb_log_checksums=OFF. */
const NO_CHECKSUM = 0xdeadbeef;
/** Bytes read at once while scanning. */
const SCAN_READ = 1 << 16;

/** A block checksum algorithm a server writes: CRC-32C (5.7+, MariaDB 10.2+), the 5.6 sum, or none. */
export type BlockChecksum = 'crc32' | 'innodb' | 'none';

/** The checksum of a 5.6 log block (log_block_calc_checksum_innodb): a shifted byte sum. */
function innodbBlockChecksum(b: Uint8Array): number {
  let sum = 1;
  let shift = 0;
  for (let i = 0; i < BLOCK_CHECKSUM; i++) {
    const x = b[i];
    sum = (sum & 0x7fffffff) + x + x * 2 ** shift;
    shift = shift === 24 ? 0 : shift + 1;
  }
  return sum % 2 ** 32;
}

/** Which of `accepted` the block's trailer matches, or null. */
export function blockChecksum(block: Uint8Array, accepted: readonly BlockChecksum[]): BlockChecksum | null {
  const stored = u32(block, BLOCK_CHECKSUM);
  for (const algo of accepted) {
    if (algo === 'crc32' && stored === crc32c(block, 0, BLOCK_CHECKSUM)) return algo;
    if (algo === 'none' && stored === NO_CHECKSUM) return algo;
    if (algo === 'innodb' && stored === innodbBlockChecksum(block)) return algo;
  }
  return null;
}

/** log_block_convert_lsn_to_no(): the number the block holding `lsn` carries. */
export function blockNumber(lsn: number): number {
  return (Math.floor(lsn / LOG_BLOCK) % 0x40000000) + 1;
}

/** The 64-bit big-endian field at `at` as a number (LSNs stay below 2^53). */
export function u64n(b: Uint8Array, at: number): number {
  return u32(b, at) * 0x1_0000_0000 + u32(b, at + 4);
}

/** The creator string of a log file header (32 bytes at 16), up to its first NUL. */
export function creatorOf(header: Uint8Array): string {
  let end = 16;
  while (end < 48 && header[end] !== 0) end++;
  return String.fromCharCode(...header.subarray(16, end)).trim();
}

/** Where the block that starts at an LSN is: a file and a byte offset, or null past what the files hold. */
export type BlockLocator = (lsn: number) => { file: ByteSource; offset: number } | null;

/** Reads blocks through a locator, a run of SCAN_READ bytes of one file at a time. */
class BlockReader {
  #file: ByteSource | null = null;
  #from = 0;
  #bytes: Uint8Array = new Uint8Array(0);

  constructor(private readonly locate: BlockLocator) {}

  async block(lsn: number): Promise<Uint8Array | null> {
    const at = this.locate(lsn);
    if (at === null || at.offset + LOG_BLOCK > at.file.size) return null;
    const inRun = at.file === this.#file && at.offset >= this.#from && at.offset + LOG_BLOCK <= this.#from + this.#bytes.length;
    if (!inRun) {
      this.#file = at.file;
      this.#from = at.offset;
      this.#bytes = await at.file.read(at.offset, SCAN_READ);
    }
    return this.#bytes.subarray(at.offset - this.#from, at.offset - this.#from + LOG_BLOCK);
  }
}

/** What the scan from a checkpoint found. */
export interface ScanResult {
  /** The end of the last valid block's bytes (data_len), never before the checkpoint. */
  endLsn: number;
  /** A block's data length had the 8.0 encryption bit set (LOG_BLOCK_ENCRYPT_BIT_MASK). */
  encryptedBlocks: boolean;
}

/**
 * Scans the blocks from the one holding `checkpointLsn` on, at most `capacity` bytes (the whole log
 * once round), and returns where the valid blocks end.
 */
export async function scanBlocks(checkpointLsn: number, capacity: number, locate: BlockLocator, accepted: readonly BlockChecksum[]): Promise<ScanResult> {
  const reader = new BlockReader(locate);
  const first = checkpointLsn - (checkpointLsn % LOG_BLOCK);
  let endLsn = checkpointLsn;
  let encryptedBlocks = false;
  for (let lsn = first; lsn < first + capacity; lsn += LOG_BLOCK) {
    const block = await reader.block(lsn);
    if (block === null) break;
    if ((u32(block, 0) & 0x7fffffff) !== blockNumber(lsn)) break;
    if (blockChecksum(block, accepted) === null) break;
    const field = u16(block, 4);
    encryptedBlocks ||= (field & 0x8000) !== 0;
    const used = field & 0x7fff;
    if (used < BLOCK_HEADER || used > LOG_BLOCK) break;
    endLsn = Math.max(endLsn, lsn + used);
    if (used < LOG_BLOCK) break;
  }
  return { endLsn, encryptedBlocks };
}
