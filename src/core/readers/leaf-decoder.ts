/**
 * One leaf page of the clustered index into rows, each with its state (row-state.ts).
 *
 * A page is trusted when it passes its checksum and the structural checks: its record list walks
 * from infimum to supremum inside the page, holds as many records as PAGE_N_RECS says, and (when
 * every record decoded) the records and PAGE_GARBAGE fill the heap exactly. Its rows are `live` or
 * `delete-marked`, and purged ones come from its free list. A record that fails to decode there is
 * not a row: it is counted and named. The value checks of every type (types/value-check.ts) run
 * wherever no checksum vouches for the bytes: every record of a damaged page, purged records, the
 * first page (where they check the definition) and pages written without checksums.
 *
 * A page that fails any of that is damaged. Its records are read off the list as far as the list
 * goes, then the rest of the page body is carved for records (page-carve.ts); every one that
 * measures and passes its value checks is a row of state `damaged`, returned in the `damaged` and
 * `all` modes and otherwise counted as withheld. Nothing from a damaged page is ever a `live` row.
 *
 * On the table's first leaf page that is not damaged, a heap that does not add up, a record that
 * cannot be laid out, or values mostly out of range mean the definition is wrong, not the page: a
 * DefinitionMismatch, and no row is decoded with it. On later pages such a record is unreadable (counted, named) and the others stay
 * live: the page's checksum vouches for their bytes and the first page for the definition.
 */
import { readExternValue } from '../pages/blob-page.ts';
import type { ClusteredLayout } from '../records/clustered-index.ts';
import { addProblem, type DecodeStats } from './decode-stats.ts';
import { IbdError } from '../errors.ts';
import { u16 } from '../pages/fil-header.ts';
import {
  compactInfoBits, freeListOrigins, PAGE_DATA, PAGE_HEADER, PAGE_N_RECS, PAGE_NEW_SUPREMUM_END, PAGE_OLD_SUPREMUM_END, readIndexHeader, recordOrigins,
  redundantInfoBits, REC_INFO_DELETED, REC_INFO_MIN_REC,
} from '../pages/index-page.ts';
import { carveRecords, heapArea, pointsIntoItself, type CarveTarget, type Extent } from '../pages/page-carve.ts';
import { compactRecordReadable, decodeCompact, decodeRedundant, lastRecord, RecordError, ValueCheckError, type ExternField, type FieldColumns, type RecordSink } from '../records/record.ts';
import { purgeScrubbed } from '../records/key-fields.ts';
import type { RowVersions } from '../trx/row-vers.ts';
import { LeafVersions } from './leaf-versions.ts';
import type { SecondaryUndo } from '../trx/row-undo-sec.ts';
import { LeafHistory } from './leaf-history.ts';
import { LeafCsv } from './leaf-csv.ts';
import type { LeafPageHook } from './leaf-fields.ts';
import { SYSTEM_COLUMNS, SystemCells } from './system-columns.ts';
import type { BatchBuilder } from '../values/row-batch.ts';
import { hasStateColumn, modeIncludes, type RowMode, type RowState } from './row-state.ts';
import type { Page, Tablespace } from '../tablespace/tablespace.ts';
import type { FastWrite, Write } from '../values/writer-traits.ts';

/** The table definition does not fit the file's records (found on its first leaf page). */
export class DefinitionMismatch extends IbdError {}

/** What a LeafDecoder decodes with, set up once per table by the reader. */
export interface LeafContext {
  ts: Tablespace;
  layout: ClusteredLayout;
  compact: boolean;
  mode: RowMode;
  /** Output columns, `_row_state` included where the mode has it, then `_trx_id` and `_version` in a history. */
  columns: number;
  writers: readonly Write[];
  fast: readonly FastWrite[];
  fieldColumns: FieldColumns;
  quoteChecks: Uint8Array;
  stats: DecodeStats;
  /**
   * Transactions whose changes are taken back (trx/row-vers.ts): those active at a crash, or every
   * one from --before-trx on. A record one of them changed is shown as its version before it.
   */
  versions?: RowVersions | null;
  /** A secondary index's read with `versions`: its entries as their rollback leaves them. */
  secondaryUndo?: SecondaryUndo | null;
  /** What the definition says that the file contradicts (definition-clues.ts), added to its verdict. */
  clues?: string;
  /** Rows end with the system columns (system-columns.ts): DB_TRX_ID, DB_ROLL_PTR, page, heap number. */
  system?: boolean;
}

