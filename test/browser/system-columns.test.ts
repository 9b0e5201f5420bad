/**
 * The system columns in the built page (issue 41): the Columns menu's "System columns" adds DB_TRX_ID,
 * DB_ROLL_PTR, the page and the heap number to the grid. A read view held open on another table
 * keeps purge from resetting DB_TRX_ID while one transaction inserts the rows and a second updates
 * ten of them, their ids read from information_schema.innodb_trx while each is open: the grid shows
 * them, sorts by DB_TRX_ID, and a CSV export ends with the four columns; SQL leaves them out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startMariadb, type MariadbServer, type Session as DbSession } from '../harness/mariadb.ts';
import { checkSetup, expectOwnOriginOnly, loadPage, pageSteps, startSession, type Session } from './harness.ts';
import { tableFiles } from './test-tables.ts';

/** The server's id of the transaction `writer` runs `sql` in, read while it is open. */
async function committed(writer: DbSession, sql: string): Promise<string> {
  await writer.exec('START TRANSACTION');
  await writer.exec(sql);
  // INFORMATION_SCHEMA.INNODB_TRX is a cache refreshed at most every 0.1 s.
  await new Promise((r) => setTimeout(r, 250));
  const id = String((await writer.query('SELECT trx_id FROM information_schema.innodb_trx WHERE trx_mysql_thread_id = CONNECTION_ID()')).rows[0][0]);
  await writer.exec('COMMIT');
  return id;
}

describe('system columns in the built page', () => {
  let db: MariadbServer;
  let session: Session;
  let page: Page;
  let work: string;
  let inserted = '';
  let updated = '';

  const { waitForTable, clearAll, open, download, shot } = pageSteps(() => page);

  /** The rows in view as [id, _db_trx_id, _db_roll_ptr, _page, _heap], first to last. */
  async function shownRows(): Promise<string[][]> {
    await page.locator('.row[data-pending]').first().waitFor({ state: 'detached', timeout: 20_000 }).catch(() => undefined);
    const rows = await page.locator('[data-row-pos][data-row]').evaluateAll((els) => els.map((e) => [
      e.getAttribute('data-row-pos') ?? '', ...[0, 2, 3, 4, 5].map((c) => e.querySelector(`[data-col="${c}"]`)?.textContent ?? ''),
    ]));
    rows.sort((a, b) => Number(a[0]) - Number(b[0]));
    return rows.map((r) => r.slice(1));
  }

  beforeAll(async () => {
    checkSetup();
    work = mkdtempSync(join(tmpdir(), 'ibd-system-columns-'));
    db = await startMariadb();
    await db.exec("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL) ENGINE=InnoDB; CREATE TABLE other (id INT PRIMARY KEY) ENGINE=InnoDB; INSERT INTO other VALUES (1)");
    const view = await db.openSession();
    await view.exec('START TRANSACTION WITH CONSISTENT SNAPSHOT');
    await view.query('SELECT COUNT(*) FROM other');
    const writer = await db.openSession();
    inserted = await committed(writer, "INSERT INTO t SELECT seq, CONCAT('v', seq) FROM seq_1_to_200");
    updated = await committed(writer, "UPDATE t SET v = 'changed' WHERE id <= 10");
    const t = await tableFiles(db, 't', work);
    session = await startSession(join(work, 'chromium-profile'));
    page = session.page;
    await loadPage(session);
    await clearAll();
    await open([t.ibd, t.sql]);
    await waitForTable('t', 'done', 120_000);
    await page.locator('[data-row]').first().waitFor();
  }, 300_000);

  afterAll(async () => {
    await session?.close();
    await db?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('off by default; the Columns menu adds them, each row\'s DB_TRX_ID the server\'s id of the transaction that wrote it', async () => {
    expect(await page.getByTestId('sort-_db_trx_id').count()).toBe(0);
    await page.getByTestId('columns-menu').locator('summary').click();
    await page.getByTestId('columns-system').check();
    await page.getByTestId('sort-_db_trx_id').waitFor({ timeout: 60_000 });
    await waitForTable('t', 'done', 60_000);
    await page.locator('[data-row]').first().waitFor();
    const rows = await shownRows();
    expect(rows.length).toBeGreaterThan(10);
    expect(Number(updated)).toBeGreaterThan(Number(inserted));
    for (const [id, trx, roll, pageNo, heap] of rows) {
      expect([id, trx], `row ${id}`).toEqual([id, Number(id) <= 10 ? updated : inserted]);
      // The insert flag: set for rows their inserting transaction wrote last, clear for the updated ones.
      expect((parseInt(roll.slice(2, 4), 16) & 0x80) !== 0, `row ${id}: ${roll}`).toBe(Number(id) > 10);
      expect(pageNo).toMatch(/^\d+$/);
      expect(Number(heap)).toBeGreaterThanOrEqual(2);
    }
    // DB_ROLL_PTR's parts, in the cell's tooltip.
    expect(await page.locator('[data-row] [data-col="3"]').first().getAttribute('title')).toMatch(/^updated or deleted · rollback segment \d+ · undo page \d+ · offset \d+$/);
    await shot('grid-system-columns');
  }, 180_000);

  it('sorts by DB_TRX_ID: the updated rows last ascending, first descending', async () => {
    await page.getByTestId('sort-_db_trx_id').click();
    await expect.poll(() => page.getByTestId('sort-status').textContent(), { timeout: 60_000 }).toMatch(/Sorted by _db_trx_id/);
    expect((await shownRows())[0].slice(0, 2)).toEqual(['11', inserted]);
    await page.getByTestId('sort-_db_trx_id').click();
    await expect.poll(() => page.getByTestId('sort-status').textContent(), { timeout: 60_000 }).toMatch(/_db_trx_id, descending/);
    const first = (await shownRows()).slice(0, 10);
    expect(first.map((r) => r[1])).toEqual(new Array(10).fill(updated));
    expect(first.map((r) => Number(r[0])).sort((a, b) => a - b)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    // Back to key order.
    await page.getByTestId('sort-id').click();
    await expect.poll(() => page.getByTestId('sort-status').textContent(), { timeout: 60_000 }).toMatch(/Sorted by id/);
  }, 120_000);

  it('a CSV export ends with the four columns; SQL leaves them out (the table has no such columns)', async () => {
    const csv = (await download('CSV', 't.csv')).toString('utf8').trim().split('\n');
    expect(csv[0]).toBe('id,v,_db_trx_id,_db_roll_ptr,_page,_heap');
    expect(csv).toHaveLength(201);
    expect(csv[1].split(',').slice(0, 3)).toEqual(['1', 'changed', updated]);
    expect(csv[200].split(',').slice(0, 3)).toEqual(['200', 'v200', inserted]);
    const sql = (await download('SQL', 't.sql')).toString('utf8');
    expect(sql).toContain('INSERT INTO `t` (`id`,`v`) VALUES');
    expect(sql).not.toContain('_db_trx_id');
  }, 180_000);

  it('made no request outside the page’s own origin, and logged no errors', () => {
    expectOwnOriginOnly(session);
  });
});
