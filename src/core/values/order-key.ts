/**
 * A column's values as sort keys: the text a row batch holds for a value turned into bytes whose
 * comparison (`compareOrderKeys`) is the server's `ORDER BY` order for the column's type and
 * collation, so that rows can be sorted in runs and merged without the values themselves.
 *
 *  - integers, DECIMAL (exactly, any precision) and TIME (its digits, the colons left out: h·10⁴ +
 *    m·10² + s orders as the time): the decimal numeral as a sign, a digit count and the digits
 *    (complemented for negatives, which end in 0xFF), compared byte by byte;
 *  - FLOAT / DOUBLE: the IEEE 754 bits made to order as numbers (the sign bit flipped, negatives
 *    inverted), -0 as 0;
 *  - DATE / DATETIME / TIMESTAMP / YEAR: their canonical text (fixed width, no sign), which orders
 *    like the value; ENUM: the member number; SET: the stored bitmap (8 bytes);
 *  - binary strings and BIT: their bytes;
 *  - text in a `_bin` collation: its UTF-8 (or single-byte charset) bytes, PAD SPACE or NO PAD as
 *    key-values.ts says;
 *    `latin1_swedish_ci`: the bytes mapped through the collation's sort table (MySQL's
 *    sort_order_latin1), PAD SPACE; `utf8mb3/utf8mb4_general_ci`: one 16-bit weight per character
 *    (the character upper-cased without its accents, ß as S, characters beyond the BMP as U+FFFD),
 *    PAD SPACE; the UCA collations `_unicode_ci`, `_unicode_520_ci`, `_uca1400_ai_ci` of utf8mb3,
 *    utf8mb4, ucs2, utf16 and utf32 (PAD SPACE or `_nopad_`) and `utf8mb4_0900_ai_ci` (NO PAD): their primary weights (uca-weights.ts);
 *    uca1400's `_as_ci`, `_ai_cs` and `_as_cs`: their primary, then secondary (accents), then tertiary (case) weights (ucaOrder);
 *    the language tailorings of TAILORED_LANGUAGES (UCA 4.0.0's `utf8mb4_swedish_ci`, uca1400's `_swedish_ai_ci`): their primary weights;
 *  - spatial types: the stored SRID + WKB, made back from the cell's text (geometry-key.ts).
 *
 * A server compares only the first max_sort_length bytes of a sort key (MariaDB's default, 1024, is
 * modelled: rows whose keys share that much tie, and fall to the next sort column, the primary key):
 * of a UCA collation whose values can be longer than 1024 bytes, 1024 bytes of its primary weights
 * (512, whatever the characters' size; shorter columns are compared whole, see ucaOrder); of `_general_ci`, `_bin` and the single-byte collations, the text's first 1024 bytes in its
 * charset (1024 ASCII letters, 512 two-byte ones, 342 three-byte ones: a character that starts in them counts),
 * as MariaDB 10.11 was seen to do (test/differential/sort-length.test.ts); MySQL's utf8mb4_0900_ai_ci,
 * NO PAD, is compared whole, as MySQL 8.0.20 and later do. Of a binary string, MariaDB compares the
 * first 1024 bytes less the field's length bytes (1022 of a VARBINARY(1200) or BLOB, 1021 of a
 * MEDIUMBLOB, 1020 of a LONGBLOB), then the value's whole length (binaryKey).
 * Anything else (other collations' weights, JSON of MySQL, the pre-5.6 TIME) has no order here: `columnOrder` says why, and the caller refuses the sort rather than sort it wrongly.
 * NULL is not a key: the caller orders NULLs first, as the server does ascending. A key is written
 * straight into the caller's buffer (`KeySink`): no array is made per value, which costs more than
 * the rest of a key.
 */
import type { Column } from '../schema.ts';
import { defaultCollation } from './collations.ts';
import { SINGLE_BYTE_CHARSETS } from './charset-tables.ts';
import { compareStored, keyPart } from './key-values.ts';
import { geometryKey } from './geometry-key.ts';
import { firstBytes, MAX_SORT_LENGTH, type ColumnOrder, type KeySink, type OrderKind } from './sort-key.ts';
import { compareLevels, loadUcaOrder, TAILORED_LANGUAGES, ucaOrder } from './uca-order.ts';

