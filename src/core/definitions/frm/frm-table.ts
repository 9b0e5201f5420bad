/**
 * A parsed .frm turned into the TableDef every schema source produces, and into the CREATE TABLE
 * text the server's SHOW CREATE TABLE prints for it (MariaDB 10.2+ style for MariaDB files: numeric
 * defaults unquoted, current_timestamp() in lower case; MySQL 5.x style otherwise).
 */
import { charsetInfo, decoderFor } from '../../values/charset.ts';
import { collationById, defaultCollation, type ServerFlavor } from '../../values/collations.ts';
import { bitLiteral, quoteIdentifier, quoteMember, quoteString } from '../create-sql.ts';
import { maxBytesPerChar } from '../ddl/charsets.ts';
import type { Column, ColumnType, IndexColumn, IndexDef, TableDef } from '../../schema.ts';
import { decimalRenderer, decimalSize } from '../../values/decimal.ts';
import { enumSize, setSize } from '../../values/enum-set.ts';
import { doubleRenderer, floatRenderer } from '../../values/float.ts';
import { pad } from '../../values/render.ts';
import { datetimeRenderer, fracBytes, renderYear, timeRenderer, timestampRenderer } from '../../values/temporal.ts';
import { legacyTemporalRenderer, legacyTemporalSize } from '../../values/temporal-legacy.ts';
import { HA_KEY_ALG_LONG_HASH, type FrmField, type FrmImage, type FrmKey } from './frm-file.ts';

/** MYSQL_TYPE_* codes. */
const T = {
  DECIMAL: 0, TINY: 1, SHORT: 2, LONG: 3, FLOAT: 4, DOUBLE: 5, TIMESTAMP: 7, LONGLONG: 8, INT24: 9, DATE: 10,
  TIME: 11, DATETIME: 12, YEAR: 13, NEWDATE: 14, VARCHAR: 15, BIT: 16, TIMESTAMP2: 17, DATETIME2: 18, TIME2: 19,
  BLOB_COMPRESSED: 140, VARCHAR_COMPRESSED: 141, JSON: 245, NEWDECIMAL: 246, ENUM: 247, SET: 248, TINY_BLOB: 249,
  MEDIUM_BLOB: 250, LONG_BLOB: 251, BLOB: 252, VAR_STRING: 253, STRING: 254, GEOMETRY: 255,
} as const;

/** pack_flag bits (field.h FIELDFLAG_*). */
const F = {
  DECIMAL: 1, ZEROFILL: 4, INTERVAL: 256, BITFIELD: 512, TREAT_BIT_AS_CHAR: 4096, NO_DEFAULT: 16384, MAYBE_NULL: 32768,
} as const;
/** Decimals in pack_flag at or above this mean "not fixed" (FLOAT/DOUBLE without (M,D)). */
const NOT_FIXED_DEC = 31;

/** unireg_check values (Field::utype). */
const U = { NEXT_NUMBER: 15, TIMESTAMP_DN: 21, TIMESTAMP_UN: 22, TIMESTAMP_DNUN: 23 } as const;

/** Key flags (my_base.h HA_*). */
const K = { NOSAME: 1, FULLTEXT: 128, SPATIAL: 1024 } as const;
/** HA_KEY_ALG_*. */
const ALG = { BTREE: 1, RTREE: 2, HASH: 3, FULLTEXT: 4, LONG_HASH: HA_KEY_ALG_LONG_HASH } as const;
/** Key part flag of a DESC key part (HA_REVERSE_SORT). */
const REVERSE_SORT = 128;

