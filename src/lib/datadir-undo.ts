/**
 * A datadir's undo logs (core/trx/), for the CLI, the page and the library alike: opened from its
 * system tablespace (ibdata1 …) and undo tablespaces (undo001 …) given as ByteSources, read through
 * the datadir's redo log when there is one (after a crash the undo pages of the transactions to roll
 * back may be in the log only); what each transaction changed (trx id, commit number, state, tables,
 * rows inserted/updated/deleted, columns changed); and which transactions a read takes back: those
 * active at a crash (as the server's recovery rolls them back), or with "before N", N and every
 * transaction committed after it. No Node: the caller opens the files.
 */
import type { Dictionary, DictTable } from '../core/definitions/dictionary/dict-tables.ts';
import { systemDictionary } from '../core/definitions/dictionary/system-schema.ts';
import { recoveryAmiss, recoveryLines, withRedoLogAll } from '../core/log/redo-recovery.ts';
import type { LogCensus } from '../core/log/redo-scan.ts';
import { dataFilesSource } from '../core/tablespace/data-files.ts';
import type { EncryptionKeys } from '../core/tablespace/encryption.ts';
import type { ByteSource } from '../core/tablespace/source.ts';
import { Tablespace } from '../core/tablespace/tablespace.ts';
import { UndoRecordError } from '../core/trx/mach-compressed.ts';
import { loadHistory, loadVersions, type RowVersions } from '../core/trx/row-vers.ts';
import { readUndoRec, TRX_UNDO_DEL_MARK_REC, TRX_UNDO_INSERT_REC, TRX_UNDO_UPD_DEL_REC, TRX_UNDO_UPD_EXIST_REC, typeName, undoRecHeader } from '../core/trx/trx-rec.ts';
import { recordOffsets } from '../core/trx/trx-undo.ts';
import { logPages, readUndoLogs, type SpaceOf, type TrxState, type UndoLog, type UndoLogs } from '../core/trx/undo-logs.ts';
import { companionSource, type FileInput } from './inputs.ts';

export type { TrxState } from '../core/trx/undo-logs.ts';
export type { RowVersions } from '../core/trx/row-vers.ts';

/** The files a datadir's undo logs are read from. */
export interface UndoSources {
  /** The system tablespace: ibdata1 (its further data files joined to it: dataFilesSource). */
  system: ByteSource;
  /** The undo tablespaces (undo001 …); MySQL 8's (undo_001 …) are named as not read. */
  undoSpaces?: readonly ByteSource[];
  /** The datadir's redo log (ib_logfile0): the files are read as its recovery leaves them; none: as on disk. */
  redoLog?: ByteSource | null;
  /** The keys of an encrypted datadir (its redo log, system and undo tablespaces). */
  keys?: EncryptionKeys;
  /** The log's census, when taken already (the page's, once for every worker): only its stretches holding these files' records are read. */
  redoCensus?: LogCensus | null;
}

export interface DatadirUndo {
  /** The system tablespace as read (recovered through the redo log when one was given). */
  system: Tablespace;
  spaceOf: SpaceOf;
  logs: UndoLogs;
}

/** MySQL 8's undo tablespaces: their rollback segments lie in RSEG_ARRAY pages, which TRX_SYS does not list. */
const MYSQL8_UNDO = /(^|\/)undo_\d{3}$/i;

/**
 * The files read through the redo log `log` (indexed once for all of them), the system tablespace's
 * doublewrite buffer restoring torn pages. Where the log fails a file, said.
 */
async function recovered(sources: ByteSource[], log: ByteSource, keys: EncryptionKeys | undefined, census: LogCensus | null): Promise<{ sources: ByteSource[]; problems: string[] }> {
  const done = await withRedoLogAll(sources, log, { systemTablespace: sources[0], keys, census });
  const problems: string[] = [];
  // pagesInLog is known only where a 10.8+ log was read: other logs' bounds the table's own lines say.
  done.forEach((d, k) => {
    if (recoveryAmiss(d.recovery) && d.recovery.pagesInLog !== null) problems.push(...recoveryLines(sources[k].name, d.recovery).slice(1).map((l) => `undo logs: ${l}`));
  });
  return { sources: done.map((d) => d.source), problems };
}

