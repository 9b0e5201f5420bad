/**
 * A cell's text (its UTF-8 bytes in a RowBatch, exactly what the server's SELECT shows) read as the
 * value its Parquet column holds (parquet-columns.ts), straight from the bytes for numbers and dates.
 *
 * A reader returns `undefined` where the text is not a value its type can hold; the export then
 * writes a null and counts the cell by column (parquet-rows.ts), so no cell becomes a wrong value:
 *  - zero and partial dates (`0000-00-00`, `2024-00-15`), and years before 1 (Parquet's DATE and
 *    TIMESTAMP are proleptic Gregorian days, with no month 0 nor year 0);
 *  - a value that could not be decoded (`[unreadable: …]`, only ever an off-page value: a BLOB's
 *    or JSON's cell), which is no hex and no JSON document. In a text column such a cell keeps its
 *    text, as the CSV does: the decoder counts it and names it on stderr.
 */
import { textSlice, type BatchText } from '../values/batch-strings.ts';
import type { CellKind } from './parquet-columns.ts';

export type CellValue = number | bigint | string | Uint8Array;
/** A cell's value from its bytes t[start, end) (`bt`: the batch's text as a string, for text and floats). */
export type CellReader = (t: Uint8Array, start: number, end: number, bt: BatchText) => CellValue | undefined;

const MINUS = 45;
const PLUS = 43;
const DOT = 46;
const COLON = 58;
const SPACE = 32;
const ZERO = 48;
const Z = 90;
const OPEN_BRACKET = 91;
/** Digits that a double holds exactly (any 15-digit number is below 2^53). */
const EXACT_DIGITS = 15;
/** 10^n as bigints, n up to EXACT_DIGITS. */
const POW10 = Array.from({ length: EXACT_DIGITS + 1 }, (_, n) => 10n ** BigInt(n));
/** The same as doubles (each exact), looked up rather than raised to a power per cell. */
const TENS = Float64Array.from({ length: EXACT_DIGITS + 1 }, (_, n) => 10 ** n);

/** The reader of a column's cells; `scale`: a DECIMAL's digits after the point. */
export function cellReader(kind: CellKind, scale: number): CellReader {
  switch (kind) {
    case 'int32': return (t, s, e) => unscaled(t, s, e, 0, false);
    case 'int64':
    case 'decimal': return (t, s, e) => unscaled(t, s, e, scale, true);
    case 'float':
    case 'double': return (_t, s, e, bt) => floating(s, e, bt);
    case 'date': return (t, s, e) => (e - s === 10 ? civilDays(t, s) : undefined);
    case 'timestamp': return timestampMicros;
    case 'bits32': return (t, s, e) => (bitDigits(t, s, e) <= 8 ? hexNumber(t, s + 2, e) : undefined);
    case 'bits64': return (t, s, e) => (bitDigits(t, s, e) <= 16 ? (BigInt(hexNumber(t, s + 2, e - 8)) << 32n) + BigInt(hexNumber(t, Math.max(s + 2, e - 8), e)) : undefined);
    case 'bytes': return hexBytes;
    case 'text': return (_t, s, e, bt) => textSlice(bt, s, e);
    case 'json': return (t, s, e) => (t[s] === OPEN_BRACKET && unreadable(t, s, e) ? undefined : t.slice(s, e));
  }
}

/**
 * `[-]digits[.digits]` as the whole number it is times 10^scale (no more than `scale` digits after the
 * point); a bigint when `big`, else a number (whose digits a double must hold exactly).
 */
export function unscaled(t: Uint8Array, start: number, end: number, scale: number, big: boolean): number | bigint | undefined {
  const neg = t[start] === MINUS;
  const first = neg ? start + 1 : start;
  let point = -1;
  for (let i = first; i < end; i++) {
    const b = t[i];
    if (b === DOT && point < 0 && i > first) point = i;
    else if (b < ZERO || b > ZERO + 9) return undefined;
  }
  if (end === first || point === end - 1) return undefined;
  const fraction = point < 0 ? 0 : end - point - 1;
  if (fraction > scale) return undefined;
  const digits = end - first - (point < 0 ? 0 : 1) + scale - fraction;
  if (digits > EXACT_DIGITS) return big ? longUnscaled(t, first, end, point, scale - fraction, neg) : undefined;
  let v = 0;
  for (let i = first; i < end; i++) if (i !== point) v = v * 10 + t[i] - ZERO;
  if (fraction < scale) v *= TENS[scale - fraction];
  if (neg && v !== 0) v = -v;
  return big ? BigInt(v) : v;
}

/** The digits of t[first, end) but the point's, times 10^pad, as a bigint: in runs of up to 15 digits. */
function longUnscaled(t: Uint8Array, first: number, end: number, point: number, pad: number, neg: boolean): bigint {
  let v = 0n;
  let run = 0;
  let n = 0;
  for (let i = first; i <= end; i++) {
    if (i === end || n === EXACT_DIGITS) {
      v = v * POW10[n] + BigInt(run);
      run = 0;
      n = 0;
    }
    if (i === end) break;
    if (i === point) continue;
    run = run * 10 + t[i] - ZERO;
    n++;
  }
  for (; pad > 0; pad -= Math.min(pad, EXACT_DIGITS)) v *= POW10[Math.min(pad, EXACT_DIGITS)];
  return neg ? -v : v;
}

function floating(start: number, end: number, bt: BatchText): number | undefined {
  if (end === start) return undefined;
  const v = Number(textSlice(bt, start, end));
  return Number.isNaN(v) ? undefined : v;
}