export { KeyBuffer, MAX_SORT_LENGTH, type ColumnOrder, type KeySink, type OrderKind } from './sort-key.ts';

const INTEGERS = new Set(['tinyint', 'bool', 'smallint', 'mediumint', 'int', 'bigint', 'decimal']);
const FLOATS = new Set(['float', 'double']);
const CANONICAL_TEXT = new Set(['date', 'datetime', 'timestamp', 'year']);
const UNORDERED = new Set(['vector']);
const GEOMETRIES = new Set(['geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection']);
const TEXT_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext']);
const BINARY_TYPES = new Set(['binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob', 'bit']);

/** How a column's values are to be ordered: as an ORDER BY sorts them, or as an index orders its keys. */
export interface OrderOptions {
  /**
   * How many bytes the server's sort key has after this column's (the primary key's, which breaks
   * ties: 4 for an INT), or null when that is not known; it decides some UCA collations' order (see ucaOrder).
   */
  tieBytes?: number | null;
  /** Values compared whole, all their levels, as an index orders its keys (an ORDER BY's sort cuts them at max_sort_length). */
  whole?: boolean;
}

/** The order of column `c`'s values, or the reason there is none here. */
export function columnOrder(c: Column, options: OrderOptions = {}): ColumnOrder | { why: string } {
  if (c.type === 'json') {
    // MariaDB's JSON is LONGTEXT in utf8mb4_bin (its SHOW CREATE TABLE says so), which sorts as text
    return { why: `\`${c.name}\` is of type JSON, which MySQL orders by its JSON comparison rules (a value's type first, then its value), not modelled here` };
  }
  if (UNORDERED.has(c.type) || (c.type === 'time' && c.legacyTemporal)) {
    return { why: `\`${c.name}\` is of type ${c.type.toUpperCase()}${c.legacyTemporal ? ' (pre-5.6 format)' : ''}, whose ORDER BY order is not modelled` };
  }
  if (INTEGERS.has(c.type) || c.type === 'time') return { kind: 'bytes', key: numeralKey };
  if (FLOATS.has(c.type)) return { kind: 'bytes', key: floatKey };
  if (CANONICAL_TEXT.has(c.type)) return { kind: 'bytes', key: asciiKey };
  if (c.type === 'enum') return { kind: 'bytes', key: enumKey(c.values) };
  if (c.type === 'set') return { kind: 'bytes', key: setKey(c.values) };
  if (GEOMETRIES.has(c.type)) return { kind: 'bytes', key: geometryKey };
  if (BINARY_TYPES.has(c.type) || c.charset === 'binary') return { kind: 'bytes', key: binaryKey(options.whole ? Infinity : MAX_SORT_LENGTH - binarySuffix(c)) };
  if (TEXT_TYPES.has(c.type)) return textOrder(c, options);
  return { why: `\`${c.name}\` is of type ${c.type.toUpperCase()}, whose ORDER BY order is not modelled` };
}

/** columnOrder, once the weights it needs are loaded (a UCA collation's come in a chunk of their own). */
export async function loadColumnOrder(c: Column, options: OrderOptions = {}): Promise<ColumnOrder | { why: string }> {
  if (TEXT_TYPES.has(c.type)) await loadUcaOrder(collationOf(c));
  return columnOrder(c, options);
}

function collationOf(c: Column): string {
  return (c.collation || defaultCollation(c.charset, 'mariadb')).toLowerCase();
}

