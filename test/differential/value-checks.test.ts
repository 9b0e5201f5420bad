/**
 * The value checks (src/core/types/value-check*.ts) against a real server: the edge values of every
 * type MariaDB 10.11 stores, in each row format, pass their checks (no failed record) and still
 * decode to the server's SELECT; and a record whose bytes were damaged in a checked field comes out
 * as a failed record naming the field, not as a row.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32c } from '../../src/core/pages/checksum.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { createTable, expectSameAsServer, quote, type ColumnCase } from '../types/compare.ts';
import { decodeFile } from './decode.ts';

const ROW_FORMATS = ['REDUNDANT', 'COMPACT', 'DYNAMIC'] as const;
const NON_STRICT = "SET SESSION sql_mode='NO_ENGINE_SUBSTITUTION'; SET SESSION innodb_strict_mode=OFF;";
const FSPS = [0, 1, 2, 3, 4, 5, 6];

/** A column and the SQL values its rows take in turn (so every one is in the file). */
interface EdgeColumn {
  name: string;
  sql: string;
  values: string[];
}

const list = (xs: string[]) => xs.map((x) => `'${x}'`).join(',');
const ENUM300 = Array.from({ length: 300 }, (_, i) => `e${i}`);
const SET64 = Array.from({ length: 64 }, (_, i) => `s${i}`);
const SET33 = Array.from({ length: 33 }, (_, i) => `x${i}`);
const geometry = (wkt: string) => `ST_GeomFromText('${wkt}')`;

