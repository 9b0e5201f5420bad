/**
 * Every column type MariaDB 10.11 can create, in each row format it writes (REDUNDANT, COMPACT,
 * DYNAMIC), filled with random and edge values and NULLs, decoded and compared value by value with
 * the server's SELECT. Values are inserted in non-strict mode so that the edges strict mode refuses
 * (zero dates, the invalid ENUM value '', characters a charset cannot hold, which become '?') are in
 * the files too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { date, datetime, decimal, integer, inserts, real, text, timestamp } from './random-data.ts';
import { createTable, expectSameAsServer, type ColumnCase } from '../types/compare.ts';
import { decodeFile } from './decode.ts';
import * as v from '../types/values.ts';

const ROW_FORMATS = ['REDUNDANT', 'COMPACT', 'DYNAMIC'] as const;
const ROWS = 250;
const NON_STRICT = "SET SESSION sql_mode='NO_ENGINE_SUBSTITUTION'; SET SESSION innodb_strict_mode=OFF;";

const ENUM300 = Array.from({ length: 300 }, (_, i) => `e${i}`);
const SET64 = Array.from({ length: 64 }, (_, i) => `s${i}`);
const SET20 = Array.from({ length: 20 }, (_, i) => `m${i}`);
const SET33 = Array.from({ length: 33 }, (_, i) => `x${i}`);
const list = (xs: string[]) => xs.map((x) => `'${x}'`).join(',');

/** Charsets whose text the tests write: every one MariaDB 10.11 has. */
const CHARSETS = Object.keys(v.CHARSET_POOLS).filter((c) => c !== 'binary' && c !== 'gb18030');