/** Why a record is no row of the table, and the bytes of the field whose value check refused it (null for another reason). */
export interface RecordRefused {
  why: string;
  field: { start: number; end: number } | null;
}

interface PendingExtern {
  origin: number;
  field: ExternField;
}

/** Checksums that vouch for a page's bytes. */
const VOUCHED: ReadonlySet<string> = new Set(['crc32', 'innodb', 'full_crc32']);

/** MySQL 8's instant-ALTER info bits (REC_INFO_INSTANT_FLAG, REC_INFO_VERSION_FLAG). */
const MYSQL_INSTANT_BITS = 0xc0;
/** MariaDB's REC_STATUS_INSTANT: a leaf record written after instant ADD COLUMN. */
const MARIADB_STATUS_INSTANT = 4;

export class LeafDecoder {
  private readonly origins: number[] = [];
  private readonly fields: ExternField[] = [];
  /** Records changed by transactions whose changes are taken back, or null. */
  private readonly versions: LeafVersions | null;
  private readonly history: LeafHistory | null;
  private readonly sink: RecordSink;
  private readonly stateColumn: number;
  /** The system columns' writer, when the read asks for them. */
  private readonly system: SystemCells | null;
  /** The page being decoded: where the system columns' page and heap numbers come from. */
  private page: Page | null = null;
  /** Why the last record measure() refused does not fit. */
  private why = '';
  /** Whether the last page decode() was given was trusted (so a table's first page checked the definition). */
  lastTrusted = false;
  /** The read's plan straight to CSV lines, where it has one. */
  private readonly csv: LeafCsv | null;

  constructor(private readonly ctx: LeafContext) {
    this.sink = { out: null as unknown as BatchBuilder, base: 0, writers: ctx.writers, fast: ctx.fast, ...ctx.fieldColumns };
    this.stateColumn = hasStateColumn(ctx.mode) ? ctx.layout.columns.length : -1;
    this.system = ctx.system === true ? new SystemCells(ctx.layout, ctx.compact, ctx.columns - SYSTEM_COLUMNS.length) : null;
    const start = (out: BatchBuilder, state: RowState, rec: Uint8Array, recOrigin: number, origin: number): number => this.startRow(out, state, origin, rec, recOrigin);
    const fail = (page: number, origin: number, message: string): void => this.fail(page, origin, message);
    this.history = ctx.versions?.history === true ? new LeafHistory(ctx, ctx.versions, this.sink, start, fail) : null;
    this.versions = ctx.versions && this.history === null ? new LeafVersions(ctx, ctx.versions, this.sink, start, fail, ctx.secondaryUndo ?? null) : null;
    this.csv = LeafCsv.plan(ctx);
  }

  /**
   * Decodes a leaf page's rows into `out`. Returns null when that is all, or a promise when values
   * stored off-page are still being read (so that pages without them need no await). `first`: the
   * table's first leaf page, where a misfit is the definition's (see DefinitionMismatch).
   * `disowned`: why the page, though intact, is not part of the index now (leaf-chain.ts); it is
   * then read as a damaged page is. `hook`: takes the page's rows itself where the checksum vouches for it.
   */
  decode(page: Page, out: BatchBuilder, first: boolean, disowned: string | null = null, hook: LeafPageHook | null = null): Promise<void> | null {
    // Straight to CSV lines or a hook's output where the checksum vouches for the page (not the first: it checks the definition).
    if (!first && disowned === null && VOUCHED.has(page.checksum) && ((out.linesOnly && this.csv !== null && this.csv.write(page, out)) || (hook !== null && hook.take(page, this.ctx, out)))) {
      this.lastTrusted = true;
      return null;
    }
    const stats = this.ctx.stats;
    const rowsBefore = out.rows;
    const mark = out.mark();
    const saved = { deletedSkipped: stats.deletedSkipped, deletedRecovered: stats.deletedRecovered, recordsFailed: stats.recordsFailed, problems: stats.problems.length };
    this.sink.out = out;
    this.page = page;
    out.quoteChecks = this.ctx.quoteChecks;
    let externs: PendingExtern[] | null = [];
    const reason = page.checksum === 'bad' ? 'its checksum does not match' : (disowned ?? this.decodeTrusted(page, out, first, externs));
    this.lastTrusted = reason === null;
    if (reason !== null) {
      // Nothing of the trusted read stays: the page is read again as damaged.
      out.rollback(mark);
      Object.assign(stats, { deletedSkipped: saved.deletedSkipped, deletedRecovered: saved.deletedRecovered, recordsFailed: saved.recordsFailed });
      stats.problems.length = Math.min(stats.problems.length, saved.problems);
      externs = [];
      this.decodeDamaged(page, out, reason, externs, disowned !== null && page.checksum !== 'bad');
    } else if (modeIncludes(this.ctx.mode, 'purged')) {
      this.recoverPurged(page, out, externs);
    }
    if (externs.length === 0) {
      stats.rowsDecoded += out.rows - rowsBefore;
      return null;
    }
    return this.resolveExterns(externs, out, page.no, rowsBefore);
  }

