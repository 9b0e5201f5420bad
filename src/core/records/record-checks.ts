/**
 * The value checks of a record's fields (types/value-check.ts), run by the record decoder (record.ts)
 * once a record's fields are located and before any is written. The common kinds pass an inline test
 * here (value-check.ts InlineCheck) instead of a call through each field's check, which in a wide
 * table is a call site that sees a dozen functions a row.
 */
import type { FieldChecks, FieldSpec } from './field-spec.ts';
import { INLINE_ASCII, INLINE_DATE, INLINE_DECIMAL, INLINE_LENGTH, type DecimalGroups, type ValueCheck } from '../values/inline-check.ts';
import { decimalHeadsBelow } from '../values/value-check.ts';
import { dateInRange } from '../values/value-check-temporal.ts';
import { isAscii } from '../values/value-check-text.ts';

/** Why the field failingField() returned failed its check. */
export const checkFailure = { reason: '' };

/**
 * The first of the `checked` fields located in `at` (see record.ts spans) whose value fails its
 * check, or -1 when all pass; only fields the record stores on the page are checked (not NULL, not
 * off-page, not absent). 7-bit text is looked at in runs: fields stored one after the other (as
 * most are) are scanned in one go, and a run that is not all 7-bit has each of its fields checked
 * in full.
 */
export function failingField(fields: readonly FieldSpec[], checked: FieldChecks, page: Uint8Array, at: Int32Array): number {
  const { kinds, min, max } = checked;
  const indexes = checked.fields;
  let runStart = 0;
  let runEnd = 0;
  // Set once a run was not 7-bit and every text field has been checked in full.
  let textDone = false;
  for (let k = 0; k < indexes.length; k++) {
    const i = indexes[k];
    const offset = at[2 * i];
    if (offset < 0) continue;
    const len = at[2 * i + 1];
    switch (kinds[k]) {
      case INLINE_LENGTH: if (len >= min[k] && len <= max[k]) continue; break;
      case INLINE_ASCII:
        if (len < min[k] || len > max[k]) break;
        if (textDone) continue;
        if (offset !== runEnd) {
          if (!isAscii(page, runStart, runEnd - runStart)) {
            const failed = failingText(fields, checked, page, at);
            if (failed >= 0) return failed;
            textDone = true;
            continue;
          }
          runStart = offset;
        }
        runEnd = offset + len;
        continue;
      case INLINE_DATE: if (len === 3 && dateInRange(page, offset)) continue; break;
      case INLINE_DECIMAL: if (len === min[k] && decimalHeadsBelow(checked.decimals[k] as DecimalGroups, page, offset)) continue; break;
    }
    if (fails(fields[i], page, offset, len)) return i;
  }
  return textDone || isAscii(page, runStart, runEnd - runStart) ? -1 : failingText(fields, checked, page, at);
}

function fails(f: FieldSpec, page: Uint8Array, offset: number, len: number): boolean {
  const reason = (f.check as ValueCheck)(page, offset, len);
  if (reason === null) return false;
  checkFailure.reason = reason;
  return true;
}

/**
 * failingField() for a record whose text is not all 7-bit: every INLINE_ASCII field in full (the
 * fields after the run may fail too, so all of them).
 */
function failingText(fields: readonly FieldSpec[], checked: FieldChecks, page: Uint8Array, at: Int32Array): number {
  for (let k = 0; k < checked.fields.length; k++) {
    const i = checked.fields[k];
    if (checked.kinds[k] === INLINE_ASCII && at[2 * i] >= 0 && fails(fields[i], page, at[2 * i], at[2 * i + 1])) return i;
  }
  return -1;
}
