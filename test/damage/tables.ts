/**
 * The MariaDB-written tables the damage and fuzz tests work on: one per row format (REDUNDANT,
 * COMPACT, DYNAMIC), each with a long VARCHAR primary key (node pointers of ~200 bytes cut the
 * fan-out, so a few thousand rows make a 3-level B-tree on 16K pages) and text, decimal, temporal and
 * nullable columns, with values that need CSV quoting (commas, quotes, line breaks). Every 29th row is
 * deleted while a read view is open, so purge leaves the records in the file, delete-marked.
 *
 * The tables differ in their columns, so one table's CREATE TABLE is a wrong definition for another's
 * file; each has an INT `n`, a DATE `d` and a MEDIUMINT `m`, for definitions with one type changed.
 * No value is long enough to go off-page: a record's bytes are all on its leaf page (see intact.ts).
 */
import { createConnection } from 'mariadb';
import { readFileSync } from 'node:fs';
import type { Row } from '../../src/core/readers/table-reader.ts';
import type { MariadbServer } from '../harness/mariadb.ts';

export type RowFormat = 'REDUNDANT' | 'COMPACT' | 'DYNAMIC';

export interface TableFixture {
  name: string;
  rowFormat: RowFormat;
  /** The server's SHOW CREATE TABLE. */
  ddl: string;
  /** The exported .ibd (FLUSH TABLES … FOR EXPORT). */
  bytes: Uint8Array;
  pageSize: number;
  /** SELECT * column names. */
  columns: string[];
  /** The server's SELECT * … ORDER BY k after the deletes: the table's rows. */
  liveRows: Row[];
  /** The same before the deletes: every row the file may hold (live or delete-marked). */
  everRows: Row[];
}

/** Values that make CSV work: empty, NULL, separators, quotes, line breaks, non-ASCII. */
const NOTE = `ELT(1 + seq % 7, NULL, '', 'plain text', 'with, comma and "quotes"', CONCAT('line\\nbreak ', seq), REPEAT('é😀', seq % 40), CONCAT(' lead ', seq))`;
/** A long, unique key (108–187 characters): its order is the clustered index order under every collation used here. */
const KEY = `CONCAT('k', LPAD(seq, 6, '0'), '-', REPEAT(CHAR(97 + seq % 26 USING latin1), 100 + seq % 80))`;