const EDGES: Record<string, EdgeColumn[]> = {
  temporal: [
    { name: 'd', sql: 'DATE', values: ["'0000-00-00'", "'1000-01-01'", "'9999-12-31'", "'2024-00-15'", "'2024-02-00'", "'2024-02-29'"] },
    ...FSPS.map((fsp) => ({
      name: `dt${fsp}`, sql: `DATETIME(${fsp})`,
      values: ["'0000-00-00 00:00:00'", "'1000-01-01 00:00:00'", "'9999-12-31 23:59:59.999999'", "'2024-00-00 12:30:00.5'", "'2024-02-29 13:05:00.123456'"],
    })),
    ...FSPS.map((fsp) => ({
      name: `t${fsp}`, sql: `TIME(${fsp})`,
      values: ["'-838:59:59.999999'", "'838:59:59.999999'", "'00:00:00'", "'-00:00:00.5'", "'-00:00:01.25'", "'-12:34:56.000001'", "'23:59:59.9'"],
    })),
    ...FSPS.map((fsp) => ({
      name: `ts${fsp}`, sql: `TIMESTAMP(${fsp}) NULL`,
      values: ["'1970-01-01 00:00:01'", "'2038-01-19 03:14:07.999999'", "'0000-00-00 00:00:00'", "'2000-02-29 00:00:00.000001'"],
    })),
    { name: 'y', sql: 'YEAR', values: ['0', '1901', '2155'] },
  ],
  numeric: [
    { name: 'd65', sql: 'DECIMAL(65,30)', values: [`${'9'.repeat(35)}.${'9'.repeat(30)}`, `-${'9'.repeat(35)}.${'9'.repeat(30)}`, '0', `-0.${'0'.repeat(29)}1`, '-1'] },
    { name: 'd10', sql: 'DECIMAL(10,2)', values: ['99999999.99', '-99999999.99', '0.01', '-0.01', '0'] },
    { name: 'd1', sql: 'DECIMAL(1,0)', values: ['9', '-9', '0'] },
    { name: 'd99', sql: 'DECIMAL(9,9)', values: ['0.999999999', '-0.999999999', '0'] },
    { name: 'd18', sql: 'DECIMAL(18,9) UNSIGNED', values: ['999999999.999999999', '0', '123456789.000000001'] },
    { name: 'f', sql: 'FLOAT', values: ['3.40282e38', '-3.40282e38', '1.17549e-38', '0', '-1.5'] },
    { name: 'db', sql: 'DOUBLE', values: ['1.7976931348623157e308', '-2.2250738585072014e-308', '0', '4.9e-324'] },
    { name: 'b1', sql: 'BIT(1)', values: ["b'0'", "b'1'"] },
    { name: 'b7', sql: 'BIT(7)', values: ["b'1111111'", "b'0'", "b'1000000'"] },
    { name: 'b17', sql: 'BIT(17)', values: ['0x1FFFF', '0', '0x10000'] },
    { name: 'b64', sql: 'BIT(64)', values: ['0xFFFFFFFFFFFFFFFF', '0', '0x8000000000000000'] },
  ],
  enumset: [
    { name: 'e3', sql: "ENUM('a','b','c')", values: ["'a'", "'b'", "'c'", "''"] },
    { name: 'e300', sql: `ENUM(${list(ENUM300)})`, values: ["'e0'", "'e299'", "'e255'", "''"] },
    { name: 's3', sql: "SET('a','b','c')", values: ["'a,b,c'", "''", "'b'", "'c'"] },
    { name: 's33', sql: `SET(${list(SET33)})`, values: [`'${SET33.join(',')}'`, "''", "'x32'"] },
    { name: 's64', sql: `SET(${list(SET64)})`, values: [`'${SET64.join(',')}'`, "''", "'s63'"] },
  ],
  text: [
    { name: 'v3', sql: 'VARCHAR(10) CHARACTER SET utf8mb3', values: ["'日本語テキスト日本語テ'", "''", "'a'", "'ÿ€'"] },
    { name: 'v4', sql: 'VARCHAR(10) CHARACTER SET utf8mb4', values: [`'${'😀'.repeat(10)}'`, "'é'", "''"] },
    { name: 'c4', sql: 'CHAR(5) CHARACTER SET utf8mb4', values: ["'😀é'", "''", "'abcde'", `'${'😀'.repeat(5)}'`] },
    { name: 'c3', sql: 'CHAR(3) CHARACTER SET utf8mb3', values: ["'日本語'", "'a'", "''"] },
    { name: 'vu2', sql: 'VARCHAR(5) CHARACTER SET ucs2', values: ["'é日本'", "''", "'abcde'"] },
    { name: 'cu2', sql: 'CHAR(3) CHARACTER SET ucs2', values: ["'é日'", "''"] },
    { name: 'v16', sql: 'VARCHAR(5) CHARACTER SET utf16', values: ["'😀𝄞é'", "''", "'日本'"] },
    { name: 'c16', sql: 'CHAR(3) CHARACTER SET utf16', values: ["'😀'", "'ab'"] },
    { name: 'v16le', sql: 'VARCHAR(5) CHARACTER SET utf16le', values: ["'😀𝄞'", "'x'"] },
    { name: 'v32', sql: 'VARCHAR(5) CHARACTER SET utf32', values: ["'😀日é'", "''"] },
    { name: 'c32', sql: 'CHAR(2) CHARACTER SET utf32', values: ["'😀'", "''"] },
    { name: 'vsj', sql: 'VARCHAR(6) CHARACTER SET sjis', values: ["'ｱ日本ｶﾅ'", "'abc'", "''"] },
    { name: 'csj', sql: 'CHAR(4) CHARACTER SET sjis', values: ["'日本'", "'ｱ'"] },
    { name: 'vcp', sql: 'VARCHAR(4) CHARACTER SET cp932', values: ["'①日'", "'x'"] },
    { name: 'vgbk', sql: 'VARCHAR(6) CHARACTER SET gbk', values: ["'中文字符'", "'a'", "''"] },
    { name: 'cgbk', sql: 'CHAR(4) CHARACTER SET gbk', values: ["'中文'", "''"] },
    { name: 'vbig5', sql: 'VARCHAR(4) CHARACTER SET big5', values: ["'中文'", "'x'"] },
    { name: 'vujis', sql: 'VARCHAR(4) CHARACTER SET ujis', values: ["'日本ｱ'", "'x'"] },
    { name: 'vkr', sql: 'VARCHAR(4) CHARACTER SET euckr', values: ["'한국어'", "'x'"] },
    { name: 'vgb', sql: 'VARCHAR(4) CHARACTER SET gb2312', values: ["'中文'", "'x'"] },
    { name: 'vl1', sql: 'VARCHAR(4) CHARACTER SET latin1', values: ["'ÿéü¡'", "''"] },
    { name: 'tt', sql: 'TINYTEXT CHARACTER SET latin1', values: [`'${'x'.repeat(255)}'`, "''"] },
    { name: 'tx', sql: 'TEXT CHARACTER SET utf8mb4', values: [`'${'é😀'.repeat(100)}'`, "''"] },
  ],
  special: [
    { name: 'j', sql: 'JSON', values: [`'{"a": [1, 2.5, "é", null, true], "b": {}}'`, "'[]'", `'"x"'`, "'12'"] },
    {
      name: 'g', sql: 'GEOMETRY',
      values: [
        geometry('POINT(1 2)'), geometry('LINESTRING(0 0,1 1,2 0)'), geometry('POLYGON((0 0,3 0,3 3,0 0),(1 1,2 1,1 2,1 1))'), geometry('MULTIPOINT(1 2,3 4)'),
        geometry('MULTILINESTRING((0 0,1 1),(2 2,3 3))'), geometry('MULTIPOLYGON(((0 0,1 0,1 1,0 0)))'), geometry('GEOMETRYCOLLECTION(POINT(1 1),LINESTRING(0 0,1 1))'),
        geometry('GEOMETRYCOLLECTION EMPTY'),
      ],
    },
    { name: 'pt', sql: 'POINT', values: [geometry('POINT(-1.5 1e300)'), geometry('POINT(0 0)')] },
    { name: 'ip4', sql: 'INET4', values: ["'0.0.0.0'", "'255.255.255.255'", "'10.1.2.3'"] },
    { name: 'ip6', sql: 'INET6', values: ["'::'", "'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'", "'::ffff:1.2.3.4'"] },
    { name: 'u', sql: 'UUID', values: ["'00000000-0000-0000-0000-000000000000'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'", "'6ccd780c-baba-1026-9564-5b8c656024db'"] },
    { name: 'bn', sql: 'BINARY(4)', values: ["X'00000000'", "X'FFFFFFFF'", "X''"] },
    { name: 'vb', sql: 'VARBINARY(4)', values: ["X'FFFFFFFF'", "X''"] },
  ],
};

