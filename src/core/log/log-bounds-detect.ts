/**
 * Which redo log a datadir has, and its bounds when it is one this layer only measures: given its log
 * files (ib_logfile0 [, ib_logfile1 …], or the `#ib_redoN` of `#innodb_redo`), the format is read from
 * the first file's header (its first 4 bytes, log_t::FORMAT_* and MySQL's Log_format). MariaDB 10.8+
 * logs are applied by the redo module, not measured here: for them the answer is 'mariadb-10.8'.
 */
import { IbdError } from '../errors.ts';
import { isAllZero, u32 } from '../pages/fil-header.ts';
import type { ByteSource } from '../tablespace/source.ts';
import { LOG_FILE_HEADER } from './log-bounds-blocks.ts';
import { groupBounds } from './log-bounds-group.ts';
import { redoFileNumber, redoFilesBounds } from './log-bounds-redo-files.ts';
import type { RedoLogBounds } from './log-types.ts';

/** log_t::FORMAT_10_8 ("Phys"), with or without the encryption bit. */
const FORMAT_MARIADB_10_8 = 0x50687973;
/** The bytes that decide a log never written: MariaDB 10.8's header and both checkpoint blocks end here (12 KiB). */
const FRESH_BYTES = 12288;

/** What a datadir's log files are: bounds read here, a MariaDB 10.8+ log (for the redo module), or a log never written. */
export type RedoLogKind =
  | { kind: 'bounds'; bounds: RedoLogBounds }
  | { kind: 'mariadb-10.8' }
  | { kind: 'empty'; bounds: RedoLogBounds };

/** The first file of the log: ib_logfile0 (the lowest number), else the first given. */
function firstFile(files: readonly ByteSource[]): ByteSource {
  const no = (f: ByteSource) => Number(/ib_logfile(\d+)$/.exec(f.name)?.[1] ?? Infinity);
  return [...files].sort((a, b) => no(a) - no(b))[0];
}

/** Recognises the log of `files` and reads its bounds where it is a format this layer measures. */
export async function readRedoLog(files: readonly ByteSource[]): Promise<RedoLogKind> {
  if (files.length === 0) throw new IbdError('redo log', 'no redo log file given', null);
  if (files.some((f) => redoFileNumber(f.name) !== null)) return { kind: 'bounds', bounds: await redoFilesBounds(files) };
  const first = firstFile(files);
  if (first.size < LOG_FILE_HEADER) {
    throw new IbdError(first.name, `the log file is ${first.size} bytes, shorter than the ${LOG_FILE_HEADER}-byte header every InnoDB log starts with: it is cut`, null);
  }
  const head = await first.read(0, Math.min(first.size, FRESH_BYTES));
  if (isAllZero(head)) {
    // The server writes the header when it creates the log; zeros mean it holds no record at all.
    return { kind: 'empty', bounds: { format: 'never written (all zeros)', creator: '', checkpointLsn: 0, endLsn: 0, encrypted: false } };
  }
  const format = u32(head, 0);
  if ((format & 0x7fffffff) === FORMAT_MARIADB_10_8) return { kind: 'mariadb-10.8' };
  const bounds = await groupBounds(files, head.subarray(0, LOG_FILE_HEADER));
  if (bounds === null) {
    throw new IbdError(first.name, `not an InnoDB redo log: its format field is 0x${format.toString(16).padStart(8, '0')}, which no MySQL or MariaDB server writes`, null);
  }
  return { kind: 'bounds', bounds };
}

/**
 * The bounds of the log of `files`, or null for a MariaDB 10.8+ log (the redo module reads those);
 * a log never written has bounds 0-0. Throws IbdError for what is not a log, or is cut or damaged
 * past reading, saying which.
 */
export async function redoLogBounds(files: readonly ByteSource[]): Promise<RedoLogBounds | null> {
  const found = await readRedoLog(files);
  return found.kind === 'mariadb-10.8' ? null : found.bounds;
}
