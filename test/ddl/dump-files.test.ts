/**
 * The CREATE TABLE parser on whole scripts: dumps of MySQL 5.7 and MariaDB 10.11, the lexer's
 * comments, delimiters and quoting, CREATE TABLE … LIKE, and the speed on a 50 MB dump.
 */
import { describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { MARIADB_DUMP, MYSQL57_DUMP } from './dump-texts.ts';
import { byName, keys, only, sql } from './helpers.ts';

describe('dump files and scripts', () => {
  it('finds the tables of a MySQL 5.7 dump and nothing else', () => {
    const tables = parseCreateTables(MYSQL57_DUMP);
    expect(tables.map((t) => t.name)).toEqual(['order items', 'we`ird']);
    const [items, weird] = tables;
    expect(items.charset).toBe('utf8mb3');
    expect(byName(items, 'note').comment).toBe("free text; may hold ' and \\ and ;");
    expect(keys(items)).toEqual(['primary PRIMARY(order_id, line)', 'key sku(sku)']);
    expect(byName(items, 'line')).toMatchObject({ type: 'smallint', unsigned: true, nullable: false });
    expect(weird.columns.map((c) => c.name)).toEqual(['col`1', '#not a comment']);
    expect(byName(weird, '#not a comment')).toMatchObject({ charset: 'latin1', collation: 'latin1_bin', defaultSql: "'-- x'" });
    expect(weird.rowFormat).toBe('COMPRESSED');
    expect(weird.createSql.startsWith('CREATE TABLE `we``ird` (\n')).toBe(true);
    expect(weird.createSql.endsWith('PARTITIONS 4 */')).toBe(true);
  });

  it('finds the tables of a real MariaDB 10.11 dump and nothing else', () => {
    const tables = parseCreateTables(MARIADB_DUMP);
    expect(tables.map((t) => t.name)).toEqual(['child', 'hist', 'parent', 'part', 'tc']);
    const [child, , parent, part, tc] = tables;
    expect(child).toMatchObject({ charset: 'utf8mb3', rowFormat: '' });
    expect(keys(child)).toEqual(['primary PRIMARY(id)', 'key fk(pid)']);
    // SERIAL became a UNIQUE key, and the table has no PRIMARY KEY
    expect(keys(parent)).toEqual(['unique id(id)', 'unique name(name)']);
    expect(byName(parent, 'id')).toMatchObject({ type: 'bigint', unsigned: true, nullable: false });
    expect(part.columns.map((c) => c.name)).toEqual(['id', 'v']);
    expect(tc).toMatchObject({ charset: 'utf8mb3', rowFormat: 'COMPRESSED' });
    expect(byName(tc, 'c')).toMatchObject({ charset: 'latin1', collation: 'latin1_swedish_ci' });
    expect(byName(tc, 'd')).toMatchObject({ charset: 'ucs2', collation: 'ucs2_general_ci' });
  });

  it('returns the exact statement text as createSql', () => {
    const statement = "CREATE TABLE t (\n  a int COMMENT 'x;y' /* ; */\n) ENGINE=InnoDB";
    const [t] = parseCreateTables(`-- head\nSELECT 1;\n\n${statement}  ;\nSELECT 2;`);
    expect(t.createSql).toBe(statement);
  });

  it('reads files with a byte-order mark and CRLF line ends', () => {
    const t = only('\uFEFFCREATE TABLE t (\r\n  a int, -- note\r\n  b int\r\n);\r\n');
    expect(t.columns.map((c) => c.name)).toEqual(['a', 'b']);
    expect(t.createSql).toBe('CREATE TABLE t (\r\n  a int, -- note\r\n  b int\r\n)');
  });

  it('returns [] for a text without CREATE TABLE', () => {
    expect(parseCreateTables('')).toEqual([]);
    expect(parseCreateTables("INSERT INTO t VALUES ('CREATE TABLE x (a int)'); -- CREATE TABLE y (b int)\n")).toEqual([]);
    expect(parseCreateTables('CREATE VIEW v AS SELECT 1; CREATE INDEX i ON t (a); SHOW CREATE TABLE t;')).toEqual([]);
  });

  it('reads IF NOT EXISTS, TEMPORARY, OR REPLACE and database-qualified names', () => {
    const tables = parseCreateTables(`
      CREATE TABLE IF NOT EXISTS shop.a (x int);
      CREATE TEMPORARY TABLE \`shop\`.\`b\` (x int);
      CREATE OR REPLACE TABLE c (x int);
      CREATE TABLE /*!32312 IF NOT EXISTS*/ d (x int);
      create table e (x int)`);
    expect(tables.map((t) => t.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('follows the server on comments: -- needs a blank after it, # and /* */ do not', () => {
    const tables = parseCreateTables(`
      # a comment with a quote: it's
      -- another one: it's
      /* and 'another' ; */
      CREATE TABLE t (
        a int, -- trailing comment; with a quote '
        b int DEFAULT (1--1),
        c int # a comment)
      );`);
    expect(tables[0].columns.map((c) => [c.name, c.defaultSql])).toEqual([['a', null], ['b', '(1--1)'], ['c', null]]);
  });

  it("treats MariaDB's sandbox-mode line as a comment, not as the start of a statement", () => {
    expect(parseCreateTables(sql`/*M!999999\- enable the sandbox mode */
CREATE TABLE t (a int);`).map((t) => t.name)).toEqual(['t']);
  });

  it('honours DELIMITER changes, so procedure bodies are not split', () => {
    const tables = parseCreateTables(`
      DELIMITER $$
      CREATE PROCEDURE p() BEGIN CREATE TABLE inner_t (x int); SELECT ';'; END$$
      CREATE TABLE after_p (x int)$$
      DELIMITER ;
      CREATE TABLE last_t (x int);`);
    expect(tables.map((t) => t.name)).toEqual(['after_p', 'last_t']);
  });

  it('reads double-quoted identifiers (ANSI_QUOTES) where a name is expected', () => {
    const t = only(`SET sql_mode = 'ANSI_QUOTES'; CREATE TABLE "my table" ("a""b" varchar(5) DEFAULT 'x', PRIMARY KEY ("a""b"))`);
    expect(t.name).toBe('my table');
    expect(t.columns[0]).toMatchObject({ name: 'a"b', nullable: false, defaultSql: "'x'" });
    expect(keys(t)).toEqual(['primary PRIMARY(a"b)']);
  });

  it('copies a table defined earlier for CREATE TABLE … LIKE', () => {
    const [, copy, paren] = parseCreateTables('CREATE TABLE a (x int, y text); CREATE TABLE b LIKE a; CREATE TABLE c (LIKE a);');
    expect(copy.name).toBe('b');
    expect(copy.columns.map((c) => c.name)).toEqual(['x', 'y']);
    expect(copy.createSql).toBe('CREATE TABLE b LIKE a');
    expect(paren.name).toBe('c');
  });

  it('reads a 50 MB dump quickly: statements it skips are never tokenised', () => {
    const row = `(1,'it\\'s; a \\'test\\' -- no',"dq \\" ;",'/* ; */',NULL,0x0102)`;
    const insert = `INSERT INTO \`t\` VALUES ${Array(5000).fill(row).join(',')};\n`;
    const parts: string[] = [];
    let size = 0;
    while (size < 50e6) {
      const ddl = `CREATE TABLE t${parts.length / 2} (id int PRIMARY KEY, v varchar(10) DEFAULT ';');\n`;
      parts.push(ddl, insert);
      size += ddl.length + insert.length;
    }
    const started = performance.now();
    const tables = parseCreateTables(parts.join(''));
    const elapsed = performance.now() - started;
    expect(tables).toHaveLength(parts.length / 2);
    expect(tables[tables.length - 1].columns[1].defaultSql).toBe("';'");
    expect(elapsed).toBeLessThan(5000); // about 0.6 s on a laptop; a quadratic scan would take minutes
  });
});
