/**
 * A table definition that does not fit is a verdict, not rows (the built page, dist/, in headless
 * Chromium): the bundled sample, its first leaf damaged (random bytes, fixed seed), with a CREATE
 * TABLE that is not its own: the CLI (dist-cli/, the same decoder) refuses it, and so does the page,
 * with no row shown and the column guess offered.
 */
import { spawnSync } from 'node:child_process';
import type { Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { checkSetup, DIST, launch, pageSteps, ROOT, serveDist } from './harness.ts';
import { damagedSample, PAGE, SAMPLE_SQL } from '../ui/damaged-sample.ts';

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

describe('a definition that does not fit, in the page', () => {
  let http: { server: Server; url: string } | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let work: string;
  const consoleErrors: string[] = [];
  const { shot, waitForTable, clearAll, open } = pageSteps(() => page);

  beforeAll(async () => {
    checkSetup();
    work = mkdtempSync(join(tmpdir(), 'ibd-damage-test-'));
    http = await serveDist(DIST);
    context = await launch(join(work, 'chromium-profile'));
    page = context.pages()[0] ?? (await context.newPage());
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    await page.goto(http.url);
  }, 120_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await new Promise<void>((ok) => (http ? http.server.close(() => ok()) : ok()));
    if (work) rmSync(work, { recursive: true, force: true });
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
