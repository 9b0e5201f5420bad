/**
 * DATE, DATETIME(fsp), TIMESTAMP(fsp), TIME(fsp) and YEAR values given as text turned into the bytes
 * InnoDB stores (the inverse of temporal.ts: my_datetime_packed_to_binary,
 * my_timestamp_to_binary, my_time_packed_to_binary), so that a key given on the command line
 * compares with stored keys byte by byte, as InnoDB compares them. A text that is not a value of
 * the column (a fraction finer than its fsp, a month 13) is an Error naming the column.
 */
import { fracBytes } from './temporal.ts';
import { UTC, zonedInstant, type TimeZone } from './time-zone.ts';

/** `v` as `n` big-endian bytes (v ≥ 0, below 2^53). */
export function storeUintBE(v: number, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    out[i] = v % 256;
    v = Math.floor(v / 256);
  }
  return out;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})/;
const CLOCK = /^(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.(\d{1,6}))?$/;

interface Parts {
  y: number;
  mo: number;
  d: number;
  h: number;
  mi: number;
  s: number;
  micros: number;
}

function notValue(text: string, what: string): Error {
  return new Error(`'${text}' is not a ${what} value`);
}

/** Microseconds of a fraction, which must fit in `fsp` digits. */
function micros(frac: string | undefined, fsp: number, text: string, what: string): number {
  const digits = (frac ?? '').replace(/0+$/, '');
  if (digits.length > fsp) throw notValue(text, what);
  return Number(digits.padEnd(6, '0'));
}

/** 'YYYY-MM-DD[ hh:mm:ss[.ffffff]]' (a date alone is midnight). */
function dateTimeParts(text: string, fsp: number, what: string): Parts {
  const date = DATE.exec(text);
  if (!date) throw notValue(text, what);
  const rest = text.slice(date[0].length);
  const clock = rest === '' ? ['', '0', '0', '0'] : /^[ T]/.test(rest) ? CLOCK.exec(rest.slice(1)) : null;
  if (!clock) throw notValue(text, what);
  const p = { y: +date[1], mo: +date[2], d: +date[3], h: +clock[1], mi: +clock[2], s: +clock[3], micros: micros(clock[4], fsp, text, what) };
  if (p.mo > 12 || p.d > 31 || p.h > 23 || p.mi > 59 || p.s > 59) throw notValue(text, what);
  return p;
}

/** The fraction's bytes for `fsp` (1 byte of 1/100 s, 2 of 1/10000 s, or 3 of microseconds). */
function fraction(us: number, fsp: number): Uint8Array {
  switch (fracBytes(fsp)) {
    case 0: return new Uint8Array(0);
    case 1: return storeUintBE(us / 10000, 1);
    case 2: return storeUintBE(us / 100, 2);
    default: return storeUintBE(us, 3);
  }
}

/** DATE: year*512 + month*32 + day in 3 bytes, sign bit flipped. */
export function encodeDate(text: string): Uint8Array {
  if (!/^\d{4}-\d{1,2}-\d{1,2}$/.test(text)) throw notValue(text, 'DATE');
  const p = dateTimeParts(text, 0, 'DATE');
  return storeUintBE(p.y * 512 + p.mo * 32 + p.d + 0x800000, 3);
}

/** DATETIME(fsp): ((year*13+month)*32+day)*2^17 + hh:mm:ss, offset by 2^39, in 5 bytes; then the fraction. */
export function encodeDatetime(text: string, fsp: number): Uint8Array {
  const p = dateTimeParts(text, fsp, `DATETIME(${fsp})`);
  const ymd = (p.y * 13 + p.mo) * 32 + p.d;
  return concat(storeUintBE(ymd * 131072 + ((p.h << 12) | (p.mi << 6) | p.s) + 2 ** 39, 5), fraction(p.micros, fsp));
}

/**
 * TIMESTAMP(fsp): seconds since the epoch (the zero date is 0), the text read in `zone` as the values
 * are shown in it (a local time the clocks skip or repeat is an Error, time-zone.ts); then the fraction.
 */
export function encodeTimestamp(text: string, fsp: number, zone: TimeZone = UTC): Uint8Array {
  const p = dateTimeParts(text, fsp, `TIMESTAMP(${fsp})`);
  const zero = p.y === 0 && p.mo === 0 && p.d === 0;
  const secs = zero ? 0 : zonedInstant(zone, Date.UTC(p.y, p.mo - 1, p.d, p.h, p.mi, p.s) / 1000, text);
  if (!zero && (secs < 1 || secs >= 2 ** 32 || p.mo === 0 || p.d === 0)) throw notValue(text, `TIMESTAMP(${fsp})`);
  return concat(storeUintBE(secs, 4), fraction(p.micros, fsp));
}

/**
 * TIME(fsp): the signed packed value (hh:mm:ss << 24 | microseconds) stored as its integer part
 * (rounded down) offset by 2^23 in 3 bytes, then the fraction's remainder as a signed byte or
 * 16-bit number (fsp 1-4); fsp 5-6 store the whole packed value offset by 2^47 in 6 bytes.
 */
export function encodeTime(text: string, fsp: number): Uint8Array {
  const what = `TIME(${fsp})`;
  const m = /^(-)?(\d{1,3}):(\d{1,2}):(\d{1,2})(?:\.(\d{1,6}))?$/.exec(text);
  if (!m || +m[2] > 838 || +m[3] > 59 || +m[4] > 59) throw notValue(text, what);
  const packed = (m[1] ? -1 : 1) * ((((+m[2] << 12) | (+m[3] << 6) | +m[4]) * 2 ** 24) + micros(m[5], fsp, text, what));
  const intPart = Math.floor(packed / 2 ** 24);
  // C's remainder: the sign of the packed value.
  const frac = packed - Math.trunc(packed / 2 ** 24) * 2 ** 24;
  switch (fracBytes(fsp)) {
    case 0: return storeUintBE(intPart + 0x800000, 3);
    case 1: return concat(storeUintBE(intPart + 0x800000, 3), storeUintBE((Math.trunc(frac / 10000) + 256) % 256, 1));
    case 2: return concat(storeUintBE(intPart + 0x800000, 3), storeUintBE((Math.trunc(frac / 100) + 65536) % 65536, 2));
    default: return storeUintBE(packed + 2 ** 47, 6);
  }
}

/** YEAR: 0 for 0000, else years since 1900 (1901-2155). */
export function encodeYear(text: string): Uint8Array {
  if (!/^\d{4}$/.test(text) || (+text !== 0 && (+text < 1901 || +text > 2155))) throw notValue(text, 'YEAR');
  return Uint8Array.of(+text === 0 ? 0 : +text - 1900);
}
