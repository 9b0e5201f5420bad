/**
 * Default values of a .frm's columns, as SHOW CREATE TABLE prints them: read from the defaults
 * record (a row image in the server's record format, with its null bits) or taken from the
 * unireg_check code (CURRENT_TIMESTAMP) and the stored DEFAULT expression.
 */
import { decoderFor } from '../../values/charset.ts';
import type { ServerFlavor } from '../../values/collations.ts';
import { bitLiteral, quoteString } from '../create-sql.ts';
import { decimalRenderer, decimalSize } from '../../values/decimal.ts';
import { enumSize, setSize } from '../../values/enum-set.ts';
import { doubleRenderer, floatRenderer } from '../../values/float.ts';
import { pad } from '../../values/render.ts';
import { datetimeRenderer, fracBytes, renderYear, timeRenderer, timestampRenderer } from '../../values/temporal.ts';
import { legacyTemporalRenderer, legacyTemporalSize } from '../../values/temporal-legacy.ts';
import type { FrmField, FrmImage } from './frm-file.ts';
import { DATA_TYPE_PLUGINS, F, GEOMETRY_NAMES, T, U, type Resolved } from './frm-columns.ts';

const INT_BYTES: Partial<Record<number, number>> = { [T.TINY]: 1, [T.SHORT]: 2, [T.INT24]: 3, [T.LONG]: 4, [T.LONGLONG]: 8 };

/** The default value stored in the defaults record, as SHOW CREATE TABLE prints it. */
function literalDefault(r: Resolved, rec: Uint8Array, flavor: ServerFlavor, mysqlVersion: number): string {
  const { field: f, column: c } = r;
  const at = f.recpos - 1;
  // MariaDB 10.2.1+ prints numbers bare; MySQL quotes every literal
  const number = (s: string) => (flavor === 'mariadb' && mysqlVersion >= 100201 ? s : quoteString(s));
  const le = (len: number) => {
    let v = 0n;
    for (let i = len - 1; i >= 0; i--) v = (v << 8n) | BigInt(rec[at + i]);
    return v;
  };
  if (c.type === 'inet4') return quoteString(Array.from(rec.subarray(at, at + 4)).join('.'));
  if (c.type === 'inet6') return quoteString(inet6Text(rec.subarray(at, at + 16)));
  if (c.type === 'uuid') return quoteString(uuidText(rec.subarray(at, at + 16)));
  const bytes = INT_BYTES[f.type];
  if (bytes && !DATA_TYPE_PLUGINS.has(c.type)) {
    let v = le(bytes);
    if (!c.unsigned && v >= 1n << BigInt(bytes * 8 - 1)) v -= 1n << BigInt(bytes * 8);
    const s = v.toString();
    return number(c.zerofill ? s.padStart(f.length, '0') : s);
  }
  switch (c.type) {
    case 'decimal': {
      const s = decimalRenderer(c.precision, c.scale)(rec, at, decimalSize(c.precision, c.scale));
      return number(c.zerofill ? s.padStart(f.length, '0') : s);
    }
    case 'float': return number(floatRenderer(c.scale, c.precision > 0)(rec, at, 4));
    case 'double': return number(doubleRenderer(c.scale, c.precision > 0)(rec, at, 8));
    case 'bit': return bitLiteral(rec.subarray(at, at + ((f.length + 7) >> 3)));
    case 'year': return number(renderYear(rec, at, 1));
    case 'date': {
      const v = Number(le(3));
      return quoteString(`${pad(v >> 9, 4)}-${pad((v >> 5) & 15, 2)}-${pad(v & 31, 2)}`);
    }
    case 'time':
    case 'datetime':
    case 'timestamp':
      if (c.legacyTemporal) return quoteString(legacyDefault(c.type, c.fsp, rec, at));
      if (c.type === 'time') return quoteString(timeRenderer(c.fsp)(rec, at, 3 + fracBytes(c.fsp)));
      if (c.type === 'datetime') return quoteString(datetimeRenderer(c.fsp)(rec, at, 5 + fracBytes(c.fsp)));
      return quoteString(timestampRenderer(c.fsp)(rec, at, 4 + fracBytes(c.fsp)));
    case 'enum': {
      const n = Number(le(enumSize(c.values.length)));
      return quoteString(n === 0 ? '' : (c.values[n - 1] ?? ''));
    }
    case 'set': {
      const v = le(setSize(c.values.length));
      return quoteString(c.values.filter((_, i) => (v >> BigInt(i)) & 1n).join(','));
    }
    case 'varchar': case 'varbinary': {
      const lenBytes = f.length > 255 ? 2 : 1;
      const len = Number(le(lenBytes));
      return quoteString(decodeText(rec.subarray(at + lenBytes, at + lenBytes + len), c.charset));
    }
    case 'char':
      return quoteString(decodeText(rec.subarray(at, at + f.length), c.charset).replace(/ +$/, ''));
    case 'binary':
      return quoteString(decodeText(rec.subarray(at, at + f.length), 'binary'));
    default:
      return 'NULL';
  }
}

