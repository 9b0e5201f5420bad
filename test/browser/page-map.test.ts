/**
 * The page map panel of the built page (dist/, `npm run build` first) in headless Chromium, on the
 * bundled sample and on a copy with leaf page 7 damaged (test/ui/damaged-sample.ts):
 *
 *  - the map's totals (the whole map selected with the keyboard) are the core's PageMap of the same
 *    file (summarize with `pageMap`), and its checksum-bad pages the summary panel's bad checksums;
 *  - hovering a cell names its page as the core's map entry does;
 *  - a click opens the inspector on an INDEX leaf, whose first record's values are the grid's row of
 *    that key; an arrow key and Enter open the next page;
 *  - the inspected leaf's level is marked in its B-tree; a click on that level outlines its pages on
 *    the map (as many cells as the core's map has leaves of that index), a second click clears it;
 *  - the B-trees are named by the definition (PRIMARY, uq_email, idx_department);
 *  - on the damaged copy the damaged page is drawn in the damaged colour and named so, and its B-tree
 *    counts it; its inspector shows the stored checksum against the computed one, and the bytes the
 *    failed checksum refuses (the full_crc32 field, the page's last 4) are marked in the hex view, a
 *    click on the problem's link scrolling there;
 *  - screenshots of the map and the inspector, light and dark, in test-results/screenshots/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PageMap } from '../../src/core/readers/page-map.ts';
import { summarize } from '../../src/core/readers/summary.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { bucketText, entryText } from '../../src/ui/pages/map-text.ts';
import { damagedSample, PAGE, SAMPLE_DIR, SAMPLE_SQL } from '../ui/damaged-sample.ts';
import { pageSteps, SHOTS } from './harness.ts';
import { pageTest } from './page-test.ts';

async function coreMap(bytes: Uint8Array): Promise<PageMap> {
  const map = new PageMap();
  await summarize(bytesSource(bytes, 'employees.ibd'), { pageMap: map });
  return map;
}

describe('the page map panel', () => {
  let page: Page;
  let work: string;
  const env = pageTest('page-map');
  const { waitForTable, clearAll, open, panel } = pageSteps(() => page);

  beforeAll(async () => {
    ({ page, work } = env);
    mkdirSync(SHOTS, { recursive: true });
  }, 120_000);

  async function openPanel(): Promise<void> {
    // one click: the tab opens the panel with the map unfolded
    await panel('pages');
    await page.getByTestId('page-map-canvas').waitFor({ timeout: 30_000 });
  }

  /** The centre of cell `i` of the map, in page coordinates. */
  async function cellPoint(i: number): Promise<{ x: number; y: number }> {
    const canvas = page.getByTestId('page-map-canvas');
    // the map is in the side panel, which scrolls on its own (a damage banner makes it shorter)
    await canvas.scrollIntoViewIfNeeded();
    const cols = Number(await canvas.getAttribute('data-cols'));
    const cell = Number(await canvas.getAttribute('data-cell'));
    const box = (await canvas.boundingBox())!;
    return { x: box.x + (i % cols) * cell + cell / 2 - 1, y: box.y + Math.floor(i / cols) * cell + cell / 2 - 1 };
  }

  async function hover(i: number): Promise<string> {
    const { x, y } = await cellPoint(i);
    await page.mouse.move(x, y);
    const tip = page.getByTestId('page-map-tip');
    await tip.waitFor();
    return (await tip.textContent()) ?? '';
  }

  async function shots(name: string): Promise<void> {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.getByTestId('page-map-panel').screenshot({ path: join(SHOTS, `${name}${scheme === 'dark' ? '-dark' : ''}.png`) });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  it('shows the sample\'s pages as the core maps them, names a page on hover, inspects a leaf', async () => {
    const bytes = new Uint8Array(readFileSync(join(SAMPLE_DIR, 'employees.ibd')));
    const map = await coreMap(bytes);
    await page.getByTestId('open-sample').click();
    await waitForTable('employees', 'done');
    await openPanel();
    expect(Number(await page.getByTestId('page-map-scale').getAttribute('data-pages'))).toBe(map.pages);

    // The whole map selected by keyboard: its totals are the core's.
    const canvas = page.getByTestId('page-map-canvas');
    await canvas.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    expect(await page.getByTestId('page-map-range').textContent()).toBe(bucketText(map.totals()));
    expect(Number(await page.getByTestId('checksums').getAttribute('data-bad'))).toBe(map.totals().states[3]);

    const leaf = Array.from({ length: map.pageCount }, (_, no) => map.entry(no)).find((e) => e.typeName === 'INDEX' && e.indexId === map.indexIds[0] && e.level === 0 && (e.records ?? 0) > 0)!;
    expect(await hover(leaf.page)).toBe(entryText(leaf));

    await page.mouse.click((await cellPoint(leaf.page)).x, (await cellPoint(leaf.page)).y);
    const inspector = page.locator(`[data-testid="page-inspector"][data-page="${leaf.page}"]`);
    await inspector.waitFor({ timeout: 30_000 });
    expect(await inspector.getAttribute('data-type')).toBe('INDEX');
    const first = inspector.locator('[data-testid="inspector-records"] tr[data-reached="list"][data-kind="ordinary"]').first();
    const values = await first.locator('[data-testid="record-value"]').allTextContents();
    expect(values.length).toBeGreaterThan(2);
    // The grid's row of the same key (the first column, the primary key).
    const rows = await page.locator('[data-row]').evaluateAll((els) => els.map((el) => Array.from(el.querySelectorAll('[role="gridcell"]'), (c) => c.textContent ?? '')));
    const same = rows.find((cells) => cells[0] === values[0]);
    expect(same?.slice(0, 3)).toEqual(values.slice(0, 3));
    await page.getByTestId('hex-view').waitFor();
    // The B-tree view marks where the inspected page sits; its level clicked marks its pages on the map.
    await expect.poll(() => page.locator('[data-testid="btree"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')))).toEqual(['PRIMARY', 'uq_email', 'idx_department']);
    const tree = page.locator(`[data-testid="btree"][data-index="${leaf.indexId}"]`);
    const leaves = tree.locator('[data-testid="btree-level"][data-level="0"]');
    await expect.poll(() => leaves.getAttribute('data-current')).toBe('true');
    const wantLeaves = map.levels()[0].pages[0];
    expect(Number(await leaves.getAttribute('data-pages'))).toBe(wantLeaves);
    await leaves.click();
    await expect.poll(() => canvas.getAttribute('data-marked')).toBe(String(wantLeaves));
    expect(await page.getByTestId('page-map-marked').textContent()).toContain(`the ${wantLeaves} pages of index ${leaf.indexId} at level 0`);
    await shots('page-map-btree-picked');
    await leaves.click();
    await expect.poll(() => canvas.getAttribute('data-marked')).toBe(null);
    // Keyboard: the focus cell moved by an arrow key, Enter opens its page.
    await canvas.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.locator(`[data-testid="page-inspector"][data-page="${leaf.page + 1}"]`).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: `← Page ${leaf.page}` }).click();
    await inspector.waitFor({ timeout: 30_000 });
    await shots('page-map-inspector');
    for (const mode of ['Page type', 'Fill', 'LSN age']) {
      await page.getByTestId('page-map-panel').getByRole('radio', { name: mode }).check();
    }
    await shots('page-map-lsn');
  }, 120_000);

  it('marks the damaged page of a damaged copy', async () => {
    await clearAll();
    const dir = join(work, 'damaged');
    mkdirSync(dir, { recursive: true });
    const bytes = damagedSample(7 * PAGE + 4000, 4096, 12345);
    writeFileSync(join(dir, 'employees.ibd'), bytes);
    writeFileSync(join(dir, 'employees.sql'), SAMPLE_SQL);
    const map = await coreMap(bytes);
    expect(map.entry(7).state).toBe('checksum-bad');
    await open([join(dir, 'employees.ibd'), join(dir, 'employees.sql')]);
    await waitForTable('employees', 'done');
    await openPanel();
    expect(await hover(7)).toBe(entryText(map.entry(7)));
    const { x, y } = await cellPoint(7);
    const box = (await page.getByTestId('page-map-canvas').boundingBox())!;
    const rgb = await page.getByTestId('page-map-canvas').evaluate((c: HTMLCanvasElement, at) => {
      const dpr = c.width / c.getBoundingClientRect().width;
      return Array.from(c.getContext('2d')!.getImageData(Math.round(at.x * dpr), Math.round(at.y * dpr), 1, 1).data.slice(0, 3));
    }, { x: x - box.x, y: y - box.y });
    expect(rgb).toEqual([0xe0, 0x36, 0x2c]);
    await expect.poll(() => page.locator('[data-testid="btree"][data-damaged="1"]').count()).toBe(1);
    // The inspector on it: the checksum it stores against the one computed.
    await page.mouse.click(x, y);
    const inspector = page.locator('[data-testid="page-inspector"][data-page="7"][data-state="checksum-bad"]');
    await inspector.waitFor({ timeout: 30_000 });
    expect(await inspector.locator('[data-testid="inspector-checksum"] tr.bad').count()).toBeGreaterThan(0);
    // The bytes the failed checksum refuses: a link in its problem, marked in the hex view.
    const link = inspector.locator('[data-testid="problem-bytes"]').first();
    expect([await link.getAttribute('data-start'), await link.getAttribute('data-end')]).toEqual([String(PAGE - 4), String(PAGE)]);
    await link.click();
    const chosen = inspector.locator('[data-testid="hex-view"] .refused.chosen');
    await chosen.waitFor();
    expect(await chosen.textContent()).toBe(Array.from(bytes.subarray(8 * PAGE - 4, 8 * PAGE), (b) => b.toString(16).padStart(2, '0')).join(' '));
    await expect.poll(() => chosen.evaluate((el) => {
      const view = el.closest('[data-testid="hex-view"]') as HTMLElement;
      const a = el.getBoundingClientRect();
      const b = view.getBoundingClientRect();
      return a.top >= b.top && a.bottom <= b.bottom;
    })).toBe(true);
    await inspector.screenshot({ path: join(SHOTS, 'page-map-refused.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await inspector.screenshot({ path: join(SHOTS, 'page-map-refused-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await shots('page-map-damaged');
  }, 120_000);
});
