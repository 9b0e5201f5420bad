/**
 * A table's files copied out of a running server, as an .ibd is meant to be exported: FLUSH TABLES
 * … FOR EXPORT, the files copied while the lock is held, UNLOCK TABLES. The server keeps them under
 * MariaDB's file-name encoding of the database and table names.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Connection } from 'mariadb';
import { sqlError } from './mariadb-sql.ts';

/** Quote an identifier with backticks. */
function ident(name: string): string {
  return '`' + name.replace(/`/g, '``') + '`';
}

/**
 * MariaDB's file-name encoding of a database/table name (my_charset_filename), for ASCII names:
 * [0-9A-Za-z_] stay, any other ASCII char becomes '@' + 4 lowercase hex digits. Non-ASCII names use
 * special tables in the server; they are not supported here (throws).
 */
function filenameEncode(name: string): string {
  let out = '';
  for (const ch of name) {
    const cp = ch.codePointAt(0)!;
    if (/[0-9A-Za-z_]/.test(ch)) out += ch;
    else if (cp < 0x80) out += '@' + cp.toString(16).padStart(4, '0');
    else throw new Error(`exportTable: non-ASCII name ${JSON.stringify(name)} is not supported by the harness`);
  }
  return out;
}

/** Where the server keeps a table's files: `<dbDir>/<base>.ibd` (+ `.cfg`, `.frm`). */
export interface TableFiles {
  dbDir: string;
  base: string;
  ibd: string;
}

/** Where `database`.`table`'s files are in the server's `datadir`. */
export function tableFiles(datadir: string, table: string, database: string): TableFiles {
  const dbDir = join(datadir, filenameEncode(database));
  const base = filenameEncode(table);
  const ibd = join(dbDir, `${base}.ibd`);
  return { dbDir, base, ibd };
}

/**
 * Exports `table` over `c`: copies `<table>.ibd` (+ `.cfg`, `.frm` when present) into a fresh folder
 * under `baseDir` while FLUSH TABLES … FOR EXPORT holds it; returns the copied .ibd path.
 */
export async function exportTableFiles(c: Connection, files: TableFiles, baseDir: string, table: string, database: string): Promise<string> {
  const { dbDir, base, ibd } = files;
  try {
    await c.query(`FLUSH TABLES ${ident(table)} FOR EXPORT`);
  } catch (e) {
    throw sqlError(e, `FLUSH TABLES ${ident(table)} FOR EXPORT`);
  }
  try {
    if (!existsSync(ibd)) {
      let listing = '';
      try {
        listing = readdirSync(dbDir).join(', ');
      } catch {
        listing = '(no such database directory)';
      }
      throw new Error(`exportTable: ${ibd} does not exist (is ${database}.${table} an InnoDB file-per-table table?). ${dbDir}: ${listing}`);
    }
    const outDir = mkdtempSync(join(baseDir, 'export-'));
    for (const ext of ['.ibd', '.cfg', '.frm']) {
      const src = join(dbDir, base + ext);
      if (existsSync(src)) copyFileSync(src, join(outDir, base + ext));
    }
    return join(outDir, `${base}.ibd`);
  } finally {
    await c.query('UNLOCK TABLES');
  }
}
