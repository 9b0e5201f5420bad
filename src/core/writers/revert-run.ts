/**
 * The SQL that reverts one transaction's changes to a table (--revert-trx N --format sql, and the
 * page's "Revert SQL"), from a read of the table's history (readers/leaf-history.ts: each record's
 * versions together, `_version` 0 first): each row N changed becomes its statement (revert-sql.ts).
 * DELETEs are written as they come; UPDATEs, then INSERTs (as many as N changed rows) are held and
 * written after them. Where they are held is the caller's (`HeldRun`, held-run.ts): the CLI spills to a
 * temporary file, the page to its origin-private file system, so memory stays bounded either way.
 * An update of a UNIQUE secondary key's column is held too, until every value rows hold as the
 * UPDATEs run is known (revert-unique.ts): then it is an UPDATE, or, where the value it puts back may
 * still be another row's, a DELETE (still among the DELETEs) and an INSERT.
 */
import type { TableDef } from '../schema.ts';
import { cellText, type RowBatch } from '../values/row-batch.ts';
import { sqlColumns } from './output.ts';
import { keyText, revertPostamble, revertPreamble, revertRow, type RevertTable, type RowVersion } from './revert-sql.ts';
import { UniqueValues } from './revert-unique.ts';
import type { HeldRun } from './held-run.ts';

/** What a revert found: statements written, those commented out, rows whose history is lost. */
export interface RevertCount {
  statements: number;
  commented: number;
  lost: number;
  /** Characters of held statements that went beyond memory (a temporary file). */
  spilled: number;
}

/** The table's history as read: its definition, output columns (the table's, `_row_state`, `_trx_id`, `_version`), key, batches. */
export interface HistoryRead {
  /** For messages: the file read. */
  file: string;
  definition: TableDef;
  columns: readonly string[];
  /** Output column indexes of the primary key's columns (empty: a hidden row id). */
  key: readonly number[];
  batches: AsyncIterable<RowBatch>;
}

/** Writes the statements reverting `trxId`'s changes; what cannot be reverted is said through `say`. */
export async function writeRevert(read: HistoryRead, trxId: number, write: (text: string) => Promise<void> | undefined, say: (m: string) => void, hold: () => HeldRun): Promise<RevertCount> {
  const names = read.columns;
  const stateAt = names.indexOf('_row_state');
  const trxAt = names.indexOf('_trx_id');
  const versionAt = names.indexOf('_version');
  if (stateAt < 0 || trxAt < 0 || versionAt < 0) throw new Error(`${read.file}: not a history read (no _row_state, _trx_id, _version)`);
  if (read.key.length === 0) throw new Error(`${read.file}: the table has no primary key (its rows are clustered on a hidden row id), so no statement can name a row`);
  const tableColumns = names.slice(0, stateAt);
  const target: RevertTable = { name: read.definition.name, columns: sqlColumns(read.definition, tableColumns), key: read.key, unique: uniqueColumns(read.definition, tableColumns) };
  const unique = await UniqueValues.open(read.definition, tableColumns);
  const updates = hold();
  const inserts = hold();
  /** Updates of a UNIQUE key's column, a JSON line each: the values put back (hashed), the DELETE, INSERT and UPDATE. */
  const uniques = hold();
  const count: RevertCount = { statements: 0, commented: 0, lost: 0, spilled: 0 };
  let versions: RowVersion[] = [];
  const flush = async (): Promise<void> => {
    const r = versions.length > 0 ? revertRow(target, versions, trxId) : null;
    const oldest = versions.at(-1);
    const newest = versions[0];
    versions = [];
    if (r === null && oldest?.state === 'history-lost') {
      count.lost++;
      say(`${read.file}: the history of the row with ${keyText(target, oldest.values)} is lost before transaction ${oldest.trxId}'s version: whether ${trxId} changed it cannot be told`);
    }
    if (r === null) return;
    if (r.kind === 'lost') {
      count.lost++;
      say(`${read.file}: the row with ${r.key} was changed by transaction ${trxId}, but its version before it cannot be had (see above): no statement reverts it`);
      return;
    }
    count.statements++;
    if (r.kind === 'unique') {
      unique.hold(unique.changed(r.after, r.before));
      await uniques.push(`${JSON.stringify([unique.changed(r.before, r.after), r.sql, r.insert, r.update])}\n`);
      return;
    }
    if (r.sql.startsWith('--')) {
      count.commented++;
      // Not run: the row keeps its newest values.
      unique.hold(unique.all(newest.values));
    }
    if (r.kind === 'delete' || r.kind === 'move') await write(r.sql);
    if (r.kind === 'move') await inserts.push(r.insert);
    else if (r.kind === 'update') await updates.push(r.sql);
    else if (r.kind === 'insert') await inserts.push(r.sql);
  };
  try {
    await write(revertPreamble(trxId, read.file));
    for await (const batch of read.batches) {
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
    let rest = '';
    await uniques.drain(async (text) => {
      const lines = (rest + text).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const [back, del, insert, update] = JSON.parse(line) as [number[], string, string, string];
        if (!unique.collides(back)) await updates.push(update);
        else {
          await write(del);
          await inserts.push(insert);
        }
      }
    });
    count.spilled = updates.spilledChars + inserts.spilledChars + uniques.spilledChars;
    await updates.drain(write);
    await inserts.drain(write);
    await write(revertPostamble());
  } finally {
    await updates.close();
    await inserts.close();
    await uniques.close();
  }
  return count;
}

/** Indexes into `columns` of those a UNIQUE secondary key holds (whose value only one row may have). */
function uniqueColumns(definition: TableDef, columns: readonly string[]): number[] {
  const names = new Set(definition.indexes.filter((i) => i.kind === 'unique').flatMap((i) => i.columns.map((c) => c.name.toLowerCase())));
  return columns.flatMap((c, i) => (names.has(c.toLowerCase()) ? [i] : []));
}

/** The revert's account in one line (the CLI's stderr, the page's note). */
export function revertSummary(file: string, trxId: number, count: RevertCount): string {
  return `${file}: ${count.statements} ${count.statements === 1 ? 'statement reverts' : 'statements revert'} transaction ${trxId}'s changes${count.commented > 0 ? `, ${count.commented} of them commented out (a later transaction changed the same row)` : ''}${count.lost > 0 ? `; ${count.lost} rows cannot be reverted or told (their history is lost)` : ''}${count.spilled > 0 ? ` (${Math.ceil(count.spilled / (1 << 20))} MiB of them held in a temporary file until the DELETEs were written)` : ''}`;
}
