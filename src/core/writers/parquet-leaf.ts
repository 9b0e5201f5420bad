/**
 * A trusted leaf page straight into a Parquet part's column chunks: the plan per table that
 * readers/leaf-csv.ts is for CSV. Where every output column is of a fast kind whose chunk is written
 * by parquet-chunk.ts (whole numbers of up to 4 bytes as INT32, DECIMALs of up to 15 digits, DATEs,
 * UTF-8 text), a page whose checksum vouches for it is walked with the field widths resolved up front
 * (readers/leaf-fields.ts) and each value put straight into its chunk's typed arrays as the Parquet
 * value the general path's text would be parsed back to: numbers from their stored bytes (no digits
 * written and read again), text copied as its bytes (checked to be well-formed UTF-8, CHAR's pad
 * spaces trimmed). Each row's bytes of text are counted as the general path's cells would have them,
 * so that row groups are cut at the same rows.
 *
 * Anything out of the ordinary on the page (a record of another format, a value stored off-page, not
 * well-formed, or one the column's type cannot hold, a list or heap that does not add up) and the
 * page is not taken here: nothing it wrote counts (it lies past the cells the chunks hold), and the
 * LeafDecoder reads the page its general way, which checks, marks and reports. So the part is byte
 * for byte the one the general path writes.
 */
import { u16 } from '../pages/fil-header.ts';
import { PAGE_HEADER, PAGE_N_RECS, recordOrigins, REC_INFO_DELETED } from '../pages/index-page.ts';
import type { Page } from '../tablespace/tablespace.ts';
import { copyUtf8 } from '../values/charset-writers.ts';
import { decimalUnscaled, digitCount, storedInt, type DecimalPlan } from '../values/digit-text.ts';
import { batchView, type BatchBuilder } from '../values/row-batch.ts';
import { FAST_CHAR, FAST_DATE, FAST_DECIMAL, FAST_INT, FAST_VARCHAR } from '../values/writer-traits.ts';
import { heapFilled, LeafFields, NULL_AT, type LeafPageHook, type PlanContext } from '../readers/leaf-fields.ts';
import { dayNumber } from './parquet-cells.ts';
import { NumberColumn, TextColumn } from './parquet-chunk-kinds.ts';
import type { ParquetRows } from './parquet-rows.ts';

const NO_VALUES = new Float64Array(0);
const NO_ENDS = new Int32Array(0);
const NO_BYTES = new Uint8Array(0);
const NO_WORDS = new DataView(NO_BYTES.buffer);

/** A read's plan: its fields, and each output column's fast kind with what reading it needs. */
interface Plan {
  ctx: PlanContext;
  fields: LeafFields;
  kinds: Uint8Array;
  intBytes: Uint8Array;
  unsigned: Uint8Array;
  decimals: (DecimalPlan | null)[];
}

export class ParquetLeaf implements LeafPageHook {
  /** The bytes of the row groups filled so far (taken by the caller, part by part). */
  readonly parts: Uint8Array<ArrayBuffer>[] = [];
  /** The plan of the last read asked, null where it has none. */
  #plan: Plan | null = null;
  #planned: PlanContext | null = null;
  readonly #origins: number[] = [];
  #rowBytes = new Int32Array(1024);
  // Each column's arrays for the page being written (the empty ones where the column is not of that kind).
  readonly #levels: Int32Array[];
  readonly #values: Float64Array[];
  readonly #ends: Int32Array[];
  readonly #bytes: Uint8Array[];
  readonly #words: DataView[];
  readonly #used: Int32Array;

  constructor(readonly rows: ParquetRows) {
    const cols = rows.columns.length;
    this.#levels = Array.from({ length: cols }, () => NO_ENDS);
    this.#values = Array.from({ length: cols }, () => NO_VALUES);
    this.#ends = Array.from({ length: cols }, () => NO_ENDS);
    this.#bytes = Array.from({ length: cols }, () => NO_BYTES);
    this.#words = Array.from({ length: cols }, () => NO_WORDS);
    this.#used = new Int32Array(cols);
  }

