/**
 * A partitioned table's files copied out of a running server (its partitions' .ibd files, .frm and
 * .par, while FLUSH TABLES … FOR EXPORT holds it), the files in the order the CLI is given them in the
 * tests, and the server's rows of each (sub)partition, in partition order.
 */
import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection } from 'mariadb';
import type { MariadbServer } from './mariadb.ts';

/** Copies the table's partition files, .frm and .par into a fresh folder under `into`; the folder. */
export async function exportPartitions(server: MariadbServer, into: string, table: string): Promise<string> {
  const dir = mkdtempSync(join(into, `${table}-`));
  const c = await createConnection({ socketPath: server.socket, user: 'root', database: 'test' });
  try {
    await c.query(`FLUSH TABLES ${table} FOR EXPORT`);
    const db = join(server.datadir, 'test');
    for (const f of readdirSync(db)) if (f.startsWith(`${table}#P#`) && f.endsWith('.ibd') || f === `${table}.frm` || f === `${table}.par`) copyFileSync(join(db, f), join(dir, f));
  } finally {
    await c.query('UNLOCK TABLES');
    await c.end();
  }
  return dir;
}

/** The .ibd files of `dir`, out of their name order (the reader puts them in partition order). */
export const partitionIbds = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.ibd')).sort().reverse().map((f) => join(dir, f));

/** The (sub)partitions in order, as INFORMATION_SCHEMA.PARTITIONS lists them, and the server's rows of each. */
export async function serverPartitions(server: MariadbServer, table: string, select = '*', order = ''): Promise<{ name: string; rows: (string | null)[][] }[]> {
  const listed = await server.query(`SELECT PARTITION_NAME, SUBPARTITION_NAME FROM information_schema.PARTITIONS WHERE TABLE_SCHEMA = 'test' AND TABLE_NAME = '${table}' ORDER BY PARTITION_ORDINAL_POSITION, SUBPARTITION_ORDINAL_POSITION`);
  const keyOrder = order || (await server.query(`SELECT GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'test' AND TABLE_NAME = '${table}' AND INDEX_NAME = 'PRIMARY'`)).rows[0][0];
  const parts = [];
  for (const [p, s] of listed.rows) {
    const name = s ?? p ?? '';
    parts.push({ name: s ? `${p}#SP#${s}` : name, rows: (await server.query(`SELECT ${select} FROM ${table} PARTITION (\`${name}\`) ORDER BY ${keyOrder}`)).rows });
  }
  return parts;
}
