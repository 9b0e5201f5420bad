/**
 * Older versions of clustered records (row0vers: row_vers_build_for_consistent_read, and trx0roll's
 * rollback of a recovered transaction, which undoes the same way): a record last changed by a
 * transaction of a given set is replaced by its version before that transaction, rebuilt from the
 * undo record its DB_ROLL_PTR names (the fields the update changed get their old values back, the
 * delete mark its old state, DB_TRX_ID and DB_ROLL_PTR theirs), repeated while that version is also
 * one of the set's. A record the set inserted had no earlier version: it is no row. An undo record
 * that is gone (purged, its page reused), of another transaction, or of another row is never taken for
 * the old version: the row's history is lost, and said.
 */
import type { ClusteredLayout } from '../records/clustered-index.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';
import { UndoRecordError } from './mach-compressed.ts';
import { buildRecord, recordFields } from './rec-fields.ts';
import { readRollPtr, readTrxId, undoAddress, writeRollPtr } from './roll-ptr.ts';
import { readUndoRec, TRX_UNDO_DEL_MARK_REC, TRX_UNDO_UPD_DEL_REC, TRX_UNDO_UPD_EXIST_REC, type UndoRec, type UndoValue } from './trx-rec.ts';
import { recordOffsets } from './trx-undo.ts';
import { logPages, type SpaceOf, type UndoLog } from './undo-logs.ts';

/** What a record is once the set's changes are taken back. */
export type Version =
  /** The set inserted it: no row. */
  | { kind: 'none'; trxId: number }
  /**
   * An earlier version, as a record in the page's format; `deleted`: its delete mark; `changed`: the
   * fields whose values it got back (field numbers of the layout), null when a later transaction
   * deleted the row (every value is back).
   */
  | { kind: 'record'; trxId: number; bytes: Uint8Array; origin: number; deleted: boolean; changed: number[] | null }
  /** Its version before the set cannot be had: why. */
  | { kind: 'lost'; trxId: number; why: string };

/** One version back (RowVersions.previous): none (an insert), the earlier version, or why it cannot be had. */
export type Step =
  | { kind: 'none' }
  | { kind: 'record'; bytes: Uint8Array; origin: number; trxId: number; deleted: boolean; fields: number[] | null }
  | { kind: 'lost'; why: string };

/** Where an undo record lies, with its page and the transaction whose log holds it. */
export interface Located {
  page: Uint8Array;
  offset: number;
  trxId: number;
}

/**
 * The undo pages kept for a read, at most: the logs of an UPDATE of every row of a large table pass
 * it; rows whose undo records lie beyond it are history-lost (said), memory stays bounded.
 */
const MAX_KEPT_BYTES = 256 << 20;

/** Changes chained through one row beyond this many are a damaged chain (a loop), not history. */
export const MAX_CHAIN = 10000;

export class RowVersions {
  /** Rows each transaction of the set changed that were taken back (an update or delete undone, an insert removed). */
  readonly undone = new Map<number, number>();
  /** Of those, the rows each transaction inserted, which are no rows once taken back. */
  readonly removed = new Map<number, number>();
  /** Records each kept transaction (XA prepared: not taken back) changed, shown as on disk. */
  readonly keptRows = new Map<number, number>();

  constructor(
    /** The transactions whose changes are taken back. */
    readonly trxIds: ReadonlySet<number>,
    /** Undo records of the set's logs, by rollback segment, then page and offset (undoAddress). */
    private readonly records: ReadonlyMap<number, ReadonlyMap<number, Located>>,
    /** Pages of the set's logs that could not be read, said once. */
    readonly problems: readonly string[],
    /**
     * Transactions from this id on are taken back too, though no log of theirs is at hand (purge
     * processed the log of the transaction asked for): their rows' history is lost, and said so.
     */
    private readonly from = Infinity,
    /**
     * Transactions not taken back but never committed (XA prepared): their records are counted. In
     * a history, every transaction never committed (active at the crash, XA prepared).
     */
    readonly kept: ReadonlySet<number> = new Set(),
    /** Every version of every record is wanted (--history), not the one before the set. */
    readonly history = false,
  ) {}

  /** The record's DB_TRX_ID when it is one of the set's (its version must be taken back), else -1. One read per record. */
  changedBy(page: Uint8Array, trxIdAt: number): number {
    if (trxIdAt < 0) return -1;
    const id = readTrxId(page, trxIdAt);
    // With no log of the transaction asked for, a DB_TRX_ID that purge reset to 0 may hide its change too.
    if (this.trxIds.has(id) || id >= this.from || (id === 0 && this.from !== Infinity)) return id;
    if (this.kept.size > 0 && this.kept.has(id)) this.keptRows.set(id, (this.keptRows.get(id) ?? 0) + 1);
    return -1;
  }

