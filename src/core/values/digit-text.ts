/**
 * Numbers as ASCII digits, put straight into a text buffer: integers of 1-4 bytes and DECIMAL's digit
 * groups (the same text as types' renderers), a few digits per store. These are the put* functions
 * that record.ts's line writer and the number, date and time writers call.
 */
import { dataView, textView } from './byte-views.ts';
import { decimalLayout } from './decimal.ts';

/** '00' … '99': two digits per lookup. */
const PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  PAIRS[2 * i] = 48 + Math.floor(i / 10);
  PAIRS[2 * i + 1] = 48 + (i % 10);
}

/** How many decimal digits a non-negative safe integer has (1 for 0: the length of its text). */
export function digitCount(v: number): number {
  if (v < 100000) return v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : v < 10000 ? 4 : 5;
  if (v < 10000000000) return v < 1000000 ? 6 : v < 10000000 ? 7 : v < 100000000 ? 8 : v < 1000000000 ? 9 : 10;
  let n = 11;
  for (let x = Math.floor(v / 100000000000); x > 0; x = Math.floor(x / 10)) n++;
  return n;
}

/**
 * Writes the `n` low decimal digits of a non-negative safe integer ending just before `end` (leading
 * zeros where it has fewer). Room must have been reserved.
 */
function putDigits(t: Uint8Array, end: number, v: number, n: number): void {
  let p = end;
  // Above 2^32, peel digits off in doubles until int32 arithmetic is exact.
  while (v >= 4294967296) {
    const q = Math.floor(v / 10);
    t[--p] = 48 + (v - q * 10);
    v = q;
    n--;
  }
  while (n >= 2) {
    const q = (v / 100) >>> 0;
    const r = 2 * (v - q * 100);
    t[--p] = PAIRS[r + 1];
    t[--p] = PAIRS[r];
    v = q;
    n -= 2;
  }
  if (n === 1) t[--p] = 48 + (v % 10);
}

/**
 * '0000' … '9999' as little-endian 32-bit words: four ASCII digits put down with one store, which
 * costs about what one byte's store does.
 */
export const DIGITS4 = new Int32Array(10000);
for (let i = 0; i < 10000; i++) {
  const d = [Math.floor(i / 1000), Math.floor(i / 100) % 10, Math.floor(i / 10) % 10, i % 10];
  DIGITS4[i] = (48 + d[0]) | ((48 + d[1]) << 8) | ((48 + d[2]) << 16) | ((48 + d[3]) << 24);
}

/**
 * The put* functions here put digits down four at a time and may leave up to 3 bytes of scratch just
 * past the position they return (written over by what comes next): their callers reserve room for it.
 */
export const SCRATCH = 3;

/** v (0 … 9999) in as many digits as it has, at p; returns the position after them. */
function put4(t: Uint8Array, p: number, v: number): number {
  const n = v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : 4;
  textView(t).setInt32(p, DIGITS4[v] >>> (32 - 8 * n), true);
  return p + n;
}

/** v (0 … 99,999,999) as exactly 8 digits (leading zeros) at p; returns the position after them. */
function put8(t: Uint8Array, p: number, v: number): number {
  const hi = Math.floor(v / 10000);
  const view = textView(t);
  view.setInt32(p, DIGITS4[hi], true);
  view.setInt32(p + 4, DIGITS4[v - hi * 10000], true);
  return p + 8;
}

/**
 * Decimal digits of a non-negative safe integer at p; returns the position after them. The caller
 * has reserved room (16 digits and SCRATCH at most): reserving here could move `out.text` under a
 * caller that holds it.
 */
function putUint(t: Uint8Array, p: number, v: number): number {
  if (v < 10000) return put4(t, p, v);
  if (v < 100000000) {
    const hi = Math.floor(v / 10000);
    p = put4(t, p, hi);
    textView(t).setInt32(p, DIGITS4[v - hi * 10000], true);
    return p + 4;
  }
  let hi = Math.floor(v / 100000000);
  let lo = v - hi * 100000000;
  // Near 2^53 the rounded quotient can be one too many: the remainder then comes out negative.
  if (lo < 0) {
    hi--;
    lo += 100000000;
  }
  return put8(t, putUint(t, p, hi), lo);
}

/**
 * An integer of 1-4 bytes at o (big-endian; signed ones with the sign bit flipped) as decimal digits
 * at p; returns the position after them. Room for 11 bytes and SCRATCH must have been reserved.
 */
export function putInt(t: Uint8Array, p: number, b: Uint8Array, o: number, bytes: number, unsigned: boolean): number {
  let v = storedInt(b, o, bytes, unsigned);
  if (v < 0) {
    t[p++] = 45; // '-'
    v = -v;
  }
  return putUint(t, p, v);
}

/** An integer of 1-4 bytes at o (big-endian; signed ones with the sign bit flipped), as putInt writes it. */
export function storedInt(b: Uint8Array, o: number, bytes: number, unsigned: boolean): number {
  if (bytes === 4) {
    return unsigned
      ? ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0
      : ((b[o] ^ 0x80) << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3];
  }
  let v = 0;
  for (let i = 0; i < bytes; i++) v = (v << 8) | b[o + i];
  return unsigned ? v : v - 2 ** (bytes * 8 - 1);
}

/**
 * Zero-padded decimal digits of a non-negative integer at p (room reserved); like pad() in
 * types/render.ts, a value wider than `width` keeps all its digits.
 */
