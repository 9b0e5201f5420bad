/**
 * The leaf decoder's part for versions (trx/row-vers.ts): a record whose DB_TRX_ID is one of the
 * transactions whose changes are taken back is shown as its version before them, is no row (they
 * inserted it), or, its earlier version lost, is marked `history-lost` (or withheld), counted and
 * named. Records of other transactions cost one read of their DB_TRX_ID and a set lookup.
 */
import { RecordError, decodeCompact, decodeRedundant, type ExternField, type RecordSink } from '../records/record.ts';
import { keySpans } from '../records/key-fields.ts';
import type { RowVersions } from '../trx/row-vers.ts';
import { ENTRY_AS_IS, ENTRY_LIVE, ENTRY_LOST, ENTRY_REMOVED, type SecondaryUndo } from '../trx/row-undo-sec.ts';
import { compactInfoBits, REC_INFO_DELETED, redundantInfoBits } from '../pages/index-page.ts';
import type { BatchBuilder } from '../values/row-batch.ts';
import { addProblem } from './decode-stats.ts';
import type { ClusteredLayout } from '../records/clustered-index.ts';
import type { DecodeStats } from './decode-stats.ts';
import { modeIncludes, type RowMode, type RowState } from './row-state.ts';

/** What of the leaf decoder's context the versions need (leaf-decoder.ts LeafContext). */
export interface VersionContext {
  layout: ClusteredLayout;
  compact: boolean;
  mode: RowMode;
  stats: DecodeStats;
}

/** A value stored off-page, fetched by the leaf decoder once the page's records are read. */
type PendingExtern = { origin: number; field: ExternField };

export class LeafVersions {
  private readonly fields: ExternField[] = [];
  /** Key fields' spans, for where a record's DB_TRX_ID lies. */
  private readonly spans = new Int32Array(128);

  constructor(
    private readonly ctx: VersionContext,
    private readonly rows: RowVersions,
    private readonly sink: RecordSink,
    private readonly startRow: (out: BatchBuilder, state: RowState, rec: Uint8Array, recOrigin: number, origin: number) => number,
    private readonly fail: (page: number, origin: number, message: string) => void,
    /** A secondary index's read: its entries as the rollback leaves them (null: as on disk). */
    private readonly secondary: SecondaryUndo | null = null,
  ) {}

  /**
   * The record at `origin` when a transaction taken back changed it last (see decodeVersion); -1 for
   * any other record, which the caller reads as usual.
   */
  decode(pageNo: number, bytes: Uint8Array, origin: number, out: BatchBuilder, externs: PendingExtern[]): number {
    if (this.ctx.layout.secondary !== undefined) return this.secondary === null ? -1 : this.decodeEntry(pageNo, bytes, origin, out, externs);
    const trxId = this.rows.changedBy(bytes, trxIdOffset(bytes, origin, this.ctx.layout, this.ctx.compact, this.spans));
    return trxId < 0 ? -1 : this.decodeVersion(pageNo, bytes, origin, trxId, out, externs);
  }

  /**
   * A record last changed by a transaction whose changes are taken back: its version before them
   * (trx/row-vers.ts) as the row, no row when they inserted it, or, when that version cannot be had,
   * the record as it is marked `history-lost` (or withheld, counted and named). Returns the record's
   * size for the heap's account, or -1 when it does not measure (it is then read as any record).
   */
  private decodeVersion(pageNo: number, bytes: Uint8Array, origin: number, trxId: number, out: BatchBuilder, externs: PendingExtern[]): number {
    const { compact, layout, mode, stats } = this.ctx;
    const size = recordSize(bytes, origin, layout, compact, this.fields);
    if (size < 0) return -1;
    const v = this.rows.versionOf(bytes, origin, layout, compact, trxId);
    if (v.kind === 'lost') {
      stats.historyLost++;
      const shown = modeIncludes(mode, 'history-lost');
      addProblem(stats, pageNo, origin, `the row was last changed by transaction ${trxId}, and its version before it cannot be had: ${v.why}; ${shown ? 'shown as it is on disk, marked history-lost' : 'withheld (--rows both shows it as it is on disk, marked history-lost)'}`);
      if (shown) this.writeVersion(pageNo, bytes, origin, origin, 'history-lost', out, externs);
      return size;
    }
    stats.rowsRolledBack++;
    if (v.kind === 'none') return size;
    const state = v.deleted ? 'delete-marked' : 'live';
    const wanted = modeIncludes(mode, state);
    if (v.deleted) stats[wanted ? 'deletedRecovered' : 'deletedSkipped']++;
    if (wanted && this.writeVersion(pageNo, v.bytes, v.origin, origin, state, out, externs)) this.markChanged(v.changed, out);
    return size;
  }

