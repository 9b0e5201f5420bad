/**
 * Issue 38 in the BUILT page: a datadir of many one-row tables inside ibdata1 (MariaDB 10.11,
 * --innodb-file-per-table=OFF, test/differential/many-tables-setup.ts), half of them dropped before a
 * slow shutdown (purge freed their dictionary rows and trees), dropped on the page as a folder:
 *  - every table listed by name as it is found, with the listing's progress count; the dropped ones
 *    by the names their freed dictionary pages give, marked dropped; no "No .ibd" notice for the
 *    .frm files of the tables inside ibdata1;
 *  - "Export all tables" writes every table into tables.zip (`db/t.csv`, a dropped one
 *    `db/t.dropped.csv`, an unknown tree `#dropped/index-N.csv`), each CSV equal to the server's
 *    SELECT taken before the drop; "Download tables.sql" one mysqldump-style file of them all,
 *    loaded into a fresh server whose SELECTs give the same rows. A named dropped table whose index's pages
 *    are all zeroed is not written, and said why.
 * The listing time is printed (bench/results.md keeps the 5,000-table figure: `npm run bench`).
 */
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { startMariadb } from '../harness/mariadb.ts';
import { makeManyTables, namedDroppedTable, oneRowLeafKeys, zeroIndexPages, type ManyTables } from '../differential/many-tables-setup.ts';
import { expectOwnOriginOnly, pageSteps, type Session } from './harness.ts';
import { pageTest } from './page-test.ts';

/** Tables t1 … tN in seeda; the even ones are dropped. */
const N = 1000;
// (other.wide, main's 450-page table, stays: only other.orders and other.nokey are dropped with the even seeda tables)
const dropped = (name: string) => /^seeda\/t\d*[02468]$/.test(name) || /^other\/(orders|nokey)$/.test(name);

