/**
 * Value checks: whether the stored bytes of a field are a value its column can hold. A record read
 * from a damaged page can decode into nonsense (a month 14, a DECIMAL digit group of 10 digits, an
 * ENUM index past its members, broken UTF-8, a VARCHAR(10) of 300 bytes); the record decoder runs
 * these checks and reports such a record instead of writing it (record.ts ValueCheckError).
 *
 * Checks allocate nothing for a valid value (no strings, no subarrays); only a failing one builds
 * its reason. Types whose every byte string of the stored length is a value (integers, BINARY,
 * INET6, ...) have none in COMPACT/DYNAMIC records; REDUNDANT records give each field's length, so
 * there even they check that it is their fixed size.
 */
import { charsetInfo } from './charset.ts';
import { columnStorage } from './column-storage.ts';
import type { Column } from '../schema.ts';
import { decimalGroup, decimalLayout, decimalSize } from './decimal.ts';
import { enumSize, setSize } from './enum-set.ts';
import { jsonBinaryToText, JsonBinaryError } from './json-binary.ts';
import { checkDate, datetimeCheck, legacyTemporalCheck, redundantDatetimeCheck, timeCheck, timestampCheck } from './value-check-temporal.ts';
import { asciiCompatible, charsetCheck, knownCharset, textCheck } from './value-check-text.ts';
import { INLINE_ASCII, INLINE_DATE, INLINE_DECIMAL, INLINE_LENGTH, withInline, type DecimalGroups, type ValueCheck } from './inline-check.ts';

const exactLength = (n: number): ValueCheck => withInline((_b, _o, len) => (len === n ? null : `${len} bytes, not ${n}`), INLINE_LENGTH, n, n);
const maxLength = (n: number, what: string): ValueCheck => withInline((_b, _o, len) => (len <= n ? null : `${len} bytes, more than the ${n} of ${what}`), INLINE_LENGTH, 0, n);


function decimalGroups(precision: number, scale: number): DecimalGroups {
  const { intFull, intLead, fracFull, fracDigits, fracTail } = decimalLayout(precision, scale);
  const bytes: number[] = [];
  const digits: number[] = [];
  if (intLead > 0) {
    bytes.push(intLead);
    digits.push((precision - scale) % 9);
  }
  for (let i = 0; i < intFull + fracFull; i++) {
    bytes.push(4);
    digits.push(9);
  }
  if (fracTail > 0) {
    bytes.push(fracTail);
    digits.push(fracDigits);
  }
  const limits = Float64Array.from(digits, (d) => 10 ** d);
  const heads = Int32Array.from(bytes, (n, g) => Math.floor((limits[g] - 1) / 256 ** (n - 1)));
  return { bytes: Int32Array.from(bytes), digits: Int32Array.from(digits), limits, heads };
}

/** The sign convention: the first byte's top bit is set for positive values, negative ones are inverted. */
const decimalMask = (b: Uint8Array, o: number): number => ((b[o] & 0x80) === 0 ? 0xff : 0);

/** Whether every group's first byte is below its head: then the DECIMAL is certainly valid. */
export function decimalHeadsBelow(g: DecimalGroups, b: Uint8Array, o: number): boolean {
  const mask = decimalMask(b, o);
  if (((b[o] ^ mask ^ 0x80) & 0xff) >= g.heads[0]) return false;
  for (let k = 1, p = o + g.bytes[0]; k < g.bytes.length; p += g.bytes[k], k++) if (((b[p] ^ mask) & 0xff) >= g.heads[k]) return false;
  return true;
}

/**
 * DECIMAL(M,D) (decimal.ts): every 9-digit group below 10^9 and every partial group (the leading
 * integer digits, the last fraction digits) below 10 to its digits, read after undoing the sign
 * convention, which a flipped sign bit turns into groups out of range.
 */
function decimalCheck(precision: number, scale: number): ValueCheck {
  const groups = decimalGroups(precision, scale);
  const size = decimalSize(precision, scale);
  const check: ValueCheck = (b, o, len) => {
    if (len !== size) return `${len} bytes, not ${size}`;
    const mask = decimalMask(b, o);
    for (let k = 0, p = o; k < groups.bytes.length; p += groups.bytes[k], k++) {
      const v = decimalGroup(b, p, groups.bytes[k], mask, o);
      if (v >= groups.limits[k]) return `digit group ${v} ≥ 10^${groups.digits[k]}`;
    }
    return null;
  };
  return withInline(check, INLINE_DECIMAL, size, size, groups);
}

/** IEEE 754 with every exponent bit set: NaN or ±Infinity, which MySQL and MariaDB never store. */
function nonFinite(exponentHigh: number, exponentLow: number, lowMask: number): boolean {
  return (exponentHigh & 0x7f) === 0x7f && (exponentLow & lowMask) === lowMask;
}

/** FLOAT: 4 bytes little-endian. */
const checkFloat: ValueCheck = (b, o, len) => {
  if (len !== 4) return `${len} bytes, not 4`;
  return nonFinite(b[o + 3], b[o + 2], 0x80) ? 'not a finite float' : null;
};

