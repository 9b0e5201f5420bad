/**
 * A grid never shows rows that are not the selected table's (issue 41, item 2), in the BUILT page in
 * Chromium, with real MySQL 5.6 files (test/fixtures/mysql-testsuite, SOURCE.md): `tb07` read, then
 * `tb_redundant_format` selected, which no definition given is named like. Among the definitions
 * offered, `tb04.sql` creates `tb04` twice: the chooser listed them by name, the duplicate key threw
 * in the page's rendering and the screen stayed as it was (tb07's rows under the other table's
 * header). Now each is offered under a name of its own, the chooser shows, no rows; and a wrong
 * definition chosen gets the verdict that it does not fit, not a request for a key file. The list's
 * row count in another row mode says which rows it counts; Close all files clears "export all".
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectOwnOriginOnly, pageSteps, ROOT, type Session } from './harness.ts';
import { pageTest } from './page-test.ts';

const DIR = join(ROOT, 'test/fixtures/mysql-testsuite/mysql56');
const FILES = ['column/binary/tb07.ibd', 'column/binary/tb07.sql', 'simple/tb_redundant_format.ibd', 'column/char/tb04.sql', 'column/char/tb04utf8mb4.sql'].map((f) => join(DIR, f));

describe('selecting a table that waits for a definition', () => {
  let session: Session;
  let page: Page;
  const env = pageTest('selection');
  const { open, waitForTable, rowCount, exportAll } = pageSteps(() => page);
  const item = (name: string) => page.locator(`[data-testid="table-item"][data-table="${name}"]`);

  beforeAll(() => {
    ({ session, page } = env);
  });

  it('shows the chooser and no rows of the table shown before', async () => {
    await open(FILES);
    await item('tb07').click();
    await waitForTable('tb07', 'done');
    expect(await rowCount()).toBe(10);
    await page.locator('[data-row="9"]').waitFor();

    await item('tb_redundant_format').click();
    await page.getByTestId('choose').waitFor();
    await waitForTable('tb_redundant_format', 'choose');
    expect(await page.locator('[data-row]').count()).toBe(0);
    expect(await page.getByTestId('grid').count()).toBe(0);
    expect(await page.getByTestId('status').count()).toBe(0);
    const offered = await page.locator('#table-select option').allTextContents();
    expect(offered).toEqual(['tb07 (6 columns)', 'tb04 (tb04.sql, #1) (12 columns)', 'tb04 (tb04.sql, #2) (12 columns)', 'tb04utf8mb4 (12 columns)']);
    expect(session.consoleErrors).toEqual([]);
  });

  it('a wrong definition chosen is the verdict that it does not fit, with no key file asked for', async () => {
    await page.locator('#table-select').selectOption('tb07');
    await page.getByRole('button', { name: 'Read rows' }).click();
    const error = page.getByTestId('error');
    await error.waitFor();
    expect(await error.getAttribute('data-mismatch')).toBe('true');
    expect(await error.innerText()).toContain('The table definition does not fit tb_redundant_format');
    expect(await page.getByTestId('needs-key').count()).toBe(0);
    expect(await page.locator('[data-row]').count()).toBe(0);
  });

  it('going back shows the first table\'s own rows', async () => {
    await item('tb07').click();
    await waitForTable('tb07', 'done');
    await page.locator('[data-row="9"]').waitFor();
    expect(await rowCount()).toBe(10);
  });

  it('a count in another row mode says which rows it counts; a count of none says the table has none of them', async () => {
    await page.getByTestId('row-mode').selectOption('deleted');
    await waitForTable('tb07', 'done');
    expect(await rowCount()).toBe(0);
    expect(await item('tb07').getByTestId('table-rows').innerText()).toBe('0 deleted rows');
    expect(await page.locator('.nothing').innerText()).toBe('No rows of this kind in the table.');
    await page.getByTestId('row-mode').selectOption('live');
    await waitForTable('tb07', 'done');
    expect(await item('tb07').getByTestId('table-rows').innerText()).toBe('10 rows');
  });

  it('Close all files takes the last "export all" outcome with it', async () => {
    await exportAll('zip');
    await page.locator('[data-testid="export-all"][data-running="false"][data-done="2"]').waitFor();
    await page.getByTestId('clear-all').click();
    await open(FILES);
    await page.getByTestId('export-all').waitFor();
    expect(await page.getByTestId('export-all').getAttribute('data-done')).toBe('0');
    expect(await page.getByTestId('export-all-status').count()).toBe(0);
    expectOwnOriginOnly(session);
  });
});