describe('a datadir of many tables inside ibdata1, half dropped, dropped on the built page as a folder', () => {
  let made: ManyTables;
  let datadir: string;
  let session: Session;
  let page: Page;
  let work: string;
  /** Name → whether it is marked dropped, as the list showed it. */
  const listed = new Map<string, boolean>();
  /** A named dropped table whose clustered index pages were zeroed: not read by Export all, said why. */
  let gone: { db: string; table: string; indexId: string };
  const t = pageTest('many-page');
  const { exportAll } = pageSteps(() => page);

  beforeAll(async () => {
    ({ session, page, work } = t);
    made = await makeManyTables(N, { filePerTable: false, drop: true, dropOnly: (i) => i % 2 === 0 });
    datadir = made.dropped as string;
    gone = namedDroppedTable(datadir)!;
    expect(zeroIndexPages(join(datadir, 'ibdata1'), gone.indexId)).toBeGreaterThan(0);
  }, 600_000);

  afterAll(() => made?.remove());

  it('lists every table by name as it is found, with a progress count; the dropped ones by their recovered names, marked', async () => {
    // The most tables the list held named by the dictionary, their .frm not read yet (every state the DOM went through).
    await page.evaluate(() => {
      const w = window as unknown as { maxPending: number };
      w.maxPending = 0;
      new MutationObserver(() => {
        const n = Number(document.querySelector('[data-testid="table-list"]')?.getAttribute('data-pending') ?? 0);
        w.maxPending = Math.max(w.maxPending, n);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-pending'] });
    });
    const started = performance.now();
    await page.locator('[data-testid="folder-input"]').setInputFiles(datadir);
    // The first tables are on the list while the others are still being listed.
    await page.locator('[data-testid="table-item"]').first().waitFor({ timeout: 120_000 });
    const firstS = (performance.now() - started) / 1000;
    await page.getByTestId('listing-progress').waitFor({ state: 'detached', timeout: 300_000 });
    const listingS = (performance.now() - started) / 1000;
    const total = Number(await page.getByTestId('table-list').getAttribute('data-tables'));
    // Every table scrolled into view once (the list is virtualised).
    const scroller = page.getByTestId('table-scroll');
    await scroller.evaluate((el) => (el.scrollTop = 0));
    for (let step = 0; step < 2000 && listed.size < total; step++) {
      const items = await page.locator('[data-testid="table-item"]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-table') ?? '', e.querySelector('[data-testid="table-dropped"]') !== null] as const));
      for (const [name, isDropped] of items) listed.set(name, isDropped);
      await scroller.evaluate((el) => {
        el.scrollTop += el.clientHeight * 0.8;
        el.dispatchEvent(new Event('scroll'));
      });
      await page.waitForTimeout(20);
    }
    expect(listed.size).toBe(total);
    // Every live table was on the list, by the name SYS_TABLES gives, before its .frm was read and its
    // rows counted; none is left so once the listing is over.
    const live = [...made.expected.keys()].filter((name) => !dropped(name));
    expect(await page.evaluate(() => (window as unknown as { maxPending: number }).maxPending)).toBeGreaterThanOrEqual(live.length);
    expect(await page.getByTestId('table-list').getAttribute('data-pending')).toBe('0');
    const unnamed = [...listed.keys()].filter((n) => n.startsWith('dropped index '));
    console.log(`${N} tables, half dropped: ${total} listed (${unnamed.length} dropped trees unnamed), the first in ${firstS.toFixed(1)} s, all in ${listingS.toFixed(1)} s`);
    // Every live table by name; a dropped one by the name its freed dictionary rows give, marked, or
    // (those rows lost, as the CLI finds them too) among the unnamed trees, each marked.
    for (const name of made.expected.keys()) {
      if (!dropped(name)) expect(listed.get(name), name).toBe(false);
      else if (listed.has(name)) expect(listed.get(name), name).toBe(true);
    }
    const lost = [...made.expected.keys()].filter((name) => !listed.has(name));
    expect(lost.every(dropped)).toBe(true);
    expect(unnamed.length).toBeGreaterThanOrEqual(lost.length);
    for (const name of unnamed) expect(listed.get(name), name).toBe(true);
    const notice = await page.getByTestId('notice').textContent({ timeout: 1000 }).catch(() => '');
    expect(notice ?? '').not.toMatch(/No \.ibd/);
  }, 600_000);

  it('"Export all tables" writes every table into tables.zip, each CSV equal to the server\'s SELECT', async () => {
    const started = performance.now();
    const zip = unzipSync(await exportAll('zip', 600_000));
    console.log(`export of ${listed.size} tables: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    await page.getByTestId('export-all-status').waitFor();
    const folder = basename(datadir);
    const names = Object.keys(zip);
    // a table not written is counted and said, with why
    const failed = Number(await page.getByTestId('export-all').getAttribute('data-failed'));
    const problems = failed === 0 ? [] : (await page.getByTestId('export-all-problems').locator('li').allTextContents());
    console.log(`not written: ${problems.join(' | ')}`);
    expect(names.length + failed).toBe(listed.size);
    expect(problems.length).toBeGreaterThanOrEqual(failed);
    // Live and named dropped tables after their names, each equal to the server's SELECT.
    const lost: string[] = [];
    for (const [name, want] of made.expected) {
      if (!listed.has(name)) {
        lost.push(name);
        continue;
      }
      const [db, table] = name.split('/');
      const path = `${folder}/${db}/${table}${dropped(name) ? '.dropped' : ''}.csv`;
      if (db === gone.db && table === gone.table) {
        expect(zip[path], path).toBeUndefined();
        expect(problems).toContain(`${path}: no page of its clustered index ${gone.indexId} is left in ibdata1: its rows are gone`);
        continue;
      }
      expect(zip[path], path).toBeDefined();
      expect(new TextDecoder().decode(zip[path]), path).toBe(csvHeader(want.columns) + csvRows(want.rows));
    }
    // The trees whose table is unknown after their index, their columns guessed: the one-row tables'
    // values are among their rows.
    const guessedLines = new Set<string>();
    for (const name of listed.keys()) {
      if (!name.startsWith('dropped index ')) continue;
      const path = `${folder}/#dropped/index-${name.slice(14)}.csv`;
      if (problems.some((p) => p.startsWith(`${path}: `))) continue;
      expect(zip[path], path).toBeDefined();
      for (const line of new TextDecoder().decode(zip[path]).split('\n').slice(1)) guessedLines.add(line);
    }
    // A lost name's row is among them unless the server reused its page (no one-row leaf of the file holds its key).
    const leaves = oneRowLeafKeys(join(datadir, 'ibdata1'));
    const gonePages = lost.filter((n) => n.startsWith('seeda/') && !leaves.has(Number(made.expected.get(n)!.rows[0][0])));
    console.log(`${lost.length} names lost, ${gonePages.length} of them with their page`);
    for (const name of lost.filter((n) => n.startsWith('seeda/') && !gonePages.includes(n))) expect(guessedLines.has(csvRows(made.expected.get(name)!.rows).trim()), `${name}: its page is in ibdata1; not written: ${problems.join(' | ')}`).toBe(true);
  }, 600_000);

  it('"Download tables.sql": one file of every table, which a server loads into the same rows', async () => {
    const sql = (await exportAll('sql', 600_000)).toString('utf8');
    const file = join(work, 'tables.sql');
    // (the unknown trees' guessed tables are left out of the load: they have no database of their own)
    writeFileSync(file, sql);
    const server = await startMariadb();
    try {
      // (the server's own mysql.* tables exist in the fresh server)
      const parts = sql.split(/(?=^CREATE DATABASE IF NOT EXISTS |^-- Rows of table `index_)/m);
      await server.exec(parts.filter((part) => !part.startsWith('-- Rows of table `index_') && !part.startsWith('CREATE DATABASE IF NOT EXISTS `mysql`')).join(''));
      // every table listed by name, with the server's rows (all in one query: the tables are many)
      const named = [...made.expected.keys()].filter((name) => listed.has(name) && name.startsWith('seeda/') && name !== `${gone.db}/${gone.table}`);
      const got = await server.query(named.map((name) => `SELECT '${name}', i FROM \`seeda\`.\`${name.slice(6)}\``).join(' UNION ALL '));
      expect(new Map(got.rows.map((r) => [r[0], [[r[1]]]]))).toEqual(new Map(named.map((name) => [name, made.expected.get(name)!.rows])));
      // the other shapes: two dropped, one live of ~450 pages
      for (const name of ['other/orders', 'other/nokey', 'other/wide'].filter((n) => listed.has(n))) {
        const want = made.expected.get(name)!;
        const rows = await server.query(`SELECT * FROM ${name.replace('/', '.')} ORDER BY ${want.columns[0]}, ${want.columns[1]}`);
        expect(rows.rows, name).toEqual(want.rows);
      }
    } finally {
      await server.stop();
    }
  }, 600_000);

  it('an unnamed tree: the definition just given is preselected, its rows read with it and exported after it', async () => {
    const unnamed = [...listed.keys()].find((n) => n.startsWith('dropped index ')) as string;
    await page.getByTestId('table-filter').fill(unnamed);
    const item = page.locator(`[data-testid="table-item"][data-table="${unnamed}"]`);
    await item.click();
    await item.and(page.locator('[data-state="needs-schema"]')).waitFor({ timeout: 60_000 });
    const sql = join(work, 'lost.sql');
    writeFileSync(sql, 'CREATE TABLE lost_one (i INT PRIMARY KEY);\n');
    await page.locator('[data-testid="file-input"]').setInputFiles([sql]);
    await item.and(page.locator('[data-state="choose"]')).waitFor({ timeout: 60_000 });
    // (not the dictionary's first table, mysql/gtid_slave_pos)
    expect(await page.getByTestId('choose').locator('select').inputValue()).toBe('lost_one');
    await page.getByTestId('choose').locator('button[type="submit"]').click();
    await item.and(page.locator('[data-state="done"]')).waitFor({ timeout: 120_000 });
    const zip = unzipSync(await exportAll('zip', 600_000));
    const csv = new TextDecoder().decode(zip[`${basename(datadir)}/#dropped/lost_one.csv`]);
    // one of the lost one-row tables' value
    expect(csv).toMatch(/^i\n\d+\n$/);
    expectOwnOriginOnly(session);
  }, 600_000);
});
