/**
 * Test helper: a Parquet file read by DuckDB (@duckdb/node-api, DuckDB's own C++ reader: a strict
 * one, as Arrow C++ and Polars are), each value as DuckDB typed it shown as the text MariaDB's
 * SELECT shows, to compare with the server's rows; with DuckDB's type of each column, and the
 * file's Thrift structs checked against parquet.thrift (parquet-thrift.ts), which DuckDB does not
 * do for optional fields (it skips a field of another type, and fails only on a required one).
 */
import { readFileSync } from 'node:fs';
import { DuckDBBlobValue, DuckDBDateValue, DuckDBDecimalValue, DuckDBInstance, DuckDBTimestampTZValue, DuckDBTimestampValue, type DuckDBValue } from '@duckdb/node-api';
import { parquetMetadata } from 'hyparquet';
import { thriftProblems } from './parquet-thrift.ts';

export interface DuckdbRead {
  /** DuckDB's type of each column (`UTINYINT`, `DECIMAL(5,2)`, `TIMESTAMP WITH TIME ZONE`, …). */
  types: Record<string, string>;
  columns: string[];
  /** Each value as the server's text (`server`: the server's rows, for what a value does not carry). */
  rows: (string | null)[][];
  /** The file's Thrift fields not as parquet.thrift declares them (empty when right). */
  thrift: string[];
}

const HEX = (b: Uint8Array) => '0x' + Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('').toUpperCase();

function decimalText(unscaled: bigint, scale: number): string {
  const neg = unscaled < 0n;
  const digits = (neg ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  return (neg ? '-' : '') + (scale > 0 ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits);
}

/** Microseconds since 1970 as YYYY-MM-DD hh:mm:ss and as many fraction digits as `like` has. */
function timestampText(micros: bigint, like: string): string {
  let seconds = micros / 1_000_000n;
  if (seconds * 1_000_000n > micros) seconds -= 1n;
  const iso = new Date(Number(seconds) * 1000).toISOString();
  const fraction = like.length > 19 ? like.length - 20 : 0;
  const frac = (micros - seconds * 1_000_000n).toString().padStart(6, '0').slice(0, fraction);
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction > 0 ? `.${frac}` : ''}`;
}

/** A value DuckDB read, as the server's text `server` would show it. */
function serverText(v: DuckDBValue, type: string, server: string | null): string | null {
  if (v === null) return null;
  if (v instanceof DuckDBDecimalValue) return decimalText(v.value, v.scale);
  if (v instanceof DuckDBDateValue) return new Date(v.days * 86_400_000).toISOString().slice(0, 10);
  if (v instanceof DuckDBTimestampValue || v instanceof DuckDBTimestampTZValue) return timestampText(v.micros, server ?? '');
  if (v instanceof DuckDBBlobValue) return HEX(v.bytes);
  if (typeof v === 'string') return v;
  if (type === 'FLOAT') return server !== null && Math.fround(Number(server)) === v ? server : `float32 ${String(v)}`;
  if (type === 'DOUBLE') return server !== null && Number(server) === v ? server : `double ${String(v)}`;
  if (type === 'WIDE DECIMAL') {
    // A DECIMAL wider than DuckDB's 38 digits is read as a double, scaled by a power of ten of its own: within 4 ulps of the server's.
    const n = Number(server);
    return server !== null && Math.abs(Number(v) - n) <= 4 * Number.EPSILON * Math.abs(n) ? server : `double ${String(v)}`;
  }
  if (typeof v === 'number' || typeof v === 'bigint') {
    const n = BigInt(v);
    // BIT columns: the server shows their bytes as hex; ZEROFILL: its zeros.
    if (server?.startsWith('0x')) return '0x' + n.toString(16).toUpperCase().padStart(server.length - 2, '0');
    return server !== null && /^0\d/.test(server) ? n.toString().padStart(server.length, '0') : n.toString();
  }
  return `unexpected ${type} ${String(v)}`;
}

/**
 * The Parquet file at `path` read by DuckDB in its order, its values as text like `server`'s rows (the
 * server's SELECT); `wide`: the columns of DECIMALs wider than 38 digits, which DuckDB reads as doubles.
 */
export async function duckdbRead(path: string, server: { rows: (string | null)[][] }, wide: readonly string[] = []): Promise<DuckdbRead> {
  const bytes = readFileSync(path);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    const read = await conn.runAndReadAll(`SELECT * FROM read_parquet('${path.replaceAll("'", "''")}')`);
    const columns = read.columnNames();
    const typeNames = read.columnTypes().map((t) => t.toString());
    const how = columns.map((n, c) => (wide.includes(n) ? 'WIDE DECIMAL' : typeNames[c]));
    const rows = read.getRows().map((row, r) => row.map((v, c) => serverText(v, how[c], server.rows[r]?.[c] ?? null)));
    return { types: Object.fromEntries(columns.map((n, c) => [n, typeNames[c]])), columns, rows, thrift: fileThriftProblems(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)) };
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}

/** parquet-thrift.ts's check of the file, the chunks found by hyparquet's reading of its footer. */
function fileThriftProblems(file: ArrayBuffer): string[] {
  const meta = parquetMetadata(file);
  const chunks = meta.row_groups.flatMap((g) => g.columns).map((c) => {
    const m = c.meta_data!;
    const start = Number(m.dictionary_page_offset ?? m.data_page_offset);
    const offsetIndex: [number, number] | undefined = c.offset_index_offset === undefined ? undefined : [Number(c.offset_index_offset), c.offset_index_length ?? 0];
    return { start, length: Number(m.total_compressed_size), offsetIndex };
  });
  return thriftProblems(new Uint8Array(file), chunks);
}
