/**
 * `--format parquet -o FILE` against a real MariaDB: a table with every type family (NULLs, the
 * extremes of each integer type, BIGINT UNSIGNED's max, DECIMAL(65,30), dates and datetimes with
 * fractions, utf8mb4 text, BLOBs on and off page, zero dates), its .ibd and .frm exported and written
 * to Parquet by the CLI, read back with hyparquet and compared value by value with the server's
 * SELECT, each type by its physical value read as the Parquet spec says (parquet-values.ts), and by
 * hyparquet's own conversion where that is exact; the schema's logical types; zero dates as nulls,
 * warned (exit status 2) and noted in the footer; `_row_state` a string column (`--rows all`). Then
 * 200,000 rows through the worker threads, read back equal in more than one row group. Each file is
 * also read by DuckDB (a strict reader, of the Arrow C++ kind: parquet-duckdb.ts), its types and every
 * value equal to the server's, and its Thrift fields checked against parquet.thrift.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parquetMetadata, parquetReadObjects, type SchemaElement } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInnodb } from '../../src/lib/node.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectSameRows } from './decode.ts';
import { parquetText, readRaw } from './parquet-values.ts';
import { duckdbRead } from './parquet-duckdb.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

const EVERY = `CREATE TABLE every (
  id INT NOT NULL PRIMARY KEY,
  ti TINYINT, tu TINYINT UNSIGNED, si SMALLINT, su SMALLINT UNSIGNED, mi MEDIUMINT, mu MEDIUMINT UNSIGNED,
  i INT, iu INT UNSIGNED, bi BIGINT, bu BIGINT UNSIGNED, zf INT(6) ZEROFILL, bo BOOL,
  d1 DECIMAL(5,2), d2 DECIMAL(18,6), d3 DECIMAL(65,30), d4 DECIMAL(10,0) UNSIGNED,
  f FLOAT, db DOUBLE, b1 BIT(1), b12 BIT(12), b64 BIT(64),
  y YEAR, dt DATE, dtm DATETIME, dtf DATETIME(6), ts TIMESTAMP(3) NULL DEFAULT NULL, tm TIME(2),
  c CHAR(5), v VARCHAR(40), tx TEXT, lt LONGTEXT, l1 VARCHAR(10) CHARACTER SET latin1,
  bn BINARY(4), vb VARBINARY(10), bl BLOB, mb MEDIUMBLOB,
  e ENUM('small','medium','large'), st SET('a','b','c'), j JSON, g GEOMETRY, pt POINT
) DEFAULT CHARSET=utf8mb4`;

const NINES = (n: number) => '9'.repeat(n);
const ROWS = `
INSERT INTO every (id) VALUES (1);
INSERT INTO every VALUES (2, -128, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0, 1, 0,
  -999.99, -999999999999.999999, -${NINES(35)}.${NINES(30)}, 0, -3.40282e38, -1.7976931348623157e308, b'0', b'0', b'0',
  1901, '1000-01-01', '1000-01-01 00:00:00', '1000-01-01 00:00:00.000001', '1970-01-01 00:00:01.000', '-838:59:59.00',
  '', '', '', '', 'é', 0x00000000, '', '', '', 'small', '', '[]', ST_GeomFromText('POINT(0 0)'), POINT(1, 2));
INSERT INTO every VALUES (3, 127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295, 9223372036854775807, 18446744073709551615, 999999, 1,
  999.99, 999999999999.999999, ${NINES(35)}.${NINES(30)}, 9999999999, 3.40282e38, 1.7976931348623157e308, b'1', b'111111111111', 0xFFFFFFFFFFFFFFFF,
  2155, '9999-12-31', '9999-12-31 23:59:59', '9999-12-31 23:59:59.999999', '2038-01-19 03:14:07.999', '838:59:59.99',
  'abcde', 'utf8mb4 😀 ü ß 漢字 "q", a\\nb', REPEAT('long text é ', 40), REPEAT('x😀', 30000), 'ÿ',
  0xFFFFFFFF, 0x00FF10, UNHEX(REPEAT('AB01', 5000)), UNHEX(REPEAT('00FF', 40000)),
  'large', 'a,b,c', '{"k": [1, 2.5, "s", null, true]}', ST_GeomFromText('LINESTRING(0 0, 1 1, 2 0.5)'), POINT(-1.5, 1e10));
INSERT INTO every VALUES (4, -1, 1, -2, 2, -3, 3, -4, 4, -5, 5, 42, 1,
  -1.5, 0.000001, 0.${'0'.repeat(29)}1, 1, 3.14159, 2.718281828459045, b'1', b'101', b'1010',
  2024, '2024-02-29', '2024-02-29 13:05:00', '2024-02-29 13:05:00.123456', '2024-02-29 13:05:00.123', '12:34:56.78',
  'ab', 'ünïcödé', 'short', 'x', 'a', 0x01020304, X'', 0x00, 0xDEADBEEF, 'medium', 'b', '{"a": "é"}', NULL, NULL);
SET SESSION sql_mode = '';
INSERT INTO every (id, dt, dtm, dtf, ts) VALUES (5, '0000-00-00', '0000-00-00 00:00:00', '2024-00-00 00:00:00', '0000-00-00 00:00:00');
`;

/**
 * The type DuckDB reads each column as: what a user of a strict reader gets. DECIMAL(65,30) is wider
 * than DuckDB's 38 digits: it reads it as a DOUBLE (compared within 4 ulps of the server's text).
 * JSON is VARCHAR to a DuckDB without its json extension loaded (none is here: no downloads).
 */
