/**
 * A column's values as sort keys: the text a row batch holds for a value turned into bytes whose
 * comparison (`compareOrderKeys`) is the server's `ORDER BY` order for the column's type and
 * collation, so that rows can be sorted in runs and merged without the values themselves.
 *
 *  - integers, DECIMAL (exactly), the 5.6+ temporal types and ENUM (by member number): the bytes
 *    InnoDB stores (key-values.ts), compared byte by byte;
 *  - FLOAT / DOUBLE: the IEEE 754 bits made to order as numbers (the sign bit flipped, negatives
 *    inverted), -0 as 0;
 *  - DATE / DATETIME / TIMESTAMP / YEAR of the older formats: their canonical text, which orders like
 *    the value;
 *  - binary strings and BIT: their bytes;
 *  - text in a `_bin` collation: its bytes, PAD SPACE or NO PAD as key-values.ts says;
 *    `latin1_swedish_ci`: the bytes mapped through the collation's sort table (MySQL's
 *    sort_order_latin1), PAD SPACE; `utf8mb3/utf8mb4_general_ci`: one 16-bit weight per character
 *    (the character upper-cased without its accents, ß as S, characters beyond the BMP as U+FFFD),
 *    PAD SPACE.
 *
 * Anything else (other collations' weights, SET, JSON of MySQL, geometry, the pre-5.6 TIME) has no
 * order here: `columnOrder` says why, and the caller refuses the sort rather than sort it wrongly.
 * NULL is not a key: the caller orders NULLs first, as the server does ascending.
 */
import type { Column } from '../schema.ts';
import { defaultCollation } from './collations.ts';
import { compareStored, keyPart } from './key-values.ts';

/** How two keys compare: byte by byte (shorter first), PAD SPACE over bytes, or PAD SPACE over 16-bit weights. */
export type OrderKind = 'bytes' | 'padded' | 'weights16';

export interface ColumnOrder {
  kind: OrderKind;
  /** The key of a value given as its text (as the batch holds it). */
  key(text: string): Uint8Array;
}

const FLOATS = new Set(['float', 'double']);
const CANONICAL_TEXT = new Set(['date', 'datetime', 'timestamp', 'year']);
const UNORDERED = new Set(['set', 'json', 'geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection', 'vector']);
const TEXT_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext']);

const utf8 = new TextEncoder();

/** The order of column `c`'s values, or the reason there is none here. */
export function columnOrder(c: Column): ColumnOrder | { why: string } {
  if (UNORDERED.has(c.type)) return { why: `\`${c.name}\` is of type ${c.type.toUpperCase()}, whose ORDER BY order is not modelled` };
  if (FLOATS.has(c.type)) return { kind: 'bytes', key: floatKey };
  if (c.type === 'bit') return { kind: 'bytes', key: hexBytes };
  if (TEXT_TYPES.has(c.type) && c.charset !== 'binary') return textOrder(c);
  const part = keyPart(c, 0, false);
  if (part.order !== null) return { kind: part.order, key: part.encode };
  if (CANONICAL_TEXT.has(c.type)) return { kind: 'bytes', key: (t) => utf8.encode(t) };
  return { why: part.why };
}

function textOrder(c: Column): ColumnOrder | { why: string } {
  const collation = (c.collation || defaultCollation(c.charset, 'mariadb')).toLowerCase();
  if (collation === 'utf8mb4_general_ci' || collation === 'utf8mb3_general_ci') return { kind: 'weights16', key: generalCiKey };
  if (collation === 'latin1_swedish_ci') {
    const bytes = keyPart(c, 0, false).encode;
    return { kind: 'padded', key: (t) => latin1SwedishKey(bytes(t)) };
  }
  const part = keyPart({ ...c, collation }, 0, false);
  if (part.order !== null) return { kind: part.order, key: part.encode };
  return { why: `\`${c.name}\` is ordered by collation ${collation}, whose weights are not implemented (utf8mb4_general_ci, latin1_swedish_ci and the _bin collations are)` };
}

const floatView = new DataView(new ArrayBuffer(8));

/** A FLOAT/DOUBLE's text as 8 bytes that order as the numbers do. */
function floatKey(text: string): Uint8Array {
  const v = Number(text);
  floatView.setFloat64(0, v === 0 ? 0 : v);
  const out = new Uint8Array(8);
  const negative = (floatView.getUint8(0) & 0x80) !== 0;
  for (let i = 0; i < 8; i++) out[i] = negative ? ~floatView.getUint8(i) & 0xff : floatView.getUint8(i);
  if (!negative) out[0] ^= 0x80;
  return out;
}

/** A value shown as 0x… hex (binary strings, BIT) as its bytes. */
function hexBytes(text: string): Uint8Array {
  const out = new Uint8Array(Math.max(0, (text.length - 2) >> 1));
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 + 2 * i, 4 + 2 * i), 16);
  return out;
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

function latin1SwedishKey(bytes: Uint8Array): Uint8Array {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b >= 0x61 && b <= 0x7a) bytes[i] = b - 32;
    else if (b >= 0xc0) bytes[i] = SWEDISH_HIGH[b - 0xc0];
  }
  return bytes;
}

let generalWeights: Uint16Array | null = null;

/** general_ci's weight of each BMP character: upper case without accents (MySQL's my_unicase_default `sort`). */
function generalCiWeights(): Uint16Array {
  if (generalWeights) return generalWeights;
  const w = new Uint16Array(0x10000);
  for (let cp = 0; cp < 0x10000; cp++) {
    const isSurrogate = cp >= 0xd800 && cp <= 0xdfff;
    const base = isSurrogate ? '' : String.fromCharCode(cp).normalize('NFD').charAt(0);
    const upper = base.toUpperCase();
    w[cp] = isSurrogate ? cp : upper.length === 1 ? upper.charCodeAt(0) : base.charCodeAt(0);
  }
  w[0xdf] = 0x53; // ß = S
  generalWeights = w;
  return w;
}

function generalCiKey(text: string): Uint8Array {
  const weights = generalCiWeights();
  const out = new Uint8Array(text.length * 2);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    let weight = weights[unit];
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      weight = 0xfffd;
      i++;
    }
    out[n++] = weight >> 8;
    out[n++] = weight & 0xff;
  }
  return out.subarray(0, n);
}

/** Compares keys a[ao, ao+al) and b[bo, bo+bl) of one column (see OrderKind). */
export function compareOrderKeys(kind: OrderKind, a: Uint8Array, ao: number, al: number, b: Uint8Array, bo: number, bl: number): number {
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
