/**
 * Column types of a CREATE TABLE: the type keywords and their synonyms, the arguments after a type
 * ((M), (M,D), (fsp), ENUM/SET lists), and — once the table options are known — the type, character
 * set and collation the server settles on (CHARACTER SET binary turns text types into their binary
 * twins, TEXT(M) / BLOB(M) pick the smallest type that holds M).
 */
import type { Column, ColumnType } from '../../schema.ts';
import { charsetOfCollation, maxBytesPerChar, normaliseCharset, normaliseCollation } from './charsets.ts';
import { inlineKey, type IndexDraft } from './keys.ts';
import type { TokenCursor } from './token-cursor.ts';

/** Type keywords and the type they declare; multi-word spellings are finished by `typeSynonym`. */
const TYPE_KEYWORDS = new Map<string, ColumnType>(Object.entries({
  tinyint: 'tinyint', int1: 'tinyint', smallint: 'smallint', int2: 'smallint',
  mediumint: 'mediumint', int3: 'mediumint', middleint: 'mediumint',
  int: 'int', integer: 'int', int4: 'int', bigint: 'bigint', int8: 'bigint', serial: 'bigint',
  decimal: 'decimal', dec: 'decimal', numeric: 'decimal', fixed: 'decimal',
  float: 'float', float4: 'float', double: 'double', float8: 'double', real: 'double',
  bit: 'bit', bool: 'bool', boolean: 'bool',
  date: 'date', time: 'time', datetime: 'datetime', timestamp: 'timestamp', year: 'year',
  char: 'char', character: 'char', nchar: 'char', national: 'char',
  varchar: 'varchar', varcharacter: 'varchar', nvarchar: 'varchar',
  binary: 'binary', varbinary: 'varbinary',
  tinytext: 'tinytext', text: 'text', mediumtext: 'mediumtext', longtext: 'longtext', long: 'mediumtext',
  tinyblob: 'tinyblob', blob: 'blob', mediumblob: 'mediumblob', longblob: 'longblob',
  enum: 'enum', set: 'set', json: 'json',
  geometry: 'geometry', point: 'point', linestring: 'linestring', polygon: 'polygon',
  multipoint: 'multipoint', multilinestring: 'multilinestring', multipolygon: 'multipolygon',
  geometrycollection: 'geometrycollection', geomcollection: 'geometrycollection',
  inet4: 'inet4', inet6: 'inet6', uuid: 'uuid', vector: 'vector',
} satisfies Record<string, ColumnType>));

/** Types that hold text in a character set; every other type stores bytes or numbers. */
const TEXT_TYPES = new Set<ColumnType>(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'enum', 'set']);

/** What a text type is with CHARACTER SET binary: the server rewrites the type so. */
const BINARY_TWIN = new Map<ColumnType, ColumnType>([
  ['char', 'binary'], ['varchar', 'varbinary'], ['tinytext', 'tinyblob'],
  ['text', 'blob'], ['mediumtext', 'mediumblob'], ['longtext', 'longblob'],
]);

const SIZED_FAMILIES: Partial<Record<ColumnType, ColumnType[]>> = {
  text: ['tinytext', 'text', 'mediumtext', 'longtext'],
  blob: ['tinyblob', 'blob', 'mediumblob', 'longblob'],
};

/**
 * A column as written, before the table options (which follow the columns) settle its charset:
 * `charset` and `collation` hold the column's own CHARACTER SET / COLLATE, '' when absent.
 */
export interface ColumnDraft extends Column {
  /** Offset of the column name, for messages. */
  at: number;
  /** The BINARY attribute of text types: the `_bin` collation of the column's charset. */
  binaryCollation: boolean;
  /** M of TEXT(M) / BLOB(M), which picks the smallest type of the family that holds M characters. */
  sizedLength: number | null;
  /** MariaDB system versioning: GENERATED ALWAYS AS ROW START / ROW END. */
  rowPeriod: 'start' | 'end' | null;
}

