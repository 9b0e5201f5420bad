/**
 * --history and --revert-trx N (issue 39): a read of every version of each row the undo logs still
 * hold (trx/row-vers.ts loadHistory, readers/leaf-history.ts), written as rows with `_trx_id` and
 * `_version`, or, for --revert-trx N, turned into the SQL that puts back what N changed
 * (writers/revert-sql.ts).
 */
import { anythingAmiss } from '../core/readers/decode-stats.ts';
import { loadHistory } from '../core/trx/row-vers.ts';
import { batchRows, cellText } from '../core/values/row-batch.ts';
import { historyColumns, historyPostamble, historyPreamble, historyTableName } from '../core/writers/history-sql.ts';
import { sqlColumns, sqlInserts } from '../core/writers/output.ts';
import { keyText, revertPostamble, revertPreamble, revertRow, type RevertTable, type RowVersion } from '../core/writers/revert-sql.ts';
import type { InnodbTable } from '../lib/innodb-table.ts';
import type { DatadirUndo, TakenBack } from '../lib/datadir-undo.ts';
import type { TableDef } from '../core/schema.ts';
import { problemLine } from './problem-lines.ts';
import { SpillRun } from './spill-run.ts';

/**
 * The versions a history reads: every undo log purge has not processed. With --revert-trx N, N's
 * log must be one of them (else what N changed cannot be told: an error).
 */
export async function historyOf(undo: DatadirUndo, revertTrx: number | null, say: (m: string) => void): Promise<TakenBack> {
  const logs = undo.logs.logs;
  for (const p of undo.logs.problems) say(p);
  if (revertTrx !== null && !logs.some((l) => l.header.trxId === revertTrx && l.state !== 'purged')) {
    throw new Error(`transaction ${revertTrx} is not in the undo logs' history (purge processed it, or no such transaction wrote; see --list-transactions): what it changed cannot be told`);
  }
  for (const l of logs) {
    if (l.state === 'active' || l.state === 'prepared') say(`transaction ${l.header.trxId} ${l.state === 'active' ? 'was active at the crash (the server rolls it back)' : 'is XA PREPARED (never committed)'}: the versions it wrote are not shown`);
  }
  return { versions: await loadHistory(logs, undo.spaceOf), verb: 'read for its history' };
}

/** What a --revert-trx read found: statements written, those commented out, rows whose history is lost. */
export interface RevertCount {
  statements: number;
  commented: number;
  lost: number;
  /** Characters of held statements written to a temporary file (memory bounded). */
  spilled: number;
}

/** Statements held in memory, per run, before the rest go to a temporary file. */
export const REVERT_HOLD_CHARS = 8 << 20;

/**
 * --revert-trx N --format sql: the table's history read record by record (its versions come
 * together, `_version` 0 first), each row N changed turned into its statement. DELETEs are written
 * as they come; UPDATEs, then INSERTs (as many as N changed rows) are held, past `holdChars` in a
 * temporary file, and written after them.
 */
