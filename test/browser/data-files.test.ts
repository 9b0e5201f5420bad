/**
 * A system tablespace in two data files dropped on the BUILT page (dist/), in the machine's headless
 * Chromium: MariaDB with innodb_data_file_path=ibdata1:12M;ibdata2:12M:autoextend and
 * --innodb-file-per-table=OFF, a table larger than ibdata1 so that most of its pages are in ibdata2
 * (as test/differential/data-files.test.ts). The datadir folder dropped: ibdata1 and ibdata2 read as
 * one tablespace, the table's row count and every value (CSV) equal to the server's SELECT. ibdata1
 * dropped alone: the page says its other pages are in the further data files.
 */
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Row } from '../../src/core/readers/table-reader.ts';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { plural } from '../../src/ui/format.ts';
import { startMariadb } from '../harness/mariadb.ts';
import { expectOwnOriginOnly, pageSteps, type Session } from './harness.ts';
import { pageTest } from './page-test.ts';

describe('a system tablespace in two data files, in the built page', () => {
  let session: Session;
  let page: Page;
  let work: string;
  let datadir: string;
  let columns: string[];
  let rows: Row[];

  const env = pageTest('datafiles-page');
  const { shot, waitForTable, rowCount, clearAll, download } = pageSteps(() => page);
  const item = (name: string) => page.locator(`[data-testid="table-item"][data-table="${name}"]`);

  beforeAll(async () => {
    ({ session, page, work } = env);
    datadir = join(work, 'datadir');
    const server = await startMariadb({ extraArgs: ['--innodb-file-per-table=OFF', '--innodb-data-file-path=ibdata1:12M;ibdata2:12M:autoextend'] });
    try {
      await server.exec(`CREATE DATABASE shop; USE shop;
        CREATE TABLE spread (id INT PRIMARY KEY, body VARCHAR(300) NOT NULL, n BIGINT) ROW_FORMAT=DYNAMIC;
        INSERT INTO spread SELECT seq, CONCAT('body ', seq, ' ', REPEAT('y', 200 + seq % 80)), IF(seq % 7 = 0, NULL, seq * 1000003) FROM seq_1_to_120000;`);
      ({ columns, rows } = await server.query('SELECT id, body, n FROM spread ORDER BY id', 'shop'));
      await server.slowShutdown();
      mkdirSync(join(datadir, 'shop'), { recursive: true });
      for (const f of ['ibdata1', 'ibdata2']) copyFileSync(join(server.datadir, f), join(datadir, f));
      copyFileSync(join(server.datadir, 'shop', 'spread.frm'), join(datadir, 'shop', 'spread.frm'));
    } finally {
      await server.stop();
    }
  }, 600_000);

  it('the table\'s pages are mostly in ibdata2 (else this test proves nothing)', () => {
    expect(statSync(join(datadir, 'ibdata1')).size).toBe(12 << 20);
    expect(statSync(join(datadir, 'ibdata2')).size).toBeGreaterThan(20 << 20);
  });

  it('the datadir dropped: ibdata1 and ibdata2 read as one tablespace, every row equal to the server\'s', async () => {
    await clearAll();
    await page.locator('[data-testid="folder-input"]').setInputFiles(datadir);
    await item('shop/spread').waitFor({ timeout: 120_000 });
    // ibdata2 is part of the tablespace, not a second one (nor a file the page could not use); the
    // other tables are the server's own (mysql/innodb_table_stats …, in ibdata1 too)
    const names = await page.locator('[data-testid="table-item"]').evaluateAll((items) => items.map((i) => i.getAttribute('data-table')));
    expect(names.filter((n) => !n?.startsWith('mysql/'))).toEqual(['shop/spread']);
    expect(await page.getByTestId('file-error').count()).toBe(0);
    expect(await page.getByTestId('file-warning').count()).toBe(0);
    await expect.poll(() => item('shop/spread').locator('[data-testid="table-rows"]').textContent(), { timeout: 60_000 }).toBe(plural(rows.length, 'row'));
    await item('shop/spread').click();
    await waitForTable('shop/spread', 'done', 120_000);
    expect(await rowCount()).toBe(rows.length);
    expect(await page.getByTestId('system-table').textContent()).toContain('ibdata1 + ');
    await shot('data-files-joined');
    expect((await download('CSV', 'spread.csv')).toString('utf8')).toBe(csvHeader(columns) + csvRows(rows));
    expectOwnOriginOnly(session);
  }, 300_000);

  it('ibdata1 dropped alone: its other pages are said to be in the further data files', async () => {
    await clearAll();
    await page.locator('[data-testid="file-input"]').setInputFiles([join(datadir, 'ibdata1')]);
    await page.getByTestId('file-warning').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('file-warning').textContent()).toMatch(/ibdata1: the file holds pages 0 to 767 of the [\d,]+ pages .* further data files \(ibdata2/);
    // The table's leaves in ibdata2 are not counted: its count says so beside it, and in its summary.
    await item('shop/spread').locator('[data-testid="table-damage"]').waitFor({ timeout: 60_000 });
    expect(await item('shop/spread').locator('[data-testid="table-damage"]').textContent()).toBe('count incomplete');
    await item('shop/spread').click();
    await expect.poll(() => page.getByTestId('system-table').textContent(), { timeout: 60_000 }).toMatch(/(leaf pages could not be counted|its B-tree could not be walked from its root).* not in its count/);
    await shot('data-files-alone');
  }, 300_000);
});
