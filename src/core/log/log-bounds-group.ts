/**
 * The bounds of a log group ib_logfile0, ib_logfile1 … (every server before MariaDB 10.8 and MySQL
 * 8.0.30): files of one size, each a 2048-byte header then log blocks, the data of file k+1 following
 * that of file k and the last wrapping round to the first. ib_logfile0's header names the format and
 * its creator, and holds two checkpoint blocks (512, 1536), written in turn: the valid one with the
 * higher LSN is the checkpoint. How a checkpoint is laid out and checked differs by format:
 *  - MySQL 5.6 / MariaDB ≤ 10.1 (format 0): two fold checksums at 288 and 292, the offset's halves
 *    at 16 and 304; blocks with the 5.6 sum (or CRC-32C, or none);
 *  - MySQL 5.7, 8.0 before 8.0.30 (formats 1–5), MariaDB 10.2–10.7 (1, 103, 104, 10.5's "PHYS"):
 *    checkpoint number, LSN, and the byte offset in the group where that LSN is (LOG_CHECKPOINT_OFFSET,
 *    "used for calibration of lsn and offset calculations"), under a CRC-32C block checksum (or
 *    MySQL's none marker).
 */
import { IbdError } from '../errors.ts';
import { fold } from '../pages/checksum.ts';
import { u32 } from '../pages/fil-header.ts';
import type { ByteSource } from '../tablespace/source.ts';
import { blockChecksum, CHECKPOINT_BLOCKS, creatorOf, LOG_BLOCK, LOG_FILE_HEADER, scanBlocks, u64n, type BlockChecksum, type BlockLocator } from './log-bounds-blocks.ts';
import type { RedoLogBounds } from './log-types.ts';

/** log_t::FORMAT_ENCRYPTED: MariaDB's innodb_encrypt_log bit of the format. */
const MARIADB_ENCRYPTED = 0x80000000;
/** MariaDB 10.5's physical log (FORMAT_10_5, "PHYS"). */
export const FORMAT_MARIADB_10_5 = 0x50485953;
/** MySQL 8.0's redo encryption block (LOG_ENCRYPTION, block 2) starts with one of these magics. */
const ENCRYPTION_MAGICS = ['lCA', 'lCB', 'lCC'];
/** MySQL 5.6 checkpoint: fold checksums and the offset's high half (log0log.h of 5.6). */
const CHECKSUM_1 = 288;
const CHECKSUM_2 = 292;
const OFFSET_HIGH32 = 304;

/** MySQL's redo encryption (innodb_redo_log_encrypt): the key's block after the first checkpoint (LOG_ENCRYPTION). */
export function hasEncryptionBlock(header: Uint8Array): boolean {
  return ENCRYPTION_MAGICS.includes(String.fromCharCode(...header.subarray(2 * LOG_BLOCK, 2 * LOG_BLOCK + 3)));
}

/** The checkpoint layouts this module reads: 5.6's, and the one with a checksummed block after it. */
type Family = 'mysql-5.6' | 'offset';

interface GroupFormat {
  name: string;
  family: Family;
  /** MariaDB's encryption bit of the format; MySQL says it in the encryption block instead. */
  encrypted: boolean;
  mysql: boolean;
  checksums: readonly BlockChecksum[];
}

/** The format a group's header names, or null when this module does not read it. */
export function groupFormat(header: Uint8Array): GroupFormat | null {
  const format = u32(header, 0);
  const creator = creatorOf(header);
  const plain = (format & ~MARIADB_ENCRYPTED) >>> 0;
  const encrypted = (format & MARIADB_ENCRYPTED) !== 0;
  const mariadb = (name: string): GroupFormat => ({ name, family: 'offset', encrypted, mysql: false, checksums: ['crc32'] });
  if (plain === FORMAT_MARIADB_10_5) return mariadb('MariaDB 10.5');
  if (plain === 104) return mariadb('MariaDB 10.4');
  if (plain === 103) return mariadb('MariaDB 10.3');
  if (format === 1) {
    return creator.startsWith('MariaDB') ? mariadb('MariaDB 10.2') : { name: 'MySQL 5.7', family: 'offset', encrypted: false, mysql: true, checksums: ['crc32', 'none'] };
  }
  if (format >= 2 && format <= 5) return { name: 'MySQL 8.0', family: 'offset', encrypted: false, mysql: true, checksums: ['crc32', 'none'] };
  if (format === 0) return { name: 'MySQL 5.6 or MariaDB 10.1', family: 'mysql-5.6', encrypted: false, mysql: true, checksums: ['innodb', 'crc32', 'none'] };
  return null;
}

