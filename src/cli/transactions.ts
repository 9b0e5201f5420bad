/**
 * The CLI's use of the undo logs (core/trx/): --list-transactions (a line per transaction: id, commit
 * number, state, the tables it changed by name through the data dictionary, rows inserted, updated and
 * deleted, columns changed), and which transactions a read takes back: those active at a crash (as
 * the server's recovery rolls them back), or with --before-trx N, N and every one committed after it.
 */
import type { Dictionary, DictTable } from '../core/definitions/dictionary/dict-tables.ts';
import { UndoRecordError } from '../core/trx/mach-compressed.ts';
import { loadVersions, type RowVersions } from '../core/trx/row-vers.ts';
import { readUndoRec, TRX_UNDO_DEL_MARK_REC, TRX_UNDO_INSERT_REC, TRX_UNDO_UPD_DEL_REC, TRX_UNDO_UPD_EXIST_REC, typeName, undoRecHeader } from '../core/trx/trx-rec.ts';
import { recordOffsets } from '../core/trx/trx-undo.ts';
import { logPages, type UndoLog } from '../core/trx/undo-logs.ts';
import { recoveryAmiss, recoveryLines, withRedoLogAll } from '../core/log/redo-recovery.ts';
import type { ByteSource } from '../core/tablespace/source.ts';
import type { DatadirUndo, RecoverFiles } from '../node/undo-spaces.ts';

/**
 * The system and undo tablespaces read through the datadir's redo log `log` (indexed once for all of
 * them), the system tablespace's doublewrite buffer restoring torn pages: after a crash the undo
 * pages of the transactions to roll back may be in the log only. Where the log fails a file, said.
 */
export function recoverThrough(log: ByteSource): RecoverFiles {
  return async (sources) => {
    const done = await withRedoLogAll(sources, log, { systemTablespace: sources[0] });
    const problems: string[] = [];
    // pagesInLog is known only where a 10.8+ log was read: other logs' bounds the table's own lines say.
    done.forEach((d, k) => {
      if (recoveryAmiss(d.recovery) && d.recovery.pagesInLog !== null) problems.push(...recoveryLines(sources[k].name, d.recovery).slice(1).map((l) => `undo logs: ${l}`));
    });
    return { sources: done.map((d) => d.source), problems };
  };
}

interface TableChanges {
  inserted: number;
  updated: number;
  deleted: number;
  other: Map<string, number>;
  columns: Set<string>;
}

/** A table's clustered index: its key's length and each field's column name (key, DB_TRX_ID, DB_ROLL_PTR, the other stored columns). */
function indexFields(table: DictTable | undefined): { nUnique: number; names: string[] } | null {
  const clustered = table?.indexes.find((i) => i.type & 1);
  if (table === undefined || clustered === undefined) return null;
  const key = clustered.fields.map((f) => f.column);
  const inKey = new Set(key.map((k) => k.toLowerCase()));
  const rest = table.columns.filter((c) => c.column.generated !== 'virtual' && !inKey.has(c.column.name.toLowerCase())).map((c) => c.column.name);
  return { nUnique: key.length, names: [...key, 'DB_TRX_ID', 'DB_ROLL_PTR', ...rest] };
}

/** What one transaction's log changed, table by table (by table id). */
async function changesOf(undo: DatadirUndo, log: UndoLog, tables: Map<bigint, DictTable>, problems: string[]): Promise<Map<number, TableChanges>> {
  const out = new Map<number, TableChanges>();
  const ts = await undo.spaceOf(log.rseg.spaceId);
  if (ts === null) return out;
  const offsets: number[] = [];
  for await (const { page, from, to } of logPages(ts, log.header, problems)) {
    offsets.length = 0;
    const broken = recordOffsets(page, from, to, offsets);
    if (broken !== null) problems.push(`transaction ${log.header.trxId}: ${broken}`);
    for (const offset of offsets) {
      try {
        const head = undoRecHeader(page, offset);
        let c = out.get(head.tableId);
        if (c === undefined) out.set(head.tableId, (c = { inserted: 0, updated: 0, deleted: 0, other: new Map(), columns: new Set() }));
        if (head.type === TRX_UNDO_INSERT_REC || head.type === TRX_UNDO_UPD_DEL_REC) c.inserted++;
        else if (head.type === TRX_UNDO_DEL_MARK_REC) c.deleted++;
        else if (head.type === TRX_UNDO_UPD_EXIST_REC) c.updated++;
        else c.other.set(typeName(head.type), (c.other.get(typeName(head.type)) ?? 0) + 1);
        const fields = head.type === TRX_UNDO_UPD_EXIST_REC ? indexFields(tables.get(BigInt(head.tableId))) : null;
        if (fields !== null) for (const u of readUndoRec(page, offset, fields.nUnique).update ?? []) c.columns.add(fields.names[u.fieldNo] ?? `field ${u.fieldNo}`);
      } catch (e) {
        if (!(e instanceof UndoRecordError)) throw e;
        problems.push(`transaction ${log.header.trxId}: the undo record at offset ${offset} cannot be read: ${e.message}`);
      }
    }
  }
  return out;
}

