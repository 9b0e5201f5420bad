/**
 * The CLI's words for the undo logs (lib/datadir-undo.ts): --list-transactions (a line per
 * transaction: id, commit number, state, the tables it changed by name through the data dictionary,
 * rows inserted, updated and deleted, columns changed), and after a read what was taken back.
 */
import type { Dictionary } from '../core/definitions/dictionary/dict-tables.ts';
import { takenBackLines, transactionsOf, type TableChanges, type TakenBack } from '../lib/datadir-undo.ts';
import type { DatadirUndoAt } from '../node/undo-spaces.ts';

const STATE_WORDS = { active: 'active (rolled back at start)', prepared: 'XA prepared', committed: 'committed', purged: 'committed, purged' } as const;

/** A table's changes as the line says them: "db/t: 2 inserted, 1 updated (c), 0 deleted". */
function changesText(c: TableChanges): string {
  const counts = [`${c.inserted} inserted`, `${c.updated} updated${c.columns.length > 0 ? ` (${c.columns.join(', ')})` : ''}`, `${c.deleted} deleted`, ...Object.entries(c.other).map(([k, n]) => `${n} ${k}`)];
  return `${c.name ?? `table id ${c.tableId}`}: ${counts.join(', ')}`;
}

/** --list-transactions: a line per transaction; returns the exit status. */
export async function listTransactions(undo: DatadirUndoAt, dictionary: Dictionary | null, write: (text: string) => Promise<void> | undefined, warn: (m: string) => void): Promise<number> {
  const problems: string[] = [];
  for await (const t of transactionsOf(undo, problems, dictionary)) {
    const parts = t.tables.map(changesText);
    const xa = t.xa ? ', XA' : '';
    const ddl = t.ddlTableId !== null ? `, DDL of table id ${t.ddlTableId}` : '';
    await write(`trx ${t.trxId}\tno ${t.trxNo}\t${STATE_WORDS[t.state]}${xa}${ddl}\t${parts.length > 0 ? parts.join('; ') : 'no row changes'}\n`);
  }
  if (undo.logs.logs.length === 0) warn(`${undo.path}: its undo logs hold no transaction (none active or prepared at the crash, no history left: purge has processed every committed one)`);
  for (const p of problems) warn(p);
  return problems.length > 0 ? 2 : 0;
}

/** After a read: what each transaction taken back changed in it. */
export function sayTakenBack(file: string, taken: TakenBack, say: (m: string) => void): void {
  for (const line of takenBackLines(file, taken)) say(line);
}