/** Opens a datadir's undo logs from its files (the caller keeps and closes them). */
export async function openUndoSources(files: UndoSources): Promise<DatadirUndo> {
  const all = files.undoSpaces ?? [];
  const undoSpaces = all.filter((s) => !MYSQL8_UNDO.test(s.name));
  const given = [files.system, ...undoSpaces];
  const read = files.redoLog ? await recovered(given, files.redoLog, files.keys, files.redoCensus ?? null) : { sources: given, problems: [] };
  const system = await Tablespace.open(read.sources[0], { keys: files.keys });
  const spaces = new Map<number, Tablespace>([[0, system]]);
  for (const source of read.sources.slice(1)) {
    const ts = await Tablespace.open(source, { keys: files.keys }).catch(() => null);
    if (ts !== null) spaces.set(ts.fsp.spaceId, ts);
  }
  const spaceOf: SpaceOf = async (id) => spaces.get(id) ?? null;
  const logs = await readUndoLogs(system, spaceOf);
  logs.problems.push(...read.problems);
  const mysql8 = all.filter((s) => MYSQL8_UNDO.test(s.name)).map((s) => s.name);
  if (mysql8.length > 0) logs.problems.push(`${mysql8.join(', ')}: MySQL 8 undo tablespaces, whose rollback segments (in their RSEG_ARRAY pages) this reader does not read: transactions active at a crash whose undo logs lie there are not rolled back, and their rows are shown as on disk`);
  return { system, spaceOf, logs };
}

/** A datadir's files as the library takes them (Files, or named data). */
export interface DatadirUndoFiles {
  /** ibdata1, and ibdata2 … after it when the system tablespace spans several files. */
  system: FileInput | readonly FileInput[];
  undoSpaces?: readonly FileInput[];
  redoLog?: FileInput | null;
}

/** Opens a datadir's undo logs from Files or named data (library entry). */
export function openDatadirUndo(files: DatadirUndoFiles): Promise<DatadirUndo> {
  const system = Array.isArray(files.system) ? (files.system as readonly FileInput[]).map(companionSource) : [companionSource(files.system as FileInput)];
  return openUndoSources({
    system: system.length === 1 ? system[0] : dataFilesSource(system),
    undoSpaces: files.undoSpaces?.map(companionSource),
    redoLog: files.redoLog ? companionSource(files.redoLog) : null,
  });
}

/** What one transaction changed in one table. */
export interface TableChanges {
  tableId: number;
  /** Its name (db/table) in the system tablespace's data dictionary, or null when not found there. */
  name: string | null;
  inserted: number;
  updated: number;
  deleted: number;
  /** Undo records of other kinds, by kind. */
  other: Record<string, number>;
  /** The columns its updates changed (by name). */
  columns: string[];
}

