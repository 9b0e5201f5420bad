/**
 * Byte writers: the fast path from page bytes to the UTF-8 text of a cell, written straight into a
 * BatchBuilder with no intermediate string for the common types (integers, UTF-8 and latin1 text,
 * binary as hex). Every other type goes through its string renderer. Each writer produces exactly the
 * text its renderer would (a unit test holds them to it).
 */
import { charsetInfo, decoderFor } from './charset.ts';
import type { Column } from '../schema.ts';
import { QUOTE_NEVER, QUOTE_REPORTED, QUOTE_SCAN, type BatchBuilder } from './row-batch.ts';
import { decimalLayout } from './decimal.ts';
import { renderHex, type Render } from './render.ts';

export type Write = (b: Uint8Array, o: number, len: number, out: BatchBuilder) => void;

/**
 * Kinds of value that record.ts's line writer puts down itself, through the put* function here that
 * the kind's Write calls too: FAST_NONE for every other writer, which it calls as a Write.
 */
const FAST_NONE = 0;
export const FAST_INT = 1;
export const FAST_DECIMAL = 2;
export const FAST_DATE = 3;
/** UTF-8 CHAR (pad spaces trimmed) and VARCHAR/TEXT. */
export const FAST_CHAR = 4;
export const FAST_VARCHAR = 5;

/** A writer's fast kind with what its put* function needs. */
export interface FastWrite {
  kind: number;
  /** FAST_INT: its size and signedness. */
  bytes: number;
  unsigned: boolean;
  decimal: DecimalPlan | null;
}

const fastKind = (kind: number, extra: Partial<FastWrite> = {}): FastWrite => ({ kind, bytes: 0, unsigned: false, decimal: null, ...extra });
const NOT_FAST = fastKind(FAST_NONE);

/**
 * What is known of a writer beyond its function: how a separated BatchBuilder tells whether its
 * values need quotes in CSV (QUOTE_NEVER: digits, a sign and a point, or 0x and hex digits;
 * QUOTE_REPORTED: it sets BatchBuilder.special when a value holds a byte that may call for them;
 * QUOTE_SCAN, any other: its values are looked at), and its fast kind.
 */
const traits = new WeakMap<Write, { quoteCheck: number; fast: FastWrite }>();

function described(w: Write, quoteCheck: number, fast = NOT_FAST): Write {
  traits.set(w, { quoteCheck, fast });
  return w;
}

/** How record.ts's line writer can put down this writer's values itself (FAST_NONE: it cannot). */
export function fastWriteOf(w: Write): FastWrite {
  return traits.get(w)?.fast ?? NOT_FAST;
}

/** How a separated BatchBuilder learns whether this writer's values may need quotes (its quoteChecks). */
export function quoteCheckOf(w: Write): number {
  return traits.get(w)?.quoteCheck ?? QUOTE_SCAN;
}

const QUOTE = 34;

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
 * '0000' … '9999' as little-endian 32-bit words: four ASCII digits put down with one store, which
 * costs about what one byte's store does.
 */
const DIGITS4 = new Int32Array(10000);
for (let i = 0; i < 10000; i++) {
  const d = [Math.floor(i / 1000), Math.floor(i / 100) % 10, Math.floor(i / 10) % 10, i % 10];
  DIGITS4[i] = (48 + d[0]) | ((48 + d[1]) << 8) | ((48 + d[2]) << 16) | ((48 + d[3]) << 24);
}

/**
 * A function giving a DataView of its argument, keeping the last one: the writers are called many
 * times over one page, and into one text buffer until a builder grows it.
 */
function viewKeeper(): (b: Uint8Array) => DataView {
  let viewed: Uint8Array | null = null;
  let view: DataView = new DataView(new ArrayBuffer(0));
  return (b) => {
    if (b !== viewed) {
      view = new DataView(b.buffer, b.byteOffset, b.byteLength);
      viewed = b;
    }
    return view;
  };
}

/** Views of the bytes read (pages) and of the text being written. */
const dataView = viewKeeper();
const textView = viewKeeper();

