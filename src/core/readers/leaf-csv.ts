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
import { PAGE_HEADER, PAGE_N_RECS, recordOrigins, REC_INFO_DELETED } from '../pages/index-page.ts';
import type { Page } from '../tablespace/tablespace.ts';
import { putUtf8, utf8Copy } from '../values/charset-writers.ts';
import { cleanEdges, needsQuotes } from '../values/csv-quoting.ts';
import { putDecimal, putInt, type DecimalPlan } from '../values/digit-text.ts';
import type { BatchBuilder } from '../values/row-batch.ts';
import { putDateValue } from '../values/temporal-writers.ts';
import { FAST_CHAR, FAST_DATE, FAST_DECIMAL, FAST_INT, FAST_VARCHAR } from '../values/writer-traits.ts';
import { heapFilled, LeafFields, NULL_AT, type PlanContext } from './leaf-fields.ts';

const COMMA = 44;
const QUOTE = 34;
const NEWLINE = 10;

export class LeafCsv {
  private readonly origins: number[] = [];

  private constructor(
    private readonly ctx: PlanContext,
    private readonly fields: LeafFields,
    /** Each output column's fast kind with what its put* function needs. */
    private readonly kinds: Uint8Array,
    private readonly intBytes: Uint8Array,
    private readonly unsigned: Uint8Array,
    private readonly decimals: (DecimalPlan | null)[],
  ) {}

  /** The plan of a read that qualifies (leaf-fields.ts), or null. */
  static plan(ctx: PlanContext): LeafCsv | null {
    const fields = LeafFields.plan(ctx);
    if (fields === null) return null;
    const { fast } = ctx;
    const order = Array.from(fields.order);
    const kinds = Uint8Array.from(order, (i) => fast[i].kind);
    const intBytes = Uint8Array.from(order, (i) => fast[i].bytes);
    const unsigned = Uint8Array.from(order, (i) => (fast[i].unsigned ? 1 : 0));
    const decimals = Array.from(order, (i) => fast[i].decimal);
    return new LeafCsv(ctx, fields, kinds, intBytes, unsigned, decimals);
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
    const fields = this.fields.spans.length >> 1;
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
      const size = this.fields.walk(bytes, origin);
      if (size < 0) return false;
      recordBytes += size;
      if (bytes[origin - 5] & REC_INFO_DELETED) {
        deleted++;
        continue;
      }
      const end = this.line(bytes, out.text, p, out.cols === 1);
      if (end < 0) return false;
      lines[2 * rows] = p;
      lines[2 * rows + 1] = end;
      rows++;
      p = end;
    }
    if (!heapFilled(bytes, recordBytes)) return false;
    const stats = this.ctx.stats;
    stats.rowsDecoded += rows - out.rows;
    stats.deletedSkipped += deleted;
    out.rows = rows;
    out.pos = p;
    return true;
  }

  /** The record walked last as a CSV line at p of t; returns its end, or -1 for a value the general path must write. */
  private line(bytes: Uint8Array, t: Uint8Array, p: number, single: boolean): number {
    const { kinds } = this;
    const { order, spans } = this.fields;
    for (let k = 0; k < order.length; k++) {
      const i = order[k];
      const o = spans[2 * i];
      if (o === NULL_AT) {
        t[p++] = 92; // \N
        t[p++] = 78;
        t[p++] = COMMA;
        continue;
      }
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
