/**
 * Value checks (value-check.ts) of the temporal types, in the formats temporal.ts and
 * temporal-legacy.ts read. A stored value is valid when every field is in its range (zero dates and
 * zero parts are valid: MariaDB stores them), the sign bit every such value has is there, and the
 * fraction counts fewer units than its bytes allow at the column's precision, with the unused last
 * digit of an odd fsp zero (fsp 1 is stored as hundredths, so 0.3 s is 30).
 */
import { readUintBE } from './integer.ts';
import { fracBytes } from './temporal.ts';
import { legacyTemporalSize } from './temporal-legacy.ts';
import type { ValueCheck } from './inline-check.ts';

const MAX_YEAR = 9999;
/** TIME's range: ±838:59:59 (MariaDB also allows a fraction at the ends). */
const MAX_TIME_HOUR = 838;

const wrongLength = (len: number, want: number): string => `${len} bytes, not ${want}`;

/**
 * Why a stored fraction is not one of fsp digits: `units` of 10^-(2 × bytes) s (1-3 bytes for fsp
 * 1-6, my_time.cc), or null.
 */
function fractionProblem(units: number, fsp: number): string | null {
  const limit = fsp <= 2 ? 100 : fsp <= 4 ? 10000 : 1000000;
  if (units >= limit) return `fraction ${units} ≥ ${limit}`;
  if (fsp & 1 && units % 10 !== 0) return `fraction ${units} has a digit beyond fsp ${fsp}`;
  return null;
}

/** A DATE's 3 bytes with the sign bit flipped back: day in bits 0-4, month 5-8, year above (temporal.ts renderDate). */
const dateBits = (b: Uint8Array, o: number): number => ((b[o] << 16) | (b[o + 1] << 8) | b[o + 2]) ^ 0x800000;

/** Whether the 3 bytes at o are a valid DATE: year ≤ 9999 (which a clear sign bit exceeds), month ≤ 12. */
export function dateInRange(b: Uint8Array, o: number): boolean {
  const v = dateBits(b, o);
  return v >> 9 <= MAX_YEAR && ((v >> 5) & 15) <= 12;
}

export const checkDate: ValueCheck = (b, o, len) => {
  if (len !== 3) return wrongLength(len, 3);
  if (dateInRange(b, o)) return null;
  const v = dateBits(b, o);
  return v >> 9 > MAX_YEAR ? `year ${v >> 9}` : `month ${(v >> 5) & 15}`;
};

/** Hour, minute and second fields of a DATETIME's time of day. */
function timeOfDayProblem(hour: number, minute: number, second: number): string | null {
  if (hour > 23) return `hour ${hour}`;
  if (minute > 59) return `minute ${minute}`;
  return second > 59 ? `second ${second}` : null;
}

/**
 * DATETIME(fsp), MySQL 5.6+: 40 bits offset by 2^39 (so the top bit is set), year*13+month in 17
 * bits, then day 5, hour 5, minute 6, second 6; then the fraction.
 */
export function datetimeCheck(fsp: number): ValueCheck {
  const size = 5 + fracBytes(fsp);
  return (b, o, len) => {
    if (len !== size) return wrongLength(len, size);
    const hi = readUintBE(b, o, 3);
    const lo = (b[o + 3] << 8) | b[o + 4];
    if ((hi & 0x800000) === 0) return 'sign bit clear';
    const year = Math.floor(((hi >> 6) & 0x1ffff) / 13);
    if (year > MAX_YEAR) return `year ${year}`;
    const problem = timeOfDayProblem(((hi & 1) << 4) | (lo >> 12), (lo >> 6) & 63, lo & 63);
    if (problem !== null || fsp === 0) return problem;
    return fractionProblem(readUintBE(b, o + 5, size - 5), fsp);
  };
}

/** DATETIME (fsp 0) in a REDUNDANT record: 8 bytes are MySQL 5.5's format, as the renderer reads. */
export function redundantDatetimeCheck(): ValueCheck {
  const current = datetimeCheck(0);
  return (b, o, len) => (len === 8 ? checkDatetime55(b, o, len) : current(b, o, len));
}

/**
 * TIMESTAMP(fsp), fsp > 0: any 4-byte count of seconds (MariaDB 11.5+ runs to 2106), so only the
 * fraction is checked.
 */
export function timestampCheck(fsp: number): ValueCheck {
  const size = 4 + fracBytes(fsp);
  return (b, o, len) => (len !== size ? wrongLength(len, size) : fractionProblem(readUintBE(b, o + 4, size - 4), fsp));
}

/** |hour:minute:second| of a TIME packed as hour << 12 | minute << 6 | second. */
function timeFieldsProblem(hms: number): string | null {
  const hour = Math.floor(hms / 4096);
  if (hour > MAX_TIME_HOUR) return `hour ${hour}`;
  const minute = (hms >> 6) & 63;
  if (minute > 59) return `minute ${minute}`;
  return (hms & 63) > 59 ? `second ${hms & 63}` : null;
}

/**
 * TIME(fsp), MySQL 5.6+ (temporal.ts timeRenderer): 3 bytes of ±hms offset by 2^23, then the
 * fraction; a negative time with a 1-2 byte fraction stores it as (1 s − fraction), borrowed from
 * the integer part, so its fraction reads as 2^8 or 2^16 less the units.
 */
