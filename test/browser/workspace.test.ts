/**
 * The table view a DBA works in, in the BUILT page (dist/) in Debian's Chromium at 1366×860: the rows
 * first, typed headers, selection and copy, the record view, messages kept with their table. The
 * truth is the server: the bundled sample's saved SELECT (test/fixtures/sample-employees.csv), and a
 * table a real MariaDB wrote (test-tables.ts), its column types from information_schema and its
 * rows from SELECT; a copied INSERT is run by that server and read back.
 *
 *  - Open sample, and the MariaDB table: the first rows are on screen without scrolling the page,
 *    the grid fills the window; headers show the server's types and the keys by index name, never
 *    cut; the summary names the B-trees;
 *  - Ctrl+C copies the selected cells as TSV (read from the clipboard, parsed as a spreadsheet
 *    would), equal to the server's values; every row (Ctrl+A), through the row store; rows as
 *    INSERT re-imported equal; the record view; the value viewer keeps its row after a filter;
 *  - an export's message stays under its own table, and is gone after Close all files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MariadbServer, QueryResult } from '../harness/mariadb.ts';
import { expectOwnOriginOnly, pageSteps, ROOT, type Session } from './harness.ts';
import { pageTest } from './page-test.ts';
import { createAwkwardTable, ROWS, tableFiles } from './test-tables.ts';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { ndjsonOf } from '../../src/core/writers/output.ts';

const WIDTH = 1366;
const HEIGHT = 860;

/** TSV as a spreadsheet reads it: quoted cells, doubled quotes; the last line's newline dropped. */
function parseTsv(text: string): string[][] {
  const parsed = Papa.parse<string[]>(text.replace(/\n$/, ''), { delimiter: '\t', newline: '\n', quoteChar: '"' });
  expect(parsed.errors).toEqual([]);
  return parsed.data;
}

/** The server's values as a copy gives them: NULL as an empty cell. */
const asCells = (rows: (string | null)[][]): string[][] => rows.map((r) => r.map((v) => v ?? ''));

