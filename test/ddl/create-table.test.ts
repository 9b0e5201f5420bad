import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCreateTables, pickTable } from '../../src/core/definitions/ddl/create-table.ts';
import type { Column, IndexDef, TableDef } from '../../src/core/schema.ts';

/**
 * SQL exactly as a server or a dump prints it: the raw text of a template literal, so `\'` and `\\`
 * stay as written; only the backticks need escaping (\`).
 */
function sql(strings: TemplateStringsArray): string {
  return strings.raw.join('').replaceAll('\\`', '`');
}

/** The only table defined by `text`. */
function only(text: string): TableDef {
  const tables = parseCreateTables(text);
  expect(tables).toHaveLength(1);
  return tables[0];
}

/** The column of `CREATE TABLE t (c <definition>) <options>`. */
function column(definition: string, options = ''): Column {
  return only(`CREATE TABLE t (c ${definition}) ${options}`).columns[0];
}

function byName(table: TableDef, name: string): Column {
  const found = table.columns.find((c) => c.name === name);
  if (!found) throw new Error(`no column ${name} in ${table.name}`);
  return found;
}

/** Indexes as `kind name(col, col(prefix), col DESC)` lines: compact and easy to compare. */
function keys(table: TableDef): string[] {
  const part = (c: IndexDef['columns'][number]) => `${c.name}${c.prefix ? `(${c.prefix})` : ''}${c.descending ? ' DESC' : ''}`;
  return table.indexes.map((index) => `${index.kind} ${index.name}(${index.columns.map(part).join(', ')})`);
}

const PLAIN = {
  unsigned: false, zerofill: false, nullable: true, length: 0, precision: 0, scale: 0, fsp: 0,
  values: [], generated: null, invisible: false, defaultSql: null, comment: '', legacyTemporal: false,
};

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

// The shape of a MySQL 5.7 mysqldump: conditional SET comments, LOCK TABLES, extended INSERTs with
// escapes, a view placeholder table, a trigger and a procedure between DELIMITER ;; lines.
const MYSQL57_DUMP = sql`-- MySQL dump 10.13  Distrib 5.7.44, for Linux (x86_64)
--
-- Host: localhost    Database: shop
-- ------------------------------------------------------
-- Server version	5.7.44-log

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET @OLD_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS */;
/*!40101 SET @OLD_COLLATION_CONNECTION=@@COLLATION_CONNECTION */;
/*!40101 SET NAMES utf8 */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40103 SET TIME_ZONE='+00:00' */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;
/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;

--
-- Table structure for table \`order items\`
--

DROP TABLE IF EXISTS \`order items\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8 */;
CREATE TABLE \`order items\` (
  \`order_id\` int(10) unsigned NOT NULL,
  \`line\` smallint(5) unsigned NOT NULL,
  \`sku\` char(12) NOT NULL,
  \`qty\` int(11) NOT NULL DEFAULT '1',
  \`note\` varchar(200) DEFAULT NULL COMMENT 'free text; may hold '' and \\ and ;',
  PRIMARY KEY (\`order_id\`,\`line\`),
  KEY \`sku\` (\`sku\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8 COMMENT='lines of an order';
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table \`order items\`
--

LOCK TABLES \`order items\` WRITE;
/*!40000 ALTER TABLE \`order items\` DISABLE KEYS */;
INSERT INTO \`order items\` VALUES (1,1,'SKU-1',2,'O\'Brien: \"CREATE TABLE x (a int);\"'),(1,2,'SKU-2',1,'back\\slash\\'),(2,1,'SKU-3',1,'it''s -- not a comment /* nor this; */ # nor this');
/*!40000 ALTER TABLE \`order items\` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table \`we\`\`ird\`
--

DROP TABLE IF EXISTS \`we\`\`ird\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8 */;
CREATE TABLE \`we\`\`ird\` (
  \`col\`\`1\` int(11) NOT NULL,
  \`#not a comment\` varchar(5) CHARACTER SET latin1 COLLATE latin1_bin DEFAULT '-- x',
  PRIMARY KEY (\`col\`\`1\`)
) ENGINE=InnoDB DEFAULT CHARSET=latin1 ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8
/*!50100 PARTITION BY KEY (\`col\`\`1\`)
PARTITIONS 4 */;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Temporary table structure for view \`v_items\`
--

DROP TABLE IF EXISTS \`v_items\`;
/*!50001 DROP VIEW IF EXISTS \`v_items\`*/;
SET @saved_cs_client     = @@character_set_client;
SET character_set_client = utf8;
/*!50001 CREATE TABLE \`v_items\` (
  \`order_id\` tinyint NOT NULL,
  \`sku\` tinyint NOT NULL
) ENGINE=MyISAM */;
SET character_set_client = @saved_cs_client;
/*!50003 SET @saved_cs_client      = @@character_set_client */ ;
/*!50003 SET @saved_sql_mode       = @@sql_mode */ ;
/*!50003 SET sql_mode              = 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES' */ ;
DELIMITER ;;
/*!50003 CREATE*/ /*!50017 DEFINER=\`root\`@\`localhost\`*/ /*!50003 TRIGGER \`items_bi\` BEFORE INSERT ON \`order items\` FOR EACH ROW BEGIN
  IF NEW.qty < 1 THEN SET NEW.qty = 1; END IF;
END */;;
DELIMITER ;
/*!50003 SET sql_mode              = @saved_sql_mode */ ;

--
-- Dumping routines for database 'shop'
--
DELIMITER ;;
CREATE DEFINER=\`root\`@\`localhost\` PROCEDURE \`make_tmp\`()
BEGIN
  CREATE TEMPORARY TABLE tmp_items (id int);
  INSERT INTO tmp_items VALUES (1);
END ;;
DELIMITER ;

--
-- Final view structure for view \`v_items\`
--

/*!50001 DROP VIEW IF EXISTS \`v_items\`*/;
/*!50001 SET @saved_cs_client          = @@character_set_client */;
/*!50001 CREATE ALGORITHM=UNDEFINED */
/*!50013 DEFINER=\`root\`@\`localhost\` SQL SECURITY DEFINER */
/*!50001 VIEW \`v_items\` AS select \`order items\`.\`order_id\` AS \`order_id\`,\`order items\`.\`sku\` AS \`sku\` from \`order items\` */;
/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;

-- Dump completed on 2024-05-01 12:00:00
`;