const STATE_WORDS = { active: 'active (rolled back at start)', prepared: 'XA prepared', committed: 'committed', purged: 'committed, purged' } as const;

/** --list-transactions: a line per transaction; returns the exit status. */
export async function listTransactions(undo: DatadirUndo, dictionary: Dictionary | null, write: (text: string) => Promise<void> | undefined, warn: (m: string) => void): Promise<number> {
  const tables = new Map((dictionary?.tables ?? []).map((t) => [t.id, t]));
  const problems = [...undo.logs.problems];
  for (const log of undo.logs.logs) {
    const h = log.header;
    const parts: string[] = [];
    for (const [id, c] of await changesOf(undo, log, tables, problems)) {
      const counts = [`${c.inserted} inserted`, `${c.updated} updated${c.columns.size > 0 ? ` (${[...c.columns].join(', ')})` : ''}`, `${c.deleted} deleted`, ...[...c.other].map(([k, n]) => `${n} ${k}`)];
      parts.push(`${tables.get(BigInt(id))?.name ?? `table id ${id}`}: ${counts.join(', ')}`);
    }
    const xa = h.xid ? ', XA' : '';
    const ddl = h.dictTrans ? `, DDL of table id ${h.tableId}` : '';
    await write(`trx ${h.trxId}\tno ${h.trxNo}\t${STATE_WORDS[log.state]}${xa}${ddl}\t${parts.length > 0 ? parts.join('; ') : 'no row changes'}\n`);
  }
  if (undo.logs.logs.length === 0) warn(`${undo.path}: its undo logs hold no transaction (none active or prepared at the crash, no history left: purge has processed every committed one)`);
  for (const p of problems) warn(p);
  return problems.length > 0 ? 2 : 0;
}

export interface TakenBack {
  versions: RowVersions;
  /** How each transaction's rows are said: "was active at the crash: rolled back", "taken back (--before-trx)". */
  verb: string;
}

/** The transactions a read takes back (null when none): active at the crash, or from --before-trx N on. */
export async function takenBack(undo: DatadirUndo, beforeTrx: number | null, say: (m: string) => void): Promise<TakenBack | null> {
  const logs = undo.logs.logs;
  for (const p of undo.logs.problems) say(p);
  if (beforeTrx === null) {
    // XA PREPARED ones the server keeps until XA COMMIT or XA ROLLBACK: shown as on disk, counted.
    const active = logs.filter((l) => l.state === 'active');
    const prepared = logs.filter((l) => l.state === 'prepared');
    return active.length + prepared.length === 0 ? null : { versions: await loadVersions(active, undo.spaceOf, Infinity, prepared), verb: 'was active at the crash: rolled back' };
  }
  const asked = logs.find((l) => l.header.trxId === beforeTrx && l.state !== 'purged');
  if (asked === undefined) {
    say(`transaction ${beforeTrx} is not in the undo logs' history (purge processed it, or no such transaction wrote): the rows changed by transactions from ${beforeTrx} on cannot be taken back and are marked history-lost`);
    const later = logs.filter((l) => l.header.trxId >= beforeTrx && l.state !== 'purged');
    return { versions: await loadVersions(later, undo.spaceOf, beforeTrx), verb: 'taken back' };
  }
  // N and every transaction committed after it (commit numbers), and those never committed.
  const later = logs.filter((l) => l.state === 'active' || l.state === 'prepared' || (l.state !== 'purged' && l.header.trxNo >= asked.header.trxNo));
  return { versions: await loadVersions(later, undo.spaceOf), verb: 'taken back' };
}

/** After a read: what each transaction taken back changed in it. */
export function sayTakenBack(file: string, taken: TakenBack, say: (m: string) => void): void {
  for (const p of taken.versions.problems) say(p);
  for (const [trx, n] of [...taken.versions.undone].sort((a, b) => a[0] - b[0])) {
    say(`${file}: transaction ${trx} ${taken.verb}, ${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'} changed`);
  }
  for (const [trx, n] of taken.versions.keptRows) {
    say(`${file}: transaction ${trx} is XA PREPARED (never committed, not rolled back by the server either): ${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'} it changed are shown as on disk, pending XA COMMIT or XA ROLLBACK`);
  }
}
