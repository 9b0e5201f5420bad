/**
 * End-to-end test of the BUILT page (dist/, made by `npx vite build`; `npm test` builds first).
 *
 * A real MariaDB (test/harness/mariadb.ts) creates and fills a table, exports its .ibd; the page,
 * served from dist/ by a tiny static server and driven in headless Chromium, is given the .ibd and a
 * .sql holding the table's SHOW CREATE TABLE. The CSV the page downloads must equal the CSV built
 * (with the same src/core/output.ts rules) from the server's own `SELECT * ... ORDER BY pk`.
 * Bad input (random bytes, a PNG) must give a readable error on the page, which must stay usable.
 *
 * Screenshots of the main states go to test-results/screenshots/ (gitignored).
 */
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { csvHeader, csvRows } from '../../src/core/output.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The built site; IBD_READER_DIST points elsewhere (e.g. a trial build). */
const DIST = process.env.IBD_READER_DIST ?? join(ROOT, 'dist');
const SHOTS = join(ROOT, 'test-results', 'screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROWS = 3000;
/** Rows of the table whose decode is cancelled half-way. */
const BIG_ROWS = 400_000;

// ---------------------------------------------------------------------------------------------
// Static server for dist/
// ---------------------------------------------------------------------------------------------

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.sql': 'text/plain; charset=utf-8',
  '.ibd': 'application/octet-stream',
};

function serveDist(root: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    readFile(file).then(
      (body) => {
        res.writeHead(200, {
          'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
          'Cache-Control': 'no-store',
        });
        res.end(body);
      },
      () => res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found'),
    );
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      ok({ server, url: `http://127.0.0.1:${port}/` });
    });
  });
}

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
  return `(${pk}, ${n}, ${s}, ${d}, ${dt}, ${u})`;
}

