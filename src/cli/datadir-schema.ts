/**
 * One definition for many dropped trees (issue 38): `ibd-reader DIR -o OUTDIR --schema FILE|FOLDER
 * --index-id all`. The dropped trees of ibdata1 whose dictionary records are lost are read with
 * the first given table whose definition their records fit (the check every read makes on a
 * table's first leaf page), so that many tables of one shape come back from one CREATE TABLE;
 * a tree no given table fits keeps its guessed columns, and why each did not fit is said.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseCreateTables } from '../core/definitions/ddl/create-table.ts';
import { readFrmBytes } from '../core/definitions/frm/index.ts';
import type { TableEntry } from '../lib/table-entry.ts';

/** A .frm by its name or its first bytes (FE 01), as the one-table reader tells it from a .sql. */
const isFrm = (name: string, bytes: Uint8Array) => /\.frm$/i.test(name) || (bytes[0] === 0xfe && bytes[1] === 0x01);

/** The tables `path` defines: its CREATE TABLE statements, or its .frm; a folder's .sql and .frm files, in name order. */
export function givenTables(path: string): TableEntry[] {
  if (!statSync(path).isDirectory()) return fileTables(path);
  const files = readdirSync(path, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(sql|frm)$/i.test(f)).sort();
  if (files.length === 0) throw new Error(`${path}: no .sql or .frm file in it`);
  return files.flatMap((f) => fileTables(join(path, f)));
}

function fileTables(path: string): TableEntry[] {
  const bytes = readFileSync(path);
  const name = basename(path);
  if (isFrm(name, bytes)) {
    const frm = readFrmBytes(bytes, name);
    return [entry(frm.table, 'frm', name)];
  }
  const tables = parseCreateTables(new TextDecoder('utf-8').decode(bytes));
  if (tables.length === 0) throw new Error(`${path}: no CREATE TABLE statement found`);
  return tables.map((t) => entry(t, 'sql', name));
}

const entry = (definition: TableEntry['definition'], source: 'sql' | 'frm', file: string): TableEntry => ({ name: definition.name, source, file, definition, clusteredIndex: null, disagreements: [] });
