/**
 * A trusted leaf page straight to CSV lines: the export's plan, made once per table. Where every
 * column is of a fast kind (integers, DECIMAL, DATE, UTF-8 text) and the read is a plain one (live
 * rows, COMPACT records, no instant ALTER, no versions taken back, no system columns), a page whose
 * checksum vouches for it is walked with the field widths resolved up front and its rows written as
 * CSV lines into a separated builder's text, recorded in its `lines` only (RowBatch.lines): no
 * cells, no NULL flags, no per-cell dispatch through a writer (the general path spent about half its
 * time on that bookkeeping). Only for builders marked `linesOnly`, whose batch only csvBytes() reads.
 *
 * Anything out of the ordinary on the page (a record of another format, a value stored off-page or
 * not well-formed, a list or heap that does not add up) and the page is not written here: the
 * builder is left as it was, and the LeafDecoder reads the page its general way, which checks,
 * marks and reports. So every byte written here is what the general path writes for the same page.
 */
import { u16 } from '../pages/fil-header.ts';
import { PAGE_DATA, PAGE_GARBAGE, PAGE_HEADER, PAGE_HEAP_TOP, PAGE_N_RECS, PAGE_NEW_SUPREMUM_END, recordOrigins, REC_INFO_DELETED, REC_INFO_MIN_REC } from '../pages/index-page.ts';
import type { Page } from '../tablespace/tablespace.ts';
import { putUtf8, utf8Copy } from '../values/charset-writers.ts';
import { cleanEdges, needsQuotes } from '../values/csv-quoting.ts';
import { putDecimal, putInt, type DecimalPlan } from '../values/digit-text.ts';
import type { BatchBuilder } from '../values/row-batch.ts';
import { putDateValue } from '../values/temporal-writers.ts';
import { FAST_CHAR, FAST_DATE, FAST_DECIMAL, FAST_INT, FAST_VARCHAR } from '../values/writer-traits.ts';
import type { ClusteredLayout } from '../records/clustered-index.ts';
import type { FieldColumns } from '../records/record.ts';
import type { FastWrite } from '../values/writer-traits.ts';
import type { DecodeStats } from './decode-stats.ts';
import type { RowMode } from './row-state.ts';

/** What the plan is made from: a LeafDecoder's context (leaf-decoder.ts LeafContext), in part. */
interface PlanContext {
  layout: ClusteredLayout;
  compact: boolean;
  mode: RowMode;
  columns: number;
  fast: readonly FastWrite[];
  fieldColumns: FieldColumns;
  stats: DecodeStats;
  versions?: unknown;
  system?: boolean;
}

const COMMA = 44;
const QUOTE = 34;
const NEWLINE = 10;
/** Field flags: nullable (a bit in the null bitmap), and a length that may take two bytes (DATA_BIG_COL). */
const NULLABLE = 1;
const BIG = 2;
/** A NULL field's offset in the spans. */
const NULL_AT = -1;
/** Record status and info bits of an ordinary COMPACT leaf record: status 0, no instant bits. */
const STATUS_MASK = 7;
const INSTANT_BITS = 0xc0;

export class LeafCsv {
  private readonly origins: number[] = [];
  /**
   * Each field's offset from the record's origin and its length in the record being written. The
   * leading fields of fixed length that cannot be NULL (LINEITEM's key, system columns, INTs and
   * DECIMALs) lie at the same offsets in every record: theirs are set once, and the walk starts after them.
   */
  private readonly spans: Int32Array;
  /** How many leading fields those are, and the bytes they take. */
  private readonly prefix: number;
  private readonly prefixBytes: number;

