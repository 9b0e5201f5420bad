/**
 * Byte writers: the fast path from page bytes to the UTF-8 text of a cell, written straight into a
 * BatchBuilder with no intermediate string for the common types (integers, UTF-8 and latin1 text,
 * binary as hex). Every other type goes through its string renderer. Each writer produces exactly the
 * text its renderer would (a unit test holds them to it).
 */
import { charsetInfo, decoderFor } from './charset.ts';
import type { Column } from './schema.ts';
import { QUOTE_NEVER, QUOTE_REPORTED, QUOTE_SCAN, type BatchBuilder } from './row-batch.ts';
import { decimalLayout } from './types/decimal.ts';
import { renderHex, type Render } from './types/render.ts';

export type Write = (b: Uint8Array, o: number, len: number, out: BatchBuilder) => void;

/**
 * The writers whose text never needs quotes in CSV (QUOTE_NEVER: digits, a sign and a point, or 0x
 * and hex digits), and those that set BatchBuilder.special when a value holds a byte that may call
 * for them (QUOTE_REPORTED); any other writer's values are scanned.
 */
const quoteChecks = new WeakMap<Write, number>();

function withQuoteCheck(w: Write, check: number): Write {
  quoteChecks.set(w, check);
  return w;
}

const quoteFree = (w: Write): Write => withQuoteCheck(w, QUOTE_NEVER);

/** How a separated BatchBuilder learns whether this writer's values may need quotes (its quoteChecks). */
export function quoteCheckOf(w: Write): number {
  return quoteChecks.get(w) ?? QUOTE_SCAN;
}

/** Per byte: 1 for those that may call for quotes in CSV (0xEF starts a byte-order mark), 2 from 0x80 up. */
const BYTE_CLASS = new Uint8Array(256);
BYTE_CLASS.fill(2, 0x80);
for (const b of [44, 34, 10, 13]) BYTE_CLASS[b] = 1;

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

/** '00' … '99': two digits per lookup. */
const PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  PAIRS[2 * i] = 48 + Math.floor(i / 10);
  PAIRS[2 * i + 1] = 48 + (i % 10);
}

/** How many decimal digits a non-negative safe integer has. */
function digitCount(v: number): number {
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
 * Decimal digits of a non-negative safe integer at p; returns the position after them. The caller
 * has reserved room (16 digits at most): reserving here could move `out.text` under a caller that holds it.
 */
function putUint(t: Uint8Array, p: number, v: number): number {
  if (v < 10) {
    t[p] = 48 + v;
    return p + 1;
  }
  const n = digitCount(v);
  putDigits(t, p + n, v, n);
  return p + n;
}

function intWriter(bytes: number, unsigned: boolean): Write {
  // Big-endian, the sign bit flipped for signed types: read as int32 arithmetic.
  const flip = unsigned ? 0 : 0x80;
  const bias = unsigned ? 0 : 2 ** (bytes * 8 - 1);
  if (bytes === 4) {
    return quoteFree((b, o, _len, out) => {
      out.reserve(12);
      const t = out.text;
      let p = out.pos;
      let v = unsigned
        ? ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0
        : ((b[o] ^ flip) << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3];
      if (v < 0) {
        t[p++] = 45; // '-'
        v = -v;
      }
      out.pos = putUint(t, p, v);
    });
  }
  return quoteFree((b, o, _len, out) => {
    let v = 0;
    for (let i = 0; i < bytes; i++) v = (v << 8) | b[o + i];
    v -= bias;
    out.reserve(12);
    const t = out.text;
    let p = out.pos;
    if (v < 0) {
      t[p++] = 45; // '-'
      v = -v;
    }
    out.pos = putUint(t, p, v);
  });
}

const HEX_DIGITS = new TextEncoder().encode('0123456789ABCDEF');

const writeHex: Write = quoteFree((b, o, len, out) => {
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
});

/** CHAR values lose their trailing pad spaces, as the server shows them. */
function trimmedLength(b: Uint8Array, o: number, len: number): number {
  while (len > 0 && b[o + len - 1] === 0x20) len--;
  return len;
}

/**
 * Values at least this long are checked 4 bytes at a time and copied with TypedArray.set (memcpy);
 * shorter ones byte by byte, which costs less than making the subarray that set() needs.
 */
const LONG = 64;

let viewed: Uint8Array | null = null;
let view: DataView = new DataView(new ArrayBuffer(0));

/** A DataView of `b` (kept for the next call: writers are called many times over one page). */
function dataView(b: Uint8Array): DataView {
  if (b !== viewed) {
    view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    viewed = b;
  }
  return view;
}

/** Whether b[o, o + len) is plain ASCII: four bytes per step, then the tail. */
function isAscii(b: Uint8Array, o: number, len: number): boolean {
  const end = o + len;
  let i = o;
  const v = dataView(b);
  for (; i + 4 <= end; i += 4) if ((v.getInt32(i, true) & 0x80808080) !== 0) return false;
  for (; i < end; i++) if (b[i] >= 0x80) return false;
  return true;
}

/**
 * Whether b[i, end) is well-formed UTF-8 (Unicode table 3-7: no overlong forms, no surrogates, nothing
 * above U+10FFFF), exactly the input TextDecoder passes through unchanged: its decoded text encodes
 * back to the same bytes.
 */
function wellFormedUtf8(b: Uint8Array, i: number, end: number): boolean {
  while (i < end) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f;
    } else return false;
    if (i + n >= end) return false; // cut short
    const c1 = b[i + 1];
    if (c1 < lo || c1 > hi) return false;
    for (let k = 2; k <= n; k++) {
      const ck = b[i + k];
      if (ck < 0x80 || ck > 0xbf) return false;
    }
    i += n + 1;
  }
  return true;
}

