/**
 * The page never shows a wrong row without a mark (the built page, dist/, in headless Chromium): the
 * bundled sample table with 4 KiB of random bytes (fixed seed) written into leaf page 7, against what
 * the CLI (dist-cli/, the same decoder) says of the same file:
 *
 *  - the banner above the grid says how many rows of damaged pages are withheld: the CLI's "N rows
 *    from damaged pages were withheld"; the grid (live rows) holds exactly the CLI's live rows;
 *  - "Go to id" on a row of the damaged page names that page in the live mode, and finds the row
 *    once the damaged rows are shown (their rows are not in key order);
 *  - "Show damaged rows": the grid holds the CLI's `--rows all` rows, and the gutter marks are on
 *    exactly those it tags `damaged`, each naming the page and why;
 *  - exports leave the rows of damaged pages out by default (the CSV is the CLI's default output)
 *    and include them when asked (the CLI's `--rows all` output);
 *  - a truncated copy shows the banner (its leaf pages past the end of the file, unreadable);
 *  - a definition that does not fit, on a file whose first leaf is damaged: the verdict, no rows.
 *
 * Screenshots of the banner and the marked grid, light and dark, go to test-results/screenshots/.
 */
import { spawnSync } from 'node:child_process';
import type { Server } from 'node:http';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { checkSetup, DIST, launch, pageSteps, ROOT, serveDist, SHOTS, shown } from './harness.ts';
import { damagedSample, PAGE, SAMPLE_DIR, SAMPLE_SQL } from '../ui/damaged-sample.ts';

const CLI = join(ROOT, 'dist-cli', 'ibd-reader.mjs');

/** The sample damaged (damaged-sample.ts) as `dir`/employees.ibd, with its .sql (or `sql`). */
function damagedCopy(dir: string, offset: number, length: number, seed: number, sql = SAMPLE_SQL): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'employees.ibd'), damagedSample(offset, length, seed));
  writeFileSync(join(dir, 'employees.sql'), sql);
  return dir;
}