/** A transaction of the undo logs. */
export interface TransactionInfo {
  trxId: number;
  /** Its commit number (order of commits); 0 for one never committed. */
  trxNo: number;
  state: TrxState;
  /** An XA transaction. */
  xa: boolean;
  /** The table whose definition it changed (a DDL transaction), or null. */
  ddlTableId: number | null;
  tables: TableChanges[];
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

interface Counting extends Omit<TableChanges, 'columns'> {
  columns: Set<string>;
}

/** What one transaction's log changed, table by table. */
async function changesOf(undo: DatadirUndo, log: UndoLog, tables: Map<bigint, DictTable>, problems: string[]): Promise<TableChanges[]> {
  const out = new Map<number, Counting>();
  const ts = await undo.spaceOf(log.rseg.spaceId);
  if (ts === null) return [];
  const offsets: number[] = [];
  for await (const { page, from, to } of logPages(ts, log.header, problems)) {
    offsets.length = 0;
    const broken = recordOffsets(page, from, to, offsets);
    if (broken !== null) problems.push(`transaction ${log.header.trxId}: ${broken}`);
    for (const offset of offsets) {
      try {
        const head = undoRecHeader(page, offset);
        let c = out.get(head.tableId);
        if (c === undefined) out.set(head.tableId, (c = { tableId: head.tableId, name: tables.get(BigInt(head.tableId))?.name ?? null, inserted: 0, updated: 0, deleted: 0, other: {}, columns: new Set() }));
        if (head.type === TRX_UNDO_INSERT_REC || head.type === TRX_UNDO_UPD_DEL_REC) c.inserted++;
        else if (head.type === TRX_UNDO_DEL_MARK_REC) c.deleted++;
        else if (head.type === TRX_UNDO_UPD_EXIST_REC) c.updated++;
        else c.other[typeName(head.type)] = (c.other[typeName(head.type)] ?? 0) + 1;
        const fields = head.type === TRX_UNDO_UPD_EXIST_REC ? indexFields(tables.get(BigInt(head.tableId))) : null;
        if (fields !== null) for (const u of readUndoRec(page, offset, fields.nUnique).update ?? []) c.columns.add(fields.names[u.fieldNo] ?? `field ${u.fieldNo}`);
      } catch (e) {
        if (!(e instanceof UndoRecordError)) throw e;
        problems.push(`transaction ${log.header.trxId}: the undo record at offset ${offset} cannot be read: ${e.message}`);
      }
    }
  }
  return [...out.values()].map((c) => ({ ...c, columns: [...c.columns] }));
}

/**
 * The transactions of the undo logs, oldest first, one at a time (a long history list is not held
 * whole); tables named through `dictionary` (the system tablespace's own when not given). What
 * cannot be read is added to `problems` (the logs' own problems first).
 */
export async function* transactionsOf(undo: DatadirUndo, problems: string[], dictionary?: Dictionary | null): AsyncGenerator<TransactionInfo> {
  const dict = dictionary === undefined ? await systemDictionary(undo.system.source) : dictionary;
  const tables = new Map((dict?.tables ?? []).map((t) => [t.id, t]));
  problems.push(...undo.logs.problems);
  for (const log of undo.logs.logs) {
    const h = log.header;
    yield { trxId: h.trxId, trxNo: h.trxNo, state: log.state, xa: h.xid, ddlTableId: h.dictTrans ? h.tableId : null, tables: await changesOf(undo, log, tables, problems) };
  }
}

export interface TakenBack {
  versions: RowVersions;
  /** How each transaction's rows are said: "was active at the crash: rolled back", "taken back". */
  verb: string;
}

/**
 * The transactions a read takes back (null when none): those active at the crash, or with
 * `beforeTrx` N, N and every one committed after it (and those never committed). What cannot be had
 * is said through `say`. The versions go to InnodbFile.table's `versions` (one thread reads them).
 */
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

/**
 * The versions a history reads (--history, --revert-trx N, the page's "Revert SQL"): every undo log
 * purge has not processed. With `revertTrx` N, N's log must be one of them (else what N changed
 * cannot be told: an error).
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

/** After a read of `file`: what each transaction taken back changed in it, a line each, and the problems met. */
export function takenBackLines(file: string, taken: TakenBack): string[] {
  const lines = [...taken.versions.problems];
  for (const [trx, n] of [...taken.versions.undone].sort((a, b) => a[0] - b[0])) {
    lines.push(`${file}: transaction ${trx} ${taken.verb}, ${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'} changed`);
  }
  for (const [trx, n] of taken.versions.keptRows) {
    lines.push(`${file}: transaction ${trx} is XA PREPARED (never committed, not rolled back by the server either): ${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'} it changed are shown as on disk, pending XA COMMIT or XA ROLLBACK`);
  }
  return lines;
}
