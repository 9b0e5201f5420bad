/**
 * A column as the InnoDB data dictionary keeps it (a SYS_COLUMNS row: MTYPE, PRTYPE, LEN; data0type.h)
 * turned into the table model's Column. MTYPE is InnoDB's storage type (DATA_INT, DATA_VARMYSQL …);
 * PRTYPE holds the server's field type in its low byte (MYSQL_TYPE_*), the flags NOT NULL, UNSIGNED,
 * BINARY, "true VARCHAR", VIRTUAL (and MariaDB's system-versioning ROW START / ROW END) above it, and
 * the collation id in its high 16 bits; LEN is the stored size in bytes (a maximum for variable
 * ones; for TEXT and BLOB, 8 plus the size of the length the server keeps).
 *
 * What that does not keep, and how such a column is read here (`note` says it per column):
 *  - ENUM and SET: stored as an unsigned integer with the field type STRING, and nothing tells the
 *    two apart nor keeps their members: the number stored is shown (an ENUM's index, a SET's bitmap);
 *  - DECIMAL: only its packed size; no precision nor scale, so its bytes are shown as hex;
 *  - TIME, DATETIME, TIMESTAMP: fractional digits only by pairs (one byte holds two): the even
 *    precision is shown (a DATETIME(3) value shows a fourth, trailing zero digit);
 *  - BIT(M): M only to a whole byte; FLOAT(M,D) / DOUBLE(M,D): no M nor D; GEOMETRY: no subtype;
 *  - MariaDB's UUID and INET6 (16 bytes each) cannot be told apart: shown as their bytes;
 *  - defaults, comments, AUTO_INCREMENT, generated columns' expressions, CHECK constraints.
 * Names and NULLs, signedness, character sets and collations, string lengths are exact.
 */
import type { Column, ColumnType } from '../../schema.ts';
import { charsetInfo } from '../../values/charset.ts';
import { collationById, type ServerFlavor } from '../../values/collations.ts';
import { decimalSize } from '../../values/decimal.ts';
import { enumSize, setSize } from '../../values/enum-set.ts';

/** InnoDB storage types (data0type.h DATA_*). */
const M = {
  VARCHAR: 1, CHAR: 2, FIXBINARY: 3, BINARY: 4, BLOB: 5, INT: 6, FLOAT: 9, DOUBLE: 10, DECIMAL: 11,
  VARMYSQL: 12, MYSQL: 13, GEOMETRY: 14, POINT: 15, VAR_POINT: 16,
} as const;

/** PRTYPE flags. */
export const PRTYPE = { NOT_NULL: 256, UNSIGNED: 512, BINARY: 1024, VIRTUAL: 8192 } as const;

/** Server field types (MYSQL_TYPE_*) of PRTYPE's low byte that change how a column is read. */
const T = {
  DATE: 10, TIME: 11, DATETIME: 12, YEAR: 13, NEWDATE: 14, TIMESTAMP: 7, BIT: 16, JSON: 245, NEWDECIMAL: 246,
  STRING: 254, GEOMETRY: 255, VARCHAR_COMPRESSED: 141, BLOB_COMPRESSED: 140,
} as const;

/** A SYS_COLUMNS row. */
export interface SysColumn {
  tableId: bigint;
  /** The column's place among the stored columns; for a virtual one, (n + 1) << 16 | its place in the table. */
  pos: number;
  name: string;
  mtype: number;
  prtype: number;
  len: number;
}

/** A column rebuilt from the dictionary, with what the dictionary does not say about it (or null). */
export interface DictColumn {
  column: Column;
  note: string | null;
  /** PRTYPE's server field type (MYSQL_TYPE_*; 0 for InnoDB's own columns). */
  fieldType: number;
}

/** A Column with nothing set but its name and type (what a schema source fills in). */
export function plainColumn(name: string, type: ColumnType, more: Partial<Column> = {}): Column {
  return {
    name, type, unsigned: false, zerofill: false, nullable: true, length: 0, precision: 0, scale: 0, fsp: 0,
    charset: 'binary', collation: '', values: [], generated: null, invisible: false, legacyTemporal: false,
    defaultSql: null, comment: '', ...more,
  };
}

const INT_TYPES: Record<number, ColumnType> = { 1: 'tinyint', 2: 'smallint', 3: 'mediumint', 4: 'int', 8: 'bigint' };
const TEXT_SIZES: ColumnType[] = ['tinytext', 'text', 'mediumtext', 'longtext'];
const BLOB_SIZES: ColumnType[] = ['tinyblob', 'blob', 'mediumblob', 'longblob'];

/** The collation of PRTYPE's high bits: 0 (columns of InnoDB's own tables, servers before 4.1) is latin1. */
function collationOf(prtype: number, flavor: ServerFlavor): { charset: string; collation: string } {
  const id = (prtype >>> 16) & 0x7fff;
  if (id === 0) return { charset: 'latin1', collation: '' };
  const found = collationById(id, flavor) ?? collationById(id, flavor === 'mysql' ? 'mariadb' : 'mysql');
  return found ? { charset: found.charset, collation: found.name } : { charset: 'binary', collation: '' };
}