const INT_NAMES: Partial<Record<number, ColumnType>> = { [T.TINY]: 'tinyint', [T.SHORT]: 'smallint', [T.INT24]: 'mediumint', [T.LONG]: 'int', [T.LONGLONG]: 'bigint' };
const INT_BYTES: Partial<Record<number, number>> = { [T.TINY]: 1, [T.SHORT]: 2, [T.INT24]: 3, [T.LONG]: 4, [T.LONGLONG]: 8 };
const GEOMETRY_NAMES: ColumnType[] = ['geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection'];
/** Blob sizes by f_packtype(pack_flag): the bytes of the length prefix, spelt as the type code of that size. */
const BLOB_BY_PACKTYPE: Record<number, [ColumnType, ColumnType]> = {
  1: ['tinytext', 'tinyblob'], 2: ['text', 'blob'], 9: ['mediumtext', 'mediumblob'], 3: ['longtext', 'longblob'],
};
const BLOB_BY_TYPE: Record<number, [ColumnType, ColumnType]> = {
  [T.TINY_BLOB]: BLOB_BY_PACKTYPE[1], [T.BLOB]: BLOB_BY_PACKTYPE[2], [T.MEDIUM_BLOB]: BLOB_BY_PACKTYPE[9], [T.LONG_BLOB]: BLOB_BY_PACKTYPE[3],
};
const DATA_TYPE_PLUGINS = new Set<ColumnType>(['inet4', 'inet6', 'uuid', 'vector']);
const TEXT_TYPES = new Set<ColumnType>(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set']);

export interface FrmTableDef {
  table: TableDef;
  /** 'mariadb' for files written by MariaDB 10.0+, else 'mysql'. */
  flavor: ServerFlavor;
  mysqlVersion: number;
  /** Storage engine named in the file. */
  engine: string;
  /** What the definition cannot express that may matter for the rows. */
  warnings: string[];
}

interface Resolved {
  field: FrmField;
  column: Column;
  /** Column type text as SHOW CREATE TABLE writes it, before charset/attributes. */
  typeText: string;
  collationName: string;
}

function decimals(f: FrmField): number {
  return (f.packFlag >> 8) & 63;
}

/** DECIMAL's precision from its display length (my_decimal_length_to_precision). */
function decimalPrecision(f: FrmField): number {
  const scale = decimals(f);
  const unsigned = (f.packFlag & F.DECIMAL) === 0;
  return f.length - (scale > 0 ? 1 : 0) - (unsigned || f.length === 0 ? 0 : 1);
}

/** The collation and charset of a column, by its id (for the table's when the column has none). */
function collationOf(id: number, flavor: ServerFlavor, what: string): { name: string; charset: string } {
  const c = collationById(id, flavor);
  if (!c) throw new Error(`${what} has the unknown collation id ${id}`);
  return c;
}

function resolveField(f: FrmField, image: FrmImage, flavor: ServerFlavor): Resolved {
  const attrs = (type: ColumnType, typeText: string, charset = 'binary', collationName = ''): Resolved => ({
    field: f, typeText, collationName,
    column: {
      name: f.name, type, unsigned: false, zerofill: false, nullable: (f.packFlag & F.MAYBE_NULL) !== 0,
      length: 0, precision: 0, scale: 0, fsp: 0, charset, collation: TEXT_TYPES.has(type) ? collationName : '',
      values: [], generated: f.generated ? (f.generated.stored ? 'stored' : 'virtual') : null,
      invisible: f.invisible !== 0, defaultSql: null, comment: f.comment,
      // MYSQL_TYPE_TIMESTAMP/TIME/DATETIME (7, 11, 12) are the pre-5.6 formats; 17-19 are the new ones.
      legacyTemporal: f.type === 7 || f.type === 11 || f.type === 12,
    },
  });
  const numberSuffix = (c: Column) => {
    c.unsigned = (f.packFlag & F.DECIMAL) === 0;
    c.zerofill = (f.packFlag & F.ZEROFILL) !== 0;
    return `${c.unsigned ? ' unsigned' : ''}${c.zerofill ? ' zerofill' : ''}`;
  };
  if (f.typeName !== null) {
    // a data type plugin (MariaDB 10.5+): inet6, uuid, inet4...
    const type = f.typeName.toLowerCase() as ColumnType;
    if (!DATA_TYPE_PLUGINS.has(type)) throw new Error(`column \`${f.name}\` has the data type ${f.typeName}, which this reader does not know`);
    const r = attrs(type, type === 'vector' ? `vector(${f.length / 4})` : type);
    if (type === 'vector') r.column.length = f.length / 4;
    return r;
  }
  const intType = INT_NAMES[f.type];
  if (intType) {
    const r = attrs(intType, '');
    r.typeText = `${intType}(${f.length})${numberSuffix(r.column)}`;
    r.column.length = f.length; // the display width (ZEROFILL pads to it)
    return r;
  }
  const stringType = (): { charset: string; collation: string } => {
    const c = collationOf(f.charsetId, flavor, `column \`${f.name}\``);
    return { charset: c.charset, collation: c.name };
  };
  switch (f.type) {
    case T.NEWDECIMAL: {
      const r = attrs('decimal', '');
      r.column.precision = decimalPrecision(f);
      r.column.scale = decimals(f);
      r.typeText = `decimal(${r.column.precision},${r.column.scale})${numberSuffix(r.column)}`;
      return r;
    }
    case T.FLOAT:
    case T.DOUBLE: {
      const name = f.type === T.FLOAT ? 'float' : 'double';
      const r = attrs(name, name);
      const dec = decimals(f);
      if (dec < NOT_FIXED_DEC) {
        r.column.precision = f.length;
        r.column.scale = dec;
        r.typeText = `${name}(${f.length},${dec})`;
      }
      r.typeText += numberSuffix(r.column);
      return r;
    }
    case T.BIT: {
      const r = attrs('bit', `bit(${f.length})`);
      r.column.length = f.length;
      return r;
    }
    case T.YEAR: {
      const r = attrs('year', `year(${f.length})`);
      r.column.length = f.length; // YEAR(2) shows two digits
      return r;
    }
    case T.NEWDATE:
      return attrs('date', 'date');
    case T.TIME2:
    case T.DATETIME2:
    case T.TIMESTAMP2:
    case T.TIME:
    case T.DATETIME:
    case T.TIMESTAMP: {
      const name = f.type === T.TIME2 || f.type === T.TIME ? 'time' : f.type === T.DATETIME2 || f.type === T.DATETIME ? 'datetime' : 'timestamp';
      // display length: 10 (TIME) or 19, plus 1 + fsp with fractions
      const base = name === 'time' ? 10 : 19;
      const fsp = f.length > base ? f.length - base - 1 : 0;
      // the pre-5.6 formats (MySQL 5.5, MariaDB 5.3-10.0) are marked as SHOW CREATE TABLE marks them
      const legacy = f.type === T.TIME || f.type === T.DATETIME || f.type === T.TIMESTAMP;
      const mark = legacy ? (flavor === 'mariadb' ? ' /* mariadb-5.3 */' : ' /* 5.5 binary format */') : '';
      const r = attrs(name, `${fsp > 0 ? `${name}(${fsp})` : name}${mark}`);
      r.column.fsp = fsp;
      return r;
    }
    case T.VARCHAR:
    case T.STRING: {
      if (f.intervalNr > 0) return enumOrSet(f, image, flavor, attrs);
      const { charset, collation } = stringType();
      const binary = charset === 'binary';
      const type: ColumnType = f.type === T.VARCHAR ? (binary ? 'varbinary' : 'varchar') : binary ? 'binary' : 'char';
      const length = Math.round(f.length / maxBytesPerChar(charset));
      const r = attrs(type, `${type}(${length})`, charset, binary ? '' : collation);
      r.column.length = length;
      return r;
    }
    case T.ENUM:
    case T.SET:
      return enumOrSet(f, image, flavor, attrs);
    case T.TINY_BLOB:
    case T.BLOB:
    case T.MEDIUM_BLOB:
    case T.LONG_BLOB: {
      const { charset, collation } = stringType();
      // the length prefix size is in pack_flag, as the server reads it
      const [textType, blobType] = BLOB_BY_PACKTYPE[(f.packFlag >> 3) & 15] ?? BLOB_BY_TYPE[f.type];
      const binary = charset === 'binary';
      return attrs(binary ? blobType : textType, binary ? blobType : textType, charset, binary ? '' : collation);
    }
    case T.JSON:
      return attrs('json', 'json', 'utf8mb4', 'utf8mb4_bin');
    case T.GEOMETRY: {
      const type = GEOMETRY_NAMES[f.geometryType] ?? 'geometry';
      return attrs(type, type);
    }
  }
  const name = { [T.DECIMAL]: 'a DECIMAL in the pre-5.0 format', [T.DATE]: 'a DATE in the pre-4.1 format', [T.VAR_STRING]: 'a VARCHAR in the pre-5.0 format', [T.BLOB_COMPRESSED]: 'a COMPRESSED column', [T.VARCHAR_COMPRESSED]: 'a COMPRESSED column' }[f.type];
  throw new Error(`column \`${f.name}\` is ${name ?? `of the unknown type code ${f.type}`}, which this reader does not decode`);
}

type Attrs = (type: ColumnType, typeText: string, charset?: string, collationName?: string) => Resolved;

function enumOrSet(f: FrmField, image: FrmImage, flavor: ServerFlavor, attrs: Attrs): Resolved {
  const c = collationOf(f.charsetId, flavor, `column \`${f.name}\``);
  const list = image.intervals[f.intervalNr - 1];
  if (!list) throw new Error(`column \`${f.name}\` uses ENUM/SET value list ${f.intervalNr}, which the .frm does not have`);
  // is it a SET? the type code says so in new files, pack_flag in old ones (FIELDFLAG_BITFIELD)
  const isSet = f.type === T.SET || (f.type !== T.ENUM && (f.packFlag & F.BITFIELD) !== 0 && (f.packFlag & F.INTERVAL) === 0);
  const values = list.map((bytes) => memberText(bytes, c.charset));
  const type: ColumnType = isSet ? 'set' : 'enum';
  const r = attrs(type, `${type}(${values.map(quoteMember).join(',')})`, c.charset, c.name);
  r.column.values = values;
  return r;
}

/** ENUM/SET members are kept in the column's charset, except ucs2/utf16/utf32 ones, kept in hex. */
function memberText(bytes: Uint8Array, charset: string): string {
  let raw = bytes;
  if (charsetInfo(charset).mbminlen > 1) {
    const hex = new TextDecoder().decode(bytes);
    raw = new Uint8Array(hex.length / 2);
    for (let i = 0; i < raw.length; i++) raw[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  }
  const decode = decoderFor(charset);
  return decode ? decode(raw, 0, raw.length) : new TextDecoder().decode(raw);
}

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
function nullBitOf(image: FrmImage): (number | null)[] {
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

function defaultText(r: Resolved, image: FrmImage, nullBit: number | null, flavor: ServerFlavor): string | null {
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

function keyKind(key: FrmKey, index: number): IndexDef['kind'] {
  if (index === 0 && key.name === 'PRIMARY') return 'primary';
  if (key.flags & K.FULLTEXT || key.algorithm === ALG.FULLTEXT) return 'fulltext';
  if (key.flags & K.SPATIAL) return 'spatial';
  return key.flags & K.NOSAME ? 'unique' : 'key';
}

const BLOB_LIKE = new Set<ColumnType>(['tinytext', 'text', 'mediumtext', 'longtext', 'tinyblob', 'blob', 'mediumblob', 'longblob']);

/** A key part shorter than its column is a prefix (in characters); TEXT/BLOB parts always are. */
function prefixChars(part: { length: number }, r: Resolved, kind: IndexDef['kind']): number {
  const c = r.column;
  if (kind === 'fulltext' || kind === 'spatial' || part.length === 0) return 0;
  const isString = BLOB_LIKE.has(c.type) || ['char', 'varchar', 'binary', 'varbinary'].includes(c.type);
  if (!isString || (!BLOB_LIKE.has(c.type) && part.length >= r.field.length)) return 0;
  return Math.floor(part.length / maxBytesPerChar(c.charset));
}

/** Row formats by row_type (enum row_type). */
const ROW_TYPES: Record<number, string> = { 1: 'FIXED', 2: 'DYNAMIC', 3: 'COMPRESSED', 4: 'REDUNDANT', 5: 'COMPACT', 6: 'PAGE' };
/** Engines by legacy_db_type, for files whose extra segment does not name it. */
const LEGACY_ENGINES: Record<number, string> = { 9: 'MyISAM', 12: 'InnoDB', 6: 'MEMORY', 17: 'CSV', 16: 'ARCHIVE', 19: 'BLACKHOLE', 27: 'Aria', 20: 'partition' };

/** Builds the table definition of a parsed .frm; `name` is the table name (from the file name). */
export function frmTableDef(image: FrmImage, name: string): FrmTableDef {
  const flavor: ServerFlavor = image.mysqlVersion >= 100000 ? 'mariadb' : 'mysql';
  const tableCollation = collationOf(image.tableCharsetId, flavor, `table \`${name}\``);
  const warnings: string[] = [];
  const engine = image.engine || LEGACY_ENGINES[image.legacyDbType] || 'InnoDB';
  if (engine.toLowerCase() !== 'innodb') warnings.push(`the table uses the ${engine} engine, not InnoDB: its rows are not in an .ibd file`);
  if (image.systemVersioning) warnings.push('the table is WITH SYSTEM VERSIONING: its history rows are decoded like current ones (their row end time is in the past)');
  if (image.partitionInfo) warnings.push('the table is partitioned; each partition\'s .ibd holds rows of these columns');
  const resolved = image.fields.map((f) => resolveField(f, image, flavor));
  const nullBits = nullBitOf(image);
  resolved.forEach((r, i) => { r.column.defaultSql = defaultText(r, image, nullBits[i], flavor); });

  const indexes: IndexDef[] = [];
  const keyLines: string[] = [];
  image.keys.forEach((key, k) => {
    const kind = keyKind(key, k);
    const parts: IndexColumn[] = [];
    const texts: string[] = [];
    for (const part of key.parts) {
      const r = resolved[part.field];
      if (!r) throw new Error(`key \`${key.name}\` names column number ${part.field + 1}, which the table does not have`);
      const prefix = key.algorithm === ALG.LONG_HASH ? 0 : prefixChars(part, r, kind);
      const descending = (part.flags & REVERSE_SORT) !== 0;
      parts.push({ name: r.column.name, prefix, descending });
      // the hidden ROW END the server appends to the keys of a versioned table is not printed
      if (r.field.invisible >= 2) continue;
      texts.push(`${quoteIdentifier(r.column.name)}${prefix ? `(${prefix})` : ''}${descending ? ' DESC' : ''}`);
    }
    // a long UNIQUE is enforced through a hash of a hidden virtual column: InnoDB holds no unique
    // index on these columns, so it cannot cluster on it
    indexes.push({ name: kind === 'primary' ? 'PRIMARY' : key.name, kind: key.algorithm === ALG.LONG_HASH ? 'key' : kind, columns: parts });
    keyLines.push(keyText(key, kind, texts));
  });

  const columns = resolved.filter((r) => !r.field.hashField).map((r) => r.column);
  const period = image.systemVersioning;
  const periodRole = (r: Resolved) => (!period ? null : r.field === image.fields[period.start] ? 'START' : r.field === image.fields[period.end] ? 'END' : null);
  const lines = resolved.filter((r) => !r.field.hashField && r.field.invisible < 2).map((r) => columnText(r, tableCollation, flavor, periodRole(r)));
  lines.push(...keyLines);
  if (period && image.fields[period.start].invisible < 2) {
    lines.push(`PERIOD FOR SYSTEM_TIME (${quoteIdentifier(image.fields[period.start].name)}, ${quoteIdentifier(image.fields[period.end].name)})`);
  }
  for (const check of image.checks) lines.push(`CONSTRAINT ${quoteIdentifier(check.name)} CHECK (${check.expr})`);
  const createSql = `CREATE TABLE ${quoteIdentifier(name)} (\n  ${lines.join(',\n  ')}\n) ${tableOptions(image, engine, tableCollation, flavor)}`;
  return {
    table: { name, columns, indexes, rowFormat: ROW_TYPES[image.rowType] ?? '', charset: tableCollation.charset, createSql },
    flavor, mysqlVersion: image.mysqlVersion, engine, warnings,
  };
}

function keyText(key: FrmKey, kind: IndexDef['kind'], parts: string[]): string {
  const head = kind === 'primary' ? 'PRIMARY KEY' : `${{ unique: 'UNIQUE KEY', key: 'KEY', fulltext: 'FULLTEXT KEY', spatial: 'SPATIAL KEY' }[kind]} ${quoteIdentifier(key.name)}`;
  let text = `${head} (${parts.join(',')})`;
  if (key.algorithm === ALG.BTREE) text += ' USING BTREE';
  else if (key.algorithm === ALG.HASH || key.algorithm === ALG.LONG_HASH) text += ' USING HASH';
  else if (key.algorithm === ALG.RTREE && kind !== 'spatial') text += ' USING RTREE';
  if (key.blockSize) text += ` KEY_BLOCK_SIZE=${key.blockSize}`;
  if (key.comment) text += ` COMMENT ${quoteString(key.comment)}`;
  if (key.ignored) text += ' IGNORED';
  return text;
}

/** One column line of SHOW CREATE TABLE; `rowPeriod`: the column is a versioned table's ROW START / ROW END. */
function columnText(r: Resolved, table: { name: string; charset: string }, flavor: ServerFlavor, rowPeriod: 'START' | 'END' | null): string {
  const { field: f, column: c } = r;
  let text = `${quoteIdentifier(c.name)} ${r.typeText}`;
  if (TEXT_TYPES.has(c.type) && c.charset !== 'binary') {
    if (flavor === 'mariadb') {
      if (r.collationName !== table.name) text += ` CHARACTER SET ${c.charset} COLLATE ${r.collationName}`;
    } else {
      const spelt = (s: string) => s.replace(/^utf8mb3(?=_|$)/, 'utf8');
      if (c.charset !== table.charset) text += ` CHARACTER SET ${spelt(c.charset)}`;
      if (r.collationName !== defaultCollation(c.charset, 'mysql', 0)) text += ` COLLATE ${spelt(r.collationName)}`;
    }
  }
  if (f.generated) {
    text += ` GENERATED ALWAYS AS (${f.generated.expr}) ${f.generated.stored ? 'STORED' : 'VIRTUAL'}`;
    if (c.invisible) text += ' INVISIBLE';
  } else {
    if (rowPeriod) text += ` GENERATED ALWAYS AS ROW ${rowPeriod}`;
    else if (!c.nullable) text += ' NOT NULL';
    else if (c.type === 'timestamp') text += ' NULL';
    if (c.invisible) text += ' INVISIBLE';
    if (c.defaultSql !== null && !rowPeriod) text += ` DEFAULT ${c.defaultSql}`;
    if (f.unversioned) text += ' WITHOUT SYSTEM VERSIONING';
    if (f.unireg === U.TIMESTAMP_UN || f.unireg === U.TIMESTAMP_DNUN) {
      text += ` ON UPDATE ${flavor === 'mariadb' ? `current_timestamp(${c.fsp || ''})` : `CURRENT_TIMESTAMP${c.fsp ? `(${c.fsp})` : ''}`}`;
    }
  }
  if (f.unireg === U.NEXT_NUMBER) text += ' AUTO_INCREMENT';
  if (c.comment) text += ` COMMENT ${quoteString(c.comment)}`;
  if (f.check !== null) text += ` CHECK (${f.check})`;
  return text;
}

/** HA_OPTION_* bits of db_create_options. */
const O = { PACK_KEYS: 2, CHECKSUM: 32, DELAY_KEY_WRITE: 64, NO_PACK_KEYS: 128, PAGE_CHECKSUM: 2048, STATS_PERSISTENT: 4096, NO_STATS_PERSISTENT: 8192 } as const;

function tableOptions(image: FrmImage, engine: string, collation: { name: string; charset: string }, flavor: ServerFlavor): string {
  const spelt = (s: string) => (flavor === 'mysql' ? s.replace(/^utf8mb3(?=_|$)/, 'utf8') : s);
  let text = `ENGINE=${engine} DEFAULT CHARSET=${spelt(collation.charset)}`;
  if (flavor === 'mariadb' || collation.name !== defaultCollation(collation.charset, 'mysql', 0)) text += ` COLLATE=${spelt(collation.name)}`;
  const o = image.createOptions;
  if (image.minRows) text += ` MIN_ROWS=${image.minRows}`;
  if (image.maxRows) text += ` MAX_ROWS=${image.maxRows}`;
  if (image.avgRowLength) text += ` AVG_ROW_LENGTH=${image.avgRowLength}`;
  if (o & O.PACK_KEYS) text += ' PACK_KEYS=1';
  if (o & O.NO_PACK_KEYS) text += ' PACK_KEYS=0';
  if (o & O.STATS_PERSISTENT) text += ' STATS_PERSISTENT=1';
  if (o & O.NO_STATS_PERSISTENT) text += ' STATS_PERSISTENT=0';
  if (image.statsAutoRecalc === 1) text += ' STATS_AUTO_RECALC=1';
  else if (image.statsAutoRecalc === 2) text += ' STATS_AUTO_RECALC=0';
  if (image.statsSamplePages) text += ` STATS_SAMPLE_PAGES=${image.statsSamplePages}`;
  if (o & O.CHECKSUM) text += ' CHECKSUM=1';
  if (o & O.DELAY_KEY_WRITE) text += ' DELAY_KEY_WRITE=1';
  if (ROW_TYPES[image.rowType]) text += ` ROW_FORMAT=${ROW_TYPES[image.rowType]}`;
  if (image.keyBlockSize) text += ` KEY_BLOCK_SIZE=${image.keyBlockSize}`;
  if (image.comment) text += ` COMMENT=${quoteString(image.comment)}`;
  if (image.systemVersioning) text += ' WITH SYSTEM VERSIONING';
  if (image.partitionInfo) text += `\n${image.partitionInfo.trim()}`;
  return text;
}
