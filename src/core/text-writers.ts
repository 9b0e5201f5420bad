/**
 * Byte writers: the fast path from page bytes to the UTF-8 text of a cell, written straight into a
 * BatchBuilder with no intermediate string for the common types (integers, UTF-8 and latin1 text,
 * binary as hex). Every other type goes through its string renderer. Each writer produces exactly the
 * text its renderer would (a unit test holds them to it).
 */
import { charsetInfo, decoderFor } from './charset.ts';
import type { Column } from './schema.ts';
import type { BatchBuilder } from './row-batch.ts';
import { decimalGroup, decimalLayout } from './types/decimal.ts';
import { renderHex, type Render } from './types/render.ts';

export type Write = (b: Uint8Array, o: number, len: number, out: BatchBuilder) => void;

const encoder = new TextEncoder();

const INT_BYTES: Record<string, number> = { tinyint: 1, bool: 1, smallint: 2, mediumint: 3, int: 4, bigint: 8 };
// Not JSON: MySQL stores it in a binary format that its renderer turns into text.
const TEXT_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext']);

export function writerFor(c: Column | null, render: Render): Write {
  if (render === renderHex) return writeHex;
  if (c === null) return fromRender(render);
  const intBytes = INT_BYTES[c.type];
  if (intBytes !== undefined && !c.zerofill && intBytes <= 4) return intWriter(intBytes, c.unsigned);
  if (c.type === 'decimal' && !c.zerofill) return decimalWriter(c.precision, c.scale);
  if (c.type === 'date') return dateWriter(render);
  if (c.type === 'datetime') return datetimeWriter(c.fsp, render);
  if (TEXT_TYPES.has(c.type)) {
    const padded = c.type === 'char';
    if (c.charset === 'utf8mb4' || c.charset === 'utf8mb3') return utf8Writer(padded, render);
    const table = singleByteTable(c.charset);
    if (table !== null) return singleByteWriter(table, padded);
  }
  return fromRender(render);
}

/** Appends a JS string (ASCII fast, else UTF-8 encoded). */
function appendString(out: BatchBuilder, s: string): void {
  out.reserve(s.length * 3);
  const t = out.text;
  let p = out.pos;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch >= 0x80) {
      out.pos += encoder.encodeInto(s, t.subarray(out.pos)).written;
      return;
    }
    t[p++] = ch;
  }
  out.pos = p;
}


function fromRender(render: Render): Write {
  return (b, o, len, out) => appendString(out, render(b, o, len));
}

/**
 * Decimal digits of a non-negative safe integer. The caller has reserved room (16 digits at most):
 * reserving here could move `out.text` under a caller that holds it.
 */
function appendUint(out: BatchBuilder, v: number): void {
  const t = out.text;
  let digits = 1;
  for (let x = v; x >= 10; x = Math.floor(x / 10)) digits++;
  let p = out.pos + digits;
  out.pos = p;
  do {
    const q = Math.floor(v / 10);
    t[--p] = 48 + (v - q * 10);
    v = q;
  } while (v > 0);
}

function intWriter(bytes: number, unsigned: boolean): Write {
  const bias = 2 ** (bytes * 8 - 1);
  return (b, o, _len, out) => {
    let v = 0;
    for (let i = 0; i < bytes; i++) v = v * 256 + b[o + i];
    if (!unsigned) v -= bias;
    out.reserve(12);
    if (v < 0) {
      out.text[out.pos++] = 45; // '-'
      v = -v;
    }
    appendUint(out, v);
  };
}

const HEX_DIGITS = new TextEncoder().encode('0123456789ABCDEF');

const writeHex: Write = (b, o, len, out) => {
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
};

/** CHAR values lose their trailing pad spaces, as the server shows them. */
function trimmedLength(b: Uint8Array, o: number, len: number): number {
  while (len > 0 && b[o + len - 1] === 0x20) len--;
  return len;
}

/**
 * UTF-8 text is already in output form: copied as is when it is plain ASCII; anything else goes
 * through the renderer, so invalid byte sequences become U+FFFD exactly as the string path shows them.
 */
function utf8Writer(padded: boolean, render: Render): Write {
  return (b, o, len, out) => {
    if (padded) len = trimmedLength(b, o, len);
    out.reserve(len);
    // Copy while checking for non-ASCII bytes: one pass for the common case.
    const t = out.text;
    const start = out.pos;
    for (let i = 0; i < len; i++) {
      const c = b[o + i];
      if (c >= 0x80) {
        appendString(out, render(b, o, len));
        return;
      }
      t[start + i] = c;
    }
    out.pos = start + len;
  };
}

const singleByteTables = new Map<string, Uint8Array[]>();

/**
 * For a single-byte charset (latin1 = Windows-1252, cp1250, koi8r, …): the UTF-8 bytes of each of the
 * 256 byte values, taken from the charset's own decoder so both paths agree.
 */
function singleByteTable(charset: string): Uint8Array[] | null {
  const decode = decoderFor(charset);
  if (decode === null || charsetInfo(charset).mbmaxlen !== 1) return null;
  let table = singleByteTables.get(charset);
  if (!table) {
    const one = new Uint8Array(1);
    table = Array.from({ length: 256 }, (_, i) => {
      one[0] = i;
      return encoder.encode(decode(one, 0, 1));
    });
    singleByteTables.set(charset, table);
  }
  return table;
}