  /**
   * One record of a leaf page as a row of `out` (a `_row_state` cell left NULL), read as
   * decodeTrusted() reads each record, its values checked, and those stored off-page fetched: for a
   * caller that shows the records one by one (the page inspector). Returns where the record lies
   * in the page, or why it is no row of this table (then nothing is written), with the bytes of the
   * field whose value check failed.
   */
  async decodeRecord(page: Page, origin: number, out: BatchBuilder): Promise<Extent | RecordRefused> {
    const { compact, layout } = this.ctx;
    const bytes = page.bytes;
    if (compact && !compactRecordReadable(bytes, origin, layout)) return { why: 'the record is in a format the table\'s metadata does not describe', field: null };
    const row = out.mark();
    this.sink.out = out;
    this.sink.base = out.startRow();
    const fields: ExternField[] = [];
    try {
      if (compact) decodeCompact(bytes, origin, layout, this.sink, fields, true);
      else decodeRedundant(bytes, origin, layout, this.sink, fields, true);
    } catch (e) {
      if (!(e instanceof RecordError)) throw e;
      out.rollback(row);
      return { why: e.message, field: e instanceof ValueCheckError ? { start: e.offset, end: e.offset + e.length } : null };
    }
    out.endRow();
    const extent = { origin, start: lastRecord.start, end: lastRecord.end };
    for (const field of fields) await this.resolveExtern(field, out, page.no, origin);
    return extent;
  }

  /**
   * A page whose checksum holds: its rows (live, delete-marked), or why it is damaged after all
   * (then what it wrote is rolled back by the caller).
   */
  private decodeTrusted(page: Page, out: BatchBuilder, first: boolean, externs: PendingExtern[]): string | null {
    const { compact, layout, mode, stats } = this.ctx;
    const bytes = page.bytes;
    const origins = this.origins;
    const damage = recordOrigins(bytes, compact, origins);
    if (damage !== null) return `its record list is broken: ${damage}`;
    const nRecs = u16(bytes, PAGE_HEADER + PAGE_N_RECS);
    if (origins.length !== nRecs) return `its header counts ${nRecs} records, its record list holds ${origins.length}`;
    const sink = this.sink;
    const fields = this.fields;
    // Value checks where nothing else vouches for the bytes: the first page (it checks the
    // definition), a page written without checksums (innodb_checksum_algorithm=none). Elsewhere the
    // checksum does, and the checks would cost a fifth of the decode.
    const check = first || page.checksum === 'none';
    // The page accounts for every byte of its heap: records in the list, plus garbage (freed records).
    let recordBytes = 0;
    let accountable = true;
    let failed = 0;
    // Records that could not even be laid out with the definition (not just a value out of range).
    let misfits = 0;
    let firstFailure = '';
    for (let r = 0; r < origins.length; r++) {
      const origin = origins[r];
      const info = compact ? compactInfoBits(bytes, origin) : redundantInfoBits(bytes, origin);
      if (info & REC_INFO_MIN_REC) {
        accountable = false; // MariaDB's instant-ALTER metadata record, laid out differently: not a row.
        continue;
      }
      if (compact && !compactRecordReadable(bytes, origin, layout)) {
        accountable = false;
        this.fail(page.no, origin, 'the record is in a format the table\'s metadata does not describe (written after an instant ALTER TABLE that this file does not record)');
        continue;
      }
      if (this.versions !== null || this.history !== null) {
        const size = this.history?.decode(page.no, bytes, origin, (info & REC_INFO_DELETED) !== 0, out, externs) ?? this.versions?.decode(page.no, bytes, origin, out, externs) ?? -1;
        if (size >= 0) {
          recordBytes += size;
          continue;
        }
      }
      const deleted = (info & REC_INFO_DELETED) !== 0;
      const wanted = modeIncludes(mode, deleted ? 'delete-marked' : 'live');
      const row = out.mark();
      if (wanted) sink.base = this.startRow(out, deleted ? 'delete-marked' : 'live', origin);
      if (fields.length !== 0) fields.length = 0;
      try {
        recordBytes += compact ? decodeCompact(bytes, origin, layout, wanted ? sink : null, fields, check) : decodeRedundant(bytes, origin, layout, wanted ? sink : null, fields, check);
      } catch (e) {
        if (!(e instanceof RecordError)) throw e;
        out.rollback(row);
        // A record that failed a value check was read whole: the heap still accounts for it.
        if (e instanceof ValueCheckError) recordBytes += e.recordBytes;
        else {
          accountable = false;
          misfits++;
        }
        failed++;
        firstFailure ||= e.message;
        this.fail(page.no, origin, `the record does not fit the table definition: ${e.message}`);
        continue;
      }
      if (wanted) out.endRow();
      if (deleted) stats[wanted ? 'deletedRecovered' : 'deletedSkipped']++;
      for (let f = 0; f < fields.length; f++) externs.push({ origin, field: fields[f] });
    }
    // A page that passes its checksum is as the server wrote it: on the first one, a record that
    // cannot be laid out with the definition, or values mostly out of range, are the definition's
    // fault, not the page's. A few values out of range on a page whose heap adds up are those records'.
    if (first && (misfits > 0 || 2 * failed > origins.length)) {
      throw new DefinitionMismatch(this.ctx.ts.source.name, `the table definition does not match the records of this file: ${failed} of the ${origins.length} records of its first leaf page do not fit it (${firstFailure}). Check that the CREATE TABLE is this table's, with every column in order and the same types${this.ctx.clues ?? ''}`, page.no);
    }
    return accountable ? this.heapMismatch(bytes, recordBytes, first, page.no) : null;
  }

