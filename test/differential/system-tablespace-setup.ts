/**
 * The datadir the system-tablespace tests read: a MariaDB server started with
 * --innodb-file-per-table=OFF, so that every table lives inside ibdata1 as before MySQL 5.6, filled
 * with tables of every row format (REDUNDANT, COMPACT, DYNAMIC), one without a key, one clustered on
 * a UNIQUE key, composite and prefix keys, secondary indexes, text, decimal and temporal columns, a
 * virtual column, a FULLTEXT index (and InnoDB's hidden FTS_DOC_ID), one table in its own .ibd, and two tables dropped after their pages reached the disk:
 *  - `dropped_live` is dropped while a consistent read view holds purge back, and ibdata1 is copied
 *    then, the server running (every dirty page flushed first): its dictionary rows are still there,
 *    delete-marked (snapshot `live`);
 *  - `dropped_purged` is dropped before a slow shutdown (innodb_fast_shutdown=0, which purges
 *    everything): ibdata1 and the .frm files are copied once the server is gone (snapshot `shut`).
 * Every table's rows are taken with SELECT before anything is dropped.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mariadb';
import type { Row } from '../../src/core/readers/table-reader.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';

export interface TableCase {
  name: string;
  /** SHOW CREATE TABLE, taken before any DROP. */
  ddl: string;
  rowFormat: 'REDUNDANT' | 'COMPACT' | 'DYNAMIC';
  /** ORDER BY of the clustered index; null for a table clustered on a hidden row id (compared sorted). */
  orderBy: string | null;
  columns: string[];
  rows: Row[];
  /** The same rows with ENUM and SET columns as the numbers stored (`col+0`), what the dictionary lets one read. */
  storedRows: Row[];
  /** Its indexes as INNODB_SYS_INDEXES lists them. */
  indexes: { name: string; id: bigint }[];
}

export interface Datadir {
  tables: TableCase[];
  /** ibdata1 copied while the server ran, `dropped_live` dropped but not purged. */
  live: string;
  /** After the slow shutdown: ibdata1 and shop/*.frm (and shop/fpt.ibd). */
  shut: string;
  /** The same ibdata1 and shop/fpt.ibd with no .frm beside them. */
  bare: string;
  /** The index ids of the two dropped tables' clustered indexes. */
  removed: { liveIndex: bigint; purgedIndex: bigint };
  /** INNODB_SYS_VIRTUAL: the base columns of every virtual column (TABLE_ID, POS, BASE_POS). */
  virtual: Row[];
}