// A real mariadb-dump 10.11 file (--routines --triggers --databases): sandbox-mode first line, a
// trigger, a procedure whose body creates a table, a view, partitions, engine options.
const MARIADB_DUMP = sql`/*M!999999\- enable the sandbox mode */ 
-- MariaDB dump 10.19  Distrib 10.11.19-MariaDB, for debian-linux-gnu (x86_64)
--
-- Host: localhost    Database: d1
-- ------------------------------------------------------
-- Server version	10.11.19-MariaDB-0+deb12u1

/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET @OLD_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS */;
/*!40101 SET @OLD_COLLATION_CONNECTION=@@COLLATION_CONNECTION */;
/*!40101 SET NAMES utf8mb4 */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40103 SET TIME_ZONE='+00:00' */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;
/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;

--
-- Current Database: \`d1\`
--

CREATE DATABASE /*!32312 IF NOT EXISTS*/ \`d1\` /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci */;

USE \`d1\`;

--
-- Table structure for table \`child\`
--

DROP TABLE IF EXISTS \`child\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE \`child\` (
  \`id\` int(11) NOT NULL,
  \`pid\` bigint(20) unsigned DEFAULT NULL,
  PRIMARY KEY (\`id\`),
  KEY \`fk\` (\`pid\`),
  CONSTRAINT \`fk\` FOREIGN KEY (\`pid\`) REFERENCES \`parent\` (\`id\`) ON DELETE CASCADE ON UPDATE SET NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_general_ci STATS_PERSISTENT=0 \`PAGE_COMPRESSED\`='1';
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table \`child\`
--

LOCK TABLES \`child\` WRITE;
/*!40000 ALTER TABLE \`child\` DISABLE KEYS */;
INSERT INTO \`child\` VALUES
(1,1);
/*!40000 ALTER TABLE \`child\` ENABLE KEYS */;
UNLOCK TABLES;
/*!50003 SET @saved_cs_client      = @@character_set_client */ ;
/*!50003 SET @saved_cs_results     = @@character_set_results */ ;
/*!50003 SET @saved_col_connection = @@collation_connection */ ;
/*!50003 SET character_set_client  = utf8mb3 */ ;
/*!50003 SET character_set_results = utf8mb3 */ ;
/*!50003 SET collation_connection  = utf8mb3_general_ci */ ;
/*!50003 SET @saved_sql_mode       = @@sql_mode */ ;
/*!50003 SET sql_mode              = 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION' */ ;
DELIMITER ;;
/*!50003 CREATE*/ /*!50017 DEFINER=\`root\`@\`localhost\`*/ /*!50003 TRIGGER trg BEFORE INSERT ON child FOR EACH ROW BEGIN SET NEW.id = NEW.id + 0; END 
*/;;
DELIMITER ;
/*!50003 SET sql_mode              = @saved_sql_mode */ ;
/*!50003 SET character_set_client  = @saved_cs_client */ ;
/*!50003 SET character_set_results = @saved_cs_results */ ;
/*!50003 SET collation_connection  = @saved_col_connection */ ;

--
-- Table structure for table \`hist\`
--

DROP TABLE IF EXISTS \`hist\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE \`hist\` (
  \`id\` int(11) NOT NULL,
  \`x\` int(11) DEFAULT NULL,
  PRIMARY KEY (\`id\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci WITH SYSTEM VERSIONING;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table \`hist\`
--

LOCK TABLES \`hist\` WRITE;
/*!40000 ALTER TABLE \`hist\` DISABLE KEYS */;
/*!40000 ALTER TABLE \`hist\` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table \`parent\`
--

DROP TABLE IF EXISTS \`parent\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE \`parent\` (
  \`id\` bigint(20) unsigned NOT NULL AUTO_INCREMENT,
  \`name\` varchar(40) DEFAULT NULL,
  UNIQUE KEY \`id\` (\`id\`),
  UNIQUE KEY \`name\` (\`name\`)
) ENGINE=InnoDB AUTO_INCREMENT=3 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table \`parent\`
--

LOCK TABLES \`parent\` WRITE;
/*!40000 ALTER TABLE \`parent\` DISABLE KEYS */;
INSERT INTO \`parent\` VALUES
(1,'it\'s a \'test\';'),
(2,'semi;colon');
/*!40000 ALTER TABLE \`parent\` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table \`part\`
--

DROP TABLE IF EXISTS \`part\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE \`part\` (
  \`id\` int(11) NOT NULL,
  \`v\` varchar(5) DEFAULT NULL,
  PRIMARY KEY (\`id\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
 PARTITION BY RANGE (\`id\`)
(PARTITION \`p0\` VALUES LESS THAN (10) ENGINE = InnoDB,
 PARTITION \`p1\` VALUES LESS THAN MAXVALUE ENGINE = InnoDB);
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table \`part\`
--

LOCK TABLES \`part\` WRITE;
/*!40000 ALTER TABLE \`part\` DISABLE KEYS */;
/*!40000 ALTER TABLE \`part\` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Table structure for table \`tc\`
--

DROP TABLE IF EXISTS \`tc\`;
/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!40101 SET character_set_client = utf8mb4 */;
CREATE TABLE \`tc\` (
  \`a\` varchar(10) CHARACTER SET latin1 COLLATE latin1_bin DEFAULT NULL,
  \`b\` blob DEFAULT NULL,
  \`c\` char(3) CHARACTER SET latin1 COLLATE latin1_swedish_ci DEFAULT NULL,
  \`d\` varchar(3) CHARACTER SET ucs2 COLLATE ucs2_general_ci DEFAULT NULL
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_general_ci ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8;
/*!40101 SET character_set_client = @saved_cs_client */;

--
-- Dumping data for table \`tc\`
--

LOCK TABLES \`tc\` WRITE;
/*!40000 ALTER TABLE \`tc\` DISABLE KEYS */;
/*!40000 ALTER TABLE \`tc\` ENABLE KEYS */;
UNLOCK TABLES;

--
-- Temporary table structure for view \`v1\`
--

DROP TABLE IF EXISTS \`v1\`;
/*!50001 DROP VIEW IF EXISTS \`v1\`*/;
SET @saved_cs_client     = @@character_set_client;
SET character_set_client = utf8mb4;
/*!50001 CREATE VIEW \`v1\` AS SELECT
 NULL AS \`id\`,
 NULL AS \`name\` */;
SET character_set_client = @saved_cs_client;

--
-- Dumping routines for database 'd1'
--
/*!50003 SET @saved_sql_mode       = @@sql_mode */ ;
/*!50003 SET sql_mode              = 'STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_CREATE_USER,NO_ENGINE_SUBSTITUTION' */ ;
/*!50003 DROP PROCEDURE IF EXISTS \`pr\` */;
/*!50003 SET @saved_cs_client      = @@character_set_client */ ;
/*!50003 SET @saved_cs_results     = @@character_set_results */ ;
/*!50003 SET @saved_col_connection = @@collation_connection */ ;
/*!50003 SET character_set_client  = utf8mb3 */ ;
/*!50003 SET character_set_results = utf8mb3 */ ;
/*!50003 SET collation_connection  = utf8mb3_general_ci */ ;
DELIMITER ;;
CREATE DEFINER=\`root\`@\`localhost\` PROCEDURE \`pr\`()
BEGIN CREATE TABLE IF NOT EXISTS inside_proc (x int); SELECT 1; END
;;
DELIMITER ;
/*!50003 SET sql_mode              = @saved_sql_mode */ ;
/*!50003 SET character_set_client  = @saved_cs_client */ ;
/*!50003 SET character_set_results = @saved_cs_results */ ;
/*!50003 SET collation_connection  = @saved_col_connection */ ;

--
-- Current Database: \`d1\`
--

USE \`d1\`;

--
-- Final view structure for view \`v1\`
--

/*!50001 DROP VIEW IF EXISTS \`v1\`*/;
/*!50001 SET @saved_cs_client          = @@character_set_client */;
/*!50001 SET @saved_cs_results         = @@character_set_results */;
/*!50001 SET @saved_col_connection     = @@collation_connection */;
/*!50001 SET character_set_client      = utf8mb3 */;
/*!50001 SET character_set_results     = utf8mb3 */;
/*!50001 SET collation_connection      = utf8mb3_general_ci */;
/*!50001 CREATE ALGORITHM=UNDEFINED */
/*!50013 DEFINER=\`root\`@\`localhost\` SQL SECURITY DEFINER */
/*!50001 VIEW \`v1\` AS select \`parent\`.\`id\` AS \`id\`,\`parent\`.\`name\` AS \`name\` from \`parent\` */;
/*!50001 SET character_set_client      = @saved_cs_client */;
/*!50001 SET character_set_results     = @saved_cs_results */;
/*!50001 SET collation_connection      = @saved_col_connection */;
/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;

/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;
/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS */;
/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */;
/*!40101 SET CHARACTER_SET_CLIENT=@OLD_CHARACTER_SET_CLIENT */;
/*!40101 SET CHARACTER_SET_RESULTS=@OLD_CHARACTER_SET_RESULTS */;
/*!40101 SET COLLATION_CONNECTION=@OLD_COLLATION_CONNECTION */;
/*!40111 SET SQL_NOTES=@OLD_SQL_NOTES */;

-- Dump completed on 2026-11-30  3:01:24
`;

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

