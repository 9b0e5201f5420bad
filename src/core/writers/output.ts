/**
 * Text renderings of decoded rows for export. No DOM: used by the page's export worker, the CLI and
 * the tests alike.
 *
 * CSV: RFC 4180 quoting (papaparse `unparse`), `\n` line ends, a header row of column names, and SQL
 * NULL written as an unquoted `\N` (the marker MySQL's LOAD DATA and mysqldump --tab use). A string
 * value that is literally `\N` is quoted (`"\N"`) so it never reads back as NULL, and the empty string
 * stays an empty field. Every function returns whole lines, each ending in `\n`, so chunks concatenate.
 * `CsvOptions` change the delimiter, quote every value, or write NULL as an empty unquoted field (the
 * empty string is then quoted, `""`, so the two stay apart, as PostgreSQL's CSV does).
 *
 * NDJSON: one JSON object per row keyed by column name, NULL as `null`, each line ending in `\n`;
 * numbers as JSON numbers where they are exact, BIT as its number (json-values.ts).
 *
 * SQL: the CREATE TABLE, then batched `INSERT INTO … (columns) VALUES (…),(…);` statements that load
 * the rows back into MySQL or MariaDB: numbers bare, binary values as hex literals, geometries as
 * `ST_GeomFromText('POINT(1 2)', 4326)` (from the cell's WKT, geometry.ts), other values as quoted
 * strings with mysqldump's escapes, in a session set up like mysqldump's (UTC time zone, no
 * auto-increment on 0, no foreign key checks).
 *
 * The strings are JavaScript (UTF-16) strings; encode them as UTF-8 when writing (a Blob or
 * TextEncoder does that).
 */
import Papa from 'papaparse';
import { decoderFor } from '../values/charset.ts';
import type { Column, TableDef } from '../schema.ts';
import { systemColumnOf } from '../readers/system-columns.ts';
import type { Row } from '../readers/table-reader.ts';
import { jsonColumns, jsonValue, type JsonKind, type JsonOptions } from './json-values.ts';

/** The NULL marker in CSV output. */
export const CSV_NULL = '\\N';

const NEWLINE = '\n';

/**
 * Stands for NULL while papaparse writes the values: it prints as `\N` (papaparse calls toString) but
 * is not the string `\N`, so the quoting rule below can tell a NULL from a literal `\N` value.
 */
const NULL_MARKER = Object.freeze({ toString: () => CSV_NULL });
/** NULL written as an empty field. */
const NULL_EMPTY = Object.freeze({ toString: () => '' });

export interface CsvOptions {
  /** Field separator (default `,`): one character, not a quote, CR or LF. */
  delimiter?: string;
  /** Quote every value, not only those that need it (NULL is never quoted). Default false. */
  quoteAll?: boolean;
  /** How NULL is written: `\N` (default) or an empty unquoted field. */
  nullAs?: 'marker' | 'empty';
  /** Written for LOAD DATA (load-data.ts applies its escapes to the lines; `,` and `\N` with it), TIMESTAMP in UTC. */
  loadData?: boolean;
}

function csvLines(data: unknown[][], singleColumn: boolean, options: CsvOptions): string {
  if (data.length === 0) return '';
  const nullCell = options.nullAs === 'empty' ? NULL_EMPTY : NULL_MARKER;
  const marker = options.nullAs !== 'empty';
  const text = Papa.unparse(data, {
    newline: NEWLINE,
    header: false,
    escapeFormulae: false,
    delimiter: options.delimiter ?? ',',
    quotes: (value: unknown) => {
      if (value === nullCell) return false;
      if (options.quoteAll) return true;
      // A literal `\N` must not read back as NULL; with NULL as empty, an empty string must not either.
      // With one column an empty value would make an empty line, which many readers skip.
      if (marker) return value === CSV_NULL || (singleColumn && value === '');
      return value === '';
    },
  });
  return text + NEWLINE;
}

/** The header line (column names), ending in a newline. */
export function csvHeader(columns: readonly string[], options: CsvOptions = {}): string {
  return csvLines([columns.slice()], columns.length === 1, options);
}

