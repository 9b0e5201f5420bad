/**
 * The leaf decoder's part for a history (--history, trx/row-vers.ts loadHistory): every record is
 * written as each of its versions the undo logs still hold, newest first, each row ending with
 * `_trx_id` (the transaction that wrote that version, its DB_TRX_ID) and `_version` (0: the record
 * as it is, 1 the one before …). A delete is a version of its own (`delete-marked`). The walk back
 * stops at an insert, or at a version purge reset to DB_TRX_ID 0; where the version before cannot be
 * had (its writer's log purged, or kept but without it), the oldest version shown is `history-lost`,
 * counted and named. Versions written by a transaction that never committed are not shown (the
 * server's recovery takes them back).
 */
import type { ExternField, RecordSink } from '../records/record.ts';
import { readTrxId } from '../trx/roll-ptr.ts';
import { MAX_CHAIN, type RowVersions } from '../trx/row-vers.ts';
import type { BatchBuilder } from '../values/row-batch.ts';
import { addProblem } from './decode-stats.ts';
import { decodeRecord, recordSize, trxIdOffset, type VersionContext } from './leaf-versions.ts';
import { modeIncludes, type RowState } from './row-state.ts';

/** The two columns a history adds after the table's (and `_row_state`). */
export const HISTORY_COLUMNS = ['_trx_id', '_version'] as const;

/** A value stored off-page, fetched by the leaf decoder once the page's records are read. */
type PendingExtern = { origin: number; field: ExternField };

/** One version of a record: where its bytes lie, who wrote it, its delete mark. */
interface Held {
  bytes: Uint8Array;
  origin: number;
  trxId: number;
  deleted: boolean;
}

export class LeafHistory {
  private readonly fields: ExternField[] = [];
  private readonly spans = new Int32Array(128);
  /** The current record's versions, newest first (reused from record to record). */
  private readonly chain: Held[] = [];
  /** Where `_trx_id` lies in a row (then `_version`). */
  private readonly trxColumn: number;

  constructor(
    private readonly ctx: VersionContext & { columns: number },
    private readonly rows: RowVersions,
    private readonly sink: RecordSink,
    private readonly startRow: (out: BatchBuilder, state: RowState, rec: Uint8Array, recOrigin: number, origin: number) => number,
    private readonly fail: (page: number, origin: number, message: string) => void,
  ) {
    this.trxColumn = ctx.columns - HISTORY_COLUMNS.length;
  }

  /**
   * The record at `origin` as its versions; returns the record's size for the heap's account, or -1
   * when it does not measure (the caller then reads it as any record, and fails it).
   */
  decode(pageNo: number, bytes: Uint8Array, origin: number, deleted: boolean, out: BatchBuilder, externs: PendingExtern[]): number {
    const { compact, layout } = this.ctx;
    const size = recordSize(bytes, origin, layout, compact, this.fields);
    if (size < 0) return -1;
    const at = trxIdOffset(bytes, origin, layout, compact, this.spans);
    if (at < 0) return -1;
    const lost = this.walk(bytes, origin, readTrxId(bytes, at), deleted);
    this.write(pageNo, origin, lost, out, externs);
    return size;
  }

  /** Fills `chain` with the record's versions, newest first; returns why the walk stopped short, or null. */
  private walk(bytes: Uint8Array, origin: number, trxId: number, deleted: boolean): string | null {
    const { layout, compact } = this.ctx;
    const chain = this.chain;
    chain.length = 0;
    chain.push({ bytes, origin, trxId, deleted });
    for (let n = 0; n < MAX_CHAIN; n++) {
      const v = chain[chain.length - 1];
      if (!this.rows.trxIds.has(v.trxId)) return this.start(v);
      const step = this.rows.previous(v.bytes, v.origin, layout, compact, v.trxId);
      if (step.kind === 'none') return null;
      if (step.kind === 'lost') return step.why;
      chain.push(step);
    }
    return `its chain of versions runs past ${MAX_CHAIN} changes`;
  }

  /**
   * A version whose writer's log purge processed: the history's start when that writer inserted the
   * row (its DB_ROLL_PTR says so, whatever is left of its log) or when purge reset its DB_TRX_ID to 0
   * (all it knew of the row's past is gone, as for every row of a quiet table); else the writer
   * updated it, and what it replaced is gone: why.
   */
  private start(v: Held): string | null {
    if (v.trxId === 0) return null;
    const at = trxIdOffset(v.bytes, v.origin, this.ctx.layout, this.ctx.compact, this.spans);
    if (at >= 0 && (v.bytes[at + 6] & 0x80) !== 0) return null;
    return `transaction ${v.trxId} changed it, and its undo log is purged: the versions before are gone`;
  }

  /**
   * The chain's versions as rows: those of transactions never committed left out, and of one
   * transaction's several changes only the last (the others no other transaction ever saw).
   */
  private write(pageNo: number, origin: number, lost: string | null, out: BatchBuilder, externs: PendingExtern[]): void {
    const { mode, stats } = this.ctx;
    const chain = this.chain;
    let last = -1;
    for (let i = 0; i < chain.length; i++) if (this.shown(i)) last = i;
    let version = 0;
    for (let i = 0; i <= last; i++) {
      if (!this.shown(i)) continue;
      const v = chain[i];
      const state: RowState = i === last && lost !== null ? 'history-lost' : v.deleted ? 'delete-marked' : 'live';
      if (state === 'history-lost') {
        stats.historyLost++;
        addProblem(stats, pageNo, origin, `the row's versions before transaction ${v.trxId} cannot be had: ${lost}; its oldest version shown is marked history-lost${modeIncludes(mode, 'history-lost') ? '' : ' (withheld: --rows both shows it)'}`);
      }
      if (modeIncludes(mode, state)) this.writeVersion(pageNo, origin, v, state, version, out, externs);
      version++;
    }
  }

  /** Whether the chain's version i is a row of the history (see write). */
  private shown(i: number): boolean {
    const id = this.chain[i].trxId;
    return !this.rows.kept.has(id) && (i === 0 || this.chain[i - 1].trxId !== id);
  }

  /** One version of the record at `origin` as a row of this state, its values checked, with its `_trx_id` and `_version`. */
  private writeVersion(pageNo: number, origin: number, v: Held, state: RowState, version: number, out: BatchBuilder, externs: PendingExtern[]): void {
    const { compact, layout } = this.ctx;
    const row = out.mark();
    const base = this.startRow(out, state, v.bytes, v.origin, origin);
    this.sink.base = base;
    const error = decodeRecord(v.bytes, v.origin, layout, compact, this.sink, this.fields);
    if (error !== null) {
      out.rollback(row);
      this.fail(pageNo, v.origin, `the row's version of transaction ${v.trxId} does not decode: ${error}`);
      return;
    }
    out.setString(base + this.trxColumn, String(v.trxId));
    out.setString(base + this.trxColumn + 1, String(version));
    out.endRow();
    for (const field of this.fields) externs.push({ origin: v.origin, field });
  }
}
