/**
 * What the plans that take a trusted leaf page straight to an output share (leaf-csv.ts for CSV
 * lines, writers/parquet-leaf.ts for Parquet's column chunks): whether a read qualifies (every column
 * of a fast kind, live rows, COMPACT records, no instant ALTER, no versions taken back, no system
 * columns), the field widths resolved up front, the walk that locates a record's fields, and the
 * check that a page's records fill its heap. Also the page hook TableReader.decodePages passes to
 * the LeafDecoder: a plan's taker of whole pages.
 */
import { u16 } from '../pages/fil-header.ts';
import { PAGE_DATA, PAGE_GARBAGE, PAGE_HEADER, PAGE_HEAP_TOP, PAGE_NEW_SUPREMUM_END, REC_INFO_MIN_REC } from '../pages/index-page.ts';
import type { Page } from '../tablespace/tablespace.ts';
import type { ClusteredLayout } from '../records/clustered-index.ts';
import type { FieldColumns } from '../records/record.ts';
import type { BatchBuilder } from '../values/row-batch.ts';
import type { FastWrite } from '../values/writer-traits.ts';
import type { DecodeStats } from './decode-stats.ts';
import type { RowMode } from './row-state.ts';

/** What a plan is made from: a LeafDecoder's context (leaf-decoder.ts LeafContext), in part. */
export interface PlanContext {
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

/**
 * Takes the live rows of a page whose checksum vouches for it (not the table's first) in its own
 * way, counting them in ctx.stats; false, with nothing written or counted, leaves the page to the
 * LeafDecoder's general read. `out` holds the rows of the pages read the general way before it.
 */
export interface LeafPageHook {
  take(page: Page, ctx: PlanContext, out: BatchBuilder): boolean;
}

/** Field flags: nullable (a bit in the null bitmap), and a length that may take two bytes (DATA_BIG_COL). */
const NULLABLE = 1;
const BIG = 2;
/** A NULL field's offset in the spans. */
export const NULL_AT = -1;
/** Record status and info bits of an ordinary COMPACT leaf record: status 0, no instant bits. */
const STATUS_MASK = 7;
const INSTANT_BITS = 0xc0;

export class LeafFields {
  /** Each field's offset and length in the record walked last. */
  readonly spans: Int32Array;

  private constructor(
    /** Per field in record order: fixed length (0: variable) and flags. */
    private readonly fixed: Int32Array,
    private readonly flags: Uint8Array,
    /** The fields in output column order. */
    readonly order: Int32Array,
    private readonly nullBytes: number,
  ) {
    this.spans = new Int32Array(2 * fixed.length);
  }

  /** The fields of a read that qualifies (see the module comment), or null. */
  static plan(ctx: PlanContext): LeafFields | null {
    const { layout, fast } = ctx;
    if (!ctx.compact || layout.instant || ctx.mode !== 'live' || ctx.versions || ctx.system) return null;
    const fields = layout.fields;
    const order = ctx.fieldColumns.order;
    if (order.length !== ctx.columns || order.length === 0) return null;
    for (let k = 0; k < order.length; k++) if (fields[order[k]].out !== k || fast[order[k]].kind === 0) return null;
    const fixed = Int32Array.from(fields, (f) => f.fixedLen);
    const flags = Uint8Array.from(fields, (f) => (f.nullable ? NULLABLE : 0) | (f.bigCol ? BIG : 0));
    return new LeafFields(fixed, flags, Int32Array.from(order), (layout.nNullable + 7) >> 3);
  }

  /**
   * Locates the fields of the COMPACT record at `origin` in `spans` (NULL_AT for a NULL); returns
   * the record's size with its header, or -1 where the general path must read it (a record of
   * another status, with instant bits or the minimum-record bit, a field stored off-page, or lengths that run out of the page).
   */
  walk(bytes: Uint8Array, origin: number): number {
    const { fixed, flags, spans } = this;
    if ((bytes[origin - 3] & STATUS_MASK) !== 0 || (bytes[origin - 5] & (INSTANT_BITS | REC_INFO_MIN_REC)) !== 0) return -1;
    let nullPtr = origin - 6;
    let lenPtr = nullPtr - this.nullBytes;
    let nullBit = 1;
    let p = origin;
    const end = bytes.length - 8;
    for (let i = 0; i < fixed.length; i++) {
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
    return p - lenPtr - 1;
  }
}

/** Whether records of `recordBytes` in all fill the page's heap: the infimum, the supremum, the records in the list and PAGE_GARBAGE bytes. */
export function heapFilled(bytes: Uint8Array, recordBytes: number): boolean {
  return recordBytes === u16(bytes, PAGE_HEADER + PAGE_HEAP_TOP) - PAGE_NEW_SUPREMUM_END - u16(bytes, PAGE_HEADER + PAGE_GARBAGE);
}
