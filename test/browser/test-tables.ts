/**
 * The tables the browser tests read back, written by a real MariaDB (test/harness/mariadb.ts): the
 * 3,000-row table `t` of awkward values (NULL and empty strings, quotes, line breaks, emoji, several
 * scripts, DECIMAL, DATETIME(6), binary, long TEXT), inserted in a shuffled order so that key order
 * is the decoder's doing; and a table's .ibd and CREATE TABLE as files beside each other.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MariadbServer, QueryResult } from '../harness/mariadb.ts';

export const ROWS = 3000;

/** MariaDB string literal (default sql_mode: backslash escapes are on). */
export function sqlString(s: string): string {
  return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\0/g, '\\0') + "'";
}

export const TEXTS: (string | null)[] = [
  'plain',
  '',
  null,
  'comma, inside',
  'say "hi"',
  'line1\nline2',
  'emoji 😀 and 👍🏽 and 🇫🇷',
  'café crème — naïve',
  '漢字かなカナ한국어',
  '\\N',
  ' leading and trailing ',
  'x'.repeat(95),
  'שלום עולם',
  'tab\there',
  "semi;colon and 'quotes'",
];

/** Deterministic row content for pk (1-based). */
function rowValues(pk: number): string {
  const n = pk % 17 === 0 ? 'NULL' : String((pk * 7919) % 2000003 - 1000000) + (pk % 3 === 0 ? '000000' : '');
  const text = TEXTS[pk % TEXTS.length];
  const s = text === null ? 'NULL' : sqlString(pk % 5 === 0 ? `${text} #${pk}` : text);
  const d = pk % 19 === 0 ? 'NULL' : `${(pk * 37) % 100000 - 50000}.${String(pk % 1000).padStart(3, '0')}`;
  const sec = (pk * 7) % 60;
  const dt =
    pk % 13 === 0
      ? 'NULL'
      : `'20${String(10 + (pk % 20)).padStart(2, '0')}-${String(1 + (pk % 12)).padStart(2, '0')}-${String(1 + (pk % 28)).padStart(2, '0')} ${String(pk % 24).padStart(2, '0')}:${String(pk % 60).padStart(2, '0')}:${String(sec).padStart(2, '0')}.${String((pk * 104729) % 1000000).padStart(6, '0')}'`;
  const u = pk % 4 === 0 ? 'NULL' : String(pk % 256);
  const b = pk % 6 === 0 ? 'NULL' : pk % 6 === 1 ? "''" : `0x${(pk * 2654435761).toString(16).padStart(8, '0').slice(-8)}00FF`;
  const long = pk % 250 === 0 ? sqlString(`long value ${pk}: ` + 'lorem ipsum dolor sit amet '.repeat(40)) : 'NULL';
  return `(${pk}, ${n}, ${s}, ${d}, ${dt}, ${u}, ${b}, ${long})`;
}

const CREATE = `CREATE TABLE t (
  pk INT NOT NULL,
  n BIGINT NULL,
  s VARCHAR(120) CHARACTER SET utf8mb4 NULL,
  d DECIMAL(12,3) NULL,
  dt DATETIME(6) NULL,
  u TINYINT UNSIGNED NULL,
  b VARBINARY(16) NULL,
  lng TEXT NULL,
  PRIMARY KEY (pk)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`;

/** Inserts rows in a shuffled order, so primary-key order is the decoder's doing. */
function insertScript(): string {
  const order = Array.from({ length: ROWS }, (_, i) => i + 1);
  let seed = 12345;
  for (let i = order.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const parts: string[] = [];
  for (let i = 0; i < order.length; i += 500) {
    parts.push(`INSERT INTO t VALUES ${order.slice(i, i + 500).map(rowValues).join(',\n')};`);
  }
  return parts.join('\n');
}

/** Creates `t` in `db` (database test) and returns its rows as the server SELECTs them, in key order. */
export async function createAwkwardTable(db: MariadbServer): Promise<QueryResult> {
  await db.exec(`${CREATE};\n${insertScript()}`);
  return db.query('SELECT * FROM t ORDER BY pk');
}

/**
 * `table` of database test as `work`/`table`.ibd and `work`/`table`.sql (its SHOW CREATE TABLE);
 * `exported` is the server's export folder's copy of the .ibd, with its .frm and .cfg beside it.
 */
export async function tableFiles(db: MariadbServer, table: string, work: string): Promise<{ ibd: string; sql: string; exported: string }> {
  const create = (await db.query(`SHOW CREATE TABLE ${table}`)).rows[0][1];
  const sql = join(work, `${table}.sql`);
  writeFileSync(sql, `-- schema of ${table}\n${create};\n`);
  const exported = await db.exportTable(table);
  const ibd = join(work, `${table}.ibd`);
  writeFileSync(ibd, readFileSync(exported));
  return { ibd, sql, exported };
}

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}