const GROUPS: Record<string, ColumnCase[]> = {
  numeric: [
    { name: 'ti', sql: 'TINYINT', gen: integer(8, false) },
    { name: 'tiu', sql: 'TINYINT UNSIGNED', gen: integer(8, true) },
    { name: 'bo', sql: 'BOOL', gen: integer(8, false) },
    { name: 'si', sql: 'SMALLINT', gen: integer(16, false) },
    { name: 'mi', sql: 'MEDIUMINT', gen: integer(24, false) },
    { name: 'i', sql: 'INT', gen: integer(32, false) },
    { name: 'bi', sql: 'BIGINT', gen: integer(64, false) },
    { name: 'biu', sql: 'BIGINT UNSIGNED', gen: integer(64, true) },
    { name: 'tiz', sql: 'TINYINT ZEROFILL', gen: integer(8, true) },
    { name: 'iz', sql: 'INT ZEROFILL', gen: integer(32, true) },
    { name: 'biz', sql: 'BIGINT ZEROFILL', gen: integer(64, true) },
    { name: 'd', sql: 'DECIMAL(10,2)', gen: decimal(10, 2) },
    { name: 'd65', sql: 'DECIMAL(65,30)', gen: decimal(65, 30) },
    { name: 'd1', sql: 'DECIMAL(1,0)', gen: decimal(1, 0) },
    { name: 'dz', sql: 'DECIMAL(12,3) ZEROFILL', gen: (r) => decimal(12, 3)(r).replace('-', '') },
    { name: 'f', sql: 'FLOAT', gen: real(37) },
    { name: 'db', sql: 'DOUBLE', gen: real(307) },
    { name: 'fz', sql: 'FLOAT ZEROFILL', gen: (r) => real(37)(r).replace('-', '') },
    { name: 'd82z', sql: 'DOUBLE(8,2) ZEROFILL', gen: (r) => (r() * 1e5).toFixed(2) },
    { name: 'b1', sql: 'BIT(1)', gen: v.bits(1) },
    { name: 'b7', sql: 'BIT(7)', gen: v.bits(7) },
    { name: 'b8', sql: 'BIT(8)', gen: v.bits(8) },
    { name: 'b17', sql: 'BIT(17)', gen: v.bits(17) },
    { name: 'b64', sql: 'BIT(64)', gen: v.bits(64) },
  ],
  temporal: [
    { name: 'dt', sql: 'DATE', gen: date() },
    { name: 'dz', sql: 'DATE', gen: v.zeroDate() },
    { name: 'dtm0', sql: 'DATETIME', gen: v.zeroDatetime(0) },
    { name: 'dtm2', sql: 'DATETIME(2)', gen: datetime(2) },
    { name: 'dtm6', sql: 'DATETIME(6)', gen: v.zeroDatetime(6) },
    { name: 'ts0', sql: 'TIMESTAMP NULL', gen: timestamp(0) },
    { name: 'ts3', sql: 'TIMESTAMP(3) NULL', gen: timestamp(3) },
    { name: 'ts5', sql: 'TIMESTAMP(5) NULL', gen: timestamp(5) },
    ...[0, 1, 2, 3, 4, 5, 6].map((fsp) => ({ name: `t${fsp}`, sql: `TIME(${fsp})`, gen: v.time(fsp) })),
    { name: 'y', sql: 'YEAR', gen: v.year() },
  ],
  enumset: [
    { name: 'e3', sql: "ENUM('a','b','c')", gen: v.member(['a', 'b', 'c'], true) },
    { name: 'e300', sql: `ENUM(${list(ENUM300)})`, gen: v.member(ENUM300, true) },
    // Not 4-byte characters: MariaDB's SHOW CREATE TABLE prints them as '?' in ENUM and SET lists.
    { name: 'eu', sql: "ENUM('é','日本','ß€') CHARACTER SET utf8mb4", gen: v.member(['é', '日本', 'ß€'], false) },
    { name: 's3', sql: "SET('a','b','c')", gen: v.members(['a', 'b', 'c']) },
    { name: 's20', sql: `SET(${list(SET20)})`, gen: v.members(SET20) },
    { name: 's33', sql: `SET(${list(SET33)})`, gen: v.members(SET33) },
    { name: 's64', sql: `SET(${list(SET64)})`, gen: v.members(SET64) },
  ],
  binary: [
    { name: 'bn1', sql: 'BINARY(1)', gen: v.bytes(1) },
    { name: 'bn16', sql: 'BINARY(16)', gen: v.bytes(16) },
    { name: 'bn255', sql: 'BINARY(255)', gen: v.bytes(255) },
    { name: 'vb', sql: 'VARBINARY(10)', gen: v.bytes(10) },
    { name: 'vb300', sql: 'VARBINARY(300)', gen: v.bytes(300) },
    { name: 'tb', sql: 'TINYBLOB', gen: v.bytes(255) },
    { name: 'bl', sql: 'BLOB', gen: v.bytes(2000) },
    { name: 'mb', sql: 'MEDIUMBLOB', gen: v.bytes(3000) },
    { name: 'lb', sql: 'LONGBLOB', gen: v.bytes(1000) },
    { name: 'cbin', sql: 'CHAR(5) CHARACTER SET binary', gen: v.bytes(5) },
  ],
  special: [
    { name: 'j', sql: 'JSON', gen: v.json() },
    { name: 'g', sql: 'GEOMETRY', gen: v.geometry('geometry') },
    { name: 'pt', sql: 'POINT', gen: v.geometry('point') },
    { name: 'ls', sql: 'LINESTRING', gen: v.geometry('linestring') },
    { name: 'pg', sql: 'POLYGON', gen: v.geometry('polygon') },
    { name: 'mpt', sql: 'MULTIPOINT', gen: v.geometry('multipoint') },
    { name: 'mls', sql: 'MULTILINESTRING', gen: v.geometry('multilinestring') },
    { name: 'mpg', sql: 'MULTIPOLYGON', gen: v.geometry('multipolygon') },
    { name: 'gc', sql: 'GEOMETRYCOLLECTION', gen: v.geometry('geometrycollection') },
    { name: 'ip4', sql: 'INET4', gen: v.inet4() },
    { name: 'ip6', sql: 'INET6', gen: v.inet6() },
    { name: 'u', sql: 'UUID', gen: v.uuid() },
    { name: 'hidden', sql: 'VARCHAR(20) INVISIBLE', gen: text(20, 'utf8mb4') },
  ],
  long: [
    // Full-length values included: 64,000 bytes of VARCHAR, 65,535 of TEXT, both off-page.
    { name: 'v16k', sql: 'VARCHAR(16000) CHARACTER SET utf8mb4', gen: text(16000, 'utf8mb4', { longChance: 0.1 }) },
    { name: 't64k', sql: 'TEXT CHARACTER SET latin1', gen: text(65535, 'latin1', { longChance: 0.1 }) },
    { name: 'c255', sql: 'CHAR(255) CHARACTER SET utf8mb4', gen: text(255, 'utf8mb4') },
  ],
  charsets: CHARSETS.flatMap((cs) => [
    { name: `c_${cs}`, sql: `CHAR(7) CHARACTER SET ${cs}`, gen: v.charsetText(cs, 7) },
    { name: `v_${cs}`, sql: `VARCHAR(30) CHARACTER SET ${cs}`, gen: v.charsetText(cs, 30) },
    { name: `t_${cs}`, sql: `TEXT CHARACTER SET ${cs}`, gen: v.charsetText(cs, 40) },
  ]),
};