describe('pickTable', () => {
  const tables = parseCreateTables(`
    CREATE TABLE tb01 (a int);
    CREATE TABLE Orders (a int);
    CREATE TABLE \`my-tab$le\` (a int);
    CREATE TABLE \`été\` (a int);
    CREATE TABLE \`中文\` (a int);
    CREATE TABLE part (a int);
    CREATE TABLE tb01 (a int, b int);`);

  it('matches the file name without .ibd, taking the later of two definitions', () => {
    expect(pickTable(tables, 'tb01.ibd')?.columns).toHaveLength(2);
    expect(pickTable(tables, '/var/lib/mysql/shop/tb01.ibd')?.name).toBe('tb01');
    expect(pickTable(tables, 'C:\\ProgramData\\MySQL\\data\\shop\\Orders.ibd')?.name).toBe('Orders');
  });

  it('decodes @hhhh escapes of the filename charset', () => {
    expect(pickTable(tables, 'my@002dtab@0024le.ibd')?.name).toBe('my-tab$le');
    expect(pickTable(tables, '@4e2d@6587.ibd')?.name).toBe('中文');
  });

  it('lets the two-character escapes of accented letters match any one character', () => {
    expect(pickTable(tables, '@0pt@0p.ibd')?.name).toBe('été');
  });

  it('maps partition files to their table', () => {
    expect(pickTable(tables, 'part#P#p0.ibd')?.name).toBe('part');
    expect(pickTable(tables, 'part#p#p1.ibd')?.name).toBe('part');
    expect(pickTable(tables, 'part#P#p0#SP#p0sp0.ibd')?.name).toBe('part');
  });

  it('falls back to a case-insensitive match', () => {
    expect(pickTable(tables, 'ORDERS.IBD')?.name).toBe('Orders');
  });

  it('returns null when no name matches, even for a single table', () => {
    expect(pickTable(tables, 'nothing.ibd')).toBeNull();
    expect(pickTable(parseCreateTables('CREATE TABLE only_one (a int)'), 'other.ibd')).toBeNull();
    expect(pickTable([], 'x.ibd')).toBeNull();
  });
});

