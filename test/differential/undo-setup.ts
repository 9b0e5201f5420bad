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
