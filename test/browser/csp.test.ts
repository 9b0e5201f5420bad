/**
 * The page's Content-Security-Policy (the <meta http-equiv> in index.html: a static page has no
 * headers to carry it), checked in the BUILT page (dist/, made by `npm run build`) in the machine's
 * headless Chromium:
 *
 *  - dist/index.html carries the policy, ahead of every script and style it loads;
 *  - the page does its work under it — loads, installs its service worker, opens the bundled sample,
 *    scrolls the grid, shows a value, exports CSV (streamed through the service worker), and again
 *    after a reload served by the service worker — with no CSP violation reported
 *    (`securitypolicyviolation`), no console error, and no request to another origin;
 *  - the browser enforces it: an inline script and a fetch to another origin are refused (and
 *    reported, which shows the watch above sees violations), in the page and in its decoder workers.
 */
import type { Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { checkSetup, DIST, launch, pageSteps, ROOT, serveDist } from './harness.ts';

/** Another origin (a closed loopback port): the probe the policy must refuse before any connection. */
const FOREIGN_PROBE = 'http://127.0.0.1:9/csp-probe';

interface Violation {
  directive: string;
  blocked: string;
  source: string;
}

/** The directives of a policy string: name → its source list. */
function parsePolicy(policy: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out.set(name.toLowerCase(), sources);
  }
  return out;
}

/** The policy of an HTML document's CSP <meta>, and where it stands in the document. */
function metaPolicy(html: string): { policy: string; at: number } | null {
  const m = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/i.exec(html);
  return m ? { policy: m[1], at: m.index } : null;
}

