/**
 * The harness's client side of a server: connections as root over its unix socket, with a typeCast
 * that keeps every value as the exact text the server sends (binary and BIT values as 0x + hex);
 * errors that show the SQL which failed; the result set a query answers.
 */
import { createConnection, type Connection, type FieldInfo, type TypeCastFunction } from 'mariadb';

export interface QueryResult {
  columns: string[];
  /** One array per row; each value exactly as the server's text protocol renders it,
   *  SQL NULL as `null`, binary/BIT values as '0x' + uppercase hex. */
  rows: (string | null)[][];
}

// MySQL protocol column types that carry bytes (rendered as hex when their charset is binary).
const STRINGISH_TYPES = new Set([
  15, // VARCHAR
  245, // JSON (MySQL only)
  247, // ENUM
  248, // SET
  249, // TINY_BLOB
  250, // MEDIUM_BLOB
  251, // LONG_BLOB
  252, // BLOB
  253, // VAR_STRING
  254, // STRING
  255, // GEOMETRY
]);
const BIT_TYPE = 16;
const BINARY_COLLATION = 63;

function renderValue(column: FieldInfo): string | null {
  const type = column.columnType as number;
  if (type === BIT_TYPE || (STRINGISH_TYPES.has(type) && column.collation.index === BINARY_COLLATION)) {
    const buf = column.buffer();
    return buf === null ? null : '0x' + buf.toString('hex').toUpperCase();
  }
  return column.string();
}

const typeCast: TypeCastFunction = (column) => renderValue(column);

/** A connection as root to the server at `socket`, in `database` (none when undefined or ''). */
export function connectAsRoot(socket: string, database: string | undefined): Promise<Connection> {
  return createConnection({
    socketPath: socket,
    user: 'root',
    database: database || undefined,
    multipleStatements: true,
    rowsAsArray: true,
    typeCast,
    collation: 'UTF8MB4_GENERAL_CI',
    // The connector always announces CLIENT_IGNORE_SPACE; restore the server's default sql_mode.
    initSql: 'SET SESSION sql_mode = @@GLOBAL.sql_mode',
    permitLocalInfile: true,
    connectTimeout: 10000,
  });
}

/** `e`, a failed statement's error, with the SQL shown (its first 1000 characters). */
export function sqlError(e: unknown, sql: string): Error {
  const msg = e instanceof Error ? e.message : String(e);
  const shown = sql.length > 1000 ? sql.slice(0, 1000) + ` ... (${sql.length} chars)` : sql;
  const err = new Error(`${msg}\n--- SQL ---\n${shown}`);
  (err as Error & { cause?: unknown }).cause = e;
  return err;
}

/** The connector's answer to query() as a QueryResult: its (last) result set, values as text. */
export function queryResult(res: unknown): QueryResult {
  // Single statement: an array of rows with a `meta` property (or an OkPacket).
  // Several statements: an array of such results; take the last result set.
  type RS = unknown[][] & { meta?: FieldInfo[] };
  const isResultSet = (r: unknown): r is RS => Array.isArray(r) && (r as RS).meta !== undefined;
  let rs: RS | undefined;
  if (isResultSet(res)) rs = res;
  else if (Array.isArray(res)) {
    for (const r of res) if (isResultSet(r)) rs = r;
  }
  if (!rs) return { columns: [], rows: [] };
  return {
    columns: rs.meta!.map((m) => m.name()),
    rows: Array.from(rs, (row) => Array.from(row, (v) => (v === null ? null : (v as string)))),
  };
}
