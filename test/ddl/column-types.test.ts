/**
 * The CREATE TABLE parser on column types: every type keyword and synonym, its arguments, and the
 * storage hints SHOW CREATE TABLE prints after a type.
 */
import { describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import type { Column } from '../../src/core/schema.ts';
import { column, keys, only } from './helpers.ts';

describe('column types', () => {
  const cases: [string, Partial<Column>][] = [
    ['TINYINT', { type: 'tinyint' }],
    ['INT1', { type: 'tinyint' }],
    ['SMALLINT(6) UNSIGNED', { type: 'smallint', unsigned: true }],
    ['INT2', { type: 'smallint' }],
    ['MEDIUMINT', { type: 'mediumint' }],
    ['INT3', { type: 'mediumint' }],
    ['MIDDLEINT', { type: 'mediumint' }],
    ['INT(11) SIGNED', { type: 'int', unsigned: false }],
    ['INTEGER', { type: 'int' }],
    ['INT4', { type: 'int' }],
    ['BIGINT(20) UNSIGNED ZEROFILL', { type: 'bigint', unsigned: true, zerofill: true }],
    ['INT8 ZEROFILL', { type: 'bigint', unsigned: true, zerofill: true }],
    ['BOOL', { type: 'bool' }],
    ['BOOLEAN', { type: 'bool' }],
    ['DECIMAL', { type: 'decimal', precision: 10, scale: 0 }],
    ['DECIMAL(6)', { type: 'decimal', precision: 6, scale: 0 }],
    ['DECIMAL(10, 5) UNSIGNED', { type: 'decimal', precision: 10, scale: 5, unsigned: true }],
    ['NUMERIC(6,3)', { type: 'decimal', precision: 6, scale: 3 }],
    ['DEC(4,1)', { type: 'decimal', precision: 4, scale: 1 }],
    ['FIXED(5,2)', { type: 'decimal', precision: 5, scale: 2 }],
    ['FLOAT', { type: 'float', precision: 0, scale: 0 }],
    ['FLOAT(7,4)', { type: 'float', precision: 7, scale: 4 }],
    ['FLOAT(24)', { type: 'float', precision: 0 }],
    ['FLOAT(25)', { type: 'double', precision: 0 }],
    ['FLOAT4', { type: 'float' }],
    ['FLOAT8', { type: 'double' }],
    ['DOUBLE', { type: 'double' }],
    ['DOUBLE(15, 5)', { type: 'double', precision: 15, scale: 5 }],
    ['DOUBLE PRECISION', { type: 'double' }],
    ['REAL', { type: 'double' }],
    ['BIT', { type: 'bit', length: 1 }],
    ['BIT(64)', { type: 'bit', length: 64 }],
    ['DATE', { type: 'date' }],
    ['TIME', { type: 'time', fsp: 0 }],
    ['TIME(5)', { type: 'time', fsp: 5 }],
    ['DATETIME(0)', { type: 'datetime', fsp: 0 }],
    ['DATETIME(6)', { type: 'datetime', fsp: 6 }],
    ['TIMESTAMP(3)', { type: 'timestamp', fsp: 3 }],
    ['YEAR', { type: 'year' }],
    ['YEAR(4)', { type: 'year' }],
    ['CHAR', { type: 'char', length: 1, charset: 'latin1' }],
    ['CHARACTER(3)', { type: 'char', length: 3 }],
    ['CHAR VARYING(7)', { type: 'varchar', length: 7 }],
    ['CHARACTER VARYING(7)', { type: 'varchar', length: 7 }],
    ['VARCHAR(255)', { type: 'varchar', length: 255, charset: 'latin1' }],
    ['NCHAR(2)', { type: 'char', length: 2, charset: 'utf8mb3' }],
    ['NATIONAL CHAR(2)', { type: 'char', length: 2, charset: 'utf8mb3' }],
    ['NATIONAL CHARACTER VARYING(9)', { type: 'varchar', length: 9, charset: 'utf8mb3' }],
    ['NATIONAL VARCHAR(9)', { type: 'varchar', length: 9, charset: 'utf8mb3' }],
    ['NCHAR VARCHAR(4)', { type: 'varchar', length: 4, charset: 'utf8mb3' }],
    ['NCHAR VARYING(4)', { type: 'varchar', length: 4, charset: 'utf8mb3' }],
    ['NVARCHAR(5)', { type: 'varchar', length: 5, charset: 'utf8mb3' }],
    ['BINARY', { type: 'binary', length: 1, charset: 'binary' }],
    ['BINARY(16)', { type: 'binary', length: 16, charset: 'binary' }],
    ['VARBINARY(12)', { type: 'varbinary', length: 12, charset: 'binary' }],
    ['TINYTEXT', { type: 'tinytext' }],
    ['TEXT', { type: 'text', charset: 'latin1' }],
    ['MEDIUMTEXT', { type: 'mediumtext' }],
    ['LONGTEXT', { type: 'longtext' }],
    ['LONG', { type: 'mediumtext', charset: 'latin1' }],
    ['LONG VARCHAR', { type: 'mediumtext' }],
    ['LONG CHAR VARYING', { type: 'mediumtext' }],
    ['LONG CHARACTER SET utf8mb4', { type: 'mediumtext', charset: 'utf8mb4' }],
    ['LONG VARBINARY', { type: 'mediumblob', charset: 'binary' }],
    ['TINYBLOB', { type: 'tinyblob', charset: 'binary' }],
    ['BLOB', { type: 'blob', charset: 'binary' }],
    ['MEDIUMBLOB', { type: 'mediumblob' }],
    ['LONGBLOB', { type: 'longblob' }],
    // TEXT(M) / BLOB(M) pick the smallest type that holds M characters (bytes)
    ['TEXT(255)', { type: 'tinytext' }],
    ['TEXT(1000)', { type: 'text' }],
    ['TEXT(70000)', { type: 'mediumtext' }],
    ['TEXT(20000) CHARACTER SET utf8mb4', { type: 'mediumtext', charset: 'utf8mb4' }],
    ['BLOB(255)', { type: 'tinyblob' }],
    ['BLOB(256)', { type: 'blob' }],
    ['BLOB(16777216)', { type: 'longblob' }],
    ["ENUM('a','b')", { type: 'enum', values: ['a', 'b'], charset: 'latin1' }],
    [String.raw`ENUM('it''s', 'it\'s', "say ""hi""", 'x,y', 'tab\there', 'a' 'b')`, {
      type: 'enum', values: ["it's", "it's", 'say "hi"', 'x,y', 'tab\there', 'ab'],
    }],
    ["SET('r','w','x') CHARACTER SET ascii", { type: 'set', values: ['r', 'w', 'x'], charset: 'ascii' }],
    ['JSON', { type: 'json', charset: 'utf8mb4', collation: 'utf8mb4_bin' }],
    ['GEOMETRY', { type: 'geometry', charset: 'binary' }],
    ['POINT NOT NULL SRID 4326', { type: 'point', nullable: false }],
    ['LINESTRING', { type: 'linestring' }],
    ['POLYGON REF_SYSTEM_ID=4326', { type: 'polygon' }],
    ['MULTIPOINT', { type: 'multipoint' }],
    ['MULTILINESTRING', { type: 'multilinestring' }],
    ['MULTIPOLYGON', { type: 'multipolygon' }],
    ['GEOMETRYCOLLECTION', { type: 'geometrycollection' }],
    ['GEOMCOLLECTION', { type: 'geometrycollection' }],
    ['INET4', { type: 'inet4', charset: 'binary' }],
    ['INET6', { type: 'inet6', charset: 'binary' }],
    ['UUID', { type: 'uuid', charset: 'binary' }],
    ['VECTOR(768)', { type: 'vector', length: 768, charset: 'binary' }],
  ];
  it.each(cases)('%s', (definition, expected) => {
    expect(column(definition)).toMatchObject(expected);
  });

  it('reads SERIAL as BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE', () => {
    const t = only('CREATE TABLE t (id SERIAL, n INT SERIAL DEFAULT VALUE)');
    expect(t.columns[0]).toMatchObject({ type: 'bigint', unsigned: true, nullable: false });
    expect(t.columns[1]).toMatchObject({ type: 'int', unsigned: false, nullable: false });
    expect(keys(t)).toEqual(['unique id(id)', 'unique n(n)']);
  });

  it('accepts type keywords in any case and columns named like types', () => {
    expect(only('CREATE TABLE t (date DATE, `int` SMallInt, year year)').columns.map((c) => [c.name, c.type])).toEqual([
      ['date', 'date'], ['int', 'smallint'], ['year', 'year'],
    ]);
  });
});

describe('storage hints in the DDL', () => {
  it('marks pre-5.6 temporal columns from the comments SHOW CREATE TABLE prints', () => {
    const [t] = parseCreateTables(
      'CREATE TABLE `t` (`a` datetime /* mariadb-5.3 */ DEFAULT NULL, `b` time(3) /* mariadb-5.3 */ NOT NULL, `c` timestamp /* 5.5 binary format */ NULL, `d` datetime DEFAULT NULL /* not a mark */, `e` int(5) unsigned zerofill, `y` year(2))',
    );
    expect(t.columns.map((c) => c.legacyTemporal)).toEqual([true, true, true, false, false, false]);
    expect(t.columns.find((c) => c.name === 'e')?.length).toBe(5);
    expect(t.columns.find((c) => c.name === 'y')?.length).toBe(2);
  });
});
