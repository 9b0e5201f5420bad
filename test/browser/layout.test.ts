/**
 * The grid is the room (issue 41): at 1366×860, the bundled sample open, the rows visible in the grid
 * with no panel and with each panel open (Definition, Page map, Recovery, Export) — fully inside both
 * the grid's scroller and the window. A panel opens in one click (its tab), beside the grid, shows
 * its content unfolded, can be resized (its splitter, by keyboard) and closed (its × or the tab again).
 * Screenshots of each, light and dark, land in test-results/screenshots/layout-*.png.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { pageSteps } from './harness.ts';
import { pageTest } from './page-test.ts';

const PANELS = ['definition', 'pages', 'recovery', 'export'] as const;
/** At 1366×860 the grid keeps at least this many rows in view whatever panel is open. */
const MIN_ROWS = 25;

/** Rows of the grid whose whole height is in view: inside the grid's scroller (below its header) and the window. */
function visibleRows(page: Page): Promise<number> {
  return page.evaluate(() => {
    const viewport = document.querySelector('[data-testid="table-view"] .viewport');
    if (!viewport) return 0;
    const box = viewport.getBoundingClientRect();
    const header = viewport.querySelector('[role="row"]')?.getBoundingClientRect();
    const top = Math.max(header ? header.bottom : box.top, 0);
    const bottom = Math.min(box.bottom, window.innerHeight);
    return [...viewport.querySelectorAll('[data-row]')].filter((r) => {
      const b = r.getBoundingClientRect();
      return b.height > 0 && b.top >= top - 0.5 && b.bottom <= bottom + 0.5;
    }).length;
  });
}

describe('the grid is the room', () => {
  const env = pageTest('layout');
  const { waitForTable, shot } = pageSteps(() => env.page);

  it('keeps at least 25 rows in view at 1366×860 with any panel open, one click opens and closes a panel', async () => {
    const page = env.page;
    await page.setViewportSize({ width: 1366, height: 860 });
    await page.getByTestId('open-sample').click();
    await waitForTable('employees', 'done');
    const counts: Record<string, number> = { none: await visibleRows(page) };
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await shot(`layout-none-${scheme}`);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    for (const name of PANELS) {
      const tab = page.locator(`[data-testid="panel-tab"][data-panel="${name}"]`);
      await tab.click();
      const panel = page.locator(`[data-testid="view-panel"][data-panel="${name}"]`);
      await panel.waitFor();
      // one click: what the panel holds is not folded away behind a second disclosure
      for (const fold of ['page-map-panel', 'recovery-report', 'create-sql']) {
        const d = panel.getByTestId(fold);
        if (await d.count()) expect(await d.getAttribute('open'), `${fold} unfolded`).not.toBeNull();
      }
      counts[name] = await visibleRows(page);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await shot(`layout-${name}-${scheme}`);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      // the tab again closes it
      await tab.click();
      await panel.waitFor({ state: 'hidden' });
    }
    // nothing runs off the window's side
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
    // the splitter resizes (← widens the panel on the right), the × closes
    await page.locator('[data-testid="panel-tab"][data-panel="pages"]').click();
    const panel = page.locator('[data-testid="view-panel"][data-panel="pages"]');
    expect(await panel.locator('[data-testid="page-map-panel"]').getAttribute('open')).not.toBeNull();
    const before = (await panel.boundingBox())?.width ?? 0;
    await page.getByTestId('panel-splitter').focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowLeft');
    expect((await panel.boundingBox())?.width ?? 0).toBeGreaterThan(before + 60);
    expect(await visibleRows(page)).toBeGreaterThanOrEqual(MIN_ROWS);
    await page.getByTestId('panel-close').click();
    await panel.waitFor({ state: 'detached' });
    expect(await page.locator('[data-testid="panel-tab"][aria-expanded="true"]').count()).toBe(0);
    console.log('rows in view at 1366×860:', JSON.stringify(counts));
    for (const [name, n] of Object.entries(counts)) expect(n, `rows in view with ${name} open`).toBeGreaterThanOrEqual(MIN_ROWS);
  }, 120_000);
});