/** `n` decimal digits at t[at] as a number, or -1 where one is not a digit. */
function digitsAt(t: Uint8Array, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = t[i] - ZERO;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function leap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** YYYY-MM-DD at t[at] as days since 1970-01-01 (proleptic Gregorian), or undefined for no such day. */
export function civilDays(t: Uint8Array, at: number): number | undefined {
  const y = digitsAt(t, at, 4);
  const m = digitsAt(t, at + 5, 2);
  const d = digitsAt(t, at + 8, 2);
  if (t[at + 4] !== MINUS || t[at + 7] !== MINUS) return undefined;
  const days = dayNumber(y, m, d);
  return Number.isNaN(days) ? undefined : days;
}

/** Year, month and day (as digits give them: -1 for none) as days since 1970-01-01 (proleptic Gregorian), or NaN for no such day. */
export function dayNumber(y: number, m: number, d: number): number {
  if (y < 1 || m < 1 || m > 12 || d < 1) return NaN;
  if (d > (m === 2 && leap(y) ? 29 : MONTH_DAYS[m - 1])) return NaN;
  // Howard Hinnant's days_from_civil; every quotient is of non-negative numbers (y >= 1), so `| 0` floors it.
  const yy = m <= 2 ? y - 1 : y;
  const era = (yy / 400) | 0;
  const yoe = yy - era * 400;
  const doy = (((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) | 0) + d - 1;
  const doe = yoe * 365 + ((yoe / 4) | 0) - ((yoe / 100) | 0) + doy;
  return era * 146097 + doe - 719468;
}

/**
 * `YYYY-MM-DD hh:mm:ss[.f…]` as microseconds since 1970-01-01 00:00:00, or undefined for no such
 * time. A `Z` or `±hh:mm` after it is an offset from UTC, taken away.
 */
export function timestampMicros(t: Uint8Array, start: number, end: number): bigint | undefined {
  if (end - start < 19 || t[start + 10] !== SPACE || t[start + 13] !== COLON || t[start + 16] !== COLON) return undefined;
  const days = civilDays(t, start);
  const h = digitsAt(t, start + 11, 2);
  const mi = digitsAt(t, start + 14, 2);
  const sec = digitsAt(t, start + 17, 2);
  if (days === undefined || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59) return undefined;
  let at = start + 19;
  let micros = 0;
  if (t[at] === DOT && at < end) {
    const digits = fractionDigits(t, at + 1, end);
    if (digits === 0 || digits > 6) return undefined;
    micros = digitsAt(t, at + 1, digits) * 10 ** (6 - digits);
    at += 1 + digits;
  }
  const offset = utcOffset(t, at, end);
  if (offset === undefined) return undefined;
  return BigInt(days * 86400 + h * 3600 + mi * 60 + sec - offset) * 1_000_000n + BigInt(micros);
}

function fractionDigits(t: Uint8Array, at: number, end: number): number {
  let n = 0;
  while (at + n < end && t[at + n] >= ZERO && t[at + n] <= ZERO + 9) n++;
  return n;
}

/** Seconds east of UTC of a `Z` or `±hh:mm` suffix at t[at, end): 0 for none, undefined for another one. */
function utcOffset(t: Uint8Array, at: number, end: number): number | undefined {
  if (at === end) return 0;
  if (end - at === 1 && t[at] === Z) return 0;
  if (end - at !== 6 || (t[at] !== PLUS && t[at] !== MINUS) || t[at + 3] !== COLON) return undefined;
  const h = digitsAt(t, at + 1, 2);
  const m = digitsAt(t, at + 4, 2);
  if (h < 0 || m < 0) return undefined;
  return (t[at] === MINUS ? -1 : 1) * (h * 3600 + m * 60);
}

/** The number of hex digits of `0x…`, or undefined when the text is not that. */
function hexDigits(t: Uint8Array, start: number, end: number): number | undefined {
  if (end - start < 2 || t[start] !== ZERO || t[start + 1] !== 120) return undefined;
  for (let i = start + 2; i < end; i++) if (hexValue(t[i]) < 0) return undefined;
  return end - start - 2;
}

/** The hex digits of a BIT value's `0x…` (at least one), else Infinity. */
function bitDigits(t: Uint8Array, start: number, end: number): number {
  const n = hexDigits(t, start, end) ?? 0;
  return n > 0 ? n : Infinity;
}

/** Hex digits t[start, end) (at most 8) as a number. */
function hexNumber(t: Uint8Array, start: number, end: number): number {
  let v = 0;
  for (let i = start; i < end; i++) v = v * 16 + hexValue(t[i]);
  return v;
}

function hexValue(b: number): number {
  if (b >= ZERO && b <= ZERO + 9) return b - ZERO;
  if (b >= 65 && b <= 70) return b - 55;
  if (b >= 97 && b <= 102) return b - 87;
  return -1;
}

/** `0x` + hex (as binary values are shown) as its bytes. */
function hexBytes(t: Uint8Array, start: number, end: number): Uint8Array | undefined {
  const n = hexDigits(t, start, end);
  if (n === undefined || n % 2 !== 0) return undefined;
  const out = new Uint8Array(n / 2);
  for (let i = 0; i < out.length; i++) out[i] = (hexValue(t[start + 2 + 2 * i]) << 4) | hexValue(t[start + 3 + 2 * i]);
  return out;
}

const UNREADABLE = new TextEncoder().encode('[unreadable');

/** Whether the text starts as the decoder's mark of a value it could not read (`[unreadable: …]`). */
function unreadable(t: Uint8Array, start: number, end: number): boolean {
  if (end - start < UNREADABLE.length) return false;
  for (let i = 0; i < UNREADABLE.length; i++) if (t[start + i] !== UNREADABLE[i]) return false;
  return true;
}