const CREATE = `CREATE TABLE t (
  pk INT NOT NULL,
  n BIGINT NULL,
  s VARCHAR(120) CHARACTER SET utf8mb4 NULL,
  d DECIMAL(12,3) NULL,
  dt DATETIME(6) NULL,
  u TINYINT UNSIGNED NULL,
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

/** What the grid shows for a value. */
function shown(v: string | null): string {
  return v === null ? 'NULL' : v.replace(/\r\n|\n|\r/g, '↵');
}

// ---------------------------------------------------------------------------------------------

describe('the built page, against a real MariaDB table', () => {
  let db: MariadbServer | undefined;
  let http: { server: Server; url: string } | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let work: string;
  let userData: string;
  let ibdPath: string;
  let sqlPath: string;
  let expected: { columns: string[]; rows: (string | null)[][] };
  const requests: string[] = [];
  const consoleErrors: string[] = [];

  async function shot(name: string): Promise<void> {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  async function waitForPhase(phase: string, timeout = 60_000): Promise<void> {
    await page.locator(`[data-testid="app"][data-phase="${phase}"]`).waitFor({ timeout });
  }

  beforeAll(async () => {
    if (!existsSync(join(DIST, 'index.html'))) {
      throw new Error(
        `${join(DIST, 'index.html')} is missing: build the page first (\`npx vite build\`; \`npm test\` does it).`,
      );
    }
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH).`);
    mkdirSync(SHOTS, { recursive: true });
    work = mkdtempSync(join(tmpdir(), 'ibd-app-test-'));
    userData = join(work, 'chromium-profile');

    const [server, db0] = await Promise.all([serveDist(resolve(DIST)), startMariadb()]);
    http = server;
    db = db0;
    await db.exec(`${CREATE};\n${insertScript()}`);
    expected = await db.query('SELECT * FROM t ORDER BY pk');
    expect(expected.rows).toHaveLength(ROWS);
    const create = await db.query('SHOW CREATE TABLE t');
    sqlPath = join(work, 't.sql');
    writeFileSync(sqlPath, `-- schema of t\n${create.rows[0][1]};\n`);
    const exported = await db.exportTable('t');
    ibdPath = join(work, 't.ibd');
    writeFileSync(ibdPath, readFileSync(exported));

    context = await chromium.launchPersistentContext(userData, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
      acceptDownloads: true,
      viewport: { width: 1280, height: 900 },
      colorScheme: 'light',
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
  }, 180_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await new Promise<void>((ok) => (http ? http.server.close(() => ok()) : ok()));
    await db?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('loads with the drop zone and the privacy note', async () => {
    await page.goto(http!.url);
    await expect.poll(() => page.locator('[data-testid="app"]').getAttribute('data-phase')).toBe('idle');
    const privacy = await page.locator('[data-testid="privacy"]').textContent();
    expect(privacy).toMatch(/never uploaded/i);
    await expect.poll(() => page.getByRole('button', { name: 'Open sample' }).isVisible()).toBe(true);
    await shot('01-idle');
  });

  it('decodes the .ibd with its .sql, shows first and last rows, and downloads the same CSV', async () => {
    await page.locator('[data-testid="file-input"]').setInputFiles([ibdPath, sqlPath]);
    await waitForPhase('done');

    const count = await page.locator('[data-testid="row-count"]').getAttribute('data-count');
    expect(Number(count)).toBe(ROWS);
    expect(await page.locator('[data-testid="row-format"]').textContent()).toMatch(/DYNAMIC|COMPACT|REDUNDANT/);
    expect(Number(await page.locator('[data-testid="tree-height"]').textContent())).toBeGreaterThanOrEqual(1);
    expect(await page.locator('[data-testid="error"]').count()).toBe(0);

    // Header and first row.
    const header = await page.locator('[role="columnheader"]').allTextContents();
    expect(header.slice(1)).toEqual(expected.columns);
    const first = await page.locator('[data-row="0"] [role="cell"]').allTextContents();
    expect(first).toEqual(expected.rows[0].map(shown));
    await shot('02-decoded');

    // NULL is shown distinctly from the empty string.
    const nullIdx = expected.rows.findIndex((r, i) => i < 20 && r.includes(null));
    expect(nullIdx).toBeGreaterThanOrEqual(0);
    const col = expected.rows[nullIdx].indexOf(null);
    const cell = page.locator(`[data-row="${nullIdx}"] [role="cell"]`).nth(col);
    expect(await cell.getAttribute('class')).toMatch(/\bnull\b/);

    // Last row: scroll the grid to the bottom.
    const grid = page.locator('[data-testid="grid"]');
    await grid.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    const lastRow = page.locator(`[data-row="${ROWS - 1}"]`);
    await lastRow.waitFor({ timeout: 10_000 });
    expect(await lastRow.locator('[role="cell"]').allTextContents()).toEqual(expected.rows[ROWS - 1].map(shown));
    // Only a window of rows is in the DOM.
    expect(await page.locator('[data-row]').count()).toBeLessThan(100);
    await shot('03-scrolled-to-end');

    // Download CSV.
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 30_000 }),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('t.csv');
    const path = await download.path();
    const csv = readFileSync(path, 'utf8');
    const want = csvHeader(expected.columns) + csvRows(expected.rows);
    if (csv !== want) {
      // Point at the first differing line rather than dumping two 300 KB strings.
      const got = csv.split('\n');
      const exp = want.split('\n');
      const i = exp.findIndex((line, k) => line !== got[k]);
      expect(got[i], `CSV differs first at line ${i + 1} (of ${exp.length - 1})`).toBe(exp[i]);
      expect(got.length, 'CSV line count').toBe(exp.length);
    }
    expect(csv).toBe(want);
  }, 120_000);

  it('looks right in the dark theme', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('[data-testid="grid"]').evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.locator('[data-row="0"]').waitFor();
    await shot('04-decoded-dark');
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('shows a readable error for a file that is not InnoDB, and stays usable', async () => {
    const junk = join(work, 'broken.ibd');
    writeFileSync(junk, junkBytes(5 * 16384));
    await page.locator('[data-testid="file-input"]').setInputFiles([junk, sqlPath]);
    await waitForPhase('error');
    const alert = page.locator('[data-testid="error"]');
    expect(await alert.getAttribute('role')).toBe('alert');
    const message = (await alert.locator('.message').textContent()) ?? '';
    expect(message).toContain('broken.ibd');
    expect(message.length).toBeGreaterThan('broken.ibd'.length + 10);
    expect(message).not.toMatch(/undefined|\[object |TypeError|at .*\.js:\d+/);
    await shot('05-error-random-bytes');

    const png = join(work, 'picture.png');
    writeFileSync(png, TINY_PNG);
    await page.locator('[data-testid="file-input"]').setInputFiles([png, sqlPath]);
    await waitForPhase('error');
    expect(await page.locator('[data-testid="error"] .message').textContent()).toContain('picture.png');
    await shot('06-error-png');

    // Still usable: the good files decode again.
    await page.locator('[data-testid="file-input"]').setInputFiles([ibdPath, sqlPath]);
    await waitForPhase('done');
    expect(Number(await page.locator('[data-testid="row-count"]').getAttribute('data-count'))).toBe(ROWS);
    expect(await page.locator('[data-testid="error"]').count()).toBe(0);
  }, 120_000);

  it('takes files dropped on the drop zone or anywhere on the page', async () => {
    const files = [ibdPath, sqlPath].map((p) => ({
      name: p.slice(p.lastIndexOf('/') + 1),
      base64: readFileSync(p).toString('base64'),
    }));
    for (const target of ['[data-testid="drop-zone"]', 'footer']) {
      await page.getByRole('button', { name: 'Clear' }).click();
      await waitForPhase('idle');
      await page.evaluate(
        ({ files, target }) => {
          const dt = new DataTransfer();
          for (const f of files) {
            const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
            dt.items.add(new File([bytes], f.name));
          }
          const el = document.querySelector(target)!;
          el.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true, cancelable: true }));
          el.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
          el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
        },
        { files, target },
      );
      await waitForPhase('done');
      expect(Number(await page.locator('[data-testid="row-count"]').getAttribute('data-count'))).toBe(ROWS);
    }
  }, 120_000);

  it('asks which table when the .sql has several and none is named like the .ibd', async () => {
    const dump = join(work, 'dump.sql');
    const create = readFileSync(sqlPath, 'utf8');
    writeFileSync(
      dump,
      `-- mysqldump-like file\nCREATE TABLE other (id INT PRIMARY KEY, x TEXT) ENGINE=InnoDB;\n${create}\n` +
        `INSERT INTO other VALUES (1, 'a');\n`,
    );
    const renamed = join(work, 'renamed.ibd');
    writeFileSync(renamed, readFileSync(ibdPath));
    await page.locator('[data-testid="file-input"]').setInputFiles([renamed, dump]);
    await waitForPhase('choosing');
    const select = page.getByLabel('Table', { exact: true });
    expect(await select.locator('option').allTextContents()).toEqual([
      expect.stringMatching(/^other\b/),
      expect.stringMatching(/^t\b/),
    ]);
    await shot('07-choose-table');
    await select.selectOption('t');
    await page.getByRole('button', { name: 'Read rows' }).click();
    await waitForPhase('done');
    expect(Number(await page.locator('[data-testid="row-count"]').getAttribute('data-count'))).toBe(ROWS);
  }, 120_000);

  it('cancels a long decode, keeps the rows read so far, and stays usable', async () => {
    await db!.exec(
      `CREATE TABLE big (id INT NOT NULL PRIMARY KEY, txt VARCHAR(200) NOT NULL) ENGINE=InnoDB;
       INSERT INTO big SELECT seq, CONCAT('row ', seq, ' ', REPEAT('x', 120)) FROM seq_1_to_${BIG_ROWS};`,
    );
    const bigSql = join(work, 'big.sql');
    writeFileSync(bigSql, `${(await db!.query('SHOW CREATE TABLE big')).rows[0][1]};\n`);
    const bigIbd = join(work, 'big.ibd');
    writeFileSync(bigIbd, readFileSync(await db!.exportTable('big')));

    await page.locator('[data-testid="file-input"]').setInputFiles([bigIbd, bigSql]);
    await page.locator('[data-testid="row-count"]:not([data-count="0"])').waitFor({ timeout: 60_000 });
    await shot('08-decoding');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await waitForPhase('cancelled', 10_000);
    const kept = Number(await page.locator('[data-testid="row-count"]').getAttribute('data-count'));
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(BIG_ROWS);
    expect(await page.locator('[data-row="0"] [role="cell"]').first().textContent()).toBe('1');
    // Once cancelled, the count no longer moves.
    await page.waitForTimeout(500);
    expect(Number(await page.locator('[data-testid="row-count"]').getAttribute('data-count'))).toBe(kept);
    await shot('09-cancelled');

    await page.locator('[data-testid="file-input"]').setInputFiles([ibdPath, sqlPath]);
    await waitForPhase('done');
    expect(Number(await page.locator('[data-testid="row-count"]').getAttribute('data-count'))).toBe(ROWS);
  }, 180_000);

  it.skipIf(!existsSync(join(DIST, 'sample', 'employees.ibd')))('opens the bundled sample', async () => {
    await page.getByRole('button', { name: 'Open sample' }).click();
    await waitForPhase('done');
    expect(Number(await page.locator('[data-testid="row-count"]').getAttribute('data-count'))).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="error"]').count()).toBe(0);
    await shot('10-sample');
  }, 120_000);

  it('made no request outside the page’s own origin', () => {
    const origin = new URL(http!.url).origin;
    const foreign = requests.filter((u) => !u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:'));
    expect(foreign).toEqual([]);
    expect(consoleErrors.filter((e) => !/favicon/.test(e))).toEqual([]);
  });
});