  private constructor(
    private readonly ctx: PlanContext,
    /** Per field in record order: fixed length (0: variable) and flags. */
    private readonly fixed: Int32Array,
    private readonly flags: Uint8Array,
    /** The fields in output column order, and each one's fast kind with what its put* function needs. */
    private readonly order: Int32Array,
    private readonly kinds: Uint8Array,
    private readonly intBytes: Uint8Array,
    private readonly unsigned: Uint8Array,
    private readonly decimals: (DecimalPlan | null)[],
    private readonly nullBytes: number,
  ) {
    this.spans = new Int32Array(2 * fixed.length);
    let at = 0;
    let i = 0;
    for (; i < fixed.length && fixed[i] > 0 && (flags[i] & NULLABLE) === 0; i++) {
      this.spans[2 * i] = at;
      this.spans[2 * i + 1] = fixed[i];
      at += fixed[i];
    }
    this.prefix = i;
    this.prefixBytes = at;
  }

  /** The plan of a read that qualifies (see the module comment), or null. */
  static plan(ctx: PlanContext): LeafCsv | null {
    const { layout, fast } = ctx;
    if (!ctx.compact || layout.instant || ctx.mode !== 'live' || ctx.versions || ctx.system) return null;
    const fields = layout.fields;
    const order = ctx.fieldColumns.order;
    if (order.length !== ctx.columns || order.length === 0) return null;
    for (let k = 0; k < order.length; k++) if (fields[order[k]].out !== k || fast[order[k]].kind === 0) return null;
    const fixed = Int32Array.from(fields, (f) => f.fixedLen);
    const flags = Uint8Array.from(fields, (f) => (f.nullable ? NULLABLE : 0) | (f.bigCol ? BIG : 0));
    const kinds = Uint8Array.from(order, (i) => fast[i].kind);
    const intBytes = Uint8Array.from(order, (i) => fast[i].bytes);
    const unsigned = Uint8Array.from(order, (i) => (fast[i].unsigned ? 1 : 0));
    const decimals = Array.from(order, (i) => fast[i].decimal);
    return new LeafCsv(ctx, fixed, flags, order, kinds, intBytes, unsigned, decimals, (layout.nNullable + 7) >> 3);
  }

  /**
   * Writes the live rows of a page that passed its checksum as CSV lines into `out` (a `linesOnly`
   * separated builder) and counts them in the read's statistics; false, with `out` and the
   * statistics untouched, when the page is to be read the general way.
   */
  write(page: Page, out: BatchBuilder): boolean {
    const bytes = page.bytes;
    const origins = this.origins;
    if (recordOrigins(bytes, true, origins) !== null || origins.length !== u16(bytes, PAGE_HEADER + PAGE_N_RECS)) return false;
    const fields = this.fixed.length;
    // At most 4 bytes of text per stored byte (a fast kind's bound), and for each field its quotes,
    // comma, `\N` and scratch; a page holds at most its size in record bytes.
    out.reserve(4 * bytes.length + (40 * fields + 8) * origins.length);
    const lines = out.linesFor(origins.length);
    const pos = out.pos;
    let p = pos;
    let rows = out.rows;
    let recordBytes = 0;
    let deleted = 0;
    for (let r = 0; r < origins.length; r++) {
      const origin = origins[r];
      const info = bytes[origin - 5];
      if ((bytes[origin - 3] & STATUS_MASK) !== 0 || (info & (INSTANT_BITS | REC_INFO_MIN_REC)) !== 0) return false;
      const size = this.walk(bytes, origin);
      if (size < 0) return false;
      recordBytes += size;
      if (info & REC_INFO_DELETED) {
        deleted++;
        continue;
      }
      const end = this.line(bytes, origin, out.text, p, out.cols === 1);
      if (end < 0) return false;
      lines[2 * rows] = p;
      lines[2 * rows + 1] = end;
      rows++;
      p = end;
    }
    // The heap holds the infimum and supremum, the records in the list and PAGE_GARBAGE bytes.
    const heap = u16(bytes, PAGE_HEADER + PAGE_HEAP_TOP) - PAGE_NEW_SUPREMUM_END - u16(bytes, PAGE_HEADER + PAGE_GARBAGE);
    if (recordBytes !== heap) return false;
    const stats = this.ctx.stats;
    stats.rowsDecoded += rows - out.rows;
    stats.deletedSkipped += deleted;
    out.rows = rows;
    out.pos = p;
    return true;
  }