/** The CLI's output and warnings for `dir`/employees.ibd. */
function cli(dir: string, ...args: string[]): { stdout: string; stderr: string; status: number | null } {
  const r = spawnSync(process.execPath, [CLI, join(dir, 'employees.ibd'), '--schema', join(dir, 'employees.sql'), ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

type Json = Record<string, string | null>;

function ndjson(text: string): Json[] {
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Json);
}

interface GridRow {
  cells: string[];
  state: string | null;
  /** The gutter mark's tooltip, on a row marked damaged. */
  mark: string | null;
}

/** Every row of the grid, by row number: it is scrolled from top to bottom (only the rows in view exist). */
async function gridRows(page: Page): Promise<Map<number, GridRow>> {
  const grid = page.getByTestId('grid');
  const out = new Map<number, GridRow>();
  const total = Number(await grid.getAttribute('data-count'));
  let height = Infinity;
  let step = 22;
  for (let top = 0; out.size < total; top += step) {
    // The grid's own heights, not the row height times the rows: the loop reaches its end, and each
    // step (half the rows in view) overlaps the one before, whatever the window leaves the grid.
    [height, step] = await grid.evaluate((el, y) => {
      el.scrollTop = y;
      return [el.scrollHeight, Math.max(22, Math.floor(el.clientHeight / 2))];
    }, top);
    // Every row on screen decoded: rows of two pages may be pending at once, not only the first seen.
    await page.waitForFunction(() => document.querySelector('.row[data-pending]') === null, undefined, { timeout: 10_000 });
    const rows = await page.locator('[data-row]').evaluateAll((els) => els.map((el) => ({
      no: Number(el.getAttribute('data-row')),
      cells: Array.from(el.querySelectorAll('[role="gridcell"]'), (c) => c.textContent ?? ''),
      state: el.getAttribute('data-state'),
      mark: el.hasAttribute('data-damaged') ? el.querySelector('[role="rowheader"]')?.getAttribute('title') ?? '' : null,
    })));
    for (const r of rows) out.set(r.no, { cells: r.cells, state: r.state, mark: r.mark });
    if (top > height + 1000) break;
  }
  return out;
}

describe('rows of damaged pages in the page: marked, withheld and counted as the CLI does', () => {
  let http: { server: Server; url: string } | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let work: string;
  let damaged: string;
  const consoleErrors: string[] = [];
  const { shot, waitForTable, rowCount, clearAll, open, download, panel } = pageSteps(() => page);

  /** The CLI on the damaged copy: its default (live) output, and --rows all. */
  let live: { csv: string; rows: Json[]; withheld: number };
  let all: { csv: string; rows: Json[] };

  /** A full-page screenshot, and one of the banner down to the grid's end, in the light and the dark theme. */
  async function shots(name: string): Promise<void> {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const suffix = scheme === 'dark' ? '-dark' : '';
      await shot(`${name}${suffix}`);
      const top = await page.getByTestId('damage-banner').boundingBox();
      const bottom = await page.getByTestId('grid').boundingBox();
      await page.screenshot({ path: join(SHOTS, `${name}-close${suffix}.png`), fullPage: true, clip: { x: top!.x, y: top!.y, width: top!.width, height: bottom!.y + bottom!.height - top!.y } });
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  async function setMode(mode: string, rows: number): Promise<void> {
    await page.getByTestId('row-mode').selectOption(mode);
    await waitForTable('employees', 'done');
    await expect.poll(rowCount, { timeout: 30_000 }).toBe(rows);
  }

  beforeAll(async () => {
    checkSetup();
    work = mkdtempSync(join(tmpdir(), 'ibd-damage-test-'));
    damaged = damagedCopy(join(work, 'damaged'), 7 * PAGE + 4000, 4096, 12345);
    const plain = cli(damaged);
    expect(plain.status, plain.stderr).toBe(2);
    const withheld = /(\d+) rows from damaged pages were withheld/.exec(plain.stderr);
    expect(withheld, plain.stderr).not.toBeNull();
    live = { csv: plain.stdout, rows: ndjson(cli(damaged, '--format', 'ndjson', '--json-strings').stdout), withheld: Number(withheld![1]) };
    all = { csv: cli(damaged, '--rows', 'all').stdout, rows: ndjson(cli(damaged, '--rows', 'all', '--format', 'ndjson', '--json-strings').stdout) };
    expect(live.withheld).toBeGreaterThan(0);
    expect(all.rows.filter((r) => r._row_state === 'damaged').length).toBeGreaterThan(0);

    http = await serveDist(DIST);
    context = await launch(join(work, 'chromium-profile'));
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    await page.goto(http.url);
    // Downloads stream through the service worker once it controls the page.
    await page.locator('[data-testid="offline-status"][data-ready="true"]').waitFor({ timeout: 30_000 });
  }, 120_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await new Promise<void>((ok) => (http ? http.server.close(() => ok()) : ok()));
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('says above the grid how many rows are withheld (the CLI\'s count), and the grid holds the CLI\'s live rows', async () => {
    await open([join(damaged, 'employees.ibd'), join(damaged, 'employees.sql')]);
    await waitForTable('employees', 'done');
    const banner = page.getByTestId('damage-banner');
    await banner.waitFor();
    expect(Number(await banner.getAttribute('data-withheld'))).toBe(live.withheld);
    expect(await banner.textContent()).toContain(`${live.withheld} rows from a damaged page (page 7) are withheld`);
    // Above the grid, on the page's own scroll.
    const bannerBox = await banner.boundingBox();
    const gridBox = await page.getByTestId('grid').boundingBox();
    expect(bannerBox!.y + bannerBox!.height).toBeLessThan(gridBox!.y);
    expect(await rowCount()).toBe(live.rows.length);
    expect(await page.locator('[data-testid="table-item"][data-table="employees"] [data-testid="table-rows"]').textContent()).toBe(`${live.rows.length} rows`);
    expect(await page.locator('[data-testid="table-item"][data-table="employees"] [data-testid="table-damage"]').textContent()).toBe('1 damaged page');
    const rows = await gridRows(page);
    expect(rows.size).toBe(live.rows.length);
    live.rows.forEach((want, i) => expect(rows.get(i)?.cells, `row ${i}`).toEqual(Object.values(want).map(shown)));
    expect([...rows.values()].filter((r) => r.mark !== null)).toHaveLength(0);
    await page.getByTestId('grid').evaluate((el) => {
      el.scrollTop = 0;
    });
    await shots('30-damage-banner');
  }, 120_000);

  it('exports leave the damaged rows out by default (the CLI\'s output), and put them in when asked (--rows all)', async () => {
    await panel('export');
    const choice = page.getByTestId('export-damage');
    await choice.waitFor();
    expect(Number(await choice.getAttribute('data-rows'))).toBe(live.withheld);
    expect(await page.getByTestId('export-damage-leave').isChecked()).toBe(true);
    const left = await download('CSV', 'employees.csv');
    expect(left.toString('utf8')).toBe(live.csv);
    await page.getByTestId('export-damage-include').check();
    const included = await download('CSV', 'employees.csv');
    expect(included.toString('utf8')).toBe(all.csv);
    await page.getByTestId('export-damage-leave').check();
  }, 120_000);

  /** A damaged row's id that is on no other row, and its row number. */
  function damagedId(): { id: string; row: number } {
    const ids = all.rows.map((r) => Number(r.id));
    const row = all.rows.findIndex((r, i) => r._row_state === 'damaged' && ids.indexOf(ids[i]) === ids.lastIndexOf(ids[i]));
    expect(row).toBeGreaterThan(0);
    return { id: all.rows[row].id!, row };
  }

  it('"Go to id" names the damaged page where a withheld row would be, and offers the damaged rows', async () => {
    const { id } = damagedId();
    await page.getByTestId('jump-key').fill(id);
    await page.getByTestId('jump-key').press('Enter');
    const message = page.getByTestId('jump-message');
    await message.waitFor();
    expect(await message.textContent()).toMatch(/page 7, which is damaged: its rows are withheld/);
    await page.getByTestId('jump-show-damaged').waitFor();
  }, 60_000);

  it('shows the damaged rows marked: the CLI\'s --rows all, the marks on exactly the rows it tags damaged', async () => {
    await page.getByTestId('show-damaged').click();
    await waitForTable('employees', 'done');
    await expect.poll(rowCount, { timeout: 30_000 }).toBe(all.rows.length);
    expect(await page.getByTestId('row-mode').inputValue()).toBe('all');
    const banner = page.getByTestId('damage-banner');
    expect(Number(await banner.getAttribute('data-damaged-rows'))).toBe(all.rows.filter((r) => r._row_state === 'damaged').length);
    await page.getByTestId('hide-damaged').waitFor();
    const rows = await gridRows(page);
    expect(rows.size).toBe(all.rows.length);
    all.rows.forEach((want, i) => {
      const got = rows.get(i);
      expect(got?.cells, `row ${i}`).toEqual(Object.values(want).map(shown));
      expect(got?.state).toBe(want._row_state);
      expect(got?.mark !== null, `row ${i} marked`).toBe(want._row_state === 'damaged');
      if (got?.mark) expect(got.mark).toMatch(/^From damaged page 7 \(its checksum does not match\)/);
    });
    const first = all.rows.findIndex((r) => r._row_state === 'damaged');
    await page.getByTestId('grid').evaluate((el, y) => {
      el.scrollTop = y;
    }, Math.max(0, first - 4) * 22);
    await page.locator(`[data-row="${first}"][data-damaged]`).waitFor();
    await shots('31-damaged-rows-marked');
  }, 120_000);

  it('"Go to id" finds a row of the damaged page once the damaged rows are shown', async () => {
    const { id, row } = damagedId();
    await page.getByTestId('jump-key').fill(id);
    await page.getByTestId('jump-key').press('Enter');
    const target = page.locator(`[data-row="${row}"]`);
    await target.waitFor();
    expect(await target.locator('[role="gridcell"][data-col="0"]').textContent()).toBe(id);
    expect(await target.locator('.cell.active').count()).toBe(1);
    expect(await target.getAttribute('data-damaged')).not.toBeNull();
    // Back to the mode before: the live rows again.
    await page.getByTestId('hide-damaged').click();
    await waitForTable('employees', 'done');
    await expect.poll(rowCount, { timeout: 30_000 }).toBe(live.rows.length);
  }, 60_000);

  it('counts in every mode what the CLI\'s --rows gives', async () => {
    for (const mode of ['damaged', 'deleted', 'both', 'live']) {
      const want = ndjson(cli(damaged, '--rows', mode, '--format', 'ndjson', '--json-strings').stdout);
      await setMode(mode, want.length);
    }
  }, 120_000);

  it('shows the banner for a truncated copy: its leaf pages past the end are unreadable', async () => {
    await clearAll();
    const dir = join(work, 'truncated');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(SAMPLE_DIR, 'employees.ibd'), join(dir, 'employees.ibd'));
    writeFileSync(join(dir, 'employees.sql'), SAMPLE_SQL);
    truncateSync(join(dir, 'employees.ibd'), 8 * PAGE + 5000);
    const r = cli(dir, '--format', 'ndjson');
    const skipped = /(\d+) skipped pages/.exec(r.stderr);
    await open([join(dir, 'employees.ibd'), join(dir, 'employees.sql')]);
    await waitForTable('employees', 'done');
    const banner = page.getByTestId('damage-banner');
    await banner.waitFor();
    expect(Number(await banner.getAttribute('data-skipped'))).toBe(Number(skipped?.[1]));
    expect(await banner.textContent()).toMatch(/The file is truncated/);
    expect(await rowCount()).toBe(ndjson(r.stdout).length);
    await banner.scrollIntoViewIfNeeded();
    await shot('32-truncated-banner');
  }, 60_000);

  it('gives the verdict on a definition that does not fit, even when the first leaf is damaged: no rows', async () => {
    await clearAll();
    const wrong = 'CREATE TABLE employees (id INT NOT NULL, first_name VARCHAR(40) NOT NULL, last_name VARCHAR(40) NOT NULL, PRIMARY KEY (id)) ENGINE=InnoDB;\n';
    const dir = damagedCopy(join(work, 'mismatch'), 6 * PAGE + 3000, 4096, 0x9e3779b9, wrong);
    const r = cli(dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/the table definition does not match the records/);
    await open([join(dir, 'employees.ibd'), join(dir, 'employees.sql')]);
    await waitForTable('employees', 'error');
    const error = page.getByTestId('error');
    expect(await error.getAttribute('data-mismatch')).toBe('true');
    expect(await error.textContent()).toMatch(/the table definition does not match the records of this file/);
    await page.getByTestId('mismatch-guess').waitFor();
    expect(await page.locator('[data-row]').count()).toBe(0);
    await shot('33-definition-mismatch');
  }, 60_000);

  it('logged no errors', () => {
    expect(consoleErrors).toEqual([]);
  });
});
