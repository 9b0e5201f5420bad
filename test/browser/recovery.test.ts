/**
 * End-to-end tests of the BUILT page (dist/, made by `npm run build`) in the machine's headless
 * Chromium (playwright-core): files that are not whole, or not InnoDB, or that come with no
 * definition, from tables a real MariaDB wrote (test/harness/mariadb.ts).
 *
 *  - damaged and non-InnoDB files give readable messages, and the page stays usable;
 *  - a zeroed page 0 and a file cut short are said at once, and such a read is never called complete;
 *  - a table whose pages 0-3 are cut off is scanned for indexes, its clustered index decoded (rows =
 *    the server's, as a set) and the recovery report names what was cut off;
 *  - a table with no .sql or .frm is decoded through "Guess the columns" with the true types typed
 *    in (rows = SELECT);
 *  - no request leaves the page's origin.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { MariadbServer, QueryResult } from '../harness/mariadb.ts';
import { ndjsonRows } from '../../src/core/writers/output.ts';
import { expectOwnOriginOnly, pageSteps, shown, type Session } from './harness.ts';
import { pageTest } from './page-test.ts';
import { createAwkwardTable, ROWS, tableFiles } from './test-tables.ts';
import { SHAPES } from '../differential/guess-shapes.ts';
import { rng } from '../differential/random-data.ts';

/** Deterministic non-InnoDB bytes. */
function junkBytes(length: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = 0x9e3779b9;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('damaged files, raw images and tables with no definition, in the built page', () => {
  let db: MariadbServer | undefined;
  let session: Session;
  let page: Page;
  let work: string;
  const files: Record<string, string> = {};
  let expected: QueryResult;

  const env = pageTest('recovery', { mariadb: {} });
  const { shot, waitForTable, rowCount, clearAll, open, download, panel } = pageSteps(() => page);

  beforeAll(async () => {
    ({ db, session, page, work } = env);
    expected = await createAwkwardTable(db);
    const t = await tableFiles(db, 't', work);
    files['t.ibd'] = t.ibd;
    files['t.sql'] = t.sql;
  }, 240_000);

  /** NDJSON lines, sorted: rows compared as a set (a table read without its B-tree root is in page order). */
  function sortedLines(text: string): string[] {
    return text.split('\n').filter((l) => l !== '').sort();
  }

  it('explains damaged and non-InnoDB files in plain language, and stays usable', async () => {
    await clearAll();
    // A real table file with one leaf page damaged.
    const bytes = new Uint8Array(readFileSync(files['t.ibd']));
    const pageSize = 16384;
    let leaf = -1;
    for (let p = 3; p < bytes.length / pageSize; p++) {
      const at = p * pageSize;
      if (((bytes[at + 24] << 8) | bytes[at + 25]) === 17855 && ((bytes[at + 64] << 8) | bytes[at + 65]) === 0) {
        leaf = p;
        break;
      }
    }
    expect(leaf).toBeGreaterThan(0);
    for (let i = 300; i < 340; i++) bytes[leaf * pageSize + i] ^= 0x5a;
    const damaged = join(work, 'damaged', 't.ibd');
    mkdirSync(dirname(damaged), { recursive: true });
    writeFileSync(damaged, bytes);
    await open([damaged, files['t.sql']]);
    await page.getByTestId('checksum-alert').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('checksum-alert').textContent()).toMatch(new RegExp(`page ${leaf}\\b`));
    await page.locator('[data-testid="table-item"][data-state="done"], [data-testid="table-item"][data-state="error"]').waitFor({ timeout: 30_000 });
    // Rows are decoded on demand: a filter decodes every page, the damaged one too.
    if ((await page.getByTestId('error').count()) === 0) {
      await page.getByTestId('filter-text').fill('no such text anywhere');
      await page.getByTestId('filter-text').press('Enter');
      await expect.poll(() => page.getByTestId('filter-result').textContent(), { timeout: 30_000 }).toMatch(/^0 of/);
    }
    await panel('recovery');
    const problems = page.getByTestId('problems');
    const error = page.getByTestId('error');
    expect((await problems.count()) + (await error.count())).toBeGreaterThan(0);
    // An error about the damaged page says that the page is damaged.
    if ((await error.count()) > 0 && new RegExp(`page ${leaf}\\b`).test((await error.textContent()) ?? '')) {
      expect(await page.getByTestId('damage-hint').textContent()).toMatch(new RegExp(`Page ${leaf} is damaged`));
    }
    await shot('11-damaged-page');

    // Not a table file at all.
    await clearAll();
    const junk = join(work, 'broken.ibd');
    writeFileSync(junk, junkBytes(5 * 16384));
    await open([junk, files['t.sql']]);
    await waitForTable('broken', 'error');
    const alert = page.getByTestId('error');
    expect(await alert.getAttribute('role')).toBe('alert');
    const message = (await alert.locator('.message').textContent()) ?? '';
    expect(message).toContain('broken.ibd');
    expect(message).toMatch(/^broken\.ibd is not an InnoDB tablespace: it looks like binary data of no kind recognised/);
    expect(message).not.toMatch(/undefined|\[object |TypeError|at .*\.js:\d+/);
    // Said once, not once per stage, and the table definition is not blamed.
    expect(await page.getByText('is not an InnoDB tablespace').count()).toBe(1);
    expect(await page.getByTestId('needs-schema').count()).toBe(0);
    await shot('12-error-not-innodb');

    const png = join(work, 'picture.ibd');
    writeFileSync(png, TINY_PNG);
    await open([png]);
    // (The CREATE TABLE dropped before is still there: the file is not tried with it, it is not InnoDB.)
    await page.getByTestId('error').filter({ hasText: 'picture.ibd' }).waitFor();
    expect(await page.getByTestId('error').textContent()).toMatch(/picture\.ibd is not an InnoDB tablespace: it looks like a PNG image, \d+ bytes/);

    // Still usable.
    await clearAll();
    await open([files['t.ibd'], files['t.sql']]);
    await waitForTable('t', 'done');
    expect(await rowCount()).toBe(ROWS);
  }, 120_000);

  it('says at once that page 0 is damaged or the file is cut short, and never calls such a read complete', async () => {
    await clearAll();
    const whole = new Uint8Array(readFileSync(files['t.ibd']));
    const pageSize = 16384;
    const zeroed = whole.slice();
    zeroed.fill(0, 0, pageSize);
    mkdirSync(join(work, 'zeroed'), { recursive: true });
    writeFileSync(join(work, 'zeroed', 't.ibd'), zeroed);
    await open([join(work, 'zeroed', 't.ibd'), files['t.sql']]);
    await waitForTable('t', 'done');
    expect(await page.getByTestId('space-header').textContent()).toBe('Page 0 (the space header) is damaged: it is all zeros; page size/format taken from the other pages: 16 KB pages, full_crc32 checksums.');
    await page.locator('[data-testid="checksums"][data-bad="1"]').waitFor({ timeout: 30_000 });
    // Page 0 of zeros is damaged, not a checksum mismatch: no checksum alert names it (issue 41).
    expect(await page.getByTestId('checksums').textContent()).toMatch(/^\s*page 0 damaged \([\d,]+ other pages checked match\)/);
    expect(await page.getByTestId('checksum-alert').count()).toBe(0);
    expect(await page.getByTestId('summary').textContent()).not.toMatch(/checksum mismatch/);
    expect(await page.getByTestId('page-size').textContent()).toBe('16.0 KiB');
    expect(await rowCount()).toBe(ROWS);
    await shot('11b-page0-zeroed');

    await clearAll();
    const cutAt = Math.floor(whole.length / pageSize / 2);
    mkdirSync(join(work, 'cut-short'), { recursive: true });
    writeFileSync(join(work, 'cut-short', 't.ibd'), whole.subarray(0, cutAt * pageSize));
    await open([join(work, 'cut-short', 't.ibd'), files['t.sql']]);
    const alert = page.getByTestId('truncation');
    await alert.waitFor({ timeout: 30_000 });
    expect(await alert.getAttribute('role')).toBe('alert');
    expect(await alert.textContent()).toMatch(new RegExp(`^\\s*This file is incomplete: the file is cut at page ${cutAt}: [\\d,]+ pages missing past the end \\(the space header says [\\d,]+ pages\\)`));
    // Once the rows are counted, the leaf pages past the end and their rows, as an estimate.
    await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toMatch(/the B-tree expects [\d,]+ leaf pages there \(about [\d,]+ rows, estimated/);
    await waitForTable('t', 'done');
    expect(await page.getByText('All rows in this copy counted (the file is cut short: see above)').count()).toBe(1);
    await panel('recovery');
    const report = page.getByTestId('recovery-report');
    if (!(await report.evaluate((d) => (d as HTMLDetailsElement).open))) await report.locator('summary').click();
    await page.getByTestId('report-full').click();
    await page.locator('[data-testid="recovery-report"][data-complete="true"]').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('report-complete').getAttribute('data-whole')).toBe('false');
    expect(await page.getByTestId('report-complete').textContent()).toMatch(/^Not complete: [\d,]+ of [\d,]+ leaf pages were read; [\d,]+ pages? could not be read/);
    expect(await report.textContent()).not.toMatch(/Complete: all/);
    await shot('11c-truncated');
  }, 120_000);

  it('recovers a table whose pages 0-3 are cut off: scan, pick the clustered index, report what was skipped', async () => {
    await clearAll();
    const whole = readFileSync(files['t.ibd']);
    const pageSize = 16384;
    const cut = whole.subarray(4 * pageSize);
    expect(cut.length % 512).toBe(0);
    const dir = join(work, 'cut');
    mkdirSync(dir, { recursive: true });
    const ibd = join(dir, 't_cut.ibd');
    writeFileSync(ibd, cut);
    await open([ibd, files['t.sql']]);
    await waitForTable('t_cut', 'error');
    await shot('17a-raw-image-error');

    await page.getByTestId('scan-indexes').click();
    await page.locator('[data-testid="index-scan"][data-state="done"]').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('index-scan-headline').textContent()).toMatch(/16 KB pages/);
    const rows = page.getByTestId('index-row');
    expect(await rows.count()).toBeGreaterThanOrEqual(1);
    // The clustered index: the lowest index id, holding every record.
    const first = rows.first();
    expect(await first.textContent()).toMatch(/likely the rows/);
    await shot('17b-index-scan');
    await first.getByTestId('decode-index').click();
    await waitForTable('t_cut', 'done', 60_000);
    expect(await rowCount()).toBe(ROWS);
    await panel('definition');
    expect(await page.getByTestId('target').textContent()).toMatch(/raw image/);

    // The report: complete after a pass over every leaf, naming what was cut off and the missing root.
    await panel('recovery');
    const report = page.getByTestId('recovery-report');
    await page.locator('[data-testid="recovery-report"][data-complete="true"]').waitFor({ timeout: 60_000 });
    const text = (await report.textContent()) ?? '';
    expect(text).toMatch(/pages 0–3 are missing/);
    expect(text).toMatch(/root page was not found/);
    expect(await report.locator('[data-testid="report-figure"][data-label="Rows read (live)"]').getAttribute('data-value')).toBe(String(ROWS));
    expect(await report.locator('[data-testid="report-figure"][data-label="Pages skipped (unreadable)"]').getAttribute('data-value')).toBe('0');
    expect(await page.getByTestId('report-pages').textContent()).toMatch(/no B-tree root was found/);
    await shot('17c-raw-image-report');

    // Every row of the intact pages is the server's (in page order: compared as a set).
    const ndjson = await download('NDJSON strings', 't.ndjson');
    expect(sortedLines(ndjson.toString('utf8'))).toEqual(sortedLines(ndjsonRows(expected.columns, expected.rows)));
  }, 180_000);

  it('guesses the columns of a table with no .sql or .frm; with the true types the rows are the server’s', async () => {
    await clearAll();
    await db!.exec(`CREATE TABLE g (id INT NOT NULL PRIMARY KEY, qty SMALLINT NULL, price DECIMAL(8,2) NOT NULL, name VARCHAR(30) NULL, made DATETIME NOT NULL) ENGINE=InnoDB;
      INSERT INTO g SELECT seq, IF(seq % 9 = 0, NULL, CAST(seq AS SIGNED) % 300 - 100), (seq * 37) % 100000 / 100, IF(seq % 11 = 0, NULL, CONCAT('item ', seq)), '2024-01-01 00:00:00' + INTERVAL seq * 3607 SECOND FROM seq_1_to_1500;`);
    const want = await db!.query('SELECT * FROM g ORDER BY id');
    const dir = join(work, 'guess');
    mkdirSync(dir, { recursive: true });
    const ibd = join(dir, 'g.ibd');
    writeFileSync(ibd, readFileSync(await db!.exportTable('g')));
    await open([ibd]);
    await waitForTable('g', 'needs-schema');
    await page.getByTestId('guess-columns').click();
    const editor = page.getByTestId('guess-editor');
    await editor.waitFor({ timeout: 60_000 });
    await shot('18a-guess-editor');

    const truth = [
      { name: 'id', type: 'int', nullable: false, key: true },
      { name: 'qty', type: 'smallint', nullable: true, key: false },
      { name: 'price', type: 'decimal(8,2)', nullable: false, key: false },
      { name: 'name', type: 'varchar(30)', nullable: true, key: false },
      { name: 'made', type: 'datetime', nullable: false, key: false },
    ];
    const columnRows = editor.locator('tbody tr:not(.system)');
    expect(await columnRows.count()).toBe(truth.length);
    for (let i = 0; i < truth.length; i++) {
      const row = columnRows.nth(i);
      const c = truth[i];
      await row.locator('input.name').fill(c.name);
      await row.locator('input.type').fill(c.type);
      const boxes = row.locator('input[type="checkbox"]');
      await boxes.nth(1).setChecked(c.key);
      if (!c.key) await boxes.nth(0).setChecked(c.nullable);
    }
    await editor.getByRole('button', { name: 'Decode with these columns' }).click();
    await waitForTable('g', 'done', 60_000);
    expect(await rowCount()).toBe(want.rows.length);
    await panel('definition');
    expect(await page.getByTestId('definition-guessed').textContent()).toMatch(/guessed/);
    expect(await page.locator('[data-row="0"] [role="gridcell"]').allTextContents()).toEqual(want.rows[0].map(shown));
    // The CREATE TABLE it was read with can be seen (and copied): unfolded in the side panel.
    expect(await page.getByTestId('create-sql').locator('pre').textContent()).toMatch(/CREATE TABLE `g`[\s\S]*`price` decimal\(8,2\)/i);
    await shot('18b-guessed-decoded');
    // A filter decodes every page: the recovery report is then complete, with nothing lost.
    await page.getByTestId('filter-text').fill('item 1499');
    await page.getByTestId('filter-text').press('Enter');
    await expect.poll(() => page.getByTestId('filter-result').textContent(), { timeout: 30_000 }).toMatch(/^1 of 1,500 rows/);
    await panel('recovery');
    const report = page.locator('[data-testid="recovery-report"][data-complete="true"]');
    await report.waitFor({ timeout: 30_000 });
    expect(await report.locator('[data-testid="report-figure"][data-label="Rows read (live)"]').getAttribute('data-value')).toBe(String(want.rows.length));
    expect(await report.locator('[data-testid="report-figure"][data-label="Records that could not be read"]').getAttribute('data-value')).toBe('0');
    await page.getByTestId('filter-text').fill('');
    await page.getByTestId('filter-text').press('Enter');
    const ndjson = await download('NDJSON strings', 'g.ndjson');
    expect(ndjson.toString('utf8')).toBe(ndjsonRows(want.columns, want.rows));
  }, 180_000);

  it('a table the guess can only partly read: the key decoded equal to the server, the other columns marked as not decoded', async () => {
    await clearAll();
    // 61 columns whose long latin1 VARCHARs keep the header sizes from telling the null bits (guess-shapes.ts)
    const wide = SHAPES[3];
    const r = rng(wide.name.length * 7907 + wide.rows);
    await db!.exec(`CREATE TABLE \`${wide.name}\` (${wide.columns.join(', ')}) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC;
      INSERT INTO \`${wide.name}\` VALUES ${Array.from({ length: wide.rows }, (_, i) => wide.row(r, i)).join(', ')};`);
    const want = await db!.query(`SELECT id FROM \`${wide.name}\` ORDER BY id`);
    const dir = join(work, 'guess-wide');
    mkdirSync(dir, { recursive: true });
    const ibd = join(dir, `${wide.name}.ibd`);
    writeFileSync(ibd, readFileSync(await db!.exportTable(wide.name)));
    await open([ibd]);
    await waitForTable(wide.name, 'needs-schema');
    await page.getByTestId('guess-columns').click();
    const editor = page.getByTestId('guess-editor');
    await editor.waitFor({ timeout: 120_000 });
    // the mark: what could not be worked out is named, not shown as columns
    expect(await editor.getByTestId('guess-partial').textContent()).toMatch(/partial\s+Only the columns below could be worked out; not decoded:\s+every column after DB_ROLL_PTR/);
    expect(await editor.locator('tbody tr.uncertain').textContent()).toMatch(/uncertain\s*not decoded: every column after DB_ROLL_PTR/);
    expect(await editor.locator('tbody tr:not(.system):not(.uncertain)').count()).toBe(1);
    await shot('18c-guess-partial');
    await editor.getByRole('button', { name: 'Decode with these columns' }).click();
    await waitForTable(wide.name, 'done', 60_000);
    expect(await rowCount()).toBe(want.rows.length);
    const ndjson = await download('NDJSON strings', `${wide.name}.ndjson`);
    expect(ndjson.toString('utf8')).toBe(ndjsonRows(['c1'], want.rows));
  }, 240_000);

  it('made no request outside the page’s own origin, and logged no errors', () => {
    expectOwnOriginOnly(session);
  });
});
