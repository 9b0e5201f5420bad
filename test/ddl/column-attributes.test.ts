/**
 * The CREATE TABLE parser on what follows a column's type: character sets and collations (the
 * column's, the table's, the server default) and the column attributes.
 */
import { describe, expect, it } from 'vitest';
import { byName, column, keys, only } from './helpers.ts';

describe('character sets and collations', () => {
  it('falls back to latin1, the old server default, when nothing says otherwise', () => {
    expect(column('varchar(5)')).toMatchObject({ charset: 'latin1', collation: '' });
    expect(only('CREATE TABLE t (a int)').charset).toBe('latin1');
  });

  it('takes the table default charset and collation', () => {
    expect(column('text', 'DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci')).toMatchObject({
      charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci',
    });
    expect(column('char(2)', 'CHARACTER SET = utf8')).toMatchObject({ charset: 'utf8mb3', collation: '' });
    expect(column('char(2)', 'ENGINE=InnoDB CHARSET latin1')).toMatchObject({ charset: 'latin1' });
    expect(column('char(2)', 'DEFAULT CHARACTER SET utf8mb4')).toMatchObject({ charset: 'utf8mb4', collation: '' });
  });

  it('derives the table charset from its collation alone', () => {
    const t = only('CREATE TABLE t (c varchar(3)) COLLATE=utf8mb4_0900_ai_ci');
    expect(t.charset).toBe('utf8mb4');
    expect(t.columns[0]).toMatchObject({ charset: 'utf8mb4', collation: 'utf8mb4_0900_ai_ci' });
    expect(only('CREATE TABLE t (c text) DEFAULT COLLATE utf8_general_ci').columns[0]).toMatchObject({
      charset: 'utf8mb3', collation: 'utf8mb3_general_ci',
    });
  });

  it('prefers the column charset, then the charset its collation implies', () => {
    const options = 'DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci';
    expect(column('varchar(5) CHARACTER SET latin1', options)).toMatchObject({ charset: 'latin1', collation: '' });
    expect(column('varchar(5) CHARSET utf8 COLLATE utf8_bin', options)).toMatchObject({ charset: 'utf8mb3', collation: 'utf8mb3_bin' });
    expect(column('varchar(5) COLLATE latin1_swedish_ci', options)).toMatchObject({ charset: 'latin1', collation: 'latin1_swedish_ci' });
    expect(column('varchar(5) DEFAULT NULL COLLATE utf8mb3_unicode_ci', options)).toMatchObject({ charset: 'utf8mb3' });
    expect(column("varchar(5) CHARACTER SET 'gbk'", options)).toMatchObject({ charset: 'gbk' });
    // MariaDB 11 collations without a charset prefix take the charset from the context
    expect(column('varchar(5) COLLATE uca1400_ai_ci', options)).toMatchObject({ charset: 'utf8mb4', collation: 'uca1400_ai_ci' });
  });

  it('reads BINARY, ASCII and UNICODE attributes of text types', () => {
    expect(column('char(10) BINARY', 'DEFAULT CHARSET=utf8mb4')).toMatchObject({ type: 'char', charset: 'utf8mb4', collation: 'utf8mb4_bin' });
    expect(column('varchar(3) BINARY CHARACTER SET latin1')).toMatchObject({ charset: 'latin1', collation: 'latin1_bin' });
    expect(column('char(3) ASCII', 'DEFAULT CHARSET=utf8mb4')).toMatchObject({ charset: 'latin1' });
    expect(column('varchar(3) UNICODE')).toMatchObject({ charset: 'ucs2' });
  });

  it('turns text types with CHARACTER SET binary into their binary twins, as the server does', () => {
    expect(column('char(4) CHARACTER SET binary')).toMatchObject({ type: 'binary', length: 4, charset: 'binary', collation: '' });
    expect(column('varchar(4) COLLATE binary')).toMatchObject({ type: 'varbinary', charset: 'binary' });
    expect(column('text CHARSET binary')).toMatchObject({ type: 'blob', charset: 'binary' });
    expect(column('text(100) CHARSET binary')).toMatchObject({ type: 'tinyblob' });
    expect(column("enum('a') CHARACTER SET binary")).toMatchObject({ type: 'enum', charset: 'binary' });
  });

  it('gives non-text types the binary charset, whatever the table says', () => {
    expect(column('int', 'DEFAULT CHARSET=utf8mb4')).toMatchObject({ charset: 'binary', collation: '' });
    expect(column('varbinary(3)', 'DEFAULT CHARSET=utf8mb4')).toMatchObject({ charset: 'binary' });
    expect(column('datetime(6)', 'DEFAULT CHARSET=utf8mb4')).toMatchObject({ charset: 'binary' });
  });
});