/** Data lines for `rows`, each ending in a newline; NULL as an unquoted `\N` (or empty field). */
export function csvRows(rows: readonly Row[], options: CsvOptions = {}): string {
  if (rows.length === 0) return '';
  const nullCell = options.nullAs === 'empty' ? NULL_EMPTY : NULL_MARKER;
  const data = new Array<unknown[]>(rows.length);
  let single = false;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r];
    if (row.length === 1) single = true;
    const out = new Array<unknown>(row.length);
    for (let c = 0; c < row.length; c++) {
      const v = row[c];
      out[c] = v === null ? nullCell : v;
    }
    data[r] = out;
  }
  return csvLines(data, single, options);
}

/**
 * One JSON object per row, keyed by column name, each line ending in a newline; `kinds` (jsonColumns,
 * json-values.ts) says which columns' values are numbers where JSON holds them exactly (none without it).
 */
export function ndjsonRows(columns: readonly string[], rows: readonly Row[], kinds?: readonly JsonKind[]): string {
  // Keys are written by hand rather than through an object, so a column named `__proto__` (legal in
  // SQL) is an ordinary key, and the key text is escaped once rather than once per row.
  const keys = columns.map((c) => JSON.stringify(c) + ':');
  let out = '';
  for (const row of rows) {
    let line = '{';
    for (let c = 0; c < keys.length; c++) {
      if (c > 0) line += ',';
      line += keys[c] + jsonValue(row[c], kinds?.[c] ?? 'string');
    }
    out += line + '}\n';
  }
  return out;
}

/** NDJSON of rows of `table` (output columns `columns`): its numbers and BITs typed unless `options.strings`. */
export function ndjsonOf(table: TableDef | null, columns: readonly string[], rows: readonly Row[], options: JsonOptions = {}): string {
  return ndjsonRows(columns, rows, jsonColumns(table, columns, options));
}

// ---------------------------------------------------------------------------------------------
// SQL
// ---------------------------------------------------------------------------------------------

/** How a column's rendered values become SQL literals. */
export type SqlValueKind = 'number' | 'hex' | 'geometry' | 'string';

export interface SqlColumn {
  name: string;
  kind: SqlValueKind;
  /** False for generated columns: the server computes them, an INSERT may not set them. */
  insert: boolean;
}

const NUMBER_TYPES = new Set(['tinyint', 'bool', 'smallint', 'mediumint', 'int', 'bigint', 'decimal', 'float', 'double']);
const HEX_TYPES = new Set(['bit', 'binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob']);
const GEOMETRY_TYPES = new Set(['geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection']);
const TEXT_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext']);

/** The literal kind of each output column (matched to the table definition by name); the system columns are not inserted. */
export function sqlColumns(table: TableDef, outputColumns: readonly string[]): SqlColumn[] {
  const byName = new Map<string, Column>(table.columns.map((c) => [c.name.toLowerCase(), c]));
  return outputColumns.map((name) => {
    const c = byName.get(name.toLowerCase());
    // The system columns (readers/system-columns.ts) are not the table's: an INSERT would fail on them.
    if (!c) return { name, kind: 'string', insert: systemColumnOf(name) < 0 };
    let kind: SqlValueKind = 'string';
    if (NUMBER_TYPES.has(c.type)) kind = 'number';
    else if (HEX_TYPES.has(c.type)) kind = 'hex';
    else if (GEOMETRY_TYPES.has(c.type)) kind = 'geometry';
    // text in the binary charset, or in a charset the decoder shows as hex
    else if (TEXT_TYPES.has(c.type) && (c.charset === 'binary' || decoderFor(c.charset) === null)) kind = 'hex';
    return { name: c.name, kind, insert: c.generated === null };
  });
}

