/**
 * Issue 37 in the BUILT page (dist/), in the machine's headless Chromium: a crashed MySQL 8.0.30+
 * datadir dropped as a folder (test/log/mysql-torn-datadir.ts: a real MySQL 8.0 table with its leaf
 * half zeroed, a log whose records this reader does not apply, the leaf's intact copy in
 * `#ib_16384_0.dblwr`). The page reads the torn leaf from the doublewrite file: the CSV export equals
 * the intact table's; the notice says the page restored and, the log not applied, that rows may be
 * stale; the doublewrite file is neither a table nor an ignored file.
 */
import { join } from 'node:path';
import { mkdirSync, copyFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dblwrFile, FIXTURE, halfZeroed, intact, LEAF, pageOf, tornDatadir, withPage } from '../log/mysql-torn-datadir.ts';
import { pageSteps } from './harness.ts';
import { pageTest } from './page-test.ts';

describe("a crashed MySQL datadir's torn page, from its doublewrite file, in the built page", () => {
  const env = pageTest('dblwr-page');
  const { shot, waitForTable, clearAll, download } = pageSteps(() => env.page);
  const item = () => env.page.locator('[data-testid="table-item"][data-table="tb01"]');

  /** Drops folder `dir`, opens tb01 and exports its rows as CSV. */
  async function exported(dir: string): Promise<string> {
    await clearAll();
    await env.page.locator('[data-testid="folder-input"]').setInputFiles(dir);
    await item().waitFor({ timeout: 120_000 });
    await item().click();
    await waitForTable('tb01', 'done', 120_000);
    return (await download('CSV', 'tb01.csv')).toString('utf8');
  }

  it('reads the leaf from #ib_16384_0.dblwr: the rows of the intact table, said so, rows may be stale', async () => {
    const whole = join(env.work, 'intact');
    mkdirSync(join(whole, 'db'), { recursive: true });
    copyFileSync(FIXTURE, join(whole, 'db/tb01.ibd'));
    const expected = await exported(whole);
    expect(expected.split('\n').filter((l) => l !== '').length).toBe(11);

    const torn = join(env.work, 'torn');
    tornDatadir(torn, withPage(LEAF, halfZeroed()), { '#ib_16384_0.dblwr': dblwrFile(4, [[1, pageOf(intact, 3)], [2, pageOf(intact, LEAF)]]) });
    expect(await exported(torn)).toBe(expected);
    const lines = await env.page.getByTestId('redo-line').allTextContents();
    expect(lines).toContainEqual(expect.stringMatching(/^tb01\.ibd: 1 pages restored from #ib_16384_0\.dblwr \(torn by the crash, read as the doublewrite buffer's intact copies: pages 4\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/the log is not applied: a MySQL 8\.0\.30\+ redo log is not applied by this reader/));
    expect(await env.page.getByTestId('redo-notice').getAttribute('data-stale')).toBe('true');
    expect(await env.page.locator('[data-testid="table-item"]').count()).toBe(1);
    expect(await env.page.getByTestId('notice').allTextContents()).not.toContainEqual(expect.stringMatching(/dblwr/));
    await shot('dblwr-restored');
  }, 300_000);
});
