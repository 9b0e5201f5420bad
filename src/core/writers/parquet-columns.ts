/**
 * The Parquet schema of an export: each output column's Parquet type, from the table definition
 * (matched by name, as the SQL export does), and how its cells' text becomes a value of that type
 * (a CellKind, read by parquet-cells.ts).
 *
 * Every column is OPTIONAL: SQL NULL is a Parquet null, and so is a value its type cannot hold (see
 * parquet-cells.ts), even in a NOT NULL column. The choices:
 *
 *  - TINYINT … BIGINT: INT32 (INT64 for BIGINT) with the INTEGER logical type of their width and sign
 *    (MEDIUMINT as 32 bits, the nearest Parquet width); BIGINT UNSIGNED is INT64 as UINT_64. BOOL is
 *    TINYINT(1), an 8-bit integer, as the server stores it. YEAR: a 16-bit unsigned integer (0 for 0000).
 *  - DECIMAL(p,s): the DECIMAL logical type with p and s, in INT32 up to 9 digits, INT64 up to 18,
 *    else a FIXED_LEN_BYTE_ARRAY just long enough for p digits, exact (above 38 digits a multiple of 8
 *    bytes, for DuckDB: see decimalBytes; 32 bytes for DECIMAL(65,30)).
 *  - FLOAT: FLOAT (float32), DOUBLE: DOUBLE.
 *  - BIT(n): an unsigned integer of the smallest width holding n bits (INT64 above 32).
 *  - DATE: the DATE logical type (days since 1970-01-01). DATETIME: TIMESTAMP in microseconds, not
 *    adjusted to UTC (a wall-clock time, as DATETIME is); TIMESTAMP: TIMESTAMP in microseconds adjusted
 *    to UTC (the cell's text is UTC, see values/temporal.ts).
 *  - TIME: a UTF-8 string of the server's text (`-838:59:59.000000`). MySQL's TIME is a duration from
 *    -838:59:59 to 838:59:59, Parquet's TIME a time of day from 00:00 to 24:00: a typed column would
 *    have to drop every value outside a day, and whether a table has such values is only known at its end.
 *  - CHAR, VARCHAR, TEXT, ENUM, SET, INET4/INET6/UUID and geometry (its text, whatever the values layer
 *    shows): UTF-8 strings (the STRING logical type). Text in the binary charset, or in one the decoder
 *    shows as hex, is bytes like BINARY.
 *  - BINARY, VARBINARY, BLOB, VECTOR: BYTE_ARRAY of the bytes themselves (the cell's hex decoded).
 *  - JSON: BYTE_ARRAY with the JSON logical type (its text; no statistics, a document is not cut short).
 *  - The system columns (readers/system-columns.ts): `_db_trx_id` UINT_64, `_db_roll_ptr` its 7 bytes,
 *    `_page` UINT_32, `_heap` UINT_16.
 *  - Other columns the definition does not have (`_row_state`, `_partition`): UTF-8 strings.
 */
import type { SchemaElement } from 'hyparquet';
import { decoderFor } from '../values/charset.ts';
import type { Column, TableDef } from '../schema.ts';
import { systemColumnOf } from '../readers/system-columns.ts';

/**
 * How a column's cell text becomes its Parquet value (parquet-cells.ts): `int32` a whole number as a
 * number, `int64` as a bigint; `decimal` the unscaled DECIMAL as a bigint (whatever its physical type:
 * hyparquet-writer takes a number as the value itself, to be scaled through a double);
 * `float`, `double`; `date` days since 1970-01-01; `timestamp` microseconds since 1970-01-01 00:00:00
 * (a bigint); `bits32` / `bits64` 0x + hex as an unsigned number / bigint; `bytes` 0x + hex as the
 * bytes; `text` the string; `json` the text's UTF-8 bytes.
 */
export type CellKind = 'int32' | 'int64' | 'decimal' | 'float' | 'double' | 'date' | 'timestamp' | 'bits32' | 'bits64' | 'bytes' | 'text' | 'json';

export interface ParquetColumn {
  name: string;
  element: SchemaElement;
  kind: CellKind;
  /** DECIMAL: the scale (digits after the point) the unscaled value has. */
  scale: number;
  /** Whether the column chunk gets min/max statistics (not for JSON and binary values). */
  statistics: boolean;
}

const INT_BITS: Partial<Record<Column['type'], 8 | 16 | 32 | 64>> = { tinyint: 8, bool: 8, smallint: 16, mediumint: 32, int: 32, bigint: 64 };
const TEXT_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext']);
const BYTE_TYPES = new Set(['binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob', 'vector']);

/** The Parquet columns of the output columns of `table` (by name; any other column is a string). */
export function parquetColumns(table: TableDef, outputColumns: readonly string[]): ParquetColumn[] {
  const byName = new Map<string, Column>(table.columns.map((c) => [c.name.toLowerCase(), c]));
  return outputColumns.map((name) => {
    const c = byName.get(name.toLowerCase());
    return { name, ...(c ? typed(c) : systemTyped(name) ?? text()), scale: c?.type === 'decimal' ? c.scale : 0 } as ParquetColumn;
  });
}