/**
 * The type after the column name `name` (at offset `at`), with its arguments: the draft the
 * attributes then fill in. SERIAL declares a key: it is added to `keys`.
 */
export function readColumnType(p: TokenCursor, name: string, at: number, keys: IndexDraft[]): ColumnDraft {
  const token = p.peek();
  const keyword = token.kind === 'word' ? token.text.toLowerCase() : '';
  const type = TYPE_KEYWORDS.get(keyword);
  if (type === undefined) p.fail(`a column type after \`${name}\``);
  p.skip();
  const column: ColumnDraft = {
    name, type, unsigned: false, zerofill: false, nullable: true, length: 0, precision: 0, scale: 0, fsp: 0,
    charset: '', collation: '', values: [], generated: null, invisible: false, defaultSql: null, comment: '',
    at, binaryCollation: false, sizedLength: null, legacyTemporal: false, rowPeriod: null,
  };
  typeSynonym(p, keyword, column, keys);
  if (type === 'enum' || type === 'set') column.values = valueList(p, name);
  else typeArguments(p, column);
  column.legacyTemporal = (type === 'time' || type === 'datetime' || type === 'timestamp') && legacyMarkFollows(p);
  return column;
}

/** Whether the comment right after the type marks the pre-5.6 temporal storage format. */
function legacyMarkFollows(p: TokenCursor): boolean {
  const gap = p.sql.slice(p.previous().end, p.peek().start);
  return /\/\*\s*(mariadb-5\.3|5\.5 binary format)\s*\*\//i.test(gap);
}

/** Finishes multi-word type names and the synonyms that say more than a type. */
function typeSynonym(p: TokenCursor, keyword: string, column: ColumnDraft, keys: IndexDraft[]): void {
  switch (keyword) {
    case 'double':
      p.acceptWord('PRECISION');
      break;
    case 'char':
    case 'character':
      if (p.acceptWord('VARYING')) column.type = 'varchar';
      break;
    case 'national': {
      const varchar = p.atWord('VARCHAR', 'VARCHARACTER');
      p.expectWord('CHAR', 'CHARACTER', 'VARCHAR', 'VARCHARACTER');
      if (p.acceptWord('VARYING') || varchar) column.type = 'varchar';
      column.charset = 'utf8mb3';
      break;
    }
    case 'nchar':
      if (p.acceptWord('VARCHAR', 'VARCHARACTER', 'VARYING')) column.type = 'varchar';
      column.charset = 'utf8mb3';
      break;
    case 'nvarchar':
      column.charset = 'utf8mb3';
      break;
    case 'long':
      longType(p, column);
      break;
    case 'serial': // BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE
      column.unsigned = true;
      column.nullable = false;
      keys.push(inlineKey('unique', column));
      break;
  }
}

/** LONG, LONG VARCHAR, LONG CHAR VARYING (MEDIUMTEXT) and LONG VARBINARY (MEDIUMBLOB). */
function longType(p: TokenCursor, column: ColumnDraft): void {
  if (p.acceptWord('VARBINARY')) column.type = 'mediumblob';
  else if (p.acceptWord('VARCHAR', 'VARCHARACTER')) return;
  else if (p.atWord('CHAR', 'CHARACTER') && p.isWord(p.peek(1), ['VARYING'])) p.skip(2);
}

function valueList(p: TokenCursor, name: string): string[] {
  p.expectPunct('(', `\`(\` and the values of \`${name}\``);
  const values: string[] = [];
  do values.push(p.stringLiteral(`a quoted value in the list of \`${name}\``));
  while (p.acceptPunct(','));
  p.expectPunct(')', `a \`,\` or \`)\` in the list of \`${name}\``);
  return values;
}