const SPECS: { name: string; rowFormat: RowFormat; create: string; select: string }[] = [
  {
    name: 't_redundant',
    rowFormat: 'REDUNDANT',
    create: `k VARCHAR(190) CHARACTER SET latin1 NOT NULL, n INT NOT NULL, d DATE NOT NULL, m MEDIUMINT NULL,
      amount DECIMAL(12,2) NULL, at DATETIME(3) NULL, note TEXT NULL, PRIMARY KEY (k)`,
    select: `${KEY}, CAST(seq AS SIGNED) * 7919 - 20000000, DATE'1000-01-01' + INTERVAL (seq * 367) % 3000000 DAY,
      IF(seq % 11 = 0, NULL, (CAST(seq AS SIGNED) * 331) % 8388607 - 4000000),
      IF(seq % 13 = 0, NULL, (CAST(seq AS SIGNED) * 12345 % 2000000001 - 1000000000) / 100),
      IF(seq % 7 = 0, NULL, TIMESTAMP'2001-02-03 04:05:06' + INTERVAL seq * 3607 SECOND + INTERVAL seq % 1000 * 1000 MICROSECOND),
      ${NOTE}`,
  },
  {
    name: 't_compact',
    rowFormat: 'COMPACT',
    create: `k VARCHAR(190) NOT NULL, qty SMALLINT NULL, n INT NOT NULL, price DECIMAL(9,3) NOT NULL, d DATE NULL,
      m MEDIUMINT NOT NULL, t TIME(2) NULL, label CHAR(12) NULL, body VARCHAR(300) NULL, PRIMARY KEY (k)`,
    select: `${KEY}, IF(seq % 9 = 0, NULL, CAST(seq % 65536 AS SIGNED) - 32768), CAST(seq AS SIGNED) * -104729,
      (CAST(seq AS SIGNED) * 7777 % 1999999 - 999999) / 1000, IF(seq % 17 = 0, NULL, DATE'9999-12-31' - INTERVAL seq * 13 DAY),
      CAST(seq AS SIGNED) * 1399 % 16777215 - 8388607,
      IF(seq % 5 = 0, NULL, SEC_TO_TIME(CAST(seq AS SIGNED) * 611 % 3000000 - 1500000 + (seq % 100) / 100)),
      IF(seq % 4 = 0, NULL, LEFT(CONCAT('L', seq, ',"x"'), 12)), ${NOTE}`,
  },
  {
    name: 't_dynamic',
    rowFormat: 'DYNAMIC',
    create: `k VARCHAR(190) NOT NULL, n INT NOT NULL, big BIGINT UNSIGNED NULL, d DATE NOT NULL, m MEDIUMINT UNSIGNED NULL,
      ratio DECIMAL(20,6) NULL, ts TIMESTAMP(6) NULL DEFAULT NULL, y YEAR NULL, txt MEDIUMTEXT NULL, PRIMARY KEY (k)`,
    select: `${KEY}, CAST(seq AS SIGNED) * 65537 - 100000000, IF(seq % 6 = 0, NULL, IF(seq % 50 = 1, 18446744073709551615, seq * 2000000000000003)),
      DATE'1970-01-01' + INTERVAL seq * 3 DAY, IF(seq % 8 = 0, NULL, seq * 2791 % 16777215),
      IF(seq % 10 = 0, NULL, (CAST(seq AS SIGNED) * 1000003 % 99999999 - 49999999) / 1000000),
      IF(seq % 3 = 0, NULL, FROM_UNIXTIME(1 + seq * 86413 + (seq % 1000) / 1000)), IF(seq % 12 = 0, NULL, 1901 + seq % 255), ${NOTE}`,
  },
];

export const TABLE_NAMES = SPECS.map((s) => s.name);

/**
 * Creates and fills the tables (`rows` each), deletes every 29th row under an open read view (so
 * its record stays, delete-marked), and exports them. Deterministic: the values come from `seq`.
 */
export async function makeTables(server: MariadbServer, rows: number): Promise<TableFixture[]> {
  await server.exec(
    SPECS.map((s) => `CREATE TABLE ${s.name} (${s.create}) ROW_FORMAT=${s.rowFormat} DEFAULT CHARSET=utf8mb4;
      INSERT INTO ${s.name} SELECT ${s.select} FROM seq_1_to_${rows};`).join('\n'),
  );
  const everRows = new Map<string, Row[]>();
  for (const s of SPECS) everRows.set(s.name, (await server.query(`SELECT * FROM ${s.name} ORDER BY k`)).rows);
  // An open read view stops purge (as a long transaction does on a busy server).
  const view = await createConnection({ socketPath: server.socket, user: 'root', database: 'test' });
  try {
    await view.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
    await server.exec(SPECS.map((s) => `DELETE FROM ${s.name} WHERE SUBSTRING(k, 2, 6) % 29 = 0;`).join('\n'));
    const fixtures: TableFixture[] = [];
    for (const s of SPECS) {
      const live = await server.query(`SELECT * FROM ${s.name} ORDER BY k`);
      fixtures.push({
        name: s.name,
        rowFormat: s.rowFormat,
        ddl: (await server.query(`SHOW CREATE TABLE ${s.name}`)).rows[0][1] as string,
        bytes: new Uint8Array(readFileSync(await server.exportTable(s.name))),
        pageSize: server.pageSize,
        columns: live.columns,
        liveRows: live.rows,
        everRows: everRows.get(s.name) ?? [],
      });
    }
    return fixtures;
  } finally {
    await view.end();
  }
}
