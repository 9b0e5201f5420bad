/**
 * `--history --format sql`: every version of each row as the INSERTs of a history table, a server
 * loads it beside (or instead of) the table: `<table>_history`, the table's columns with their types
 * but no key, no NOT NULL and no generated expression (a version is a record of what was, not a row
 * the table's rules judge), then `_row_state`, `_trx_id` and `_version` (readers/leaf-history.ts).
 * The values are the SQL export's literals (output.ts).
 */
import { quoteMember } from '../definitions/create-sql.ts';
import type { Column, TableDef } from '../schema.ts';
import { sqlColumns, sqlIdent, type SqlColumn } from './output.ts';

/** The history table's name for a table. */
export function historyTableName(table: TableDef): string {
  return `${table.name}_history`;
}

/** The column types whose SQL names a length (characters, bytes, bits or dimensions). */
const WITH_LENGTH = new Set(['char', 'varchar', 'binary', 'varbinary', 'bit', 'vector']);
const WITH_FSP = new Set(['time', 'datetime', 'timestamp']);
const INTEGERS = new Set(['tinyint', 'smallint', 'mediumint', 'int', 'bigint']);
const CHARACTERS = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set']);

/** A column's type as CREATE TABLE writes it (its charset with it). */
function typeSql(c: Column): string {
  let t: string = c.type === 'bool' ? 'tinyint(1)' : c.type;
  if (WITH_LENGTH.has(c.type)) t += `(${c.length})`;
  else if (WITH_FSP.has(c.type) && c.fsp > 0) t += `(${c.fsp})`;
  else if (c.type === 'decimal' || ((c.type === 'float' || c.type === 'double') && c.precision > 0)) t += `(${c.precision},${c.scale})`;
  else if (c.type === 'enum' || c.type === 'set') t += `(${c.values.map(quoteMember).join(',')})`;
  if (c.unsigned && (INTEGERS.has(c.type) || c.type === 'decimal' || c.type === 'float' || c.type === 'double')) t += ' unsigned';
  if (CHARACTERS.has(c.type) && c.charset !== 'binary') t += ` CHARACTER SET ${c.charset}${c.collation ? ` COLLATE ${c.collation}` : ''}`;
  return t;
}

/** The history table's columns, as the INSERTs name them: every one set (generated ones are plain here). */
export function historyColumns(table: TableDef, outputColumns: readonly string[]): SqlColumn[] {
  const kinds = sqlColumns(table, outputColumns);
  return kinds.map((k, i) => ({ ...k, insert: true, kind: outputColumns[i] === '_trx_id' || outputColumns[i] === '_version' ? 'number' : k.kind }));
}

/** `CREATE TABLE <table>_history`: the output's columns (the table's, then the three a history adds). */
export function historyTableSql(table: TableDef, outputColumns: readonly string[]): string {
  const byName = new Map(table.columns.map((c) => [c.name.toLowerCase(), c]));
  const lines = outputColumns.map((name) => {
    if (name === '_row_state') return '`_row_state` varchar(16) NOT NULL';
    if (name === '_trx_id') return '`_trx_id` bigint unsigned NULL';
    if (name === '_version') return '`_version` int unsigned NULL';
    const c = byName.get(name.toLowerCase());
    return `${sqlIdent(name)} ${c === undefined ? 'longtext' : typeSql(c)} NULL${c?.type === 'timestamp' ? ' DEFAULT NULL' : ''}`;
  });
  return `CREATE TABLE ${sqlIdent(historyTableName(table))} (\n  ${lines.join(',\n  ')}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n`;
}

/** Ahead of the INSERTs: the session as the SQL export sets it, and the history table. */
export function historyPreamble(table: TableDef, outputColumns: readonly string[], sourceFile: string): string {
  return (
    `-- Every version of each row of ${sqlIdent(table.name)} the undo logs hold, read from ${sourceFile.replace(/[\r\n]/g, ' ')} by ibd-reader:\n` +
    '-- _version 0 is the row as it is, 1 the one before …; _trx_id the transaction that wrote it.\n' +
    '/*!40101 SET NAMES utf8mb4 */;\n' +
    "SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO';\n" +
    "SET @OLD_TIME_ZONE=@@TIME_ZONE, TIME_ZONE='+00:00';\n\n" +
    `${historyTableSql(table, outputColumns)}\n`
  );
}

export function historyPostamble(): string {
  return '\nSET SQL_MODE=@OLD_SQL_MODE;\nSET TIME_ZONE=@OLD_TIME_ZONE;\n';
}
