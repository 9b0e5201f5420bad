/**
 * A field of a clustered index record as the decoder walks it (dict_field_t with the column's
 * storage): its size, nullability, renderer and value check, and the checks laid out for the loop.
 */
import type { Render } from '../values/render.ts';
import { inlineCheckOf, type DecimalGroups, type ValueCheck } from '../values/inline-check.ts';

export interface FieldSpec {
  /** Column name, or DB_ROW_ID / DB_TRX_ID / DB_ROLL_PTR. */
  name: string;
  /** Output column this field fills, or -1 (system fields, column prefixes in the key). */
  out: number;
  /** Bytes for fixed-size fields, 0 for variable-size ones. */
  fixedLen: number;
  /** Variable-size field whose length may take 2 bytes in a COMPACT header (DATA_BIG_COL). */
  bigCol: boolean;
  nullable: boolean;
  render: Render;
  /** Whether the stored bytes are a value of the column (value-check.ts); null when any bytes are, or the field is not output. */
  check: ValueCheck | null;
}

/**
 * The fields of a record that have a check, and each one's inline test (value-check.ts InlineCheck),
 * laid out for the decoder's loop.
 */
export interface FieldChecks {
  /** Field indexes, in field order. */
  fields: Int32Array;
  kinds: Uint8Array;
  min: Float64Array;
  max: Float64Array;
  decimals: (DecimalGroups | null)[];
}

/** The FieldChecks of `fields` (or of those listed in `stored`, the fields a record has). */
export function checkedFields(fields: readonly FieldSpec[], stored?: ArrayLike<number>): FieldChecks {
  const all = stored === undefined ? fields.map((_, i) => i) : Array.from(stored);
  const indexes = all.filter((i) => fields[i].check !== null);
  const inline = indexes.map((i) => inlineCheckOf(fields[i].check as ValueCheck));
  return {
    fields: Int32Array.from(indexes),
    kinds: Uint8Array.from(inline, (t) => t.kind),
    min: Float64Array.from(inline, (t) => t.min),
    max: Float64Array.from(inline, (t) => t.max),
    decimals: inline.map((t) => t.decimal),
  };
}
