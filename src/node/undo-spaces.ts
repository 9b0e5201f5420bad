/**
 * The undo logs of a datadir (Node): its system tablespace (ibdata1, with ibdata2 … beside it) and its
 * undo tablespaces (undo001 …, MariaDB's and MySQL 5.6–5.7's innodb_undo_tablespaces, in the datadir),
 * each known by the space id its page 0 says. Opened for the rollback of transactions active at a
 * crash and for --before-trx / --list-transactions (core/trx/).
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ByteSource } from '../core/tablespace/source.ts';
import { Tablespace } from '../core/tablespace/tablespace.ts';
import { readUndoLogs, type SpaceOf, type UndoLogs } from '../core/trx/undo-logs.ts';
import { dataFilePaths, dataFilesOf } from './data-files.ts';
import { fileSource, type FileSource } from './file-source.ts';

export interface DatadirUndo {
  /** The system tablespace's path. */
  path: string;
  system: Tablespace;
  spaceOf: SpaceOf;
  logs: UndoLogs;
  close(): Promise<void>;
}

/** The system tablespace of a datadir an .ibd lies in (datadir/db/t.ibd → datadir/ibdata1), or the file itself when it is one. */
export function systemSpaceOf(file: string, isSystem: boolean): string | null {
  if (isSystem) return file;
  const path = join(dirname(file), '..', 'ibdata1');
  return existsSync(path) ? path : null;
}

/** The files of the system tablespace and the undo tablespaces as they are read: rolled forward by the datadir's redo log. */
export type RecoverFiles = (sources: ByteSource[]) => Promise<{ sources: ByteSource[]; problems: string[] }>;

/**
 * Opens the system tablespace at `path` and the undo tablespaces beside it, and reads their undo
 * logs; through `recover` when given (after a crash the undo pages may be in the redo log only).
 */
export async function openDatadirUndo(path: string, recover?: RecoverFiles): Promise<DatadirUndo> {
  const opened: FileSource[] = [];
  const close = async () => void (await Promise.all(opened.map((s) => s.close())));
  try {
    const systemSource = await dataFilesOf(await dataFilePaths(path));
    opened.push(systemSource);
    const dir = dirname(path);
    for (const name of readdirSync(dir).filter((n) => /^undo\d{3}$/i.test(n)).sort()) opened.push(await fileSource(join(dir, name)));
    const read = recover ? await recover([...opened]) : { sources: [...opened], problems: [] };
    const system = await Tablespace.open(read.sources[0]);
    const spaces = new Map<number, Tablespace>([[0, system]]);
    for (const source of read.sources.slice(1)) {
      const ts = await Tablespace.open(source).catch(() => null);
      if (ts !== null) spaces.set(ts.fsp.spaceId, ts);
    }
    const spaceOf: SpaceOf = async (id) => spaces.get(id) ?? null;
    const logs = await readUndoLogs(system, spaceOf);
    logs.problems.push(...read.problems);
    // MySQL 8 names its undo tablespaces undo_001 … and lists their rollback segments in their own
    // RSEG_ARRAY pages, not in TRX_SYS: their logs are not read, and that is said.
    const mysql8 = readdirSync(dir).filter((n) => /^undo_\d{3}$/i.test(n));
    if (mysql8.length > 0) logs.problems.push(`${mysql8.join(', ')}: MySQL 8 undo tablespaces, whose rollback segments (in their RSEG_ARRAY pages) this reader does not read: transactions active at a crash whose undo logs lie there are not rolled back, and their rows are shown as on disk`);
    return { path, system, spaceOf, logs, close };
  } catch (e) {
    await close();
    throw e;
  }
}
