/**
 * What a value check is (ValueCheck) and the tests the record decoder can run in its loop in place
 * of calling one (InlineCheck): the vocabulary value-check.ts and its per-type modules share.
 */
/** null when the stored bytes are a valid value of the column, else why not (short, lower-case text, e.g. "month 14", "digit group 1200000000 ≥ 10^9"). */
export type ValueCheck = (b: Uint8Array, o: number, len: number) => string | null;

/**
 * A test the record decoder runs in place of a call through a field's ValueCheck (a call site
 * that sees every check of a table is megamorphic, and wide tables check a dozen fields a row):
 * when it passes the value is valid; when not, the decoder calls the check for the verdict and its
 * reason. INLINE_CALL: no such test. INLINE_LENGTH: min ≤ len ≤ max is the whole check.
 * INLINE_ASCII: so is that plus 7-bit bytes (text of an ASCII-compatible charset). INLINE_DATE:
 * dateInRange(). INLINE_DECIMAL: decimalHeadsBelow() with `decimal`.
 */
export interface InlineCheck {
  kind: number;
  min: number;
  max: number;
  decimal: DecimalGroups | null;
}
const INLINE_CALL = 0;
export const INLINE_LENGTH = 1;
export const INLINE_ASCII = 2;
export const INLINE_DATE = 3;
export const INLINE_DECIMAL = 4;

const CALL_ONLY: InlineCheck = { kind: INLINE_CALL, min: 0, max: Infinity, decimal: null };
const inlineChecks = new WeakMap<ValueCheck, InlineCheck>();

export function withInline(check: ValueCheck, kind: number, min: number, max: number, decimal: DecimalGroups | null = null): ValueCheck {
  inlineChecks.set(check, { kind, min, max, decimal });
  return check;
}

/** The inline test of a check made with withInline() (INLINE_CALL when it has none). */
export function inlineCheckOf(check: ValueCheck): InlineCheck {
  return inlineChecks.get(check) ?? CALL_ONLY;
}

/**
 * The digit groups of a DECIMAL(M,D) in stored order: bytes, digits, 10^digits, and the first
 * byte below which a group is certainly below 10^digits.
 */
export interface DecimalGroups {
  bytes: Int32Array;
  digits: Int32Array;
  limits: Float64Array;
  heads: Int32Array;
}
