/**
 * Cutting a run of fixed bytes into columns: numbers of 1..8 bytes or printable text, wherever the
 * values need the fewest bits (a column's numeric range, text by its per-byte entropy), with a price
 * per column. The byte statistics here also tell where NULL-able fixed columns sit.
 */
import { beUint, isDatetime, realDate } from './type-guess.ts';

/** Shannon entropy (bits) of byte values. */
export function entropy(counts: Uint32Array, n: number): number {
  if (n === 0) return 0;
  let h = 0;
  for (const c of counts) if (c > 0) h -= (c / n) * Math.log2(c / n);
  return h;
}

/** Cost of a new column: splitting must save more than this many bits of value range. */
export const SEGMENT_BITS = 4;

/** Bits spanned by the values of bytes [a, a+len) read big-endian: log2 of (max − min + 1). */
export function rangeBits(values: readonly Uint8Array[], a: number, len: number): number {
  let common = 0;
  while (common < len && values.every((v) => v[a + common] === values[0][a + common])) common++;
  if (common === len) return 0;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    const x = beUint(v, a + common, a + len);
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return Math.log2(max - min + 1);
}

/** Bytes printable as ASCII text in every record. */
function printable(values: readonly Uint8Array[], j: number): boolean {
  return values.every((v) => v[j] >= 0x20 && v[j] < 0x7f);
}

/** Running sums of the per-byte entropy of bytes [from, from+len): text costs what its characters vary. */
function entropySums(values: readonly Uint8Array[], from: number, len: number): number[] {
  const counts = new Uint32Array(256);
  const sums = [0];
  for (let j = from; j < from + len; j++) {
    counts.fill(0);
    for (const v of values) counts[v[j]]++;
    sums.push(sums[sums.length - 1] + entropy(counts, values.length));
  }
  return sums;
}

/**
 * Column lengths for bytes [from, from+len) of a run of fixed bytes: numbers of 1..8 bytes, DATETIMEs
 * with a fraction, or printable text of any length, chosen so that the values need the fewest bits (a column's range, plus
 * SEGMENT_BITS per column). Returns the lengths and those bits.
 */
export function segmentRun(values: readonly Uint8Array[], len: number, from = 0): { lens: number[]; bits: number } {
  if (len <= 0) return { lens: [], bits: 0 };
  const best = new Array<number>(len + 1).fill(Infinity);
  const cut = new Array<number>(len + 1).fill(0);
  best[0] = 0;
  const textEnd = new Array<number>(len + 1).fill(0);
  for (let j = len - 1; j >= 0; j--) textEnd[j] = printable(values, from + j) ? Math.max(j + 1, textEnd[j + 1]) : j;
  const text = entropySums(values, from, len);
  for (let a = 0; a < len; a++) {
    if (best[a] === Infinity) continue;
    for (let l = 1; l <= Math.min(8, len - a); l++) relax(best, cut, a, l, best[a] + rangeBits(values, from + a, l) + SEGMENT_BITS);
    for (let l = 3; a + l <= textEnd[a]; l++) relax(best, cut, a, l, best[a] + text[a + l] - text[a] + SEGMENT_BITS);
    // DATETIME(1..6): 5 bytes and 1-3 of fraction, whose bits are those of its two parts, in one column
    for (let l = 6; l <= Math.min(8, len - a); l++) {
      if (datetimes(values, from + a, l)) relax(best, cut, a, l, best[a] + rangeBits(values, from + a, 5) + rangeBits(values, from + a + 5, l - 5) + SEGMENT_BITS);
    }
  }
  const lens: number[] = [];
  for (let j = len; j > 0; j -= cut[j]) lens.unshift(cut[j]);
  return { lens, bits: best[len] };
}

/** Bytes [a, a+l) are a DATETIME with a fraction in every record, a real date in some. */
function datetimes(values: readonly Uint8Array[], a: number, l: number): boolean {
  let real = false;
  for (const v of values) {
    const d = v.subarray(a, a + l);
    if (!isDatetime(d)) return false;
    real ||= realDate(d);
  }
  return real;
}

function relax(best: number[], cut: number[], a: number, l: number, c: number): void {
  if (c < best[a + l]) {
    best[a + l] = c;
    cut[a + l] = l;
  }
}