function textOrder(c: Column, { tieBytes = null, whole = false }: OrderOptions): ColumnOrder | { why: string } {
  const collation = collationOf(c);
  const cut = whole ? (key: ColumnOrder['key']) => key : firstBytes;
  if (collation === 'utf8mb4_general_ci' || collation === 'utf8mb3_general_ci') return { kind: 'weights16', key: whole ? generalCiKey : (t, out) => generalCiKey(firstChars(t), out) };
  const uca = ucaOrder(c, collation, whole ? 'whole' : tieBytes);
  if (uca !== null) return uca;
  const bytes = charsetBytes(c.charset);
  if (collation === 'latin1_swedish_ci' && c.charset === 'latin1' && bytes) return { kind: 'padded', key: cut((t, out) => latin1SwedishKey(bytes, t, out)) };
  const part = keyPart({ ...c, collation }, 0, false);
  if (part.order !== null && bytes) return { kind: part.order, key: cut(bytes) };
  return { why: `\`${c.name}\` is ordered by collation ${collation}, whose weights are not implemented (utf8mb3/utf8mb4 _general_ci, the _unicode_ci, _unicode_520_ci and _uca1400_ (ai or as, ci or cs) of the Unicode charsets, utf8mb4_0900_ai_ci, latin1_swedish_ci and the _bin collations are; the tailorings of ${TAILORED_LANGUAGES.join(', ')}, of UCA 4.0.0 and uca1400 ai_ci, are)` };
}

/** `text`'s characters that start in its first MAX_SORT_LENGTH bytes of UTF-8 (what `_general_ci` compares: its weights are 2 bytes a character). */
function firstChars(text: string): string {
  if (text.length * 3 <= MAX_SORT_LENGTH) return text;
  let size = 0;
  for (let i = 0; i < text.length; i++) {
    const cp = text.charCodeAt(i);
    const n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp >= 0xd800 && cp <= 0xdbff ? 4 : 3;
    if (size >= MAX_SORT_LENGTH) return text.slice(0, i);
    size += n;
    if (n === 4) i++;
  }
  return text;
}

/** Appends `text` in the column's charset: UTF-8, or a single-byte charset's bytes; null for another charset. */
function charsetBytes(charset: string): ((text: string, out: KeySink) => void) | null {
  if (charset === 'utf8mb4' || charset === 'utf8mb3') return utf8Key;
  const chars = SINGLE_BYTE_CHARSETS[charset];
  if (chars === undefined || chars.length !== 128) return null;
  const byChar = new Map<number, number>();
  for (let b = 0; b < 256; b++) byChar.set(b < 128 ? b : chars.charCodeAt(b - 128), b);
  return (text, out) => {
    let p = out.reserve(text.length);
    for (let i = 0; i < text.length; i++) out.bytes[p++] = byChar.get(text.charCodeAt(i)) ?? 0x3f;
    out.length = p;
  };
}

function utf8Key(text: string, out: KeySink): void {
  let p = out.reserve(text.length * 3);
  const b = out.bytes;
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      cp = 0x10000 + ((cp - 0xd800) << 10) + (text.charCodeAt(++i) - 0xdc00);
      b[p++] = 0xf0 | (cp >> 18);
      b[p++] = 0x80 | ((cp >> 12) & 0x3f);
      b[p++] = 0x80 | ((cp >> 6) & 0x3f);
    } else if (cp >= 0x800) {
      b[p++] = 0xe0 | (cp >> 12);
      b[p++] = 0x80 | ((cp >> 6) & 0x3f);
    } else if (cp >= 0x80) {
      b[p++] = 0xc0 | (cp >> 6);
    }
    b[p++] = cp < 0x80 ? cp : 0x80 | (cp & 0x3f);
  }
  out.length = p;
}

function asciiKey(text: string, out: KeySink): void {
  let p = out.reserve(text.length);
  for (let i = 0; i < text.length; i++) out.bytes[p++] = text.charCodeAt(i);
  out.length = p;
}

const DOT = 0x2e;
const ZERO = 0x30;

/**
 * A decimal numeral (`-12.50`, `838:59:59`: colons skipped) as bytes that order as the numbers:
 * 0x02 (≥ 0) or 0x01, the count of integer digits (255 − count for negatives), the digits without
 * leading or trailing zeros (complemented for negatives, then 0xFF so that a longer one is smaller).
 */
