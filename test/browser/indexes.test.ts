/**
 * A table's indexes and "Go to" in the BUILT page (dist/) in Debian's Chromium, against a table a
 * real MariaDB wrote (4K pages, so that its trees have several levels), each compared with the
 * server:
 *
 *  - the index chooser: every secondary index (unique with NULLs, non-unique, a prefix part,
 *    composite) shown in the grid and exported as CSV equals `SELECT cols FROM t FORCE INDEX (k)
 *    ORDER BY cols, pk`, row for row; SQL is refused for an index's rows, with the reason;
 *  - Go to on the composite primary key lands on the server's row (its position is the number of
 *    rows before it in key order), a leaf's first and last keys too, reading as many pages as the
 *    B-tree has levels (the worker's lookup path: root, node pages, the leaf); an absent key and a
 *    value that is not one of the column's are said so; on an index, fewer parts find the first row
 *    that begins with them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { openTable, type TableReader } from '../../src/core/readers/table-reader.ts';
import { batchRows } from '../../src/core/values/row-batch.ts';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { checkSetup, expectOwnOriginOnly, loadPage, pageSteps, startSession, type Session } from './harness.ts';
import { tableFiles } from './test-tables.ts';

const ROWS = 60_000;

/** Each secondary index: its name, the server's select list for its fields (index columns, then the primary key's). */
const INDEXES: { name: string; select: string; order: string }[] = [
  { name: 'uc', select: 'c, a, b', order: 'c, a, b' },
  { name: 'kd', select: 'd, a, b', order: 'd, a, b' },
  { name: 'ke', select: 'LEFT(e, 3), a, b', order: 'LEFT(e, 3), a, b' },
  { name: 'kde', select: 'd, e, a, b', order: 'd, e, a, b' },
];

