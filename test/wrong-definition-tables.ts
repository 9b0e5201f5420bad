/**
 * Two tables of different definitions written by a real MariaDB, each a B-tree of two levels (node
 * pointers above the leaves), and the one's CREATE TABLE saved under the other's name: the file of
 * `h_customers` (DYNAMIC) given with a `h_customers.sql` that creates `h_orders` (COMPACT), as a DBA
 * with a folder of dumps may. Checksums in the MySQL-compatible format (crc32), whose space flags
 * tell DYNAMIC from COMPACT. Used by the CLI's test and the page's.
 */
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MariadbServer } from './harness/mariadb.ts';

export const CUSTOMERS = `CREATE TABLE h_customers (c_custkey INT NOT NULL PRIMARY KEY, c_name VARCHAR(25) NOT NULL,
  c_address VARCHAR(40) NOT NULL, c_nationkey INT NOT NULL, c_phone CHAR(15) NOT NULL, c_acctbal DECIMAL(15,2) NOT NULL,
  c_comment VARCHAR(117) NOT NULL) ENGINE=InnoDB ROW_FORMAT=DYNAMIC`;
const ORDERS = `CREATE TABLE h_orders (o_orderkey BIGINT NOT NULL, o_line INT NOT NULL, o_custkey INT NOT NULL,
  o_orderstatus CHAR(1) NOT NULL, o_totalprice DECIMAL(15,2) NOT NULL, o_orderdate DATE NOT NULL,
  o_comment VARCHAR(79) NOT NULL, PRIMARY KEY (o_orderkey, o_line)) ENGINE=InnoDB ROW_FORMAT=COMPACT`;

/** Writes `h_customers.ibd` (its own CREATE as `own.sql`) and the misnamed `h_customers.sql` into `dir`. */
export async function wrongDefinitionFiles(db: MariadbServer, dir: string): Promise<{ ibd: string; wrongSql: string; ownSql: string }> {
  await db.exec(`${CUSTOMERS}; ${ORDERS};
    INSERT INTO h_customers SELECT seq, CONCAT('Customer#', LPAD(seq, 9, '0')), REPEAT(CHAR(65 + seq % 26), 10 + seq % 30), seq % 25,
      CONCAT('12-345-678-', LPAD(seq % 10000, 4, '0')), (seq * 37 % 1000000) / 100 - 999.99, REPEAT('lorem ipsum ', 1 + seq % 9) FROM seq_1_to_12000;
    INSERT INTO h_orders SELECT seq, 1 + seq % 3, seq % 12000 + 1, ELT(1 + seq % 3, 'O', 'F', 'P'), (seq * 91 % 10000000) / 100,
      '1995-01-01' + INTERVAL seq % 2000 DAY, REPEAT('dolor ', 1 + seq % 12) FROM seq_1_to_5000;`);
  const ibd = join(dir, 'h_customers.ibd');
  copyFileSync(await db.exportTable('h_customers'), ibd);
  const create = async (t: string) => `${(await db.query(`SHOW CREATE TABLE ${t}`)).rows[0]![1]!};\n`;
  const wrongSql = join(dir, 'h_customers.sql');
  writeFileSync(wrongSql, await create('h_orders'));
  const ownSql = join(dir, 'own.sql');
  writeFileSync(ownSql, await create('h_customers'));
  return { ibd, wrongSql, ownSql };
}
