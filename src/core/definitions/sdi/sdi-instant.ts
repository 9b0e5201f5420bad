/**
 * The instant ALTER facts of a MySQL 8 table from its SDI (dd::Table JSON): which columns were added
 * or dropped in which row version, their physical positions and defaults (instant-mysql.ts lays the
 * records out from them).
 */
import { readSdiRecords } from '../../btree/sdi-pages.ts';
import type { ClusteredLayout } from '../../records/clustered-index.ts';
import { mysqlInstantLayout, type MysqlInstantColumn, type MysqlInstantTable } from '../../records/instant-mysql.ts';
import type { Tablespace } from '../../tablespace/tablespace.ts';
import { parseKeyValues, sdiTableDef, type DdTable } from './sdi-table.ts';

/** SDI column `hidden` values: visible and SQL-layer hidden columns are part of the table. */
const DD_HIDDEN_SE = 2;

/** The instant ALTER facts of an SDI table object (dd::Table JSON). */
export function mysqlInstantTable(dd: DdTable): MysqlInstantTable {
  const tableSe = parseKeyValues(dd.se_private_data);
  const instantCol = tableSe.get('instant_col');
  // Dropped columns are not part of the table definition: a copy of the object where they are
  // ordinary columns gives their types (and so their storage).
  const renamed = (i: number): string => `dropped_column_${i}`;
  const clone: DdTable = {
    ...dd,
    columns: dd.columns.map((c, i) => {
      const se = parseKeyValues(c.se_private_data);
      if (!se.has('version_dropped')) return c;
      se.delete('version_dropped');
      return { ...c, name: renamed(i), hidden: 1, se_private_data: [...se].map(([k, v]) => `${k}=${v};`).join('') };
    }),
  };
  const cloneColumns = new Map(sdiTableDef(clone).table.columns.map((c) => [c.name, c]));
  const columns: MysqlInstantColumn[] = [];
  dd.columns.forEach((c, i) => {
    const se = parseKeyValues(c.se_private_data);
    if (c.is_virtual) return;
    const dropped = se.has('version_dropped');
    if (c.hidden === DD_HIDDEN_SE && !dropped) return; // DB_ROW_ID, DB_TRX_ID, DB_ROLL_PTR, FTS_DOC_ID
    columns.push({ name: c.name, se, nullable: c.is_nullable, column: dropped ? cloneColumns.get(renamed(i)) : undefined });
  });
  return { instantCols: instantCol === undefined ? null : Number(instantCol), columns };
}

/** The instant layout of a MySQL 8 file from its own SDI; null when it has none or no instant columns. */
export async function mysqlLayoutFromFile(ts: Tablespace, layout: ClusteredLayout): Promise<ClusteredLayout | null> {
  let records;
  try {
    records = await readSdiRecords(ts);
  } catch {
    return null; // an unreadable SDI: records from instant ALTERs will be reported as unreadable
  }
  for (const r of records ?? []) {
    let doc: { dd_object_type?: string; dd_object?: DdTable };
    try {
      doc = JSON.parse(r.json) as typeof doc;
    } catch {
      continue;
    }
    if (doc.dd_object_type !== 'Table' || !doc.dd_object) continue;
    const names = new Set(doc.dd_object.columns.map((c) => c.name.toLowerCase()));
    // The SDI table this CREATE TABLE describes (a general tablespace holds several).
    if (!layout.columns.every((c) => names.has(c.name.toLowerCase()))) continue;
    return mysqlInstantLayout(layout, mysqlInstantTable(doc.dd_object));
  }
  return null;
}