export function putPadded(t: Uint8Array, p: number, v: number, width: number): number {
  // The common widths in one or two stores: DECIMAL's 9-digit groups and short fractions, times' 2.
  if (width === 9 && v < 1000000000) {
    const hi = Math.floor(v / 100000000);
    t[p] = 48 + hi;
    return put8(t, p + 1, v - hi * 100000000);
  }
  if (width >= 1 && width <= 4 && v < POW10[width]) {
    textView(t).setInt32(p, DIGITS4[v] >>> (32 - 8 * width), true);
    return p + width;
  }
  const n = v < 10 ? Math.max(1, width) : Math.max(digitCount(v), width);
  putDigits(t, p + n, v, n);
  return p + n;
}

const POW10 = [1, 10, 100, 1000, 10000];

/** One digit group of n (1-4) bytes at p, every byte xor `mask` (0 or 0xff: negative values are inverted). */
function group(b: Uint8Array, p: number, n: number, mask: number): number {
  if (n === 4) return (dataView(b).getInt32(p) ^ (mask === 0 ? 0 : -1)) >>> 0;
  let v = (b[p] ^ mask) & 0xff;
  for (let i = 1; i < n; i++) v = (v << 8) | ((b[p + i] ^ mask) & 0xff);
  return v >>> 0;
}

/**
 * DECIMAL at o of up to 15 digits as its unscaled value (the digits of the text putDecimal writes,
 * without the point: exact in a double), or NaN where a group holds more digits than it may (a
 * damaged value, whose text putDecimal writes with them all).
 */
export function decimalUnscaled(d: DecimalPlan, b: Uint8Array, o: number): number {
  const mask = (b[o] & 0x80) === 0 ? 0xff : 0;
  let p = o;
  let flip = d.firstBit;
  let v = 0;
  if (d.intLead > 0) {
    v = (group(b, p, d.intLead, mask) ^ flip) >>> 0;
    if (v >= TENS[d.leadDigits]) return NaN;
    flip = 0;
    p += d.intLead;
  }
  for (let i = 0; i < d.intFull + d.fracFull; i++, p += 4) {
    const g = (group(b, p, 4, mask) ^ flip) >>> 0;
    if (g >= 1e9) return NaN;
    flip = 0;
    v = v * 1e9 + g;
  }
  if (d.fracTail > 0) {
    const g = (group(b, p, d.fracTail, mask) ^ flip) >>> 0;
    if (g >= TENS[d.fracDigits]) return NaN;
    v = v * TENS[d.fracDigits] + g;
  }
  return mask && v !== 0 ? -v : v;
}

const TENS = [1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000];

/** How a DECIMAL(precision, scale) field splits into digit groups (see decimalLayout), for putDecimal(). */
export interface DecimalPlan {
  intFull: number;
  intLead: number;
  fracFull: number;
  fracDigits: number;
  fracTail: number;
  scale: number;
  /** Digits of the integer part's leading group (intLead bytes). */
  leadDigits: number;
  /** The value of the first group's flipped top bit. */
  firstBit: number;
  /** The most bytes a value's text can take. */
  room: number;
}

export function decimalPlan(precision: number, scale: number): DecimalPlan {
  const { intFull, intLead, fracFull, fracDigits, fracTail } = decimalLayout(precision, scale);
  // The first group holds the field's first byte, whose top bit is flipped: as a value, this bit.
  const firstN = intLead > 0 ? intLead : intFull > 0 ? 4 : fracFull > 0 ? 4 : fracTail;
  const firstBit = firstN === 0 ? 0 : 2 ** (8 * firstN - 1);
  // A damaged value can hold groups above 999,999,999: one more digit per group at most.
  const room = precision + 3 + intFull + fracFull + 20 + SCRATCH;
  return { intFull, intLead, fracFull, fracDigits, fracTail, scale, leadDigits: (precision - scale) % 9, firstBit, room };
}

/**
 * DECIMAL at o: the same digit groups as decimalRenderer (types/decimal.ts), written as bytes at p;
 * returns the position after them. Room for plan.room bytes must have been reserved.
 */
export function putDecimal(d: DecimalPlan, t: Uint8Array, q: number, b: Uint8Array, o: number): number {
  const mask = (b[o] & 0x80) === 0 ? 0xff : 0;
  if (mask) t[q++] = 45; // '-'
  let p = o;
  let flip = d.firstBit;
  let started = false;
  if (d.intLead > 0) {
    const v = (group(b, p, d.intLead, mask) ^ flip) >>> 0;
    flip = 0;
    p += d.intLead;
    if (v !== 0) {
      q = putUint(t, q, v);
      started = true;
    }
  }
  for (let i = 0; i < d.intFull; i++, p += 4) {
    const v = (group(b, p, 4, mask) ^ flip) >>> 0;
    flip = 0;
    if (started) q = putPadded(t, q, v, 9);
    else if (v !== 0) {
      q = putUint(t, q, v);
      started = true;
    }
  }
  if (!started) t[q++] = 48;
  if (d.scale === 0) return q;
  t[q++] = 46; // '.'
  for (let i = 0; i < d.fracFull; i++, p += 4) {
    q = putPadded(t, q, (group(b, p, 4, mask) ^ flip) >>> 0, 9);
    flip = 0;
  }
  if (d.fracTail > 0) q = putPadded(t, q, (group(b, p, d.fracTail, mask) ^ flip) >>> 0, d.fracDigits);
  return q;
}