  private fail(page: number, origin: number, message: string): void {
    this.ctx.stats.recordsFailed++;
    addProblem(this.ctx.stats, page, origin, message);
  }

  /**
   * A wrong table definition still "decodes" COMPACT records (they do not store their field count),
   * only with every length wrong. The page header catches it: the heap (PAGE_HEAP_TOP) holds exactly
   * the infimum and supremum, the records in the list and PAGE_GARBAGE bytes of freed records.
   * On the table's first leaf page a mismatch means the definition is wrong; elsewhere, the page is
   * damaged (the reason returned).
   */
  private heapMismatch(bytes: Uint8Array, recordBytes: number, first: boolean, pageNo: number): string | null {
    const h = readIndexHeader(bytes);
    const base = (this.ctx.compact ? PAGE_NEW_SUPREMUM_END : PAGE_OLD_SUPREMUM_END) - PAGE_DATA;
    const expected = h.heapTop - PAGE_DATA - base - h.garbage;
    // a partial definition reads the leading fields only: less than the heap holds (each record has a header besides)
    if (recordBytes === expected || (this.ctx.layout.partialRecord !== undefined && recordBytes < expected)) return null;
    const detail = `its records take ${recordBytes} bytes when decoded with this table definition, but the page holds ${expected} bytes of records`;
    if (first) {
      throw new DefinitionMismatch(this.ctx.ts.source.name, `the table definition does not match the records of this file: ${detail}. Check that the CREATE TABLE is this table's, with every column in order and the same types${this.ctx.clues ?? ''}`, pageNo);
    }
    return detail;
  }

  /**
   * Starts a row of the record at `origin` in the page being decoded; where the mode has the
   * `_row_state` column, its cell says the row's state; where the read asks for the system columns,
   * they are the record's (DB_TRX_ID, DB_ROLL_PTR of the version shown, `rec` at `recOrigin`).
   */
  private startRow(out: BatchBuilder, state: RowState, origin: number, rec?: Uint8Array, recOrigin = origin): number {
    const base = out.startRow();
    if (this.stateColumn >= 0) out.setString(base + this.stateColumn, state);
    const page = this.page;
    if (this.system !== null && page !== null) this.system.write(out, base, rec ?? page.bytes, recOrigin, page.no, page.bytes, origin);
    return base;
  }