export async function writeRevert(table: InnodbTable, trxId: number, write: (text: string) => Promise<void> | undefined, say: (m: string) => void, holdChars = REVERT_HOLD_CHARS): Promise<RevertCount> {
  const names = table.columns;
  const stateAt = names.indexOf('_row_state');
  const trxAt = names.indexOf('_trx_id');
  const versionAt = names.indexOf('_version');
  if (table.reader.keyParts.length === 0) throw new Error(`${table.info.file}: the table has no primary key (its rows are clustered on a hidden row id), so no statement can name a row`);
  const tableColumns = names.slice(0, stateAt);
  const target: RevertTable = { name: table.definition.name, columns: sqlColumns(table.definition, tableColumns), key: table.reader.keyParts.map((k) => k.out), unique: uniqueColumns(table.definition, tableColumns) };
  const updates = new SpillRun(holdChars);
  const inserts = new SpillRun(holdChars);
  const count: RevertCount = { statements: 0, commented: 0, lost: 0, spilled: 0 };
  let versions: RowVersion[] = [];
  const flush = async (): Promise<void> => {
    const r = versions.length > 0 ? revertRow(target, versions, trxId) : null;
    const oldest = versions.at(-1);
    versions = [];
    if (r === null && oldest?.state === 'history-lost') {
      count.lost++;
      say(`${table.info.file}: the history of the row with ${keyText(target, oldest.values)} is lost before transaction ${oldest.trxId}'s version: whether ${trxId} changed it cannot be told`);
    }
    if (r === null) return;
    if (r.kind === 'lost') {
      count.lost++;
      say(`${table.info.file}: the row with ${r.key} was changed by transaction ${trxId}, but its version before it cannot be had (see above): no statement reverts it`);
      return;
    }
    count.statements++;
    if (r.sql.startsWith('--')) count.commented++;
    if (r.kind === 'delete' || r.kind === 'move') await write(r.sql);
    if (r.kind === 'move') await inserts.push(r.insert);
    else if (r.kind === 'update') await updates.push(r.sql);
    else if (r.kind === 'insert') await inserts.push(r.sql);
  };
  try {
    await write(revertPreamble(trxId, table.info.file));
    for await (const batch of table.batches({ batchSize: 5000 })) {
      for (let r = 0; r < batch.rows; r++) {
        const version = cellText(batch, r, versionAt);
        // Rows without a version (purged ones of the free lists) have no history to revert.
        if (version === null) continue;
        if (version === '0') await flush();
        const values: (string | null)[] = [];
        for (let c = 0; c < tableColumns.length; c++) values.push(cellText(batch, r, c));
        versions.push({ trxId: Number(cellText(batch, r, trxAt)), state: cellText(batch, r, stateAt) ?? 'live', values });
      }
    }
    await flush();
    count.spilled = updates.spilledChars + inserts.spilledChars;
    await updates.drain(write);
    await inserts.drain(write);
    await write(revertPostamble());
  } finally {
    await updates.close();
    await inserts.close();
  }
  return count;
}

/** Indexes into `columns` of those a UNIQUE secondary key holds (whose value only one row may have). */
function uniqueColumns(definition: TableDef, columns: readonly string[]): number[] {
  const names = new Set(definition.indexes.filter((i) => i.kind === 'unique').flatMap((i) => i.columns.map((c) => c.name.toLowerCase())));
  return columns.flatMap((c, i) => (names.has(c.toLowerCase()) ? [i] : []));
}

/**
 * --history --format sql: the history table's CREATE TABLE, then every version as its INSERTs
 * (core/writers/history-sql.ts), a batch at a time; on stderr what the read found; the exit status.
 */
export async function historySqlRun(table: InnodbTable, write: (text: string) => Promise<void> | undefined, warn: (m: string) => void): Promise<number> {
  const columns = historyColumns(table.definition, table.columns);
  const name = historyTableName(table.definition);
  await write(historyPreamble(table.definition, table.columns, table.info.file));
  let versions = 0;
  for await (const batch of table.batches({ batchSize: 1000 })) {
    versions += batch.rows;
    await write(sqlInserts(name, columns, batchRows(batch)));
  }
  await write(historyPostamble());
  const s = table.stats;
  for (const p of s.problems) warn(problemLine(table.info.file, p));
  process.stderr.write(`${table.info.file}: ${versions} row versions written as INSERTs into ${name}; ${s.historyLost} rows history-lost, ${s.recordsFailed} undecodable records, ${s.damagedPages} damaged leaf pages\n`);
  return anythingAmiss(s) ? 2 : 0;
}

/** --revert-trx N: the statements, then on stderr what could not be reverted and the read's problems; returns the exit status. */
export async function revertRun(table: InnodbTable, trxId: number, write: (text: string) => Promise<void> | undefined, warn: (m: string) => void): Promise<number> {
  const count = await writeRevert(table, trxId, write, warn);
  const s = table.stats;
  const file = table.info.file;
  for (const p of s.problems) warn(problemLine(file, p));
  process.stderr.write(`${file}: ${count.statements} ${count.statements === 1 ? 'statement reverts' : 'statements revert'} transaction ${trxId}'s changes${count.commented > 0 ? `, ${count.commented} of them commented out (a later transaction changed the same row)` : ''}${count.lost > 0 ? `; ${count.lost} rows cannot be reverted or told (their history is lost)` : ''}${count.spilled > 0 ? ` (${Math.ceil(count.spilled / (1 << 20))} MiB of them held in a temporary file until the DELETEs were written)` : ''}\n`);
  return anythingAmiss(s) || count.lost > 0 ? 2 : 0;
}