/** `select`: the columns read back (a virtual generated column is not stored, so not read). */
const TABLES: { name: string; rowFormat: TableCase['rowFormat']; orderBy: string | null; sql: string; select?: string }[] = [
  {
    name: 'customers', rowFormat: 'DYNAMIC', orderBy: 'id',
    sql: `CREATE TABLE customers (id INT NOT NULL PRIMARY KEY, name VARCHAR(40) NOT NULL, email VARCHAR(80) CHARACTER SET latin1 NOT NULL,
      balance DECIMAL(12,2), born DATE, created DATETIME(3) NOT NULL, seen TIMESTAMP(6) NULL, flags TINYINT UNSIGNED NOT NULL, score DOUBLE,
      ratio FLOAT, kind ENUM('retail','wholesale','staff'), tags SET('new','vip','late'), ip INET4, bits BIT(12), yr YEAR, slot TIME(2),
      note TEXT, big MEDIUMTEXT, raw VARBINARY(16), KEY k_name (name(10)), UNIQUE KEY u_email (email)) ROW_FORMAT=DYNAMIC DEFAULT CHARSET=utf8mb4;
      INSERT INTO customers SELECT seq, CONCAT('customer ', seq, IF(seq % 9 = 0, ' é€', '')), CONCAT('c', seq, '@shop.example'),
        IF(seq % 11 = 0, NULL, CAST(seq * 37 % 100000 AS SIGNED) / 100 - 400), DATE'1950-01-01' + INTERVAL seq % 20000 DAY,
        TIMESTAMP'2020-01-01 00:00:00' + INTERVAL seq * 61 SECOND + INTERVAL (seq % 1000) * 1000 MICROSECOND,
        IF(seq % 5 = 0, NULL, TIMESTAMP'2021-06-01 00:00:00' + INTERVAL seq MINUTE + INTERVAL seq % 999983 MICROSECOND),
        seq % 256, seq / 8, (seq % 1000) / 4, ELT(1 + seq % 4, 'retail', 'wholesale', 'staff', NULL), IF(seq % 6 = 0, NULL, seq % 8),
        IF(seq % 7 = 0, NULL, CONCAT('10.', seq % 256, '.', (seq DIV 256) % 256, '.1')), seq % 4096, 1901 + seq % 255,
        SEC_TO_TIME(seq % 86400) + INTERVAL (seq % 100) * 10000 MICROSECOND,
        IF(seq % 3 = 0, NULL, REPEAT('note ', seq % 40)), IF(seq % 97 = 0, REPEAT(CONCAT('big ', seq, ' '), 700), NULL), UNHEX(LPAD(HEX(seq), 8, '0'))
      FROM seq_1_to_30000;`,
  },
  {
    name: 'orders_red', rowFormat: 'REDUNDANT', orderBy: 'cust_id, seq',
    sql: `CREATE TABLE orders_red (cust_id INT NOT NULL, seq SMALLINT NOT NULL, amount DECIMAL(8,3) NOT NULL, placed DATETIME NOT NULL,
      memo VARCHAR(200), status CHAR(8) CHARACTER SET ascii, PRIMARY KEY (cust_id, seq), KEY k_placed (placed)) ROW_FORMAT=REDUNDANT;
      INSERT INTO orders_red SELECT seq DIV 10, seq % 10, CAST(seq % 20000 AS SIGNED) / 7 - 1000, TIMESTAMP'2019-03-01 08:00:00' + INTERVAL seq HOUR,
        IF(seq % 4 = 0, NULL, CONCAT('order ', seq)), ELT(1 + seq % 3, 'open', 'shipped', 'void') FROM seq_1_to_2000;`,
  },
  {
    name: 'log_compact', rowFormat: 'COMPACT', orderBy: null,
    sql: `CREATE TABLE log_compact (msg VARCHAR(100) NOT NULL, at TIMESTAMP NULL, n BIGINT, b BLOB) ROW_FORMAT=COMPACT;
      INSERT INTO log_compact SELECT CONCAT('event ', seq), IF(seq % 2 = 0, NULL, TIMESTAMP'2022-02-02 02:02:02' + INTERVAL seq SECOND),
        CAST(seq AS SIGNED) * -1000003, IF(seq % 5 = 0, NULL, UNHEX(REPEAT('AB', seq % 30))) FROM seq_1_to_1500;`,
  },
  {
    name: 'uniq_dyn', rowFormat: 'DYNAMIC', orderBy: 'code',
    sql: `CREATE TABLE uniq_dyn (code CHAR(10) NOT NULL, val MEDIUMINT, t TIME, UNIQUE KEY u_code (code)) ROW_FORMAT=DYNAMIC;
      INSERT INTO uniq_dyn SELECT CONCAT('K', LPAD(seq, 6, '0')), CAST(seq AS SIGNED) * 3 - 5000, SEC_TO_TIME(seq * 17) FROM seq_1_to_1200;`,
  },
  {
    name: 'gen_v', rowFormat: 'DYNAMIC', orderBy: 'id', select: 'id, a, s',
    sql: `CREATE TABLE gen_v (id INT PRIMARY KEY, a INT NOT NULL, v INT AS (a * 2) VIRTUAL, s INT AS (a + 1) STORED, KEY k_v (v));
      INSERT INTO gen_v (id, a) SELECT seq, CAST(seq AS SIGNED) - 500 FROM seq_1_to_900;`,
  },
  {
    name: 'ft', rowFormat: 'DYNAMIC', orderBy: 'id',
    sql: `CREATE TABLE ft (id INT PRIMARY KEY, body TEXT, FULLTEXT KEY f_body (body));
      INSERT INTO ft SELECT seq, CONCAT('word', seq % 17, ' other', seq) FROM seq_1_to_400;`,
  },
  {
    name: 'dropped_live', rowFormat: 'DYNAMIC', orderBy: 'id',
    sql: `CREATE TABLE dropped_live (id INT PRIMARY KEY, label VARCHAR(30), day DATE);
      INSERT INTO dropped_live SELECT seq, CONCAT('live ', seq), DATE'2000-01-01' + INTERVAL seq DAY FROM seq_1_to_3000;`,
  },
  {
    name: 'dropped_purged', rowFormat: 'DYNAMIC', orderBy: 'id',
    sql: `CREATE TABLE dropped_purged (id INT PRIMARY KEY, label VARCHAR(30), amount DECIMAL(10,2), note TEXT);
      INSERT INTO dropped_purged SELECT seq, CONCAT('purged ', seq), seq / 100, IF(seq % 3 = 0, NULL, REPEAT('p', seq % 60)) FROM seq_1_to_2500;`,
  },
];

