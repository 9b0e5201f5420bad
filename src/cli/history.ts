/**
 * --history and --revert-trx N (issue 39): a read of every version of each row the undo logs still
 * hold (trx/row-vers.ts loadHistory, readers/leaf-history.ts), written as rows with `_trx_id` and
 * `_version`, or, for --revert-trx N, turned into the SQL that puts back what N changed
 * (writers/revert-run.ts, the page's too).
 */
import { anythingAmiss } from '../core/readers/decode-stats.ts';
import { batchRows } from '../core/values/row-batch.ts';
import { historyColumns, historyPostamble, historyPreamble, historyTableName } from '../core/writers/history-sql.ts';
import { sqlInserts } from '../core/writers/output.ts';
import { revertSummary, writeRevert } from '../core/writers/revert-run.ts';
import type { InnodbTable } from '../lib/innodb-table.ts';
import { problemLine } from './problem-lines.ts';
import { SpillRun } from './spill-run.ts';

/** The versions a history reads (lib/datadir-undo.ts), for cli/rollback.ts. */
export { historyOf } from '../lib/datadir-undo.ts';

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

/** Statements held in memory, per run, before the rest go to a temporary file. */
export const REVERT_HOLD_CHARS = 8 << 20;

/** --revert-trx N: the statements, then on stderr what could not be reverted and the read's problems; returns the exit status. */
export async function revertRun(table: InnodbTable, trxId: number, write: (text: string) => Promise<void> | undefined, warn: (m: string) => void): Promise<number> {
  const read = { file: table.info.file, definition: table.definition, columns: table.columns, key: table.reader.keyParts.map((k) => k.out), batches: table.batches({ batchSize: 5000 }) };
  const count = await writeRevert(read, trxId, write, warn, () => new SpillRun(REVERT_HOLD_CHARS));
  const s = table.stats;
  const file = table.info.file;
  for (const p of s.problems) warn(problemLine(file, p));
  process.stderr.write(`${revertSummary(file, trxId, count)}\n`);
  return anythingAmiss(s) || count.lost > 0 ? 2 : 0;
}
