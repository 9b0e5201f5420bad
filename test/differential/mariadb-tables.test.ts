/**
 * Differential tests against a real MariaDB: for every page size and both checksum layouts, tables
 * of every column type in this slice, filled with random and edge values, exported with FLUSH TABLES
 * ... FOR EXPORT, decoded by ibd-reader and compared value by value with the server's own SELECT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type ChecksumAlgorithm, type MariadbServer } from '../harness/mariadb.ts';
import { expectServerRows } from './decode.ts';
import { date, datetime, decimal, integer, inserts, real, rng, text, timestamp, type Gen } from './random-data.ts';

interface ColumnCase {
  name: string;
  sql: string;
  gen: Gen;
}

/**
 * Every type of the slice. On 4K pages a COMPACT record keeps 768 bytes of each long value inline and
 * must fit in about 1,980 bytes: there only one column may go off-page, and the short text columns
 * stay well below their maximum length.
 */
function typeColumns(pageSize: number): ColumnCase[] {
  const fit = (chars: number) => (pageSize > 4096 ? chars : Math.ceil(chars * 0.4));
  const all: ColumnCase[] = [
    { name: 'ti', sql: 'TINYINT', gen: integer(8, false) },
    { name: 'tiu', sql: 'TINYINT UNSIGNED', gen: integer(8, true) },
    { name: 'si', sql: 'SMALLINT', gen: integer(16, false) },
    { name: 'siu', sql: 'SMALLINT UNSIGNED', gen: integer(16, true) },
    { name: 'mi', sql: 'MEDIUMINT', gen: integer(24, false) },
    { name: 'miu', sql: 'MEDIUMINT UNSIGNED', gen: integer(24, true) },
    { name: 'i', sql: 'INT', gen: integer(32, false) },
    { name: 'iu', sql: 'INT UNSIGNED', gen: integer(32, true) },
    { name: 'bi', sql: 'BIGINT', gen: integer(64, false) },
    { name: 'biu', sql: 'BIGINT UNSIGNED', gen: integer(64, true) },
    { name: 'd_money', sql: 'DECIMAL(10,2)', gen: decimal(10, 2) },
    { name: 'd_max', sql: 'DECIMAL(65,30)', gen: decimal(65, 30) },
    { name: 'd_int', sql: 'DECIMAL(18,0)', gen: decimal(18, 0) },
    { name: 'd_frac', sql: 'DECIMAL(5,5)', gen: decimal(5, 5) },
    { name: 'd_odd', sql: 'DECIMAL(13,4) UNSIGNED', gen: (r) => decimal(13, 4)(r).replace('-', '') },
    { name: 'vc_latin1', sql: 'VARCHAR(100) CHARACTER SET latin1', gen: text(fit(100), 'latin1') },
    { name: 'vc_utf8mb3', sql: 'VARCHAR(120) CHARACTER SET utf8mb3', gen: text(fit(120), 'utf8mb3') },
    { name: 'vc_short4', sql: 'VARCHAR(50) CHARACTER SET utf8mb4', gen: text(fit(50), 'utf8mb4') },
    { name: 'vc_utf8mb4', sql: 'VARCHAR(100) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin', gen: text(fit(100), 'utf8mb4') },
    { name: 'c_latin1', sql: 'CHAR(10) CHARACTER SET latin1', gen: text(10, 'latin1') },
    { name: 'c_utf8mb3', sql: 'CHAR(5) CHARACTER SET utf8mb3', gen: text(5, 'utf8mb3') },
    { name: 'c_utf8mb4', sql: 'CHAR(20) CHARACTER SET utf8mb4', gen: text(20, 'utf8mb4') },
    { name: 'tt_latin1', sql: 'TINYTEXT CHARACTER SET latin1', gen: text(fit(200), 'latin1') },
    { name: 'tx_utf8mb4', sql: 'TEXT CHARACTER SET utf8mb4', gen: text(fit(150), 'utf8mb4') },
    // Long values go off-page (BLOB pages): a 768-byte prefix in COMPACT, a bare pointer in DYNAMIC.
    { name: 'mt_long', sql: 'MEDIUMTEXT CHARACTER SET utf8mb4', gen: text(6000, 'utf8mb4', { longChance: 0.03 }) },
    { name: 'lt_latin1', sql: 'LONGTEXT CHARACTER SET latin1', gen: text(20000, 'latin1', { longChance: 0.01 }) },
    { name: 'dt', sql: 'DATE', gen: date() },
    { name: 'dtm0', sql: 'DATETIME', gen: datetime(0) },
    { name: 'dtm1', sql: 'DATETIME(1)', gen: datetime(1) },
    { name: 'dtm3', sql: 'DATETIME(3)', gen: datetime(3) },
    { name: 'dtm6', sql: 'DATETIME(6)', gen: datetime(6) },
    { name: 'ts0', sql: 'TIMESTAMP NULL', gen: timestamp(0) },
    { name: 'ts2', sql: 'TIMESTAMP(2) NULL', gen: timestamp(2) },
    { name: 'ts4', sql: 'TIMESTAMP(4) NULL', gen: timestamp(4) },
    { name: 'ts6', sql: 'TIMESTAMP(6) NULL', gen: timestamp(6) },
  ];
  return pageSize > 4096 ? all : all.filter((c) => c.name !== 'lt_latin1');
}

