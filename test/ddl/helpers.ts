/**
 * Helpers shared by the CREATE TABLE parser tests (test/ddl/*.test.ts): SQL as a server prints it,
 * the one table or column a text defines, and keys in a compact form.
 */
import { expect } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import type { Column, IndexDef, TableDef } from '../../src/core/schema.ts';

/**
 * SQL exactly as a server or a dump prints it: the raw text of a template literal, so `\'` and `\\`
 * stay as written; only the backticks need escaping (\`).
 */
export function sql(strings: TemplateStringsArray): string {
  return strings.raw.join('').replaceAll('\\`', '`');
}

/** The only table defined by `text`. */
export function only(text: string): TableDef {
  const tables = parseCreateTables(text);
  expect(tables).toHaveLength(1);
  return tables[0];
}

/** The column of `CREATE TABLE t (c <definition>) <options>`. */
export function column(definition: string, options = ''): Column {
  return only(`CREATE TABLE t (c ${definition}) ${options}`).columns[0];
}

export function byName(table: TableDef, name: string): Column {
  const found = table.columns.find((c) => c.name === name);
  if (!found) throw new Error(`no column ${name} in ${table.name}`);
  return found;
}

/** Indexes as `kind name(col, col(prefix), col DESC)` lines: compact and easy to compare. */
export function keys(table: TableDef): string[] {
  const part = (c: IndexDef['columns'][number]) => `${c.name}${c.prefix ? `(${c.prefix})` : ''}${c.descending ? ' DESC' : ''}`;
  return table.indexes.map((index) => `${index.kind} ${index.name}(${index.columns.map(part).join(', ')})`);
}

export const PLAIN = {
  unsigned: false, zerofill: false, nullable: true, length: 0, precision: 0, scale: 0, fsp: 0,
  values: [], generated: null, invisible: false, defaultSql: null, comment: '', legacyTemporal: false,
};
