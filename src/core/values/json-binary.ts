/**
 * JSON columns. MySQL 5.7+ stores them in its binary format (json_binary.h); MariaDB stores the text
 * as written (JSON is LONGTEXT there). Binary documents are printed as the server's SELECT prints
 * them (Json_wrapper::to_string): `{"a": 1, "b": [true, null]}` with ", " and ": " separators, keys in
 * stored order, doubles as my_gcvt prints them with ".0" added to integral ones, dates and times
 * as quoted strings with 6 fractional digits, other opaque values as "base64:typeNN:...".
 *
 * Layout: one type byte, then the value. Objects and arrays start with their element count and byte
 * size (2 bytes each in the small form, 4 in the large), then for objects a key entry per element
 * (offset, 2-byte length), then a value entry per element (type byte and offset, or the value itself
 * when it fits: literals and 16-bit integers, and 32-bit ones in the large form). Offsets count from
 * the start of the object or array. Strings and opaque values carry a variable-length length
 * (7 bits per byte, low bits first).
 */
import { decimalRenderer } from './decimal.ts';
import { gcvt } from './float.ts';
import { pad, type Render } from './render.ts';

const SMALL_OBJECT = 0x00;
const LARGE_OBJECT = 0x01;
const SMALL_ARRAY = 0x02;
const LARGE_ARRAY = 0x03;
const LITERAL = 0x04;
const INT16 = 0x05;
const UINT16 = 0x06;
const INT32 = 0x07;
const UINT32 = 0x08;
const INT64 = 0x09;
const UINT64 = 0x0a;
const DOUBLE = 0x0b;
const STRING = 0x0c;
const OPAQUE = 0x0f;

/** MySQL field types an opaque value can carry that print as something other than base64. */
const MYSQL_TYPE_TIMESTAMP = 7;
const MYSQL_TYPE_DATE = 10;
const MYSQL_TYPE_TIME = 11;
const MYSQL_TYPE_DATETIME = 12;
const MYSQL_TYPE_TIMESTAMP2 = 17;
const MYSQL_TYPE_DATETIME2 = 18;
const MYSQL_TYPE_TIME2 = 19;
const MYSQL_TYPE_NEWDECIMAL = 246;

/** Thrown for bytes that are not a well-formed binary JSON document. */
export class JsonBinaryError extends Error {}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const view = new DataView(new ArrayBuffer(8));

/** Reads the document's bytes; every read is checked against the end of the value. */
class Reader {
  constructor(
    readonly b: Uint8Array,
    readonly end: number,
  ) {}

  check(p: number, n: number): void {
    if (p < 0 || p + n > this.end) throw new JsonBinaryError(`a value runs past the end of the document (byte ${p})`);
  }

  uint(p: number, n: number): number {
    this.check(p, n);
    let v = 0;
    for (let i = n - 1; i >= 0; i--) v = v * 256 + this.b[p + i];
    return v;
  }

  int(p: number, n: number): number {
    const v = this.uint(p, n);
    return v >= 2 ** (8 * n - 1) ? v - 2 ** (8 * n) : v;
  }

  int64(p: number, unsigned: boolean): bigint {
    this.check(p, 8);
    for (let i = 0; i < 8; i++) view.setUint8(i, this.b[p + i]);
    return unsigned ? view.getBigUint64(0, true) : view.getBigInt64(0, true);
  }

  double(p: number): number {
    this.check(p, 8);
    for (let i = 0; i < 8; i++) view.setUint8(i, this.b[p + i]);
    return view.getFloat64(0, true);
  }

  /** A variable-length length: returns [length, bytes it took]. */
  varLength(p: number): [number, number] {
    let len = 0;
    for (let i = 0; i < 5; i++) {
      this.check(p + i, 1);
      const byte = this.b[p + i];
      len += (byte & 0x7f) * 2 ** (7 * i);
      if ((byte & 0x80) === 0) return [len, i + 1];
    }
    throw new JsonBinaryError('a string length is longer than 5 bytes');
  }

  text(p: number, n: number): string {
    this.check(p, n);
    return utf8.decode(this.b.subarray(p, p + n));
  }
}

/** Depth limit of the server (JSON_DOCUMENT_MAX_DEPTH); deeper input is damaged. */
const MAX_DEPTH = 150;

