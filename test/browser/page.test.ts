/**
 * End-to-end tests of the BUILT page (dist/, made by `npm run build`; `npm test` builds first), in the
 * machine's headless Chromium (playwright-core): the page itself, with no server of ours behind it.
 *
 *  - it loads with the drop zone and the privacy note, and its service worker precaches it;
 *  - the bundled sample: rows equal the server's SELECT saved when the sample was made
 *    (test/fixtures/sample-employees.csv);
 *  - offline: after one visit, with the network off, the page reloads and opens the sample;
 *  - no request leaves the page's origin.
 *
 * The tables of a real MariaDB are in the other files here: rows.test.ts (the grid and the exports),
 * million.test.ts (1,000,000 rows), files.test.ts (folders, MySQL 8, encryption, 300 tables),
 * recovery.test.ts (damaged files, raw images, guessed columns). Screenshots of the main states go
 * to test-results/screenshots/ (gitignored).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { checkSetup, expectOwnOriginOnly, pageSteps, ROOT, startSession, type Session } from './harness.ts';

describe('the built page', () => {
  let session: Session;
  let page: Page;
  let work: string;

  const { shot, waitForTable, rowCount, clearAll, download } = pageSteps(() => page);

  beforeAll(async () => {
    checkSetup();
    work = mkdtempSync(join(tmpdir(), 'ibd-page-test-'));
    session = await startSession(join(work, 'chromium-profile'));
    page = session.page;
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('loads with the drop zone and the privacy note, and gets ready for offline use', async () => {
    await page.goto(session.url);
    await page.getByTestId('drop-zone').waitFor();
    expect(await page.getByTestId('privacy').textContent()).toMatch(/never uploaded/i);
    await expect.poll(() => page.getByRole('button', { name: 'Open sample' }).isVisible()).toBe(true);
    // The service worker precached the app.
    await page.locator('[data-testid="offline-status"][data-ready="true"]').waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active?.state))).toBe('activated');
    const manifest = (await (await page.request.get(new URL('manifest.webmanifest', session.url).href)).json()) as { icons: { sizes: string }[]; start_url: string };
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

  it('works offline after one visit: reload with the network off and open the sample', async () => {
    await clearAll();
    await session.context.setOffline(true);
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
      await session.context.setOffline(false);
    }
  }, 60_000);

  it('made no request outside the page’s own origin, and logged no errors', () => {
    expectOwnOriginOnly(session);
  });
});