  /** The record at `origin` measured (and its values checked) against the definition, or null (then `why` says why). */
  private measure(bytes: Uint8Array, origin: number): Extent | null {
    const { compact, layout } = this.ctx;
    if (compact && !compactRecordReadable(bytes, origin, layout)) {
      // Only measured on damaged pages: there such a header is damage, not a format we lack.
      this.why = `its header is damaged (record status ${bytes[origin - 3] & 7}, info bits 0x${(bytes[origin - 5] & 0xf0).toString(16)}: not those of a row of this table)`;
      return null;
    }
    try {
      if (compact) decodeCompact(bytes, origin, layout, null, this.fields, true);
      else decodeRedundant(bytes, origin, layout, null, this.fields, true);
    } catch (e) {
      if (!(e instanceof RecordError)) throw e;
      this.why = e.message;
      return null;
    }
    return { origin, start: lastRecord.start, end: lastRecord.end };
  }

  private carveTarget(bytes: Uint8Array): CarveTarget {
    const { compact, layout } = this.ctx;
    const instant = layout.instant;
    return {
      bytes,
      compact,
      measure: (origin) => this.measure(bytes, origin),
      nFieldsMin: instant ? instant.nCore : layout.fields.length,
      nFieldsMax: layout.fields.length,
      extraInfoBits: instant?.kind === 'mysql' ? MYSQL_INSTANT_BITS : 0,
      statusMask: 1 | (instant?.kind === 'mariadb' ? 1 << MARIADB_STATUS_INSTANT : 0),
    };
  }

  /**
   * A damaged page: the records of its list as far as it goes, then those carved from the rest of
   * its body, each measured and value-checked first; rows of state `damaged` where the mode has it.
   */
  private decodeDamaged(page: Page, out: BatchBuilder, reason: string, externs: PendingExtern[], intact = false): void {
    const { compact, layout, mode, stats } = this.ctx;
    const bytes = page.bytes;
    stats.damagedPages++;
    const list = this.origins;
    const listBroken = recordOrigins(bytes, compact, list) !== null;
    const listed: Extent[] = [];
    const heap = heapArea(bytes, compact);
    let unreadable = 0;
    for (const origin of list) {
      if ((compact ? compactInfoBits(bytes, origin) : redundantInfoBits(bytes, origin)) & REC_INFO_MIN_REC) continue;
      const e = this.measure(bytes, origin);
      const misfit = e === null ? this.why
        : e.start < heap.lo || e.end > heap.top ? 'it lies outside the page heap'
          : pointsIntoItself(bytes, compact, e) ? 'its next-record pointer leads into its own bytes, so its lengths are wrong' : null;
      if (misfit === null && e !== null) {
        listed.push(e);
        continue;
      }
      // Past a record that does not fit, the list's pointers lead anywhere: carving takes over.
      unreadable++;
      addProblem(stats, page.no, origin, `the damaged page's record list leads here, where no record of this table fits (${misfit}); the list is not followed further`);
      break;
    }
    // A list that holds (every record fits, and it reaches the supremum with as many records as
    // PAGE_N_RECS says) is the page's records as the server wrote them: every other heap record is
    // garbage or free, old versions, so carving would only add rows that are not the page's. The
    // same for an intact page a merge took out of the index (`intact`). Any other page is carved.
    const nRecs = u16(bytes, PAGE_HEADER + PAGE_N_RECS);
    const trusted = unreadable === 0 && (intact || (!listBroken && list.length === nRecs));
    const { records, carved } = trusted ? { records: listed, carved: 0 } : this.carve(bytes, listed);
    stats.carvedRecords += carved;
    let returned = 0;
    let withheld = 0;
    const sink = this.sink;
    for (const e of records) {
      // A delete mark read from a damaged page is not vouched for either: every record of the page is
      // a row of state damaged, and a mode without that state withholds them all (and says so).
      if (!modeIncludes(mode, 'damaged')) {
        withheld++;
        continue;
      }
      const row = out.mark();
      sink.base = this.startRow(out, 'damaged', e.origin);
      this.fields.length = 0;
      try {
        if (compact) decodeCompact(bytes, e.origin, layout, sink, this.fields, false);
        else decodeRedundant(bytes, e.origin, layout, sink, this.fields, false);
      } catch (err) {
        if (!(err instanceof RecordError)) throw err;
        out.rollback(row);
        continue;
      }
      out.endRow();
      returned++;
      for (const field of this.fields) externs.push({ origin: e.origin, field });
    }
    const found = records.length;
    // PAGE_N_RECS may itself be damaged: past what a page can hold it says nothing.
    const lost = nRecs <= bytes.length / 5 ? Math.max(0, nRecs - found) : unreadable;
    stats.recordsFailed += lost;
    stats.damagedRows += returned;
    stats.damagedWithheld += withheld;
    const carvedText = carved > 0 ? ` (${carved} carved from the page body past the broken list)` : '';
    const withheldText = withheld > 0 ? `; ${withheld} withheld from this output (--rows damaged or all shows them)` : '';
    addProblem(stats, page.no, null, `the page is damaged (${reason}): ${found} records read back${carvedText}, of state damaged${withheldText}${lost > 0 ? `; ${lost} records unreadable` : ''}`);
  }