interface Typed {
  type: ColumnType;
  more?: Partial<Column>;
  note?: string;
}

/** The Column of a SYS_COLUMNS row; `flavor` names collation ids where MySQL and MariaDB differ. */
export function dictColumn(row: SysColumn, flavor: ServerFlavor): DictColumn {
  const { charset, collation } = collationOf(row.prtype, flavor);
  const binary = charset === 'binary' || (row.prtype & PRTYPE.BINARY) !== 0;
  const typed = typeOf(row, binary ? 'binary' : charset);
  const text = isText(typed.type) && !binary;
  // InnoDB's own tables (SYS_FOREIGN, SYS_VIRTUAL …, no server field type) write integers as they are, sign bit unflipped
  const raw = row.mtype === M.INT && (row.prtype & 0xff) === 0;
  const column = plainColumn(row.name, typed.type, {
    nullable: (row.prtype & PRTYPE.NOT_NULL) === 0,
    unsigned: ((row.prtype & PRTYPE.UNSIGNED) !== 0 || raw) && isNumeric(typed.type),
    charset: text ? charset : 'binary',
    collation: text ? collation : '',
    generated: (row.prtype & PRTYPE.VIRTUAL) !== 0 ? 'virtual' : null,
    ...typed.more,
  });
  const notes = [typed.note, column.generated ? 'a virtual column: its expression is not in the dictionary' : undefined].filter((n) => n !== undefined);
  return { column, note: notes.length > 0 ? notes.join('; ') : null, fieldType: row.prtype & 0xff };
}

const NUMERIC = new Set<ColumnType>(['tinyint', 'smallint', 'mediumint', 'int', 'bigint', 'float', 'double', 'decimal']);
const TEXTS = new Set<ColumnType>(['char', 'varchar', ...TEXT_SIZES]);
const isNumeric = (t: ColumnType) => NUMERIC.has(t);
const isText = (t: ColumnType) => TEXTS.has(t);

/** The type of a row, by its storage type first (InnoDB's own tables leave the field type 0). */
function typeOf(row: SysColumn, charset: string): Typed {
  const field = row.prtype & 0xff;
  const chars = (bytes: number) => Math.floor(bytes / charsetInfo(charset).mbmaxlen);
  switch (row.mtype) {
    case M.VARCHAR:
    case M.VARMYSQL:
      return { type: 'varchar', more: { length: chars(row.len) } };
    case M.CHAR:
    case M.MYSQL:
      return { type: 'char', more: { length: chars(row.len) } };
    case M.BINARY:
      return field === T.VARCHAR_COMPRESSED ? { type: 'varbinary', more: { length: row.len }, note: 'a COMPRESSED column: shown as its stored (compressed) bytes' } : { type: 'varbinary', more: { length: row.len } };
    case M.FIXBINARY: return fixedBinary(row);
    case M.BLOB: return blobType(row, charset);
    case M.INT: return intType(row);
    case M.FLOAT: return { type: 'float', note: 'FLOAT(M,D) is not in the dictionary: shown in full' };
    case M.DOUBLE: return { type: 'double' };
    case M.DECIMAL:
      return { type: 'char', more: { length: row.len }, note: 'a DECIMAL of MySQL 4.1 or earlier (digits stored as text): shown as that text' };
    case M.GEOMETRY:
    case M.POINT:
    case M.VAR_POINT:
      return { type: 'geometry', note: 'the dictionary keeps no geometry subtype (POINT, POLYGON …)' };
    default:
      return { type: 'varbinary', more: { length: row.len }, note: `storage type ${row.mtype} is unknown: shown as its bytes` };
  }
}

/** Bytes of the fraction of TIME2, DATETIME2 and TIMESTAMP2 → the even precision they can hold. */
function evenFsp(fracBytes: number): { fsp: number; note?: string } {
  const fsp = Math.min(6, 2 * fracBytes);
  return fsp === 0 ? { fsp } : { fsp, note: `fractional digits are kept by pairs: ${fsp - 1} or ${fsp}; shown with ${fsp}` };
}

/** DATA_FIXBINARY: DECIMAL, the current temporal formats, BIT, BINARY, and MariaDB's UUID and INET types. */
function fixedBinary(row: SysColumn): Typed {
  const field = row.prtype & 0xff;
  const temporal = (type: ColumnType, base: number): Typed => {
    const { fsp, note } = evenFsp(row.len - base);
    return { type, more: { fsp }, note };
  };
  switch (field) {
    case T.NEWDECIMAL:
      return { type: 'binary', more: { length: row.len }, note: `a DECIMAL of ${row.len} bytes: its precision and scale are not in the dictionary, so its packed bytes are shown as hex (give the table's CREATE TABLE with --schema to read the numbers)` };
    case T.TIME: return temporal('time', 3);
    case T.DATETIME: return temporal('datetime', 5);
    case T.TIMESTAMP: return temporal('timestamp', 4);
    case T.BIT: return { type: 'bit', more: { length: 8 * row.len }, note: row.len > 0 ? `BIT(M) is kept to the byte: BIT(${8 * row.len - 7}..${8 * row.len})` : undefined };
  }
  const charsetBinary = ((row.prtype >>> 16) & 0x7fff) === 63 || (row.prtype & PRTYPE.BINARY) !== 0;
  if (field === T.STRING && !charsetBinary) {
    if (row.len === 4) return { type: 'inet4' };
    return { type: 'binary', more: { length: row.len }, note: `a MariaDB data type of ${row.len} bytes (UUID or INET6: the dictionary does not say which): shown as its bytes` };
  }
  return { type: 'binary', more: { length: row.len } };
}

