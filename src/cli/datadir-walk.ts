/**
 * What a folder given to the CLI holds (`ibd-reader DIR -o OUTDIR`, issue 38): a datadir (its
 * ibdata1, its database folders) or any folder of table files. Every file is found by one listing of
 * each folder and paired by name through maps, so that 50,000 tables cost 50,000 look-ups, not a
 * search of every .frm per table:
 *  - the system tablespace `DIR/ibdata1` (its further data files ibdata2 … are found by the reader);
 *  - each `.ibd` with its `.frm` (same name, case aside), a partitioned table's `t#P#p0.ibd` … as one
 *    table with its `t.frm` and `t.par`;
 *  - a folder that holds `.ibd` files itself is one database named after the folder.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { partitionOfFile } from '../core/definitions/partitions.ts';
import { tableNameOfFile } from '../core/definitions/frm/index.ts';

/** A table stored in files of its own: one .ibd, or a partitioned table's partitions. */
export interface FileTable {
  db: string;
  /** The table's name (the file name's escapes decoded). */
  table: string;
  /** Its .ibd, or its partitions' in the order their names sort. */
  ibds: string[];
  /** Its .frm, when there is one. */
  frm: string | null;
}

export interface DatadirFiles {
  /** DIR/ibdata1, when there is one. */
  system: string | null;
  tables: FileTable[];
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

const isDir = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

/** The tables of one database folder: its .ibd files grouped by table, each with its .frm, looked up by name. */
function databaseTables(dir: string, db: string): FileTable[] {
  const names = entries(dir);
  const frms = new Map<string, string>();
  for (const n of names) if (n.toLowerCase().endsWith('.frm')) frms.set(n.slice(0, -4).toLowerCase(), join(dir, n));
  const tables = new Map<string, FileTable>();
  for (const n of names) {
    if (!n.toLowerCase().endsWith('.ibd')) continue;
    const stem = partitionOfFile(n)?.table ?? n.slice(0, -4);
    const own = n.slice(0, -4).replace(/#p#.*$/is, '');
    const key = own.toLowerCase();
    let t = tables.get(key);
    if (t === undefined) tables.set(key, (t = { db, table: tableNameOfFile(stem), ibds: [], frm: frms.get(key) ?? null }));
    t.ibds.push(join(dir, n));
  }
  return [...tables.values()];
}

/** What DIR holds: its system tablespace, and its tables' files (DIR's own, and those of each folder in it). */
export function datadirFiles(dir: string): DatadirFiles {
  const names = entries(dir);
  const system = names.includes('ibdata1') ? join(dir, 'ibdata1') : null;
  const tables = databaseTables(dir, tableNameOfFile(basename(dir)));
  for (const n of names) {
    const path = join(dir, n);
    if (!n.startsWith('#') && isDir(path)) tables.push(...databaseTables(path, tableNameOfFile(n)));
  }
  return { system, tables };
}
