/**
 * A MySQL 8 data dictionary table object (the JSON of an SDI record, `dd_object` of type "Table")
 * turned into the TableDef every schema source produces, plus the CREATE TABLE text MySQL's SHOW
 * CREATE TABLE would print for it.
 *
 * Column types come from dd::enum_column_types, lengths from char_length (bytes) and the charset of
 * the column's collation id; the hidden columns InnoDB adds (DB_ROW_ID, DB_TRX_ID, DB_ROLL_PTR,
 * FTS_DOC_ID, and the remains of instantly dropped columns) and the hidden virtual columns behind
 * functional key parts are left out, as SHOW CREATE TABLE leaves them out.
 */
import { maxBytesPerChar } from '../ddl/charsets.ts';
import { collationById, defaultCollation } from '../../values/collations.ts';
import { decoderFor } from '../../values/charset.ts';
import { quoteIdentifier, quoteString } from '../create-sql.ts';
import type { Column, ColumnType, IndexColumn, IndexDef, TableDef } from '../../schema.ts';

/** The parts of dd::Column's JSON this reader uses. */
export interface DdColumn {
  name: string;
  type: number;
  is_nullable: boolean;
  is_zerofill?: boolean;
  is_unsigned?: boolean;
  is_auto_increment?: boolean;
  is_virtual?: boolean;
  /** 1 visible, 2 hidden by the storage engine, 3 hidden by the SQL layer, 4 INVISIBLE (8.0.23+). */
  hidden: number;
  char_length: number;
  numeric_precision?: number;
  numeric_scale?: number;
  numeric_scale_null?: boolean;
  datetime_precision?: number;
  datetime_precision_null?: number | boolean;
  has_no_default?: boolean;
  default_value_utf8_null?: boolean;
  default_value_utf8?: string;
  default_option?: string;
  update_option?: string;
  comment?: string;
  generation_expression_utf8?: string;
  srs_id_null?: boolean;
  srs_id?: number;
  se_private_data?: string;
  column_type_utf8: string;
  elements?: { name: string; index: number }[];
  collation_id: number;
  is_explicit_collation?: boolean;
}

export interface DdIndexElement {
  column_opx: number;
  length: number;
  /** 1 undefined, 2 ascending, 3 descending. */
  order: number;
  hidden: boolean;
}

export interface DdIndex {
  name: string;
  hidden: boolean;
  /** InnoDB's `id=…;root=…;space_id=…;…`. */
  se_private_data?: string;
  /** 1 PRIMARY, 2 UNIQUE, 3 MULTIPLE, 4 FULLTEXT, 5 SPATIAL. */
  type: number;
  comment?: string;
  algorithm?: number;
  is_algorithm_explicit?: boolean;
  is_visible?: boolean;
  elements: DdIndexElement[];
}

/** A partition (or subpartition) of a partitioned table: its number, and its own B-trees' se_private_data. */
export interface DdPartition {
  name: string;
  number?: number;
  indexes?: { index_opx: number; se_private_data?: string }[];
  subpartitions?: DdPartition[];
}

export interface DdForeignKey {
  name: string;
  update_rule: number;
  delete_rule: number;
  referenced_table_schema_name: string;
  referenced_table_name: string;
  elements: { column_opx: number; referenced_column_name: string }[];
}

export interface DdCheckConstraint {
  name: string;
  /** 1 enforced, 2 not enforced. */
  state: number;
  check_clause_utf8: string;
}

export interface DdTable {
  name: string;
  mysql_version_id?: number;
  options?: string;
  se_private_data?: string;
  columns: DdColumn[];
  schema_ref?: string;
  engine?: string;
  comment?: string;
  row_format?: number;
  partition_type?: number;
  partition_expression_utf8?: string;
  partitions?: DdPartition[];
  indexes: DdIndex[];
  foreign_keys?: DdForeignKey[];
  check_constraints?: DdCheckConstraint[];
  collation_id: number;
}

/** A table read from SDI: its definition, the database it was in, and what it could not represent. */
export interface SdiTableDef {
  table: TableDef;
  schema: string;
  /** Server that wrote it (MySQL version id, e.g. 80018). */
  mysqlVersion: number;
  /** Things the definition cannot express that may make rows decode wrongly (instant ALTERs, ...). */
  warnings: string[];
  /**
   * The clustered index (InnoDB builds it first): its root page and index id, from the dictionary's
   * se_private_data. In a general tablespace or mysql.ibd this tells which B-tree is this table's.
   */
  clusteredIndex: { rootPage: number; indexId: bigint } | null;
  /** Every index's B-tree (hidden ones too, e.g. FTS_DOC_ID_INDEX), by name: root page and index id from se_private_data. */
  indexRoots: SdiIndexRoot[];
  /**
   * A partitioned table's partitions in order (`p0`, `p0#SP#p0sp0` as partitions.ts names them),
   * each with its own trees (its indexes' roots are the partition's, not the table's); null otherwise.
   */
  partitions: SdiPartition[] | null;
}