/**
 * INET6 as MariaDB prints it (RFC 5952): lower-case groups, the longest run of two or more zero
 * groups as `::`, and IPv4-mapped / IPv4-compatible addresses with a dotted tail.
 */
function inet6Text(b: Uint8Array): string {
  const words = Array.from({ length: 8 }, (_, i) => (b[2 * i] << 8) | b[2 * i + 1]);
  let gap = { at: -1, len: 0 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > gap.len && j - i >= 2) gap = { at: i, len: j - i };
    i = j === i ? i + 1 : j;
  }
  if (gap.at === 0 && (gap.len === 6 || (gap.len === 5 && words[5] === 0xffff))) {
    return `::${gap.len === 5 ? 'ffff:' : ''}${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
  }
  const parts: string[] = [];
  for (let i = 0; i < 8; i++) {
    if (i === gap.at) {
      parts.push(i === 0 ? ':' : '');
      i += gap.len - 1;
      if (i === 7) parts.push('');
      continue;
    }
    parts.push(words[i].toString(16));
  }
  return parts.join(':');
}

/**
 * UUID from MariaDB's record format: RFC 4122 UUIDs of versions 1-5 are kept with their five groups
 * in reverse order (so that time-based ones sort by time); any other value as written.
 */
function uuidText(b: Uint8Array): string {
  const hex = (from: number, to: number) => Array.from(b.subarray(from, to), (x) => x.toString(16).padStart(2, '0')).join('');
  const swapped = (b[6] & 0x80) !== 0 && b[8] > 0 && b[8] < 0x60;
  return swapped
    ? `${hex(12, 16)}-${hex(10, 12)}-${hex(8, 10)}-${hex(6, 8)}-${hex(0, 6)}`
    : `${hex(0, 4)}-${hex(4, 6)}-${hex(6, 8)}-${hex(8, 10)}-${hex(10, 16)}`;
}

/**
 * A pre-5.6 TIME/DATETIME/TIMESTAMP default. With fractions (MariaDB 5.3's formats) the record holds
 * the bytes InnoDB stores; without (MySQL 5.5's) it holds little-endian integers, which InnoDB turns
 * big-endian with the sign bit flipped: they are turned so here and read by the same renderer.
 */
function legacyDefault(type: 'time' | 'datetime' | 'timestamp', fsp: number, rec: Uint8Array, at: number): string {
  const size = legacyTemporalSize(type, fsp);
  if (fsp > 0) return legacyTemporalRenderer(type, fsp)(rec, at, size);
  const stored = new Uint8Array(size);
  for (let i = 0; i < size; i++) stored[i] = rec[at + size - 1 - i];
  if (type !== 'timestamp') stored[0] ^= 0x80;
  return legacyTemporalRenderer(type, 0)(stored, 0, size);
}

/** Text for a default value: in the column's charset; binary strings byte by byte. */
function decodeText(bytes: Uint8Array, charset: string): string {
  const decode = charset === 'binary' ? null : decoderFor(charset);
  if (decode) return decode(bytes, 0, bytes.length);
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

/**
 * A DEFAULT expression prints bare when it is a literal or one function call (`uuid()`,
 * `concat('a','b')`), in parentheses when it is built with operators (`(rand() * 10)`), as MariaDB's
 * SHOW CREATE TABLE prints them.
 */
function expressionDefault(expr: string): string {
  const literal = /^(?:-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|'(?:[^'\\]|\\.|'')*'|NULL|_\w+'(?:[^'\\]|\\.|'')*')$/i;
  return literal.test(expr) || isOneCall(expr) ? expr : `(${expr})`;
}

/** `name(...)` whose opening parenthesis is closed by the last character (quotes skipped). */
function isOneCall(expr: string): boolean {
  const head = /^[a-z_][a-z0-9_]*\(/i.exec(expr);
  if (!head) return false;
  let depth = 0;
  for (let i = head[0].length - 1; i < expr.length; i++) {
    const ch = expr[i];
    if (ch === "'" || ch === '"' || ch === '`') {
      // skip the quoted text; a doubled quote or a backslash escape stays inside it
      for (i++; i < expr.length && expr[i] !== ch; i++) if (expr[i] === '\\') i++;
      continue;
    }
    if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i === expr.length - 1;
  }
  return false;
}

