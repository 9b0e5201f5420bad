/**
 * The redo log of a dropped datadir as the page hands it to every decoder worker (`useDatadirLog` of
 * decoder-api.ts; redo-sources.ts reads with it): the log, the datadir's ibdata1 for its doublewrite
 * buffer, which of the files sent later are the datadir's, and whether to apply the log at all. Types
 * and the file key only: the page and the worker both import it.
 */
import type { EncryptionKeys } from '../src/core/tablespace/encryption.ts';
import type { NamedBlob } from './schema-api.ts';

export interface DatadirLog {
  /** ib_logfile0 (MariaDB 10.8+'s is applied; another format's bounds are read from it and `more`). */
  log: NamedBlob;
  /** The log's other files (ib_logfile1 …, MySQL 8.0.30+'s other #ib_redoN). */
  more: NamedBlob[];
  /** The datadir's ibdata1 (its data files joined): its doublewrite buffer restores pages torn by the crash. */
  system: NamedBlob | null;
  /** MySQL 8.0.20+'s doublewrite files (`#ib_16384_0.dblwr` …): where given, their buffer restores torn pages, not ibdata1's. */
  doublewrite: NamedBlob[];
  /** The undo tablespaces (undo001 …): with ibdata1, the undo logs of the transactions active at the crash, rolled back. */
  undo: NamedBlob[];
  /** fileKey of every table file of the datadir: only these are read through the log. */
  members: string[];
  /** The pages are read as they are on disk (the CLI's --as-on-disk): the log only says what it would change. */
  asOnDisk: boolean;
  /** The keys given so far: key 1 of an encrypted log (innodb_encrypt_log), those of encrypted system and undo tablespaces. */
  keys: EncryptionKeys;
}

/**
 * What tells a file sent to a worker from others: a Blob arrives as a new object with every message,
 * so its name, size and (a File's) time stand for it.
 */
export function fileKey(blob: Blob, name: string): string {
  return `${name}\0${blob.size}\0${blob instanceof File ? blob.lastModified : ''}`;
}

/**
 * What tells a datadir's log census from others: the log's fileKey and, for an encrypted log, key 1
 * given (a census is taken with it; one taken before the key file came is taken again after).
 */
export function censusKey({ log, keys }: DatadirLog): string {
  const key1 = keys.mariadb?.get(1);
  return `${fileKey(log.blob, log.name)}\0${key1 === undefined ? '' : Array.from(key1, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** What the log did to the table a worker opened, for the page to say (from recoveryLines). */
export interface RedoNotice {
  /** The table's file, as the lines name it. */
  file: string;
  /** The datadir was not shut down cleanly (false: the log says it was, and the file is read as it is). */
  unclean: boolean;
  /** The log was applied to the file's pages (false: as on disk, or it cannot be). */
  applied: boolean;
  /** The transactions active at the crash that were rolled back in this read (by id): the page says what each changed in the table once its rows are counted. */
  rolledBack: number[];
  /** Rows may be stale: the log changes pages of the file but is not applied, or some of its pages failed. */
  stale: boolean;
  /** The lines that say it, as the CLI does. */
  lines: string[];
}