  /**
   * The version of the record at `origin` before every transaction of the set, the record's
   * DB_TRX_ID (at `trxIdAt`) being `trxId`, one of them.
   */
  versionOf(page: Uint8Array, origin: number, layout: ClusteredLayout, compact: boolean, trxId: number): Version {
    if (trxId === 0) return { kind: 'lost', trxId, why: 'purge reset its DB_TRX_ID: it was last changed by a transaction whose undo log is gone, which may be the one asked for or a later one' };
    let bytes = page;
    let at = origin;
    let id = trxId;
    let deleted = false;
    let changed: number[] | null = [];
    for (let n = 0; n < MAX_CHAIN && (this.trxIds.has(id) || id >= this.from); n++) {
      if (!this.trxIds.has(id)) return { kind: 'lost', trxId, why: `transaction ${id}'s undo log is no longer kept (purged)` };
      const step = this.previous(bytes, at, layout, compact, id);
      if (step.kind === 'none') return this.taken({ kind: 'none', trxId });
      if (step.kind === 'lost') return { kind: 'lost', trxId, why: step.why };
      ({ bytes, origin: at, trxId: id, deleted } = step);
      if (step.fields === null) changed = null;
      else for (const f of step.fields) changed?.push(f);
    }
    if (this.trxIds.has(id) || id >= this.from) return { kind: 'lost', trxId, why: `its chain of versions runs past ${MAX_CHAIN} changes` };
    return this.taken({ kind: 'record', trxId, bytes, origin: at, deleted, changed });
  }

  /**
   * One step back: the version of the record at `origin` before transaction `id` (its DB_TRX_ID, one
   * of the set's) wrote it, from the undo record its DB_ROLL_PTR names; `trxId` of a record step is
   * the DB_TRX_ID of that earlier version.
   */
  previous(bytes: Uint8Array, at: number, layout: ClusteredLayout, compact: boolean, id: number): Step {
    if (layout.instant) return { kind: 'lost', why: 'the table was altered with ALGORITHM=INSTANT, whose records this reader does not rebuild from undo logs' };
    try {
      const fields = recordFields(bytes, at, layout, compact);
      const roll = readRollPtr(fields[layout.nUnique + 1].bytes as Uint8Array, 0);
      if (roll.insert) return { kind: 'none' };
      const located = this.records.get(roll.rsegId)?.get(undoAddress(roll.pageNo, roll.offset));
      if (located === undefined) return { kind: 'lost', why: `its undo record (rollback segment ${roll.rsegId}, page ${roll.pageNo}, offset ${roll.offset}) is not in the undo log of transaction ${id}${this.problems.length > 0 ? ' as far as it could be read' : ''}` };
      if (located.trxId !== id) return { kind: 'lost', why: `its undo record (page ${roll.pageNo}, offset ${roll.offset}) is now transaction ${located.trxId}'s, not ${id}'s: that log was purged and its space reused` };
      const rec = readUndoRec(located.page, located.offset, layout.nUnique);
      const why = mismatch(rec, fields, layout.nUnique);
      if (why !== null) return { kind: 'lost', why: `its undo record (page ${roll.pageNo}, offset ${roll.offset}) ${why}` };
      const built = buildRecord(applyUndo(rec, fields, layout.nUnique), layout, compact, rec.infoBits);
      // The fields this step changed: all of them for a delete mark (the whole row comes back).
      const changed = rec.type === TRX_UNDO_DEL_MARK_REC ? null : (rec.update ?? []).map((u) => u.fieldNo);
      return { kind: 'record', bytes: built.bytes, origin: built.origin, trxId: rec.oldTrxId, deleted: (rec.infoBits & 0x20) !== 0, fields: changed };
    } catch (e) {
      if (!(e instanceof UndoRecordError)) throw e;
      return { kind: 'lost', why: `its undo record cannot be read: ${e.message}` };
    }
  }

  /** A version taken back, counted for its transaction. */
  private taken(v: Version): Version {
    this.undone.set(v.trxId, (this.undone.get(v.trxId) ?? 0) + 1);
    if (v.kind === 'none') this.removed.set(v.trxId, (this.removed.get(v.trxId) ?? 0) + 1);
    return v;
  }

  /** Every undo record of the set's logs, where it lies and whose it is (for a rollback of a secondary index's entries). */
  *undoRecords(): Generator<Located> {
    for (const bySeg of this.records.values()) yield* bySeg.values();
  }

  /** The undo record a roll pointer names, when it is one of the set's logs'. */
  undoAt(rsegId: number, pageNo: number, offset: number): Located | undefined {
    return this.records.get(rsegId)?.get(undoAddress(pageNo, offset));
  }

  /** A row (a secondary index's entry) taken back by transaction `trxId` elsewhere than versionOf: counted; `removed`, it is no row now. */
  countTaken(trxId: number, removed: boolean): void {
    this.undone.set(trxId, (this.undone.get(trxId) ?? 0) + 1);
    if (removed) this.removed.set(trxId, (this.removed.get(trxId) ?? 0) + 1);
  }

  /** Whether every transaction taken back has its log here (no --before-trx N whose log purge processed) and no history is wanted. */
  get allLogged(): boolean {
    return this.from === Infinity && !this.history;
  }