const DUCKDB_TYPES: Record<string, string> = {
  id: 'INTEGER', ti: 'TINYINT', tu: 'UTINYINT', si: 'SMALLINT', su: 'USMALLINT', mi: 'INTEGER', mu: 'UINTEGER', i: 'INTEGER', iu: 'UINTEGER',
  bi: 'BIGINT', bu: 'UBIGINT', zf: 'UINTEGER', bo: 'TINYINT', d1: 'DECIMAL(5,2)', d2: 'DECIMAL(18,6)', d3: 'DOUBLE', d4: 'DECIMAL(10,0)',
  f: 'FLOAT', db: 'DOUBLE', b1: 'UTINYINT', b12: 'USMALLINT', b64: 'UBIGINT', y: 'USMALLINT', dt: 'DATE', dtm: 'TIMESTAMP', dtf: 'TIMESTAMP',
  ts: 'TIMESTAMP WITH TIME ZONE', tm: 'VARCHAR', c: 'VARCHAR', v: 'VARCHAR', tx: 'VARCHAR', lt: 'VARCHAR', l1: 'VARCHAR',
  bn: 'BLOB', vb: 'BLOB', bl: 'BLOB', mb: 'BLOB', e: 'VARCHAR', st: 'VARCHAR', j: 'VARCHAR', g: 'VARCHAR', pt: 'VARCHAR',
};