function numeralKey(text: string, out: KeySink): void {
  const negative = text.charCodeAt(0) === 0x2d;
  let from = negative ? 1 : 0;
  while (from < text.length && text.charCodeAt(from) === ZERO) from++;
  let dot = text.indexOf('.', from);
  if (dot < 0) dot = text.length;
  let to = text.length;
  if (dot < text.length) while (to > dot + 1 && text.charCodeAt(to - 1) === ZERO) to--;
  if (to === dot + 1) to = dot;
  let intDigits = 0;
  let nonZero = false;
  for (let i = from; i < to; i++) {
    const ch = text.charCodeAt(i);
    if (i < dot && ch !== 0x3a) intDigits++;
    if (ch > ZERO && ch <= 0x39) nonZero = true;
  }
  const minus = negative && nonZero;
  let p = out.reserve(3 + to - from);
  const b = out.bytes;
  b[p++] = minus ? 0x01 : 0x02;
  b[p++] = minus ? 255 - intDigits : intDigits;
  for (let i = from; i < to; i++) {
    const ch = text.charCodeAt(i);
    if (ch === DOT || ch === 0x3a) continue;
    b[p++] = minus ? 0xff - ch : ch;
  }
  if (minus) b[p++] = 0xff;
  out.length = p;
}

function enumKey(members: readonly string[]): (text: string, out: KeySink) => void {
  const number = new Map(members.map((m, i) => [m, i + 1]));
  return (text, out) => {
    const n = number.get(text) ?? (/^\d+$/.test(text) ? Number(text) : 0);
    const p = out.reserve(2);
    out.bytes[p] = n >> 8;
    out.bytes[p + 1] = n & 0xff;
    out.length = p + 2;
  };
}

/**
 * A SET's text (its members in member order, comma-separated, as setRenderer writes it) as the
 * stored bitmap the server orders by: 8 bytes big-endian, bit i for member i. The members are
 * matched in order, so no array is made per value.
 */
function setKey(members: readonly string[]): (text: string, out: KeySink) => void {
  return (text, out) => {
    let hi = 0;
    let lo = 0;
    let pos = 0;
    for (let i = 0; i < members.length && pos < text.length; i++) {
      const m = members[i];
      const end = pos + m.length;
      if (!text.startsWith(m, pos) || (end < text.length && text.charCodeAt(end) !== 0x2c)) continue;
      if (i < 32) lo |= 1 << i;
      else hi |= 1 << (i - 32);
      pos = end + 1;
    }
    const p = out.reserve(8);
    const b = out.bytes;
    for (let k = 0; k < 4; k++) {
      b[p + k] = (hi >>> (24 - 8 * k)) & 0xff;
      b[p + 4 + k] = (lo >>> (24 - 8 * k)) & 0xff;
    }
    out.length = p + 8;
  };
}

const floatView = new DataView(new ArrayBuffer(8));

/** A FLOAT/DOUBLE's text as 8 bytes that order as the numbers do. */
function floatKey(text: string, out: KeySink): void {
  const v = Number(text);
  floatView.setFloat64(0, v === 0 ? 0 : v);
  const negative = (floatView.getUint8(0) & 0x80) !== 0;
  const p = out.reserve(8);
  for (let i = 0; i < 8; i++) out.bytes[p + i] = negative ? ~floatView.getUint8(i) & 0xff : floatView.getUint8(i);
  if (!negative) out.bytes[p] ^= 0x80;
  out.length = p + 8;
}

/**
 * How many bytes of a binary string's sort key MariaDB gives to its length (the field's length
 * bytes: Field_varstring/Field_blob::sort_suffix_length), which it stores after the value's first
 * max_sort_length minus that many bytes, so that keys equal there order by length.
 */
function binarySuffix(c: Column): number {
  switch (c.type) {
    case 'varbinary':
    case 'varchar':
      return c.length > 255 ? 2 : 1;
    case 'tinyblob':
    case 'tinytext':
      return 1;
    case 'blob':
    case 'text':
      return 2;
    case 'mediumblob':
    case 'mediumtext':
      return 3;
    case 'longblob':
    case 'longtext':
      return 4;
    default:
      return 0;
  }
}

/**
 * A value shown as 0x… hex (binary strings, BIT) as its bytes; one longer than `cut` bytes as its
 * first `cut` bytes and its length (4 bytes, big-endian): the server's key, the cut bytes zero-padded
 * and then the length, orders the same.
 */