  take(page: Page, ctx: PlanContext, out: BatchBuilder): boolean {
    if (this.#planned !== ctx) {
      this.#plan = this.#planOf(ctx);
      this.#planned = ctx;
    }
    const plan = this.#plan;
    if (plan === null) return false;
    const bytes = page.bytes;
    const origins = this.#origins;
    if (recordOrigins(bytes, true, origins) !== null || origins.length !== u16(bytes, PAGE_HEADER + PAGE_N_RECS)) return false;
    // The rows of pages read the general way before this one go first.
    if (out.rows > 0) {
      this.parts.push(this.rows.add(batchView(out)));
      out.clear();
    }
    const { kinds, intBytes, unsigned, decimals } = plan;
    const { order, spans } = plan.fields;
    const at0 = this.#room(origins.length, bytes.length);
    const levels = this.#levels;
    const values = this.#values;
    const ends = this.#ends;
    const texts = this.#bytes;
    const words = this.#words;
    const used = this.#used;
    const rowBytes = this.#rowBytes;
    let rows = 0;
    let recordBytes = 0;
    let deleted = 0;
    for (let r = 0; r < origins.length; r++) {
      const origin = origins[r];
      const size = plan.fields.walk(bytes, origin);
      if (size < 0) return false;
      recordBytes += size;
      if (bytes[origin - 5] & REC_INFO_DELETED) {
        deleted++;
        continue;
      }
      const at = at0 + rows;
      let text = 0;
      for (let k = 0; k < order.length; k++) {
        const i = order[k];
        const o = spans[2 * i];
        const kind = kinds[k];
        if (o === NULL_AT) {
          levels[k][at] = 0;
          if (kind >= FAST_CHAR) ends[k][at] = used[k];
          continue;
        }
        switch (kind) {
          case FAST_INT: {
            const v = storedInt(bytes, o, intBytes[k], unsigned[k] === 1);
            values[k][at] = v;
            text += v < 0 ? 1 + digitCount(-v) : digitCount(v);
            break;
          }
          case FAST_DECIMAL: {
            const d = decimals[k] as DecimalPlan;
            const v = decimalUnscaled(d, bytes, o);
            if (Number.isNaN(v)) return false;
            values[k][at] = v;
            // The text: its sign (as stored: -0 has one), the integer part's digits (0 for none), the point and the fraction.
            text += ((bytes[o] & 0x80) === 0 ? 1 : 0) + Math.max(1, digitCount(Math.abs(v)) - d.scale) + (d.scale > 0 ? d.scale + 1 : 0);
            break;
          }
          case FAST_DATE: {
            const v = ((bytes[o] << 16) | (bytes[o + 1] << 8) | bytes[o + 2]) ^ 0x800000;
            const days = v >> 9 > 9999 ? NaN : dayNumber(v >> 9, (v >> 5) & 15, v & 31);
            if (Number.isNaN(days)) return false;
            values[k][at] = days;
            text += 10;
            break;
          }
          default: {
            const end = copyUtf8(texts[k], words[k], used[k], bytes, o, spans[2 * i + 1], kind === FAST_CHAR);
            if (end < 0) return false;
            text += end - used[k];
            used[k] = end;
            ends[k][at] = end;
          }
        }
      }
      rowBytes[rows++] = text;
    }
    if (!heapFilled(bytes, recordBytes)) return false;
    const stats = plan.ctx.stats;
    stats.rowsDecoded += rows;
    stats.deletedSkipped += deleted;
    this.rows.addWritten(rows, rowBytes, this.parts);
    return true;
  }

  /** Room in every chunk for `records` more cells and a text column's `pageBytes` more bytes; the cell the first goes to. */
  #room(records: number, pageBytes: number): number {
    const chunks = this.rows.chunks;
    const at = (chunks[0] as NumberColumn | TextColumn).n;
    const n = at + records;
    if (this.#rowBytes.length < records) this.#rowBytes = new Int32Array(Math.max(records, 2 * this.#rowBytes.length));
    for (let k = 0; k < chunks.length; k++) {
      const chunk = chunks[k];
      if (chunk instanceof NumberColumn) {
        this.#values[k] = chunk.valuesFor(n);
      } else if (chunk instanceof TextColumn) {
        this.#ends[k] = chunk.endsFor(n);
        this.#bytes[k] = chunk.bytesFor(pageBytes);
        this.#words[k] = chunk.words;
        this.#used[k] = at === 0 ? 0 : this.#ends[k][at - 1];
      }
      // Every cell a value (1) unless the walk finds it null: one fill per page, not a store per value.
      this.#levels[k] = (chunk as NumberColumn | TextColumn).levels.fill(1, at, n);
    }
    return at;
  }

  /** The plan of a read (see the module comment), or null. */
  #planOf(ctx: PlanContext): Plan | null {
    const fields = LeafFields.plan(ctx);
    const { columns, chunks } = this.rows;
    if (fields === null || columns.length !== ctx.columns) return null;
    const order = Array.from(fields.order);
    const fast = order.map((i) => ctx.fast[i]);
    for (let k = 0; k < order.length; k++) {
      const { kind, bytes, decimal } = fast[k];
      const column = columns[k];
      const number = chunks[k] instanceof NumberColumn;
      const fits =
        kind === FAST_INT ? number && column.kind === 'int32' && bytes <= 4
        : kind === FAST_DECIMAL ? number && column.kind === 'decimal' && decimal?.scale === column.scale
        : kind === FAST_DATE ? number && column.kind === 'date'
        : (kind === FAST_CHAR || kind === FAST_VARCHAR) && chunks[k] instanceof TextColumn && column.kind === 'text';
      if (!fits) return null;
    }
    return {
      ctx,
      fields,
      kinds: Uint8Array.from(fast, (f) => f.kind),
      intBytes: Uint8Array.from(fast, (f) => f.bytes),
      unsigned: Uint8Array.from(fast, (f) => (f.unsigned ? 1 : 0)),
      decimals: fast.map((f) => f.decimal),
    };
  }
}
