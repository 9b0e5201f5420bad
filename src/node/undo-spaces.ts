/**
 * The undo logs of a datadir (Node): its system tablespace (ibdata1, with ibdata2 … beside it) and its
 * undo tablespaces (undo001 …, MariaDB's and MySQL 5.6–5.7's innodb_undo_tablespaces, in the datadir)
 * found by path and opened, then read by the library (lib/datadir-undo.ts). For the rollback of
 * transactions active at a crash and for --before-trx / --list-transactions.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LogCensus } from '../core/log/redo-scan.ts';
import type { EncryptionKeys } from '../core/tablespace/encryption.ts';
import type { ByteSource } from '../core/tablespace/source.ts';
import { openUndoSources, type DatadirUndo } from '../lib/datadir-undo.ts';
import { dataFilePaths, dataFilesOf } from './data-files.ts';
import { fileSource, type FileSource } from './file-source.ts';

export interface DatadirUndoAt extends DatadirUndo {
  /** The system tablespace's path. */
  path: string;
  close(): Promise<void>;
}

/** The system tablespace of a datadir an .ibd lies in (datadir/db/t.ibd → datadir/ibdata1), or the file itself when it is one. */
export function systemSpaceOf(file: string, isSystem: boolean): string | null {
  if (isSystem) return file;
  const path = join(dirname(file), '..', 'ibdata1');
  return existsSync(path) ? path : null;
}

/**
 * Opens the system tablespace at `path` and the undo tablespaces beside it (MySQL 8's undo_001 …
 * too, to be named as not read), and reads their undo logs; through the redo log `redoLog` when given
 * (its census `redoCensus`, when taken already: only the stretches of the log holding their records are read).
 */
export async function openDatadirUndoAt(path: string, redoLog?: ByteSource, keys?: EncryptionKeys, redoCensus?: LogCensus | null): Promise<DatadirUndoAt> {
  const opened: FileSource[] = [];
  const close = async () => void (await Promise.all(opened.map((s) => s.close())));
  try {
    const system = await dataFilesOf(await dataFilePaths(path));
    opened.push(system);
    const dir = dirname(path);
    const undoSpaces: FileSource[] = [];
    for (const name of readdirSync(dir).filter((n) => /^undo_?\d{3}$/i.test(n)).sort()) undoSpaces.push(await fileSource(join(dir, name)));
    opened.push(...undoSpaces);
    return { ...(await openUndoSources({ system, undoSpaces, redoLog, keys, redoCensus })), path, close };
  } catch (e) {
    await close();
    throw e;
  }
}
