/**
 * The redo log among the dropped files (a datadir dropped as a folder): `ib_logfile0` (MariaDB 10.8+,
 * applied; ib_logfile1 … of older servers), or MySQL 8.0.30+'s `#innodb_redo/#ib_redoN`. Its datadir
 * is the folder holding it (the one holding `#innodb_redo`); its table files are those under that
 * folder, and only they are read through the log (redo-sources.ts in the workers). No DOM besides
 * the `File` type: unit-tested in Node.
 */
import { dblwrFilePageSize } from '../../core/log/doublewrite.ts';
import type { EncryptionKeys } from '../../core/tablespace/encryption.ts';
import { fileKey, type DatadirLog } from '../../../workers/redo-api.ts';
import { folderOf, kindOf, type InputFile } from './pairing.ts';

const LOG_NAME = /^(?:ib_logfile|#ib_redo)(\d+)$/;
/** Undo tablespaces: MariaDB's and MySQL 5.6–5.7's undo001 …, MySQL 8's undo_001 … (named as not read). */
const UNDO_NAME = /^undo_?\d{3}$/i;

/** The number of a redo log file (`ib_logfile0` is 0), or null for another file. */
function logNumber(f: InputFile): number | null {
  const m = LOG_NAME.exec(f.path.slice(f.path.lastIndexOf('/') + 1));
  return m === null || f.key ? null : Number(m[1]);
}

/** Whether `f` is a file of a redo log (the page reads it with the datadir's files, not as a table). */
export function isRedoLogFile(f: InputFile): boolean {
  return logNumber(f) !== null;
}

/** Whether `f` is one of MySQL 8.0.20+'s doublewrite files (`#ib_16384_0.dblwr`): read with its datadir's log, not as a table. */
export function isDoublewriteFile(f: InputFile): boolean {
  return !f.key && dblwrFilePageSize(f.path.slice(f.path.lastIndexOf('/') + 1)) !== null;
}

/** The datadir folder of a log file: its own folder, or the one above `#innodb_redo`. */
function datadirOf(f: InputFile): string {
  const folder = folderOf(f.path);
  return folder === '#innodb_redo' || folder.endsWith('/#innodb_redo') ? folderOf(folder) : folder;
}

/** Whether `path` lies in the datadir `folder` ('' for files dropped loose: all of them do). */
function inFolder(path: string, folder: string): boolean {
  return folder === '' || path.startsWith(`${folder}/`);
}

/**
 * The redo log of each datadir among `files` (each system tablespace's data files joined already),
 * for the workers: its files in order, the datadir's ibdata1, MySQL's doublewrite files, undo
 * tablespaces (for the transactions to roll back) and table files; none when no log was dropped. A file belongs to the
 * innermost datadir folder holding it, so several datadirs dropped together each read their own
 * files through their own log.
 */
export function datadirLogsOf(files: readonly InputFile[], asOnDisk: boolean, keys: EncryptionKeys = {}): DatadirLog[] {
  const logs = files.filter(isRedoLogFile);
  const folders = datadirFolders(logs);
  const owner = (path: string) => folders.find((folder) => inFolder(path, folder));
  const named = (f: InputFile) => ({ name: f.file.name, blob: f.file });
  const unlogged = new Set(filesWithoutTheirLog(files));
  // In the order their logs were dropped.
  return [...new Set(logs.map(datadirOf))].map((folder) => {
    const own = logs.filter((f) => datadirOf(f) === folder).sort((a, b) => (logNumber(a) ?? 0) - (logNumber(b) ?? 0));
    const tables = files.filter((f) => owner(f.path) === folder && isMember(f) && !unlogged.has(f.path));
    const system = tables.find((f) => kindOf(f.file.name) === 'system' && folderOf(f.path) === folder) ?? null;
    return {
      log: named(own[0]),
      more: own.slice(1).map(named),
      system: system && named(system),
      undo: files.filter((f) => folderOf(f.path) === folder && UNDO_NAME.test(f.file.name)).map(named),
      doublewrite: files.filter((f) => folderOf(f.path) === folder && isDoublewriteFile(f)).sort((a, b) => (a.path < b.path ? -1 : 1)).map(named),
      members: tables.map((f) => fileKey(f.file, f.file.name)),
      asOnDisk,
      keys,
    };
  });
}

/** The datadir folders of the log files `logs`, innermost first: a file is the first's that holds it. */
function datadirFolders(logs: readonly InputFile[]): string[] {
  return [...new Set(logs.map(datadirOf))].sort((a, b) => b.length - a.length);
}

/** A file read through its datadir's log: a table file, ibdata1, or a disk image. */
function isMember(f: InputFile): boolean {
  return !isRedoLogFile(f) && (f.image || kindOf(f.file.name) === 'ibd' || kindOf(f.file.name) === 'system');
}

/**
 * The table files of one dropped datadir that another dropped datadir also has with the same name,
 * size and time (copies of one datadir): a worker tells files apart by these alone (fileKey), so
 * neither is read through its log; the page says so (their paths).
 */
export function filesWithoutTheirLog(files: readonly InputFile[]): string[] {
  const folders = datadirFolders(files.filter(isRedoLogFile));
  if (folders.length < 2) return [];
  const owners = new Map<string, Set<string>>();
  for (const f of files) {
    const folder = folders.find((d) => inFolder(f.path, d));
    if (folder === undefined || !isMember(f)) continue;
    const key = fileKey(f.file, f.file.name);
    const set = owners.get(key) ?? new Set<string>();
    owners.set(key, set.add(folder));
  }
  return files.filter((f) => isMember(f) && (owners.get(fileKey(f.file, f.file.name))?.size ?? 0) > 1).map((f) => f.path);
}