describe('column attributes', () => {
  it('reads NULL / NOT NULL, nullable by default', () => {
    const t = only('CREATE TABLE t (a int, b int NULL, c int NOT NULL, d timestamp, e timestamp NOT NULL)');
    expect(t.columns.map((c) => c.nullable)).toEqual([true, true, false, true, false]);
  });

  it('makes PRIMARY KEY columns NOT NULL, wherever the key is declared', () => {
    const t = only('CREATE TABLE t (a int, b varchar(3) NULL, c int, PRIMARY KEY (b, A))');
    expect(t.columns.map((c) => c.nullable)).toEqual([false, false, true]);
    expect(keys(t)).toEqual(['primary PRIMARY(b, a)']);
    expect(only('CREATE TABLE t (a int PRIMARY KEY, b int)').columns[0].nullable).toBe(false);
    expect(only('CREATE TABLE t (a int KEY)').columns[0].nullable).toBe(false);
  });

  it('keeps DEFAULT as written', () => {
    const defaults = [
      ['int', null],
      ['int DEFAULT NULL', 'NULL'],
      ["varchar(9) DEFAULT 'it''s'", "'it''s'"],
      [String.raw`varchar(9) DEFAULT 'it\'s'`, String.raw`'it\'s'`],
      ['int DEFAULT -1', '-1'],
      ['double DEFAULT +1.5e3', '+1.5e3'],
      ['decimal(3,1) DEFAULT .5', '.5'],
      ["bit(3) DEFAULT b'101'", "b'101'"],
      ['binary(2) DEFAULT 0x0A0B', '0x0A0B'],
      ["varchar(3) DEFAULT _utf8mb4'x'", "_utf8mb4'x'"],
      ["varchar(3) DEFAULT 'a' 'b'", "'a' 'b'"],
      ['datetime DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP', 'CURRENT_TIMESTAMP'],
      ['datetime(6) DEFAULT current_timestamp(6) ON UPDATE current_timestamp(6)', 'current_timestamp(6)'],
      ["date DEFAULT DATE '2020-01-01'", "DATE '2020-01-01'"],
      ['binary(16) DEFAULT (uuid_to_bin(uuid()))', '(uuid_to_bin(uuid()))'],
      ['int DEFAULT TRUE', 'TRUE'],
    ] as const;
    for (const [definition, expected] of defaults) expect(column(definition).defaultSql, definition).toBe(expected);
  });

  it('reads generated columns: VIRTUAL by default, STORED or MariaDB PERSISTENT', () => {
    const t = only(`CREATE TABLE t (a int,
      v1 int AS (a + 1),
      v2 int GENERATED ALWAYS AS (a * 2) VIRTUAL NOT NULL,
      s1 int AS ((a)) STORED,
      s2 varchar(9) GENERATED ALWAYS AS (concat(a, ')')) PERSISTENT COMMENT 'p')`);
    expect(t.columns.map((c) => c.generated)).toEqual([null, 'virtual', 'virtual', 'stored', 'stored']);
    expect(byName(t, 'v2').nullable).toBe(false);
    expect(byName(t, 's2').comment).toBe('p');
  });

  it('reads INVISIBLE, also inside MySQL and MariaDB conditional comments', () => {
    const t = only(`CREATE TABLE t (a int, b int INVISIBLE, c int /*!80023 INVISIBLE */, d int /*M!100301 INVISIBLE */, e int VISIBLE)`);
    expect(t.columns.map((c) => c.invisible)).toEqual([false, true, true, true, false]);
  });

  it('reads and drops the attributes that do not change what is stored', () => {
    const c = column(`int NOT NULL AUTO_INCREMENT COMMENT 'a' "b" COLUMN_FORMAT FIXED STORAGE DISK
      CHECK (c > 0) CONSTRAINT c_chk CHECK (c < 9) NOT ENFORCED ENGINE_ATTRIBUTE='{}' SECONDARY_ENGINE_ATTRIBUTE '{}'
      REFERENCES other.p (id) MATCH FULL ON DELETE SET NULL ON UPDATE NO ACTION WITHOUT SYSTEM VERSIONING`);
    expect(c).toMatchObject({ type: 'int', nullable: false, comment: 'ab' });
    expect(column('blob COMPRESSED=zlib').type).toBe('blob');
  });
});
