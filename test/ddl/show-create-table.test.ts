/**
 * The CREATE TABLE parser on SHOW CREATE TABLE output of MySQL 5.7, 8.0 and 9 and MariaDB 10.11.
 */
import { describe, expect, it } from 'vitest';
import { byName, keys, only, PLAIN, sql } from './helpers.ts';

describe('SHOW CREATE TABLE output', () => {
  it('reads MySQL 5.7 output: display widths, DEFAULT quoting, prefixes, index options', () => {
    const t = only(sql`CREATE TABLE \`customers\` (
  \`id\` int(11) NOT NULL AUTO_INCREMENT,
  \`email\` varchar(255) NOT NULL,
  \`name\` varchar(100) CHARACTER SET utf8mb4 DEFAULT NULL,
  \`balance\` decimal(12,2) NOT NULL DEFAULT '0.00',
  \`flags\` set('vip','blocked','it''s') NOT NULL DEFAULT '',
  \`created\` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
  \`updated\` timestamp NOT NULL DEFAULT '0000-00-00 00:00:00' ON UPDATE CURRENT_TIMESTAMP,
  \`bio\` text,
  \`avatar\` mediumblob,
  \`rating\` float(4,2) DEFAULT NULL,
  \`active\` tinyint(1) NOT NULL DEFAULT '1',
  \`born\` year(4) DEFAULT NULL,
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`email\` (\`email\`),
  KEY \`name_prefix\` (\`name\`(20)) USING BTREE COMMENT 'speeds up search',
  FULLTEXT KEY \`bio\` (\`bio\`) /*!50100 WITH PARSER \`ngram\` */ 
) ENGINE=InnoDB AUTO_INCREMENT=1001 DEFAULT CHARSET=latin1 ROW_FORMAT=COMPACT`);
    expect(t.name).toBe('customers');
    expect(t.charset).toBe('latin1');
    expect(t.rowFormat).toBe('COMPACT');
    expect(t.columns.map((c) => c.name)).toEqual([
      'id', 'email', 'name', 'balance', 'flags', 'created', 'updated', 'bio', 'avatar', 'rating', 'active', 'born',
    ]);
    expect(t.columns[0]).toEqual({ ...PLAIN, name: 'id', type: 'int', length: 11, nullable: false, charset: 'binary', collation: '' });
    expect(byName(t, 'email')).toMatchObject({ type: 'varchar', length: 255, nullable: false, charset: 'latin1', collation: '' });
    expect(byName(t, 'name')).toMatchObject({ type: 'varchar', length: 100, charset: 'utf8mb4', defaultSql: 'NULL' });
    expect(byName(t, 'balance')).toMatchObject({ type: 'decimal', precision: 12, scale: 2, defaultSql: "'0.00'" });
    expect(byName(t, 'flags')).toMatchObject({ type: 'set', values: ['vip', 'blocked', "it's"], defaultSql: "''" });
    expect(byName(t, 'updated')).toMatchObject({ type: 'timestamp', nullable: false, defaultSql: "'0000-00-00 00:00:00'" });
    expect(byName(t, 'bio')).toMatchObject({ type: 'text', nullable: true, charset: 'latin1', defaultSql: null });
    expect(byName(t, 'avatar')).toMatchObject({ type: 'mediumblob', charset: 'binary' });
    expect(byName(t, 'rating')).toMatchObject({ type: 'float', precision: 4, scale: 2 });
    expect(byName(t, 'active')).toMatchObject({ type: 'tinyint', defaultSql: "'1'" });
    expect(byName(t, 'born').type).toBe('year');
    expect(keys(t)).toEqual(['primary PRIMARY(id)', 'unique email(email)', 'key name_prefix(name(20))', 'fulltext bio(bio)']);
  });

  it('reads MySQL 8.0 output: no display widths, expression defaults, invisible columns, functional keys', () => {
    const t = only(sql`CREATE TABLE \`orders\` (
  \`id\` bigint unsigned NOT NULL AUTO_INCREMENT,
  \`customer_id\` int NOT NULL,
  \`status\` enum('new','paid','shipped') NOT NULL DEFAULT 'new',
  \`total\` decimal(10,2) NOT NULL DEFAULT '0.00',
  \`note\` varchar(255) CHARACTER SET latin1 COLLATE latin1_bin DEFAULT NULL,
  \`created_at\` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP,
  \`updated_at\` timestamp(3) NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  \`total_cents\` bigint GENERATED ALWAYS AS ((\`total\` * 100)) STORED,
  \`note_lower\` varchar(255) CHARACTER SET latin1 COLLATE latin1_bin GENERATED ALWAYS AS (lower(\`note\`)) VIRTUAL,
  \`secret\` int DEFAULT NULL /*!80023 INVISIBLE */,
  \`uuid\` binary(16) NOT NULL DEFAULT (uuid_to_bin(uuid())),
  \`doc\` json DEFAULT NULL,
  \`loc\` point NOT NULL /*!80003 SRID 4326 */,
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`uuid\` (\`uuid\`),
  KEY \`idx_customer\` (\`customer_id\`,\`created_at\` DESC),
  SPATIAL KEY \`loc\` (\`loc\`),
  KEY \`idx_note\` ((lower(\`note\`))),
  KEY \`idx_status\` (\`status\`) /*!80000 INVISIBLE */,
  CONSTRAINT \`orders_chk_1\` CHECK ((\`total\` >= 0))
) ENGINE=InnoDB AUTO_INCREMENT=42 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci ROW_FORMAT=DYNAMIC COMMENT='orders, paid & unpaid'`);
    expect(t).toMatchObject({ name: 'orders', charset: 'utf8mb4', rowFormat: 'DYNAMIC' });
    expect(t.columns).toHaveLength(13);
    expect(byName(t, 'id')).toMatchObject({ type: 'bigint', unsigned: true, nullable: false });
    expect(byName(t, 'status')).toMatchObject({
      type: 'enum', values: ['new', 'paid', 'shipped'], charset: 'utf8mb4', collation: 'utf8mb4_0900_ai_ci', defaultSql: "'new'",
    });
    expect(byName(t, 'note')).toMatchObject({ charset: 'latin1', collation: 'latin1_bin' });
    expect(byName(t, 'updated_at')).toMatchObject({ type: 'timestamp', fsp: 3, nullable: true, defaultSql: 'CURRENT_TIMESTAMP(3)' });
    expect(byName(t, 'total_cents')).toMatchObject({ type: 'bigint', generated: 'stored' });
    expect(byName(t, 'note_lower')).toMatchObject({ type: 'varchar', generated: 'virtual', charset: 'latin1' });
    expect(byName(t, 'secret')).toMatchObject({ invisible: true, generated: null });
    expect(byName(t, 'uuid')).toMatchObject({ type: 'binary', length: 16, defaultSql: '(uuid_to_bin(uuid()))' });
    expect(byName(t, 'doc')).toMatchObject({ type: 'json', charset: 'utf8mb4', collation: 'utf8mb4_bin' });
    expect(byName(t, 'loc')).toMatchObject({ type: 'point', nullable: false, charset: 'binary' });
    expect(keys(t)).toEqual([
      'primary PRIMARY(id)',
      'unique uuid(uuid)',
      'key idx_customer(customer_id, created_at DESC)',
      'spatial loc(loc)',
      'key idx_note(lower(`note`))',
      'key idx_status(status)',
    ]);
  });

  it('reads MySQL 8.0 partitioned tables, whose PARTITION BY sits in a conditional comment', () => {
    const text = sql`CREATE TABLE \`events\` (
  \`id\` int NOT NULL,
  \`happened\` date NOT NULL,
  \`payload\` varchar(100) DEFAULT NULL,
  PRIMARY KEY (\`id\`,\`happened\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci
/*!50100 PARTITION BY RANGE (year(\`happened\`))
(PARTITION p2023 VALUES LESS THAN (2024) ENGINE = InnoDB,
 PARTITION pmax VALUES LESS THAN MAXVALUE ENGINE = InnoDB) */`;
    const t = only(text);
    expect(t.columns.map((c) => c.name)).toEqual(['id', 'happened', 'payload']);
    expect(byName(t, 'payload')).toMatchObject({ charset: 'utf8mb4', collation: 'utf8mb4_0900_ai_ci' });
    expect(keys(t)).toEqual(['primary PRIMARY(id, happened)']);
    expect(t.createSql).toBe(text);
  });

  it('reads MySQL 9 VECTOR columns', () => {
    const t = only(sql`CREATE TABLE \`emb\` (
  \`id\` int NOT NULL,
  \`v\` vector(3) DEFAULT NULL,
  \`w\` vector NOT NULL,
  PRIMARY KEY (\`id\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_0900_ai_ci`);
    expect(byName(t, 'v')).toMatchObject({ type: 'vector', length: 3, charset: 'binary' });
    expect(byName(t, 'w')).toMatchObject({ type: 'vector', length: 2048, nullable: false });
  });

  // Printed by MariaDB 10.11 for a table created with every type family (JSON shows as its CHECKed longtext)
  const MARIADB_ALL_TYPES = sql`CREATE TABLE \`all types\` (
  \`id\` int(10) unsigned NOT NULL AUTO_INCREMENT,
  \`ti\` tinyint(4) DEFAULT NULL,
  \`si\` smallint(5) unsigned zerofill DEFAULT NULL,
  \`mi\` mediumint(9) DEFAULT NULL,
  \`bi\` bigint(20) unsigned DEFAULT NULL,
  \`b\` tinyint(1) DEFAULT 1,
  \`d\` decimal(12,4) DEFAULT -1.5000,
  \`d2\` decimal(10,0) DEFAULT NULL,
  \`f\` float(7,3) DEFAULT NULL,
  \`f2\` double DEFAULT NULL,
  \`db\` double DEFAULT NULL,
  \`r\` double DEFAULT NULL,
  \`bt\` bit(5) DEFAULT b'101',
  \`dt\` date DEFAULT '2020-01-01',
  \`tm\` time(3) DEFAULT NULL,
  \`dtm\` datetime(6) DEFAULT current_timestamp(6) ON UPDATE current_timestamp(6),
  \`ts\` timestamp NOT NULL DEFAULT current_timestamp(),
  \`y\` year(4) DEFAULT NULL,
  \`c\` char(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL,
  \`vc\` varchar(100) CHARACTER SET latin1 COLLATE latin1_german1_ci DEFAULT 'it''s',
  \`nc\` char(5) CHARACTER SET utf8mb3 COLLATE utf8mb3_general_ci DEFAULT NULL,
  \`nvc\` varchar(20) CHARACTER SET utf8mb3 COLLATE utf8mb3_general_ci DEFAULT NULL,
  \`bn\` binary(16) DEFAULT NULL,
  \`vb\` varbinary(300) DEFAULT NULL,
  \`tt\` tinytext DEFAULT NULL,
  \`tx\` text DEFAULT NULL,
  \`mt\` mediumtext DEFAULT NULL,
  \`lt\` longtext DEFAULT NULL,
  \`lv\` mediumtext DEFAULT NULL,
  \`tb\` tinyblob DEFAULT NULL,
  \`bl\` blob DEFAULT NULL,
  \`mb\` mediumblob DEFAULT NULL,
  \`lb\` longblob DEFAULT NULL,
  \`lvb\` mediumblob DEFAULT NULL,
  \`e\` enum('a','it''s','x,y','back\\slash') DEFAULT 'a',
  \`s\` set('r','w','x') CHARACTER SET ascii COLLATE ascii_general_ci DEFAULT NULL,
  \`j\` longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL CHECK (json_valid(\`j\`)),
  \`g\` geometry DEFAULT NULL,
  \`p\` point NOT NULL,
  \`ls\` linestring DEFAULT NULL,
  \`pg\` polygon DEFAULT NULL,
  \`mp\` multipoint DEFAULT NULL,
  \`mls\` multilinestring DEFAULT NULL,
  \`mpg\` multipolygon DEFAULT NULL,
  \`gc\` geometrycollection DEFAULT NULL,
  \`i4\` inet4 DEFAULT NULL,
  \`i6\` inet6 DEFAULT NULL,
  \`u\` uuid DEFAULT NULL,
  \`gen\` int(11) GENERATED ALWAYS AS (\`ti\` + 1) VIRTUAL,
  \`gens\` bigint(20) GENERATED ALWAYS AS (\`ti\` * 2) STORED,
  \`hid\` int(11) INVISIBLE DEFAULT 7 COMMENT 'hidden ''one''',
  PRIMARY KEY (\`id\`),
  UNIQUE KEY \`uk\` (\`vc\`(10),\`ti\` DESC),
  KEY \`mi\` (\`mi\`),
  KEY \`mi_2\` (\`mi\`,\`si\`),
  SPATIAL KEY \`sp\` (\`p\`),
  FULLTEXT KEY \`ft\` (\`tx\`),
  CONSTRAINT \`chk\` CHECK (\`ti\` > 0)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci ROW_FORMAT=DYNAMIC COMMENT='all the types'`;

  it('reads MariaDB 10.11 output of every type family', () => {
    const t = only(MARIADB_ALL_TYPES);
    expect(t).toMatchObject({ name: 'all types', charset: 'utf8mb4', rowFormat: 'DYNAMIC' });
    expect(t.columns.map((c) => c.type)).toEqual([
      'int', 'tinyint', 'smallint', 'mediumint', 'bigint', 'tinyint', 'decimal', 'decimal', 'float', 'double',
      'double', 'double', 'bit', 'date', 'time', 'datetime', 'timestamp', 'year', 'char', 'varchar', 'char',
      'varchar', 'binary', 'varbinary', 'tinytext', 'text', 'mediumtext', 'longtext', 'mediumtext', 'tinyblob',
      'blob', 'mediumblob', 'longblob', 'mediumblob', 'enum', 'set', 'longtext', 'geometry', 'point',
      'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection', 'inet4',
      'inet6', 'uuid', 'int', 'bigint', 'int',
    ]);
    expect(byName(t, 'si')).toMatchObject({ unsigned: true, zerofill: true });
    expect(byName(t, 'd')).toMatchObject({ precision: 12, scale: 4, defaultSql: '-1.5000' });
    expect(byName(t, 'd2')).toMatchObject({ precision: 10, scale: 0 });
    expect(byName(t, 'bt')).toMatchObject({ length: 5, defaultSql: "b'101'" });
    expect(byName(t, 'tm').fsp).toBe(3);
    expect(byName(t, 'dtm')).toMatchObject({ fsp: 6, defaultSql: 'current_timestamp(6)' });
    expect(byName(t, 'ts')).toMatchObject({ fsp: 0, nullable: false, defaultSql: 'current_timestamp()' });
    expect(byName(t, 'c')).toMatchObject({ length: 10, charset: 'utf8mb4', collation: 'utf8mb4_bin' });
    expect(byName(t, 'vc')).toMatchObject({ charset: 'latin1', collation: 'latin1_german1_ci', defaultSql: "'it''s'" });
    expect(byName(t, 'nc')).toMatchObject({ charset: 'utf8mb3', collation: 'utf8mb3_general_ci' });
    expect(byName(t, 'tx')).toMatchObject({ charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci' });
    expect(byName(t, 'e').values).toEqual(['a', "it's", 'x,y', 'back\\slash']);
    expect(byName(t, 's')).toMatchObject({ values: ['r', 'w', 'x'], charset: 'ascii', collation: 'ascii_general_ci' });
    expect(byName(t, 'j')).toMatchObject({ type: 'longtext', charset: 'utf8mb4', collation: 'utf8mb4_bin' });
    expect(byName(t, 'gen').generated).toBe('virtual');
    expect(byName(t, 'gens').generated).toBe('stored');
    expect(byName(t, 'hid')).toMatchObject({ invisible: true, defaultSql: '7', comment: "hidden 'one'" });
    expect(keys(t)).toEqual([
      'primary PRIMARY(id)', 'unique uk(vc(10), ti DESC)', 'key mi(mi)', 'key mi_2(mi, si)', 'spatial sp(p)', 'fulltext ft(tx)',
    ]);
  });

  it('reads MariaDB system-versioned tables, MariaDB-only comments and index options', () => {
    const t = only(sql`CREATE TABLE \`m1\` (
  \`id\` int(11) NOT NULL,
  \`a\` int(11) DEFAULT (1 + 1),
  \`b\` varchar(10) DEFAULT concat('a','b'),
  \`c\` int(11) DEFAULT NULL,
  \`d\` blob /*M!100301 COMPRESSED*/ DEFAULT NULL,
  \`e\` varchar(20) /*M!100301 COMPRESSED*/ DEFAULT NULL,
  \`s\` timestamp(6) GENERATED ALWAYS AS ROW START INVISIBLE,
  \`en\` timestamp(6) GENERATED ALWAYS AS ROW END INVISIBLE,
  PRIMARY KEY (\`id\`,\`en\`),
  KEY \`ic\` (\`c\`) IGNORED,
  KEY \`a\` (\`a\`) USING HASH COMMENT 'x',
  PERIOD FOR SYSTEM_TIME (\`s\`, \`en\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci WITH SYSTEM VERSIONING`);
    expect(byName(t, 'a').defaultSql).toBe('(1 + 1)');
    expect(byName(t, 'b').defaultSql).toBe("concat('a','b')");
    expect(byName(t, 'd')).toMatchObject({ type: 'blob', defaultSql: 'NULL' });
    // row start/end columns are real stored columns, only hidden from SELECT *
    expect(byName(t, 's')).toMatchObject({ type: 'timestamp', fsp: 6, generated: null, invisible: true });
    expect(keys(t)).toEqual(['primary PRIMARY(id, en)', 'key ic(c)', 'key a(a)']);
    expect(byName(t, 'en').nullable).toBe(false);
  });
});