describe('errors', () => {
  const cases: [string, string][] = [
    ['CREATE TABLE t (\n  id int,\n  price (10,2)\n)', 'line 3: expected a column type after `price`, found `(`'],
    ['\n\nCREATE TABLE t (a int', 'line 3: expected a `,` or `)` after a column or key definition, found the end of the statement'],
    ['CREATE TABLE t (a int NOT NUL)', 'line 1: expected `NULL`, found `NUL`'],
    ['CREATE TABLE t (a int frobnicate)', 'line 1: expected an attribute of column `a`, `,` or `)`, found `frobnicate`'],
    ['CREATE TABLE t (a varchar)', 'line 1: expected `(` and a length after the type of `a`, found `)`'],
    ['CREATE TABLE t (a decimal(x))', 'line 1: expected a number in the size of `a`, found `x`'],
    ['CREATE TABLE t (a enum(1, 2))', 'line 1: expected a quoted value in the list of `a`, found `1`'],
    ['CREATE TABLE t (a int, KEY k (b))', 'line 1: the key names column `b`, which the table does not have'],
    ['CREATE TABLE t (a int PRIMARY KEY,\n b int, PRIMARY KEY (b))', 'line 2: the table has more than one PRIMARY KEY'],
    ['CREATE TABLE t (a int AS a + 1)', 'line 1: expected the expression of the generated column in parentheses, found `a`'],
    ['CREATE TABLE t', 'line 1: expected `(` after the table name `t`, found the end of the statement'],
    ['CREATE TABLE (a int)', 'line 1: expected a table name, found `(`'],
    ['CREATE TABLE t (a int CHECK (a > 0)', 'line 1: expected a `,` or `)` after a column or key definition, found the end of the statement'],
    ['CREATE TABLE t (a int DEFAULT)', 'line 1: expected a default value, found `)`'],
    ['CREATE TABLE t LIKE nowhere', 'line 1: CREATE TABLE `t` LIKE `nowhere`: `nowhere` is not defined before it'],
    ['CREATE TABLE t (a int) AS SELECT 1', 'line 1: CREATE TABLE … SELECT is not supported: its columns come from the query'],
    ['CREATE TABLE t SELECT 1 AS a', 'line 1: expected `(` after the table name `t`, found `SELECT`'],
  ];
  it.each(cases)('%s', (text, message) => {
    expect(() => parseCreateTables(text)).toThrow(new Error(message));
  });

  it('names the line in a long dump', () => {
    const dump = `${'INSERT INTO x VALUES (1);\n'.repeat(1000)}CREATE TABLE t (\n  a int,\n  b nonsense\n);`;
    expect(() => parseCreateTables(dump)).toThrow('line 1003: expected a column type after `b`, found `nonsense`');
  });
});

describe('mysql-testsuite fixtures (MySQL 5.6 scripts with inserts and procedures)', () => {
  const root = '/work/shared/fixtures/mysql-testsuite/mysql56';
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