  /**
   * Locates the fields of the COMPACT record at `origin` in `spans` (offsets from the origin, NULL_AT
   * for a NULL); returns the record's size with its header, or -1 where the general path must read
   * it (a field stored off-page, or lengths that run out of the page).
   */
  private walk(bytes: Uint8Array, origin: number): number {
    const { fixed, flags, spans } = this;
    let nullPtr = origin - 6;
    let lenPtr = nullPtr - this.nullBytes;
    let nullBit = 1;
    let p = this.prefixBytes;
    // In offsets from the origin: where the page's records end (its directory and trailer follow).
    const end = bytes.length - 8 - origin;
    if (p > end || lenPtr < PAGE_DATA) return -1;
    for (let i = this.prefix; i < fixed.length; i++) {
      const f = flags[i];
      if (f & NULLABLE) {
        const isNull = (bytes[nullPtr] & nullBit) !== 0;
        nullBit <<= 1;
        if (nullBit === 0x100) {
          nullBit = 1;
          nullPtr--;
        }
        if (isNull) {
          spans[2 * i] = NULL_AT;
          continue;
        }
      }
      let len = fixed[i];
      if (len === 0) {
        len = bytes[lenPtr--];
        if (f & BIG && len & 0x80) {
          if (len & 0x40) return -1;
          len = ((len & 0x3f) << 8) | bytes[lenPtr--];
        }
      }
      if (p + len > end || lenPtr < PAGE_DATA) return -1;
      spans[2 * i] = p;
      spans[2 * i + 1] = len;
      p += len;
    }
    return origin + p - lenPtr - 1;
  }

  /** The record walked last as a CSV line at p of t; returns its end, or -1 for a value the general path must write. */
  private line(bytes: Uint8Array, origin: number, t: Uint8Array, p: number, single: boolean): number {
    const { order, kinds, spans } = this;
    for (let k = 0; k < order.length; k++) {
      const i = order[k];
      const at = spans[2 * i];
      if (at === NULL_AT) {
        t[p++] = 92; // \N
        t[p++] = 78;
        t[p++] = COMMA;
        continue;
      }
      const o = origin + at;
      let end: number;
      switch (kinds[k]) {
        case FAST_INT: end = putInt(t, p, bytes, o, this.intBytes[k], this.unsigned[k] === 1); break;
        case FAST_DECIMAL: end = putDecimal(this.decimals[k] as DecimalPlan, t, p, bytes, o); break;
        case FAST_DATE: end = putDateValue(t, p, bytes, o); break;
        case FAST_CHAR:
        case FAST_VARCHAR:
          end = putUtf8(t, p, bytes, o, spans[2 * i + 1], kinds[k] === FAST_CHAR);
          if (end >= 0 && (utf8Copy.special ? needsQuotes(t, p, end, single) : !cleanEdges(t, p, end, single))) end = quoted(t, p, end);
          break;
        default: return -1;
      }
      if (end < 0) return -1;
      t[end] = COMMA;
      p = end + 1;
    }
    t[p - 1] = NEWLINE;
    return p;
  }
}

/** Puts t[start, end) between quotes, every quote in it doubled (as papaparse writes it); returns the new end. */
function quoted(t: Uint8Array, start: number, end: number): number {
  let quotes = 0;
  if (utf8Copy.quote) for (let i = start; i < end; i++) if (t[i] === QUOTE) quotes++;
  let q = end + quotes + 1;
  const last = q;
  t[q] = QUOTE;
  for (let i = end - 1; i >= start; i--) {
    t[--q] = t[i];
    if (t[i] === QUOTE) t[--q] = QUOTE;
  }
  t[start] = QUOTE;
  return last + 1;
}
