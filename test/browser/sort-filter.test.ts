/**
 * Sorting, filtered exports and the search's progress in the BUILT page (dist/) in Debian's Chromium,
 * on 1,000,000 rows a real MariaDB wrote (test/harness/mariadb.ts), each compared with the server:
 *
 *  - a sort by a VARCHAR in utf8mb4_general_ci with duplicates (case and accents apart), by one in
 *    utf8mb4_uca1400_ai_ci (its weights a chunk of their own) and by an INT with duplicates gives the server's `ORDER BY col, id` at the first rows, at rows in the middle
 *    and at the last rows, while the page's heap stays under the 300 MB of million.test.ts (the
 *    sort adds 8 bytes a row to the page: the sorted row numbers; the values stay in the workers'
 *    Blobs);
 *  - descending by the primary key: the first rows are `ORDER BY id DESC`'s;
 *  - an export of the filtered rows holds exactly the server's `WHERE w LIKE …` rows, and one
 *    of the filtered rows sorted by w equals `WHERE … ORDER BY w, id`, byte for byte (CSV);
 *  - a search shows its progress and a Cancel, which stops it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CDPSession, Page } from 'playwright-core';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { checkSetup, expectOwnOriginOnly, loadPage, pageSteps, startSession, type Session } from './harness.ts';
import { tableFiles } from './test-tables.ts';

const MILLION = 1_000_000;
const HEAP_LIMIT = 300 * 1024 * 1024;

describe('sorting and filtered exports of 1,000,000 rows in the built page', () => {
  let db: MariadbServer;
  let session: Session;
  let page: Page;
  let cdp: CDPSession;
  let work: string;
  let files: { ibd: string; sql: string };

  const { shot, waitForTable, clearAll, open, panel, download } = pageSteps(() => page);

  /** A CSV of the rows chosen (streamed through the service worker); a sorted export sorts the rows (in its own workers) first. */
  const downloadCsv = async () => (await download('CSV', 'm.csv', undefined, 180_000)).toString('utf8');

  async function heapBytes(): Promise<number> {
    const h = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number };
    return h.usedSize + (h.backingStorageSize ?? 0);
  }

  /** The ids the server gives for `ORDER BY order`, `count` from position `from`. */
  async function serverIds(order: string, from: number, count: number, where = ''): Promise<string[]> {
    return (await db.query(`SELECT id FROM m ${where} ORDER BY ${order} LIMIT ${from}, ${count}`)).rows.map((r) => String(r[0]));
  }

  /** The rows in view: their positions (first, contiguous) and ids. */
  async function shownIds(): Promise<{ first: number; ids: string[] }> {
    await page.locator('.row[data-pending]').first().waitFor({ state: 'detached', timeout: 20_000 }).catch(() => undefined);
    const rows = await page.locator('[data-row-pos][data-row]').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-row-pos')), e.querySelector('[data-col="0"]')?.textContent ?? '']));
    rows.sort((a, b) => (a[0] as number) - (b[0] as number));
    return { first: rows[0][0] as number, ids: rows.map((r) => r[1] as string) };
  }

  /** Scrolls the grid to a fraction of its rows and checks the rows there against the server's order. */
  async function expectOrderAt(fraction: number, order: string): Promise<void> {
    await page.getByTestId('grid').evaluate((el, f) => {
      el.scrollTop = (el.scrollHeight - el.clientHeight) * f;
    }, fraction);
    await page.waitForTimeout(100);
    const shown = await shownIds();
    expect(shown.ids, `rows from position ${shown.first}`).toEqual(await serverIds(order, shown.first, shown.ids.length));
  }

  async function sortBy(column: string, direction: 'asc' | 'desc'): Promise<void> {
    const button = page.getByTestId(`sort-${column}`);
    for (let i = 0; i < 3 && (await button.getAttribute('data-direction')) !== direction; i++) await button.click();
    expect(await button.getAttribute('data-direction')).toBe(direction);
  }

  beforeAll(async () => {
    checkSetup();
    work = mkdtempSync(join(tmpdir(), 'ibd-sort-test-'));
    db = await startMariadb();
    // w: 7 words (case and accents apart, one with a trailing space) × 50; k: 1,000 values.
    // u: UCA 14.0.0 (ligatures, accents, CJK, emoji), whose weights the workers load when first needed.
    await db.exec(`CREATE TABLE m (id INT NOT NULL PRIMARY KEY, k INT NOT NULL, w VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci, note VARCHAR(30) NULL,
      u VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_ai_ci) ENGINE=InnoDB;
      INSERT INTO m SELECT seq, CAST((seq * 7919) % 1000 AS SIGNED) - 500, IF(seq % 13 = 0, NULL, CONCAT(ELT(1 + seq % 7, 'apple', 'Banana', 'cherry', 'apple ', 'Äpfel', 'banana', 'date'), seq % 50)), CONCAT('n', seq % 997),
        CONCAT(ELT(1 + seq % 9, 'Æble', 'æble', 'abc', 'Ähre', 'zebra', 'ﬁsh', 'fish ', '中文', '😀'), seq % 7) FROM seq_1_to_${MILLION};`);
    files = await tableFiles(db, 'm', work);
    session = await startSession(join(work, 'chromium-profile'));
    page = session.page;
    cdp = await session.context.newCDPSession(page);
    await loadPage(session);
    await clearAll();
    await open([files.ibd, files.sql]);
    await waitForTable('m', 'done', 120_000);
  }, 300_000);

  afterAll(async () => {
    await session?.close();
    await db?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('sorts by VARCHARs (general_ci, uca1400_ai_ci) and an INT with duplicates as the server orders them, the heap bounded', async () => {
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await heapBytes().catch(() => 0));
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    try {
      for (const column of ['w', 'k', 'u']) {
        const t0 = Date.now();
        await sortBy(column, 'asc');
        await expect.poll(() => page.getByTestId('sort-status').textContent(), { timeout: 120_000 }).toMatch(new RegExp(`^\\s*Sorted by ${column}, ties in primary key order`));
        console.log(`1M rows: sorted by ${column} in ${Date.now() - t0} ms`);
        const order = `\`${column}\`, id`;
        await expectOrderAt(0, order);
        for (const f of [0.137, 0.5, 0.861]) await expectOrderAt(f, order);
        await expectOrderAt(1, order);
        await shot(`sort-by-${column}`);
        // Descending reads the sorted rows from the end: ORDER BY col DESC, id DESC.
        await sortBy(column, 'desc');
        await expectOrderAt(0, `\`${column}\` DESC, id DESC`);
      }
    } finally {
      sampling = false;
      await sampler;
    }
    console.log(`1M rows: peak page heap while sorting ${(peak / 2 ** 20).toFixed(0)} MiB`);
    expect(peak, 'page heap (V8 heap + ArrayBuffers)').toBeLessThan(HEAP_LIMIT);
  }, 450_000);

  it('descending by the primary key: the rows of ORDER BY id DESC, straight from the leaves', async () => {
    await sortBy('id', 'desc');
    await expect.poll(() => page.getByTestId('sort-status').textContent()).toMatch(/Sorted by id, descending \(the primary key/);
    await expectOrderAt(0, 'id DESC');
    await expectOrderAt(0.5, 'id DESC');
    await sortBy('id', 'asc');
    await expectOrderAt(0, 'id');
  }, 60_000);

  it('exports exactly the filtered rows, and the filtered rows sorted, as the server selects them', async () => {
    const where = "WHERE w LIKE '%banana%'";
    const cols = (await db.query('SELECT * FROM m LIMIT 0')).columns;
    const serverCsv = async (order: string) => csvHeader(cols) + csvRows((await db.query(`SELECT * FROM m ${where} ORDER BY ${order}`)).rows);
    const count = Number((await db.query(`SELECT COUNT(*) FROM m ${where}`)).rows[0][0]);

    await sortBy('id', 'asc');
    await page.getByTestId('filter-column').selectOption({ label: 'in w' });
    await page.getByTestId('filter-text').fill('banana');
    await page.getByTestId('filter-text').press('Enter');
    await expect.poll(() => page.getByTestId('filter-result').textContent(), { timeout: 60_000 }).toMatch(new RegExp(`^${count.toLocaleString('en-US')} of 1,000,000 rows`));
    await panel('export');
    await expect.poll(() => page.getByTestId('export-shown').evaluate((el) => el.parentElement?.textContent ?? '')).toContain(`the ${count.toLocaleString('en-US')} filtered rows`);
    expect(await downloadCsv()).toBe(await serverCsv('id'));

    await sortBy('w', 'asc');
    await expect.poll(() => page.getByTestId('sort-status').textContent(), { timeout: 120_000 }).toMatch(/Sorted by w, ties/);
    await panel('export');
    await expect.poll(() => page.getByTestId('export-shown').evaluate((el) => el.parentElement?.textContent ?? '')).toContain('filtered rows, sorted by w');
    await shot('export-filtered-sorted');
    expect(await downloadCsv()).toBe(await serverCsv('w, id'));
    await sortBy('w', 'desc');
    expect(await downloadCsv()).toBe(await serverCsv('w DESC, id DESC'));
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.getByTestId('filter-column').selectOption('any');
  }, 600_000);

  it('shows a search’s progress and stops it on Cancel', async () => {
    await page.getByTestId('sort-w').click();
    await page.getByTestId('filter-text').fill('no such text');
    await page.getByTestId('filter-text').press('Enter');
    await page.getByTestId('filter-progress').waitFor({ timeout: 5000 });
    expect(await page.getByTestId('filter-result').textContent()).toMatch(/Searching… [\d,]+ of 1,000,000 rows · 0 matches so far/);
    await page.getByTestId('filter-cancel').click();
    await expect.poll(() => page.getByTestId('filter-result').textContent()).toMatch(/^\s*Search cancelled after [\d,]+ of 1,000,000 rows/);
    await page.getByTestId('filter-progress').waitFor({ state: 'detached', timeout: 2000 });
    expect(await page.getByTestId('grid').getAttribute('data-count')).toBe(String(MILLION));
  }, 60_000);

  it('made no request outside the page’s own origin, and logged no errors', () => {
    expectOwnOriginOnly(session);
  });
});
