/**
 * Issue 37 in the BUILT page (dist/), in the machine's headless Chromium: a MariaDB 10.11 datadir left
 * by SIGKILL mid-work (test/differential/crash-recovery-setup.ts) dropped as a folder. The page finds
 * its ib_logfile0 and ibdata1, and the tables are read through the pages the log rolls forward: the
 * row count and every value of the CSV export equal to the SELECT of a second server that recovered
 * a copy of the same datadir by itself; the notice says the datadir was not shut down cleanly and
 * what the log did. The transaction left open at the crash is rolled back, as the server does. The
 * "as on disk" switch gives the rows as the files hold them: different.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Row } from '../../src/core/readers/table-reader.ts';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { crashMidWork, SERVER_ARGS, type Crashed } from '../differential/crash-recovery-setup.ts';
import { pageSteps } from './harness.ts';
import { pageTest } from './page-test.ts';

/**
 * A table changed after the checkpoint (inserts that split pages, deletes, updates, off-page
 * columns), one created after it, and one a transaction left open at the crash changed (deletes, updates).
 */
const TABLES = ['t_dynamic', 't_new', 't_open'];

describe('a crashed datadir dropped as a folder, in the built page', () => {
  let page: Page;
  let crashed: Crashed;
  let copy: string;
  let recovered: MariadbServer;
  const truth = new Map<string, { columns: string[]; rows: Row[] }>();
  let changedByOpen = 0;

  const env = pageTest('crash-page');
  const { shot, waitForTable, rowCount, download } = pageSteps(() => page);
  const item = (name: string) => page.locator(`[data-testid="table-item"][data-table="${name}"]`);
  const notice = () => page.getByTestId('redo-notice');

  /** Opens `table`, waits for its count, and exports its rows as CSV. */
  async function exported(table: string): Promise<string> {
    await item(table).click();
    await waitForTable(table, 'done', 120_000);
    return (await download('CSV', `${table}.csv`)).toString('utf8');
  }

  beforeAll(async () => {
    ({ page } = env);
    crashed = await crashMidWork(true, true);
    copy = crashed.server.copyDatadir();
    recovered = await startMariadb({ datadir: crashed.server.copyDatadir(), extraArgs: SERVER_ARGS });
    // The rows the transaction left open at the crash deleted or updated (crashMidWork), all back.
    changedByOpen = Number((await recovered.query('SELECT COUNT(*) FROM t_open WHERE id < 500 OR id > 700', 'test')).rows[0][0]);
    for (const t of TABLES) {
      // BLOBs as the page writes them: 0x and uppercase hex
      truth.set(t, await recovered.query(`SELECT id, k, s, CONCAT('0x', HEX(b)) AS b FROM ${t} ORDER BY id`, 'test'));
    }
  }, 600_000);

  afterAll(async () => {
    await recovered?.stop();
    await crashed?.server.stop();
    if (copy) rmSync(copy, { recursive: true, force: true });
  }, 60_000);

  it('reads every table through the pages its redo log rolls forward: rows equal to the recovered server\'s; the notice says so', async () => {
    await page.locator('[data-testid="folder-input"]').setInputFiles(copy);
    await item('t_dynamic').waitFor({ timeout: 120_000 });
    for (const t of TABLES) {
      const { columns, rows } = truth.get(t)!;
      expect(await exported(t)).toBe(csvHeader(columns) + csvRows(rows));
      expect(await rowCount()).toBe(rows.length);
      await expect.poll(() => notice().getAttribute('data-applied')).toBe('true');
    }
    // t_open: its transaction rolled back, said so with the rows of the table it changed (the rows
    // it deleted or updated, which the recovered server has back)
    await expect.poll(() => page.locator('[data-testid="redo-line"][data-trx]').allTextContents()).toEqual([
      expect.stringMatching(new RegExp(`^t_open\\.ibd: transaction \\d+ was active at the crash: rolled back, ${changedByOpen.toLocaleString('en-US')} rows of this table changed \\(${changedByOpen.toLocaleString('en-US')} updated or deleted rows restored, 0 inserted rows removed\\)$`)),
    ]);
    expect(await notice().getAttribute('data-stale')).toBe('false');
    await item('t_new').click();
    await waitForTable('t_new', 'done', 120_000);
    const lines = await page.getByTestId('redo-line').allTextContents();
    expect(lines[0]).toMatch(/^t_new\.ibd: the datadir was not shut down cleanly \(ib_logfile0, MariaDB 10\.8\+.*checkpoint at LSN \d+, log ends at LSN \d+\)$/);
    expect(lines[1]).toMatch(/^t_new\.ibd: rolled forward from the checkpoint: [1-9]\d* log records applied to [1-9]\d* of the [1-9]\d* pages of this table the log changes/);
    // ib_logfile0 is the datadir's log, not a file the page could not use
    expect(await page.getByTestId('notice').allTextContents()).not.toContainEqual(expect.stringMatching(/ib_logfile0/));
    await shot('crash-recovered');
  }, 300_000);

  it('rolls the open transaction back in every partition of a partitioned table, counted, and through its secondary index', async () => {
    const columns = ['id', 'k', 's', 'b', '_partition'];
    const rows: Row[] = [];
    for (const p of ['p0', 'p1', 'p2']) {
      rows.push(...(await recovered.query(`SELECT id, k, s, CONCAT('0x', HEX(b)), '${p}' FROM t_part PARTITION (${p}) ORDER BY id`, 'test')).rows);
    }
    // Rows it deleted or updated, back; the 50 it inserted, gone (crashMidWork).
    const restored = Number((await recovered.query('SELECT COUNT(*) FROM t_part WHERE id < 100 OR id % 4 = 0', 'test')).rows[0][0]);
    expect(await exported('t_part')).toBe(csvHeader(columns) + csvRows(rows));
    expect(await rowCount()).toBe(rows.length);
    await expect.poll(() => page.locator('[data-testid="redo-line"][data-trx]').allTextContents()).toEqual([
      expect.stringMatching(new RegExp(`^t_part\\S*: transaction \\d+ was active at the crash: rolled back, ${restored + 50} rows of this table changed \\(${restored} updated or deleted rows restored, 50 inserted rows removed\\)$`)),
    ]);
    // Its index kk, rolled back too: one entry per row the server has (as on disk: the 50 inserted
    // rows' entries, and not those of the 99 deleted ones), k back where the transaction negated it.
    await page.getByTestId('index-choice').selectOption('kk');
    await waitForTable('t_part', 'done', 120_000);
    await expect.poll(() => rowCount(), { timeout: 60_000 }).toBe(rows.length);
    await expect.poll(() => page.locator('[data-testid="redo-line"][data-trx]').allTextContents()).toEqual([expect.stringMatching(/^t_part\S*: transaction \d+ was active at the crash: rolled back, \d+ rows of this table changed/)]);
    expect(await notice().getAttribute('data-stale')).toBe('false');
    await shot('crash-partitions');
  }, 300_000);

  it('"as on disk" reads the pages as the files hold them: other rows, said so', async () => {
    await item('t_dynamic').click();
    await waitForTable('t_dynamic', 'done', 120_000);
    await page.getByTestId('as-on-disk').check();
    await expect.poll(() => notice().getAttribute('data-applied'), { timeout: 60_000 }).toBe('false');
    await waitForTable('t_dynamic', 'done', 120_000);
    const { columns, rows } = truth.get('t_dynamic')!;
    const onDisk = (await download('CSV', 't_dynamic.csv')).toString('utf8');
    expect(onDisk.startsWith(csvHeader(columns))).toBe(true);
    expect(onDisk).not.toBe(csvHeader(columns) + csvRows(rows));
    expect(await page.getByTestId('redo-line').allTextContents()).toContainEqual(expect.stringMatching(/the log is not applied: the pages are read as they are on disk, as asked \("as on disk"\); \d+ pages of this table were changed after the checkpoint; rows may be stale/));
    await shot('crash-as-on-disk');
    // and back: the recovered rows again
    await page.getByTestId('as-on-disk').uncheck();
    await expect.poll(() => notice().getAttribute('data-applied'), { timeout: 60_000 }).toBe('true');
    await waitForTable('t_dynamic', 'done', 120_000);
    expect((await download('CSV', 't_dynamic.csv')).toString('utf8')).toBe(csvHeader(columns) + csvRows(rows));
  }, 300_000);
});