/** The text of the binary JSON document b[o, o+len). Throws JsonBinaryError when it is malformed. */
export function jsonBinaryToText(b: Uint8Array, o: number, len: number): string {
  if (len < 1) throw new JsonBinaryError('the document is empty');
  const r = new Reader(b, o + len);
  const type = b[o];
  // A whole document's object or array fills the rest of the value exactly.
  if (type <= LARGE_ARRAY) {
    const size = r.uint(o + 1 + (type & 1 ? 4 : 2), type & 1 ? 4 : 2);
    if (size !== len - 1) throw new JsonBinaryError(`the document says it holds ${size} bytes, the column holds ${len - 1}`);
  } else if (scalarSize(r, type, o + 1) !== len - 1) {
    throw new JsonBinaryError(`the scalar does not fill the ${len} bytes of the column`);
  }
  return value(r, type, o + 1, 0);
}

/** Bytes a scalar value takes (a whole document is its type byte and exactly this). */
function scalarSize(r: Reader, type: number, p: number): number {
  switch (type) {
    case LITERAL: return 1;
    case INT16: case UINT16: return 2;
    case INT32: case UINT32: return 4;
    case INT64: case UINT64: case DOUBLE: return 8;
    case STRING: {
      const [n, skip] = r.varLength(p);
      return skip + n;
    }
    case OPAQUE: {
      const [n, skip] = r.varLength(p + 1);
      return 1 + skip + n;
    }
    default: throw new JsonBinaryError(`unknown value type 0x${type.toString(16)}`);
  }
}

function value(r: Reader, type: number, p: number, depth: number): string {
  if (depth > MAX_DEPTH) throw new JsonBinaryError('the document nests too deeply');
  switch (type) {
    case SMALL_OBJECT: return container(r, p, false, true, depth);
    case LARGE_OBJECT: return container(r, p, true, true, depth);
    case SMALL_ARRAY: return container(r, p, false, false, depth);
    case LARGE_ARRAY: return container(r, p, true, false, depth);
    case LITERAL: return literal(r.uint(p, 1));
    case INT16: return String(r.int(p, 2));
    case UINT16: return String(r.uint(p, 2));
    case INT32: return String(r.int(p, 4));
    case UINT32: return String(r.uint(p, 4));
    case INT64: return String(r.int64(p, false));
    case UINT64: return String(r.int64(p, true));
    case DOUBLE: return jsonDouble(r.double(p));
    case STRING: {
      const [n, skip] = r.varLength(p);
      return quote(r.text(p + skip, n));
    }
    case OPAQUE: return opaque(r, p);
    default: throw new JsonBinaryError(`unknown value type 0x${type.toString(16)}`);
  }
}

function literal(v: number): string {
  switch (v) {
    case 0: return 'null';
    case 1: return 'true';
    case 2: return 'false';
    default: throw new JsonBinaryError(`unknown literal 0x${v.toString(16)}`);
  }
}

/** An object's or array's elements, each value either inlined in its entry or at its offset. */
function container(r: Reader, start: number, large: boolean, isObject: boolean, depth: number): string {
  const w = large ? 4 : 2;
  const count = r.uint(start, w);
  const size = r.uint(start + w, w);
  r.check(start, size);
  const inner = new Reader(r.b, start + size);
  const keyEntries = start + 2 * w;
  const valueEntries = keyEntries + (isObject ? count * (w + 2) : 0);
  inner.check(valueEntries, count * (1 + w));
  let s = isObject ? '{' : '[';
  for (let i = 0; i < count; i++) {
    if (i > 0) s += ', ';
    if (isObject) {
      const keyOffset = inner.uint(keyEntries + i * (w + 2), w);
      const keyLength = inner.uint(keyEntries + i * (w + 2) + w, 2);
      s += quote(inner.text(start + keyOffset, keyLength)) + ': ';
    }
    const entry = valueEntries + i * (1 + w);
    const type = inner.uint(entry, 1);
    s += inlined(type, large) ? value(inner, type, entry + 1, depth + 1) : value(inner, type, start + inner.uint(entry + 1, w), depth + 1);
  }
  return s + (isObject ? '}' : ']');
}

/** Scalars small enough to sit in a value entry instead of an offset. */
function inlined(type: number, large: boolean): boolean {
  return type === LITERAL || type === INT16 || type === UINT16 || (large && (type === INT32 || type === UINT32));
}

/** my_gcvt's digits, with ".0" when neither a point nor an exponent shows it is a double. */
export function jsonDouble(x: number): string {
  const s = gcvt(x, 17);
  return /[.e]/.test(s) ? s : s + '.0';
}