function singleByteWriter(table: Uint8Array[], padded: boolean): Write {
  return (b, o, len, out) => {
    if (padded) len = trimmedLength(b, o, len);
    out.reserve(3 * len);
    const t = out.text;
    let p = out.pos;
    for (let i = o; i < o + len; i++) {
      const u = table[b[i]];
      if (u.length === 1) t[p++] = u[0];
      else for (let k = 0; k < u.length; k++) t[p++] = u[k];
    }
    out.pos = p;
  };
}

/**
 * Zero-padded decimal digits of a non-negative integer at p (room reserved); like pad() in
 * types/render.ts, a value wider than `width` keeps all its digits.
 */
function putPadded(t: Uint8Array, p: number, v: number, width: number): number {
  for (let x = Math.floor(v / 10 ** width); x > 0; x = Math.floor(x / 10)) width++;
  for (let i = p + width - 1; i >= p; i--) {
    const q = Math.floor(v / 10);
    t[i] = 48 + (v - q * 10);
    v = q;
  }
  return p + width;
}

/** DECIMAL: the same digit groups as decimalRenderer (types/decimal.ts), written as bytes. */
function decimalWriter(precision: number, scale: number): Write {
  const { intFull, intLead, fracFull, fracDigits, fracTail } = decimalLayout(precision, scale);
  return (b, o, _len, out) => {
    // A damaged value can hold groups above 999,999,999: one more digit per group at most. The
    // reservation is made once, so `t` stays the buffer written to.
    out.reserve(precision + 3 + intFull + fracFull + 20);
    const mask = (b[o] & 0x80) === 0 ? 0xff : 0;
    const t = out.text;
    if (mask) t[out.pos++] = 45; // '-'
    let p = o;
    let started = false;
    if (intLead > 0) {
      const v = decimalGroup(b, p, intLead, mask, o);
      p += intLead;
      if (v !== 0) {
        appendUint(out, v);
        started = true;
      }
    }
    for (let i = 0; i < intFull; i++, p += 4) {
      const v = decimalGroup(b, p, 4, mask, o);
      if (started) out.pos = putPadded(t, out.pos, v, 9);
      else if (v !== 0) {
        appendUint(out, v);
        started = true;
      }
    }
    if (!started) t[out.pos++] = 48;
    if (scale === 0) return;
    t[out.pos++] = 46; // '.'
    for (let i = 0; i < fracFull; i++, p += 4) out.pos = putPadded(t, out.pos, decimalGroup(b, p, 4, mask, o), 9);
    if (fracTail > 0) out.pos = putPadded(t, out.pos, decimalGroup(b, p, fracTail, mask, o), fracDigits);
  };
}

/** DATE: 3 bytes, sign bit flipped, day in bits 0-4, month 5-8, year above (see renderDate). */
function dateWriter(render: Render): Write {
  return (b, o, len, out) => {
    const v = ((b[o] << 16) | (b[o + 1] << 8) | b[o + 2]) ^ 0x800000;
    const year = v >> 9;
    if (year > 9999) return appendString(out, render(b, o, len));
    out.reserve(10);
    putDate(out, year, (v >> 5) & 15, v & 31);
  };
}

function putDate(out: BatchBuilder, year: number, month: number, day: number): void {
  const t = out.text;
  let p = putPadded(t, out.pos, year, 4);
  t[p++] = 45;
  p = putPadded(t, p, month, 2);
  t[p++] = 45;
  out.pos = putPadded(t, p, day, 2);
}

/** DATETIME(fsp), MySQL 5.6+ format (see datetimeRenderer); unusual values go through the renderer. */
function datetimeWriter(fsp: number, render: Render): Write {
  const fracBytes = (fsp + 1) >> 1;
  return (b, o, len, out) => {
    // Other lengths are older storage formats: the renderer knows them.
    if (len !== 5 + fracBytes) return appendString(out, render(b, o, len));
    let v = 0;
    for (let i = 0; i < 5; i++) v = v * 256 + b[o + i];
    v -= 0x8000000000;
    let micros = 0;
    for (let i = 0; i < fracBytes; i++) micros = micros * 256 + b[o + 5 + i];
    micros *= fracBytes === 1 ? 10000 : fracBytes === 2 ? 100 : 1;
    const ymdPart = Math.floor(v / 131072);
    const ym = ymdPart >> 5;
    if (v < 0 || micros > 999999 || ym / 13 > 9999) return appendString(out, render(b, o, len));
    const hmsPart = v % 131072;
    out.reserve(26);
    putDate(out, Math.floor(ym / 13), ym % 13, ymdPart & 31);
    const t = out.text;
    let p = out.pos;
    t[p++] = 32;
    p = putPadded(t, p, hmsPart >> 12, 2);
    t[p++] = 58;
    p = putPadded(t, p, (hmsPart >> 6) & 63, 2);
    t[p++] = 58;
    p = putPadded(t, p, hmsPart & 63, 2);
    if (fsp > 0) {
      t[p++] = 46;
      // The first fsp digits of the 6-digit microseconds, as the renderer's pad(micros, 6).slice(0, fsp).
      p = putPadded(t, p, Math.floor(micros / 10 ** (6 - fsp)), fsp);
    }
    out.pos = p;
  };
}