  /** Records carved from a damaged page's body, competing with those its list gave. */
  private carve(bytes: Uint8Array, listed: Extent[]): { records: Extent[]; carved: number } {
    const free: number[] = [];
    freeListOrigins(bytes, this.ctx.compact, free);
    return carveRecords(this.carveTarget(bytes), listed, new Set(free));
  }

  /**
   * Purged rows: records in the page's free list. Purge only frees records that were delete-marked,
   * so a free record without the mark is not a deleted row (an old version of an updated one) and is
   * left out; one that no longer decodes, runs outside the heap, or was zero-filled (MariaDB scrubs
   * purged records) cannot be read back.
   */
  private recoverPurged(page: Page, out: BatchBuilder, externs: PendingExtern[]): void {
    const { compact, layout, stats } = this.ctx;
    const bytes = page.bytes;
    const heapTop = readIndexHeader(bytes).heapTop;
    const origins: number[] = [];
    freeListOrigins(bytes, compact, origins);
    const fields: ExternField[] = [];
    const sink = this.sink;
    for (const origin of origins) {
      const info = compact ? compactInfoBits(bytes, origin) : redundantInfoBits(bytes, origin);
      if (!(info & REC_INFO_DELETED) || info & REC_INFO_MIN_REC) continue;
      if (purgeScrubbed(bytes, origin, layout, compact)) {
        stats.purgedUnreadable++;
        continue;
      }
      const row = out.mark();
      sink.base = this.startRow(out, 'purged', origin);
      fields.length = 0;
      try {
        // A purged record's bytes are garbage to the page: nothing vouches for them but the checks.
        const size = compact ? decodeCompact(bytes, origin, layout, sink, fields, true) : decodeRedundant(bytes, origin, layout, sink, fields, true);
        if (origin + size > heapTop + (compact ? 5 : 6)) throw new RecordError('it runs past the end of the heap');
        out.endRow();
      } catch (e) {
        if (!(e instanceof RecordError)) throw e;
        out.rollback(row);
        stats.purgedUnreadable++;
        continue;
      }
      stats.deletedRecovered++;
      for (const field of fields) externs.push({ origin, field });
    }
  }

  private async resolveExterns(externs: PendingExtern[], out: BatchBuilder, pageNo: number, rowsBefore: number): Promise<void> {
    for (const e of externs) await this.resolveExtern(e.field, out, pageNo, e.origin);
    this.ctx.stats.rowsDecoded += out.rows - rowsBefore;
  }

  private async resolveExtern(ext: ExternField, out: BatchBuilder, pageNo: number, origin: number): Promise<void> {
    const field = this.ctx.layout.fields[ext.fieldIndex];
    try {
      const value = await readExternValue(ext.local, async (no) => {
        const page = await this.ctx.ts.page(no);
        // A damaged off-page part would be a wrong value in a live row: the value is unreadable instead.
        if (page.checksum === 'bad') throw new Error(`its off-page part on page ${no} fails its checksum`);
        return page.bytes;
      });
      const start = out.pos;
      this.ctx.writers[ext.fieldIndex](value, 0, value.length, out);
      out.setCell(ext.cell, start, out.pos);
    } catch (e) {
      const message = `column \`${field.name}\`: ${(e as Error).message}`;
      this.ctx.stats.valuesUnreadable++;
      addProblem(this.ctx.stats, pageNo, origin, message);
      out.setString(ext.cell, `[unreadable: ${message}]`);
    }
  }
}