/** One row per value of the longest list (each column's values in turn), then one of NULLs. */
function edgeInserts(table: string, columns: EdgeColumn[]): string {
  const rows = Math.max(...columns.map((c) => c.values.length));
  const tuples = Array.from({ length: rows }, (_, r) => `(${r + 1}, ${columns.map((c) => c.values[r % c.values.length]).join(', ')})`);
  tuples.push(`(${rows + 1}, ${columns.map(() => 'NULL').join(', ')})`);
  return `INSERT INTO ${quote(table)} (id, ${columns.map((c) => quote(c.name)).join(', ')}) VALUES ${tuples.join(', ')};`;
}

describe('MariaDB 10.11: edge values of every type pass their value checks', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const cases = ROW_FORMATS.flatMap((format) => Object.keys(EDGES).map((group) => ({ format, group })));
  it.each(cases)('$group, ROW_FORMAT=$format', async ({ format, group }) => {
    const table = `edges_${group}_${format.toLowerCase()}`;
    const columns = EDGES[group];
    const cases: ColumnCase[] = columns.map((c) => ({ name: c.name, sql: c.sql, gen: () => 'NULL' }));
    await server.exec(NON_STRICT + createTable(table, cases, `ROW_FORMAT=${format} DEFAULT CHARSET=utf8mb4`) + edgeInserts(table, columns));
    const { rows } = await expectSameAsServer(server, table);
    expect(rows.length).toBe(Math.max(...columns.map((c) => c.values.length)) + 1);
  });
});

/** A DATE's stored bytes (temporal.ts renderDate). */
const dateBytes = (y: number, m: number, d: number): number[] => {
  const v = (((y * 16 + m) * 32 + d) | 0x800000) >>> 0;
  return [v >> 16, (v >> 8) & 0xff, v & 0xff];
};

