/**
 * Partial rows in the built page (issue 26), against a real MariaDB: a table with two secondary
 * indexes (`ka` on a, `kbc` on b, c; `note` in none), one clustered leaf page zeroed in a copy of its
 * .ibd. The keys on that page are read from the intact file (not assumed). The page offers the partial
 * rows; they are exactly those keys, marked partial, their a, b, c what the server's SELECT shows and
 * `note` marked not recovered (not NULL, not a value); the full rows (the default CSV export) are the
 * server's other rows; the partial rows' export holds them with `_row_state` partial. Shown in the
 * grid: the panel's bound (before any is read) is their number, the rows are the server's in key
 * order with the partial ones among them (marked, `note` not recovered), a filter on an indexed column
 * finds them, a sort by an indexed column and Go to place them as the server orders them, and the
 * NDJSON, CSV and Parquet exports hold them with `_row_state` partial (SQL: their INSERTs commented out).
 * A partitioned table dropped as a folder, a leaf of one partition zeroed: its partial rows from that
 * partition's indexes, named by `_partition`, shown in the grid in partition order.
 */
import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { createConnection } from 'mariadb';
import { openTable } from '../../src/core/readers/table-reader.ts';
import { cellText } from '../../src/core/values/row-batch.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { tableDef } from '../differential/index-query.ts';
import { readRaw } from '../differential/parquet-values.ts';
import { pageSteps } from './harness.ts';
import { pageTest } from './page-test.ts';