/** DOUBLE: 8 bytes little-endian. */
const checkDouble: ValueCheck = (b, o, len) => {
  if (len !== 8) return `${len} bytes, not 8`;
  return nonFinite(b[o + 7], b[o + 6], 0xf0) ? 'not a finite double' : null;
};

/** MySQL 9 VECTOR(n): up to n float32s, little-endian, all finite. */
function vectorCheck(dims: number): ValueCheck {
  const max = 4 * dims;
  return (b, o, len) => {
    if (len & 3) return `${len} bytes, not whole float32s`;
    if (dims > 0 && len > max) return `${len / 4} dimensions, more than ${dims}`;
    for (let i = o; i < o + len; i += 4) if (nonFinite(b[i + 3], b[i + 2], 0x80)) return `dimension ${(i - o) / 4} is not a finite float`;
    return null;
  };
}

/** BIT(n): (n+7)/8 bytes big-endian, no bit set above the n-th; null when n fills its bytes. */
function bitCheck(bits: number): ValueCheck | null {
  const size = (bits + 7) >> 3;
  const unused = (0xff << (bits & 7 || 8)) & 0xff;
  if (unused === 0) return null;
  return (b, o, len) => (len !== size ? `${len} bytes, not ${size}` : b[o] & unused ? `a bit above bit ${bits} is set` : null);
}

/** ENUM: the member number, 0 (the server's '' for an invalid value) to the member count. */
function enumCheck(members: number): ValueCheck | null {
  const size = enumSize(members);
  if (members >= 2 ** (8 * size) - 1) return null;
  return (b, o, len) => {
    if (len !== size) return `${len} bytes, not ${size}`;
    const n = size === 1 ? b[o] : (b[o] << 8) | b[o + 1];
    return n <= members ? null : `member ${n} of ${members}`;
  };
}

/** SET: a bitmap of the members (lowest bit in the last byte); no bit at or above the member count. */
function setCheck(members: number): ValueCheck | null {
  const size = setSize(members);
  if (members === 8 * size) return null;
  // Bytes counted from the last: those from `first` on hold bits ≥ members, from `firstMask` on.
  const first = members >> 3;
  const firstMask = (0xff << (members & 7)) & 0xff;
  return (b, o, len) => {
    if (len !== size) return `${len} bytes, not ${size}`;
    for (let j = first; j < size; j++) {
      if (b[o + size - 1 - j] & (j === first ? firstMask : 0xff)) return `a member bit at or above ${members} is set`;
    }
    return null;
  };
}

const TEXT_MAX: Record<string, number> = { tinytext: 255, tinyblob: 255, text: 65535, blob: 65535 };

/** CHAR/VARCHAR/TEXT types (and their binary forms): the length, then the charset's bytes. */
function stringCheck(c: Column, redundant: boolean): ValueCheck | null {
  if (!knownCharset(c.charset)) return null;
  const cs = charsetInfo(c.charset);
  const what = c.type === 'char' || c.type === 'varchar' ? `${c.type}(${c.length})` : c.type;
  let min = 0;
  let max = TEXT_MAX[c.type] ?? Infinity;
  if (c.type === 'varchar') max = c.length * cs.mbmaxlen;
  if (c.type === 'char') {
    // COMPACT stores CHAR of a variable-width charset in n × mbminlen to n × mbmaxlen bytes (pad
    // spaces stripped down to n characters), REDUNDANT and fixed-width charsets in n × mbmaxlen.
    max = c.length * cs.mbmaxlen;
    min = redundant || cs.mbmaxlen === cs.mbminlen ? max : c.length * cs.mbminlen;
  }
  const lengthOnly = c.charset === 'binary' || charsetCheck(c.charset) === null;
  // A COMPACT record's fixed-length field (up to DICT_MAX_FIXED_COL_LEN) has that length by layout.
  if (lengthOnly && !redundant && min === max && max <= 768) return null;
  if (c.charset === 'binary') return min === max ? exactLength(max) : max === Infinity ? null : maxLength(max, what);
  const check = textCheck(c.charset, min, max, what);
  if (lengthOnly) return withInline(check, INLINE_LENGTH, min, max);
  return asciiCompatible(c.charset) ? withInline(check, INLINE_ASCII, min, max) : check;
}

/** Why the last wkbEnd() returned -1 (set only then, so the valid path builds no string). */
let wkbProblem = '';
/** MariaDB's limit on nested collections is far lower; deeper is damage. */
const MAX_WKB_DEPTH = 32;

function wkbFail(problem: string): number {
  wkbProblem = problem;
  return -1;
}

function wkbUint32(b: Uint8Array, p: number, little: boolean): number {
  return little ? (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)) >>> 0 : ((b[p] << 24) | (b[p + 1] << 16) | (b[p + 2] << 8) | b[p + 3]) >>> 0;
}

