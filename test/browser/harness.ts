/**
 * What the browser tests share: the built site (dist/, from `npm run build`) served over HTTP, the
 * machine's headless Chromium (playwright-core) with a fresh profile, a session of both that sees
 * every request and console error, and the steps every test takes on the page (open files, wait for
 * a table, read the row count, download an export, screenshots).
 */
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The built site; IBD_READER_DIST points elsewhere (e.g. a trial build). */
export const DIST = process.env.IBD_READER_DIST ?? join(ROOT, 'dist');
export const SHOTS = join(ROOT, 'test-results', 'screenshots');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
  '.json': 'application/json',
  '.map': 'application/json',
  '.sql': 'text/plain; charset=utf-8',
  '.ibd': 'application/octet-stream',
};

/** Serves `root` (dist/) on a free port of 127.0.0.1. */
export function serveDist(root: string): Promise<{ server: Server; url: string }> {
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
        res.writeHead(200, { 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
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

/** Checks that the site is built and Chromium is there; makes the screenshot folder. */
export function checkSetup(): void {
  if (!existsSync(join(DIST, 'index.html'))) {
    throw new Error(`${join(DIST, 'index.html')} is missing: build the page first (\`npm run build\`; \`npm test\` does it).`);
  }
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH).`);
  mkdirSync(SHOTS, { recursive: true });
}

/** Headless Chromium with a fresh profile in `userData`, downloads accepted. */
export function launch(userData: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userData, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    acceptDownloads: true,
    viewport: { width: 1360, height: 900 },
    colorScheme: 'light',
  });
}

/** The built page in a fresh Chromium, for one test file: what it requested and what it logged as errors. */
export interface Session {
  url: string;
  context: BrowserContext;
  page: Page;
  requests: string[];
  consoleErrors: string[];
  close(): Promise<void>;
}

/** Serves dist/ and starts Chromium on a fresh profile in `userData` (its page still blank). */
export async function startSession(userData: string): Promise<Session> {
  const http = await serveDist(resolve(DIST));
  const context = await launch(userData);
  const page = context.pages()[0] ?? (await context.newPage());
  const requests: string[] = [];
  const consoleErrors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  return {
    url: http.url,
    context,
    page,
    requests,
    consoleErrors,
    async close() {
      await context.close().catch(() => undefined);
      await new Promise<void>((ok) => http.server.close(() => ok()));
    },
  };
}

/** Loads the page and waits until its service worker controls it (downloads stream through it). */
export async function loadPage(session: Session): Promise<void> {
  await session.page.goto(session.url);
  await session.page.getByTestId('drop-zone').waitFor();
  await session.page.locator('[data-testid="offline-status"][data-ready="true"]').waitFor({ timeout: 30_000 });
  await session.page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
}

/** The check a test file ends with: no request left the page's own origin, and no error was logged. */
export function expectOwnOriginOnly(session: Session): void {
  const origin = new URL(session.url).origin;
  const foreign = session.requests.filter((u) => !u.startsWith(origin) && !u.startsWith('blob:') && !u.startsWith('data:'));
  expect(foreign).toEqual([]);
  expect(session.consoleErrors.filter((e) => !/favicon|net::ERR_INTERNET_DISCONNECTED/.test(e))).toEqual([]);
}

/** What the grid shows for a value (long values are cut; the viewer has them whole). */
export function shown(v: string | null): string {
  if (v === null) return 'NULL';
  const cut = v.length > 240;
  const text = (cut ? v.slice(0, 240) : v).replace(/\r\n|\n|\r/g, '↵').replace(/\t/g, '⇥');
  return cut ? text + '…' : text;
}

/** The steps a test takes on the page (`page()`: the page as it is now). */
export function pageSteps(page: () => Page) {
  /**
   * Opens the table view's panel `name` (definition, pages, recovery, export): a tab once the table
   * shows rows (the grid comes first); before, every panel is shown and there is nothing to open.
   */
  async function panel(name: 'definition' | 'pages' | 'recovery' | 'export' | 'transactions'): Promise<void> {
    const tab = page().locator(`[data-testid="panel-tab"][data-panel="${name}"]`);
    if ((await tab.count()) === 0 || (await tab.getAttribute('aria-expanded')) === 'true') return;
    await tab.click();
    await page().locator(`[data-testid="view-panel"][data-panel="${name}"]`).waitFor();
  }

  return {
    async shot(name: string): Promise<void> {
      await page().screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    },

    /** Table `name`'s entry in the list, once it reached `state`. */
    async waitForTable(name: string, state: string, timeout = 60_000): Promise<void> {
      await page().locator(`[data-testid="table-item"][data-table="${name}"][data-state="${state}"]`).waitFor({ timeout });
    },

    async rowCount(): Promise<number> {
      return Number(await page().locator('[data-testid="row-count"]').getAttribute('data-count'));
    },

    async clearAll(): Promise<void> {
      const button = page().getByTestId('clear-all');
      if (await button.count()) await button.click();
      await page().locator('[data-testid="table-item"]').first().waitFor({ state: 'detached' });
    },

    panel,

    async open(paths: string[]): Promise<void> {
      await page().locator('[data-testid="file-input"]').setInputFiles(paths);
    },

    /**
     * Clicks Download and returns the saved file's bytes. The service worker controls the page (each
     * suite waits for it first: loadPage), so the download is streamed through it (src/sw/download-stream.ts).
     */
    /**
     * `done`: looks at the finished export before it is dismissed. 'NDJSON strings': every value a string (the checkbox).
     * `timeout`: for the download to start and the export to end (a sorted export sorts first).
     */
    async download(format: 'CSV' | 'NDJSON' | 'NDJSON strings' | 'SQL' | 'Parquet', expectName: string, done?: (progress: Locator) => Promise<void>, timeout = 120_000): Promise<Buffer> {
      const p = page();
      await panel('export');
      await p.getByRole('radio', { name: format.replace(' strings', ''), exact: true }).check();
      if (format.startsWith('NDJSON')) await p.getByTestId('json-strings').setChecked(format === 'NDJSON strings');
      const [dl] = await Promise.all([
        p.waitForEvent('download', { timeout }),
        p.getByTestId('download').click(),
      ]);
      expect(dl.suggestedFilename()).toBe(expectName);
      await p.locator('[data-testid="export-progress"][data-state="done"][data-target="stream"]').waitFor({ timeout });
      const bytes = readFileSync(await dl.path());
      await done?.(p.getByTestId('export-progress'));
      await p.getByRole('button', { name: 'OK', exact: true }).click();
      return bytes;
    },

    /** "Export all tables" as `tables.zip` or `tables.sql` (the buttons beside the list): the file's bytes. */
    async exportAll(kind: 'zip' | 'sql', timeout = 120_000): Promise<Buffer> {
      const p = page();
      const [dl] = await Promise.all([p.waitForEvent('download', { timeout }), p.getByTestId(`export-all-${kind}`).click()]);
      expect(dl.suggestedFilename()).toBe(`tables.${kind}`);
      return readFileSync(await dl.path());
    },
  };
}
