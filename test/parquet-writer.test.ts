/**
 * The Parquet writer without a server: the type mapping of each column type (parquet-columns.ts),
 * cells read as typed values and the ones a type cannot hold (parquet-cells.ts), and files read back
 * with hyparquet, row groups and notes included (parquet-rows.ts), and by DuckDB (marks, nulls, an
 * empty file). Against a server: test/differential/parquet-export.test.ts.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { batchOf, joined } from './text-batches.ts';
import { batchText } from '../src/core/values/batch-strings.ts';
import { decimalBytes, parquetColumns } from '../src/core/writers/parquet-columns.ts';
import { cellReader, civilDays, timestampMicros, unscaled } from '../src/core/writers/parquet-cells.ts';
import { parquetFooter, ParquetRows } from '../src/core/writers/parquet-rows.ts';
import { duckdbRead } from './differential/parquet-duckdb.ts';

const enc = new TextEncoder();
const bytes = (s: string) => enc.encode(s);

const DDL = `CREATE TABLE t (
  ti TINYINT, tu TINYINT UNSIGNED, si SMALLINT, mi MEDIUMINT UNSIGNED, i INT, iu INT UNSIGNED,
  bi BIGINT, bu BIGINT UNSIGNED, d1 DECIMAL(5,2), d2 DECIMAL(18,4), d3 DECIMAL(65,30),
  f FLOAT, db DOUBLE, b5 BIT(5), b40 BIT(40), y YEAR, dt DATE, dtt DATETIME(6), ts TIMESTAMP(3) NULL,
  tm TIME, v VARCHAR(10), bl BLOB, vb VARBINARY(4), tb TEXT CHARACTER SET binary, e ENUM('a','b'), s SET('x','y'),
  j JSON, g GEOMETRY, ok BOOL
)`;
const table = parseCreateTables(DDL)[0];

describe('parquetColumns', () => {
  const cols = parquetColumns(table, [...table.columns.map((c) => c.name), '_row_state']);
  const by = (name: string) => cols.find((c) => c.name === name)!.element;

  it('maps integers to their width and sign, BIGINT UNSIGNED to UINT_64', () => {
    expect(by('ti')).toMatchObject({ type: 'INT32', logical_type: { type: 'INTEGER', bitWidth: 8, isSigned: true } });
    expect(by('tu')).toMatchObject({ type: 'INT32', converted_type: 'UINT_8' });
    expect(by('si')).toMatchObject({ type: 'INT32', converted_type: 'INT_16' });
    expect(by('mi')).toMatchObject({ type: 'INT32', converted_type: 'UINT_32' });
    expect(by('iu')).toMatchObject({ type: 'INT32', logical_type: { type: 'INTEGER', bitWidth: 32, isSigned: false } });
    expect(by('bi')).toMatchObject({ type: 'INT64', converted_type: 'INT_64' });
    expect(by('bu')).toMatchObject({ type: 'INT64', converted_type: 'UINT_64', logical_type: { type: 'INTEGER', bitWidth: 64, isSigned: false } });
    expect(by('ok')).toMatchObject({ type: 'INT32', converted_type: 'INT_8' });
    expect(by('y')).toMatchObject({ type: 'INT32', converted_type: 'UINT_16' });
  });

  it('maps DECIMAL by precision: INT32, INT64, fixed bytes', () => {
    expect(by('d1')).toMatchObject({ type: 'INT32', converted_type: 'DECIMAL', precision: 5, scale: 2, logical_type: { type: 'DECIMAL', precision: 5, scale: 2 } });
    expect(by('d2')).toMatchObject({ type: 'INT64', precision: 18, scale: 4 });
    expect(by('d3')).toMatchObject({ type: 'FIXED_LEN_BYTE_ARRAY', type_length: 32, precision: 65, scale: 30 });
    // 10^65 - 1 needs 217 bits with its sign: 28 bytes, 32 above 38 digits (DuckDB); 10^19 - 1 needs 65: 9 bytes; 10^38 - 1 needs 128: 16
    expect(decimalBytes(65)).toBe(32);
    expect(decimalBytes(39)).toBe(24);
    expect(decimalBytes(38)).toBe(16);
    expect(decimalBytes(19)).toBe(9);
  });

  it('maps temporal types: DATE, TIMESTAMP micros (UTC for TIMESTAMP only), TIME as text', () => {
    expect(by('dt')).toMatchObject({ type: 'INT32', logical_type: { type: 'DATE' } });
    expect(by('dtt')).toMatchObject({ type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: false, unit: 'MICROS' } });
    expect(by('dtt').converted_type).toBeUndefined();
    expect(by('ts')).toMatchObject({ type: 'INT64', converted_type: 'TIMESTAMP_MICROS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true } });
    expect(by('tm')).toMatchObject({ type: 'BYTE_ARRAY', logical_type: { type: 'STRING' } });
  });

  it('maps text to STRING, binary to BYTE_ARRAY, JSON to JSON, BIT to unsigned integers', () => {
    for (const n of ['v', 'e', 's', 'g', '_row_state']) expect(by(n)).toMatchObject({ type: 'BYTE_ARRAY', converted_type: 'UTF8' });
    for (const n of ['bl', 'vb', 'tb']) expect(by(n)).toEqual({ name: '', repetition_type: 'OPTIONAL', type: 'BYTE_ARRAY' });
    expect(by('j')).toMatchObject({ type: 'BYTE_ARRAY', logical_type: { type: 'JSON' } });
    expect(by('b5')).toMatchObject({ type: 'INT32', converted_type: 'UINT_8' });
    expect(by('b40')).toMatchObject({ type: 'INT64', converted_type: 'UINT_64' });
    expect(cols.every((c) => c.element.repetition_type === 'OPTIONAL')).toBe(true);
  });
});

describe('parquet cells', () => {
  const read = (kind: Parameters<typeof cellReader>[0], s: string, scale = 0) => cellReader(kind, scale)(bytes(s), 0, bytes(s).length, batchText(batchOf([[s]])));

  it('reads numbers exactly, scaled', () => {
    expect(unscaled(bytes('-1.5'), 0, 4, 2, false)).toBe(-150);
    expect(unscaled(bytes('18446744073709551615'), 0, 20, 0, true)).toBe(18446744073709551615n);
    expect(read('decimal', '-12345678901234567890123456789012345.123456789012345678901234567890', 30)).toBe(-12345678901234567890123456789012345123456789012345678901234567890n);
    expect(read('int64', '-9223372036854775808')).toBe(-9223372036854775808n);
    expect(read('int32', '007')).toBe(7);
    expect(read('int32', '1.5')).toBeUndefined();
    expect(read('int32', '-')).toBeUndefined();
    expect(read('double', '1e20')).toBe(1e20);
    expect(read('bits32', '0x1F')).toBe(31);
    expect(read('bits64', '0xFFFFFFFFFF')).toBe(0xffffffffffn);
    expect(read('bits64', '0xFFFFFFFFFFFFFFFF')).toBe(18446744073709551615n);
    expect(read('bits64', '0x01')).toBe(1n);
    expect(read('decimal', '1234567890123456789.5', 3)).toBe(1234567890123456789500n);
    expect(read('decimal', '-0.000000000000000000000000000001', 30)).toBe(-1n);
    expect(read('text', 'ü😀x')).toBe('ü😀x');
    expect(read('bytes', '0x00FF')).toEqual(new Uint8Array([0, 255]));
    expect(read('bytes', '0x')).toEqual(new Uint8Array(0));
  });

  it('reads dates and times as days and microseconds, refuses days that are not', () => {
    expect(civilDays(bytes('1970-01-01'), 0)).toBe(0);
    expect(civilDays(bytes('2024-02-29'), 0)).toBe(19782);
    expect(civilDays(bytes('1000-01-01'), 0)).toBe(-354285);
    expect(civilDays(bytes('0000-00-00'), 0)).toBeUndefined();
    expect(civilDays(bytes('2023-02-29'), 0)).toBeUndefined();
    expect(civilDays(bytes('2024-00-10'), 0)).toBeUndefined();
    const ts = (s: string) => timestampMicros(bytes(s), 0, s.length);
    expect(ts('1970-01-01 00:00:01.5')).toBe(1_500_000n);
    expect(ts('9999-12-31 23:59:59.999999')).toBe(253402300799999999n);
    expect(ts('1970-01-01 02:00:00+02:00')).toBe(0n);
    expect(ts('0000-00-00 00:00:00')).toBeUndefined();
    expect(ts('2024-01-01 24:00:00')).toBeUndefined();
  });

  it('refuses an unreadable mark as JSON or bytes, keeps it as text', () => {
    const mark = '[unreadable: column `j`: its off-page part on page 7 fails its checksum]';
    expect(read('json', mark)).toBeUndefined();
    expect(read('bytes', mark)).toBeUndefined();
    expect(read('text', mark)).toBe(mark);
    expect(read('json', '[1,2]')).toEqual(bytes('[1,2]'));
  });
});

describe('ParquetRows', () => {
  const small = parseCreateTables('CREATE TABLE s (id INT, d DATE, b BLOB, t VARCHAR(20), amt DECIMAL(5,2))')[0];
  const columns = ['id', 'd', 'b', 't', 'amt', '_row_state'];

  /** DuckDB's reading of the file, each value as text (the rows' own text where it holds it). */
  async function duckdb(buf: ArrayBuffer, rows: (string | null)[][]) {
    const path = join(mkdtempSync(join(tmpdir(), 'parquet-writer-')), 'f.parquet');
    writeFileSync(path, new Uint8Array(buf));
    return duckdbRead(path, { rows });
  }

  /** The file's last row group and its footer. */
  const ended = (w: ParquetRows): Uint8Array[] => [w.flush(), parquetFooter(small, columns, w.groups())];

  it('writes row groups as they fill, and reads back equal', async () => {
    const w = new ParquetRows(small, columns, { rowGroupRows: 3 });
    const parts: Uint8Array[] = [];
    const rows: (string | null)[][] = [];
    for (let i = 0; i < 8; i++) rows.push([String(i - 4), i % 2 ? null : '2024-01-0' + (i + 1), '0x0' + i, 'ü' + i, `${i - 4}.25`, 'live']);
    parts.push(w.add(batchOf(rows.slice(0, 5))));
    expect(parts[0].length).toBeGreaterThan(4); // the first row group was written
    parts.push(w.add(batchOf(rows.slice(5))), ...ended(w));
    const buf = joined(parts).buffer;
    const meta = parquetMetadata(buf);
    expect(meta.row_groups.map((g) => g.num_rows)).toEqual([3n, 3n, 2n]);
    const back = await parquetReadObjects({ file: buf, utf8: false });
    expect(back.map((r) => r.id)).toEqual(rows.map((r) => Number(r[0])));
    expect(back.map((r) => (r.d === null ? null : (r.d as Date).toISOString().slice(0, 10)))).toEqual(rows.map((r) => r[1]));
    expect(back.map((r) => Array.from(r.b as Uint8Array))).toEqual(rows.map((_, i) => [i]));
    expect(back.map((r) => r.t)).toEqual(rows.map((r) => r[3]));
    expect(back.map((r) => r.amt)).toEqual(rows.map((r) => Number(r[4])));
    expect(w.notHeld()).toEqual([]);
  });

  it('writes a null where the type cannot hold the cell, and says which and where', async () => {
    const w = new ParquetRows(small, columns);
    const rows = [['1', '0000-00-00', '[unreadable: column `b`: cut]', 'x', '1.00', 'live'], ['2', '2024-01-01', '0x', '[absent: not in index k]', null, 'partial']];
    const parts = [w.add(batchOf(rows)), ...ended(w)];
    const buf = joined(parts).buffer;
    // DuckDB: the values its type cannot hold are nulls, a text column keeps its mark.
    const duck = await duckdb(buf, rows);
    expect(duck.thrift).toEqual([]);
    expect(duck.rows).toEqual([['1', null, null, 'x', '1.00', 'live'], rows[1]]);
    const back = await parquetReadObjects({ file: buf });
    expect(back.map((r) => [r.d === null, r.b === null])).toEqual([[true, true], [false, false]]);
    const notes = w.notHeld();
    expect(notes).toEqual([
      { column: 'd', count: 1, rows: [0], example: '0000-00-00' },
      { column: 'b', count: 1, rows: [0], example: '[unreadable: column `b`: cut]' },
    ]);
    const kv = parquetMetadata(buf).key_value_metadata ?? [];
    expect(JSON.parse(kv.find((k) => k.key === 'ibd-reader.values-not-held')!.value!)).toEqual(notes);
    expect(kv.find((k) => k.key === 'ibd-reader.create-table')!.value).toContain('CREATE TABLE s');
  });

  it('writes a valid file with no rows', async () => {
    const w = new ParquetRows(small, columns);
    const buf = joined(ended(w)).buffer;
    expect(parquetMetadata(buf).num_rows).toBe(0n);
    expect(await parquetReadObjects({ file: buf })).toEqual([]);
    const duck = await duckdb(buf, []);
    expect([duck.columns, duck.rows, duck.thrift]).toEqual([columns, [], []]);
  });
});