  /**
   * A secondary index's entry of a row a transaction taken back changed (trx/row-undo-sec.ts): gone,
   * shown live or delete-marked as its row's version before them has it, or, that version's entry not
   * to be had, as on disk marked `history-lost`. Counted where the rollback changes what it shows.
   */
  private decodeEntry(pageNo: number, bytes: Uint8Array, origin: number, out: BatchBuilder, externs: PendingExtern[]): number {
    const { compact, layout, mode, stats } = this.ctx;
    const onDisk = ((compact ? compactInfoBits(bytes, origin) : redundantInfoBits(bytes, origin)) & REC_INFO_DELETED) !== 0;
    const undo = this.secondary as SecondaryUndo;
    const verdict = undo.verdict(bytes, origin, compact, onDisk);
    if (verdict === ENTRY_AS_IS) return -1;
    const size = recordSize(bytes, origin, layout, compact, this.fields);
    if (size < 0) return -1;
    if (verdict === ENTRY_LOST) {
      stats.historyLost++;
      const shown = modeIncludes(mode, 'history-lost');
      addProblem(stats, pageNo, origin, `the entry's row was changed by transaction ${undo.trxId}, and its entry before it cannot be had: ${undo.why}; ${shown ? 'shown as it is on disk, marked history-lost' : 'withheld (--rows both shows it as it is on disk, marked history-lost)'}`);
      if (shown) this.writeVersion(pageNo, bytes, origin, origin, 'history-lost', out, externs);
      return size;
    }
    const deleted = verdict !== ENTRY_LIVE;
    if (deleted !== onDisk) {
      stats.rowsRolledBack++;
      this.rows.countTaken(undo.trxId, deleted);
    }
    if (verdict === ENTRY_REMOVED) return size;
    const state = deleted ? 'delete-marked' : 'live';
    const wanted = modeIncludes(mode, state);
    if (deleted) stats[wanted ? 'deletedRecovered' : 'deletedSkipped']++;
    if (wanted) this.writeVersion(pageNo, bytes, origin, origin, state, out, externs);
    return size;
  }

  /** The cells of the row just written whose values the version got back (all of them when the row had been deleted since). */
  private markChanged(fields: readonly number[] | null, out: BatchBuilder): void {
    const { layout } = this.ctx;
    if (fields === null) {
      for (const f of layout.fields) if (f.out >= 0) out.markChanged(f.out);
      return;
    }
    for (const no of fields) {
      const col = layout.fields[no]?.out ?? -1;
      if (col >= 0) out.markChanged(col);
    }
  }

  /**
   * A record (a rebuilt version, or one whose history is lost) as a row of this state, its values
   * checked; false when it does not decode. `diskOrigin`: where the record it is a version of lies.
   */
  private writeVersion(pageNo: number, bytes: Uint8Array, origin: number, diskOrigin: number, state: RowState, out: BatchBuilder, externs: PendingExtern[]): boolean {
    const { compact, layout } = this.ctx;
    const row = out.mark();
    this.sink.base = this.startRow(out, state, bytes, origin, diskOrigin);
    const error = decodeRecord(bytes, origin, layout, compact, this.sink, this.fields);
    if (error !== null) {
      out.rollback(row);
      this.fail(pageNo, origin, `the row's earlier version does not decode: ${error}`);
      return false;
    }
    out.endRow();
    for (const field of this.fields) externs.push({ origin, field });
    return true;
  }
}

/** The record's size, or -1 when it does not measure; `fields` a scratch list, left empty. */
export function recordSize(bytes: Uint8Array, origin: number, layout: ClusteredLayout, compact: boolean, fields: ExternField[]): number {
  try {
    return compact ? decodeCompact(bytes, origin, layout, null, fields, false) : decodeRedundant(bytes, origin, layout, null, fields, false);
  } catch (e) {
    if (e instanceof RecordError) return -1;
    throw e;
  } finally {
    fields.length = 0;
  }
}

/**
 * The record's values written through `sink` (its base set to the row begun), checked, its off-page
 * fields listed in `fields` (emptied first); why it does not decode, or null.
 */
export function decodeRecord(bytes: Uint8Array, origin: number, layout: ClusteredLayout, compact: boolean, sink: RecordSink, fields: ExternField[]): string | null {
  fields.length = 0;
  try {
    if (compact) decodeCompact(bytes, origin, layout, sink, fields, true);
    else decodeRedundant(bytes, origin, layout, sink, fields, true);
    return null;
  } catch (e) {
    if (!(e instanceof RecordError)) throw e;
    return e.message;
  }
}

/**
 * Where the record's DB_TRX_ID lies (after the key fields), or -1 when its key fields do not measure;
 * `spans` a scratch array for the key fields' spans.
 */
export function trxIdOffset(bytes: Uint8Array, origin: number, layout: ClusteredLayout, compact: boolean, spans: Int32Array): number {
  const n = layout.nUnique;
  if (spans.length < 2 * n + 2) return -1;
  try {
    keySpans(bytes, origin, layout, compact, true, n + 1, spans);
  } catch (e) {
    if (e instanceof RecordError) return -1;
    throw e;
  }
  return spans[2 * n];
}