/** DATA_BLOB: TEXT/BLOB by the size of their length (LEN − 8), JSON of MySQL 5.7, GEOMETRY of MySQL 5.6. */
function blobType(row: SysColumn, charset: string): Typed {
  const field = row.prtype & 0xff;
  if (field === T.GEOMETRY) return { type: 'geometry', note: 'the dictionary keeps no geometry subtype (POINT, POLYGON …)' };
  if (field === T.JSON) return { type: 'json' };
  const size = row.len >= 9 && row.len <= 12 ? row.len - 9 : 3;
  const type = (charset === 'binary' ? BLOB_SIZES : TEXT_SIZES)[size];
  return field === T.BLOB_COMPRESSED ? { type: BLOB_SIZES[size], note: 'a COMPRESSED column: shown as its stored (compressed) bytes' } : { type };
}

/**
 * The precision of the formats before MySQL 5.6 by their size: MySQL 5.5's TIME (3 bytes) and
 * DATETIME (8), MariaDB 5.3's TIME(n) and DATETIME(n), the largest n of each size (an 8-byte
 * DATETIME is taken as 5.5's, not as DATETIME(6)).
 */
const LEGACY_TIME_FSP: Record<number, number> = { 3: 0, 4: 2, 5: 5, 6: 6 };
const LEGACY_DATETIME_FSP: Record<number, number> = { 8: 0, 6: 2, 7: 5 };

/**
 * DATA_INT: integers by their size, DATE, YEAR, the temporal formats before MySQL 5.6 and MariaDB
 * 10.1, and ENUM/SET (field type STRING): their stored number.
 */
function intType(row: SysColumn): Typed {
  const field = row.prtype & 0xff;
  const legacy = (type: ColumnType, fsp: number): Typed => ({ type, more: { fsp, legacyTemporal: true }, note: 'a temporal column in the format before MySQL 5.6' });
  switch (field) {
    case T.DATE:
    case T.NEWDATE: return { type: 'date' };
    case T.YEAR: return { type: 'year', more: { length: 4 } };
    case T.TIME: return legacy('time', LEGACY_TIME_FSP[row.len] ?? 0);
    case T.DATETIME: return legacy('datetime', LEGACY_DATETIME_FSP[row.len] ?? 0);
    case T.TIMESTAMP: return legacy('timestamp', evenFsp(row.len - 4).fsp);
  }
  const type = INT_TYPES[row.len] ?? 'bigint';
  if (field === T.STRING) {
    return { type, note: 'an ENUM or a SET (the dictionary keeps neither their members nor which): shown as the number stored, an ENUM\'s index or a SET\'s bitmap' };
  }
  return { type };
}

const GEOMETRIES = new Set<ColumnType>(['point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection']);

/**
 * A column of another source (a .frm, a CREATE TABLE) as the dictionary would keep it: what is left
 * once the dictionary's losses are applied (an ENUM is its stored integer, a DECIMAL its bytes, a
 * fraction its even number of digits …), so that comparing it with the dictionary's own column shows
 * only real differences.
 */
export function asDictionaryKeeps(c: Column): Column {
  const int = (bytes: number): Column => ({ ...c, type: INT_TYPES[bytes], unsigned: true, values: [], charset: 'binary', collation: '' });
  switch (c.type) {
    case 'enum': return int(enumSize(c.values.length));
    case 'set': return int(setSize(c.values.length));
    case 'decimal': return { ...c, type: 'binary', length: decimalSize(c.precision, c.scale), precision: 0, scale: 0, unsigned: false, zerofill: false };
    case 'time':
    case 'datetime':
    case 'timestamp': return c.legacyTemporal ? c : { ...c, fsp: Math.min(6, 2 * Math.ceil(c.fsp / 2)) };
    case 'bit': return { ...c, length: 8 * Math.ceil(Math.max(1, c.length) / 8) };
    case 'float':
    case 'double': return { ...c, precision: 0, scale: 0 };
    case 'uuid':
    case 'inet6': return { ...c, type: 'binary', length: 16 };
    case 'bool': return { ...c, type: 'tinyint' };
    default: return GEOMETRIES.has(c.type) ? { ...c, type: 'geometry' } : c;
  }
}