/** A checkpoint: its LSN, and the byte offset of that LSN in the group, headers counted. */
interface Checkpoint {
  lsn: number;
  offset: number;
}

function readCheckpoint(block: Uint8Array, format: GroupFormat): Checkpoint | null {
  if (format.family === 'mysql-5.6') {
    if (u32(block, CHECKSUM_1) !== fold(block, 0, CHECKSUM_1)) return null;
    if (u32(block, CHECKSUM_2) !== fold(block, 8, CHECKSUM_2)) return null;
    return { lsn: u64n(block, 8), offset: u32(block, OFFSET_HIGH32) * 0x1_0000_0000 + u32(block, 16) };
  }
  // Checkpoints are always CRC-32C (recv_check_log_header_checksum), whatever the blocks carry.
  if (blockChecksum(block, ['crc32']) === null) return null;
  return { lsn: u64n(block, 8), offset: u64n(block, 16) };
}

/** The group's files in order: ib_logfile0, ib_logfile1 … (by the number in their names). */
function ordered(files: readonly ByteSource[]): ByteSource[] {
  const no = (f: ByteSource) => Number(/(\d+)$/.exec(f.name)?.[1] ?? 0);
  return [...files].sort((a, b) => no(a) - no(b));
}

/** A group's geometry: where an LSN is, from one LSN whose byte offset in the group is known. */
function groupLocator(files: readonly ByteSource[], fileSize: number, anchorLsn: number, anchorOffset: number): { locate: BlockLocator; capacity: number } {
  const perFile = fileSize - LOG_FILE_HEADER;
  const capacity = files.length * perFile;
  // The anchor's offset among the data bytes alone, the headers left out.
  const anchorData = Math.floor(anchorOffset / fileSize) * perFile + (anchorOffset % fileSize) - LOG_FILE_HEADER;
  const locate: BlockLocator = (lsn) => {
    const data = (((anchorData + lsn - anchorLsn) % capacity) + capacity) % capacity;
    return { file: files[Math.floor(data / perFile)], offset: LOG_FILE_HEADER + (data % perFile) };
  };
  return { locate, capacity };
}

/** The bounds of a log group whose first file's header (2048 bytes) is `head`; null when it is not a format read here. */
export async function groupBounds(group: readonly ByteSource[], head: Uint8Array): Promise<RedoLogBounds | null> {
  const format = groupFormat(head);
  if (format === null) return null;
  const files = ordered(group);
  const fileSize = files[0].size;
  const odd = files.find((f) => f.size !== fileSize);
  if (odd) throw new IbdError(odd.name, `the log files differ in size (${files[0].name} ${fileSize} bytes, ${odd.name} ${odd.size}): they are not one log group`, null);
  let checkpoint: Checkpoint | null = null;
  for (const at of CHECKPOINT_BLOCKS) {
    const found = readCheckpoint(head.subarray(at, at + LOG_BLOCK), format);
    if (found && (checkpoint === null || found.lsn > checkpoint.lsn)) checkpoint = found;
  }
  if (checkpoint === null) {
    throw new IbdError(files[0].name, `neither checkpoint block (bytes 512 and 1536) of this ${format.name} log passes its checksum: where recovery would start is unknown`, null);
  }
  if (checkpoint.offset % fileSize < LOG_FILE_HEADER || checkpoint.offset >= files.length * fileSize) {
    throw new IbdError(files[0].name, `the checkpoint places LSN ${checkpoint.lsn} at byte ${checkpoint.offset} of the group, outside the data of its ${files.length} files of ${fileSize} bytes: a log file is missing, or the checkpoint is damaged`, null);
  }
  const { locate, capacity } = groupLocator(files, fileSize, checkpoint.lsn, checkpoint.offset);
  const scan = await scanBlocks(checkpoint.lsn, capacity, locate, format.checksums);
  return {
    format: format.name,
    creator: creatorOf(head),
    checkpointLsn: checkpoint.lsn,
    endLsn: scan.endLsn,
    encrypted: format.encrypted || (format.mysql && hasEncryptionBlock(head)) || scan.encryptedBlocks,
  };
}
