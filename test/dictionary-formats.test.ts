/**
 * The data dictionary as servers that do not run here wrote it (MySQL 4.1–5.7, MariaDB 10.1+), from
 * the documented layouts: SYS_TABLES.N_COLS and TYPE (dict0mem.h DICT_N_COLS_COMPACT, DICT_TF_*),
 * SYS_COLUMNS.MTYPE / PRTYPE / LEN (data0type.h DATA_*, dtype_form_prtype: the server's field type in
 * the low byte, flags above it, the collation id from bit 16). MariaDB 10.11's own dictionary is
 * read against the server in test/differential/system-tablespace.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { dictColumn, type SysColumn } from '../src/core/definitions/dictionary/dict-columns.ts';
import { rowFormatOf } from '../src/core/definitions/dictionary/dict-tables.ts';

/** dict0mem.h: the top bit of N_COLS marks the "new" (COMPACT and later) record format, since MySQL 5.0.3. */
const COMPACT = 0x80000000;
/** DICT_TF bits: COMPACT (0), ZIP_SSIZE (1-4), ATOMIC_BLOBS (5), DATA_DIR (6); MariaDB: PAGE_COMPRESSION (7), its level (8-11). */
const TF = { compact: 1, zip: (ssize: number) => ssize << 1, atomicBlobs: 1 << 5, dataDir: 1 << 6, pageCompressed: 1 << 7, level: (n: number) => n << 8 };

describe('SYS_TABLES: the row format of N_COLS and TYPE', () => {
  it.each([
    ['MySQL 4.1 (no top bit; TYPE 1)', 5, 1, 'REDUNDANT'],
    ['MySQL 5.0+ ROW_FORMAT=REDUNDANT', 7, 1, 'REDUNDANT'],
    ['MySQL 5.0.3+ COMPACT', COMPACT | 7, 1, 'COMPACT'],
    ['5.5+ Barracuda DYNAMIC', COMPACT | 3, TF.compact | TF.atomicBlobs, 'DYNAMIC'],
    ['5.5+ COMPRESSED KEY_BLOCK_SIZE=8 (ssize 4)', COMPACT | 3, TF.compact | TF.zip(4) | TF.atomicBlobs, 'COMPRESSED'],
    ['5.5+ COMPRESSED KEY_BLOCK_SIZE=1 (ssize 1)', COMPACT | 3, TF.compact | TF.zip(1) | TF.atomicBlobs, 'COMPRESSED'],
    ['5.6+ DYNAMIC with DATA DIRECTORY', COMPACT | 3, TF.compact | TF.atomicBlobs | TF.dataDir, 'DYNAMIC'],
    ['MariaDB 10.1+ DYNAMIC page_compressed level 6', COMPACT | 3, TF.compact | TF.atomicBlobs | TF.pageCompressed | TF.level(6), 'DYNAMIC'],
    ['MariaDB 10.1+ COMPACT page_compressed', COMPACT | 3, TF.compact | TF.pageCompressed | TF.level(1), 'COMPACT'],
    ['MySQL 5.7 / MariaDB 10.2+: 2 virtual columns counted in bits 16-30', COMPACT | (2 << 16) | 4, TF.compact | TF.atomicBlobs, 'DYNAMIC'],
  ])('%s', (_what, nCols, type, format) => {
    expect(rowFormatOf(nCols, type)).toBe(format);
  });
});

/** dtype_form_prtype: the old PRTYPE (field type | flags) plus the collation id << 16. */
const prtype = (fieldType: number, flags: number, collation: number) => fieldType | flags | (collation << 16);
const NOT_NULL = 256;
const UNSIGNED = 512;
const BINARY = 1024;
const LONG_TRUE_VARCHAR = 4096;
const col = (mtype: number, type: number, len: number): SysColumn => ({ tableId: 20n, pos: 0, name: 'c', mtype, prtype: type, len });