/**
 * UTF-8 text is already in output form: copied as is when it is well-formed (checked here, ASCII
 * fastest); anything else goes through the renderer, so invalid byte sequences become U+FFFD exactly
 * as the string path shows them.
 */
function utf8Writer(padded: boolean, render: Render): Write {
  const write: Write = (b, o, len, out) => {
    if (padded) len = trimmedLength(b, o, len);
    out.reserve(len);
    const t = out.text;
    const start = out.pos;
    if (len >= LONG) {
      // Long values are not looked at byte by byte here: csvBytes() will.
      out.special = true;
      if (!isAscii(b, o, len) && !wellFormedUtf8(b, o, o + len)) {
        appendString(out, render(b, o, len));
        return;
      }
      t.set(b.subarray(o, o + len), start);
      out.pos = start + len;
      return;
    }
    // Copy while looking for bytes that call for quotes or are not ASCII: one pass for the common case.
    for (let i = 0; i < len; i++) {
      const c = b[o + i];
      const k = BYTE_CLASS[c];
      if (k !== 0) {
        out.special = true;
        if (k === 2) {
          if (!wellFormedUtf8(b, o + i, o + len)) {
            appendString(out, render(b, o, len));
            return;
          }
          for (; i < len; i++) t[start + i] = b[o + i];
          break;
        }
      }
      t[start + i] = c;
    }
    out.pos = start + len;
  };
  return withQuoteCheck(write, QUOTE_REPORTED);
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
  const n = v < 10 ? Math.max(1, width) : Math.max(digitCount(v), width);
  putDigits(t, p + n, v, n);
  return p + n;
}

/** One digit group of n (1-4) bytes at p, every byte xor `mask` (0 or 0xff: negative values are inverted). */
function group(b: Uint8Array, p: number, n: number, mask: number): number {
  let v = (b[p] ^ mask) & 0xff;
  for (let i = 1; i < n; i++) v = (v << 8) | ((b[p + i] ^ mask) & 0xff);
  return v >>> 0;
}

/** DECIMAL: the same digit groups as decimalRenderer (types/decimal.ts), written as bytes. */
function decimalWriter(precision: number, scale: number): Write {
  const { intFull, intLead, fracFull, fracDigits, fracTail } = decimalLayout(precision, scale);
  // A damaged value can hold groups above 999,999,999: one more digit per group at most. The
  // reservation is made once, so `t` stays the buffer written to.
  const room = precision + 3 + intFull + fracFull + 20;
  // The first group holds the field's first byte, whose top bit is flipped: as a value, this bit.
  const firstN = intLead > 0 ? intLead : intFull > 0 ? 4 : fracFull > 0 ? 4 : fracTail;
  const firstBit = firstN === 0 ? 0 : 2 ** (8 * firstN - 1);
  return quoteFree((b, o, _len, out) => {
    out.reserve(room);
    const mask = (b[o] & 0x80) === 0 ? 0xff : 0;
    const t = out.text;
    let q = out.pos;
    if (mask) t[q++] = 45; // '-'
    let p = o;
    let flip = firstBit;
    let started = false;
    if (intLead > 0) {
      const v = (group(b, p, intLead, mask) ^ flip) >>> 0;
      flip = 0;
      p += intLead;
      if (v !== 0) {
        q = putUint(t, q, v);
        started = true;
      }
    }
    for (let i = 0; i < intFull; i++, p += 4) {
      const v = (group(b, p, 4, mask) ^ flip) >>> 0;
      flip = 0;
      if (started) q = putPadded(t, q, v, 9);
      else if (v !== 0) {
        q = putUint(t, q, v);
        started = true;
      }
    }
    if (!started) t[q++] = 48;
    if (scale === 0) {
      out.pos = q;
      return;
    }
    t[q++] = 46; // '.'
    for (let i = 0; i < fracFull; i++, p += 4) {
      q = putPadded(t, q, (group(b, p, 4, mask) ^ flip) >>> 0, 9);
      flip = 0;
    }
    if (fracTail > 0) q = putPadded(t, q, (group(b, p, fracTail, mask) ^ flip) >>> 0, fracDigits);
    out.pos = q;
  });
}

/** DATE: 3 bytes, sign bit flipped, day in bits 0-4, month 5-8, year above (see renderDate). */
function dateWriter(render: Render): Write {
  return (b, o, len, out) => {
    const v = ((b[o] << 16) | (b[o + 1] << 8) | b[o + 2]) ^ 0x800000;
    const year = v >> 9;
    if (year > 9999) return appendString(out, render(b, o, len));
    out.reserve(10);
    out.pos = putDate(out.text, out.pos, year, (v >> 5) & 15, v & 31);
  };
}

/** YYYY-MM-DD at p for a year of 0..9999 (month and day below 100); returns the position after it. */
function putDate(t: Uint8Array, p: number, year: number, month: number, day: number): number {
  const hi = 2 * ((year / 100) >>> 0);
  const lo = 2 * (year % 100);
  t[p] = PAIRS[hi];
  t[p + 1] = PAIRS[hi + 1];
  t[p + 2] = PAIRS[lo];
  t[p + 3] = PAIRS[lo + 1];
  t[p + 4] = 45;
  t[p + 5] = PAIRS[2 * month];
  t[p + 6] = PAIRS[2 * month + 1];
  t[p + 7] = 45;
  t[p + 8] = PAIRS[2 * day];
  t[p + 9] = PAIRS[2 * day + 1];
  return p + 10;
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
    const t = out.text;
    let p = putDate(t, out.pos, Math.floor(ym / 13), ym % 13, ymdPart & 31);
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
