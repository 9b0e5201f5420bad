/**
 * Issue 37 in the BUILT page with an encrypted datadir: a MariaDB 10.11 server with
 * file_key_management, innodb_encrypt_log=ON (key 1) and innodb_encrypt_tables=ON (key 2), killed
 * mid-work with a transaction left open (test/differential/crash-encrypted-setup.ts), its datadir
 * dropped as a folder with a key file inside. With keys 1 and 2 the page decrypts the log, rolls the
 * tables forward and the open transaction back: every value of the CSV export equal to the SELECT of
 * a second server that recovered a copy by itself. With key 2 only the tables are read, the log is
 * not applied, and the notice says why (it cannot be decrypted) and that rows may be stale.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Row } from '../../src/core/readers/table-reader.ts';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { crashEncrypted, KEY1, KEY2, writeKeyFile, type CrashedEncrypted } from '../differential/crash-encrypted-setup.ts';
import { pageSteps } from './harness.ts';
import { pageTest, type PageTest } from './page-test.ts';

/** A table the log rolls forward (splits, deletes, updates, off-page columns), and the open transaction's. */
const TABLES = ['t_dynamic', 't_open'];

let crashed: CrashedEncrypted;
/** Two copies of the crashed datadir: one with keys 1 and 2 inside, one with key 2 only. */
let withKeys: string;
let tablesKeyOnly: string;
const keys = mkdtempSync(join(tmpdir(), 'ibd-crash-page-keys-'));
const truth = new Map<string, { columns: string[]; rows: Row[] }>();
let changedByOpen = 0;

beforeAll(async () => {
  crashed = await crashEncrypted(writeKeyFile(keys, 'keys.txt', KEY1 + KEY2));
  withKeys = crashed.copy;
  writeKeyFile(withKeys, 'keys.txt', KEY1 + KEY2);
  tablesKeyOnly = crashed.server.copyDatadir();
  writeKeyFile(tablesKeyOnly, 'keys.txt', KEY2);
  // The rows the open transaction deleted or updated (crashMidWork), all back after the server's recovery.
  changedByOpen = Number((await crashed.recovered.query('SELECT COUNT(*) FROM t_open WHERE id < 500 OR id > 700', 'test')).rows[0][0]);
  for (const t of TABLES) {
    // BLOBs as the page writes them: 0x and uppercase hex
    truth.set(t, await crashed.recovered.query(`SELECT id, k, s, CONCAT('0x', HEX(b)) AS b FROM ${t} ORDER BY id`, 'test'));
  }
}, 600_000);

afterAll(async () => {
  await crashed?.recovered.stop();
  await crashed?.server.stop();
  for (const d of [withKeys, tablesKeyOnly, keys]) if (d) rmSync(d, { recursive: true, force: true });
}, 60_000);

/** The steps on one Chromium page of its own (a key once read stays in the page's key ring). */
function onPage(env: PageTest) {
  const page = (): Page => env.page;
  const steps = pageSteps(page);
  const item = (name: string) => page().locator(`[data-testid="table-item"][data-table="${name}"]`);
  return {
    ...steps,
    item,
    notice: () => page().getByTestId('redo-notice'),
    lines: () => page().getByTestId('redo-line').allTextContents(),
    /** Opens `table`, waits for its count, and exports its rows as CSV. */
    async exported(table: string): Promise<string> {
      await item(table).click();
      await steps.waitForTable(table, 'done', 120_000);
      return (await steps.download('CSV', `${table}.csv`)).toString('utf8');
    },
    async drop(folder: string): Promise<void> {
      await page().locator('[data-testid="folder-input"]').setInputFiles(folder);
      await item('t_dynamic').waitFor({ timeout: 120_000 });
    },
  };
}

describe('an encrypted crashed datadir dropped as a folder with its key file, in the built page', () => {
  const env = pageTest('crash-encrypted-page');
  const p = onPage(env);

  it('decrypts the log, rolls forward and back: rows equal to the recovered server\'s; the notice says so', async () => {
    await p.drop(withKeys);
    for (const t of TABLES) {
      const { columns, rows } = truth.get(t)!;
      expect(await p.exported(t)).toBe(csvHeader(columns) + csvRows(rows));
      expect(await p.rowCount()).toBe(rows.length);
      await expect.poll(() => p.notice().getAttribute('data-applied')).toBe('true');
      expect(await p.notice().getAttribute('data-stale')).toBe('false');
      const lines = await p.lines();
      expect(lines[0]).toMatch(new RegExp(`^${t}\\.ibd: the datadir was not shut down cleanly \\(ib_logfile0, MariaDB 10\\.8\\+.*checkpoint at LSN \\d+, log ends at LSN \\d+\\)$`));
      expect(lines[1]).toMatch(new RegExp(`^${t}\\.ibd: rolled forward from the checkpoint: [1-9]\\d* log records applied`));
    }
    // t_open (on screen): its transaction rolled back, with the rows of this table it changed
    const n = changedByOpen.toLocaleString('en-US');
    await expect.poll(() => env.page.locator('[data-testid="redo-line"][data-trx]').allTextContents()).toEqual([
      expect.stringMatching(new RegExp(`^t_open\\.ibd: transaction \\d+ was active at the crash: rolled back, ${n} rows of this table changed \\(${n} updated or deleted rows restored, 0 inserted rows removed\\)$`)),
    ]);
    // ib_logfile0 and the key file are the datadir's, not files the page could not use
    expect(await env.page.getByTestId('notice').allTextContents()).not.toContainEqual(expect.stringMatching(/ib_logfile0|keys\.txt/));
    await p.shot('crash-encrypted-recovered');
  }, 300_000);
});

describe('the same datadir with the tables\' key only, in the built page', () => {
  const env = pageTest('crash-encrypted-nokey-page');
  const p = onPage(env);

  it('reads the tables as on disk and says the log cannot be decrypted: rows marked possibly stale', async () => {
    await p.drop(tablesKeyOnly);
    await p.item('t_dynamic').click();
    await p.waitForTable('t_dynamic', 'done', 120_000);
    expect(await p.rowCount()).toBeGreaterThan(0);
    await expect.poll(() => p.notice().getAttribute('data-stale'), { timeout: 60_000 }).toBe('true');
    expect(await p.notice().getAttribute('data-applied')).toBe('false');
    expect(await p.lines()).toContainEqual(expect.stringMatching(/^t_dynamic\.ibd: the log is not applied: the redo log cannot be decrypted: it is encrypted \(innodb_encrypt_log\) with key 1 .*no key 1.*rows may be stale/));
    // and the rows are not the recovered server's: the log mattered
    const { columns, rows } = truth.get('t_dynamic')!;
    expect((await p.download('CSV', 't_dynamic.csv')).toString('utf8')).not.toBe(csvHeader(columns) + csvRows(rows));
    await p.shot('crash-encrypted-no-log-key');
  }, 300_000);
});