export interface SdiPartition {
  name: string;
  indexRoots: SdiIndexRoot[];
  /** Its tablespace's id (se_private_data space_id): which file is this partition's. */
  spaceId: number | null;
}

/** The partitions (subpartitions where there are) in their numbers' order. */
function sdiPartitions(dd: DdTable): SdiPartition[] | null {
  if (!dd.partitions || dd.partitions.length === 0) return null;
  const byNumber = (a: DdPartition, b: DdPartition) => (a.number ?? 0) - (b.number ?? 0);
  const of = (p: DdPartition, name: string): SdiPartition => {
    const space = Number(parseKeyValues(p.indexes?.[0]?.se_private_data).get('space_id'));
    const indexes = (p.indexes ?? []).flatMap((i) => (dd.indexes[i.index_opx] ? [{ ...dd.indexes[i.index_opx], se_private_data: i.se_private_data }] : []));
    return { name, indexRoots: sdiIndexRoots(indexes), spaceId: Number.isInteger(space) ? space : null };
  };
  return [...dd.partitions].sort(byNumber).flatMap((p) => {
    const subs = [...(p.subpartitions ?? [])].sort(byNumber);
    return subs.length === 0 ? [of(p, p.name)] : subs.map((s) => of(s, `${p.name}#SP#${s.name}`));
  });
}

export interface SdiIndexRoot {
  /** 'PRIMARY' for the primary key. */
  name: string;
  rootPage: number;
  indexId: bigint;
}

/** The B-trees `indexes` name in their se_private_data (id, root); those without one are left out. */
export function sdiIndexRoots(indexes: readonly DdIndex[]): SdiIndexRoot[] {
  const roots: SdiIndexRoot[] = [];
  for (const index of indexes) {
    const se = parseKeyValues(index.se_private_data);
    const rootPage = Number(se.get('root'));
    const id = se.get('id') ?? '';
    if (Number.isInteger(rootPage) && /^\d+$/.test(id)) roots.push({ name: index.type === 1 ? 'PRIMARY' : index.name, rootPage, indexId: BigInt(id) });
  }
  return roots;
}

/** dd::enum_column_types values. */
const DD = {
  DECIMAL: 1, TINY: 2, SHORT: 3, LONG: 4, FLOAT: 5, DOUBLE: 6, TYPE_NULL: 7, TIMESTAMP: 8, LONGLONG: 9,
  INT24: 10, DATE: 11, TIME: 12, DATETIME: 13, YEAR: 14, NEWDATE: 15, VARCHAR: 16, BIT: 17, TIMESTAMP2: 18,
  DATETIME2: 19, TIME2: 20, NEWDECIMAL: 21, ENUM: 22, SET: 23, TINY_BLOB: 24, MEDIUM_BLOB: 25, LONG_BLOB: 26,
  BLOB: 27, VAR_STRING: 28, STRING: 29, GEOMETRY: 30, JSON: 31, VECTOR: 32,
} as const;

const HIDDEN_VISIBLE = 1;
const HIDDEN_USER = 4;
const ELEMENT_WHOLE_COLUMN = 4294967295;

const TEXTS: ColumnType[] = ['tinytext', 'mediumtext', 'longtext', 'text'];
const BLOBS: ColumnType[] = ['tinyblob', 'mediumblob', 'longblob', 'blob'];
const GEOMETRY_TYPES = new Set<ColumnType>(['geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection']);

/** `key=value;` lists (options, se_private_data). */
export function parseKeyValues(text: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (text ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) out.set(part.slice(0, eq), part.slice(eq + 1));
  }
  return out;
}

