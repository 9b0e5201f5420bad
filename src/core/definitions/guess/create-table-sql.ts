/**
 * The CREATE TABLE a guess writes for its column list (or the user's corrected one), and the TableDef
 * the DDL parser makes of it: how a guessed definition reaches openTable() like any other.
 */
import type { TableDef } from '../../schema.ts';
import { parseCreateTables } from '../ddl/create-table.ts';

export type RowFormat = 'REDUNDANT' | 'COMPACT' | 'DYNAMIC';

/** A user-editable column: what tableFromColumns() turns into a CREATE TABLE. */
export interface ColumnEdit {
  name: string;
  /** SQL type text as in a CREATE TABLE, e.g. `varchar(40)` or `int unsigned`. */
  type: string;
  nullable: boolean;
  /** Part of the PRIMARY KEY (in column order). */
  key: boolean;
}

const quoteName = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

/** The CREATE TABLE for a column list: what the DDL parser turns into a TableDef. */
export function createTableSql(tableName: string, columns: readonly ColumnEdit[], rowFormat: RowFormat): string {
  const lines = columns.map((c) => `  ${quoteName(c.name)} ${c.type.trim()}${c.nullable && !c.key ? ' NULL' : ' NOT NULL'}`);
  const key = columns.filter((c) => c.key);
  if (key.length > 0) lines.push(`  PRIMARY KEY (${key.map((c) => quoteName(c.name)).join(', ')})`);
  return `CREATE TABLE ${quoteName(tableName)} (\n${lines.join(',\n')}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=${rowFormat}`;
}

/**
 * A TableDef from a (user-edited) column list, through the DDL parser, so types are checked as usual.
 * `partialRecord`: what follows the columns in the records, not described (TableDef.partialRecord).
 */
export function tableFromColumns(tableName: string, columns: readonly ColumnEdit[], rowFormat: RowFormat, partialRecord?: string): TableDef {
  if (columns.length === 0) throw new Error('the table needs at least one column');
  for (const c of columns) {
    if (c.name.trim() === '') throw new Error('a column has no name');
    if (/[;`]|--|\/\*/.test(c.type)) throw new Error(`column ${c.name}: the type '${c.type}' is not a column type`);
  }
  const tables = parseCreateTables(createTableSql(tableName, columns, rowFormat));
  if (tables.length !== 1) throw new Error('the column list does not make one CREATE TABLE');
  if (partialRecord !== undefined) tables[0].partialRecord = partialRecord;
  return tables[0];
}
