/**
 * The field records of a .frm, turned into columns: the MYSQL_TYPE_* code, pack_flag and length of
 * each field give its type and size, its charset id its character set and collation, the interval
 * lists the members of ENUM and SET. Each column keeps the type text SHOW CREATE TABLE prints for it.
 */
import { charsetInfo, decoderFor } from '../../values/charset.ts';
import { collationById, type ServerFlavor } from '../../values/collations.ts';
import { quoteMember } from '../create-sql.ts';
import { maxBytesPerChar } from '../ddl/charsets.ts';
import type { Column, ColumnType } from '../../schema.ts';
import type { FrmField, FrmImage } from './frm-file.ts';

/** MYSQL_TYPE_* codes. */
export const T = {
  DECIMAL: 0, TINY: 1, SHORT: 2, LONG: 3, FLOAT: 4, DOUBLE: 5, TIMESTAMP: 7, LONGLONG: 8, INT24: 9, DATE: 10,
  TIME: 11, DATETIME: 12, YEAR: 13, NEWDATE: 14, VARCHAR: 15, BIT: 16, TIMESTAMP2: 17, DATETIME2: 18, TIME2: 19,
  BLOB_COMPRESSED: 140, VARCHAR_COMPRESSED: 141, JSON: 245, NEWDECIMAL: 246, ENUM: 247, SET: 248, TINY_BLOB: 249,
  MEDIUM_BLOB: 250, LONG_BLOB: 251, BLOB: 252, VAR_STRING: 253, STRING: 254, GEOMETRY: 255,
} as const;

/** pack_flag bits (field.h FIELDFLAG_*). */
export const F = {
  DECIMAL: 1, ZEROFILL: 4, INTERVAL: 256, BITFIELD: 512, TREAT_BIT_AS_CHAR: 4096, NO_DEFAULT: 16384, MAYBE_NULL: 32768,
} as const;
/** Decimals in pack_flag at or above this mean "not fixed" (FLOAT/DOUBLE without (M,D)). */
const NOT_FIXED_DEC = 31;

/** unireg_check values (Field::utype). */
export const U = { NEXT_NUMBER: 15, TIMESTAMP_DN: 21, TIMESTAMP_UN: 22, TIMESTAMP_DNUN: 23 } as const;

const INT_NAMES: Partial<Record<number, ColumnType>> = { [T.TINY]: 'tinyint', [T.SHORT]: 'smallint', [T.INT24]: 'mediumint', [T.LONG]: 'int', [T.LONGLONG]: 'bigint' };
export const GEOMETRY_NAMES: ColumnType[] = ['geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection'];
/** Blob sizes by f_packtype(pack_flag): the bytes of the length prefix, spelt as the type code of that size. */
const BLOB_BY_PACKTYPE: Record<number, [ColumnType, ColumnType]> = {
  1: ['tinytext', 'tinyblob'], 2: ['text', 'blob'], 9: ['mediumtext', 'mediumblob'], 3: ['longtext', 'longblob'],
};
const BLOB_BY_TYPE: Record<number, [ColumnType, ColumnType]> = {
  [T.TINY_BLOB]: BLOB_BY_PACKTYPE[1], [T.BLOB]: BLOB_BY_PACKTYPE[2], [T.MEDIUM_BLOB]: BLOB_BY_PACKTYPE[9], [T.LONG_BLOB]: BLOB_BY_PACKTYPE[3],
};
export const DATA_TYPE_PLUGINS = new Set<ColumnType>(['inet4', 'inet6', 'uuid', 'vector']);
export const TEXT_TYPES = new Set<ColumnType>(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set']);

export interface Resolved {
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
export function collationOf(id: number, flavor: ServerFlavor, what: string): { name: string; charset: string } {
  const c = collationById(id, flavor);
  if (!c) throw new Error(`${what} has the unknown collation id ${id}`);
  return c;
}

export function resolveField(f: FrmField, image: FrmImage, flavor: ServerFlavor): Resolved {
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
