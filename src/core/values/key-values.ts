/**
 * Key values for lookups: a value of a key column given as text turned into the bytes InnoDB stores,
 * and how two stored values of the column compare, exactly as InnoDB compares them (rem0cmp.cc
 * cmp_data): byte by byte, the shorter first, for integers (big-endian, signed ones with the sign bit
 * flipped), DECIMAL, the 5.6+ temporal formats, ENUM and binary strings; byte by byte with the shorter
 * padded with spaces (PAD SPACE) for text in a `_bin` collation of a charset whose byte order is its
 * code point order; NO PAD `_bin` collations byte by byte. Any other collation orders text by its
 * weights, which are not implemented here, nor are FLOAT/DOUBLE, SET, BIT and the other types: such a
 * part has no `order`, and `why` says why (a lookup then compares its decoded text instead).
 */
import { SINGLE_BYTE_CHARSETS } from './charset-tables.ts';
import { decimalLayout } from './decimal.ts';
import { enumSize } from './enum-set.ts';
import { encodeDate, encodeDatetime, encodeTime, encodeTimestamp, encodeYear, storeUintBE } from './key-temporal.ts';
import type { Column } from '../schema.ts';
import { UTC, type TimeZone } from './time-zone.ts';

/** Byte order (memcmp, the shorter first), or byte order with the shorter padded with spaces (PAD SPACE). */
export type KeyOrder = 'bytes' | 'padded';

export interface KeyPart {
  column: Column;
  /** A prefix key part: the characters (bytes for binary strings) it holds; 0 for the whole column. */
  prefix: number;
  descending: boolean;
  /** How its stored values compare; null when that cannot be done exactly here. */
  order: KeyOrder | null;
  /** Why `order` is null. */
  why: string;
  /** The stored bytes of a value given as text (cut to the prefix); throws an Error for a text that is not a value of the column. */
  encode(text: string): Uint8Array;
}

const INT_BYTES: Record<string, number> = { tinyint: 1, bool: 1, smallint: 2, mediumint: 3, int: 4, bigint: 8 };
const STRING_TYPES = new Set(['char', 'varchar', 'binary', 'varbinary', 'tinytext', 'text', 'mediumtext', 'longtext', 'tinyblob', 'blob', 'mediumblob', 'longblob']);
const UTF8 = new Set(['utf8mb3', 'utf8mb4']);

function notValue(text: string, c: Column): Error {
  return new Error(`'${text}' is not a value of column \`${c.name}\` (${c.type.toUpperCase()}${c.unsigned ? ' UNSIGNED' : ''})`);
}

/** Integers: big-endian, signed ones offset by 2^(bits-1) (the sign bit flipped). */
function encodeInt(c: Column, bytes: number): (text: string) => Uint8Array {
  const bits = BigInt(8 * bytes);
  const min = c.unsigned ? 0n : -(1n << (bits - 1n));
  const max = c.unsigned ? (1n << bits) - 1n : (1n << (bits - 1n)) - 1n;
  return (text) => {
    if (!/^[+-]?\d+$/.test(text)) throw notValue(text, c);
    const v = BigInt(text);
    if (v < min || v > max) throw notValue(text, c);
    let stored = v - min;
    const out = new Uint8Array(bytes);
    for (let i = bytes - 1; i >= 0; i--, stored >>= 8n) out[i] = Number(stored & 0xffn);
    return out;
  };
}

const DIG2BYTES = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];

/** DECIMAL(M,D) in MySQL's binary format (decimal2bin), the inverse of decimal.ts. */
function encodeDecimal(c: Column): (text: string) => Uint8Array {
  const { intFull, intLead, fracFull, fracDigits } = decimalLayout(c.precision, c.scale);
  const intg = c.precision - c.scale;
  return (text) => {
    const m = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(text);
    if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw notValue(text, c);
    const int = m[2].replace(/^0+/, '');
    const frac = (m[3] ?? '').replace(/0+$/, '');
    if (int.length > intg || frac.length > c.scale) throw notValue(text, c);
    const digits = int.padStart(intg, '0') + frac.padEnd(c.scale, '0');
    const negative = m[1] === '-' && /[1-9]/.test(digits);
    const groups: [string, number][] = [];
    let at = 0;
    const take = (n: number, bytes: number) => {
      groups.push([digits.slice(at, at + n), bytes]);
      at += n;
    };
    if (intLead > 0) take(intg % 9, intLead);
    for (let i = 0; i < intFull; i++) take(9, 4);
    for (let i = 0; i < fracFull; i++) take(9, 4);
    if (fracDigits > 0) take(fracDigits, DIG2BYTES[fracDigits]);
    const out = new Uint8Array(groups.reduce((n, [, bytes]) => n + bytes, 0));
    let p = 0;
    for (const [group, bytes] of groups) {
      out.set(storeUintBE(Number(group), bytes), p);
      p += bytes;
    }
    if (negative) for (let i = 0; i < out.length; i++) out[i] ^= 0xff;
    out[0] ^= 0x80;
    return out;
  };
}

/** ENUM: the 1-based member number (a member's text, or the number itself), unsigned big-endian. */
function encodeEnum(c: Column): (text: string) => Uint8Array {
  return (text) => {
    const member = c.values.indexOf(text) + 1;
    const n = member > 0 ? member : /^\d+$/.test(text) && +text <= c.values.length ? +text : -1;
    if (n < 0) throw notValue(text, c);
    return storeUintBE(n, enumSize(c.values.length));
  };
}