/** double_quote(): `"` and `\` escaped, \b \f \n \r \t by name, other controls as \u00XX. */
export function quote(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (!/["\\\u0000-\u001f]/.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (c > 0x1f) out += ch;
    else out += CONTROL_ESCAPES[c] ?? '\\u00' + c.toString(16).padStart(2, '0');
  }
  return out + '"';
}

const CONTROL_ESCAPES: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' };

/** Opaque values: field type byte, length, data. */
function opaque(r: Reader, p: number): string {
  const fieldType = r.uint(p, 1);
  const [n, skip] = r.varLength(p + 1);
  const data = p + 1 + skip;
  r.check(data, n);
  switch (fieldType) {
    case MYSQL_TYPE_NEWDECIMAL: {
      if (n < 2) throw new JsonBinaryError('a decimal without precision and scale');
      const precision = r.b[data];
      const scale = r.b[data + 1];
      return decimalRenderer(precision, scale)(r.b, data + 2, n - 2);
    }
    case MYSQL_TYPE_DATE:
    case MYSQL_TYPE_DATETIME:
    case MYSQL_TYPE_DATETIME2:
    case MYSQL_TYPE_TIMESTAMP:
    case MYSQL_TYPE_TIMESTAMP2:
      return `"${packedDatetime(r.int64(data, false), fieldType === MYSQL_TYPE_DATE)}"`;
    case MYSQL_TYPE_TIME:
    case MYSQL_TYPE_TIME2:
      return `"${packedTime(r.int64(data, false))}"`;
    default:
      return `"base64:type${fieldType}:${base64(r.b, data, n)}"`;
  }
}

/** TIME_to_longlong_packed's layout: the fraction in the low 24 bits, then seconds, minutes, ... */
function unpack(packed: bigint): { neg: boolean; micros: number; high: number } {
  const neg = packed < 0n;
  const abs = neg ? -packed : packed;
  return { neg, micros: Number(abs & 0xffffffn), high: Number(abs >> 24n) };
}

function packedDatetime(packed: bigint, dateOnly: boolean): string {
  const { micros, high } = unpack(packed);
  const ymd = Math.floor(high / 131072);
  const hms = high % 131072;
  const ym = ymd >> 5;
  const date = `${pad(Math.floor(ym / 13), 4)}-${pad(ym % 13, 2)}-${pad(ymd & 31, 2)}`;
  if (dateOnly) return date;
  return `${date} ${pad(hms >> 12, 2)}:${pad((hms >> 6) & 63, 2)}:${pad(hms & 63, 2)}.${pad(micros, 6)}`;
}

function packedTime(packed: bigint): string {
  const { neg, micros, high } = unpack(packed);
  return `${neg ? '-' : ''}${pad((high >> 12) & 1023, 2)}:${pad((high >> 6) & 63, 2)}:${pad(high & 63, 2)}.${pad(micros, 6)}`;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64(b: Uint8Array, o: number, n: number): string {
  let s = '';
  for (let i = 0; i < n; i += 3) {
    const v = (b[o + i] << 16) | ((i + 1 < n ? b[o + i + 1] : 0) << 8) | (i + 2 < n ? b[o + i + 2] : 0);
    s += B64[v >> 18] + B64[(v >> 12) & 63] + (i + 1 < n ? B64[(v >> 6) & 63] : '=') + (i + 2 < n ? B64[v & 63] : '=');
  }
  return s;
}

/**
 * A JSON column: binary documents (MySQL) as the server prints them, text documents (MariaDB, whose
 * text never starts with a byte below 0x10 unless it is blank space) as they are. A binary document
 * that does not parse is shown with a marker rather than as garbage.
 */
export function jsonRenderer(text: Render): Render {
  return (b, o, len) => {
    if (len === 0) return '';
    if (b[o] > OPAQUE || isBlank(b[o])) {
      try {
        if (b[o] === 0x09 || b[o] === 0x0a) return jsonBinaryToText(b, o, len);
      } catch {
        // text after all: a tab or newline before the document
      }
      return text(b, o, len);
    }
    try {
      return jsonBinaryToText(b, o, len);
    } catch (e) {
      return `[unreadable JSON: ${(e as Error).message}]`;
    }
  };
}

/** Blank space JSON text may start with; tab (0x09) and newline (0x0a) are also binary type codes. */
function isBlank(c: number): boolean {
  return c === 0x09 || c === 0x0a || c === 0x0d || c === 0x20;
}
