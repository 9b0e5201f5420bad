/**
 * A dropped table whose index root is lost, in the BUILT page (dist/), in the machine's headless
 * Chromium: MariaDB with --innodb-file-per-table=OFF, a table whose middle was mostly deleted and
 * purged (its leaves merged: the freed ones keep an old copy of their records), dropped, and a slow
 * shutdown (its dictionary rows purged too); its root page zeroed in a copy of ibdata1, so that its
 * leaves are found only by a scan of the freed extents (src/core/btree/leaf-chain.ts, as
 * test/differential/dropped-merged.test.ts for the CLI). The datadir dropped: the index listed as
 * dropped, opened with the table's CREATE TABLE, its live rows the server's last SELECT; the stale
 * leaves named and withheld, their records shown as damaged rows, every one of them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Row } from '../../src/core/readers/table-reader.ts';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { mergedAndDropped, PAGE, staleRecords } from '../differential/dropped-merged-setup.ts';
import { expectOwnOriginOnly, pageSteps, type Session } from './harness.ts';
import { pageTest } from './page-test.ts';

describe('a dropped table whose index root is lost, in the built page', () => {
  let session: Session;
  let page: Page;
  let work: string;
  let datadir: string;
  let ddl: string;
  let columns: string[];
  let rows: Row[];
  let indexId: bigint;
  /** Records on the index's leaves in the file that are not the table's rows: the old copies merges freed. */
  let stale: number;

  const env = pageTest('rootless-page');
  const { shot, waitForTable, rowCount, download, panel } = pageSteps(() => page);
  const item = (name: string) => page.locator(`[data-testid="table-item"][data-table="${name}"]`);

  beforeAll(async () => {
    ({ session, page, work } = env);
    datadir = join(work, 'datadir');
    mkdirSync(datadir);
    const drop = await mergedAndDropped();
    ({ columns, rows, ddl, indexId } = drop);
    stale = staleRecords(drop);
    const bytes = Buffer.from(drop.ibdata1);
    bytes.fill(0, drop.rootPage * PAGE, (drop.rootPage + 1) * PAGE);
    writeFileSync(join(datadir, 'ibdata1'), bytes);
    writeFileSync(join(work, 'merged.sql'), `${ddl};\n`);
  }, 600_000);

  it('listed as dropped, read with its CREATE TABLE: the live rows the server\'s, the stale leaves withheld and named, their records damaged rows', async () => {
    // (else this test proves nothing: merges left old copies)
    expect(stale).toBeGreaterThan(0);
    await page.locator('[data-testid="folder-input"]').setInputFiles(datadir);
    const name = `dropped index ${indexId}`;
    await item(name).waitFor({ timeout: 120_000 });
    expect(await item(name).locator('[data-testid="table-dropped"]').count()).toBe(1);
    await item(name).click();
    await waitForTable(name, 'needs-schema');
    await page.locator('[data-testid="file-input"]').setInputFiles([join(work, 'merged.sql')]);
    await waitForTable(name, 'choose');
    await page.getByTestId('choose').locator('select').selectOption('merged');
    await page.getByTestId('choose').locator('button[type="submit"]').click();
    await waitForTable(name, 'done', 120_000);
    expect(await rowCount()).toBe(rows.length);
    const banner = page.getByTestId('damage-banner');
    await banner.waitFor({ timeout: 60_000 });
    expect(Number(await banner.getAttribute('data-damaged-pages'))).toBeGreaterThan(0);
    expect(await banner.locator('[data-testid="damaged-pages"]').textContent()).toContain('out of its index\'s leaf list');
    await shot('dropped-rootless');
    expect((await download('CSV', 'merged.csv')).toString('utf8')).toBe(csvHeader(columns) + csvRows(rows));

    // The export with the damaged pages' rows (every row state, as --rows all): the old copies are back, each marked damaged.
    await panel('export');
    await page.getByTestId('export-damage-include').check();
    const all = (await download('NDJSON strings', 'merged.ndjson')).toString('utf8').split('\n').filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, string | null>);
    expect(all.filter((r) => r._row_state === 'damaged').length).toBe(stale);
    expect(all.filter((r) => r._row_state === 'live').map((r) => [r.id, r.label])).toEqual(rows);
    expectOwnOriginOnly(session);
  }, 300_000);
});
