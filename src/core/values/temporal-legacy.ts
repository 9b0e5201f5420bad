/**
 * TIME, DATETIME and TIMESTAMP in the storage formats from before MySQL 5.6. Tables created by
 * MySQL 5.5 (and not rebuilt since), by MariaDB up to 10.0, or by MariaDB with
 * --mysql56-temporal-format=OFF keep them; SHOW CREATE TABLE marks such columns `/* mariadb-5.3 *\/`
 * (MariaDB) or `/* 5.5 binary format *\/` (MySQL with show_old_temporals). The SQL type alone does not
 * tell them from the current formats, and most sizes are the same, so the column must say which.
 *
 * Without fractional seconds (MySQL 5.5's own types, stored by InnoDB as big-endian integers with the
 * sign bit flipped): TIME is ±HHMMSS in 3 bytes, DATETIME is YYYYMMDDHHMMSS in 8 bytes, TIMESTAMP is
 * seconds since the epoch in 4 bytes, the same as today's.
 * With fractional seconds (MariaDB 5.3's "hires" types, big-endian, in units of 10^-fsp seconds):
 * TIME is the signed time plus 838:59:59+1s, DATETIME packs ((((year*13+month)*32+day)*24+hour)*60+
 * minute)*60+second, TIMESTAMP is 4 bytes of seconds and 1-3 bytes of fraction.
 */
import { readUintBE } from './integer.ts';
import { pad, type Render } from './render.ts';
import { formatTimestamp, timestampRenderer } from './temporal.ts';
import { UTC, type TimeZone } from './time-zone.ts';

/** Bytes of MariaDB 5.3's TIME(fsp) and DATETIME(fsp) (time_hires_bytes, datetime_hires_bytes). */
const TIME_HIRES_BYTES = [3, 4, 4, 5, 5, 5, 6];
const DATETIME_HIRES_BYTES = [5, 6, 6, 7, 7, 7, 8];
/** 838:59:59 + 1 second: the zero point of a stored TIME. */
const TIME_ZERO_SECONDS = 3020400;

export function legacyTemporalSize(type: 'time' | 'datetime' | 'timestamp', fsp: number): number {
  if (type === 'time') return TIME_HIRES_BYTES[fsp];
  if (type === 'datetime') return fsp === 0 ? 8 : DATETIME_HIRES_BYTES[fsp];
  return 4 + ((fsp + 1) >> 1);
}

const twoDigits = (n: number) => pad(n, 2);

function fraction(units: number, fsp: number): string {
  return fsp === 0 ? '' : '.' + pad(units, fsp);
}

/** MySQL 5.5 TIME: ±HHMMSS as a 3-byte integer. */
const renderTime55: Render = (b, o) => {
  const v = readUintBE(b, o, 3) - 0x800000;
  const abs = Math.abs(v);
  return `${v < 0 ? '-' : ''}${twoDigits(Math.floor(abs / 10000))}:${twoDigits(Math.floor(abs / 100) % 100)}:${twoDigits(abs % 100)}`;
};

/** MySQL 5.5 DATETIME: YYYYMMDDHHMMSS as an 8-byte integer (below 2^53, so a double holds it). */
export const renderDatetime55: Render = (b, o) => {
  const v = (readUintBE(b, o, 4) - 0x80000000) * 4294967296 + readUintBE(b, o + 4, 4);
  const date = Math.floor(v / 1000000);
  const time = v % 1000000;
  return `${pad(Math.floor(date / 10000), 4)}-${twoDigits(Math.floor(date / 100) % 100)}-${twoDigits(date % 100)} ` +
    `${twoDigits(Math.floor(time / 10000))}:${twoDigits(Math.floor(time / 100) % 100)}:${twoDigits(time % 100)}`;
};

function timeHires(fsp: number): Render {
  const bytes = TIME_HIRES_BYTES[fsp];
  const scale = 10 ** fsp;
  const zero = TIME_ZERO_SECONDS * scale;
  return (b, o) => {
    const v = readUintBE(b, o, bytes) - zero;
    const abs = Math.abs(v);
    const secs = Math.floor(abs / scale);
    return `${v < 0 ? '-' : ''}${twoDigits(Math.floor(secs / 3600))}:${twoDigits(Math.floor(secs / 60) % 60)}:${twoDigits(secs % 60)}${fraction(abs % scale, fsp)}`;
  };
}

function datetimeHires(fsp: number): Render {
  const bytes = DATETIME_HIRES_BYTES[fsp];
  const scale = 10 ** fsp;
  return (b, o) => {
    // 7-8 bytes can pass 2^53: split off the fraction exactly before going on in doubles.
    let secs: number;
    let units: number;
    if (bytes <= 6) {
      const v = readUintBE(b, o, bytes);
      secs = Math.floor(v / scale);
      units = v % scale;
    } else {
      let v = 0n;
      for (let i = 0; i < bytes; i++) v = (v << 8n) | BigInt(b[o + i]);
      secs = Number(v / BigInt(scale));
      units = Number(v % BigInt(scale));
    }
    const days = Math.floor(secs / 86400);
    const ym = Math.floor(days / 32);
    return `${pad(Math.floor(ym / 13), 4)}-${twoDigits(ym % 13)}-${twoDigits(days % 32)} ` +
      `${twoDigits(Math.floor(secs / 3600) % 24)}:${twoDigits(Math.floor(secs / 60) % 60)}:${twoDigits(secs % 60)}${fraction(units, fsp)}`;
  };
}

/** MariaDB 5.3 TIMESTAMP(fsp): the fraction counts 10^-fsp seconds (MySQL 5.6 counts 10^-2k). */
function timestampHires(fsp: number, zone: TimeZone): Render {
  const fracBytes = (fsp + 1) >> 1;
  const toMicros = 10 ** (6 - fsp);
  return (b, o) => formatTimestamp(readUintBE(b, o, 4), readUintBE(b, o + 4, fracBytes) * toMicros, fsp, zone);
}

/** The renderer of a pre-5.6 TIME, DATETIME or TIMESTAMP (shown in `zone`). */
export function legacyTemporalRenderer(type: 'time' | 'datetime' | 'timestamp', fsp: number, zone = UTC): Render {
  if (type === 'timestamp') return fsp === 0 ? timestampRenderer(0, zone) : timestampHires(fsp, zone);
  if (type === 'time') return fsp === 0 ? renderTime55 : timeHires(fsp);
  return fsp === 0 ? renderDatetime55 : datetimeHires(fsp);
}