function binaryKey(cut: number): (text: string, out: KeySink) => void {
  return (text, out) => {
    const size = Math.max(0, (text.length - 2) >> 1);
    const n = Math.min(size, cut);
    const p = out.reserve(n + 4);
    const b = out.bytes;
    for (let i = 0; i < n; i++) b[p + i] = (hexDigit(text.charCodeAt(2 + 2 * i)) << 4) | hexDigit(text.charCodeAt(3 + 2 * i));
    out.length = p + n;
    if (size <= cut) return;
    for (let k = 0; k < 4; k++) b[p + n + k] = (size >>> (24 - 8 * k)) & 0xff;
    out.length = p + n + 4;
  };
}

function hexDigit(ch: number): number {
  return ch <= 0x39 ? ch - 0x30 : (ch | 0x20) - 0x57;
}

/**
 * latin1_swedish_ci's weights of bytes 0xC0-0xFF (below them: the byte, a-z as A-Z): accented
 * letters as their base letter, Å after Z, Ä and Æ after it, Ö and Ø last, Ü as Y.
 */
const SWEDISH_HIGH = [
  65, 65, 65, 65, 92, 91, 92, 67, 69, 69, 69, 69, 73, 73, 73, 73,
  68, 78, 79, 79, 79, 79, 93, 215, 216, 85, 85, 85, 89, 89, 222, 223,
  65, 65, 65, 65, 92, 91, 92, 67, 69, 69, 69, 69, 73, 73, 73, 73,
  68, 78, 79, 79, 79, 79, 93, 247, 216, 85, 85, 85, 89, 89, 222, 255,
];

function latin1SwedishKey(bytes: (text: string, out: KeySink) => void, text: string, out: KeySink): void {
  const from = out.length;
  bytes(text, out);
  const b = out.bytes;
  for (let i = from; i < out.length; i++) {
    const v = b[i];
    if (v >= 0x61 && v <= 0x7a) b[i] = v - 32;
    else if (v >= 0xc0) b[i] = SWEDISH_HIGH[v - 0xc0];
  }
}

/** general_ci's weight of each BMP character, worked out when first met (0: not yet). */
const generalWeights = new Uint16Array(0x10000);

/** general_ci's weight of a BMP character: upper case without accents (MySQL's my_unicase_default `sort`), ß as S. */
function generalWeight(unit: number): number {
  const known = generalWeights[unit];
  if (known !== 0 || unit === 0) return known;
  let w: number;
  if (unit < 0x80) w = unit >= 0x61 && unit <= 0x7a ? unit - 32 : unit;
  else if (unit === 0xdf) w = 0x53;
  else {
    const base = String.fromCharCode(unit).normalize('NFD').charAt(0);
    const upper = base.toUpperCase();
    w = upper.length === 1 ? upper.charCodeAt(0) : base.charCodeAt(0);
  }
  generalWeights[unit] = w;
  return w;
}

function generalCiKey(text: string, out: KeySink): void {
  let p = out.reserve(text.length * 2);
  const b = out.bytes;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    let weight: number;
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      // Beyond the BMP: one weight for all (MySQL's 0xFFFD).
      weight = 0xfffd;
      i++;
    } else {
      weight = generalWeight(unit);
    }
    b[p++] = weight >> 8;
    b[p++] = weight & 0xff;
  }
  out.length = p;
}

/** Compares keys a[ao, ao+al) and b[bo, bo+bl) of one column (see OrderKind). */
export function compareOrderKeys(kind: OrderKind, a: Uint8Array, ao: number, al: number, b: Uint8Array, bo: number, bl: number): number {
  if (kind === 'levels16' || kind === 'nopadLevels16') return compareLevels(kind === 'nopadLevels16', a, ao, al, b, bo, bl);
  if (kind !== 'weights16') return compareStored(kind, a, ao, al, b, bo, bl);
  const n = Math.min(al, bl);
  for (let i = 0; i < n; i++) {
    const d = a[ao + i] - b[bo + i];
    if (d !== 0) return d;
  }
  // PAD SPACE: the rest of the longer key against the weight of a space.
  for (let i = n; i + 1 < al; i += 2) {
    const d = ((a[ao + i] << 8) | a[ao + i + 1]) - 0x20;
    if (d !== 0) return d;
  }
  for (let i = n; i + 1 < bl; i += 2) {
    const d = ((b[bo + i] << 8) | b[bo + i + 1]) - 0x20;
    if (d !== 0) return -d;
  }
  return 0;
}