/** A system column's type (see above), or null for another name. */
function systemTyped(name: string): Typed | null {
  switch (systemColumnOf(name)) {
    case 0: return integer(64, false);
    case 1: return bytes();
    case 2: return integer(32, false);
    case 3: return integer(16, false);
    default: return null;
  }
}

/** The whole schema: the root, then the columns. */
export function parquetSchema(columns: readonly ParquetColumn[]): SchemaElement[] {
  return [{ name: 'root', num_children: columns.length }, ...columns.map((c) => ({ ...c.element, name: c.name }))];
}

type Typed = Omit<ParquetColumn, 'name' | 'scale'>;

const OPTIONAL = { name: '', repetition_type: 'OPTIONAL' } as const;

function typed(c: Column): Typed {
  const bits = INT_BITS[c.type];
  if (bits !== undefined) return integer(bits, !c.unsigned);
  switch (c.type) {
    case 'decimal': return decimal(c.precision, c.scale);
    case 'float': return { element: { ...OPTIONAL, type: 'FLOAT' }, kind: 'float', statistics: true };
    case 'double': return { element: { ...OPTIONAL, type: 'DOUBLE' }, kind: 'double', statistics: true };
    case 'bit': return bitField(Math.max(1, c.length));
    case 'year': return integer(16, false);
    case 'date': return { element: { ...OPTIONAL, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } }, kind: 'date', statistics: true };
    case 'datetime': return timestamp(false);
    case 'timestamp': return timestamp(true);
    case 'json': return { element: { ...OPTIONAL, type: 'BYTE_ARRAY', logical_type: { type: 'JSON' } }, kind: 'json', statistics: false };
    default: break;
  }
  if (BYTE_TYPES.has(c.type) || (TEXT_TYPES.has(c.type) && (c.charset === 'binary' || decoderFor(c.charset) === null))) return bytes();
  return text();
}

function integer(bits: 8 | 16 | 32 | 64, signed: boolean): Typed {
  const wide = bits === 64;
  const converted = `${signed ? 'INT' : 'UINT'}_${bits}` as `${'INT' | 'UINT'}_${8 | 16 | 32 | 64}`;
  return {
    element: { ...OPTIONAL, type: wide ? 'INT64' : 'INT32', converted_type: converted, logical_type: { type: 'INTEGER', bitWidth: bits, isSigned: signed } },
    kind: wide ? 'int64' : 'int32',
    statistics: true,
  };
}

function bitField(n: number): Typed {
  const bits = n <= 8 ? 8 : n <= 16 ? 16 : n <= 32 ? 32 : 64;
  const int = integer(bits, false);
  return { ...int, kind: bits === 64 ? 'bits64' : 'bits32' };
}

/** The most digits of a DECIMAL that DuckDB reads as one (a wider one it reads as a double). */
const DUCKDB_DECIMAL_DIGITS = 38;

/**
 * Bytes of a two's-complement FIXED_LEN_BYTE_ARRAY holding every number of `precision` digits: the
 * fewest, but a multiple of 8 above 38 digits. DuckDB (1.5) reads such a DECIMAL as a double 8 bytes
 * at a time, and a last run of fewer bytes it scales wrong (-1e35 in 28 bytes reads as -4.29e44).
 */
export function decimalBytes(precision: number): number {
  const fewest = Math.ceil((precision * Math.log2(10) + 1) / 8);
  return precision > DUCKDB_DECIMAL_DIGITS ? Math.ceil(fewest / 8) * 8 : fewest;
}

function decimal(precision: number, scale: number): Typed {
  const logical = { type: 'DECIMAL', precision, scale } as const;
  const base = { ...OPTIONAL, converted_type: 'DECIMAL', precision, scale, logical_type: logical } as const;
  if (precision <= 9) return { element: { ...base, type: 'INT32' }, kind: 'decimal', statistics: true };
  if (precision <= 18) return { element: { ...base, type: 'INT64' }, kind: 'decimal', statistics: true };
  return { element: { ...base, type: 'FIXED_LEN_BYTE_ARRAY', type_length: decimalBytes(precision) }, kind: 'decimal', statistics: true };
}

function timestamp(utc: boolean): Typed {
  return {
    // TIMESTAMP_MICROS, the converted type, means adjusted to UTC: a DATETIME has the logical type alone.
    element: { ...OPTIONAL, type: 'INT64', ...(utc ? { converted_type: 'TIMESTAMP_MICROS' } : {}), logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: utc, unit: 'MICROS' } },
    kind: 'timestamp',
    statistics: true,
  };
}

function text(): Typed {
  return { element: { ...OPTIONAL, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } }, kind: 'text', statistics: true };
}

function bytes(): Typed {
  return { element: { ...OPTIONAL, type: 'BYTE_ARRAY' }, kind: 'bytes', statistics: false };
}
