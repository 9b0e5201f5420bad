/**
 * --history and --revert-trx N (issue 39): a read of every version of each row the undo logs still
 * hold (trx/row-vers.ts loadHistory, readers/leaf-history.ts), written as rows with `_trx_id` and
 * `_version`, or, for --revert-trx N, turned into the SQL that puts back what N changed
 * (writers/revert-sql.ts).
 */
import { anythingAmiss } from '../core/readers/decode-stats.ts';
import { loadHistory } from '../core/trx/row-vers.ts';
import { cellText } from '../core/values/row-batch.ts';
import { sqlColumns } from '../core/writers/output.ts';
import { keyText, revertPostamble, revertPreamble, revertRow, type RevertTable, type RowVersion } from '../core/writers/revert-sql.ts';
import type { InnodbTable } from '../lib/innodb-table.ts';
import type { DatadirUndo, TakenBack } from '../lib/datadir-undo.ts';
import { problemLine } from './problem-lines.ts';

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
}

/**
 * --revert-trx N --format sql: the table's history read record by record (its versions come
 * together, `_version` 0 first), each row N changed turned into its statement. DELETEs are written
 * as they come; UPDATEs and INSERTs (as many as N changed rows) are held and written after them.
 */
export async function writeRevert(table: InnodbTable, trxId: number, write: (text: string) => Promise<void> | undefined, say: (m: string) => void): Promise<RevertCount> {
  const names = table.columns;
  const stateAt = names.indexOf('_row_state');
  const trxAt = names.indexOf('_trx_id');
  const versionAt = names.indexOf('_version');
  if (table.reader.keyParts.length === 0) throw new Error(`${table.info.file}: the table has no primary key (its rows are clustered on a hidden row id), so no statement can name a row`);
  const tableColumns = names.slice(0, stateAt);
  const target: RevertTable = { name: table.definition.name, columns: sqlColumns(table.definition, tableColumns), key: table.reader.keyParts.map((k) => k.out) };
  const held: string[] = [];
  const count: RevertCount = { statements: 0, commented: 0, lost: 0 };
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
    if (r.kind === 'delete') await write(r.sql);
    else held.push(r.sql);
  };
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
  for (const sql of held) await write(sql);
  await write(revertPostamble());
  return count;
}

/** --revert-trx N: the statements, then on stderr what could not be reverted and the read's problems; returns the exit status. */
export async function revertRun(table: InnodbTable, trxId: number, write: (text: string) => Promise<void> | undefined, warn: (m: string) => void): Promise<number> {
  const count = await writeRevert(table, trxId, write, warn);
  const s = table.stats;
  const file = table.info.file;
  for (const p of s.problems) warn(problemLine(file, p));
  process.stderr.write(`${file}: ${count.statements} ${count.statements === 1 ? 'statement reverts' : 'statements revert'} transaction ${trxId}'s changes${count.commented > 0 ? `, ${count.commented} of them commented out (a later transaction changed the same row)` : ''}${count.lost > 0 ? `; ${count.lost} rows cannot be reverted or told (their history is lost)` : ''}\n`);
  return anythingAmiss(s) || count.lost > 0 ? 2 : 0;
}
