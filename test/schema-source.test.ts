/**
 * Choosing a table definition from the files a user drops (src/core/definitions/schema-source.ts), with the real
 * MySQL 5.6/5.7/8.0 fixture files: the file's own data dictionary first, then a .frm (covered with
 * real MariaDB files in test/frm/frm-mariadb.test.ts), then .sql files; disagreements are reported.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileKind, resolveSchema, resolveSchemas } from '../src/core/definitions/schema-source.ts';
import { bytesSource, type ByteSource } from '../src/core/tablespace/source.ts';
import { openTable } from '../src/core/readers/table-reader.ts';

const ROOT = join(import.meta.dirname, 'fixtures/mysql-testsuite');

function file(rel: string, name = basename(rel)): ByteSource {
  return bytesSource(readFileSync(join(ROOT, rel)), name);
}

function text(sql: string, name: string): ByteSource {
  return bytesSource(new TextEncoder().encode(sql), name);
}

describe('schema sources', () => {
  it('tells files apart by extension', () => {
    expect(['t.ibd', 'T.IBD', 't.frm', 'dump.sql', 'dump.sql.txt', 'x.ddl', 'notes.txt', 't.cfg'].map(fileKind))
      .toEqual(['ibd', 'ibd', 'frm', 'sql', 'sql', 'sql', 'other', 'other']);
  });

  it('a MySQL 8 file needs nothing else: its data dictionary describes it', async () => {
    const r = await resolveSchema(file('mysql80/simple/tb01.ibd'), []);
    expect(r.source).toBe('sdi');
    expect(r.file).toBe('tb01.ibd');
    expect(r.table?.columns.map((c) => c.name)).toEqual(['id', 'a', 'b', 'c']);
    expect(r.warnings).toEqual([]);
    expect(r.error).toBeNull();
    // and it decodes
    const reader = await openTable(r.ibd, r.table!);
    let rows = 0;
    for await (const batch of reader.rows()) rows += batch.length;
    expect(rows).toBe(10);
  });

  it('the data dictionary wins over a .sql, and their differences are reported', async () => {
    const r = await resolveSchema(file('mysql80/simple/tb01.ibd'), [file('mysql56/simple/tb01.sql')]);
    expect(r.source).toBe('sdi');
    // the .sql names no charset: read alone it would mean latin1, the server used utf8mb4
    expect(r.warnings).toEqual([
      "`b` is in utf8mb4 in the file's own data dictionary (tb01.ibd) but in latin1 in the CREATE TABLE (tb01.sql)",
      "`c` is in utf8mb4 in the file's own data dictionary (tb01.ibd) but in latin1 in the CREATE TABLE (tb01.sql)",
    ]);
  });

  it('a CREATE TABLE with fewer columns than the data dictionary is reported', async () => {
    const sql = text('CREATE TABLE tb01 (id INT PRIMARY KEY, a BIGINT NOT NULL, b VARCHAR(64) NOT NULL) DEFAULT CHARSET=utf8mb4;', 'old.sql');
    const r = await resolveSchema(file('mysql80/simple/tb01.ibd'), [sql]);
    expect(r.source).toBe('sdi');
    expect(r.warnings).toEqual([
      "the CREATE TABLE (old.sql) gives `tb01` 3 stored columns, the file's own data dictionary (tb01.ibd) 4; using the file's own data dictionary",
    ]);
  });

  it('a MySQL 5.7 file takes its definition from the .sql', async () => {
    const r = await resolveSchema(file('mysql57/simple/tb01.ibd'), [file('mysql56/simple/tb01.sql'), text('-- notes', 'readme.txt')]);
    expect(r.source).toBe('sql');
    expect(r.file).toBe('tb01.sql');
    expect(r.table?.name).toBe('tb01');
    expect(r.warnings).toEqual([]);
  });

  it('without any definition, it says what is missing', async () => {
    const r = await resolveSchema(file('mysql57/simple/tb01.ibd'), []);
    expect(r.table).toBeNull();
    expect(r.error).toBe('tb01.ibd carries no table definition of its own (it is not a MySQL 8 file), and no .frm or .sql file describing it was given');
  });

  it('a .sql whose tables are named otherwise offers them as candidates', async () => {
    const r = await resolveSchema(file('mysql57/simple/tb01.ibd'), [file('mysql56/simple/emp.sql')]);
    expect(r.table).toBeNull();
    expect(r.candidates.map((c) => c.table.name)).toEqual(['dept', 'emp']);
    expect(r.error).toBe('none of the table definitions given (`dept`, `emp`) is named like tb01.ibd; choose one');
  });

  it('a .sql that cannot be parsed is a warning, not a failure', async () => {
    const r = await resolveSchema(file('mysql57/simple/tb01.ibd'), [text('CREATE TABLE tb01 (id INT,, x)', 'broken.sql'), file('mysql56/simple/tb01.sql')]);
    expect(r.source).toBe('sql');
    expect(r.warnings).toHaveLength(1);
    expect(r.warnings[0]).toMatch(/^broken\.sql: line 1: expected /);
  });

  it('a folder of files: each .ibd gets its own definition', async () => {
    const files = [
      file('mysql56/simple/emp.sql'),
      file('mysql80/column/int/tb02.ibd'),
      file('mysql57/simple/emp.ibd'),
      file('mysql56/column/int/tb02.sql'),
      file('mysql57/pk/tb22.ibd'),
    ];
    const resolved = await resolveSchemas(files);
    expect(resolved.map((r) => [r.ibd.name, r.source, r.file, r.table?.name ?? null])).toEqual([
      ['tb02.ibd', 'sdi', 'tb02.ibd', 'tb02'],
      ['emp.ibd', 'sql', 'emp.sql', 'emp'],
      ['tb22.ibd', null, null, null],
    ]);
  });

  it('an .ibd that is not a tablespace: the .sql is used; without one, the error is what the file is', async () => {
    const r = await resolveSchema(text('not a tablespace', 'tb01.ibd'), [file('mysql56/simple/tb01.sql')]);
    expect(r.source).toBe('sql');
    // Reading the file says what is wrong with it, once: not here as well.
    expect(r.warnings).toEqual([]);
    const alone = await resolveSchema(text('not a tablespace', 'tb01.ibd'), []);
    expect(alone.error).toBe('tb01.ibd is not an InnoDB tablespace: it looks like text (ASCII), 16 bytes: shorter than any InnoDB page, and no .frm or .sql file describing it was given');
  });
});
