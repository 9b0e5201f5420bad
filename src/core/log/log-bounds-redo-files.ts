/**
 * The bounds of MySQL 8.0.30+'s redo log (log0files_*.cc, log0constants.h): files `#innodb_redo/#ib_redoN`,
 * N growing, each a 2048-byte header then 512-byte blocks that run on from the LSN its header names
 * (LOG_HEADER_START_LSN): file N holds [start, start + size − 2048), and the next file starts where it
 * ends; files are dropped from the front once a checkpoint passes them, never wrapped. Each file has
 * its two checkpoint blocks (LSN at 8, CRC-32C at 508); the newest valid one over all files is the
 * checkpoint. Spare files (`#ib_redoN_tmp`) hold nothing yet.
 */
import { IbdError } from '../errors.ts';
import { u32 } from '../pages/fil-header.ts';
import type { ByteSource } from '../tablespace/source.ts';
import { blockChecksum, CHECKPOINT_BLOCKS, creatorOf, LOG_BLOCK, LOG_FILE_HEADER, scanBlocks, u64n, type BlockChecksum, type BlockLocator } from './log-bounds-blocks.ts';
import { hasEncryptionBlock } from './log-bounds-group.ts';
import type { RedoLogBounds } from './log-types.ts';

/** Log_format::VERSION_8_0_30 (and 8.0.28's 5, which some 8.0.30 tools write into the new files). */
const FORMATS = new Set([5, 6]);
/** LOG_HEADER_FLAGS and its bits (bit n is 1 << (n - 1)): redo logging was disabled, the server then is not crash-safe. */
const HEADER_FLAGS = 48;
const FLAG_CRASH_UNSAFE = 1 << 1;
const FLAG_NOT_INITIALIZED = 1 << 2;
/** Data blocks: CRC-32C, or the none marker with innodb_log_checksums=OFF; headers and checkpoints are always CRC-32C. */
const CHECKSUMS: readonly BlockChecksum[] = ['crc32', 'none'];

/** A redo file of the new layout by its name (`#ib_redo12`), spares (`_tmp`) left out. */
export function redoFileNumber(name: string): number | null {
  const m = /#ib_redo(\d+)$/.exec(name);
  return m === null ? null : Number(m[1]);
}

interface RedoFile {
  file: ByteSource;
  startLsn: number;
  endLsn: number;
  header: Uint8Array;
}

async function readFile(file: ByteSource): Promise<RedoFile> {
  if (file.size < LOG_FILE_HEADER) throw new IbdError(file.name, `the redo file is ${file.size} bytes, shorter than its ${LOG_FILE_HEADER}-byte header: it is cut`, null);
  const header = await file.read(0, LOG_FILE_HEADER);
  const format = u32(header, 0);
  if (!FORMATS.has(format)) throw new IbdError(file.name, `a #ib_redo file whose format is ${format}, not MySQL 8.0.30's 6`, null);
  if (blockChecksum(header.subarray(0, LOG_BLOCK), ['crc32']) === null) throw new IbdError(file.name, 'the redo file header fails its checksum: the LSN its data starts at is unknown', null);
  const flags = u32(header, HEADER_FLAGS);
  if (flags & FLAG_NOT_INITIALIZED) throw new IbdError(file.name, 'the redo log says the data directory was never fully initialized (LOG_HEADER_FLAG_NOT_INITIALIZED): there is nothing to recover', null);
  if (flags & FLAG_CRASH_UNSAFE) {
    throw new IbdError(file.name, 'redo logging was disabled (ALTER INSTANCE DISABLE INNODB REDO_LOG) when the server stopped: the log cannot bring the data files to a consistent state', null);
  }
  const startLsn = u64n(header, 8);
  return { file, startLsn, endLsn: startLsn + file.size - LOG_FILE_HEADER, header };
}

/** The bounds of the redo files given (the `#ib_redoN` of `#innodb_redo`, in any order). */
export async function redoFilesBounds(given: readonly ByteSource[]): Promise<RedoLogBounds> {
  const named = given.filter((f) => redoFileNumber(f.name) !== null).sort((a, b) => (redoFileNumber(a.name) ?? 0) - (redoFileNumber(b.name) ?? 0));
  if (named.length === 0) throw new IbdError(given[0]?.name ?? '#innodb_redo', 'no #ib_redoN file among the redo files given', null);
  const files: RedoFile[] = [];
  for (const f of named) files.push(await readFile(f));
  let checkpointLsn = -1;
  for (const { header } of files) {
    for (const at of CHECKPOINT_BLOCKS) {
      const block = header.subarray(at, at + LOG_BLOCK);
      if (blockChecksum(block, ['crc32']) !== null) checkpointLsn = Math.max(checkpointLsn, u64n(block, 8));
    }
  }
  if (checkpointLsn < 0) throw new IbdError(files[0].file.name, 'no checkpoint block of the redo files passes its checksum: where recovery would start is unknown', null);
  const holder = files.find((f) => f.startLsn <= checkpointLsn && checkpointLsn < f.endLsn);
  if (holder === undefined) {
    throw new IbdError(files[0].file.name, `no redo file holds the checkpoint LSN ${checkpointLsn} (the files hold ${files.map((f) => `${f.startLsn}-${f.endLsn}`).join(', ')}): a file is missing`, null);
  }
  const locate: BlockLocator = (lsn) => {
    const f = files.find((x) => x.startLsn <= lsn && lsn < x.endLsn);
    return f ? { file: f.file, offset: LOG_FILE_HEADER + (lsn - f.startLsn) } : null;
  };
  const capacity = files.reduce((n, f) => n + f.endLsn - f.startLsn, 0);
  const scan = await scanBlocks(checkpointLsn, capacity, locate, CHECKSUMS);
  return {
    format: 'MySQL 8.0.30+',
    creator: creatorOf(holder.header),
    checkpointLsn,
    endLsn: scan.endLsn,
    encrypted: files.some((f) => hasEncryptionBlock(f.header)) || scan.encryptedBlocks,
  };
}