/**
 * The text writers below put digits down four at a time and may leave up to 3 bytes of scratch just
 * past the position they return (written over by what comes next): their callers reserve room for it.
 */
const SCRATCH = 3;

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
  let v: number;
  if (bytes === 4) {
    v = unsigned
      ? ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0
      : ((b[o] ^ 0x80) << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3];
  } else {
    v = 0;
    for (let i = 0; i < bytes; i++) v = (v << 8) | b[o + i];
    if (!unsigned) v -= 2 ** (bytes * 8 - 1);
  }
  if (v < 0) {
    t[p++] = 45; // '-'
    v = -v;
  }
  return putUint(t, p, v);
}

function intWriter(bytes: number, unsigned: boolean): Write {
  const write: Write = (b, o, _len, out) => {
    out.reserve(11 + SCRATCH);
    out.pos = putInt(out.text, out.pos, b, o, bytes, unsigned);
  };
  return described(write, QUOTE_NEVER, fastKind(FAST_INT, { bytes, unsigned }));
}

const HEX_DIGITS = new TextEncoder().encode('0123456789ABCDEF');

const writeHex: Write = described((b, o, len, out) => {
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

/** CHAR values lose their trailing pad spaces, as the server shows them. */
function trimmedLength(b: Uint8Array, o: number, len: number): number {
  const view = dataView(b);
  while (len >= 4 && view.getInt32(o + len - 4) === 0x20202020) len -= 4;
  while (len > 0 && b[o + len - 1] === 0x20) len--;
  return len;
}

/**
 * UTF-8 values at least this long are copied with TypedArray.set (memcpy); shorter ones four bytes a
 * step, which costs less than making the subarray that set() needs.
 */
const LONG = 64;

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
 * What putUtf8() saw in the value it copied: a byte that may call for quotes in CSV (`special`, see
 * BatchBuilder.special), and among those a quote itself (which CSV doubles).
 */
export const utf8Copy = { special: false, quote: false };

/**
 * UTF-8 text at o is already in output form: copied to p as is (CHAR's pad spaces trimmed) when it
 * is well-formed (checked here, ASCII fastest), saying in utf8Copy whether a byte may call for quotes
 * and whether one is a quote. Returns the position after it, or -1 when it is not well-formed: the caller then goes
 * through the renderer, so invalid byte sequences become U+FFFD exactly as the string path shows
 * them. Room for `len` bytes must have been reserved.
 */
export function putUtf8(t: Uint8Array, p: number, b: Uint8Array, o: number, len: number, padded: boolean): number {
  if (padded) len = trimmedLength(b, o, len);
  // Looked at four bytes a step for quotes and other bytes that call for quotes (their words' top
  // bits gathered in `dq` and `quotes`) and bytes that are not ASCII (top bits in `high`); copied
  // along the way, or with one TypedArray.set (memcpy) when long.
  const long = len >= LONG;
  const from = dataView(b);
  const to = textView(t);
  let dq = 0;
  let quotes = 0;
  let high = 0;
  let i = 0;
  for (; i + 4 <= len; i += 4) {
    const w = from.getInt32(o + i, true);
    if (!long) to.setInt32(p + i, w, true);
    high |= w;
    dq |= zeroByte(w ^ 0x22222222);
    quotes |= zeroByte(w ^ 0x2c2c2c2c) | zeroByte(w ^ 0x0a0a0a0a) | zeroByte(w ^ 0x0d0d0d0d);
  }
  for (; i < len; i++) {
    const c = b[o + i];
    high |= c;
    if (c === QUOTE) dq = 0x80;
    else if (BYTE_CLASS[c] === 1) quotes = 0x80;
    t[p + i] = c;
  }
  const quote = (dq & 0x80808080) !== 0;
  utf8Copy.quote = quote;
  if ((high & 0x80808080) !== 0) {
    // Not ASCII: a byte-order mark may need quotes, and the text must be well-formed.
    if (!wellFormedUtf8(b, o, o + len)) return -1;
    utf8Copy.special = true;
  } else utf8Copy.special = quote || (quotes & 0x80808080) !== 0;
  if (long) t.set(b.subarray(o, o + len - (len & 3)), p);
  return p + len;
}

/** Not 0 exactly when the 32-bit word has a zero byte (the classic borrow trick). */
function zeroByte(x: number): number {
  return (x - 0x01010101) & ~x & 0x80808080;
}

function utf8Writer(padded: boolean, render: Render): Write {
  const write: Write = (b, o, len, out) => {
    out.reserve(len);
    const p = putUtf8(out.text, out.pos, b, o, len, padded);
    if (p < 0) {
      out.special = true;
      appendString(out, render(b, o, len));
      return;
    }
    out.special = utf8Copy.special;
    out.pos = p;
  };
  return described(write, QUOTE_REPORTED, fastKind(padded ? FAST_CHAR : FAST_VARCHAR));
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

/** How a DECIMAL(precision, scale) field splits into digit groups (see decimalLayout), for putDecimal(). */
export interface DecimalPlan {
  intFull: number;
  intLead: number;
  fracFull: number;
  fracDigits: number;
  fracTail: number;
  scale: number;
  /** The value of the first group's flipped top bit. */
  firstBit: number;
  /** The most bytes a value's text can take. */
  room: number;
}

function decimalPlan(precision: number, scale: number): DecimalPlan {
  const { intFull, intLead, fracFull, fracDigits, fracTail } = decimalLayout(precision, scale);
  // The first group holds the field's first byte, whose top bit is flipped: as a value, this bit.
  const firstN = intLead > 0 ? intLead : intFull > 0 ? 4 : fracFull > 0 ? 4 : fracTail;
  const firstBit = firstN === 0 ? 0 : 2 ** (8 * firstN - 1);
  // A damaged value can hold groups above 999,999,999: one more digit per group at most.
  const room = precision + 3 + intFull + fracFull + 20 + SCRATCH;
  return { intFull, intLead, fracFull, fracDigits, fracTail, scale, firstBit, room };
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

function decimalWriter(precision: number, scale: number): Write {
  const decimal = decimalPlan(precision, scale);
  const write: Write = (b, o, _len, out) => {
    out.reserve(decimal.room);
    out.pos = putDecimal(decimal, out.text, out.pos, b, o);
  };
  return described(write, QUOTE_NEVER, fastKind(FAST_DECIMAL, { decimal }));
}

/**
 * DATE at o (3 bytes, sign bit flipped, day in bits 0-4, month 5-8, year above; see renderDate) as
 * YYYY-MM-DD at p; returns the position after it, or -1 for a year above 9999 (the renderer's).
 */
export function putDateValue(t: Uint8Array, p: number, b: Uint8Array, o: number): number {
  const v = ((b[o] << 16) | (b[o + 1] << 8) | b[o + 2]) ^ 0x800000;
  const year = v >> 9;
  if (year > 9999) return -1;
  return putDate(t, p, year, (v >> 5) & 15, v & 31);
}

function dateWriter(render: Render): Write {
  const write: Write = (b, o, len, out) => {
    out.reserve(10);
    const p = putDateValue(out.text, out.pos, b, o);
    if (p < 0) appendString(out, render(b, o, len));
    else out.pos = p;
  };
  return described(write, QUOTE_SCAN, fastKind(FAST_DATE));
}

/** YYYY-MM-DD at p for a year of 0..9999 (month and day below 100); returns the position after it. */
function putDate(t: Uint8Array, p: number, year: number, month: number, day: number): number {
  const view = textView(t);
  view.setInt32(p, DIGITS4[year], true);
  // "-MM-" as one word: the month's two digits (the top half of its 4-digit word) between dashes.
  view.setInt32(p + 4, 45 | ((DIGITS4[month] >>> 16) << 8) | (45 << 24), true);
  view.setInt16(p + 8, DIGITS4[day] >>> 16, true);
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
    out.reserve(26 + SCRATCH);
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