/** (M), (M,D), (p) or (fsp) after the type. */
function typeArguments(p: TokenCursor, column: ColumnDraft): void {
  const numbers: number[] = [];
  if (p.acceptPunct('(')) {
    do numbers.push(p.integer(`a number in the size of \`${column.name}\``));
    while (p.acceptPunct(','));
    p.expectPunct(')', `a \`,\` or \`)\` in the size of \`${column.name}\``);
  } else if (column.type === 'varchar' || column.type === 'varbinary') {
    p.fail(`\`(\` and a length after the type of \`${column.name}\``);
  }
  applyTypeArguments(column, numbers);
}

function applyTypeArguments(column: ColumnDraft, [first, second]: number[]): void {
  switch (column.type) {
    case 'tinyint':
    case 'smallint':
    case 'mediumint':
    case 'int':
    case 'bigint':
    case 'year':
      // The display width: only ZEROFILL (and YEAR(2)) change what SELECT shows.
      column.length = first ?? 0;
      break;
    case 'decimal':
      column.precision = first ?? 10;
      column.scale = second ?? 0;
      break;
    case 'float':
    case 'double':
      if (second !== undefined) {
        column.precision = first;
        column.scale = second;
      } else if (first > 24) {
        column.type = 'double'; // FLOAT(p) means DOUBLE from p = 25 on
      }
      break;
    case 'time':
    case 'datetime':
    case 'timestamp':
      column.fsp = first ?? 0;
      break;
    case 'char':
    case 'binary':
    case 'bit':
      column.length = first ?? 1;
      break;
    case 'varchar':
    case 'varbinary':
      column.length = first;
      break;
    case 'vector':
      column.length = first ?? 2048;
      break;
    case 'text':
    case 'blob':
      column.sizedLength = first ?? null;
      break;
  }
}

/** Settles type, charset and collation from the column's own clauses and the table defaults. */
export function resolveColumn(draft: ColumnDraft, table: { charset: string; collation: string }): Column {
  const { type, charset, collation } = storage(draft, table);
  return {
    name: draft.name, type, unsigned: draft.unsigned, zerofill: draft.zerofill, nullable: draft.nullable,
    length: draft.length, precision: draft.precision, scale: draft.scale, fsp: draft.fsp, charset, collation,
    values: draft.values, generated: draft.generated, invisible: draft.invisible, defaultSql: draft.defaultSql,
    comment: draft.comment, legacyTemporal: draft.legacyTemporal,
  };
}

function storage(draft: ColumnDraft, table: { charset: string; collation: string }): Pick<Column, 'type' | 'charset' | 'collation'> {
  // MySQL stores JSON in its own binary format, MariaDB as utf8mb4_bin text: utf8mb4 is right for both
  if (draft.type === 'json') return { type: 'json', charset: 'utf8mb4', collation: 'utf8mb4_bin' };
  if (!TEXT_TYPES.has(draft.type)) return { type: sizedType(draft.type, draft.sizedLength), charset: 'binary', collation: '' };
  const charset = normaliseCharset(draft.charset) || charsetOfCollation(draft.collation) || table.charset;
  if (charset === 'binary') {
    return { type: sizedType(BINARY_TWIN.get(draft.type) ?? draft.type, draft.sizedLength), charset, collation: '' };
  }
  const collation = draft.collation ? normaliseCollation(draft.collation)
    : draft.binaryCollation ? `${charset}_bin`
    : charset === table.charset ? table.collation : '';
  const bytes = draft.sizedLength === null ? null : draft.sizedLength * maxBytesPerChar(charset);
  return { type: sizedType(draft.type, bytes), charset, collation };
}

/** TEXT(M) / BLOB(M): the smallest type of the family that holds M bytes. */
function sizedType(type: ColumnType, bytes: number | null): ColumnType {
  const family = SIZED_FAMILIES[type];
  if (!family || bytes === null) return type;
  return family[bytes < 2 ** 8 ? 0 : bytes < 2 ** 16 ? 1 : bytes < 2 ** 24 ? 2 : 3];
}
