/**
 * The CREATE TABLE parser on the mysql-testsuite fixtures: MySQL 5.6 scripts with inserts and procedures.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCreateTables, pickTable } from '../../src/core/definitions/ddl/create-table.ts';
import { byName, keys } from './helpers.ts';

describe('mysql-testsuite fixtures (MySQL 5.6 scripts with inserts and procedures)', () => {
  const root = join(import.meta.dirname, '../fixtures/mysql-testsuite/mysql56');
  const sqlFiles = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sqlFiles(path);
      return entry.name.endsWith('.sql') ? [path] : [];
    });
  const load = (file: string) => parseCreateTables(readFileSync(join(root, file), 'utf8'));
  const table = (file: string) => {
    const found = pickTable(load(file), file.replace(/.*\//, '').replace(/\.sql$/, '.ibd'));
    if (!found) throw new Error(`no table for ${file}`);
    return found;
  };

  // The number of columns of the table each file is named after, counted by hand
  const columnCounts: Record<string, number> = {
    'column/binary/tb07.sql': 6, 'column/bit/tb27.sql': 6, 'column/blob/tb09.sql': 5, 'column/boolean/tb18.sql': 3,
    'column/char/tb04.sql': 12, 'column/char/tb04utf8mb4.sql': 12, 'column/char/tb05.sql': 2,
    'column/char/tb06.sql': 3, 'column/char/tb20.sql': 7, 'column/decimal/tb19.sql': 10, 'column/enum/tb25.sql': 5,
    'column/float/tb15.sql': 7, 'column/int/tb02.sql': 11, 'column/set/tb26.sql': 4, 'column/text/tb08.sql': 5,
    'column/time/tb03.sql': 5, 'column/time/tb16.sql': 3, 'column/time/tb17.sql': 7, 'deletion/tb13.sql': 4,
    'multiple/level/tb10.sql': 4, 'multiple/level/tb11.sql': 4, 'nullcolumn/tb12.sql': 7, 'nullcolumn/tb14.sql': 19,
    'pk/tb21.sql': 3, 'pk/tb22.sql': 3, 'pk/tb23.sql': 12, 'pk/tb24.sql': 8, 'pk/tb24_sk.sql': 8, 'pk/tb28.sql': 5,
    'pk/tb29.sql': 3, 'simple/emp.sql': 14, 'simple/empty_table.sql': 2, 'simple/tb01.sql': 4,
  };

  it('covers every .sql file of the fixture tree', () => {
    expect(sqlFiles(root).map((f) => relative(root, f)).sort()).toEqual(Object.keys(columnCounts).sort());
  });

  it.each(Object.entries(columnCounts))('%s defines its table with %i columns', (file, count) => {
    expect(table(file).columns).toHaveLength(count);
  });

  it('reads the two definitions of tb04 and the two tables of emp.sql', () => {
    expect(load('column/char/tb04.sql').map((t) => t.name)).toEqual(['tb04', 'tb04']);
    expect(load('simple/emp.sql').map((t) => t.name)).toEqual(['dept', 'emp']);
  });

  it('reads the numeric types of tb02, tb15, tb19 and tb27', () => {
    expect(table('column/int/tb02.sql').columns.map((c) => `${c.type}${c.unsigned ? ' unsigned' : ''}`)).toEqual([
      'int unsigned', 'tinyint unsigned', 'tinyint', 'smallint unsigned', 'smallint', 'mediumint unsigned',
      'mediumint', 'int unsigned', 'int', 'bigint unsigned', 'bigint',
    ]);
    expect(table('column/float/tb15.sql').columns.map((c) => [c.type, c.precision, c.scale, c.unsigned])).toEqual([
      ['int', 0, 0, true], ['float', 0, 0, false], ['float', 7, 4, false], ['float', 0, 0, false],
      ['double', 0, 0, false], ['double', 15, 5, false], ['double', 0, 0, true],
    ]);
    expect(table('column/decimal/tb19.sql').columns.slice(1).map((c) => [c.precision, c.scale, c.nullable])).toEqual([
      [6, 0, false], [10, 5, false], [12, 0, false], [6, 3, false], [10, 0, false], [30, 25, true], [38, 0, true],
      [38, 30, true], [10, 0, false],
    ]);
    expect(table('column/bit/tb27.sql').columns.slice(1).map((c) => c.length)).toEqual([1, 2, 7, 9, 64]);
    expect(table('column/boolean/tb18.sql').columns.map((c) => c.type)).toEqual(['int', 'bool', 'bool']);
  });

  it('reads the temporal types of tb16 and tb17', () => {
    expect(table('column/time/tb16.sql').columns.map((c) => c.type)).toEqual(['int', 'year', 'date']);
    expect(table('column/time/tb17.sql').columns.map((c) => [c.type, c.fsp])).toEqual([
      ['int', 0], ['int', 0], ['datetime', 3], ['datetime', 6], ['timestamp', 6], ['time', 5], ['datetime', 0],
    ]);
  });

  it('reads the charsets of tb20 and emp', () => {
    expect(table('column/char/tb20.sql').columns.slice(1).map((c) => [c.charset, c.collation, c.nullable])).toEqual([
      ['utf8mb3', 'utf8mb3_bin', false], ['utf8mb3', 'utf8mb3_general_ci', false], ['gbk', 'gbk_bin', true],
      ['gbk', 'gbk_bin', true], ['ujis', '', false], ['ujis', '', true],
    ]);
    const emp = table('simple/emp.sql');
    expect(byName(emp, 'profile')).toMatchObject({ type: 'text', charset: 'latin1' });
    expect(byName(emp, 'address')).toMatchObject({ charset: 'utf8mb3', collation: 'utf8mb3_bin', defaultSql: 'null' });
  });

  it('reads the ENUM and SET lists of tb25 and tb26', () => {
    const tb25 = table('column/enum/tb25.sql');
    expect(byName(tb25, 'a').values).toEqual(['A', 'B', 'C', '0xE4']);
    expect(byName(tb25, 'c').values).toEqual(['数据', '存储']);
    const d = byName(tb25, 'd');
    expect(d.values.slice(0, 3)).toEqual(['001001', '001004', '001010']);
    expect(d.values[d.values.length - 1]).toBe('429003');
    expect(d.defaultSql).toBe("'001001'");
    const tb26 = table('column/set/tb26.sql');
    expect(byName(tb26, 'a').values).toEqual(['music', 'movie', 'swimming', '足球']);
    expect(byName(tb26, 'c').values).toHaveLength(64);
  });

  it('orders and names the keys of emp, tb28 and tb13 as MariaDB does', () => {
    expect(keys(table('simple/emp.sql'))).toEqual([
      'primary PRIMARY(id)', 'unique empno(empno)', 'key name(name)', 'key idx_city(city)', 'key age(age)',
      'key age_2(age, salary)', 'key key_join_date(joindate)', 'key deptno(deptno, level, name)',
      'key deptno_2(deptno, level, empno)', 'key address(address)', 'key email(email(3))', 'fulltext profile(profile)',
    ]);
    // no PRIMARY KEY: the first unique NOT NULL key comes first (it is the clustered index)
    expect(keys(table('pk/tb28.sql'))).toEqual([
      'unique key_b(b)', 'unique key_d(d)', 'unique key_e_d(e, d)', 'key key_e(e)', 'key key_a(a)', 'key key_c(c)',
    ]);
    expect(keys(table('deletion/tb13.sql'))).toEqual(['primary PRIMARY(id)', 'unique b_a_idx(b, a)', 'key a_idx(a)']);
  });

  it('reads the primary keys of tb22, tb23, tb24 and the key-less tb29', () => {
    expect(keys(table('pk/tb22.sql'))).toEqual(['primary PRIMARY(b)']);
    const tb23 = table('pk/tb23.sql');
    expect(keys(tb23)).toEqual(['primary PRIMARY(c5, c3, c9)']);
    expect(tb23.columns.filter((c) => !c.nullable).map((c) => c.name)).toEqual(['c1', 'c3', 'c5', 'c7', 'c9', 'c11']);
    expect(byName(table('pk/tb24.sql'), 'c2')).toMatchObject({ type: 'int', nullable: false, defaultSql: "'0'" });
    expect(keys(table('pk/tb24_sk.sql'))).toEqual(['primary PRIMARY(c8)', 'key mykey(c5, c2, c6)']);
    expect(table('pk/tb29.sql').indexes).toEqual([]);
  });
});
