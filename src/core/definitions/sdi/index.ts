/**
 * Table definitions from the data dictionary a MySQL 8.0+ tablespace carries (SDI). A file-per-table
 * .ibd holds one table (every partition's file holds the whole table's definition); a general
 * tablespace or mysql.ibd holds many: all are returned.
 */
import type { TableDef } from '../../schema.ts';
import type { Tablespace } from '../../tablespace/tablespace.ts';
import { readSdiRecords, SDI_TYPE_TABLE, SDI_TYPE_TABLESPACE, SdiError } from '../../btree/sdi-pages.ts';
import { sdiTableDef, type DdTable, type SdiTableDef } from './sdi-table.ts';

export { SdiError, sdiOffset, readSdiRecords, type SdiRecord } from '../../btree/sdi-pages.ts';
export { sdiTableDef, type DdTable, type SdiTableDef } from './sdi-table.ts';

export interface SdiContents {
  /** Every table whose definition could be built, in SDI key order. */
  tables: SdiTableDef[];
  /** Tables found in the SDI whose definition could not be built, and why. */
  errors: { table: string; message: string }[];
  /** The tablespace's own name (e.g. `db/t`), when its SDI object is present. */
  tablespace: string | null;
}

interface SdiDocument {
  mysqld_version_id?: number;
  dd_object_type?: string;
  dd_object?: unknown;
}

/** The tables in the file's SDI; null when the file carries none (MySQL 5.x, MariaDB). */
export async function readSdi(ts: Tablespace): Promise<SdiContents | null> {
  const records = await readSdiRecords(ts);
  if (records === null) return null;
  const contents: SdiContents = { tables: [], errors: [], tablespace: null };
  for (const record of records) {
    let doc: SdiDocument;
    try {
      doc = JSON.parse(record.json) as SdiDocument;
    } catch (e) {
      throw new SdiError(`SDI record (type ${record.type}, id ${record.id}) is not valid JSON: ${(e as Error).message}`);
    }
    const object = doc.dd_object as Record<string, unknown> | undefined;
    if (record.type === SDI_TYPE_TABLESPACE && doc.dd_object_type === 'Tablespace') {
      contents.tablespace = typeof object?.name === 'string' ? object.name : null;
      continue;
    }
    if (record.type !== SDI_TYPE_TABLE || doc.dd_object_type !== 'Table' || !object) continue;
    const name = typeof object.name === 'string' ? object.name : `#${record.id}`;
    if (!Array.isArray(object.columns) || !Array.isArray(object.indexes) || typeof object.collation_id !== 'number') {
      contents.errors.push({ table: name, message: 'the SDI table object lacks its columns, indexes or collation' });
      continue;
    }
    const dd = object as unknown as DdTable;
    if (dd.mysql_version_id === undefined && doc.mysqld_version_id !== undefined) dd.mysql_version_id = doc.mysqld_version_id;
    try {
      contents.tables.push(sdiTableDef(dd));
    } catch (e) {
      contents.errors.push({ table: name, message: (e as Error).message });
    }
  }
  return contents;
}

/** The table definitions in the file's SDI ([] when it has none). */
export async function readSdiTables(ts: Tablespace): Promise<TableDef[]> {
  return (await readSdi(ts))?.tables.map((t) => t.table) ?? [];
}