/** Where the record with INT key `id` starts in `file`: its key bytes followed, 17 bytes on, by `after`. */
function recordOrigin(file: Uint8Array, id: number, after: number[]): number {
  const key = [0x80, 0, 0, id];
  for (let p = 0; p + 17 + after.length <= file.length; p++) {
    if (key.every((x, i) => file[p + i] === x) && after.every((x, i) => file[p + 17 + i] === x)) return p;
  }
  throw new Error(`no record ${id} in the file`);
}

describe('a record damaged in a checked field is a failed record, not a row', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const ROWS = 100;
  const day = (id: number) => (id % 28) + 1;

  it.each([true, false])('ROW_FORMAT=COMPACT, page checksum recomputed: %s', async (recompute) => {
    const table = `damaged_${recompute ? 'fixed' : 'bad'}`;
    const values = Array.from({ length: ROWS }, (_, i) => `(${i + 1}, '2024-03-${day(i + 1)}', '2024-03-${day(i + 1)} 10:20:30', 'row ${i + 1}')`);
    await server.exec(`CREATE TABLE ${table} (id INT NOT NULL PRIMARY KEY, d DATE NOT NULL, dt DATETIME NOT NULL, v VARCHAR(20) NOT NULL) ROW_FORMAT=COMPACT; INSERT INTO ${table} VALUES ${values.join(', ')};`);
    const ddl = (await server.query(`SHOW CREATE TABLE ${table}`)).rows[0][1] as string;
    const ibd = await server.exportTable(table);
    const file = new Uint8Array(readFileSync(ibd));

    // Record 42: DATE month 15. Record 43: DATETIME hour 25 (its month cannot be: it is stored as
    // year × 13 + month). Record 44: VARCHAR bytes that are not UTF-8.
    const at42 = recordOrigin(file, 42, dateBytes(2024, 3, day(42)));
    file.set(dateBytes(2024, 15, day(42)), at42 + 17);
    const at43 = recordOrigin(file, 43, dateBytes(2024, 3, day(43)));
    file[at43 + 22] |= 0x01; // the hour's top bit: 10 + 16 = 26
    const at44 = recordOrigin(file, 44, dateBytes(2024, 3, day(44)));
    file[at44 + 25] = 0xff; // the first byte of 'row 44'
    const pageNo = Math.floor(at42 / 16384);
    expect(Math.floor(at44 / 16384)).toBe(pageNo);
    const page = file.subarray(pageNo * 16384, (pageNo + 1) * 16384);
    if (recompute) new DataView(page.buffer, page.byteOffset).setUint32(16384 - 4, crc32c(page, 0, 16384 - 4));
    const damaged = ibd.replace(/\.ibd$/, '-damaged.ibd');
    writeFileSync(damaged, file);

    // With its checksum wrong the page is damaged: nothing of it is live, its records are rows of
    // state damaged, each value checked; with the checksum made right, its three records fail.
    const { reader, rows } = await decodeFile(damaged, ddl, undefined, recompute ? 'live' : 'damaged');
    const stats = reader.stats;
    if (!recompute) expect((await decodeFile(damaged, ddl)).rows).toEqual([]);
    expect(stats.recordsFailed).toBe(3);
    expect(rows.map((r) => Number(r[0]))).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1).filter((id) => id < 42 || id > 44));
    expect(rows.find((r) => r[0] === '41')).toEqual(['41', `2024-03-${String(day(41)).padStart(2, '0')}`, `2024-03-${String(day(41)).padStart(2, '0')} 10:20:30`, 'row 41']);
    const messages = stats.problems.filter((p) => p.record !== null).map((p) => [p.page, p.message]);
    if (recompute) {
      expect(messages).toEqual([
        [pageNo, 'the record does not fit the table definition: field `d`: month 15'],
        [pageNo, 'the record does not fit the table definition: field `dt`: hour 26'],
        [pageNo, 'the record does not fit the table definition: field `v`: invalid utf8mb4 at byte 0'],
      ]);
    } else {
      // The damaged page's list stops at the first record that does not fit; the rest are carved.
      expect(messages[0]).toEqual([pageNo, 'the damaged page\'s record list leads here, where no record of this table fits (field `d`: month 15); the list is not followed further']);
      expect(stats.carvedRecords).toBeGreaterThan(0);
    }
    expect(stats.badChecksums).toBe(recompute ? 0 : 1);
  });
});
