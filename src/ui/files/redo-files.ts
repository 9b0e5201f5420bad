/**
 * The redo log among the dropped files (a datadir dropped as a folder): `ib_logfile0` (MariaDB 10.8+,
 * applied; ib_logfile1 … of older servers), or MySQL 8.0.30+'s `#innodb_redo/#ib_redoN`. Its datadir
 * is the folder holding it (the one holding `#innodb_redo`); its table files are those under that
 * folder, and only they are read through the log (redo-sources.ts in the workers). No DOM besides
 * the `File` type: unit-tested in Node.
 */
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
 * The redo log of the datadir among `files` (each system tablespace's data files joined already),
 * for the workers: its files in order, the datadir's ibdata1, its table files; null when no log was
 * dropped, and its undo tablespaces (for the transactions to roll back). With several datadirs' logs, the first folder's (the others' files are read as they are).
 */
export function datadirLogOf(files: readonly InputFile[], asOnDisk: boolean): DatadirLog | null {
  const logs = files.filter(isRedoLogFile);
  if (logs.length === 0) return null;
  const folder = datadirOf(logs[0]);
  const own = logs.filter((f) => datadirOf(f) === folder).sort((a, b) => (logNumber(a) ?? 0) - (logNumber(b) ?? 0));
  const named = (f: InputFile) => ({ name: f.file.name, blob: f.file });
  const tables = files.filter((f) => inFolder(f.path, folder) && !isRedoLogFile(f) && (f.image || kindOf(f.file.name) === 'ibd' || kindOf(f.file.name) === 'system'));
  const system = tables.find((f) => kindOf(f.file.name) === 'system' && folderOf(f.path) === folder) ?? null;
  return {
    log: named(own[0]),
    more: own.slice(1).map(named),
    system: system && named(system),
    undo: files.filter((f) => folderOf(f.path) === folder && UNDO_NAME.test(f.file.name)).map(named),
    members: tables.map((f) => fileKey(f.file, f.file.name)),
    asOnDisk,
  };
}
