/**
 * The grid a DBA expects (issue 41), in the BUILT page (dist/) in Debian's Chromium, on tables a real
 * MariaDB wrote (test/harness/mariadb.ts), each compared with the server:
 *
 *  - a typed filter (the filter's "as a condition (WHERE)"): its matches are the server's
 *    `WHERE salary > … AND hired >= …` rows, and a condition that does not parse is said, the rows
 *    shown left as they were;
 *  - a sort by several columns (a click, then shift-clicks): the header numbers them, and the rows
 *    are the server's `ORDER BY dept, salary DESC, id` of the filtered rows;
 *  - hidden columns leave the grid's DOM layout, a frozen one stays where it is while the grid
 *    scrolls sideways and the others move, both remembered when the table is left and opened again;
 *    an export still writes every column, and with "only the visible columns" the server's SELECT of them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { checkSetup, expectOwnOriginOnly, loadPage, pageSteps, startSession, type Session } from './harness.ts';
import { tableFiles } from './test-tables.ts';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';

const ROWS = 3000;

describe('typed filters, sorts by several columns, hidden and frozen columns in the built page', () => {
  let db: MariadbServer;
  let session: Session;
  let page: Page;
  let work: string;

  const { shot, waitForTable, clearAll, open, download } = pageSteps(() => page);

  /** The ids of the rows in view, first to last. */
  async function shownIds(): Promise<string[]> {
    await page.locator('.row[data-pending]').first().waitFor({ state: 'detached', timeout: 20_000 }).catch(() => undefined);
    const rows = await page.locator('[data-row-pos][data-row]').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-row-pos')), e.querySelector('[data-col="0"]')?.textContent ?? '']));
    rows.sort((a, b) => (a[0] as number) - (b[0] as number));
    return rows.map((r) => r[1] as string);
  }

  async function serverIds(sql: string, count: number): Promise<string[]> {
    return (await db.query(`${sql} LIMIT ${count}`)).rows.map((r) => String(r[0]));
  }

  /** Filters by a condition typed as after WHERE. */
  async function filterWhere(condition: string): Promise<void> {
    await page.getByTestId('filter-column').selectOption('where');
    await page.getByTestId('filter-text').fill(condition);
    await page.getByTestId('filter-text').press('Enter');
  }

  /** The header cell of column `name`. */
  const head = (name: string) => page.locator(`[data-testid="grid-head"] [role="columnheader"]:has([data-testid="sort-${name}"])`);

  beforeAll(async () => {
    checkSetup();
    work = mkdtempSync(join(tmpdir(), 'ibd-grid-columns-'));
    db = await startMariadb();
    // Wide text columns, so that the grid scrolls sideways; NULLs in dept and note.
    await db.exec(`CREATE TABLE staff (id INT NOT NULL PRIMARY KEY, name VARCHAR(30) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci NOT NULL,
        salary DECIMAL(10,2) NOT NULL, hired DATE NOT NULL, dept INT NULL, note VARCHAR(40) NULL,
        a VARCHAR(80), b VARCHAR(80), c VARCHAR(80), d VARCHAR(80)) ENGINE=InnoDB;
      INSERT INTO staff SELECT seq, CONCAT(ELT(1 + seq % 5, 'Ann', 'bob', 'Émile', 'zoë', 'Carl'), seq % 11), 30000 + (seq * 7919) % 90000 + (seq % 100) / 100,
        DATE_ADD('2015-01-01', INTERVAL (seq * 37) % 3650 DAY), IF(seq % 9 = 0, NULL, seq % 6), IF(seq % 4 = 0, NULL, CONCAT('note ', seq)),
        REPEAT('a', 70), REPEAT('b', 70), REPEAT('c', 70), REPEAT('d', 70) FROM seq_1_to_${ROWS};
      CREATE TABLE other (id INT PRIMARY KEY, v INT) ENGINE=InnoDB; INSERT INTO other VALUES (1, 1), (2, 2);`);
    const staff = await tableFiles(db, 'staff', work);
    const other = await tableFiles(db, 'other', work);
    session = await startSession(join(work, 'chromium-profile'));
    page = session.page;
    await loadPage(session);
    await clearAll();
    await open([staff.ibd, staff.sql, other.ibd, other.sql]);
    // The first table listed is opened; staff then.
    await waitForTable('other', 'done', 120_000);
    await page.locator('[data-testid="table-item"][data-table="staff"]').click();
    await waitForTable('staff', 'done', 120_000);
    await page.locator('[data-row]').first().waitFor();
  }, 300_000);

  afterAll(async () => {
    await session?.close();
    await db?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('filters by a typed condition as the server selects, and says what does not parse', async () => {
    const where = "salary > 50000.5 AND hired >= '2020-01-01' AND dept IS NOT NULL";
    const count = Number((await db.query(`SELECT COUNT(*) FROM staff WHERE ${where}`)).rows[0][0]);
    expect(count).toBeGreaterThan(100);
    expect(count).toBeLessThan(ROWS);
    await filterWhere(where);
    await expect.poll(() => page.getByTestId('filter-result').textContent(), { timeout: 60_000 }).toMatch(new RegExp(`^\\s*${count.toLocaleString('en-US')} of 3,000 rows where salary`));
    expect(await page.getByTestId('grid').getAttribute('data-count')).toBe(String(count));
    const shown = await shownIds();
    expect(shown).toEqual(await serverIds(`SELECT id FROM staff WHERE ${where} ORDER BY id`, shown.length));

    await page.getByTestId('filter-text').fill('salary >');
    await page.getByTestId('filter-text').press('Enter');
    await expect.poll(() => page.getByTestId('filter-error').textContent()).toMatch(/Not filtered: expected a value .* at the end/);
    expect(await page.getByTestId('grid').getAttribute('data-count')).toBe(String(count));
    await filterWhere(where);
    await expect.poll(() => page.getByTestId('filter-result').textContent(), { timeout: 60_000 }).toMatch(/rows where salary/);
  }, 120_000);

  it('sorts the filtered rows by several columns (shift-click), as ORDER BY dept, salary DESC, id', async () => {
    const where = "salary > 50000.5 AND hired >= '2020-01-01' AND dept IS NOT NULL";
    await page.getByTestId('sort-dept').click();
    await expect.poll(() => page.getByTestId('sort-status').textContent(), { timeout: 60_000 }).toMatch(/Sorted by dept, ties/);
    await page.getByTestId('sort-salary').click({ modifiers: ['Shift'] });
    await page.getByTestId('sort-salary').click({ modifiers: ['Shift'] });
    await expect.poll(() => page.getByTestId('sort-status').textContent(), { timeout: 60_000 }).toMatch(/Sorted by dept, salary descending, ties in primary key order/);
    expect(await page.getByTestId('sort-dept').getAttribute('data-rank')).toBe('1');
    expect(await page.getByTestId('sort-salary').getAttribute('data-rank')).toBe('2');
    expect(await page.getByTestId('sort-salary').getAttribute('data-direction')).toBe('desc');
    const shown = await shownIds();
    expect(shown).toEqual(await serverIds(`SELECT id FROM staff WHERE ${where} ORDER BY dept, salary DESC, id`, shown.length));
    await shot('grid-where-multisort');
    // A plain click sorts by that column alone again.
    await page.getByTestId('sort-id').click();
    await expect.poll(() => page.getByTestId('sort-status').textContent()).toMatch(/Sorted by id/);
    expect(await page.getByTestId('sort-salary').getAttribute('data-direction')).toBe('none');
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
  }, 180_000);

  it('hides and freezes columns, remembered when the table is opened again; an export still writes every column', async () => {
    await page.getByTestId('columns-menu').locator('summary').click();
    await page.getByTestId('column-shown-note').uncheck();
    await page.getByTestId('column-frozen-name').check();
    await page.getByTestId('columns-menu').locator('summary').click();
    await expect.poll(() => head('note').count()).toBe(1);
    expect(await head('note').isVisible()).toBe(false);
    expect(await page.locator('[data-row] [data-col="5"]').first().isVisible()).toBe(false);
    expect(await head('name').getAttribute('data-frozen')).toBe('');

    const lefts = async () => ({ name: (await head('name').boundingBox())?.x ?? NaN, hired: (await head('hired').boundingBox())?.x ?? NaN });
    const scrollTo = async (px: number) => {
      await page.getByTestId('grid').evaluate((el, to) => {
        el.scrollLeft = to;
      }, px);
      await page.waitForTimeout(100);
    };
    const before = await lefts();
    await scrollTo(400);
    const after = await lefts();
    await scrollTo(800);
    const further = await lefts();
    // The frozen column stays in view right after the row numbers (the columns before it slide under it); the others scroll.
    const numbers = await page.locator('[data-testid="grid-head"] .num').boundingBox();
    expect(Math.abs(after.name - ((numbers?.x ?? NaN) + (numbers?.width ?? NaN))), 'the frozen column sticks after the row numbers').toBeLessThan(2);
    expect(Math.abs(further.name - after.name), 'and stays there').toBeLessThan(1);
    expect(Math.abs((await page.locator('[data-row] [data-col="1"]').first().boundingBox())!.x - further.name), 'its cells with it').toBeLessThan(2);
    expect(before.hired - after.hired, 'an unfrozen column scrolls').toBeGreaterThan(395);
    await shot('grid-hidden-frozen');

    await page.locator('[data-testid="table-item"][data-table="other"]').click();
    await waitForTable('other', 'done');
    await page.locator('[data-testid="grid-head"] [data-testid="sort-v"]').waitFor();
    await page.locator('[data-testid="table-item"][data-table="staff"]').click();
    await waitForTable('staff', 'done');
    await page.locator('[data-row]').first().waitFor();
    expect(await head('note').isVisible()).toBe(false);
    expect(await head('name').getAttribute('data-frozen')).toBe('');

    const csv = (await download('CSV', 'staff.csv')).toString('utf8');
    expect(csv.split('\n')[0]).toBe('id,name,salary,hired,dept,note,a,b,c,d');
    // "Only the visible columns": the server's SELECT of them, byte for byte.
    await page.getByTestId('export-visible-columns').locator('input').check();
    const visible = (await download('CSV', 'staff.csv')).toString('utf8');
    const server = await db.query('SELECT id, name, salary, hired, dept, a, b, c, d FROM staff ORDER BY id');
    expect(visible).toBe(csvHeader(server.columns) + csvRows(server.rows));
  }, 180_000);

  it('made no request outside the page’s own origin, and logged no errors', () => {
    expectOwnOriginOnly(session);
  });
});