/** The physical Parquet type and logical type each column must have. */
const SCHEMA: Record<string, Partial<SchemaElement>> = {
  id: { type: 'INT32', logical_type: { type: 'INTEGER', bitWidth: 32, isSigned: true } },
  ti: { type: 'INT32', logical_type: { type: 'INTEGER', bitWidth: 8, isSigned: true } },
  tu: { type: 'INT32', logical_type: { type: 'INTEGER', bitWidth: 8, isSigned: false } },
  su: { type: 'INT32', logical_type: { type: 'INTEGER', bitWidth: 16, isSigned: false } },
  mu: { type: 'INT32', logical_type: { type: 'INTEGER', bitWidth: 32, isSigned: false } },
  iu: { type: 'INT32', converted_type: 'UINT_32' },
  bi: { type: 'INT64', logical_type: { type: 'INTEGER', bitWidth: 64, isSigned: true } },
  bu: { type: 'INT64', converted_type: 'UINT_64', logical_type: { type: 'INTEGER', bitWidth: 64, isSigned: false } },
  d1: { type: 'INT32', logical_type: { type: 'DECIMAL', precision: 5, scale: 2 } },
  d2: { type: 'INT64', logical_type: { type: 'DECIMAL', precision: 18, scale: 6 } },
  d3: { type: 'FIXED_LEN_BYTE_ARRAY', type_length: 32, logical_type: { type: 'DECIMAL', precision: 65, scale: 30 } },
  f: { type: 'FLOAT' },
  db: { type: 'DOUBLE' },
  b64: { type: 'INT64', converted_type: 'UINT_64' },
  dt: { type: 'INT32', logical_type: { type: 'DATE' } },
  dtf: { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MICROS' } },
  ts: { type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' } },
  tm: { type: 'BYTE_ARRAY', logical_type: { type: 'STRING' } },
  v: { type: 'BYTE_ARRAY', logical_type: { type: 'STRING' } },
  bl: { type: 'BYTE_ARRAY', logical_type: undefined },
  e: { type: 'BYTE_ARRAY', logical_type: { type: 'STRING' } },
};

describe('Parquet export (CLI) against MariaDB', () => {
  let server: MariadbServer;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    server = await startMariadb();
    await server.exec(`${EVERY};${ROWS}`);
    await server.exec(`CREATE TABLE big (id INT PRIMARY KEY, k BIGINT UNSIGNED, amount DECIMAL(12,2), at DATETIME(3), name VARCHAR(40), b VARBINARY(8)) DEFAULT CHARSET=utf8mb4;
      INSERT INTO big SELECT seq, seq * 92233720368547, (seq % 100000) / 100 - 500, TIMESTAMP'2020-01-01 00:00:00' + INTERVAL seq * 37 SECOND + INTERVAL (seq % 1000) * 1000 MICROSECOND,
        IF(seq % 7 = 0, NULL, CONCAT('name ', seq, ' é')), UNHEX(LPAD(HEX(seq), 8, '0')) FROM seq_1_to_200000;`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The table's .ibd (its .frm beside) written to Parquet by the CLI; the file's bytes, stderr and status. */
  async function exportParquet(table: string, threads: number, more: string[] = []): Promise<{ file: ArrayBuffer; out: string; stderr: string; status: number | null }> {
    const ibd = await server.exportTable(table);
    const out = join(dirname(ibd), `${table}.parquet`);
    const run = spawnSync(process.execPath, [CLI, ibd, '--format', 'parquet', '-o', out, '--threads', String(threads), ...more], { encoding: 'utf8' });
    const bytes = readFileSync(out);
    return { file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length), out, stderr: run.stderr, status: run.status };
  }

  it('every type family: each value equal to the server\'s, the logical types as mapped', async () => {
    const { file, out, stderr, status } = await exportParquet('every', 1);
    const expected = await server.query('SELECT * FROM every ORDER BY id');
    const meta = parquetMetadata(file);
    const schema = meta.schema.slice(1);
    expect(schema.map((e) => e.name)).toEqual(expected.columns);
    for (const [name, want] of Object.entries(SCHEMA)) expect(schema.find((e) => e.name === name), name).toMatchObject(want);
    const raw = await readRaw(file);
    // geometry is written as the decoder's text for it, whatever that is: compared with the library's rows.
    const lib = await openInnodb(await server.exportTable('every'));
    const libRows: (string | null)[][] = [];
    for await (const row of (await lib.table(null)).rows()) libRows.push(Object.values(row));
    await lib.close();
    const zero = new Set(['dt', 'dtm', 'dtf', 'ts']);
    /** A cell read back as `text`: geometry is the decoder's text, a zero date is null; else the server's text. */
    const judged = (text: string | null, r: number, c: number) => {
      const name = expected.columns[c];
      if (name === 'g' || name === 'pt') return text === libRows[r][c] ? expected.rows[r][c] : `${text} (the decoder's ${libRows[r][c]})`;
      if (r === 4 && zero.has(name)) return text === null ? expected.rows[r][c] : `${text}, not null`;
      return text;
    };
    const got = raw.rows.map((row, r) => row.map((v, c) => judged(parquetText(v, schema[c], expected.rows[r][c]), r, c)));
    expectSameRows(got, expected.rows, 'every');
    // DuckDB: every column of the type it should be, every value the server's.
    const duck = await duckdbRead(out, expected, ['d3']);
    expect(duck.thrift).toEqual([]);
    expect(duck.types).toEqual(Object.fromEntries(expected.columns.map((n) => [n, DUCKDB_TYPES[n]])));
    expectSameRows(duck.rows.map((row, r) => row.map((text, c) => judged(text, r, c))), expected.rows, 'every (DuckDB)');
    // hyparquet's own reading, where it converts exactly: integers, strings, dates.
    const objects = await parquetReadObjects({ file });
    expect(objects.map((o) => String(o.bu))).toEqual(expected.rows.map((r) => String(r[expected.columns.indexOf('bu')])));
    expect(objects.map((o) => o.v)).toEqual(expected.rows.map((r) => r[expected.columns.indexOf('v')]));
    expect((objects[3].dt as Date).toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect((objects[3].ts as Date).toISOString()).toBe('2024-02-29T13:05:00.123Z');
    // The zero dates: nulls, said on stderr (exit status 2) and in the footer.
    expect(status).toBe(2);
    for (const name of zero) expect(stderr).toContain(`column \`${name}\`: 1 value its Parquet type cannot hold, written as null`);
    const notes = JSON.parse(meta.key_value_metadata?.find((k) => k.key === 'ibd-reader.values-not-held')?.value ?? '[]') as { column: string; rows: number[] }[];
    expect(notes.map((n) => [n.column, n.rows])).toEqual([...zero].map((n) => [n, [4]]));
    // Modes with deleted rows end each row with its state, a string column.
    const all = await exportParquet('every', 1, ['--rows', 'all']);
    const states = await parquetReadObjects({ file: all.file, columns: ['_row_state'] });
    expect(states.map((o) => o._row_state)).toEqual(expected.rows.map(() => 'live'));
    expect(parquetMetadata(all.file).schema.at(-1)).toMatchObject({ name: '_row_state', type: 'BYTE_ARRAY', logical_type: { type: 'STRING' } });
    // Binary: never to stdout.
    const bare = spawnSync(process.execPath, [CLI, await server.exportTable('every'), '--format', 'parquet'], { encoding: 'utf8' });
    expect([bare.status, bare.stdout]).toEqual([64, '']);
    expect(bare.stderr).toContain('--format parquet writes a binary file: name it with -o FILE');
  });

  it('200,000 rows through the worker threads: equal to the server, in several row groups', async () => {
    const { file, out, stderr, status } = await exportParquet('big', 2);
    expect(status, stderr).toBe(0);
    const meta = parquetMetadata(file);
    expect(meta.row_groups.length).toBeGreaterThan(1);
    expect(Number(meta.num_rows)).toBe(200_000);
    const expected = await server.query('SELECT * FROM big ORDER BY id');
    const schema = meta.schema.slice(1);
    const raw = await readRaw(file);
    expectSameRows(raw.rows.map((row, r) => row.map((v, c) => parquetText(v, schema[c], expected.rows[r][c]))), expected.rows, 'big');
    const duck = await duckdbRead(out, expected);
    expect(duck.thrift).toEqual([]);
    expectSameRows(duck.rows, expected.rows, 'big (DuckDB)');
  });
});
