/**
 * Issue 38 in the page: the datadir of bench/datadir-scale.ts whose tables were all dropped, set on
 * the built page's folder input in a fresh headless Chromium: the time to the first table listed, to
 * every table listed (the listing's progress line gone) and "Export all tables" (tables.zip) until
 * the download, with the renderer's peak memory (MemorySampler, bench/browser.ts). Not in npm test:
 * `npm run bench -- --only datadir`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { findBrowserPid, FLAGS, MemorySampler, serveStatic } from './browser.ts';
import { cliRuns, datadirs } from './datadir-scale.ts';

const LISTING_TIMEOUT_MS = 30 * 60_000;

/** The page's listing and export of `dir` (a datadir folder), a line each. */
async function pageRuns(site: string, chromiumPath: string, dir: string, n: number): Promise<string[]> {
  const http = await serveStatic(site);
  const profile = mkdtempSync(join(tmpdir(), 'ibd-bench-datadir-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath, headless: true, args: FLAGS, acceptDownloads: true, viewport: { width: 1400, height: 900 } });
  const lines: string[] = [];
  let sampler: MemorySampler | null = null;
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(http.url);
    await page.locator('[data-testid="app"]').waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    sampler = new MemorySampler(cdp, findBrowserPid(profile));
    sampler.start();
    const started = performance.now();
    const since = () => ((performance.now() - started) / 1000).toFixed(1);
    await page.locator('[data-testid="folder-input"]').setInputFiles(dir, { timeout: LISTING_TIMEOUT_MS });
    await page.locator('[data-testid="table-item"]').first().waitFor({ timeout: LISTING_TIMEOUT_MS });
    const first = since();
    await page.getByTestId('listing-progress').waitFor({ state: 'detached', timeout: LISTING_TIMEOUT_MS });
    const listed = await page.getByTestId('table-list').getAttribute('data-tables');
    lines.push(`${n} tables (all dropped)\tpage: listing\tfirst after ${first} s, ${listed} listed after ${since()} s\trenderer peak ${sampler.rendererPeakMb.toFixed(0)} MB`);
    process.stdout.write(`${lines[lines.length - 1]}\n`);
    const exportStarted = performance.now();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: LISTING_TIMEOUT_MS }), page.getByTestId('export-all-zip').click()]);
    await download.path();
    const failed = await page.getByTestId('export-all').getAttribute('data-failed');
    await sampler.sample();
    lines.push(`${n} tables (all dropped)\tpage: Export all tables (tables.zip)\t${((performance.now() - exportStarted) / 1000).toFixed(1)} s, ${failed ?? '?'} not written\trenderer peak ${sampler.rendererPeakMb.toFixed(0)} MB`);
    process.stdout.write(`${lines[lines.length - 1]}\n`);
  } catch (err) {
    lines.push(`${n} tables (all dropped)\tpage: FAILED: ${(err as Error).message.split('\n')[0]}`);
  } finally {
    sampler?.stop();
    await context.close().catch(() => undefined);
    await new Promise<void>((ok) => http.server.close(() => ok()));
    rmSync(profile, { recursive: true, force: true });
  }
  return lines;
}

/** The datadir bench's section of the report: the CLI's runs, then the page's (unless `browser` is false). */
export async function benchDatadir(root: string, built: { cli: string; site: string }, chromiumPath: string, n: number, browser: boolean): Promise<string[]> {
  const cli = await cliRuns(root, built.cli, n);
  const page = browser ? await pageRuns(built.site, chromiumPath, (await datadirs(root, n)).dropped, n) : [];
  return [
    `## The seed's datadir: ${n.toLocaleString('en-US')} one-row tables inside ibdata1 (issue 38)`,
    '',
    'Live (with their .frm) and after every table was dropped and a slow shutdown (bench/datadir-scale.ts, made once). undrop-for-innodb took 10.5 minutes for 50,000 dropped tables (issue 38).',
    '',
    '```',
    ...cli,
    ...page,
    '```',
  ];
}