export function timeCheck(fsp: number): ValueCheck {
  const frac = fracBytes(fsp);
  const size = 3 + frac;
  return (b, o, len) => {
    if (len !== size) return wrongLength(len, size);
    const intPart = readUintBE(b, o, 3) - 0x800000;
    if (frac === 3) {
      // 48 bits: the packed value hms * 2^24 + microseconds, negated as a whole for negative times.
      const packed = Math.abs(intPart * 0x1000000 + readUintBE(b, o + 3, 3));
      return timeFieldsProblem(Math.floor(packed / 0x1000000)) ?? fractionProblem(packed % 0x1000000, fsp);
    }
    let units = frac === 0 ? 0 : readUintBE(b, o + 3, frac);
    let hms = intPart;
    if (intPart < 0 && units !== 0) {
      hms++;
      units = 2 ** (8 * frac) - units;
    }
    return timeFieldsProblem(Math.abs(hms)) ?? (frac === 0 ? null : fractionProblem(units, fsp));
  };
}

/** MySQL 5.5 DATETIME: YYYYMMDDHHMMSS as an 8-byte integer with the sign bit flipped. */
const checkDatetime55: ValueCheck = (b, o, len) => {
  if (len !== 8) return wrongLength(len, 8);
  const hi = readUintBE(b, o, 4) - 0x80000000;
  if (hi < 0) return 'sign bit clear';
  // 9999-12-31 23:59:59 is below 2^47: a larger top word is out of range, and the rest is exact.
  if (hi >= 0x8000) return `year ${Math.floor((hi * 4294967296) / 1e10)}`;
  const v = hi * 4294967296 + readUintBE(b, o + 4, 4);
  const date = Math.floor(v / 1000000);
  const time = v % 1000000;
  const year = Math.floor(date / 10000);
  const month = Math.floor(date / 100) % 100;
  if (year > MAX_YEAR) return `year ${year}`;
  if (month > 12) return `month ${month}`;
  if (date % 100 > 31) return `day ${date % 100}`;
  return timeOfDayProblem(Math.floor(time / 10000), Math.floor(time / 100) % 100, time % 100);
};

/** MySQL 5.5 TIME: ±HHMMSS as a 3-byte integer offset by 2^23. */
const checkTime55: ValueCheck = (b, o, len) => {
  if (len !== 3) return wrongLength(len, 3);
  const v = Math.abs(readUintBE(b, o, 3) - 0x800000);
  const hour = Math.floor(v / 10000);
  if (hour > MAX_TIME_HOUR) return `hour ${hour}`;
  if (Math.floor(v / 100) % 100 > 59) return `minute ${Math.floor(v / 100) % 100}`;
  return v % 100 > 59 ? `second ${v % 100}` : null;
};

/** 838:59:59 + 1 s, the zero point of MariaDB 5.3's TIME(fsp). */
const TIME_ZERO_SECONDS = 3020400;

/** MariaDB 5.3 TIME(fsp): units of 10^-fsp s offset by TIME_ZERO_SECONDS, so strictly inside (0, 2 × zero). */
function timeHiresCheck(fsp: number): ValueCheck {
  const size = legacyTemporalSize('time', fsp);
  const zero = TIME_ZERO_SECONDS * 10 ** fsp;
  return (b, o, len) => {
    if (len !== size) return wrongLength(len, size);
    const v = readUintBE(b, o, size);
    return v > 0 && v < 2 * zero ? null : `hour ${Math.floor(Math.abs(v - zero) / 10 ** fsp / 3600)}`;
  };
}

/**
 * MariaDB 5.3 DATETIME(fsp): ((((year*13+month)*32+day)*24+hour)*60+minute)*60+second in units of
 * 10^-fsp s. Every field but the year is a remainder, so only the year can be out of range: the
 * value must be below the first instant of year 10000, compared exactly in two parts (7-8 bytes
 * pass 2^53).
 */
function datetimeHiresCheck(fsp: number): ValueCheck {
  const size = legacyTemporalSize('datetime', fsp);
  const limit = BigInt((MAX_YEAR + 1) * 13 * 32 * 86400) * 10n ** BigInt(fsp);
  const limitHi = Number(limit >> 24n);
  const limitLo = Number(limit & 0xffffffn);
  return (b, o, len) => {
    if (len !== size) return wrongLength(len, size);
    const hi = readUintBE(b, o, size - 3);
    const lo = readUintBE(b, o + size - 3, 3);
    if (hi < limitHi || (hi === limitHi && lo < limitLo)) return null;
    return `year ${Math.floor((hi * 0x1000000 + lo) / (13 * 32 * 86400 * 10 ** fsp))}`;
  };
}

/** MariaDB 5.3 TIMESTAMP(fsp): 4 bytes of seconds, then the fraction in units of 10^-fsp s. */
function timestampHiresCheck(fsp: number): ValueCheck {
  const size = legacyTemporalSize('timestamp', fsp);
  const limit = 10 ** fsp;
  return (b, o, len) => {
    if (len !== size) return wrongLength(len, size);
    const units = readUintBE(b, o + 4, size - 4);
    return units < limit ? null : `fraction ${units} ≥ ${limit}`;
  };
}

/**
 * The check of a TIME/DATETIME/TIMESTAMP column in the pre-5.6 formats (temporal-legacy.ts); null
 * for TIMESTAMP(0), whose every 4 bytes are valid.
 */
export function legacyTemporalCheck(type: 'time' | 'datetime' | 'timestamp', fsp: number): ValueCheck | null {
  if (type === 'timestamp') return fsp === 0 ? null : timestampHiresCheck(fsp);
  if (type === 'time') return fsp === 0 ? checkTime55 : timeHiresCheck(fsp);
  return fsp === 0 ? checkDatetime55 : datetimeHiresCheck(fsp);
}
