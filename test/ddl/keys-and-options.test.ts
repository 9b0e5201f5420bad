/**
 * The CREATE TABLE parser on keys (their parts, the server's names and order) and table options.
 */
import { describe, expect, it } from 'vitest';
import { keys, only } from './helpers.ts';

describe('keys', () => {
  it('reads table-level keys with prefixes, DESC, USING and index options', () => {
    const t = only(`CREATE TABLE t (a int NOT NULL, b varchar(50), c text, p point NOT NULL,
      CONSTRAINT pk PRIMARY KEY USING BTREE (a),
      UNIQUE INDEX ub (b(10) DESC, a ASC) KEY_BLOCK_SIZE=8 COMMENT 'x',
      INDEX ib USING HASH (b) INVISIBLE,
      KEY kc (c(100)) VISIBLE,
      FULLTEXT INDEX fc (c) WITH PARSER ngram,
      SPATIAL KEY sp (p),
      CONSTRAINT fk FOREIGN KEY (b) REFERENCES u (x) ON DELETE CASCADE,
      FOREIGN KEY (a) REFERENCES u (y),
      CONSTRAINT ck CHECK (a > 0),
      CHECK (b <> ''))`);
    expect(keys(t)).toEqual([
      'primary PRIMARY(a)', 'unique ub(b(10) DESC, a)', 'key ib(b)', 'key kc(c(100))', 'spatial sp(p)', 'fulltext fc(c)',
    ]);
  });

  it('keeps a functional key part with its expression as the name', () => {
    const t = only('CREATE TABLE t (a int, b json, KEY ((a + 1)), KEY jb ((CAST(b->>"$.x" AS CHAR(9))) DESC))');
    expect(keys(t)).toEqual(['key functional_index(a + 1)', 'key jb(CAST(b->>"$.x" AS CHAR(9)) DESC)']);
  });

  it('names unnamed keys after their first column, as the server does (checked against MariaDB 10.11)', () => {
    const t = only(`CREATE TABLE ord (a int, b int NOT NULL, c varchar(20) NOT NULL, d text, e int NOT NULL,
      KEY (a), FULLTEXT (d), UNIQUE (a), UNIQUE (c(5)), UNIQUE KEY (b), KEY a_3 (e), UNIQUE (c),
      CONSTRAINT sym UNIQUE (e), KEY (c, a))`);
    // and orders them like the server: unique NOT NULL keys, prefixed ones, nullable ones, others, FULLTEXT
    expect(keys(t)).toEqual([
      'unique b(b)', 'unique c_2(c)', 'unique sym(e)', 'unique c(c(5))', 'unique a_2(a)',
      'key a(a)', 'key a_3(e)', 'key c_3(c, a)', 'fulltext d(d)',
    ]);
  });

  it('turns inline PRIMARY KEY and UNIQUE column attributes into keys', () => {
    const t = only('CREATE TABLE t (u int UNIQUE KEY, id int PRIMARY KEY, v int UNIQUE, w int NOT NULL UNIQUE)');
    expect(keys(t)).toEqual(['primary PRIMARY(id)', 'unique w(w)', 'unique u(u)', 'unique v(v)']);
  });

  it('spells key columns as the column is declared', () => {
    expect(keys(only('CREATE TABLE t (Name varchar(5), KEY (NAME))'))).toEqual(['key Name(Name)']);
  });
});

describe('table options', () => {
  it('reads ROW_FORMAT upper-cased and ignores the options that do not matter here', () => {
    const t = only(`CREATE TABLE t (a int) ENGINE = InnoDB, AUTO_INCREMENT=5 row_format=compressed KEY_BLOCK_SIZE 8
      COMMENT 'CHARSET=utf8mb4 is only a comment' STATS_PERSISTENT=0 \`PAGE_COMPRESSED\`='1' PAGE_COMPRESSION_LEVEL=9
      UNION=(a,b) DATA DIRECTORY='/x' TABLESPACE ts STORAGE DISK WITH SYSTEM VERSIONING
      PARTITION BY LIST (a) (PARTITION p0 VALUES IN (1) COMMENT 'CHARSET=ascii')`);
    expect(t).toMatchObject({ rowFormat: 'COMPRESSED', charset: 'latin1' });
  });

  it('leaves rowFormat empty when the DDL is silent', () => {
    expect(only('CREATE TABLE t (a int) ENGINE=InnoDB').rowFormat).toBe('');
  });
});