function createTypesTable(name: string, rowFormat: string, columns: ColumnCase[]): string {
  return `CREATE TABLE \`${name}\` (id INT NOT NULL PRIMARY KEY, ${columns.map((c) => `\`${c.name}\` ${c.sql}`).join(', ')}) ROW_FORMAT=${rowFormat};`;
}

interface ServerCase {
  pageSize: number;
  checksum: ChecksumAlgorithm;
}

const SERVERS: ServerCase[] = [
  { pageSize: 16384, checksum: 'full_crc32' },
  { pageSize: 4096, checksum: 'full_crc32' },
  { pageSize: 8192, checksum: 'full_crc32' },
  { pageSize: 32768, checksum: 'full_crc32' },
  { pageSize: 65536, checksum: 'full_crc32' },
  { pageSize: 16384, checksum: 'crc32' },
  { pageSize: 4096, checksum: 'crc32' },
];

const ROWS = 3000;

describe.each(SERVERS)('MariaDB, $pageSize-byte pages, $checksum', ({ pageSize, checksum }) => {
  let server: MariadbServer;
  const columns = typeColumns(pageSize);
  const seed = pageSize + (checksum === 'crc32' ? 1 : 0);

  beforeAll(async () => {
    server = await startMariadb({ pageSize, checksum });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(['DYNAMIC', 'COMPACT'])('every type of the slice, ROW_FORMAT=%s, multi-level tree', async (rowFormat) => {
    const table = `types_${rowFormat.toLowerCase()}`;
    // Strict mode refuses DDL whose longest possible row could overflow a 4K page; real rows fit.
    await server.exec('SET SESSION innodb_strict_mode=OFF;' + createTypesTable(table, rowFormat, columns) + inserts(table, ['id', ...columns.map((c) => c.name)], columns.map((c) => c.gen), ROWS, seed));
    const { reader } = await expectServerRows(server, table, 'id');
    expect(reader.info.pageSize).toBe(pageSize);
    expect(reader.info.checksumFormat).toBe(checksum === 'full_crc32' ? 'full_crc32' : 'mysql');
    expect(reader.info.rowFormat).toBe(rowFormat);
    expect(reader.info.treeHeight).toBeGreaterThanOrEqual(2);
    expect(reader.stats.badChecksums).toBe(0);
  });

  it('FLOAT and DOUBLE, plain and with fixed decimals', async () => {
    const cols: ColumnCase[] = [
      { name: 'f', sql: 'FLOAT', gen: real(37) },
      { name: 'd', sql: 'DOUBLE', gen: real(307) },
      { name: 'fu', sql: 'FLOAT UNSIGNED', gen: (r) => real(37)(r).replace('-', '') },
      { name: 'f74', sql: 'FLOAT(7,4)', gen: (r) => (r() * 2000 - 1000).toFixed(Math.floor(r() * 6)) },
      { name: 'd155', sql: 'DOUBLE(15,5)', gen: (r) => (r() * 2e9 - 1e9).toFixed(Math.floor(r() * 8)) },
      { name: 'd100', sql: 'DOUBLE(10,0)', gen: (r) => (r() * 2e6 - 1e6).toFixed(Math.floor(r() * 3)) },
    ];
    await server.exec(`CREATE TABLE reals (id INT PRIMARY KEY, ${cols.map((c) => `\`${c.name}\` ${c.sql}`).join(', ')});` + inserts('reals', ['id', ...cols.map((c) => c.name)], cols.map((c) => c.gen), 1500, seed + 5));
    await expectServerRows(server, 'reals', 'id');
  });

  it('a table without a primary key (clustered on DB_ROW_ID)', async () => {
    const cols = columns.filter((c) => ['i', 'vc_utf8mb4', 'd_money', 'dtm6'].includes(c.name));
    await server.exec(`CREATE TABLE no_pk (seq INT, ${cols.map((c) => `\`${c.name}\` ${c.sql}`).join(', ')});` + inserts('no_pk', ['seq', ...cols.map((c) => c.name)], cols.map((c) => c.gen), 1500, seed + 7));
    const { reader } = await expectServerRows(server, 'no_pk', null);
    expect(reader.info.clusteredOn).toBe('row_id');
  });

  it('a table clustered on a NOT NULL UNIQUE key', async () => {
    await server.exec(`CREATE TABLE uniq (u INT NOT NULL, v VARCHAR(30), UNIQUE KEY (u));` + inserts('uniq', ['u', 'v'], [text(30, 'utf8mb4')], 800, seed + 11));
    const { reader } = await expectServerRows(server, 'uniq', 'u');
    expect(reader.info.clusteredOn).toBe('unique');
  });

  it('a composite primary key (VARCHAR + INT + DATE)', async () => {
    await server.exec(`CREATE TABLE composite (k1 VARCHAR(20) CHARACTER SET utf8mb4 NOT NULL, k2 INT NOT NULL, k3 DATE NOT NULL, val DECIMAL(12,3), note TEXT, PRIMARY KEY (k1, k2, k3)) DEFAULT CHARSET=utf8mb4;`);
    const r = rng(seed + 3);
    const values: string[] = [];
    for (let i = 0; i < 2000; i++) {
      values.push(`('key${Math.floor(r() * 50)}', ${Math.floor(r() * 1e6) - 5e5}, '20${10 + Math.floor(r() * 20)}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}', ${r() < 0.1 ? 'NULL' : (r() * 1e6).toFixed(3)}, ${r() < 0.2 ? 'NULL' : `'n${i}'`})`);
    }
    await server.exec(`INSERT IGNORE INTO composite VALUES ${values.join(',')};`);
    // The server orders VARCHAR keys by collation; that is the clustered index order too.
    await expectServerRows(server, 'composite', 'k1, k2, k3');
  });

  it('an empty table', async () => {
    await server.exec('CREATE TABLE empty_t (id INT PRIMARY KEY, name VARCHAR(10));');
    const { rows, reader } = await expectServerRows(server, 'empty_t', 'id');
    expect(rows).toEqual([]);
    expect(reader.info.treeHeight).toBe(1);
  });
});