describe('partial rows from the secondary indexes, in the page', () => {
  const env = pageTest('partial-rows', { mariadb: {} });
  const { waitForTable, open, download, clearAll } = pageSteps(() => env.page);
  let ibdCopy: string;
  let sqlPath: string;
  let lostIds: string[];

  beforeAll(async () => {
    const db = env.db;
    await db.exec(`CREATE TABLE pr (id INT NOT NULL PRIMARY KEY, a INT NULL, b VARCHAR(30) CHARACTER SET utf8mb4 NULL, c DATE NULL, note VARCHAR(200) NULL,
        KEY ka (a), KEY kbc (b, c)) ENGINE=InnoDB;
      INSERT INTO pr SELECT seq * 3, IF(seq % 11 = 0, NULL, seq % 500), CONCAT('name ', seq % 997, ' ü'), '2000-01-01' + INTERVAL seq % 3000 DAY, REPEAT(CHAR(97 + seq % 26), 40 + seq % 100) FROM seq_1_to_3000;`);
    const ibd = await db.exportTable('pr');
    const source = await fileSource(ibd);
    const reader = await openTable(source, await tableDef(db, 'pr'));
    const leaves = await reader.leafPages();
    const lost = leaves[Math.floor(leaves.length / 2)];
    const batch = await reader.decodePages([lost]);
    lostIds = [];
    for (let r = 0; r < batch.rows; r++) lostIds.push(cellText(batch, r, 0) ?? '');
    await source.close();
    const bytes = readFileSync(ibd);
    bytes.fill(0, lost * db.pageSize, (lost + 1) * db.pageSize);
    ibdCopy = join(env.work, 'pr.ibd');
    writeFileSync(ibdCopy, bytes);
    sqlPath = join(env.work, 'pr.sql');
    const create = await db.query('SHOW CREATE TABLE pr');
    writeFileSync(sqlPath, `${String(create.rows[0][1])};\n`);
  }, 240_000);

  it('shows exactly the lost keys as partial rows, their indexed columns the server\'s; the full rows and both exports equal', async () => {
    const page = env.page;
    expect(lostIds.length).toBeGreaterThan(20);
    await open([ibdCopy, sqlPath]);
    await waitForTable('pr', 'done', 120_000);
    const ids = lostIds.join(',');
    const full = await env.db.query(`SELECT id, a, b, c, note FROM pr WHERE id NOT IN (${ids}) ORDER BY id`);
    const parsed = Papa.parse<string[]>((await download('CSV', 'pr.csv')).toString('utf8'), { skipEmptyLines: true }).data;
    expect(parsed[0]).toEqual(['id', 'a', 'b', 'c', 'note']);
    expect(parsed.slice(1).map((r) => r.map((v) => (v === '\\N' ? null : v)))).toEqual(full.rows);

    await page.getByTestId('partial-load').click();
    const section = page.locator('[data-testid="partial-rows"][data-rows]');
    await section.waitFor({ timeout: 60_000 });
    expect(Number(await section.getAttribute('data-rows'))).toBe(lostIds.length);
    const summary = (await page.getByTestId('partial-summary').textContent()) ?? '';
    expect(summary).toMatch(new RegExp(`${lostIds.length} rows recovered in part \\(\\d+ rows from index ka, \\d+ rows from index kbc\\)`));
    const header = await page.locator('[data-testid="partial-grid"] th').allTextContents();
    expect(header).toEqual(['id', 'a', 'b', 'c', 'note', '_row_state']);
    const shown = await page.locator('[data-testid="partial-grid"] tbody tr').evaluateAll((trs) => trs.map((tr) => ({
      state: tr.getAttribute('data-state'),
      cells: Array.from(tr.querySelectorAll('td'), (td) => (td.hasAttribute('data-absent') ? { absent: true } : td.classList.contains('null') ? null : td.textContent)),
    })));
    const expected = await env.db.query(`SELECT id, a, b, c FROM pr WHERE id IN (${ids}) ORDER BY id`);
    expect(shown.map((r) => r.cells.slice(0, 4))).toEqual(expected.rows);
    expect(shown.every((r) => r.state === 'partial')).toBe(true);
    expect(shown.map((r) => r.cells.slice(4))).toEqual(shown.map(() => [{ absent: true }, 'partial']));

    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), page.getByTestId('partial-export').click()]);
    expect(dl.suggestedFilename()).toBe('pr.partial.csv');
    const rows = Papa.parse<string[]>(readFileSync(await dl.path()).toString('utf8'), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['id', 'a', 'b', 'c', 'note', '_row_state']);
    expect(rows.slice(1).map((r) => r.slice(0, 4).map((v) => (v === '\\N' ? null : v)))).toEqual(expected.rows);
    expect(rows.slice(1).every((r) => r[4].startsWith('[absent:') && r[5] === 'partial')).toBe(true);
  }, 300_000);

  it('shows them in the grid in key order among the intact rows, filters them and exports them in every format', async () => {
    const page = env.page;
    const bound = page.locator('[data-testid="damage-banner"] [data-testid="partial-bound"]');
    await bound.waitFor({ timeout: 60_000 });
    expect(Number(await bound.getAttribute('data-rows'))).toBe(lostIds.length);
    await page.getByTestId('partial-grid-show').click();
    await page.getByTestId('partial-grid-hide').waitFor({ timeout: 60_000 });
    await waitForTable('pr', 'done', 120_000);
    await expect.poll(() => page.getByTestId('grid').getAttribute('data-count'), { timeout: 60_000 }).toBe('3000');
    const lost = new Set(lostIds);
    const all = await env.db.query('SELECT id, a, b, c, note FROM pr ORDER BY id');
    const text = (v: unknown): string | null => (v === null ? null : String(v));
    /** A row as the server has it, `note` not recovered where the row is partial, then its state. */
    const expected = all.rows.map((r) => (lost.has(String(r[0])) ? [...r.slice(0, 4).map(text), 'absent', 'partial'] : [...r.map(text), 'live']));

    const ndjson = (await download('NDJSON strings', 'pr.ndjson')).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(ndjson.map((o) => ['id', 'a', 'b', 'c', 'note', '_row_state'].map((k) => (typeof o[k] === 'string' && (o[k] as string).startsWith('[absent:') ? 'absent' : text(o[k]))))).toEqual(expected);
    const csv = Papa.parse<string[]>((await download('CSV', 'pr.csv')).toString('utf8'), { skipEmptyLines: true }).data;
    expect(csv[0]).toEqual(['id', 'a', 'b', 'c', 'note', '_row_state']);
    expect(csv.slice(1).map((r) => r.map((v) => (v === '\\N' ? null : v.startsWith('[absent:') ? 'absent' : v)))).toEqual(expected);

    // SQL: a partial row's INSERT is commented out (a re-import loads whole rows only); Parquet holds them, marked.
    const sql = (await download('SQL', 'pr.sql')).toString('utf8');
    const commented = sql.split('\n').filter((l) => l.startsWith('-- ')).join('\n');
    for (const id of lostIds) expect(commented).toMatch(new RegExp(`\\(${id},`));
    const loaded = sql.split('\n').filter((l) => !l.startsWith('--')).join('\n');
    for (const id of lostIds) expect(loaded).not.toMatch(new RegExp(`\\(${id},`));
    const parquet = await download('Parquet', 'pr.parquet');
    const { meta, rows: pq } = await readRaw(parquet.buffer.slice(parquet.byteOffset, parquet.byteOffset + parquet.length) as ArrayBuffer);
    expect(meta.schema.slice(1).map((e) => e.name)).toEqual(['id', 'a', 'b', 'c', 'note', '_row_state']);
    const utf8 = (v: unknown): string => (v instanceof Uint8Array ? new TextDecoder().decode(v) : String(v));
    expect(pq.map((r) => [utf8(r[0]), r[1] === null ? null : utf8(r[1]), utf8(r[5])])).toEqual(expected.map((r) => [r[0], r[1], r[5]]));

    // A filter on an indexed column finds partial rows among the intact ones, in key order.
    const [probe] = (await env.db.query(`SELECT a FROM pr WHERE id IN (${lostIds.join(',')}) AND a IS NOT NULL ORDER BY id LIMIT 1`)).rows;
    const value = String(probe[0]);
    const matches = await env.db.query(`SELECT id FROM pr WHERE CAST(a AS CHAR) LIKE '%${value}%' ORDER BY id`);
    await page.getByTestId('filter-column').selectOption({ label: 'in a' });
    await page.getByTestId('filter-text').fill(value);
    await page.getByTestId('filter-text').press('Enter');
    await expect.poll(() => page.getByTestId('grid').getAttribute('data-count'), { timeout: 60_000 }).toBe(String(matches.rows.length));
    await page.locator('.row[data-pending]').first().waitFor({ state: 'detached', timeout: 10_000 });
    const rows = await page.locator('[data-row]').evaluateAll((els) => els.map((el) => ({
      state: el.getAttribute('data-state'),
      cells: Array.from(el.querySelectorAll('[role="gridcell"]'), (c) => (c.hasAttribute('data-absent') ? 'absent' : c.textContent ?? '')),
    })));
    expect(rows.map((r) => r.cells[0])).toEqual(matches.rows.map((r) => String(r[0])));
    expect(rows.map((r) => r.state)).toEqual(matches.rows.map((r) => (lost.has(String(r[0])) ? 'partial' : 'live')));
    expect(rows.some((r) => r.state === 'partial' && r.cells[4] === 'absent')).toBe(true);

    // Go to a lost key: its partial row, at its place in key order.
    const target = lostIds[Math.floor(lostIds.length / 2)];
    const rowNo = all.rows.findIndex((r) => String(r[0]) === target);
    await page.getByTestId('jump-key').fill(target);
    await page.getByTestId('jump-key').press('Enter');
    const row = page.locator(`[data-row="${rowNo}"]`);
    await row.waitFor({ timeout: 30_000 });
    expect(await row.getAttribute('data-state')).toBe('partial');
    expect(await row.locator('[role="gridcell"][data-col="0"]').textContent()).toBe(target);
    expect(await row.locator('.cell.active').count()).toBe(1);

    // Sorted by c (held by index kbc): the partial rows take their places among the intact ones.
    const byC = (await env.db.query('SELECT id FROM pr ORDER BY c, id')).rows.map((r) => String(r[0]));
    const sortButton = page.getByTestId('sort-c');
    for (let i = 0; i < 3 && (await sortButton.getAttribute('data-direction')) !== 'asc'; i++) await sortButton.click();
    await expect.poll(() => page.getByTestId('sort-status').textContent(), { timeout: 60_000 }).toMatch(/^\s*Sorted by c, ties in primary key order/);
    const firstPartial = byC.findIndex((id) => lost.has(id));
    await page.getByTestId('grid').evaluate((el, y) => {
      el.scrollTop = y;
    }, Math.max(0, firstPartial - 4) * 22);
    await page.locator(`[data-row-pos="${firstPartial}"][data-row]`).waitFor({ timeout: 30_000 });
    const sorted = await page.locator('[data-row]').evaluateAll((els) => els.map((el) => ({
      pos: Number(el.getAttribute('data-row-pos')),
      id: el.querySelector('[role="gridcell"][data-col="0"]')?.textContent ?? '',
      state: el.getAttribute('data-state'),
    })));
    expect(sorted.length).toBeGreaterThan(5);
    expect(sorted.map((r) => r.id)).toEqual(sorted.map((r) => byC[r.pos]));
    expect(sorted.map((r) => r.state)).toEqual(sorted.map((r) => (lost.has(byC[r.pos]) ? 'partial' : 'live')));
  }, 300_000);

  it('a partitioned table: a partition\u2019s partial rows from its own indexes, with its name, in the grid in partition order', async () => {
    const { db, page } = env;
    await db.exec(`CREATE TABLE pp (id INT NOT NULL PRIMARY KEY, a INT NULL, b VARCHAR(30) NULL, note VARCHAR(200) NULL, KEY ka (a), KEY kb (b)) ENGINE=InnoDB
        PARTITION BY HASH (id) PARTITIONS 2;
      INSERT INTO pp SELECT seq, seq % 300, CONCAT('b', seq % 777), REPEAT('x', 50 + seq % 90) FROM seq_1_to_6000;`);
    const folder = join(env.work, 'ppdir', 'test');
    mkdirSync(folder, { recursive: true });
    const c = await createConnection({ socketPath: db.socket, user: 'root', database: 'test' });
    try {
      await c.query('FLUSH TABLES pp FOR EXPORT');
      const from = join(db.datadir, 'test');
      for (const f of readdirSync(from)) if (/^pp(#P#.*\.ibd|\.frm|\.par)$/.test(f)) copyFileSync(join(from, f), join(folder, f));
    } finally {
      await c.query('UNLOCK TABLES');
      await c.end();
    }
    const file = join(folder, 'pp#P#p1.ibd');
    const source = await fileSource(file);
    const reader = await openTable(source, await tableDef(db, 'pp'));
    const leaf = (await reader.leafPages())[2];
    const batch = await reader.decodePages([leaf]);
    const lost = new Set<string>();
    for (let r = 0; r < batch.rows; r++) lost.add(cellText(batch, r, 0) ?? '');
    await source.close();
    const bytes = readFileSync(file);
    bytes.fill(0, leaf * db.pageSize, (leaf + 1) * db.pageSize);
    writeFileSync(file, bytes);
    expect(lost.size).toBeGreaterThan(20);

    await clearAll();
    await page.locator('[data-testid="folder-input"]').setInputFiles(join(env.work, 'ppdir'));
    await page.locator('[data-testid="table-item"][data-table="pp"]').click();
    await waitForTable('pp', 'done', 120_000);
    const bound = page.locator('[data-testid="damage-banner"] [data-testid="partial-bound"]');
    await bound.waitFor({ timeout: 60_000 });
    expect(Number(await bound.getAttribute('data-rows'))).toBe(lost.size);
    await page.getByTestId('partial-load').click();
    const section = page.locator('[data-testid="partial-rows"][data-rows]');
    await section.waitFor({ timeout: 60_000 });
    expect(Number(await section.getAttribute('data-rows'))).toBe(lost.size);
    expect((await page.getByTestId('partial-summary').textContent())?.replace(/\s+/g, ' ')).toContain(`clustered leaf page ${leaf} of partition p1:`);
    expect(await page.locator('[data-testid="partial-grid"] th').allTextContents()).toEqual(['id', 'a', 'b', 'note', '_partition', '_row_state']);

    await page.getByTestId('partial-grid-show').click();
    await page.getByTestId('partial-grid-hide').waitFor({ timeout: 60_000 });
    await waitForTable('pp', 'done', 120_000);
    await expect.poll(() => page.getByTestId('grid').getAttribute('data-count'), { timeout: 60_000 }).toBe('6000');
    const text = (v: unknown): string | null => (v === null ? null : String(v));
    const expected: (string | null)[][] = [];
    for (const p of ['p0', 'p1']) {
      for (const r of (await db.query(`SELECT id, a, b, note FROM pp PARTITION (${p}) ORDER BY id`)).rows) {
        expected.push(lost.has(String(r[0])) ? [...r.slice(0, 3).map(text), 'absent', p, 'partial'] : [...r.map(text), p, 'live']);
      }
    }
    const csv = Papa.parse<string[]>((await download('CSV', 'pp.csv')).toString('utf8'), { skipEmptyLines: true }).data;
    expect(csv[0]).toEqual(['id', 'a', 'b', 'note', '_partition', '_row_state']);
    expect(csv.slice(1).map((r) => r.map((v) => (v === '\\N' ? null : v.startsWith('[absent:') ? 'absent' : v)))).toEqual(expected);
  }, 300_000);
});