/** Encodes text in a single-byte charset whose table maps each byte to its own character; null for another charset. */
function singleByteEncoder(charset: string): ((text: string) => Uint8Array | null) | null {
  const chars = SINGLE_BYTE_CHARSETS[charset];
  if (chars === undefined || chars.length !== 128) return null;
  const byChar = new Map<string, number>();
  for (let b = 0; b < 256; b++) byChar.set(b < 128 ? String.fromCharCode(b) : chars[b - 128], b);
  if (byChar.size !== 256) return null;
  return (text) => {
    const out: number[] = [];
    for (const ch of text) {
      const b = byChar.get(ch);
      if (b === undefined) return null;
      out.push(b);
    }
    return Uint8Array.from(out);
  };
}

const utf8 = new TextEncoder();

/** A binary string given as 0x… hex (as binary values are shown), else as the bytes of its UTF-8 text. */
function binaryBytes(text: string): Uint8Array {
  if (!/^0x([0-9a-fA-F]{2})*$/.test(text)) return utf8.encode(text);
  return Uint8Array.from(text.slice(2).match(/../g) ?? [], (h) => parseInt(h, 16));
}

/** How text of `c` compares, from its collation: PAD SPACE or NO PAD `_bin`, or null with the reason. */
function textOrder(c: Column): { order: KeyOrder | null; why: string } {
  const collation = c.collation.toLowerCase();
  const ordered = UTF8.has(c.charset) || singleByteEncoder(c.charset) !== null;
  if (!collation.endsWith('_bin') || !ordered) {
    return { order: null, why: `column \`${c.name}\` is compared by the weights of collation ${collation || `${c.charset}'s default`}, which are not implemented` };
  }
  const noPad = collation.includes('_nopad_') || collation.endsWith('_0900_bin');
  if (noPad && c.type === 'char') return { order: null, why: `CHAR column \`${c.name}\` has a NO PAD collation (${collation}), whose stored padding is not modelled` };
  return { order: noPad ? 'bytes' : 'padded', why: '' };
}

function stringPart(c: Column, prefix: number): Pick<KeyPart, 'order' | 'why' | 'encode'> {
  if (c.charset === 'binary') return { order: 'bytes', why: '', encode: (text) => binaryBytes(text).slice(0, prefix || undefined) };
  const { order, why } = textOrder(c);
  const single = singleByteEncoder(c.charset);
  const encode = (text: string): Uint8Array => {
    const cut = prefix > 0 ? [...text].slice(0, prefix).join('') : text;
    const bytes = UTF8.has(c.charset) ? utf8.encode(cut) : single?.(cut) ?? null;
    if (bytes === null) throw new Error(`'${text}' cannot be written in column \`${c.name}\`'s character set ${c.charset}`);
    return bytes;
  };
  return { order, why, encode };
}

/** The 5.6+ temporal formats' encoders (key-temporal.ts), TIMESTAMP read in `zone`; null for other types and the older formats. */
function temporalEncoder(c: Column, zone: TimeZone): ((text: string) => Uint8Array) | null {
  if (c.legacyTemporal) return null;
  switch (c.type) {
    case 'date': return encodeDate;
    case 'datetime': return (t) => encodeDatetime(t, c.fsp);
    case 'timestamp': return (t) => encodeTimestamp(t, c.fsp, zone);
    case 'time': return (t) => encodeTime(t, c.fsp);
    case 'year': return c.length === 2 ? null : encodeYear;
    default: return null;
  }
}

/** The key part of column `c` (a prefix of `prefix` characters, or 0), and how its values compare; a TIMESTAMP given as text is read in `zone`. */
export function keyPart(c: Column, prefix: number, descending: boolean, zone: TimeZone = UTC): KeyPart {
  const base = { column: c, prefix, descending };
  const exact = (encode: (text: string) => Uint8Array): KeyPart => ({ ...base, order: 'bytes', why: '', encode });
  const intBytes = INT_BYTES[c.type];
  if (intBytes !== undefined) return exact(encodeInt(c, intBytes));
  if (STRING_TYPES.has(c.type)) return { ...base, ...stringPart(c, prefix) };
  const temporal = temporalEncoder(c, zone);
  if (temporal) return exact(temporal);
  if (c.type === 'decimal') return exact(encodeDecimal(c));
  if (c.type === 'enum') return exact(encodeEnum(c));
  return { ...base, order: null, why: `column \`${c.name}\` is of type ${c.type.toUpperCase()}${c.legacyTemporal ? ' (pre-5.6 format)' : ''}, whose stored order is not modelled`, encode: () => new Uint8Array(0) };
}

/** Compares stored values a[ao, ao+al) and b[bo, bo+bl) in `order` (see KeyOrder). */
export function compareStored(order: KeyOrder, a: Uint8Array, ao: number, al: number, b: Uint8Array, bo: number, bl: number): number {
  const n = Math.min(al, bl);
  for (let i = 0; i < n; i++) {
    const d = a[ao + i] - b[bo + i];
    if (d !== 0) return d;
  }
  if (order === 'padded') {
    // The rest of the longer value against spaces.
    for (let i = n; i < al; i++) if (a[ao + i] !== 0x20) return a[ao + i] - 0x20;
    for (let i = n; i < bl; i++) if (b[bo + i] !== 0x20) return 0x20 - b[bo + i];
    return 0;
  }
  return al - bl;
}
