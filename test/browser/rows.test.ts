/**
 * End-to-end tests of the BUILT page (dist/, made by `npm run build`) in the machine's headless
 * Chromium (playwright-core): the rows of tables a real MariaDB wrote (test/harness/mariadb.ts). The
 * truth is always the server: its SELECT output, rendered with the same src/core/writers/output.ts
 * rules, or loaded back into it.
 *
 *  - a 3,000-row table of awkward values (test-tables.ts): the grid, NULL vs empty string, binary as
 *    hex, a key jump, the value viewer, the keyboard, a column resized, the dark theme;
 *  - its CSV (with options), NDJSON and SQL exports (the SQL is loaded back into MariaDB and SELECTed);
 *  - deleted rows (delete-marked, kept by an open read view): the row mode switch shows them, marked,
 *    and exports them with their `_row_state`;
 *  - no request leaves the page's origin.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createConnection } from 'mariadb';
import type { MariadbServer, QueryResult } from '../harness/mariadb.ts';
import { csvHeader, csvRows, ndjsonOf, ndjsonRows, type CsvOptions } from '../../src/core/writers/output.ts';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { expectOwnOriginOnly, pageSteps, shown, type Session } from './harness.ts';
import { pageTest } from './page-test.ts';
import { createAwkwardTable, ROWS, sha256, tableFiles } from './test-tables.ts';

describe('the rows of a real MariaDB table in the built page', () => {
  let db: MariadbServer | undefined;
  let session: Session;
  let page: Page;
  let work: string;
  const files: Record<string, string> = {};
  let expected: QueryResult;

  const env = pageTest('rows', { mariadb: {} });
  const { shot, waitForTable, rowCount, clearAll, open, download } = pageSteps(() => page);

  beforeAll(async () => {
    ({ db, session, page, work } = env);
    expected = await createAwkwardTable(db);
    expect(expected.rows).toHaveLength(ROWS);
    const t = await tableFiles(db, 't', work);
    files['t.ibd'] = t.ibd;
    files['t.sql'] = t.sql;
  }, 240_000);

  it('decodes a table of awkward values: grid, NULL vs empty, value viewer, dark theme', async () => {
    await clearAll();
    await open([files['t.ibd'], files['t.sql']]);
    await waitForTable('t', 'done');
    expect(await rowCount()).toBe(ROWS);
    expect(await page.getByTestId('summary-rows').getAttribute('data-rows')).toBe(String(ROWS));
    expect(await page.locator('[data-testid="row-format"]').textContent()).toMatch(/DYNAMIC/);
    expect(await page.locator('[data-testid="error"]').count()).toBe(0);

    const header = ['#', ...(await page.locator('[role="columnheader"] .head-name').allTextContents())];
    expect(header.slice(1).map((h) => h.trim())).toEqual(expected.columns);
    const first = await page.locator('[data-row="0"] [role="gridcell"]').allTextContents();
    expect(first).toEqual(expected.rows[0].map(shown));

    // NULL and the empty string look different.
    const nullRow = expected.rows.findIndex((r, i) => i < 20 && r[2] === null);
    const emptyRow = expected.rows.findIndex((r, i) => i < 20 && r[2] === '');
    expect(await page.locator(`[data-row="${nullRow}"] [data-col="2"]`).getAttribute('class')).toMatch(/\bnull\b/);
    expect(await page.locator(`[data-row="${emptyRow}"] [data-col="2"]`).getAttribute('class')).toMatch(/\bempty\b/);
    // Binary as hex.
    const binRow = expected.rows.findIndex((r) => r[6] !== null && r[6].length > 4);
    expect(await page.locator(`[data-row="${binRow}"] [data-col="6"]`).textContent()).toBe(expected.rows[binRow][6]);

    // Jump to a key, then open a long value in the viewer.
    await page.getByTestId('jump-key').fill('250');
    await page.getByTestId('jump-key').press('Enter');
    const row249 = page.locator('[data-row="249"]');
    await row249.waitFor();
    const cut = await row249.locator('[data-col="7"]').textContent();
    expect(cut?.endsWith('…')).toBe(true);
    await row249.locator('[data-col="7"]').click();
    const panel = page.getByTestId('cell-panel');
    await panel.waitFor();
    expect(await panel.getByTestId('cell-value').textContent()).toBe(expected.rows[249][7]);
    await shot('03-value-viewer');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });

    // Keyboard: the grid has focus again; Ctrl+End goes to the last row.
    await page.keyboard.press('Control+End');
    await page.locator(`[data-row="${ROWS - 1}"]`).waitFor();
    expect(await page.locator(`[data-row="${ROWS - 1}"] [role="gridcell"]`).allTextContents()).toEqual(expected.rows[ROWS - 1].map(shown));
    expect(await page.locator('[data-row]').count()).toBeLessThan(100);

    // Resizing a column with the keyboard widens it.
    const before = await page.locator('[role="columnheader"][data-col="2"]').evaluate((el) => el.getBoundingClientRect().width);
    await page.getByTestId('resize-2').focus();
    await page.keyboard.press('Shift+ArrowRight');
    const after = await page.locator('[role="columnheader"][data-col="2"]').evaluate((el) => el.getBoundingClientRect().width);
    expect(after).toBeGreaterThan(before + 40);

    await page.emulateMedia({ colorScheme: 'dark' });
    await shot('04-decoded-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  }, 120_000);

  it('exports CSV (with options), NDJSON and SQL equal to the server’s data', async () => {
    const csv = await download('CSV', 't.csv');
    const want = csvHeader(expected.columns) + csvRows(expected.rows);
    expect(sha256(csv)).toBe(sha256(want));

    // Options: semicolons, every value quoted, NULL as an empty field.
    await page.getByRole('radio', { name: 'CSV', exact: true }).check();
    await page.getByTestId('csv-delimiter').selectOption(';');
    await page.getByTestId('csv-null').selectOption('empty');
    await page.getByLabel('Quote every value').check();
    const options: CsvOptions = { delimiter: ';', quoteAll: true, nullAs: 'empty' };
    const csv2 = await download('CSV', 't.csv');
    expect(csv2.toString('utf8')).toBe(csvHeader(expected.columns, options) + csvRows(expected.rows, options));
    await page.getByTestId('csv-delimiter').selectOption(',');
    await page.getByTestId('csv-null').selectOption('marker');
    await page.getByLabel('Quote every value').uncheck();

    // Numbers as JSON numbers where exact (json-values.ts), and with the checkbox every value the server's text.
    const [def] = parseCreateTables((await db!.query('SHOW CREATE TABLE t')).rows[0][1] as string);
    const ndjson = await download('NDJSON', 't.ndjson');
    expect(ndjson.toString('utf8')).toBe(ndjsonOf(def, expected.columns, expected.rows));
    const strings = await download('NDJSON strings', 't.ndjson');
    expect(strings.toString('utf8')).toBe(ndjsonRows(expected.columns, expected.rows));

    // The SQL file loads back into the server and gives the same rows.
    const sql = await download('SQL', 't.sql');
    await db!.exec('CREATE DATABASE reloaded');
    await db!.exec(sql.toString('utf8'), 'reloaded');
    const back = await db!.query('SELECT * FROM t ORDER BY pk', 'reloaded');
    expect(back.columns).toEqual(expected.columns);
    expect(sha256(JSON.stringify(back.rows))).toBe(sha256(JSON.stringify(expected.rows)));
    await shot('05-export-done');
  }, 180_000);

  it('shows deleted rows still in the file: a row mode switch, marked in the grid, tagged in exports', async () => {
    await clearAll();
    await db!.exec(`CREATE TABLE del (id INT NOT NULL PRIMARY KEY, name VARCHAR(40) NULL) ENGINE=InnoDB;
      INSERT INTO del SELECT seq, CONCAT('row ', seq) FROM seq_1_to_5000;`);
    const before = (await db!.query('SELECT * FROM del ORDER BY id')).rows;
    const ibd = join(work, 'del.ibd');
    const sql = join(work, 'del.sql');
    writeFileSync(sql, `${(await db!.query('SHOW CREATE TABLE del')).rows[0][1]};\n`);
    // An open read view stops purge (as a long transaction does): the deleted rows stay delete-marked.
    const holder = await createConnection({ socketPath: db!.socket, user: 'root', database: 'test' });
    try {
      await holder.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
      await db!.exec('DELETE FROM del WHERE id % 7 = 0 OR id BETWEEN 2000 AND 2100');
      writeFileSync(ibd, readFileSync(await db!.exportTable('del')));
    } finally {
      await holder.end();
    }
    const live = (await db!.query('SELECT * FROM del ORDER BY id')).rows;
    const liveIds = new Set(live.map((r) => r[0]));
    const deleted = before.filter((r) => !liveIds.has(r[0]));

    await open([ibd, sql]);
    await waitForTable('del', 'done');
    expect(await rowCount()).toBe(live.length);

    await page.getByTestId('row-mode').selectOption('deleted');
    await expect.poll(() => page.locator('[data-testid="table-item"][data-table="del"]').getAttribute('data-state'), { timeout: 30_000 }).toBe('done');
    await expect.poll(rowCount, { timeout: 30_000 }).toBe(deleted.length);
    const header = ['#', ...(await page.locator('[role="columnheader"] .head-name').allTextContents())];
    expect(header.at(-1)?.trim()).toBe('_row_state');
    const first = page.locator('[data-row="0"]');
    await first.waitFor();
    expect(await first.getAttribute('data-state')).toBe('delete-marked');
    expect(await first.getAttribute('class')).toMatch(/\bdeleted\b/);
    expect(await first.locator('[role="gridcell"]').allTextContents()).toEqual([...deleted[0].map(shown), 'delete-marked']);
    await shot('10b-deleted-rows');
    const csv = await download('CSV', 'del.csv');
    expect(csv.toString('utf8')).toBe(csvHeader(['id', 'name', '_row_state']) + csvRows(deleted.map((r) => [...r, 'delete-marked'])));

    await page.getByTestId('row-mode').selectOption('both');
    await expect.poll(rowCount, { timeout: 30_000 }).toBe(before.length);
    await page.getByTestId('row-mode').selectOption('live');
    await expect.poll(rowCount, { timeout: 30_000 }).toBe(live.length);
  }, 120_000);

  it('made no request outside the page’s own origin, and logged no errors', () => {
    expectOwnOriginOnly(session);
  });
});
