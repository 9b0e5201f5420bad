/**
 * The writers of integers of 1-4 bytes, DECIMAL and binary values (as 0x and hex digits): text that
 * never needs quotes in CSV. Integers and DECIMAL have fast kinds: record.ts's line writer puts them
 * down itself through the same put* functions (digit-text.ts).
 */
import { decimalPlan, putDecimal, putInt, SCRATCH } from './digit-text.ts';
import { QUOTE_NEVER } from './row-batch.ts';
import { described, fastKind, FAST_DECIMAL, FAST_INT, type Write } from './writer-traits.ts';

export function intWriter(bytes: number, unsigned: boolean): Write {
  const write: Write = (b, o, _len, out) => {
    out.reserve(11 + SCRATCH);
    out.pos = putInt(out.text, out.pos, b, o, bytes, unsigned);
  };
  return described(write, QUOTE_NEVER, fastKind(FAST_INT, { bytes, unsigned }));
}

const HEX_DIGITS = new TextEncoder().encode('0123456789ABCDEF');

export const writeHex: Write = described((b, o, len, out) => {
  out.reserve(2 + 2 * len);
  const t = out.text;
  let p = out.pos;
  t[p++] = 48; // 0
  t[p++] = 120; // x
  for (let i = o; i < o + len; i++) {
    t[p++] = HEX_DIGITS[b[i] >> 4];
    t[p++] = HEX_DIGITS[b[i] & 15];
  }
  out.pos = p;
}, QUOTE_NEVER);

export function decimalWriter(precision: number, scale: number): Write {
  const decimal = decimalPlan(precision, scale);
  const write: Write = (b, o, _len, out) => {
    out.reserve(decimal.room);
    out.pos = putDecimal(decimal, out.text, out.pos, b, o);
  };
  return described(write, QUOTE_NEVER, fastKind(FAST_DECIMAL, { decimal }));
}