describe('MariaDB 10.11: every column type in every row format', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const cases = ROW_FORMATS.flatMap((format) => Object.keys(GROUPS).map((group) => ({ format, group })));
  it.each(cases)('$group, ROW_FORMAT=$format', async ({ format, group }) => {
    const table = `${group}_${format.toLowerCase()}`;
    const columns = GROUPS[group];
    const seed = format.length * 1000 + group.length;
    await server.exec(NON_STRICT + createTable(table, columns, `ROW_FORMAT=${format} DEFAULT CHARSET=utf8mb4`) + inserts(table, ['id', ...columns.map((c) => c.name)], columns.map((c) => c.gen), ROWS, seed));
    const { reader } = await expectSameAsServer(server, table);
    expect(reader.info.rowFormat).toBe(format);
  });

  it.each(ROW_FORMATS)('generated and invisible columns: virtual ones are not in the file and not in the output; stored and invisible ones are, ROW_FORMAT=%s', async (format) => {
    const table = `generated_${format.toLowerCase()}`;
    await server.exec(`CREATE TABLE ${table} (id INT PRIMARY KEY, a INT, v1 INT AS (a * 2) VIRTUAL, s1 VARCHAR(30) AS (CONCAT('s', a)) STORED, hidden DATE INVISIBLE, v2 VARCHAR(10) AS (LEFT(s1, 3)) VIRTUAL, b VARCHAR(10), s2 BIGINT AS (a + id) PERSISTENT) ROW_FORMAT=${format};` +
      `INSERT INTO ${table} (id, a, hidden, b) VALUES (1, 10, '2024-01-02', 'x'), (2, NULL, NULL, NULL), (3, -5, '1999-12-31', 'yz');`);
    const { reader } = await expectSameAsServer(server, table);
    expect(reader.columns).toEqual(['id', 'a', 's1', 'hidden', 'b', 's2']);
  });
});

describe('MariaDB 10.11 with --mysql56-temporal-format=OFF: the pre-5.6 TIME/DATETIME/TIMESTAMP formats', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384, extraArgs: ['--mysql56-temporal-format=OFF'] });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const FSPS = [0, 1, 2, 3, 4, 5, 6];
  const columns: ColumnCase[] = FSPS.flatMap((fsp) => [
    { name: `t${fsp}`, sql: `TIME(${fsp})`, gen: v.time(fsp) },
    { name: `dt${fsp}`, sql: `DATETIME(${fsp})`, gen: v.zeroDatetime(fsp) },
    { name: `ts${fsp}`, sql: `TIMESTAMP(${fsp}) NULL`, gen: timestamp(fsp) },
  ]);

  it.each(ROW_FORMATS)('ROW_FORMAT=%s, columns marked `/* mariadb-5.3 */`', async (format) => {
    const table = `legacy_${format.toLowerCase()}`;
    await server.exec(NON_STRICT + createTable(table, columns, `ROW_FORMAT=${format}`) + inserts(table, ['id', ...columns.map((c) => c.name)], columns.map((c) => c.gen), ROWS, format.length));
    const ddl = (await server.query(`SHOW CREATE TABLE ${table}`)).rows[0][1] as string;
    expect(ddl.match(/mariadb-5\.3/g)).toHaveLength(columns.length);
    const { rows } = await expectSameAsServer(server, table);
    if (format !== 'REDUNDANT') return;
    // Unmarked, a REDUNDANT record still tells MySQL 5.5's 8-byte DATETIME by its length.
    const unmarked = await decodeFile(await server.exportTable(table), ddl);
    const dt0 = unmarked.reader.columns.indexOf('dt0');
    expect(unmarked.rows.map((r) => r[dt0])).toEqual(rows.map((r) => r[dt0]));
  });
});