function base64Bytes(text: string): Uint8Array {
  const bin = atob(text.replace(/\s+/g, ''));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The type as the server stores it, and why not when this reader cannot decode it. */
function columnType(c: DdColumn, charset: string): ColumnType {
  const binary = charset === 'binary';
  switch (c.type) {
    case DD.TINY: return 'tinyint';
    case DD.SHORT: return 'smallint';
    case DD.INT24: return 'mediumint';
    case DD.LONG: return 'int';
    case DD.LONGLONG: return 'bigint';
    case DD.NEWDECIMAL: return 'decimal';
    case DD.FLOAT: return 'float';
    case DD.DOUBLE: return 'double';
    case DD.BIT: return 'bit';
    case DD.NEWDATE: return 'date';
    case DD.TIME2: return 'time';
    case DD.DATETIME2: return 'datetime';
    case DD.TIMESTAMP2: return 'timestamp';
    case DD.YEAR: return 'year';
    case DD.VARCHAR: return binary ? 'varbinary' : 'varchar';
    case DD.STRING: return binary ? 'binary' : 'char';
    case DD.ENUM: return 'enum';
    case DD.SET: return 'set';
    case DD.TINY_BLOB: return binary ? 'tinyblob' : 'tinytext';
    case DD.BLOB: return binary ? 'blob' : 'text';
    case DD.MEDIUM_BLOB: return binary ? 'mediumblob' : 'mediumtext';
    case DD.LONG_BLOB: return binary ? 'longblob' : 'longtext';
    case DD.JSON: return 'json';
    case DD.VECTOR: return 'vector';
    case DD.GEOMETRY: {
      // the subtype is only in the type text: point, linestring, ... (geomcollection in 8.0)
      const word = c.column_type_utf8.toLowerCase().match(/^[a-z]+/)?.[0] ?? 'geometry';
      const type = (word === 'geomcollection' ? 'geometrycollection' : word) as ColumnType;
      return GEOMETRY_TYPES.has(type) ? type : 'geometry';
    }
    // the pre-5.6 formats of a table upgraded from MySQL 5.5 without ALTER TABLE … FORCE (legacyTemporal)
    case DD.TIME: return 'time';
    case DD.DATETIME: return 'datetime';
    case DD.TIMESTAMP: return 'timestamp';
    case DD.DATE:
      throw new Error(`column \`${c.name}\` is a DATE in the pre-MySQL 5.0 storage format, which this reader does not decode`);
    case DD.DECIMAL:
      throw new Error(`column \`${c.name}\` is a DECIMAL in the pre-MySQL 5.0 storage format, which this reader does not decode`);
    default:
      throw new Error(`column \`${c.name}\` has the unknown data dictionary type ${c.type} (${c.column_type_utf8})`);
  }
}

const NUMERIC_TYPES = new Set<ColumnType>(['tinyint', 'smallint', 'mediumint', 'int', 'bigint', 'decimal', 'float', 'double']);
const STRING_TYPES = new Set<ColumnType>(['char', 'varchar', 'binary', 'varbinary', ...TEXTS, ...BLOBS, 'enum', 'set']);

function toColumn(c: DdColumn): Column {
  const collation = collationById(c.collation_id, 'mysql');
  const charsetOfColumn = collation?.charset ?? 'binary';
  const stringLike = [DD.VARCHAR, DD.STRING, DD.ENUM, DD.SET, DD.TINY_BLOB, DD.BLOB, DD.MEDIUM_BLOB, DD.LONG_BLOB].includes(c.type as never);
  if (stringLike && collation === null) throw new Error(`column \`${c.name}\` has the unknown collation id ${c.collation_id}`);
  const type = columnType(c, stringLike ? charsetOfColumn : 'binary');
  const isText = stringLike && charsetOfColumn !== 'binary';
  const charset = type === 'json' ? 'utf8mb4' : isText ? charsetOfColumn : 'binary';
  // the dictionary marks YEAR unsigned zerofill too; only numbers can be declared so
  const numeric = NUMERIC_TYPES.has(type);
  const column: Column = {
    name: c.name, type, unsigned: c.is_unsigned === true && numeric, zerofill: c.is_zerofill === true && numeric, nullable: c.is_nullable,
    length: 0, precision: 0, scale: 0, fsp: 0, charset,
    collation: type === 'json' ? 'utf8mb4_bin' : isText && collation ? collation.name : '',
    // MySQL 8 keeps a table upgraded from 5.5 in the old formats: dd types TIME, DATETIME, TIMESTAMP.
    legacyTemporal: c.type === DD.TIME || c.type === DD.DATETIME || c.type === DD.TIMESTAMP,
    values: [], generated: null, invisible: c.hidden === HIDDEN_USER, defaultSql: defaultSql(c), comment: c.comment ?? '',
  };
  switch (type) {
    case 'char': case 'varchar': case 'binary': case 'varbinary':
      // char_length is in bytes: the declared length times the charset's widest character
      column.length = Math.round(c.char_length / maxBytesPerChar(charset));
      break;
    case 'bit':
      column.length = c.numeric_precision ?? c.char_length;
      break;
    case 'tinyint': case 'smallint': case 'mediumint': case 'int': case 'bigint': case 'year':
      // the display width, as the type text shows it (8.0.19+ drops it unless ZEROFILL)
      column.length = Number(/^\w+\((\d+)\)/.exec(c.column_type_utf8)?.[1] ?? 0);
      break;
    case 'vector':
      column.length = c.char_length / 4;
      break;
    case 'decimal':
      column.precision = c.numeric_precision ?? 10;
      column.scale = c.numeric_scale ?? 0;
      break;
    case 'float': case 'double':
      // FLOAT(M,D) / DOUBLE(M,D) keep M and D; plain FLOAT/DOUBLE have no scale
      if (c.numeric_scale_null === false) {
        column.precision = c.numeric_precision ?? 0;
        column.scale = c.numeric_scale ?? 0;
      }
      break;
    case 'time': case 'datetime': case 'timestamp':
      column.fsp = c.datetime_precision ?? 0;
      break;
    case 'enum': case 'set': {
      const decode = decoderFor(charset);
      column.values = [...(c.elements ?? [])].sort((a, b) => a.index - b.index).map((e) => {
        const bytes = base64Bytes(e.name);
        return decode ? decode(bytes, 0, bytes.length) : new TextDecoder().decode(bytes);
      });
      break;
    }
  }
  if (c.generation_expression_utf8) column.generated = c.is_virtual ? 'virtual' : 'stored';
  return column;
}

/** DEFAULT as SHOW CREATE TABLE prints it in MySQL 8, or null for none. */
function defaultSql(c: DdColumn): string | null {
  if (c.is_auto_increment || c.generation_expression_utf8) return null;
  const option = c.default_option ?? '';
  if (option) return /^CURRENT_TIMESTAMP(\(\d\))?$/i.test(option) ? option : `(${option})`;
  if (c.has_no_default) return null;
  if (c.default_value_utf8_null) return c.is_nullable ? 'NULL' : null;
  const value = c.default_value_utf8 ?? '';
  // BIT defaults are stored as the b'…' literal already
  return c.type === DD.BIT && /^b'[01]*'$/.test(value) ? value : quoteString(value);
}

/** The bytes an index element covers → a prefix length in characters, or 0 for the whole column. */
function prefixOf(element: DdIndexElement, c: DdColumn, column: Column | undefined, kind: IndexDef['kind']): number {
  if (!column || kind === 'fulltext' || kind === 'spatial' || !STRING_TYPES.has(column.type)) return 0;
  if (element.length === ELEMENT_WHOLE_COLUMN || element.length >= c.char_length) return 0;
  return Math.floor(element.length / maxBytesPerChar(column.charset));
}

const INDEX_KINDS: Record<number, IndexDef['kind']> = { 1: 'primary', 2: 'unique', 3: 'key', 4: 'fulltext', 5: 'spatial' };

/** Charset and collation names as the server that wrote the file spelt them (utf8 before 8.0.30). */
function spelling(name: string, version: number): string {
  return version < 80030 ? name.replace(/^utf8mb3(?=_|$)/, 'utf8') : name;
}

/** Turns one SDI table object into a table definition. Throws an Error naming what it cannot represent. */
export function sdiTableDef(dd: DdTable): SdiTableDef {
  const version = dd.mysql_version_id ?? 80000;
  const tableCollation = collationById(dd.collation_id, 'mysql');
  if (!tableCollation) throw new Error(`table \`${dd.name}\` has the unknown collation id ${dd.collation_id}`);
  const warnings: string[] = [];
  const columnsByOpx = new Map<number, { dd: DdColumn; column: Column | null }>();
  const columns: Column[] = [];
  dd.columns.forEach((c, opx) => {
    const visible = c.hidden === HIDDEN_VISIBLE || c.hidden === HIDDEN_USER;
    const column = visible ? toColumn(c) : null;
    if (column) columns.push(column);
    columnsByOpx.set(opx, { dd: c, column });
    const se = parseKeyValues(c.se_private_data);
    // Rows written before an instant ADD are decoded with the column's instant default, as the
    // server shows them (instant.ts), and the values of an instantly dropped column are left out as
    // it leaves them out: only a default the dictionary does not give makes them come out wrong.
    if (c.name.startsWith('!hidden!_dropped_') || se.has('version_dropped')) {
      warnings.push(`column \`${c.name}\` was dropped with ALGORITHM=INSTANT; rows written before the drop still hold its values, which are left out as the server leaves them out`);
    } else if (se.has('version_added') && !se.has('default_null') && !se.has('default')) {
      warnings.push(`column \`${c.name}\` was added with ALGORITHM=INSTANT, but the data dictionary gives no default for it: rows written before that show NULL in it`);
    }
  });
  const indexes: IndexDef[] = [];
  const keyTexts: string[] = [];
  for (const index of dd.indexes) {
    const kind = INDEX_KINDS[index.type];
    if (index.hidden || kind === undefined) continue;
    const parts: IndexColumn[] = [];
    const partTexts: string[] = [];
    for (const element of index.elements) {
      if (element.hidden) continue;
      const col = columnsByOpx.get(element.column_opx);
      if (!col) throw new Error(`key \`${index.name}\` names column number ${element.column_opx}, which the table does not have`);
      const descending = element.order === 3;
      if (col.column === null) {
        // a functional key part: a hidden virtual column holding the expression
        partTexts.push(`(${col.dd.generation_expression_utf8 ?? ''})${descending ? ' DESC' : ''}`);
        continue;
      }
      const prefix = prefixOf(element, col.dd, col.column, kind);
      parts.push({ name: col.column.name, prefix, descending });
      partTexts.push(`${quoteIdentifier(col.column.name)}${prefix ? `(${prefix})` : ''}${descending ? ' DESC' : ''}`);
    }
    if (parts.length > 0) indexes.push({ name: kind === 'primary' ? 'PRIMARY' : index.name, kind, columns: parts });
    keyTexts.push(keyText(index, kind, partTexts));
  }
  const rowFormat = ROW_FORMATS[dd.row_format ?? 0] ?? '';
  const name = dd.name;
  const createSql = createTableText(dd, columnsByOpx, keyTexts, tableCollation.name, version);
  if (dd.partition_type) warnings.push(`the table is partitioned; its PARTITION BY clause is not rebuilt (each partition's .ibd holds rows of these columns)`);
  const indexRoots = sdiIndexRoots(dd.indexes);
  const clustered = sdiIndexRoots(dd.indexes.slice(0, 1))[0];
  return {
    table: { name, columns, indexes, rowFormat, charset: tableCollation.charset, createSql },
    schema: dd.schema_ref ?? '',
    mysqlVersion: version,
    warnings,
    clusteredIndex: clustered === undefined ? null : { rootPage: clustered.rootPage, indexId: clustered.indexId },
    indexRoots,
    partitions: sdiPartitions(dd),
  };
}

/** dd::Table::enum_row_format. */
const ROW_FORMATS: Record<number, string> = { 1: 'FIXED', 2: 'DYNAMIC', 3: 'COMPRESSED', 4: 'REDUNDANT', 5: 'COMPACT', 6: 'PAGE' };

function keyText(index: DdIndex, kind: IndexDef['kind'], parts: string[]): string {
  const head = { primary: 'PRIMARY KEY', unique: `UNIQUE KEY ${quoteIdentifier(index.name)}`, key: `KEY ${quoteIdentifier(index.name)}`, fulltext: `FULLTEXT KEY ${quoteIdentifier(index.name)}`, spatial: `SPATIAL KEY ${quoteIdentifier(index.name)}` }[kind];
  // dd::Index::enum_index_algorithm: 2 BTREE, 3 RTREE, 4 HASH
  const using = index.is_algorithm_explicit ? { 2: ' USING BTREE', 3: ' USING RTREE', 4: ' USING HASH' }[index.algorithm ?? 0] ?? '' : '';
  const comment = index.comment ? ` COMMENT ${quoteString(index.comment)}` : '';
  const invisible = index.is_visible === false ? ' /*!80000 INVISIBLE */' : '';
  return `${head} (${parts.join(',')})${using}${comment}${invisible}`;
}

/** dd::Foreign_key::enum_rule. */
const FK_RULES: Record<number, string> = { 2: 'RESTRICT', 3: 'CASCADE', 4: 'SET NULL', 5: 'SET DEFAULT' };

function columnText(c: DdColumn, column: Column, tableCharset: string, version: number): string {
  // SHOW CREATE TABLE (with show_old_temporals) marks the pre-5.6 formats so; the DDL parser reads the mark
  let text = `${quoteIdentifier(column.name)} ${c.column_type_utf8}${column.legacyTemporal ? ' /* 5.5 binary format */' : ''}`;
  if (column.charset !== 'binary' && column.type !== 'json') {
    // sql_show.cc: the charset when it is not the table's or was named, the collation when it is not
    // the charset's default or was named
    const explicit = c.is_explicit_collation === true;
    if (column.charset !== tableCharset || explicit) text += ` CHARACTER SET ${spelling(column.charset, version)}`;
    if (explicit || column.collation !== defaultCollation(column.charset, 'mysql', version)) text += ` COLLATE ${spelling(column.collation, version)}`;
  }
  if (c.srs_id_null === false && c.srs_id !== undefined) text += ` /*!80003 SRID ${c.srs_id} */`;
  if (c.generation_expression_utf8) {
    text += ` GENERATED ALWAYS AS (${c.generation_expression_utf8}) ${c.is_virtual ? 'VIRTUAL' : 'STORED'}`;
  }
  if (!c.is_nullable) text += ' NOT NULL';
  else if (column.type === 'timestamp') text += ' NULL';
  if (column.defaultSql !== null) text += ` DEFAULT ${column.defaultSql}`;
  if (c.update_option) text += ` ON UPDATE ${c.update_option}`;
  if (c.is_auto_increment) text += ' AUTO_INCREMENT';
  if (column.comment) text += ` COMMENT ${quoteString(column.comment)}`;
  if (column.invisible) text += ' /*!80023 INVISIBLE */';
  return text;
}

function createTableText(
  dd: DdTable,
  byOpx: Map<number, { dd: DdColumn; column: Column | null }>,
  keys: string[],
  tableCollation: string,
  version: number,
): string {
  const tableCharset = collationById(dd.collation_id, 'mysql')?.charset ?? '';
  const lines: string[] = [];
  for (const { dd: c, column } of byOpx.values()) if (column) lines.push(columnText(c, column, tableCharset, version));
  lines.push(...keys);
  for (const fk of dd.foreign_keys ?? []) {
    const cols = fk.elements.map((e) => quoteIdentifier(byOpx.get(e.column_opx)?.dd.name ?? `#${e.column_opx}`)).join(', ');
    const refs = fk.elements.map((e) => quoteIdentifier(e.referenced_column_name)).join(', ');
    const table = (fk.referenced_table_schema_name && fk.referenced_table_schema_name !== dd.schema_ref ? `${quoteIdentifier(fk.referenced_table_schema_name)}.` : '') + quoteIdentifier(fk.referenced_table_name);
    let text = `CONSTRAINT ${quoteIdentifier(fk.name)} FOREIGN KEY (${cols}) REFERENCES ${table} (${refs})`;
    if (FK_RULES[fk.delete_rule]) text += ` ON DELETE ${FK_RULES[fk.delete_rule]}`;
    if (FK_RULES[fk.update_rule]) text += ` ON UPDATE ${FK_RULES[fk.update_rule]}`;
    lines.push(text);
  }
  for (const check of dd.check_constraints ?? []) {
    lines.push(`CONSTRAINT ${quoteIdentifier(check.name)} CHECK (${check.check_clause_utf8})${check.state === 2 ? ' /*!80016 NOT ENFORCED */' : ''}`);
  }
  const options = parseKeyValues(dd.options);
  let tail = `ENGINE=${dd.engine || 'InnoDB'}`;
  tail += ` DEFAULT CHARSET=${spelling(tableCharset, version)} COLLATE=${spelling(tableCollation, version)}`;
  const rowType = Number(options.get('row_type') ?? 0);
  if (ROW_FORMATS[rowType]) tail += ` ROW_FORMAT=${ROW_FORMATS[rowType]}`;
  const keyBlockSize = Number(options.get('key_block_size') ?? 0);
  if (keyBlockSize) tail += ` KEY_BLOCK_SIZE=${keyBlockSize}`;
  if (dd.comment) tail += ` COMMENT=${quoteString(dd.comment)}`;
  if (dd.partition_type) tail += `\n/* partitioned${dd.partition_expression_utf8 ? ` by (${dd.partition_expression_utf8})` : ''}: the PARTITION BY clause is not rebuilt */`;
  return `CREATE TABLE ${quoteIdentifier(dd.name)} (\n  ${lines.join(',\n  ')}\n) ${tail}`;
}
