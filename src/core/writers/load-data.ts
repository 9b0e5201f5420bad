/**
 * CSV for MySQL/MariaDB's `LOAD DATA`, and the statement that loads it back as it was.
 *
 * The CSV is the export's own (RFC 4180 quoting, NULL as an unquoted `\N`, a header line) with two
 * changes: every backslash of a value is doubled, and a value that is the word NULL is quoted.
 * LOAD DATA's default escape character is the backslash, so a value's `\b` or `\N` would otherwise
 * read back as a backspace or a NULL (the NULL marker itself, a field that is exactly `\N` unquoted,
 * is left alone); and with OPTIONALLY ENCLOSED BY '"' it reads an unquoted NULL as NULL. Quotes
 * doubled inside a quoted field, and line breaks inside one, it reads as they are.
 *
 * Binary values stay as the export shows them, `0x` and hex, and the statement turns them back into
 * bytes (`SET col = UNHEX(SUBSTRING(@v, 3))`), rather than writing the raw bytes escaped: hex is
 * ASCII, so the file stays valid UTF-8 whatever the bytes are, no byte of it needs escaping, and the
 * character set conversion LOAD DATA applies to the file's text cannot touch a binary value. The same
 * holds for BIT (its hex is its bytes) and for text in the binary charset; geometry is its WKT, read
 * back with ST_GeomFromText (and its SRID). TIMESTAMP values must be written in UTC (the exporter's
 * task): the statement sets the session's time_zone to UTC for the load, as the SQL export does.
 */
import type { TableDef } from '../schema.ts';
import { sqlColumns, sqlIdent, sqlPostamble, sqlString } from './output.ts';

const BACKSLASH = 92;
const QUOTE = 34;
const COMMA = 44;
const NEWLINE = 10;
const N = 78;
const NULL_WORD = [78, 85, 76, 76];

/** Whether a field that starts at t[i] ends after `length` bytes (a separator, a line end, or the chunk's end). */
function endsAfter(t: Uint8Array, i: number, length: number): boolean {
  const after = t[i + length];
  return after === undefined || after === COMMA || after === NEWLINE;
}

/** Whether an unquoted field starting at t[i] is the word NULL, which LOAD DATA reads as NULL when fields may be enclosed. */
function nullWord(t: Uint8Array, i: number): boolean {
  for (let k = 0; k < 4; k++) if (t[i + k] !== NULL_WORD[k]) return false;
  return endsAfter(t, i, 4);
}

/**
 * Whole CSV lines (as the export writes them: `,` between fields, `\n` after each line, quoted fields
 * with doubled quotes) as LOAD DATA reads them back: every backslash of a value doubled, but the NULL
 * marker's (a field that is exactly `\N`, unquoted); a value that is the word NULL quoted. The same
 * array when there is nothing to change.
 */
export function loadDataEscaped<B extends ArrayBufferLike>(csv: Uint8Array<B>): Uint8Array<B> | Uint8Array<ArrayBuffer> {
  if (csv.indexOf(BACKSLASH) < 0 && !hasNullWord(csv)) return csv;
  // At most twice as long: a backslash becomes two bytes, NULL six.
  const out = new Uint8Array(2 * csv.length);
  let p = 0;
  let quoted = false;
  let fieldStart = true;
  for (let i = 0; i < csv.length; i++) {
    const b = csv[i];
    if (fieldStart && b === N && nullWord(csv, i)) {
      out[p++] = QUOTE;
      for (const w of NULL_WORD) out[p++] = w;
      out[p++] = QUOTE;
      i += 3;
      fieldStart = false;
      continue;
    }
    out[p++] = b;
    if (b === QUOTE) {
      // Opens a field, closes it, or is the first of a doubled quote (the second reopens: the same state after both).
      quoted = fieldStart ? true : !quoted;
    } else if (b === BACKSLASH) {
      if (!quoted && fieldStart && csv[i + 1] === N && endsAfter(csv, i, 2)) out[p++] = csv[++i];
      else out[p++] = BACKSLASH;
    }
    fieldStart = !quoted && (b === COMMA || b === NEWLINE);
  }
  return out.slice(0, p);
}

/** Whether the bytes hold the word NULL anywhere (a quick test before the field by field pass). */
function hasNullWord(csv: Uint8Array): boolean {
  for (let i = csv.indexOf(N); i >= 0; i = csv.indexOf(N, i + 1)) if (csv[i + 1] === 85 && csv[i + 2] === 76 && csv[i + 3] === 76) return true;
  return false;
}

/** How a column's field is loaded: into the column, or through a variable and a SET expression, or not at all. */
function columnLoad(kind: ReturnType<typeof sqlColumns>[number], v: string): { target: string; set?: string } {
  if (!kind.insert) return { target: v };
  const col = sqlIdent(kind.name);
  if (kind.kind === 'hex') return { target: v, set: `${col} = UNHEX(SUBSTRING(${v}, 3))` };
  if (kind.kind === 'geometry') {
    // `SRID=n;WKT` or the WKT alone (geometry.ts).
    return { target: v, set: `${col} = IF(${v} LIKE 'SRID=%', ST_GeomFromText(SUBSTRING_INDEX(${v}, ';', -1), SUBSTRING_INDEX(SUBSTRING(${v}, 6), ';', 1)), ST_GeomFromText(${v}))` };
  }
  return { target: col };
}

/**
 * The statements that load the CSV file `csvFile` (written with a header line, loadDataEscaped, its
 * TIMESTAMP values in UTC) into a table of `table`'s definition, run by the mariadb/mysql client from
 * the folder holding it: columns the definition does not have (`_row_state`, `_partition`) and
 * generated ones are read into variables and not stored.
 */
export function loadDataStatement(table: TableDef, outputColumns: readonly string[], csvFile: string): string {
  const known = new Set(table.columns.map((c) => c.name.toLowerCase()));
  const loads = sqlColumns(table, outputColumns).map((c, i) => (known.has(c.name.toLowerCase()) ? columnLoad(c, `@c${i + 1}`) : { target: `@c${i + 1}` }));
  const sets = loads.flatMap((l) => (l.set === undefined ? [] : [l.set]));
  const name = csvFile.replace(/[\r\n]/g, ' ');
  return (
    `-- Loads ${name} (rows of table ${sqlIdent(table.name)} read by ibd-reader) into a table of the same definition.\n` +
    `-- Its TIMESTAMP values are in UTC: the load sets time_zone to UTC. Binary values are 0x + hex, unhexed below.\n` +
    `-- From the folder holding ${name}: mariadb --local-infile=1 DATABASE < this file\n` +
    "SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO';\n" +
    "SET @OLD_TIME_ZONE=@@TIME_ZONE, TIME_ZONE='+00:00';\n" +
    'SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0;\n' +
    'SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0;\n' +
    `LOAD DATA LOCAL INFILE ${sqlString(name)} INTO TABLE ${sqlIdent(table.name)} CHARACTER SET utf8mb4\n` +
    `  FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '"' ESCAPED BY '\\\\'\n` +
    "  LINES TERMINATED BY '\\n' IGNORE 1 LINES\n" +
    `  (${loads.map((l) => l.target).join(', ')})` +
    (sets.length > 0 ? `\n  SET ${sets.join(',\n    ')}` : '') +
    ';\n' +
    sqlPostamble()
  );
}