describe('indexes and Go to in the built page', () => {
  let db: MariadbServer;
  let session: Session;
  let page: Page;
  let work: string;
  let files: { ibd: string; sql: string };
  let reader: TableReader;
  let close: () => Promise<void>;

  const { shot, waitForTable, rowCount, clearAll, open, download, panel } = pageSteps(() => page);

  beforeAll(async () => {
    checkSetup();
    work = mkdtempSync(join(tmpdir(), 'ibd-indexes-test-'));
    db = await startMariadb({ pageSize: 4096 });
    await db.exec(`CREATE TABLE ix (a INT NOT NULL, b DATE NOT NULL, c VARCHAR(40) CHARACTER SET utf8mb4, d INT, e VARCHAR(20) CHARACTER SET utf8mb4,
        PRIMARY KEY (a, b), UNIQUE KEY uc (c), KEY kd (d), KEY ke (e(3)), KEY kde (d, e)) ENGINE=InnoDB;
      INSERT INTO ix SELECT seq DIV 3, DATE_ADD('2001-01-01', INTERVAL (seq * 7) % 3000 DAY), IF(seq % 11 = 0, NULL, CONCAT('c', seq * 7919 % 100003)),
        IF(seq % 13 = 0, NULL, seq % 97), CONCAT(ELT(1 + seq % 4, 'ab', 'Ab', 'abc', 'x'), seq % 50) FROM seq_1_to_${ROWS};`);
    files = await tableFiles(db, 'ix', work);
    const ddl = (await db.query('SHOW CREATE TABLE ix')).rows[0][1] as string;
    const source = await fileSource(files.ibd);
    close = () => source.close();
    reader = await openTable(source, parseCreateTables(ddl)[0]);
    expect(reader.info.treeHeight).toBeGreaterThanOrEqual(3);
    session = await startSession(join(work, 'chromium-profile'));
    page = session.page;
    await loadPage(session);
    await clearAll();
    await open([files.ibd, files.sql]);
    await waitForTable('ix', 'done');
  }, 240_000);

  afterAll(async () => {
    await session?.close();
    await close?.();
    await db?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 60_000);

  /** Shows index `name`'s rows (null: the table's) and waits for them to be counted. */
  async function showIndex(name: string | null, firstColumn: string): Promise<void> {
    await page.getByTestId('index-choice').selectOption(name ?? '');
    await page.getByTestId(`sort-${firstColumn}`).waitFor();
    await waitForTable('ix', 'done');
  }

  /** Types `key` into Go to and submits it. */
  async function goTo(key: string): Promise<void> {
    await page.getByTestId('jump-key').fill(key);
    await page.getByTestId('jump-key').press('Enter');
  }

  async function cells(row: number, cols: number): Promise<string[]> {
    const shownRow = page.locator(`[data-row="${row}"]`);
    await shownRow.waitFor({ timeout: 20_000 });
    const out: string[] = [];
    for (let c = 0; c < cols; c++) out.push((await shownRow.locator(`[data-col="${c}"]`).textContent()) ?? '');
    return out;
  }

  it('shows and exports every secondary index as the server reads it with FORCE INDEX', async () => {
    for (const index of INDEXES) {
      const first = index.select.split(',')[0].trim().replace(/^LEFT\((\w+).*$/, '$1');
      await showIndex(index.name, first);
      const expected = await db.query(`SELECT ${index.select} FROM ix FORCE INDEX (${index.name}) ORDER BY ${index.order}`);
      expect(await rowCount(), index.name).toBe(ROWS);
      const columns = index.select.replace(/LEFT\((\w+), 3\)/, '$1').split(', ');
      expect(await cells(0, columns.length)).toEqual(expected.rows[0].map((v) => (v === null ? 'NULL' : String(v))));
      const csv = await download('CSV', `ix.${index.name}.csv`);
      expect(csv.toString('utf8'), index.name).toBe(csvHeader(columns) + csvRows(expected.rows));
      if (index.name === 'ke') await shot('indexes-01-prefix-index');
    }
    // SQL is refused for an index's rows, with the reason.
    await panel('export');
    expect(await page.getByRole('radio', { name: 'SQL', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByTestId('sql-refused').textContent()).toMatch(/not offered for the rows of index kde/);
  });

  it('goes to a composite key through the B-tree: the server\'s row, one page per level', async () => {
    await showIndex(null, 'a');
    const height = reader.info.treeHeight;
    const leaves = await reader.leafPages();
    const keys: string[][] = [(await db.query('SELECT a, b FROM ix WHERE a = 3333 ORDER BY b LIMIT 1')).rows[0].map(String)];
    for (const at of [5, leaves.length >> 1, leaves.length - 1]) {
      const rows = batchRows(await reader.decodePages([leaves[at]]));
      keys.push(rows[0].slice(0, 2) as string[], rows[rows.length - 1].slice(0, 2) as string[]);
    }
    for (const [a, b] of keys) {
      await goTo(`${a}, ${b}`);
      const position = Number((await db.query(`SELECT COUNT(*) FROM ix WHERE (a, b) < (${a}, '${b}')`)).rows[0][0]);
      const expected = (await db.query(`SELECT a, b, c, d, e FROM ix WHERE a = ${a} AND b = '${b}'`)).rows[0].map((v) => (v === null ? 'NULL' : String(v)));
      expect(await cells(position, 5), `${a}, ${b}`).toEqual(expected);
      const info = page.getByTestId('jump-info');
      await expect.poll(() => info.getAttribute('data-pages')).toBe(String(height));
      expect(await info.textContent()).toMatch(new RegExp(`${height} pages read, root to leaf, in [\\d.]+ ms`));
    }
    await shot('indexes-02-go-to');
    // An absent key, and a value that is not one of the column's.
    await goTo('3333, 1999-01-01');
    await expect.poll(() => page.getByTestId('jump-message').textContent()).toBe('No row has a, b = 3333, 1999-01-01.');
    expect(await page.getByTestId('jump-info').getAttribute('data-pages')).toBe(String(height));
    await goTo('abc, 2001-01-01');
    await expect.poll(() => page.getByTestId('jump-message').textContent()).toMatch(/^Cannot go to that key: 'abc' is not a value of column `a` \(INT\)/);
    await goTo('1, 2, 3');
    await expect.poll(() => page.getByTestId('jump-message').textContent()).toMatch(/the key \(a, b\) has 2 parts, 3 values were given/);
  });

  it('goes to the first row beginning with fewer parts on an index', async () => {
    await showIndex('kde', 'd');
    await goTo('17');
    const position = Number((await db.query('SELECT COUNT(*) FROM ix WHERE d < 17 OR d IS NULL')).rows[0][0]);
    const expected = (await db.query('SELECT d, e, a, b FROM ix FORCE INDEX (kde) WHERE d = 17 ORDER BY d, e, a, b LIMIT 1')).rows[0].map(String);
    expect(await cells(position, 4)).toEqual(expected);
    await showIndex(null, 'a');
    expectOwnOriginOnly(session);
  });
});