/**
 * Null bits in the defaults record: one per nullable column in column order, after a "deleted"
 * bit unless the rows are packed; BIT columns whose odd bits live there too (engines without
 * TREAT_BIT_AS_CHAR) take their share; MySQL 5.7 puts the virtual columns' bits last.
 */
export function nullBitOf(image: FrmImage): (number | null)[] {
  const packRecord = (image.createOptions & 1) !== 0;
  const out: (number | null)[] = [];
  const mysql57 = image.mysqlVersion >= 50700 && image.mysqlVersion < 100000;
  const isVirtual = (f: FrmField) => f.generated !== null && !f.generated.stored;
  let pos = packRecord ? 0 : 1;
  let virtualPos = pos;
  if (mysql57) {
    for (const f of image.fields) {
      if (isVirtual(f)) continue;
      if (f.type === T.BIT && !(f.packFlag & F.TREAT_BIT_AS_CHAR)) virtualPos += f.length & 7;
      if (f.packFlag & F.MAYBE_NULL) virtualPos++;
    }
  }
  for (const f of image.fields) {
    const useVirtual = mysql57 && isVirtual(f);
    let p = useVirtual ? virtualPos : pos;
    const nullable = (f.packFlag & F.MAYBE_NULL) !== 0;
    out.push(nullable ? p : null);
    if (nullable) p++;
    if (f.type === T.BIT && !(f.packFlag & F.TREAT_BIT_AS_CHAR)) p += f.length & 7;
    if (useVirtual) virtualPos = p;
    else pos = p;
  }
  return out;
}

export function defaultText(r: Resolved, image: FrmImage, nullBit: number | null, flavor: ServerFlavor): string | null {
  const { field: f, column: c } = r;
  if (f.generated || f.unireg === U.NEXT_NUMBER) return null;
  const now = `${flavor === 'mariadb' ? 'current_timestamp' : 'CURRENT_TIMESTAMP'}${flavor === 'mariadb' || c.fsp > 0 ? `(${c.fsp || ''})` : ''}`;
  if (f.unireg === U.TIMESTAMP_DN || f.unireg === U.TIMESTAMP_DNUN) return now;
  if (f.defaultExpr !== null) return expressionDefault(f.defaultExpr);
  if (f.packFlag & F.NO_DEFAULT) return null;
  if (nullBit !== null && image.defaults[nullBit >> 3] & (1 << (nullBit & 7))) return 'NULL';
  if (['tinytext', 'text', 'mediumtext', 'longtext', 'tinyblob', 'blob', 'mediumblob', 'longblob', 'json', 'geometry'].includes(c.type) || GEOMETRY_NAMES.includes(c.type)) {
    return c.nullable ? 'NULL' : null;
  }
  return literalDefault(r, image.defaults, flavor, image.mysqlVersion);
}
