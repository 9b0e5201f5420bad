/**
 * The SQL that puts back what one transaction changed (--revert-trx N --format sql), from a row's
 * versions (readers/leaf-history.ts: newest first, each with the transaction that wrote it): the
 * version N wrote and the one before it make the statement. N inserted the row: `DELETE … WHERE key`;
 * deleted it: `INSERT` of the version before; updated it: `UPDATE … SET` the columns N changed `WHERE
 * key`. A primary-key update is, in InnoDB's records and undo logs, a delete of the old key and an
 * insert of the new: it becomes a DELETE and an INSERT. An update that changed a column of a UNIQUE
 * secondary key is an UPDATE or, where the value it puts back may still be another row's (two rows
 * swapping a unique value, one taking another's), a DELETE and an INSERT: revert-run.ts decides once
 * it knows every row's (revert-unique.ts). The DELETEs run first, the INSERTs last. Where a later transaction wrote the row again,
 * the statement would overwrite its change: it is written commented out, with who and why. Values are
 * the SQL export's literals (output.ts).
 */
import { sqlIdent, sqlInserts, sqlValue, type SqlColumn } from './output.ts';

/** One version of a row: who wrote it, its state (live, delete-marked, history-lost), its values. */
export interface RowVersion {
  trxId: number;
  state: string;
  values: readonly (string | null)[];
}

/** The table the statements change: its name, columns (their literal kinds) and primary key's columns. */
export interface RevertTable {
  name: string;
  columns: readonly SqlColumn[];
  /** Indexes into `columns` of the primary key's columns. */
  key: readonly number[];
  /** Indexes into `columns` of the columns some UNIQUE secondary key holds. */
  unique: readonly number[];
}

/** DELETEs run first, INSERTs last, so that a key N moved (delete + insert) is free when put back. */
export type StatementKind = 'delete' | 'update' | 'insert';

/** One statement, or a row deleted and inserted again (`sql` the DELETE, `insert` the INSERT). */
export type Revert =
  | { kind: StatementKind; sql: string }
  | { kind: 'move'; sql: string; insert: string }
  /**
   * An update of a UNIQUE secondary key's column: an UPDATE where the value put back is free as it
   * runs, else the row deleted and inserted as it was (revert-unique.ts decides); `before` and
   * `after` the row's values.
   */
  | { kind: 'unique'; sql: string; insert: string; update: string; before: readonly (string | null)[]; after: readonly (string | null)[] }
  /** The version N wrote is there, the one before it is not (its undo record cannot be had). */
  | { kind: 'lost'; key: string };

/**
 * The statement reverting transaction `trxId`'s change of this row, or null when it did not change it
 * (or inserted and deleted it again, or changed no column). `versions`: newest first.
 */
export function revertRow(table: RevertTable, versions: readonly RowVersion[], trxId: number): Revert | null {
  const at = versions.findIndex((v) => v.trxId === trxId);
  if (at < 0) return null;
  const after = versions[at];
  // A row N changed more than once (updated, then deleted) has its versions: the one before is another's.
  const before = versions.slice(at + 1).find((v) => v.trxId !== trxId) ?? null;
  if (after.state === 'history-lost') return { kind: 'lost', key: keyText(table, after.values) };
  const existedAfter = after.state === 'live';
  const existedBefore = before !== null && before.state === 'live';
  let made: Exclude<Revert, { kind: 'lost' }> | null = null;
  if (existedAfter && !existedBefore) made = { kind: 'delete', sql: `DELETE FROM ${sqlIdent(table.name)} WHERE ${where(table, after.values)};\n` };
  else if (!existedAfter && existedBefore) made = { kind: 'insert', sql: sqlInserts(table.name, table.columns, [before.values.slice()]) };
  else if (existedAfter && existedBefore) made = update(table, before.values, after.values);
  if (made === null) return null;
  const later = [...new Set(versions.slice(0, at).map((v) => v.trxId))];
  if (later.length === 0) return made;
  const why = `-- not run: transaction${later.length > 1 ? 's' : ''} ${later.join(', ')} changed this row after ${trxId}; this would undo ${later.length > 1 ? 'their changes' : 'its change'} too:\n`;
  // Commented out, it runs as neither: the DELETE and INSERT say what it would do.
  if (made.kind === 'move' || made.kind === 'unique') return { kind: 'move', sql: why + commented(made.sql), insert: why + commented(made.insert) };
  return { kind: made.kind, sql: why + commented(made.sql) };
}

/** Statements as comments, line by line. */
function commented(sql: string): string {
  return sql.replace(/^/gm, '-- ').replace(/-- $/, '');
}

/**
 * `UPDATE … SET` the columns whose values differ back to `before`'s, or null when none does. Where a
 * UNIQUE secondary key's column differs, the value put back may still be another row's until that
 * row's statement runs (a swap is a cycle no order of UPDATEs breaks): the UPDATE, or the row deleted
 * with the DELETEs and inserted with the INSERTs as it was, whichever revert-unique.ts finds safe.
 */
function update(table: RevertTable, before: readonly (string | null)[], after: readonly (string | null)[]): Exclude<Revert, { kind: 'lost' }> | null {
  const set: string[] = [];
  table.columns.forEach((c, i) => {
    if (c.insert && before[i] !== after[i]) set.push(`${sqlIdent(c.name)} = ${sqlValue(before[i], c.kind)}`);
  });
  if (set.length === 0) return null;
  const sql = `UPDATE ${sqlIdent(table.name)} SET ${set.join(', ')} WHERE ${where(table, after)};\n`;
  if (table.unique.some((i) => before[i] !== after[i])) {
    return { kind: 'unique', sql: `DELETE FROM ${sqlIdent(table.name)} WHERE ${where(table, after)};\n`, insert: sqlInserts(table.name, table.columns, [before.slice()]), update: sql, before, after };
  }
  return { kind: 'update', sql };
}

/** The primary key's columns equal to this row's values. */
function where(table: RevertTable, values: readonly (string | null)[]): string {
  return table.key.map((i) => `${sqlIdent(table.columns[i].name)} = ${sqlValue(values[i], table.columns[i].kind)}`).join(' AND ');
}

/** The row's key, as said on stderr. */
export function keyText(table: RevertTable, values: readonly (string | null)[]): string {
  return table.key.map((i) => `${table.columns[i].name}=${values[i] ?? 'NULL'}`).join(', ');
}

/** Ahead of the statements: the session as the SQL export sets it, and one transaction around them. */
export function revertPreamble(trxId: number, sourceFile: string): string {
  return (
    `-- Statements reverting transaction ${trxId}'s changes to ${sourceFile.replace(/[\r\n]/g, ' ')}, from its undo log, by ibd-reader.\n` +
    '-- Those commented out would also undo a later transaction\'s change of the same row: check them first.\n' +
    '/*!40101 SET NAMES utf8mb4 */;\n' +
    "SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO';\n" +
    "SET @OLD_TIME_ZONE=@@TIME_ZONE, TIME_ZONE='+00:00';\n" +
    // A row deleted to be inserted again must not take others with it (ON DELETE CASCADE), nor
    // wait for the revert of another table's rows.
    'SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0;\n' +
    'START TRANSACTION;\n'
  );
}

export function revertPostamble(): string {
  return 'COMMIT;\nSET SQL_MODE=@OLD_SQL_MODE;\nSET TIME_ZONE=@OLD_TIME_ZONE;\nSET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS;\n';
}