/** The file-per-table table, created with innodb_file_per_table=ON for a moment. */
const FILE_PER_TABLE = `SET GLOBAL innodb_file_per_table = ON;
  CREATE TABLE fpt (id INT PRIMARY KEY, word VARCHAR(20) NOT NULL, n INT UNSIGNED) ROW_FORMAT=DYNAMIC;
  INSERT INTO fpt SELECT seq, CONCAT('w', seq), seq * 1000 FROM seq_1_to_700;
  SET GLOBAL innodb_file_per_table = OFF;`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every dirty page written, and none left. */
export async function flushAll(server: MariadbServer): Promise<void> {
  await server.exec('SET GLOBAL innodb_max_dirty_pages_pct_lwm = 0; SET GLOBAL innodb_max_dirty_pages_pct = 0;');
  for (let i = 0; i < 600; i++) {
    const dirty = Number((await server.query("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'")).rows[0][1]);
    if (dirty === 0) return;
    await sleep(100);
  }
  throw new Error('dirty pages were still left after a minute');
}

async function tableCase(server: MariadbServer, t: (typeof TABLES)[number]): Promise<TableCase> {
  const ddl = (await server.query(`SHOW CREATE TABLE ${t.name}`, 'shop')).rows[0][1] as string;
  const order = t.orderBy === null ? '' : ` ORDER BY ${t.orderBy}`;
  const all = await server.query(`SELECT ${t.select ?? '*'} FROM ${t.name}${order}`, 'shop');
  const stored = all.columns.map((c) => (/^(kind|tags)$/.test(c) ? `${c}+0 AS ${c}` : c)).join(', ');
  const storedRows = (await server.query(`SELECT ${stored} FROM ${t.name}${order}`, 'shop')).rows;
  const ix = await server.query(`SELECT i.NAME, i.INDEX_ID FROM information_schema.INNODB_SYS_INDEXES i
    JOIN information_schema.INNODB_SYS_TABLES s USING (TABLE_ID) WHERE s.NAME = 'shop/${t.name}' ORDER BY i.INDEX_ID`);
  const indexes = ix.rows.map((r) => ({ name: r[0] as string, id: BigInt(r[1] as string) }));
  return { name: t.name, ddl, rowFormat: t.rowFormat, orderBy: t.orderBy, columns: all.columns, rows: all.rows, storedRows, indexes };
}

/** Copies the datadir's ibdata1, and with `frms` the .frm files of shop, and shop/fpt.ibd, to a new folder. */
function snapshot(server: MariadbServer, frms: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'ibd-system-'));
  mkdirSync(join(dir, 'shop'));
  copyFileSync(join(server.datadir, 'ibdata1'), join(dir, 'ibdata1'));
  for (const f of readdirSync(join(server.datadir, 'shop'))) {
    if ((frms && f.endsWith('.frm')) || f === 'fpt.ibd') copyFileSync(join(server.datadir, 'shop', f), join(dir, 'shop', f));
  }
  return dir;
}

/** Makes the datadir, takes the snapshots, and stops the server. */
export async function makeDatadir(): Promise<Datadir & { fpt: TableCase }> {
  const server = await startMariadb({ extraArgs: ['--innodb-file-per-table=OFF'] });
  try {
    await server.exec('CREATE DATABASE shop');
    for (const t of TABLES) await server.exec(t.sql, 'shop');
    await server.exec(FILE_PER_TABLE, 'shop');
    const tables: TableCase[] = [];
    for (const t of TABLES) tables.push(await tableCase(server, t));
    const fpt = await tableCase(server, { name: 'fpt', rowFormat: 'DYNAMIC', orderBy: 'id', sql: '' });
    const virtual = (await server.query('SELECT TABLE_ID, POS, BASE_POS FROM information_schema.INNODB_SYS_VIRTUAL ORDER BY 1, 2, 3')).rows;
    await flushAll(server);
    // A read view opened before the DROP keeps purge from removing the dictionary rows it delete-marks.
    const view = await createConnection({ socketPath: server.socket, user: 'root', database: 'shop' });
    await view.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
    await view.query('SELECT COUNT(*) FROM orders_red');
    await server.exec('DROP TABLE dropped_live', 'shop');
    await flushAll(server);
    const live = snapshot(server, false);
    await view.end();
    await server.exec('DROP TABLE dropped_purged', 'shop');
    await server.slowShutdown();
    const removed = {
      liveIndex: (tables.find((t) => t.name === 'dropped_live') as TableCase).indexes[0].id,
      purgedIndex: (tables.find((t) => t.name === 'dropped_purged') as TableCase).indexes[0].id,
    };
    return { tables, fpt, live, shut: snapshot(server, true), bare: snapshot(server, false), removed, virtual };
  } finally {
    await server.stop();
  }
}
