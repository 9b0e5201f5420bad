/**
 * End-to-end tests of the BUILT page (dist/, made by `npm run build`; `npm test` builds first), in the
 * machine's headless Chromium (playwright-core), against tables a real MariaDB wrote
 * (test/harness/mariadb.ts). The truth is always the server: its SELECT output, rendered with the same
 * src/core/writers/output.ts rules, or loaded back into it.
 *
 *  - the bundled sample: rows equal the server's SELECT saved when the sample was made
 *    (test/fixtures/sample-employees.csv);
 *  - a 3,000-row table of awkward values: grid, NULL vs empty string, value viewer, CSV (with options),
 *    NDJSON and SQL exports (the SQL is loaded back into MariaDB and SELECTed);
 *  - 1,000,000 rows: exact row count within 2 s of the drop (from the leaf pages, before the rows),
 *    the grid reaches the last row, a filter finds a row, a key jump, the CSV streamed to a file
 *    equals the server's (SHA-256 compared), the page's heap stays under 300 MB throughout and does
 *    not grow with the rows scrolled through (rows are decoded on demand);
 *  - Cancel during an export stops it (every worker of the export's pool is gone at once, nothing is saved);
 *  - deleted rows (delete-marked, kept by an open read view): the row mode switch shows them, marked,
 *    and exports them with their `_row_state`;
 *  - an encrypted table (a MariaDB server with file_key_management): without its key the page says
 *    which file to drop; with the key file (plain, or encrypted with a password the page asks for) the
 *    rows are the server's;
 *  - damaged and non-InnoDB files give readable messages; a whole folder pairs .ibd/.frm/.cfg/.sql;
 *    a MySQL 8 file needs nothing else (its own data dictionary);
 *  - recovery: a table whose pages 0-3 are cut off is scanned for indexes, its clustered index decoded
 *    (rows = the server's, as a set) and the recovery report names what was cut off; a table with no
 *    .sql or .frm is decoded through "Guess the columns" with the true types typed in (rows = SELECT);
 *    an encrypted table's summary is read with the keys once they are given;
 *  - 300 dropped tables and their dump: every table listed with its exact row count (the list is
 *    virtualized), and "Export all tables" gives one tables.zip whose CSVs are the server's SELECTs;
 *  - offline: after one visit, with the network off, the page reloads and opens the sample;
 *  - no request leaves the page's origin.
 *
 * Screenshots of the main states go to test-results/screenshots/ (gitignored).
 */
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, CDPSession, Download, Page } from 'playwright-core';
import { createConnection } from 'mariadb';
import { createCipheriv, randomBytes } from 'node:crypto';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { csvHeader, csvRows, ndjsonRows, type CsvOptions } from '../../src/core/writers/output.ts';
import { unzipSync } from 'fflate';
import { checkSetup, DIST, launch, pageSteps, ROOT, serveDist, shown } from './harness.ts';

const ROWS = 3000;
const MILLION = 1_000_000;
const HEAP_LIMIT = 300 * 1024 * 1024;
/** A file written by MySQL 8.0.18 (shared fixtures beside the repository). */
const MYSQL8_FILE = join(ROOT, '..', 'shared', 'fixtures', 'mysql-testsuite', 'mysql80', 'simple', 'emp.ibd');

// ---------------------------------------------------------------------------------------------
// Test data
// ---------------------------------------------------------------------------------------------

/** MariaDB string literal (default sql_mode: backslash escapes are on). */
function sqlString(s: string): string {
  return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\0/g, '\\0') + "'";
}

const TEXTS: (string | null)[] = [
  'plain',
  '',
  null,
  'comma, inside',
  'say "hi"',
  'line1\nline2',
  'emoji 😀 and 👍🏽 and 🇫🇷',
  'café crème — naïve',
  '漢字かなカナ한국어',
  '\\N',
  ' leading and trailing ',
  'x'.repeat(95),
  'שלום עולם',
  'tab\there',
  "semi;colon and 'quotes'",
];