describe('SYS_COLUMNS: MTYPE, PRTYPE and LEN of older servers', () => {
  it('MySQL 4.0 (no collation id): latin1', () => {
    const { column } = dictColumn(col(1, prtype(253, 0, 0), 20), 'mysql');
    expect(column).toMatchObject({ type: 'varchar', length: 20, charset: 'latin1', nullable: true });
  });

  it('MySQL 4.1 VARCHAR (DATA_VARCHAR, MYSQL_TYPE_VAR_STRING, latin1_swedish_ci)', () => {
    const { column } = dictColumn(col(1, prtype(253, NOT_NULL, 8), 30), 'mysql');
    expect(column).toMatchObject({ type: 'varchar', length: 30, charset: 'latin1', collation: 'latin1_swedish_ci', nullable: false });
  });

  it('MySQL 5.0.3+ true VARCHAR in utf8 (DATA_VARMYSQL, MYSQL_TYPE_VARCHAR, 3 bytes a character)', () => {
    const { column } = dictColumn(col(12, prtype(15, LONG_TRUE_VARCHAR, 33), 300), 'mysql');
    expect(column).toMatchObject({ type: 'varchar', length: 100, charset: 'utf8mb3' });
  });

  it('CHAR in a multi-byte charset (DATA_MYSQL) and BINARY (DATA_FIXBINARY, the binary flag)', () => {
    expect(dictColumn(col(13, prtype(254, 0, 45), 40), 'mysql').column).toMatchObject({ type: 'char', length: 10, charset: 'utf8mb4' });
    expect(dictColumn(col(3, prtype(254, BINARY, 63), 16), 'mysql').column).toMatchObject({ type: 'binary', length: 16, charset: 'binary' });
  });

  it('INT UNSIGNED NOT NULL, BIGINT, and an ENUM (its number, said so)', () => {
    expect(dictColumn(col(6, prtype(3, NOT_NULL | UNSIGNED, 0), 4), 'mysql').column).toMatchObject({ type: 'int', unsigned: true, nullable: false });
    expect(dictColumn(col(6, prtype(8, 0, 0), 8), 'mysql').column).toMatchObject({ type: 'bigint', unsigned: false });
    const e = dictColumn(col(6, prtype(254, UNSIGNED, 8), 1), 'mysql');
    expect(e.column.type).toBe('tinyint');
    expect(e.note).toContain('ENUM or a SET');
  });

  it('DECIMAL before MySQL 5.0.3 (DATA_DECIMAL: digits as text), and after (packed, its bytes)', () => {
    const old = dictColumn(col(11, prtype(0, 0, 8), 12), 'mysql');
    expect(old.column).toMatchObject({ type: 'char', length: 12 });
    expect(old.note).toContain('MySQL 4.1 or earlier');
    const packed = dictColumn(col(3, prtype(246, 0, 63), 6), 'mysql');
    expect(packed.column).toMatchObject({ type: 'binary', length: 6 });
    expect(packed.note).toContain('precision and scale are not in the dictionary');
  });

  it('temporal columns: MySQL 5.5 DATETIME (8-byte integer), 5.6+ DATETIME2(3) (fractions by pairs), DATE', () => {
    expect(dictColumn(col(6, prtype(12, BINARY, 63), 8), 'mysql').column).toMatchObject({ type: 'datetime', fsp: 0, legacyTemporal: true });
    const dt2 = dictColumn(col(3, prtype(12, BINARY, 63), 7), 'mysql');
    expect(dt2.column).toMatchObject({ type: 'datetime', fsp: 4, legacyTemporal: false });
    expect(dt2.note).toContain('kept by pairs');
    expect(dictColumn(col(6, prtype(14, BINARY, 63), 3), 'mysql').column).toMatchObject({ type: 'date' });
  });

  it('TEXT and BLOB by the size of their length (LEN − 8), MySQL 5.7 JSON', () => {
    expect(dictColumn(col(5, prtype(252, 0, 8), 10), 'mysql').column).toMatchObject({ type: 'text', charset: 'latin1' });
    expect(dictColumn(col(5, prtype(252, BINARY, 63), 12), 'mysql').column).toMatchObject({ type: 'longblob' });
    expect(dictColumn(col(5, prtype(245, BINARY, 63), 12), 'mysql').column).toMatchObject({ type: 'json' });
  });
});