  /** The same versions with counts of their own: a reader that must count only what it decodes (one leaf at a time) beside others sharing the undo records. */
  fork(): RowVersions {
    return new RowVersions(this.trxIds, this.records, this.problems, this.from, this.kept, this.history);
  }
}

/** Why the undo record is not one of this record's changes, or null. */
function mismatch(rec: UndoRec, fields: readonly UndoValue[], nUnique: number): string | null {
  if (rec.type !== TRX_UNDO_UPD_EXIST_REC && rec.type !== TRX_UNDO_UPD_DEL_REC && rec.type !== TRX_UNDO_DEL_MARK_REC) return `is of type ${rec.type}, not an update or delete`;
  for (let i = 0; i < nUnique; i++) {
    const a = rec.key[i].bytes;
    const b = fields[i].bytes;
    if (a === null || b === null ? a !== b : !sameBytes(a, b)) return 'is of another row (its key differs)';
  }
  return null;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The fields of the version before the undo record's change: old values, old DB_TRX_ID and DB_ROLL_PTR. */
function applyUndo(rec: UndoRec, fields: readonly UndoValue[], nUnique: number): UndoValue[] {
  const out = fields.slice();
  const trx = new Uint8Array(6);
  const high = Math.floor(rec.oldTrxId / 2 ** 32);
  trx.set([(high >> 8) & 0xff, high & 0xff, rec.oldTrxId >>> 24 & 0xff, (rec.oldTrxId >>> 16) & 0xff, (rec.oldTrxId >>> 8) & 0xff, rec.oldTrxId & 0xff]);
  const roll = new Uint8Array(7);
  if (rec.oldRollPtr !== null) writeRollPtr(rec.oldRollPtr, roll, 0);
  out[nUnique] = { bytes: trx, external: false };
  out[nUnique + 1] = { bytes: roll, external: false };
  for (const u of rec.update ?? []) {
    if (u.fieldNo >= out.length || u.fieldNo === nUnique || u.fieldNo === nUnique + 1) throw new UndoRecordError(`the update vector names field ${u.fieldNo}, which the table's records do not have`);
    out[u.fieldNo] = u.value;
  }
  return out;
}

/**
 * The RowVersions taking back the changes of these logs' transactions: their undo records read (and
 * kept, by address) from their pages. Records are parsed when a row asks for one.
 */
export async function loadVersions(logs: readonly UndoLog[], spaceOf: SpaceOf, from = Infinity, prepared: readonly UndoLog[] = []): Promise<RowVersions> {
  const { records, problems } = await readLogs(logs, spaceOf);
  return new RowVersions(new Set(logs.map((l) => l.header.trxId)), records, problems, from, new Set(prepared.map((l) => l.header.trxId)));
}

/**
 * The RowVersions of a history (--history): every log not purged is read, so that each record's
 * versions can be walked back as far as the undo logs keep them; `uncommitted`: the transactions
 * that never committed, whose versions are not shown.
 */
export async function loadHistory(logs: readonly UndoLog[], spaceOf: SpaceOf): Promise<RowVersions> {
  const kept = logs.filter((l) => l.state !== 'purged');
  const { records, problems } = await readLogs(kept, spaceOf);
  const uncommitted = kept.filter((l) => l.state === 'active' || l.state === 'prepared').map((l) => l.header.trxId);
  return new RowVersions(new Set(kept.map((l) => l.header.trxId)), records, problems, Infinity, new Set(uncommitted), true);
}

/** The undo records of these logs, by rollback segment and address, and the pages that could not be read. */
async function readLogs(logs: readonly UndoLog[], spaceOf: SpaceOf): Promise<{ records: Map<number, Map<number, Located>>; problems: string[] }> {
  const records = new Map<number, Map<number, Located>>();
  const problems: string[] = [];
  let kept = 0;
  for (const log of logs) {
    if (kept > MAX_KEPT_BYTES) {
      problems.push(`the undo logs to read pass ${MAX_KEPT_BYTES >> 20} MiB: those of transaction ${log.header.trxId} and later are not read, and the rows they changed are history-lost`);
      break;
    }
    const ts: Tablespace | null = await spaceOf(log.rseg.spaceId);
    if (ts === null) {
      problems.push(`the undo log of transaction ${log.header.trxId} lies in tablespace ${log.rseg.spaceId}, which is not at hand`);
      continue;
    }
    let bySeg = records.get(log.rseg.id);
    if (bySeg === undefined) records.set(log.rseg.id, (bySeg = new Map()));
    const offsets: number[] = [];
    for await (const { pageNo, page, from, to } of logPages(ts, log.header, problems)) {
      offsets.length = 0;
      const broken = recordOffsets(page, from, to, offsets);
      if (broken !== null) problems.push(`the undo log of transaction ${log.header.trxId}, ${ts.source.name} page ${pageNo}: ${broken}`);
      // A copy: the tablespace's buffers are its own.
      const copy = page.slice();
      kept += copy.length;
      for (const offset of offsets) bySeg.set(undoAddress(pageNo, offset), { page: copy, offset, trxId: log.header.trxId });
    }
  }
  return { records, problems };
}