/** Deterministic row content for pk (1-based). */
function rowValues(pk: number): string {
  const n = pk % 17 === 0 ? 'NULL' : String((pk * 7919) % 2000003 - 1000000) + (pk % 3 === 0 ? '000000' : '');
  const text = TEXTS[pk % TEXTS.length];
  const s = text === null ? 'NULL' : sqlString(pk % 5 === 0 ? `${text} #${pk}` : text);
  const d = pk % 19 === 0 ? 'NULL' : `${(pk * 37) % 100000 - 50000}.${String(pk % 1000).padStart(3, '0')}`;
  const sec = (pk * 7) % 60;
  const dt =
    pk % 13 === 0
      ? 'NULL'
      : `'20${String(10 + (pk % 20)).padStart(2, '0')}-${String(1 + (pk % 12)).padStart(2, '0')}-${String(1 + (pk % 28)).padStart(2, '0')} ${String(pk % 24).padStart(2, '0')}:${String(pk % 60).padStart(2, '0')}:${String(sec).padStart(2, '0')}.${String((pk * 104729) % 1000000).padStart(6, '0')}'`;
  const u = pk % 4 === 0 ? 'NULL' : String(pk % 256);
  const b = pk % 6 === 0 ? 'NULL' : pk % 6 === 1 ? "''" : `0x${(pk * 2654435761).toString(16).padStart(8, '0').slice(-8)}00FF`;
  const long = pk % 250 === 0 ? sqlString(`long value ${pk}: ` + 'lorem ipsum dolor sit amet '.repeat(40)) : 'NULL';
  return `(${pk}, ${n}, ${s}, ${d}, ${dt}, ${u}, ${b}, ${long})`;
}

const CREATE = `CREATE TABLE t (
  pk INT NOT NULL,
  n BIGINT NULL,
  s VARCHAR(120) CHARACTER SET utf8mb4 NULL,
  d DECIMAL(12,3) NULL,
  dt DATETIME(6) NULL,
  u TINYINT UNSIGNED NULL,
  b VARBINARY(16) NULL,
  lng TEXT NULL,
  PRIMARY KEY (pk)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`;

