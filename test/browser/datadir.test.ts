/**
 * A whole datadir dropped on the BUILT page (dist/), in the machine's headless Chromium: a MariaDB
 * 10.11 server run with --innodb-file-per-table=OFF (test/differential/system-tablespace-setup.ts),
 * every table inside ibdata1 but one:
 *  - copied while the server ran, with no .frm: the tables of ibdata1's data dictionary listed by
 *    name with the server's row counts, read with the dictionary's definition, equal to the server's
 *    SELECT; the table dropped under a held read view (its dictionary rows delete-marked) marked
 *    dropped, and its rows those it had;
 *  - the same ibdata1 with shop/fpt.ibd and no .frm: fpt defined by ibdata1's dictionary (its space id);
 *  - after a slow shutdown, with the .frm files and a file-per-table .ibd: the tables read with their
 *    .frm (every value, DECIMAL too); the table purged away listed by the name its freed dictionary
 *    rows give, read with the definition they give, or as a dropped index (id, pages, records) read
 *    once its CREATE TABLE is given (the chooser preselecting it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { plural } from '../../src/ui/format.ts';
import { makeDatadir, type Datadir, type TableCase } from '../differential/system-tablespace-setup.ts';
import { checkSetup, expectOwnOriginOnly, loadPage, pageSteps, startSession, type Session } from './harness.ts';

describe('a datadir whose tables are inside ibdata1, in the built page', () => {
  let dd: Datadir & { fpt: TableCase };
  let session: Session;
  let page: Page;
  let work: string;

  const { shot, waitForTable, rowCount, clearAll, download, panel } = pageSteps(() => page);
  const item = (name: string) => page.locator(`[data-testid="table-item"][data-table="${name}"]`);
  const byName = (name: string) => dd.tables.find((t) => t.name === name) as TableCase;
  const csvOf = (t: TableCase) => csvHeader(t.columns) + csvRows(t.rows);

  /** Opens table `name` (db/table), waits for its rows, and exports them as CSV. */
  async function exported(name: string, file: string): Promise<string> {
    await item(name).click();
    await waitForTable(name, 'done', 120_000);
    return (await download('CSV', file)).toString('utf8');
  }

  beforeAll(async () => {
    checkSetup();
    work = mkdtempSync(join(tmpdir(), 'ibd-datadir-test-'));
    dd = await makeDatadir();
    session = await startSession(join(work, 'chromium-profile'));
    page = session.page;
    await loadPage(session);
  }, 600_000);

  afterAll(async () => {
    await session?.close();
    for (const dir of [work, dd?.live, dd?.shut, dd?.bare]) if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('lists the tables of ibdata1 by name with the server\'s row counts; rows from the dictionary\'s definition; the dropped one marked', async () => {
    await clearAll();
    await page.locator('[data-testid="folder-input"]').setInputFiles(dd.live);
    await item('shop/customers').waitFor({ timeout: 120_000 });
    for (const t of dd.tables) {
      // dropped_purged is still there in this copy; dropped_live was dropped, its pages kept
      await expect.poll(() => item(`shop/${t.name}`).locator('[data-testid="table-rows"]').textContent(), { timeout: 30_000 }).toBe(plural(t.rows.length, 'row'));
    }
    expect(await item('shop/dropped_live').locator('[data-testid="table-dropped"]').count()).toBe(1);
    expect(await item('shop/customers').locator('[data-testid="table-dropped"]').count()).toBe(0);
    // no .frm: the dictionary's definition, whose types here it keeps whole
    expect(await exported('shop/uniq_dyn', 'uniq_dyn.csv')).toBe(csvOf(byName('uniq_dyn')));
    await panel('definition');
    expect(await page.getByTestId('definition').textContent()).toMatch(/InnoDB data dictionary of/);
    expect(await exported('shop/dropped_live', 'dropped_live.csv')).toBe(csvOf(byName('dropped_live')));
    expect(await page.getByTestId('system-table').getAttribute('data-state')).toBe('dropped');
    await shot('datadir-dropped-live');
  }, 300_000);

  it('an .ibd whose .frm is lost is defined by the data dictionary of the ibdata1 beside it (by its space id), rows equal to the server\'s', async () => {
    await clearAll();
    await page.locator('[data-testid="folder-input"]').setInputFiles(dd.bare);
    await item('fpt').waitFor({ timeout: 120_000 });
    expect(await exported('fpt', 'fpt.csv')).toBe(csvOf(dd.fpt));
    await panel('definition');
    const definition = await page.getByTestId('definition').textContent();
    expect(definition).toMatch(/InnoDB data dictionary of/);
    // said so, in the dictionary's own words (as the CLI's stderr)
    expect(definition).toContain('the table definition is the InnoDB data dictionary\'s: `shop/fpt` of ibdata1, whose rows are in space');
    await shot('datadir-ibd-by-dictionary');
  }, 300_000);

  it('after a slow shutdown: the .frm files read, a file-per-table .ibd beside, the purged tables as dropped indexes read with their CREATE TABLE', async () => {
    await clearAll();
    await page.locator('[data-testid="folder-input"]').setInputFiles(dd.shut);
    await item('shop/orders_red').waitFor({ timeout: 120_000 });
    expect(await item('fpt').count()).toBe(1);
    for (const name of ['customers', 'orders_red', 'log_compact', 'uniq_dyn', 'gen_v', 'ft']) {
      await expect.poll(() => item(`shop/${name}`).locator('[data-testid="table-rows"]').textContent(), { timeout: 30_000 }).toBe(plural(byName(name).rows.length, 'row'));
    }
    // The dropped tables come once the whole file is read for them (the live ones are listed first).
    await page.getByTestId('listing-progress').waitFor({ state: 'detached', timeout: 120_000 });
    // A purged table is named by its dictionary rows on the pages the server freed where they are
    // whole, read with the definition they give; else it is an unnamed tree, marked either way.
    const named = (await item('shop/dropped_purged').count()) === 1;
    const purged = named ? 'shop/dropped_purged' : `dropped index ${dd.removed.purgedIndex}`;
    expect(await item(purged).locator('[data-testid="table-dropped"]').count()).toBe(1);
    expect(await item('shop/dropped_live').or(item(`dropped index ${dd.removed.liveIndex}`)).locator('[data-testid="table-dropped"]').count()).toBe(1);
    expect(await exported('shop/orders_red', 'orders_red.csv')).toBe(csvOf(byName('orders_red')));
    await panel('definition');
    expect(await page.getByTestId('definition').textContent()).toMatch(/the \.frm file/);

    await item(purged).click();
    if (!named) {
      await waitForTable(purged, 'needs-schema');
      await shot('datadir-dropped-index');
      const sql = join(work, 'dropped_purged.sql');
      writeFileSync(sql, `${byName('dropped_purged').ddl};\n`);
      await page.locator('[data-testid="file-input"]').setInputFiles([sql]);
      await waitForTable(purged, 'choose');
      // the definition just given, not the dictionary's first table
      expect(await page.getByTestId('choose').locator('select').inputValue()).toBe('dropped_purged');
      await page.getByTestId('choose').locator('button[type="submit"]').click();
    }
    await waitForTable(purged, 'done', 120_000);
    expect(await rowCount()).toBe(byName('dropped_purged').rows.length);
    expect((await download('CSV', 'dropped_purged.csv')).toString('utf8')).toBe(csvOf(byName('dropped_purged')));
    expectOwnOriginOnly(session);
  }, 300_000);
});