/** A backquoted identifier. */
export function sqlIdent(name: string): string {
  return '`' + name.replace(/`/g, '``') + '`';
}

const SQL_ESCAPES: Record<string, string> = {
  '\0': '\\0', '\n': '\\n', '\r': '\\r', '\\': '\\\\', "'": "\\'", '"': '\\"', '\x1a': '\\Z',
};

/** A quoted string literal with mysql_real_escape_string's escapes. */
export function sqlString(value: string): string {
  // eslint-disable-next-line no-control-regex -- NUL and Ctrl-Z are exactly what must be escaped
  return "'" + value.replace(/[\0\n\r\\'"\x1a]/g, (ch) => SQL_ESCAPES[ch]) + "'";
}

const NUMBER_LITERAL = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;
const HEX_LITERAL = /^0x[0-9A-Fa-f]*$/;
/** A geometry cell: WKT (a type name, then parentheses or EMPTY), led by `SRID=n;` when n is not 0. */
const GEOMETRY_CELL = /^(?:SRID=(\d+);)?([A-Z]+ ?[(E][^']*)$/;

/** A geometry cell as ST_GeomFromText() of its WKT and SRID; other text (an unreadable value) as a string. */
function sqlGeometry(value: string): string {
  const m = GEOMETRY_CELL.exec(value);
  if (m === null) return sqlString(value);
  return m[1] === undefined ? `ST_GeomFromText('${m[2]}')` : `ST_GeomFromText('${m[2]}', ${m[1]})`;
}

export function sqlValue(value: string | null, kind: SqlValueKind): string {
  if (value === null) return 'NULL';
  if (kind === 'number' && NUMBER_LITERAL.test(value)) return value;
  if (kind === 'hex' && HEX_LITERAL.test(value)) return value.length === 2 ? "''" : value;
  if (kind === 'geometry') return sqlGeometry(value);
  return sqlString(value);
}

/** Session settings and the CREATE TABLE, ahead of the INSERTs. */
export function sqlPreamble(table: TableDef, sourceFile: string): string {
  const create = table.createSql.replace(/;\s*$/, '').trim();
  return (
    `-- Rows of table ${sqlIdent(table.name)} read from ${sourceFile.replace(/[\r\n]/g, ' ')} by ibd-reader (no server involved).\n` +
    '/*!40101 SET NAMES utf8mb4 */;\n' +
    "SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO';\n" +
    "SET @OLD_TIME_ZONE=@@TIME_ZONE, TIME_ZONE='+00:00';\n" +
    'SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0;\n' +
    'SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0;\n\n' +
    `${create};\n\n`
  );
}

/** Restores the session settings changed by the preamble. */
export function sqlPostamble(): string {
  return (
    '\nSET SQL_MODE=@OLD_SQL_MODE;\n' +
    'SET TIME_ZONE=@OLD_TIME_ZONE;\n' +
    'SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS;\n' +
    'SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS;\n'
  );
}

/**
 * INSERT statements for `rows`, at most `rowsPerStatement` rows (and about 1 MB of text) each, every
 * statement ending in `;\n`. Generated columns are left out of the column list.
 */
export function sqlInserts(tableName: string, columns: readonly SqlColumn[], rows: readonly Row[], rowsPerStatement = 1000): string {
  if (rows.length === 0) return '';
  const keep: number[] = [];
  columns.forEach((c, i) => {
    if (c.insert) keep.push(i);
  });
  const head = `INSERT INTO ${sqlIdent(tableName)} (${keep.map((i) => sqlIdent(columns[i].name)).join(',')}) VALUES\n`;
  const maxChars = 1 << 20;
  let out = '';
  let inStatement = 0;
  let statementChars = 0;
  for (const row of rows) {
    let tuple = '(';
    for (let k = 0; k < keep.length; k++) {
      if (k > 0) tuple += ',';
      const i = keep[k];
      tuple += sqlValue(row[i] ?? null, columns[i].kind);
    }
    tuple += ')';
    if (inStatement > 0 && (inStatement >= rowsPerStatement || statementChars + tuple.length > maxChars)) {
      out += ';\n';
      inStatement = 0;
    }
    if (inStatement === 0) {
      out += head;
      statementChars = head.length;
    } else {
      out += ',\n';
    }
    out += tuple;
    statementChars += tuple.length + 2;
    inStatement++;
  }
  return out + ';\n';
}