/** Inserts rows in a shuffled order, so primary-key order is the decoder's doing. */
function insertScript(): string {
  const order = Array.from({ length: ROWS }, (_, i) => i + 1);
  let seed = 12345;
  for (let i = order.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const parts: string[] = [];
  for (let i = 0; i < order.length; i += 500) {
    parts.push(`INSERT INTO t VALUES ${order.slice(i, i + 500).map(rowValues).join(',\n')};`);
  }
  return parts.join('\n');
}

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

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

// ---------------------------------------------------------------------------------------------

describe('the built page, against real MariaDB tables', () => {
  let db: MariadbServer | undefined;
  let http: { server: Server; url: string } | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let cdp: CDPSession;
  let work: string;
  let userData: string;
  const files: Record<string, string> = {};
  let expected: { columns: string[]; rows: (string | null)[][] };
  let millionCsvHash = '';
  let millionCsvBytes = 0;
  const requests: string[] = [];
  const consoleErrors: string[] = [];

  const { shot, waitForTable, rowCount, clearAll, open, download } = pageSteps(() => page);

  /** The page's heap after a full garbage collection: what it holds, not what it has yet to free. */
  async function retainedHeap(): Promise<number> {
    await cdp.send('HeapProfiler.collectGarbage');
    return heapBytes();
  }

  /** Main-thread heap of the page: V8 heap in use plus ArrayBuffer backing stores. */
  async function heapBytes(): Promise<number> {
    const h = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number };
    return h.usedSize + (h.backingStorageSize ?? 0);
  }

  beforeAll(async () => {
    checkSetup();
    work = mkdtempSync(join(tmpdir(), 'ibd-app-test-'));
    userData = join(work, 'chromium-profile');

    const [server, db0] = await Promise.all([serveDist(resolve(DIST)), startMariadb()]);
    http = server;
    db = db0;
    await db.exec(`${CREATE};\n${insertScript()}
      CREATE TABLE other (id INT PRIMARY KEY, label VARCHAR(20) NOT NULL) ENGINE=InnoDB;
      INSERT INTO other SELECT seq, CONCAT('other ', seq) FROM seq_1_to_50;
      CREATE TABLE m (id INT NOT NULL PRIMARY KEY, k INT NOT NULL, name VARCHAR(40) NOT NULL, note VARCHAR(30) NULL) ENGINE=InnoDB;
      INSERT INTO m SELECT seq, (seq * 7919) % 1000003, CONCAT('name ', seq), IF(seq % 10 = 0, NULL, IF(seq % 7 = 0, '', CONCAT('n', seq % 997))) FROM seq_1_to_${MILLION};`);
    expected = await db.query('SELECT * FROM t ORDER BY pk');
    expect(expected.rows).toHaveLength(ROWS);

    const folder = join(work, 'datadir', 'shop');
    mkdirSync(folder, { recursive: true });
    for (const table of ['t', 'other', 'm']) {
      const create = (await db.query(`SHOW CREATE TABLE ${table}`)).rows[0][1];
      files[`${table}.sql`] = join(work, `${table}.sql`);
      writeFileSync(files[`${table}.sql`], `-- schema of ${table}\n${create};\n`);
      const exported = await db.exportTable(table);
      files[`${table}.ibd`] = join(work, `${table}.ibd`);
      writeFileSync(files[`${table}.ibd`], readFileSync(exported));
      if (table !== 'm') {
        // A database folder as on a server: table files with their .frm and .cfg, plus a dump.
        for (const ext of ['.ibd', '.frm', '.cfg']) {
          const src = exported.replace(/\.ibd$/, ext);
          if (existsSync(src)) cpSync(src, join(folder, basename(src)));
        }
      }
    }
    writeFileSync(join(folder, 'shop-schema.sql'), readFileSync(files['t.sql'], 'utf8') + readFileSync(files['other.sql'], 'utf8'));
    writeFileSync(join(folder, 'README.txt'), 'not a table file');
    files.folder = dirname(folder);

    // The server's CSV of the million rows, hashed as it is built (never one big string).
    const hash = createHash('sha256');
    const mCols = (await db.query('SELECT * FROM m LIMIT 0')).columns;
    const head = csvHeader(mCols);
    hash.update(head);
    millionCsvBytes = Buffer.byteLength(head);
    for (let from = 1; from <= MILLION; from += 250_000) {
      const part = await db.query(`SELECT * FROM m WHERE id BETWEEN ${from} AND ${from + 249_999} ORDER BY id`);
      const text = csvRows(part.rows);
      hash.update(text);
      millionCsvBytes += Buffer.byteLength(text);
    }
    millionCsvHash = hash.digest('hex');

    context = await launch(userData);
    page = context.pages()[0] ?? (await context.newPage());
    cdp = await context.newCDPSession(page);
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
  }, 240_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await new Promise<void>((ok) => (http ? http.server.close(() => ok()) : ok()));
    await db?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('loads with the drop zone and the privacy note, and gets ready for offline use', async () => {
    await page.goto(http!.url);
    await page.getByTestId('drop-zone').waitFor();
    expect(await page.getByTestId('privacy').textContent()).toMatch(/never uploaded/i);
    await expect.poll(() => page.getByRole('button', { name: 'Open sample' }).isVisible()).toBe(true);
    // The service worker precached the app.
    await page.locator('[data-testid="offline-status"][data-ready="true"]').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active?.state))).toBe('activated');
    const manifest = (await (await page.request.get(new URL('manifest.webmanifest', http!.url).href)).json()) as { icons: { sizes: string }[]; start_url: string };
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    await shot('01-idle');
  });

  it('opens the bundled sample: the rows the server returned when it was made', async () => {
    await page.getByTestId('open-sample').click();
    await waitForTable('employees', 'done');
    expect(await rowCount()).toBe(300);
    expect(await page.getByTestId('summary-rows').getAttribute('data-rows')).toBe('300');
    expect(await page.getByTestId('server-hints').textContent()).toMatch(/MariaDB 10\.5 or later/);
    expect(await page.getByTestId('checksums').getAttribute('data-bad')).toBe('0');
    await shot('02-sample');
    const csv = await download('CSV', 'employees.csv');
    expect(csv.toString('utf8')).toBe(readFileSync(join(ROOT, 'test/fixtures/sample-employees.csv'), 'utf8'));
  }, 120_000);

  it('decodes a table of awkward values: grid, NULL vs empty, value viewer, dark theme', async () => {
    await clearAll();
    await open([files['t.ibd'], files['t.sql']]);
    await waitForTable('t', 'done');
    expect(await rowCount()).toBe(ROWS);
    expect(await page.getByTestId('summary-rows').getAttribute('data-rows')).toBe(String(ROWS));
    expect(await page.locator('[data-testid="row-format"]').textContent()).toMatch(/DYNAMIC/);
    expect(await page.locator('[data-testid="error"]').count()).toBe(0);

    const header = await page.locator('[role="columnheader"]').allTextContents();
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

    const ndjson = await download('NDJSON', 't.ndjson');
    expect(ndjson.toString('utf8')).toBe(ndjsonRows(expected.columns, expected.rows));

    // The SQL file loads back into the server and gives the same rows.
    const sql = await download('SQL', 't.sql');
    await db!.exec('CREATE DATABASE reloaded');
    await db!.exec(sql.toString('utf8'), 'reloaded');
    const back = await db!.query('SELECT * FROM t ORDER BY pk', 'reloaded');
    expect(back.columns).toEqual(expected.columns);
    expect(sha256(JSON.stringify(back.rows))).toBe(sha256(JSON.stringify(expected.rows)));
    await shot('05-export-done');
  }, 180_000);

  it('reads 1,000,000 rows: count in 2 s, last row, filter, key jump, streamed CSV = server, heap < 300 MB', async () => {
    await clearAll();
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await heapBytes().catch(() => 0));
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    try {
      const t0 = Date.now();
      await open([files['m.ibd'], files['m.sql']]);
      await page.locator(`[data-testid="summary-rows"][data-rows="${MILLION}"]`).waitFor({ timeout: 10_000 });
      const countMs = Date.now() - t0;
      await shot('06-million-decoding');
      expect(countMs, 'exact row count shown within 2 s of the drop').toBeLessThan(2000);

      await waitForTable('m', 'done', 120_000);
      const decodeMs = Date.now() - t0;
      expect(await rowCount()).toBe(MILLION);

      // The last row, by keyboard and by dragging the scrollbar to the end.
      await page.getByTestId('grid').focus();
      await page.keyboard.press('Control+End');
      const lastRow = page.locator(`[data-row="${MILLION - 1}"]`);
      await lastRow.waitFor({ timeout: 10_000 });
      expect(await lastRow.locator('[data-col="0"]').textContent()).toBe(String(MILLION));
      await page.keyboard.press('Control+Home');
      await page.locator('[data-row="0"]').waitFor();
      await page.getByTestId('grid').evaluate((el) => {
        el.scrollTop = el.scrollHeight;
      });
      await lastRow.waitFor({ timeout: 10_000 });
      expect(await lastRow.locator('[data-col="2"]').textContent()).toBe(`name ${MILLION}`);
      await shot('07-million-last-row');

      // Scrolling through the table: rows are decoded on demand and dropped again, so the heap stays flat.
      const grid = page.getByTestId('grid');
      const jumpTo = async (fraction: number) => {
        await grid.evaluate((el, f) => {
          el.scrollTop = (el.scrollHeight - el.clientHeight) * f;
        }, fraction);
        await page.locator('.row[data-pending]').first().waitFor({ state: 'detached', timeout: 10_000 }).catch(() => undefined);
        await page.locator('[data-row]').first().waitFor({ timeout: 10_000 });
      };
      for (let i = 0; i < 10; i++) await jumpTo(i / 10);
      const heapBefore = await retainedHeap();
      for (let i = 0; i < 60; i++) await jumpTo(((i * 7919) % 997) / 997);
      const heapAfter = await retainedHeap();
      console.log(`1M rows: heap ${(heapBefore / 2 ** 20).toFixed(0)} MiB before scrolling through 60 places, ${(heapAfter / 2 ** 20).toFixed(0)} MiB after`);
      expect(heapAfter - heapBefore, 'heap growth from scrolling through the table').toBeLessThan(24 * 2 ** 20);

      // A text filter finds the one row.
      await page.getByTestId('filter-text').fill('name 777777');
      await page.getByTestId('filter-text').press('Enter');
      await expect.poll(() => page.getByTestId('filter-result').textContent(), { timeout: 30_000 }).toMatch(/^1 of 1,000,000 rows/);
      expect(await page.locator('[data-row="777776"] [data-col="0"]').textContent()).toBe('777777');
      // …and in one column only: `n997` is in `note` of rows ≡ 0 (mod 997) only, never in `name`.
      await page.getByTestId('filter-column').selectOption({ label: 'in note' });
      await page.getByTestId('filter-text').fill('n996');
      await page.getByTestId('filter-text').press('Enter');
      await expect.poll(() => page.getByTestId('filter-result').textContent(), { timeout: 30_000 }).toMatch(/^\d[\d,]* of 1,000,000 rows contain “n996”/);
      await shot('08-million-filtered');
      await page.getByRole('button', { name: 'Clear', exact: true }).click();
      await page.getByTestId('filter-column').selectOption('any');

      // Jump to a primary key value.
      await page.getByTestId('jump-key').fill('654321');
      await page.getByTestId('jump-key').press('Enter');
      await page.locator('[data-row="654320"] [data-col="0"]').waitFor();
      expect(await page.locator('[data-row="654320"] [data-col="2"]').textContent()).toBe('name 654321');

      // CSV streamed into a file (the File System Access path; the file lives in the origin's private
      // file system so the test can read it back).
      await page.evaluate(() => {
        (window as unknown as { showSaveFilePicker: unknown }).showSaveFilePicker = async () => {
          const dir = await navigator.storage.getDirectory();
          return dir.getFileHandle('m.csv', { create: true });
        };
      });
      const t1 = Date.now();
      await page.getByRole('radio', { name: 'CSV', exact: true }).check();
      await page.getByRole('button', { name: 'Save CSV as…' }).click();
      await page.locator('[data-testid="export-progress"][data-state="running"]').waitFor({ timeout: 10_000 });
      await shot('09-million-exporting');
      await page.locator('[data-testid="export-progress"][data-state="done"]').waitFor({ timeout: 120_000 });
      const exportMs = Date.now() - t1;
      expect(await page.locator('[data-testid="export-progress"]').getAttribute('data-rows')).toBe(String(MILLION));
      sampling = false;
      await sampler;
      console.log(
        `1M rows: count ${countMs} ms, all rows ${decodeMs} ms, CSV export ${exportMs} ms; peak page heap ${(peak / 2 ** 20).toFixed(0)} MiB`,
      );
      expect(peak, 'page heap (V8 heap + ArrayBuffers)').toBeLessThan(HEAP_LIMIT);

      const got = await page.evaluate(async () => {
        const dir = await navigator.storage.getDirectory();
        const file = await (await dir.getFileHandle('m.csv')).getFile();
        const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
        await dir.removeEntry('m.csv');
        return { size: file.size, hash: Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('') };
      });
      expect(got.size).toBe(millionCsvBytes);
      expect(got.hash).toBe(millionCsvHash);
      await page.getByRole('button', { name: 'OK', exact: true }).click();
    } finally {
      sampling = false;
      await sampler;
    }
  }, 240_000);

  it('cancels an export at once: the export workers are gone and nothing is saved', async () => {
    const workersBefore = page.workers().length;
    // The streamed download starts with the export; cancelled, it must fail, not save a part.
    const downloads: Download[] = [];
    const onDownload = (d: Download) => downloads.push(d);
    page.on('download', onDownload);
    await page.getByRole('radio', { name: 'NDJSON', exact: true }).check();
    await page.getByTestId('download').click();
    // Cancelled while it runs: its runs are 4 MiB of pages, so the 1,000,000 rows are a few runs and
    // the export is soon over; it is cancelled as soon as its workers are up, not after rows came in.
    await page.locator('[data-testid="export-progress"][data-state="running"]').waitFor({ timeout: 30_000 });
    // The export runs in a pool of its own (at least two workers), all terminated by Cancel.
    await expect.poll(() => page.workers().length, { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(workersBefore + 2);
    await page.getByTestId('export-cancel').click();
    await page.locator('[data-testid="export-progress"][data-state="cancelled"]').waitFor({ timeout: 3000 });
    await expect.poll(() => page.workers().length, { timeout: 2000 }).toBe(workersBefore);
    await page.waitForTimeout(1000);
    page.off('download', onDownload);
    for (const d of downloads) expect(await d.failure()).not.toBeNull();
    await shot('10-export-cancelled');
    await page.getByRole('button', { name: 'OK', exact: true }).click();
  }, 120_000);

  it('exports as soon as the table opens, the rows still being counted: CSV = server, then the count ends', async () => {
    await clearAll();
    await open([files['m.ibd'], files['m.sql']]);
    // What a user who only wants the CSV does: Download as soon as it is offered. The count steps
    // aside while the export runs (its workers recycled once idle) and ends after it.
    await page.getByRole('radio', { name: 'CSV', exact: true }).check();
    const button = page.locator('[data-testid="download"]:enabled');
    await button.waitFor({ timeout: 10_000 });
    const countedAtClick = await page.evaluate(() => document.querySelector('[data-testid="summary-rows"]')?.getAttribute('data-rows') ?? '');
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), button.click()]);
    await page.locator('[data-testid="export-progress"][data-state="done"]').waitFor({ timeout: 120_000 });
    const bytes = readFileSync(await dl.path());
    expect(bytes.length).toBe(millionCsvBytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(millionCsvHash);
    await page.locator(`[data-testid="summary-rows"][data-rows="${MILLION}"]`).waitFor({ timeout: 30_000 });
    await waitForTable('m', 'done', 30_000);
    expect(await rowCount()).toBe(MILLION);
    console.log(`1M rows: Download clicked ${countedAtClick === '' ? 'while the rows were being counted' : 'after the count'}`);
    await page.getByRole('button', { name: 'OK', exact: true }).click();
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
    const header = await page.locator('[role="columnheader"]').allTextContents();
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

  it('reads an encrypted table once its key file is dropped (asking for the key file\'s password)', async () => {
    await ensureLoaded();
    await clearAll();
    const KEYS = '1;a7addd9adea9978fda19f21e6be987880e68ac92632ca052e5bb42b1a506939a\n2;49c16acc2dffe616710c9ba9a10b94944a737de1beccb52dc1560abfdd67388b\n';
    const keyPath = join(work, 'keys.txt');
    writeFileSync(keyPath, KEYS);
    const enc = await startMariadb({ checksum: 'full_crc32', extraArgs: ['--plugin-load-add=file_key_management', `--file-key-management-filename=${keyPath}`] });
    try {
      await enc.exec(`CREATE TABLE secret (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL) ENGINE=InnoDB ENCRYPTED=YES ENCRYPTION_KEY_ID=2;
        INSERT INTO secret SELECT seq, CONCAT('secret ', seq) FROM seq_1_to_3000;`);
      const want = await enc.query('SELECT * FROM secret ORDER BY id');
      const ibd = join(work, 'enc', 'secret.ibd');
      mkdirSync(dirname(ibd), { recursive: true });
      writeFileSync(ibd, readFileSync(await enc.exportTable('secret')));
      const sql = join(work, 'enc', 'secret.sql');
      writeFileSync(sql, `${(await enc.query('SHOW CREATE TABLE secret')).rows[0][1]};\n`);

      // No key: the page says which file to drop.
      await open([ibd, sql]);
      await waitForTable('secret', 'error');
      expect(await page.getByTestId('error').locator('.message').textContent()).toMatch(/key id 2/);
      expect(await page.getByTestId('needs-key').textContent()).toMatch(/file_key_management_filename/);
      await shot('10c-encrypted-needs-key');

      // The key file encrypted with a password (openssl enc -aes-256-cbc -md sha1), as file_key_management_filekey reads it.
      const salt = randomBytes(8);
      let material = Buffer.alloc(0);
      for (let d = Buffer.alloc(0); material.length < 48;) {
        d = createHash('sha1').update(Buffer.concat([d, Buffer.from('open-sesame'), salt])).digest();
        material = Buffer.concat([material, d]);
      }
      const cipher = createCipheriv('aes-256-cbc', material.subarray(0, 32), material.subarray(32, 48));
      const encrypted = join(work, 'enc', 'keys.enc');
      writeFileSync(encrypted, Buffer.concat([Buffer.from('Salted__'), salt, cipher.update(KEYS), cipher.final()]));
      await open([encrypted]);
      const form = page.getByTestId('key-password');
      await form.waitFor();
      await page.getByTestId('key-password-input').fill('wrong');
      await page.getByTestId('key-password-input').press('Enter');
      await form.getByRole('alert').waitFor();
      expect(await form.getByRole('alert').textContent()).toMatch(/password/);
      await page.getByTestId('key-password-input').fill('open-sesame');
      await page.getByTestId('key-password-input').press('Enter');
      await waitForTable('secret', 'done');
      expect(await rowCount()).toBe(3000);
      // The summary reads the encrypted pages with the keys too: checksums checked, no error.
      await expect.poll(async () => Number((await page.getByTestId('checksums').getAttribute('data-checked')) ?? 0), { timeout: 60_000 }).toBeGreaterThan(0);
      expect(await page.getByTestId('summary-error').count()).toBe(0);
      expect(await page.locator('[data-row="0"] [role="gridcell"]').allTextContents()).toEqual(want.rows[0].map(shown));
      const csv = await download('CSV', 'secret.csv');
      expect(sha256(csv)).toBe(sha256(csvHeader(want.columns) + csvRows(want.rows)));
      await shot('10d-encrypted-read');
    } finally {
      await enc.stop();
    }
  }, 180_000);

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
    const report = page.getByTestId('recovery-report');
    if (!(await report.evaluate((d) => (d as HTMLDetailsElement).open))) await report.locator('summary').click();
    await page.getByTestId('report-full').click();
    await page.locator('[data-testid="recovery-report"][data-complete="true"]').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('report-complete').getAttribute('data-whole')).toBe('false');
    expect(await page.getByTestId('report-complete').textContent()).toMatch(/^Not complete: [\d,]+ of [\d,]+ leaf pages were read; [\d,]+ pages? could not be read/);
    expect(await report.textContent()).not.toMatch(/Complete: all/);
    await shot('11c-truncated');
  }, 120_000);

  it('pairs a whole folder (.ibd, .frm, .cfg, a dump) and lists the tables with their state', async () => {
    await clearAll();
    await page.locator('[data-testid="folder-input"]').setInputFiles(files.folder);
    await waitForTable('other', 'done');
    const names = await page.locator('[data-testid="table-item"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-table')));
    expect(names.sort()).toEqual(['other', 't']);
    expect(await page.getByTestId('notice').textContent()).toMatch(/README\.txt/);
    expect(await rowCount()).toBe(50);
    expect(await page.locator('[data-testid="table-item"][data-table="t"] [data-testid="table-state"]').textContent()).toBe('pending');
    await page.locator('[data-testid="table-item"][data-table="t"]').click();
    await waitForTable('t', 'done');
    expect(await rowCount()).toBe(ROWS);
    expect(await page.locator('[data-testid="table-item"][data-table="other"] [data-testid="table-rows"]').textContent()).toBe('50 rows');
    await shot('13-folder');
    // Back to the first table: opened again, its row counts kept from the first visit.
    await page.locator('[data-testid="table-item"][data-table="other"]').click();
    await waitForTable('other', 'done');
    expect(await rowCount()).toBe(50);
    await page.getByTestId('grid').focus();
    await page.keyboard.press('Control+End');
    expect(await page.locator('[data-row="49"] [data-col="1"]').textContent()).toBe('other 50');

    // Files dropped on the page (DataTransfer), one after the other: the .ibd first, then its .sql.
    await clearAll();
    const drop = async (paths: string[]) => {
      const payload = paths.map((p) => ({ name: basename(p), base64: readFileSync(p).toString('base64') }));
      await page.evaluate((items) => {
        const dt = new DataTransfer();
        for (const f of items) dt.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name));
        const el = document.querySelector('[data-testid="drop-zone"]')!;
        for (const type of ['dragenter', 'dragover', 'drop']) el.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, payload);
    };
    await drop([files['other.ibd']]);
    await waitForTable('other', 'needs-schema');
    await page.getByTestId('needs-schema').waitFor();
    await shot('14-needs-schema');
    await drop([files['other.sql']]);
    await waitForTable('other', 'done');
    expect(await rowCount()).toBe(50);
  }, 120_000);

  it('reads a MySQL 8 file alone: its own data dictionary defines the table', async () => {
    expect(existsSync(MYSQL8_FILE), `${MYSQL8_FILE} (../shared fixtures) is missing`).toBe(true);
    await clearAll();
    await open([MYSQL8_FILE]);
    await waitForTable('emp', 'done');
    expect(await page.getByTestId('server-hints').textContent()).toMatch(/MySQL 8\.0 or later/);
    expect(await page.getByTestId('definition').textContent()).toMatch(/data dictionary/);
    const count = Number(await page.getByTestId('summary-rows').getAttribute('data-rows'));
    expect(count).toBeGreaterThan(0);
    expect(await rowCount()).toBe(count);
    await shot('15-mysql8-sdi');
  }, 60_000);

  /** The page, loaded (a run of only some tests starts on a blank tab). */
  async function ensureLoaded(): Promise<void> {
    if (!page.url().startsWith(http!.url)) {
      await page.goto(http!.url);
      await page.getByTestId('drop-zone').waitFor();
    }
  }

  /** NDJSON lines, sorted: rows compared as a set (a table read without its B-tree root is in page order). */
  function sortedLines(text: string): string[] {
    return text.split('\n').filter((l) => l !== '').sort();
  }

  it('recovers a table whose pages 0-3 are cut off: scan, pick the clustered index, report what was skipped', async () => {
    await ensureLoaded();
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
    expect(await page.getByTestId('target').textContent()).toMatch(/raw image/);

    // The report: complete after a pass over every leaf, naming what was cut off and the missing root.
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
    const ndjson = await download('NDJSON', 't.ndjson');
    expect(sortedLines(ndjson.toString('utf8'))).toEqual(sortedLines(ndjsonRows(expected.columns, expected.rows)));
  }, 180_000);

  it('guesses the columns of a table with no .sql or .frm; with the true types the rows are the server’s', async () => {
    await ensureLoaded();
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
    expect(await page.getByTestId('definition-guessed').textContent()).toMatch(/guessed/);
    expect(await page.locator('[data-row="0"] [role="gridcell"]').allTextContents()).toEqual(want.rows[0].map(shown));
    // The CREATE TABLE it was read with can be seen (and copied).
    await page.getByTestId('create-sql').locator('summary').click();
    expect(await page.getByTestId('create-sql').locator('pre').textContent()).toMatch(/CREATE TABLE `g`[\s\S]*`price` decimal\(8,2\)/i);
    await shot('18b-guessed-decoded');
    // A filter decodes every page: the recovery report is then complete, with nothing lost.
    await page.getByTestId('filter-text').fill('item 1499');
    await page.getByTestId('filter-text').press('Enter');
    await expect.poll(() => page.getByTestId('filter-result').textContent(), { timeout: 30_000 }).toMatch(/^1 of 1,500 rows/);
    const report = page.locator('[data-testid="recovery-report"][data-complete="true"]');
    await report.waitFor({ timeout: 30_000 });
    expect(await report.locator('[data-testid="report-figure"][data-label="Rows read (live)"]').getAttribute('data-value')).toBe(String(want.rows.length));
    expect(await report.locator('[data-testid="report-figure"][data-label="Records that could not be read"]').getAttribute('data-value')).toBe('0');
    await page.getByTestId('filter-text').fill('');
    await page.getByTestId('filter-text').press('Enter');
    const ndjson = await download('NDJSON', 'g.ndjson');
    expect(ndjson.toString('utf8')).toBe(ndjsonRows(want.columns, want.rows));
  }, 180_000);

  it('lists 300 dropped tables with their exact row counts and exports them all: each CSV is the server’s', async () => {
    // 300 small tables (0 to 4 rows each, awkward text) and one dump with every CREATE TABLE.
    const N = 300;
    let ddl = 'CREATE DATABASE IF NOT EXISTS manydb;\n';
    for (let k = 1; k <= N; k++) {
      ddl += `CREATE TABLE manydb.t${k} (id INT PRIMARY KEY, v VARCHAR(30) NULL) ENGINE=InnoDB;\n`;
      const rows = Array.from({ length: k % 5 }, (_, r) => `(${r + 1}, ${r === 1 ? 'NULL' : sqlString(TEXTS[(k + r) % TEXTS.length]?.slice(0, 30) ?? '')})`);
      if (rows.length > 0) ddl += `INSERT INTO manydb.t${k} VALUES ${rows.join(', ')};\n`;
    }
    await db!.exec(ddl);
    const dir = join(work, 'many300');
    mkdirSync(dir, { recursive: true });
    const want = new Map<string, { rows: number; csv: string }>();
    let dump = '';
    for (let k = 1; k <= N; k++) {
      const name = `t${k}`;
      const exported = await db!.exportTable(name, 'manydb');
      cpSync(exported, join(dir, `${name}.ibd`));
      dump += `${(await db!.query(`SHOW CREATE TABLE ${name}`, 'manydb')).rows[0][1]};\n\n`;
      const sel = await db!.query(`SELECT * FROM ${name} ORDER BY id`, 'manydb');
      want.set(name, { rows: sel.rows.length, csv: csvHeader(sel.columns) + csvRows(sel.rows) });
    }
    writeFileSync(join(dir, 'manydb.sql'), dump);

    await ensureLoaded();
    await clearAll();
    const started = performance.now();
    await open([...Array.from({ length: N }, (_, i) => join(dir, `t${i + 1}.ibd`)), join(dir, 'manydb.sql')]);
    const list = page.getByTestId('table-list');
    await expect.poll(() => list.getAttribute('data-counted'), { timeout: 120_000 }).toBe(String(N));
    const listedS = (performance.now() - started) / 1000;
    expect(await list.getAttribute('data-tables')).toBe(String(N));
    expect(await list.getAttribute('data-failed')).toBe('0');
    // The list is virtualized: only the rows in view are in the DOM.
    expect(await page.locator('[data-testid="table-item"]').count()).toBeLessThan(100);
    await shot('19-many-tables');

    // Every table's count, read off the list while scrolling through it.
    const seen = new Map<string, string>();
    const scroller = page.getByTestId('table-scroll');
    for (let step = 0; step < 200 && seen.size < N; step++) {
      const items = await page.locator('[data-testid="table-item"]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-table') ?? '', e.querySelector('[data-testid="table-rows"]')?.textContent ?? '']));
      for (const [name, rows] of items) seen.set(name, rows);
      await scroller.evaluate((el) => {
        el.scrollTop += el.clientHeight * 0.8;
        el.dispatchEvent(new Event('scroll'));
      });
      await page.waitForTimeout(30);
    }
    expect(seen.size).toBe(N);
    for (const [name, w] of want) expect(seen.get(name), name).toBe(`${w.rows} row${w.rows === 1 ? '' : 's'}`);

    // Export all: one tables.zip with one CSV per table, each equal to the server's SELECT.
    const exportStarted = performance.now();
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByTestId('export-all-zip').click()]);
    expect(dl.suggestedFilename()).toBe('tables.zip');
    const zip = unzipSync(readFileSync((await dl.path())!));
    const exportS = (performance.now() - exportStarted) / 1000;
    expect(Object.keys(zip).length).toBe(N);
    for (const [name, w] of want) expect(new TextDecoder().decode(zip[`${name}.csv`]), name).toBe(w.csv);
    await page.getByTestId('export-all-status').waitFor();
    expect(await page.getByTestId('export-all').getAttribute('data-failed')).toBe('0');
    console.log(`many tables: ${N} listed with exact counts in ${listedS.toFixed(1)} s, all exported in ${exportS.toFixed(1)} s`);
    await db!.exec('DROP DATABASE manydb');
  }, 300_000);

  it('works offline after one visit: reload with the network off and open the sample', async () => {
    await clearAll();
    await context!.setOffline(true);
    try {
      await page.reload();
      await page.getByTestId('drop-zone').waitFor();
      await page.getByTestId('open-sample').click();
      await waitForTable('employees', 'done');
      expect(await rowCount()).toBe(300);
      // Served by the service worker.
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      await shot('16-offline-sample');
    } finally {
      await context!.setOffline(false);
    }
  }, 60_000);

  it('made no request outside the page’s own origin, and logged no errors', () => {
    const origin = new URL(http!.url).origin;
    const foreign = requests.filter((u) => !u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:'));
    expect(foreign).toEqual([]);
    expect(consoleErrors.filter((e) => !/favicon|net::ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
  });
});
