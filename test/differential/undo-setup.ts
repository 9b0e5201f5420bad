/**
 * Shared by the undo tests: the CLI, rows read from its NDJSON, and a server's dirty pages made to
 * reach the disk. With every page written before the crash, the data files hold the uncommitted
 * changes themselves (what the rollback must take back) and the redo log holds nothing the pages
 * lack, so what these tests judge is the undo logs' reading, not redo recovery (another branch).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { MariadbServer } from '../harness/mariadb.ts';

export const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

export function buildCli(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
}

export const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

/** NDJSON rows as arrays of these columns' values. */
export function ndjsonRows(text: string, columns: readonly string[]): (string | null)[][] {
  return text.split('\n').filter((l) => l !== '').map((l) => {
    const o = JSON.parse(l) as Record<string, string | null>;
    return columns.map((c) => o[c]);
  });
}

/** Waits until the buffer pool holds no dirty page (innodb_max_dirty_pages_pct=0 makes the page cleaner write them all). */
export async function flushDirtyPages(server: MariadbServer): Promise<void> {
  await server.exec('SET GLOBAL innodb_max_dirty_pages_pct_lwm = 0; SET GLOBAL innodb_max_dirty_pages_pct = 0');
  for (let i = 0; i < 600; i++) {
    const dirty = (await server.query("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'")).rows[0][1];
    if (dirty === '0') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the buffer pool kept dirty pages for 60 s');
}

/** The table of the history tests (undo-history, the page's Transactions view) and its SELECT. */
export const ITEMS_SELECT = 'SELECT id, name, price, note FROM items ORDER BY id';
/** Their committed mistakes, one transaction each: UPDATE without WHERE, DELETE, INSERT, a primary-key update, a one-row UPDATE. */
export const ITEMS_STEPS = [
  'UPDATE items SET price = 0',
  'DELETE FROM items WHERE id % 9 = 0',
  "INSERT INTO items SELECT 500 + seq, CONCAT('added ', seq), seq, NULL FROM seq_1_to_50",
  'UPDATE items SET id = id + 10000 WHERE id % 50 = 1',
  "UPDATE items SET name = 'later' WHERE id = 2",
];

/** Before each step: the table as the server showed it, the step's transaction id, its affected rows. */
export interface StepBefore {
  rows: (string | null)[][];
  trxId: string;
  affected: number;
}

/**
 * Makes `items` (400 rows, some notes off-page) and commits ITEMS_STEPS while a read view held open
 * keeps purge from their undo logs, taking the SELECT, transaction id and affected rows of each; then
 * every dirty page is written, so the data files hold the changes and the undo logs the history.
 */
export async function commitItemSteps(server: MariadbServer): Promise<StepBefore[]> {
  await server.exec(`CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, price DECIMAL(10,2) NOT NULL, note TEXT) ROW_FORMAT=DYNAMIC;
    INSERT INTO items SELECT seq, CONCAT('item ', seq), seq * 1.5, IF(seq % 6 = 0, REPEAT('note', 2500), NULL) FROM seq_1_to_400;`);
  const view = await server.openSession();
  await view.exec('START TRANSACTION WITH CONSISTENT SNAPSHOT');
  await view.query('SELECT COUNT(*) FROM items');
  const writer = await server.openSession();
  const before: StepBefore[] = [];
  for (const step of ITEMS_STEPS) {
    const rows = (await server.query(ITEMS_SELECT)).rows;
    await writer.exec('START TRANSACTION');
    await writer.exec(step);
    const affected = Number((await writer.query('SELECT ROW_COUNT()')).rows[0][0]);
    // INFORMATION_SCHEMA.INNODB_TRX is a cache refreshed at most every 0.1 s.
    await new Promise((r) => setTimeout(r, 250));
    const trxId = String((await writer.query('SELECT trx_id FROM information_schema.innodb_trx WHERE trx_mysql_thread_id = CONNECTION_ID()')).rows[0][0]);
    await writer.exec('COMMIT');
    before.push({ rows, trxId, affected });
  }
  await flushDirtyPages(server);
  return before;
}