describe('the workspace: rows first, typed headers, selection and copy', () => {
  let db: MariadbServer | undefined;
  let session: Session;
  let page: Page;
  let work: string;
  const files: Record<string, string> = {};
  let expected: QueryResult;
  let types: string[];

  const env = pageTest('workspace', { mariadb: {} });
  const { shot, waitForTable, clearAll, open, panel } = pageSteps(() => page);

  beforeAll(async () => {
    ({ db, session, page, work } = env);
    expected = await createAwkwardTable(db);
    types = (await db.query("SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'test' AND TABLE_NAME = 't' ORDER BY ORDINAL_POSITION")).rows.map((r) => r[0]!);
    const t = await tableFiles(db, 't', work);
    files['t.ibd'] = t.ibd;
    files['t.sql'] = t.sql;
    await page.setViewportSize({ width: WIDTH, height: HEIGHT });
    await session.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(session.url).origin });
  }, 240_000);

  /** The first rows are on screen, the page not scrolled, and the grid reaches down the window. */
  async function expectRowsFirst(): Promise<void> {
    await page.locator('[data-row="0"]').waitFor();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    for (const row of [0, 4]) {
      const box = (await page.locator(`[data-row="${row}"]`).boundingBox())!;
      expect(box.y).toBeGreaterThan(0);
      expect(box.y + box.height).toBeLessThanOrEqual(HEIGHT);
    }
    const grid = (await page.getByTestId('grid').boundingBox())!;
    expect(grid.y + grid.height).toBeGreaterThan(HEIGHT - 140);
    expect(grid.height).toBeGreaterThan(250);
  }

  /** Every header's name is shown whole. */
  async function expectNamesWhole(): Promise<void> {
    const cut = await page.locator('[role="columnheader"] .head-name').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
    expect(cut).toEqual([]);
  }

  /** Scrolls the grid back to its first row. */
  async function toTop(): Promise<void> {
    await page.getByTestId('grid').evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.locator('[data-row="0"]').waitFor();
  }

  const clipboard = (): Promise<string> => page.evaluate(() => navigator.clipboard.readText());
  const cell = (row: number, col: number) => page.locator(`[data-row="${row}"] [role="gridcell"][data-col="${col}"]`);

  it('opens the sample with its rows on screen, typed headers with their keys, the B-trees named', async () => {
    await page.getByTestId('open-sample').click();
    await waitForTable('employees', 'done');
    await expectRowsFirst();
    const heads = page.locator('[role="columnheader"][data-col]');
    const typeOf = async (col: number) => heads.nth(col).getAttribute('data-type');
    expect(await typeOf(0)).toBe('int(10) unsigned');
    expect(await typeOf(1)).toBe('varchar(50)');
    expect(await typeOf(5)).toBe('decimal(10,2)');
    expect(await typeOf(9)).toBe('datetime(3)');
    expect(await heads.nth(0).locator('.key').textContent()).toBe('PK');
    expect(await heads.nth(3).locator('.key').getAttribute('data-key')).toBe('uq_email');
    expect(await heads.nth(6).locator('.key').textContent()).toBe('idx_department 1/2');
    await expectNamesWhole();
    // the B-trees: in the Page map panel once the rows show
    await panel('pages');
    expect(await page.getByTestId('btree-name').locator('code').allTextContents()).toEqual(['PRIMARY', 'uq_email', 'idx_department']);
    await page.getByTestId('panel-close').click();

    // Ctrl+C of a range: the server's values (the sample's SELECT, saved as CSV with NULL as \N).
    const want = Papa.parse<string[]>(readFileSync(join(ROOT, 'test/fixtures/sample-employees.csv'), 'utf8').trim(), { newline: '\n' }).data.slice(1);
    await cell(1, 1).click();
    await cell(6, 4).click({ modifiers: ['Shift'] });
    await page.getByTestId('grid').press('Control+c');
    await expect.poll(() => page.getByTestId('copy-note').textContent()).toMatch(/^Copied 6 rows × 4 columns as TSV/);
    expect(parseTsv(await clipboard())).toEqual(want.slice(1, 7).map((r) => r.slice(1, 5).map((v) => (v === '\\N' ? '' : v))));
    await shot('40-workspace-sample');
  }, 120_000);

  it('shows a MariaDB table rows first, with the server’s column types; Ctrl+C copies what it holds', async () => {
    await clearAll();
    await open([files['t.ibd'], files['t.sql']]);
    await waitForTable('t', 'done');
    await expectRowsFirst();
    expect(await page.locator('[role="columnheader"][data-col]').evaluateAll((els) => els.map((e) => e.getAttribute('data-type')))).toEqual(types);
    await expectNamesWhole();

    // Shift+arrows from a cell: rows 0-14 hold every awkward text (tabs, line breaks, quotes, NULL, '').
    await cell(0, 1).click();
    await page.getByTestId('grid').press('Escape');
    for (let i = 0; i < 14; i++) await page.keyboard.press('Shift+ArrowDown');
    for (let i = 0; i < 6; i++) await page.keyboard.press('Shift+ArrowRight');
    expect(await page.getByTestId('selection-size').getAttribute('data-rows')).toBe('15');
    expect(await page.getByTestId('selection-size').getAttribute('data-cols')).toBe('7');
    await page.keyboard.press('Control+c');
    await expect.poll(() => page.getByTestId('copy-note').textContent()).toMatch(/^Copied 15 rows × 7 columns/);
    expect(parseTsv(await clipboard())).toEqual(asCells(expected.rows.slice(0, 15).map((r) => r.slice(1, 8))));

    // Every row: most are not in memory; they are read through the row store.
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Control+c');
    await expect.poll(() => page.getByTestId('copy-note').textContent(), { timeout: 60_000 }).toMatch(new RegExp(`^Copied ${ROWS.toLocaleString('en-US')} rows × 8 columns`));
    expect(parseTsv(await clipboard())).toEqual(asCells(expected.rows));
  }, 180_000);

  it('copies rows as an INSERT that the server imports back equal', async () => {
    await toTop();
    // A row's number selects the row; Shift+arrows extend the rows (the grid scrolls with them).
    await page.locator('[data-row-pos="0"] [role="rowheader"]').click();
    expect(await page.getByTestId('selection-size').getAttribute('data-rows')).toBe('1');
    // From the keyboard: Escape leaves the active cell alone, Shift+Space selects its row again.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Shift+Space');
    expect(await page.getByTestId('selection-size').getAttribute('data-rows')).toBe('1');
    expect(await page.getByTestId('selection-size').getAttribute('data-cols')).toBe('8');
    for (let i = 0; i < 16; i++) await page.keyboard.press('Shift+ArrowDown');
    expect(await page.getByTestId('selection-size').getAttribute('data-rows')).toBe('17');
    expect(await page.getByTestId('selection-size').getAttribute('data-cols')).toBe('8');
    await page.getByTestId('copy-insert').click();
    await expect.poll(() => page.getByTestId('copy-note').textContent()).toMatch(/^Copied 17 rows as an INSERT/);
    const insert = await clipboard();
    expect(insert.startsWith('INSERT INTO `t` (`pk`,`n`,`s`,`d`,`dt`,`u`,`b`,`lng`) VALUES\n')).toBe(true);
    await db!.exec('CREATE TABLE t_copy LIKE t');
    await db!.exec(insert.replace('INSERT INTO `t` ', 'INSERT INTO `t_copy` '));
    expect((await db!.query('SELECT * FROM t_copy ORDER BY pk')).rows).toEqual(expected.rows.slice(0, 17));

    // As JSON: the same rows, keyed by column, NULL as null, numbers typed as the NDJSON export types them
    // (json-values.ts; judged against the server in test/differential/ndjson-numbers.test.ts).
    await page.getByTestId('copy-json').click();
    await expect.poll(() => page.getByTestId('copy-note').textContent()).toMatch(/^Copied 17 rows as JSON/);
    const json = JSON.parse(await clipboard()) as Record<string, unknown>[];
    const [def] = parseCreateTables((await db!.query('SHOW CREATE TABLE t')).rows[0][1] as string);
    const typed = ndjsonOf(def, expected.columns, expected.rows.slice(0, 17)).trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(json).toEqual(typed);
    expect(typeof json[0].pk).toBe('number');
  }, 60_000);

  it('shows one row as name / value pairs in the record view, following the active row', async () => {
    await toTop();
    await cell(2, 0).click();
    await page.getByTestId('record-toggle').check();
    const record = page.getByTestId('record-view');
    await record.waitFor();
    const values = (row: number) => expected.rows[row].map((v) => (v === null ? 'NULL' : v === '' ? '(empty string)' : v));
    expect(await record.getAttribute('data-row')).toBe('2');
    expect(await record.getByTestId('record-value').allTextContents()).toEqual(values(2));
    await cell(2, 0).click();
    await page.getByTestId('grid').press('ArrowDown');
    await expect.poll(() => record.getAttribute('data-row')).toBe('3');
    expect(await record.getByTestId('record-value').allTextContents()).toEqual(values(3));
    await shot('41-record-view');
    await page.getByTestId('record-toggle').uncheck();
  }, 60_000);

  it('keeps the value viewer on its row when a filter changes the rows in view', async () => {
    await toTop();
    await cell(10, 2).click();
    const viewer = page.getByTestId('cell-panel');
    await viewer.waitFor();
    expect(await viewer.getByTestId('cell-value').textContent()).toBe(expected.rows[10][2]);
    await page.getByTestId('filter-text').fill('plain');
    await page.getByTestId('filter-text').press('Enter');
    await expect.poll(() => page.getByTestId('filter-result').textContent(), { timeout: 30_000 }).toMatch(/^\d[\d,]* of 3,000 rows contain/);
    expect(await viewer.locator('h2 .sub').textContent()).toMatch(/^row 11\b/);
    expect(await viewer.getByTestId('cell-value').textContent()).toBe(expected.rows[10][2]);
    expect(await page.locator('[data-row-pos="0"] [role="gridcell"][data-col="2"]').textContent()).toMatch(/^plain/);
    await page.getByTestId('filter-text').fill('');
    await page.getByTestId('filter-text').press('Enter');
    await page.keyboard.press('Escape');
  }, 60_000);

  it('keeps an export’s message under its own table, and drops it with Close all files', async () => {
    await clearAll();
    await page.getByTestId('open-sample').click();
    await waitForTable('employees', 'done');
    await open([files['t.ibd'], files['t.sql']]);
    await waitForTable('t', 'done');
    await page.locator('[data-testid="table-item"][data-table="employees"]').click();
    await waitForTable('employees', 'done');
    await panel('export');
    await page.getByRole('radio', { name: 'CSV', exact: true }).check();
    await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId('download').click()]);
    const message = page.locator('[data-testid="export-progress"][data-state="done"]');
    await message.waitFor({ timeout: 30_000 });
    expect(await message.textContent()).toMatch(/employees\.csv: 300 rows/);

    await page.locator('[data-testid="table-item"][data-table="t"]').click();
    await page.locator('[data-testid="table-item"][data-table="t"][aria-current="true"]').waitFor();
    await panel('export');
    await page.getByTestId('download').waitFor();
    expect(await page.getByTestId('export-progress').count()).toBe(0);

    await page.locator('[data-testid="table-item"][data-table="employees"]').click();
    await panel('export');
    await message.waitFor();

    await clearAll();
    await page.getByTestId('open-sample').click();
    await waitForTable('employees', 'done');
    await panel('export');
    await page.getByTestId('download').waitFor();
    expect(await page.getByTestId('export-progress').count()).toBe(0);
  }, 120_000);

  it('made no request outside the page’s own origin, and logged no errors', () => {
    expectOwnOriginOnly(session);
  });
});
