/**
 * Issue 38 in the page: the datadirs of bench/datadir-scale.ts, set on the built page's folder input
 * in a fresh headless Chromium each: the time to the first table listed, to every table listed (the
 * listing's progress line gone), with the renderer's peak memory and the main thread's JS heap
 * (MemorySampler, bench/browser.ts); the live one's (50,000 .frm beside) also to every live table named
 * (the dictionary's, before their .frm are read); then, on each, "Export all tables" as tables.zip and
 * as tables.sql until the download: its time, the renderer's CPU seconds and peak memory during it, the
 * files or tables the download holds and those not written (with the first reasons). Not in npm test:
 * `npm run bench -- --only datadir`. With IBD_BENCH_PROFILE=DIR, a CPU profile of the page's main
 * thread (its workers not in it) from the files set until every table is listed, written into DIR
 * (`datadir-N-live.cpuprofile`: Chromium's DevTools open it).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { findBrowserPid, FLAGS, MemorySampler, serveStatic } from './browser.ts';
import { cliRuns, datadirs } from './datadir-scale.ts';

const LISTING_TIMEOUT_MS = 30 * 60_000;

/** What a download of "Export all tables" holds: a .zip's entries (its end of central directory), a .sql's tables. */
function written(file: string, kind: 'zip' | 'sql'): string {
  const bytes = readFileSync(file);
  if (kind === 'sql') return `${bytes.length >> 20} MiB, ${bytes.toString('latin1').match(/^CREATE TABLE /gm)?.length ?? 0} CREATE TABLE`;
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  return `${bytes.length >> 20} MiB, ${end < 0 ? '?' : bytes.readUInt16LE(end + 10)} files`;
}

/** "Export all tables" as tables.zip or tables.sql, clicked on a listed page, until the download: its time, renderer CPU and peaks, what it holds and what was not written. */
async function exportAll(page: Page, sampler: MemorySampler, kind: 'zip' | 'sql'): Promise<string> {
  await sampler.sample();
  sampler.resetPeaks();
  const cpu = sampler.rendererCpuS;
  const started = performance.now();
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: LISTING_TIMEOUT_MS }), page.getByTestId(`export-all-${kind}`).click()]);
  const file = await download.path();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  await sampler.sample();
  const failed = await page.getByTestId('export-all').getAttribute('data-failed');
  const problems = failed === '0' ? [] : await page.getByTestId('export-all-problems').locator('li').allTextContents();
  const why = problems.length > 0 ? ` (${problems.slice(0, 2).join('; ')}${problems.length > 2 ? ' …' : ''})` : '';
  return `page: Export all tables (tables.${kind})\t${seconds} s (renderer ${(sampler.rendererCpuS - cpu).toFixed(1)} CPU-s), ${written(file, kind)}, ${failed ?? '?'} not written${why}\trenderer peak ${sampler.rendererPeakMb.toFixed(0)} MB (own ${sampler.rendererOwnPeakMb.toFixed(0)} MB), main-thread heap peak ${sampler.jsHeapPeakMb.toFixed(0)} MB, all Chromium ${sampler.chromiumPeakMb.toFixed(0)} MB`;
}

/** The page's listing of `dir` (a datadir folder, `which` of the bench's two), then its "Export all tables" as tables.zip and as tables.sql; a line each. */
export async function pageRuns(site: string, chromiumPath: string, dir: string, n: number, which: 'live' | 'dropped'): Promise<string[]> {
  const what = which === 'live' ? `${n} tables (live, their .frm beside)` : `${n} tables (all dropped)`;
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
    const profileDir = process.env.IBD_BENCH_PROFILE;
    if (profileDir) await cdp.send('Profiler.enable').then(() => cdp.send('Profiler.start'));
    const started = performance.now();
    const since = () => ((performance.now() - started) / 1000).toFixed(1);
    await page.locator('[data-testid="folder-input"]').setInputFiles(dir, { timeout: LISTING_TIMEOUT_MS });
    await page.locator('[data-testid="table-item"]').first().waitFor({ timeout: LISTING_TIMEOUT_MS });
    const first = since();
    await sampler.sample();
    const firstCpu = sampler.rendererCpuS;
    const named = which === 'live' ? ` (renderer ${firstCpu.toFixed(1)} CPU-s), ${await page.getByTestId('table-list').getAttribute('data-tables')} on the list then (${await page.getByTestId('table-list').getAttribute('data-pending')} named, their .frm to come)` : '';
    await page.getByTestId('listing-progress').waitFor({ state: 'detached', timeout: LISTING_TIMEOUT_MS });
    const listed = await page.getByTestId('table-list').getAttribute('data-tables');
    if (profileDir) writeFileSync(join(profileDir, `datadir-${n}-${which}.cpuprofile`), JSON.stringify((await cdp.send('Profiler.stop')).profile));
    await sampler.sample();
    lines.push(`${what}\tpage: listing\tfirst after ${first} s${named}, ${listed} listed after ${since()} s (renderer ${sampler.rendererCpuS.toFixed(1)} CPU-s)\trenderer peak ${sampler.rendererPeakMb.toFixed(0)} MB, main-thread heap peak ${sampler.jsHeapPeakMb.toFixed(0)} MB`);
    process.stdout.write(`${lines[lines.length - 1]}\n`);
    for (const kind of ['zip', 'sql'] as const) {
      lines.push(`${what}\t${await exportAll(page, sampler, kind)}`);
      process.stdout.write(`${lines[lines.length - 1]}\n`);
    }
  } catch (err) {
    lines.push(`${what}\tpage: FAILED: ${(err as Error).message.split('\n')[0]}`);
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
  const dirs = await datadirs(root, n);
  const page = browser ? [...(await pageRuns(built.site, chromiumPath, dirs.live, n, 'live')), ...(await pageRuns(built.site, chromiumPath, dirs.dropped, n, 'dropped'))] : [];
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
