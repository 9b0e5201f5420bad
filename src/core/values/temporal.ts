/**
 * DATE, DATETIME(fsp) and TIMESTAMP(fsp) in the MySQL 5.6+ storage formats (my_time.cc:
 * my_datetime_packed_from_binary, my_timestamp_from_binary), rendered as the server prints them.
 * TIMESTAMP is seconds since the epoch, shown in UTC or in the zone asked for (time-zone.ts).
 */
import { readUintBE } from './integer.ts';
import { pad, type Render } from './render.ts';
import { UTC } from './time-zone.ts';

/** Bytes of the fractional-seconds part for a given fsp. */
export function fracBytes(fsp: number): number {
  return (fsp + 1) >> 1;
}

/** Microseconds from the stored fraction (1, 2 or 3 bytes for fsp 1-2, 3-4, 5-6). */
function readMicros(b: Uint8Array, o: number, fsp: number): number {
  switch (fracBytes(fsp)) {
    case 1: return b[o] * 10000;
    case 2: return readUintBE(b, o, 2) * 100;
    case 3: return readUintBE(b, o, 3);
    default: return 0;
  }
}

function fraction(micros: number, fsp: number): string {
  return fsp === 0 ? '' : '.' + pad(micros, 6).slice(0, fsp);
}

function ymd(year: number, month: number, day: number): string {
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

function hms(hour: number, minute: number, second: number): string {
  return `${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}`;
}

/** DATE: 3 bytes, sign bit flipped, day in bits 0-4, month 5-8, year above. */
export const renderDate: Render = (b, o) => {
  const v = readUintBE(b, o, 3) ^ 0x800000;
  return ymd(v >> 9, (v >> 5) & 15, v & 31);
};

export function datetimeRenderer(fsp: number): Render {
  return (b, o) => {
    // 40 bits, offset by 2^39: 17 bits year*13+month, 5 day, 5 hour, 6 minute, 6 second.
    const v = readUintBE(b, o, 5) - 0x8000000000;
    const ymdPart = Math.floor(v / 131072);
    const hmsPart = v % 131072;
    const ym = ymdPart >> 5;
    return `${ymd(Math.floor(ym / 13), ym % 13, ymdPart & 31)} ${hms(hmsPart >> 12, (hmsPart >> 6) & 63, hmsPart & 63)}${fraction(readMicros(b, o + 5, fsp), fsp)}`;
  };
}

/** Days since 1970-01-01 to a civil date (proleptic Gregorian), without allocating a Date. */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

export function timestampRenderer(fsp: number, zone = UTC): Render {
  return (b, o) => formatTimestamp(readUintBE(b, o, 4), readMicros(b, o + 4, fsp), fsp, zone);
}

/** Seconds since the epoch (UTC) and microseconds as the server prints them in `zone`; 0 is the zero date. */
export function formatTimestamp(utc: number, micros: number, fsp: number, zone = UTC): string {
  if (utc === 0 && micros === 0) return `0000-00-00 00:00:00${fraction(0, fsp)}`;
  const secs = utc + zone.offsetAt(utc);
  const days = Math.floor(secs / 86400);
  const rem = secs - days * 86400;
  const [y, m, d] = civilFromDays(days);
  return `${ymd(y, m, d)} ${hms(Math.floor(rem / 3600), Math.floor(rem / 60) % 60, rem % 60)}${fraction(micros, fsp)}`;
}

/** TIME(fsp) (my_time_packed_from_binary): 3 bytes offset by 2^23, then the fraction (see fracTime). */
export function timeRenderer(fsp: number): Render {
  return (b, o) => {
    let packed: number;
    const intPart = readUintBE(b, o, 3) - 0x800000;
    switch (fracBytes(fsp)) {
      case 0: packed = intPart * 0x1000000; break;
      case 1: packed = fracTime(intPart, b[o + 3], 0x100, 10000); break;
      case 2: packed = fracTime(intPart, (b[o + 3] << 8) | b[o + 4], 0x10000, 100); break;
      default: packed = readUintBE(b, o, 6) - 0x800000000000;
    }
    const negative = packed < 0;
    const abs = Math.abs(packed);
    const hmsPart = Math.floor(abs / 0x1000000);
    const micros = abs % 0x1000000;
    const hour = Math.floor(hmsPart / 4096) % 1024;
    return `${negative ? '-' : ''}${hms(hour, (hmsPart >> 6) & 63, hmsPart & 63)}${fraction(micros, fsp)}`;
  };
}

/**
 * The 1-2 byte fraction is stored as (fraction - 1 s) for negative times, i.e. unsigned and borrowed
 * from the integer part: -00:00:01.25 is stored as integer -2 and fraction 0.75.
 */
function fracTime(intPart: number, frac: number, range: number, scale: number): number {
  if (intPart < 0 && frac !== 0) {
    intPart++;
    frac -= range;
  }
  return intPart * 0x1000000 + frac * scale;
}

/** YEAR: one byte, 0 for the zero year, else years since 1900. */
export const renderYear: Render = (b, o) => (b[o] === 0 ? '0000' : String(1900 + b[o]));

/** YEAR(2) (MySQL before 5.7.5): the same byte, shown as two digits. */
export const renderYear2: Render = (b, o) => pad(b[o] === 0 ? 0 : (1900 + b[o]) % 100, 2);