describe('the Content-Security-Policy of the built page', () => {
  let http: { server: Server; url: string } | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let work: string;
  let origin: string;
  const violations: Violation[] = [];
  const consoleErrors: string[] = [];
  const requests = new Set<string>();

  const foreign = () => [...requests].filter((u) => !u.startsWith(origin + '/') && !u.startsWith('blob:') && !u.startsWith('data:'));

  async function openSample(): Promise<void> {
    await page.getByTestId('open-sample').click();
    await page.locator('[data-testid="table-item"][data-table="employees"][data-state="done"]').waitFor({ timeout: 60_000 });
    expect(Number(await page.getByTestId('row-count').getAttribute('data-count'))).toBe(300);
  }

  beforeAll(async () => {
    checkSetup();
    work = mkdtempSync(join(tmpdir(), 'ibd-csp-test-'));
    http = await serveDist(resolve(DIST));
    origin = new URL(http.url).origin;
    context = await launch(join(work, 'chromium-profile'));
    // Every request of the context: its pages, their workers and (Chromium) the service worker.
    context.on('request', (r) => requests.add(r.url()));
    await context.exposeBinding('__cspViolation', (_source, v: Violation) => void violations.push(v));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        const report = (window as unknown as { __cspViolation: (v: Violation) => void }).__cspViolation;
        void report({ directive: e.effectiveDirective, blocked: e.blockedURI, source: `${e.sourceFile}:${e.lineNumber}` });
      });
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('request', (r) => requests.add(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
  }, 120_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await new Promise<void>((ok) => (http ? http.server.close(() => ok()) : ok()));
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('is in dist/index.html, ahead of every script and style, and allows the page’s own origin only', () => {
    const html = readFileSync(join(DIST, 'index.html'), 'utf8');
    const meta = metaPolicy(html);
    expect(meta, 'a CSP <meta http-equiv> in dist/index.html').not.toBeNull();
    for (const tag of [/<script\b/i, /<link\b[^>]*rel="(stylesheet|modulepreload|manifest)"/i, /<style\b/i]) {
      const at = html.search(tag);
      if (at >= 0) expect(meta!.at, `the policy comes before ${tag}`).toBeLessThan(at);
    }
    const p = parsePolicy(meta!.policy);
    expect(p.get('default-src')).toEqual(["'self'"]);
    expect(p.get('connect-src')).toEqual(["'self'"]);
    expect(p.get('worker-src')).toEqual(["'self'", 'blob:']);
    expect(p.get('object-src')).toEqual(["'none'"]);
    for (const [name, sources] of p) {
      // Nothing of another origin, nothing inline, no eval.
      for (const s of sources) expect(["'self'", "'none'", 'blob:'], `${name} ${s}`).toContain(s);
    }
  });

  it('loads under it and its service worker takes control of the page', async () => {
    await page.goto(http!.url);
    await page.getByTestId('drop-zone').waitFor();
    await page.locator('[data-testid="offline-status"][data-ready="true"]').waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    // The page's styles applied (an external stylesheet: style-src 'self').
    expect(await page.evaluate(() => document.styleSheets.length)).toBeGreaterThan(0);
    expect(await page.evaluate(() => getComputedStyle(document.body).margin)).toBe('0px');
  });

  it('opens the sample, scrolls, shows a value and exports CSV under it', async () => {
    await openSample();
    const grid = page.getByTestId('grid');
    await grid.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    const last = page.locator('[data-row="299"]');
    await last.waitFor({ timeout: 10_000 });
    await last.locator('[data-col="1"]').click();
    await page.getByTestId('cell-panel').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('cell-panel').waitFor({ state: 'detached' });
    await grid.evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.locator('[data-row="0"]').waitFor();

    // CSV, streamed through the service worker (a same-origin frame carries the download's request).
    await pageSteps(() => page).panel('export');
    await page.getByRole('radio', { name: 'CSV', exact: true }).check();
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId('download').click()]);
    expect(dl.suggestedFilename()).toBe('employees.csv');
    await page.locator('[data-testid="export-progress"][data-state="done"][data-target="stream"]').waitFor({ timeout: 30_000 });
    expect(readFileSync(await dl.path(), 'utf8')).toBe(readFileSync(join(ROOT, 'test/fixtures/sample-employees.csv'), 'utf8'));
    await page.getByRole('button', { name: 'OK', exact: true }).click();
  }, 120_000);

  it('holds in the page the service worker serves: reload and open the sample again', async () => {
    const response = await page.reload();
    expect(response?.fromServiceWorker(), 'the page came from the service worker’s cache').toBe(true);
    await page.getByTestId('drop-zone').waitFor();
    await openSample();
  }, 120_000);

  it('was never violated, and nothing was asked of another origin; the browser refuses what it forbids', async () => {
    expect(violations, 'CSP violations reported by the page').toEqual([]);
    expect(consoleErrors, 'console errors').toEqual([]);
    expect(foreign(), 'requests to another origin').toEqual([]);
    expect(requests.size, 'requests seen').toBeGreaterThan(5);

    // The policy is in force: each probe is refused and reported.
    const ran = await page.evaluate(async (probe) => {
      const w = window as unknown as { __inlineRan?: boolean };
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.head.append(s);
      let fetched = true;
      await fetch(probe).catch(() => (fetched = false));
      return { inline: w.__inlineRan === true, fetched };
    }, FOREIGN_PROBE);
    expect(ran).toEqual({ inline: false, fetched: false });
    await expect.poll(() => violations.map((v) => v.directive).sort(), { timeout: 5_000 }).toEqual(['connect-src', 'script-src-elem']);
    expect(violations.find((v) => v.directive === 'connect-src')?.blocked).toBe(FOREIGN_PROBE);
    // The violation detection sees what Chromium logs: each refusal is a console error too.
    await expect.poll(() => consoleErrors.filter((e) => /Content Security Policy/.test(e)).length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    console.log(`csp: ${requests.size} requests, all same-origin; probes refused: ${violations.map((v) => v.directive).join(', ')}; probe seen as a request: ${requests.has(FOREIGN_PROBE)}`);
  }, 60_000);
  it('binds the decoder workers too: they start from a blob: script and refuse a request to another origin', async () => {
    // A worker started from a same-origin URL would take its policy from that script's (absent)
    // headers; one started from blob: inherits the page's, which is what workers/decoder-connection.ts does.
    const decoders = page.workers().filter((w) => w.url().startsWith('blob:'));
    expect(decoders.length, 'decoder workers started from blob: scripts').toBeGreaterThan(0);
    const verdict = await decoders[0].evaluate(async (probe) => {
      const seen = new Promise<string | null>((ok) => {
        self.addEventListener('securitypolicyviolation', (e) => ok(e.effectiveDirective), { once: true });
        setTimeout(() => ok(null), 5_000);
      });
      let fetched = true;
      await fetch(probe).catch(() => (fetched = false));
      return { fetched, directive: await seen };
    }, FOREIGN_PROBE);
    expect(verdict).toEqual({ fetched: false, directive: 'connect-src' });
  }, 60_000);
});