/** Where a count of `size`-byte items at p ends, or -1 when they do not fit before `end`. */
function wkbItems(b: Uint8Array, p: number, end: number, little: boolean, size: number): number {
  if (p + 4 > end) return wkbFail('the geometry ends early');
  const after = p + 4 + wkbUint32(b, p, little) * size;
  return after <= end ? after : wkbFail('a point count runs past the end of the geometry');
}

/**
 * Where the WKB geometry at p ends (each part has its byte order, 0 or 1, and a type 1-7: point,
 * linestring, polygon, and the multi- and collection types of those), or -1.
 */
function wkbEnd(b: Uint8Array, p: number, end: number, depth: number): number {
  if (depth > MAX_WKB_DEPTH) return wkbFail('the geometry nests too deeply');
  if (p + 5 > end) return wkbFail('the geometry ends early');
  if (b[p] > 1) return wkbFail(`byte order ${b[p]}`);
  const little = b[p] === 1;
  const type = wkbUint32(b, p + 1, little);
  p += 5;
  if (type === 1) return p + 16 <= end ? p + 16 : wkbFail('the point ends early');
  if (type === 2) return wkbItems(b, p, end, little, 16);
  if (type < 1 || type > 7) return wkbFail(`geometry type ${type}`);
  if (p + 4 > end) return wkbFail('the geometry ends early');
  const n = wkbUint32(b, p, little);
  p += 4;
  // Each ring or part takes at least 4 bytes, so a damaged count stops at the end soon.
  for (let i = 0; i < n && p >= 0; i++) p = type === 3 ? wkbItems(b, p, end, little, 16) : wkbEnd(b, p, end, depth + 1);
  return p;
}

/** A geometry as the server stores it: a 4-byte SRID, then exactly one WKB geometry. */
const checkGeometry: ValueCheck = (b, o, len) => {
  if (len < 4 + 5) return `${len} bytes, too few for a geometry`;
  const end = wkbEnd(b, o + 4, o + len, 0);
  if (end < 0) return wkbProblem;
  return end === o + len ? null : 'bytes follow the end of the geometry';
};

const utf8mb4 = charsetCheck('utf8mb4') as ValueCheck;

/**
 * JSON: MySQL's binary documents must parse (json-binary.ts; JSON is rare, so this builds the
 * text); MariaDB's text (told apart as jsonRenderer does) must be utf8mb4.
 */
const checkJson: ValueCheck = (b, o, len) => {
  if (len === 0) return null;
  const c = b[o];
  // A tab or newline is a binary type code too, and may also start text.
  if (c === 0x09 || c === 0x0a) return jsonProblem(b, o, len) === null ? null : utf8mb4(b, o, len);
  return c > 0x0f || c === 0x0d ? utf8mb4(b, o, len) : jsonProblem(b, o, len);
};

function jsonProblem(b: Uint8Array, o: number, len: number): string | null {
  try {
    jsonBinaryToText(b, o, len);
    return null;
  } catch (e) {
    if (e instanceof JsonBinaryError) return `json: ${e.message}`;
    throw e;
  }
}

const TEXT_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'tinyblob', 'blob', 'mediumblob', 'longblob']);
const GEOMETRIES = new Set(['geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection']);

/** The check of the column's bytes, or null when every byte string of its stored length is a value. */
function contentCheck(c: Column, redundant: boolean): ValueCheck | null {
  if (TEXT_TYPES.has(c.type)) return stringCheck(c, redundant);
  if (GEOMETRIES.has(c.type)) return checkGeometry;
  switch (c.type) {
    case 'decimal': return decimalCheck(c.precision, c.scale);
    case 'float': return checkFloat;
    case 'double': return checkDouble;
    case 'bit': return bitCheck(Math.max(1, c.length));
    case 'enum': return enumCheck(c.values.length);
    case 'set': return setCheck(c.values.length);
    case 'date': return withInline(checkDate, INLINE_DATE, 3, 3);
    case 'json': return checkJson;
    case 'varbinary': return maxLength(c.length, `varbinary(${c.length})`);
    case 'vector': return vectorCheck(c.length);
    case 'time':
    case 'datetime':
    case 'timestamp': return temporalCheck(c, redundant);
    default: return null;
  }
}

function temporalCheck(c: Column, redundant: boolean): ValueCheck | null {
  const type = c.type as 'time' | 'datetime' | 'timestamp';
  if (c.legacyTemporal) return legacyTemporalCheck(type, c.fsp);
  if (type === 'time') return timeCheck(c.fsp);
  if (type === 'timestamp') return c.fsp === 0 ? null : timestampCheck(c.fsp);
  return redundant && c.fsp === 0 ? redundantDatetimeCheck() : datetimeCheck(c.fsp);
}

/** The check of a column as stored in a COMPACT/DYNAMIC (redundant=false) or REDUNDANT record; null when every byte string of its stored length is a valid value (e.g. INT, BINARY). */
export function valueCheckFor(c: Column, redundant: boolean): ValueCheck | null {
  const check = contentCheck(c, redundant);
  if (check !== null || !redundant) return check;
  const fixedLen = columnStorage(c, true).fixedLen;
  return fixedLen > 0 ? exactLength(fixedLen) : null;
}
