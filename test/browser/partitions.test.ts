/**
 * Partitioned tables dropped as a folder on the BUILT page (dist/), in the machine's headless
 * Chromium, against a real MariaDB (test/harness/mariadb.ts): RANGE with HASH subpartitions and LIST
 * partitions, their files (`t#P#p0.ibd`, `t#P#p0#SP#p0sp0.ibd`) with the .frm and .par beside them,
 * shown as one table each with its partitions in order and the rows of each (INFORMATION_SCHEMA's
 * order, `SELECT … PARTITION (p)`'s counts); the CSV export of all of them, each row ending with its
 * partition (`_partition`), equal to the server's rows partition by partition; "Go to" a key
 * through each partition's B-tree in turn (the pages read: one per level of each partition searched);
 * a secondary index chosen: its rows put in the index's order across the partitions (a sort by its
 * whole key), as the server's `FORCE INDEX` read of the table, Go to and a filter keeping that order.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection } from 'mariadb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { openInnodbPartitions } from '../../src/lib/node.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectOwnOriginOnly, pageSteps, type Session } from './harness.ts';
import { pageTest } from './page-test.ts';

describe('partitioned tables, in the built page', () => {
  let db: MariadbServer | undefined;
  let session: Session;
  let page: Page;
  let work: string;
  let folder: string;

  const env = pageTest('partitions', { mariadb: {} });
  const { shot, waitForTable, rowCount, download, clearAll } = pageSteps(() => page);

  /** The table's (sub)partitions in order, with the server's rows of each in key order. */
  async function serverPartitions(server: MariadbServer, table: string, order: string): Promise<{ name: string; rows: (string | null)[][] }[]> {
    const listed = await server.query(`SELECT PARTITION_NAME, SUBPARTITION_NAME FROM information_schema.PARTITIONS WHERE TABLE_SCHEMA = 'test' AND TABLE_NAME = '${table}' ORDER BY PARTITION_ORDINAL_POSITION, SUBPARTITION_ORDINAL_POSITION`);
    const parts = [];
    for (const [p, s] of listed.rows) {
      parts.push({ name: s ? `${p}#SP#${s}` : (p as string), rows: (await server.query(`SELECT * FROM ${table} PARTITION (\`${s ?? p}\`) ORDER BY ${order}`)).rows });
    }
    return parts;
  }

  beforeAll(async () => {
    ({ db, session, page, work } = env);
    await db.exec(`
      CREATE TABLE sales (id INT NOT NULL, yr INT NOT NULL, amt DECIMAL(8,2), note VARCHAR(30), PRIMARY KEY (id, yr), KEY kan (amt, note))
        PARTITION BY RANGE (yr) SUBPARTITION BY HASH (id) SUBPARTITIONS 2
        (PARTITION p2019 VALUES LESS THAN (2020), PARTITION p2020 VALUES LESS THAN (2021), PARTITION pmax VALUES LESS THAN MAXVALUE);
      INSERT INTO sales SELECT seq, 2018 + seq % 5, seq / 7, CONCAT('sale ', seq) FROM seq_1_to_6000;
      CREATE TABLE regions (id INT NOT NULL PRIMARY KEY, region INT NOT NULL, name VARCHAR(20)) ROW_FORMAT=COMPACT
        PARTITION BY LIST (id % 4) (PARTITION east VALUES IN (0, 1), PARTITION west VALUES IN (2), PARTITION \`mid\` VALUES IN (3));
      INSERT INTO regions SELECT seq, seq % 4, CONCAT('r', seq) FROM seq_1_to_3000;`);
    // The database folder as the server has it: each table's partition files, its .frm and .par.
    folder = join(work, 'datadir', 'test');
    mkdirSync(folder, { recursive: true });
    const c = await createConnection({ socketPath: db.socket, user: 'root', database: 'test' });
    try {
      await c.query('FLUSH TABLES sales, regions FOR EXPORT');
      const from = join(db.datadir, 'test');
      for (const f of readdirSync(from)) if (/^(sales|regions)(#P#.*\.ibd|\.frm|\.par)$/.test(f)) copyFileSync(join(from, f), join(folder, f));
    } finally {
      await c.query('UNLOCK TABLES');
      await c.end();
    }
  }, 240_000);

  it('shows each table once with its partitions and their rows; its rows and CSV are every partition\'s, each with its partition', async () => {
    const server = db as MariadbServer;
    await page.locator('[data-testid="folder-input"]').setInputFiles(join(work, 'datadir'));
    await page.locator('[data-testid="table-item"][data-table="sales"]').waitFor({ timeout: 60_000 });
    const names = await page.locator('[data-testid="table-item"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-table')));
    expect(names.sort()).toEqual(['regions', 'sales']);
    for (const [table, order] of [['sales', 'id, yr'], ['regions', 'id']] as const) {
      const want = await serverPartitions(server, table, order);
      await page.locator(`[data-testid="table-item"][data-table="${table}"]`).click();
      await waitForTable(table, 'done', 120_000);
      expect(await rowCount()).toBe(want.reduce((n, p) => n + p.rows.length, 0));
      const shown = await page.locator('[data-testid="partition"]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-name'), e.getAttribute('data-rows')]));
      expect(shown).toEqual(want.map((p) => [p.name, String(p.rows.length)]));
      const columns = (await server.query(`SELECT * FROM ${table} LIMIT 0`)).columns;
      const rows = want.flatMap((p) => p.rows.map((r) => [...r, p.name]));
      expect((await download('CSV', `${table}.csv`)).toString('utf8')).toBe(csvHeader([...columns, '_partition']) + csvRows(rows));
    }
    await shot('partitions');
    expectOwnOriginOnly(session);
  }, 300_000);

  it('"Download tables.sql" creates each table with its PARTITION BY clause; a server loading it puts every row back in its partition', async () => {
    const server = db as MariadbServer;
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), page.getByTestId('export-all-sql').click()]);
    expect(dl.suggestedFilename()).toBe('tables.sql');
    const sql = readFileSync((await dl.path())!, 'utf8');
    expect(await page.getByTestId('export-all').getAttribute('data-failed')).toBe('0');
    expect(sql).not.toMatch(/created unpartitioned/);
    const loaded = await startMariadb();
    try {
      await loaded.exec(sql);
      for (const [table, order] of [['sales', 'id, yr'], ['regions', 'id']] as const) {
        // the same partitions (the server's own description of them), each with the same rows
        const layout = `SELECT PARTITION_NAME, SUBPARTITION_NAME, PARTITION_METHOD, SUBPARTITION_METHOD, PARTITION_EXPRESSION, PARTITION_DESCRIPTION FROM information_schema.PARTITIONS WHERE TABLE_SCHEMA = 'test' AND TABLE_NAME = '${table}' ORDER BY PARTITION_ORDINAL_POSITION, SUBPARTITION_ORDINAL_POSITION`;
        expect((await loaded.query(layout)).rows, table).toEqual((await server.query(layout)).rows);
        expect(await serverPartitions(loaded, table, order), table).toEqual(await serverPartitions(server, table, order));
      }
    } finally {
      await loaded.stop();
    }
  }, 300_000);

  it('goes to a key through the partitions\' B-trees, one after the other, to the server\'s row', async () => {
    const server = db as MariadbServer;
    const want = await serverPartitions(server, 'sales', 'id, yr');
    // Each partition's tree height, in partition order: a search reads one page per level of each partition it searches.
    const opened = await openInnodbPartitions(readdirSync(folder).filter((f) => f.startsWith('sales#P#')).map((f) => join(folder, f)));
    const heights = opened.table.partitions.map((p) => p.table?.info.treeHeight ?? 0);
    await opened.close();
    expect(opened.table.partitions.map((p) => p.name)).toEqual(want.map((p) => p.name));
    await page.locator('[data-testid="table-item"][data-table="sales"]').click();
    await waitForTable('sales', 'done', 120_000);
    const rows = want.flatMap((p, part) => p.rows.map((r) => ({ r, part })));
    for (const [id, yr] of [['77', '2020'], ['5998', '2021'], ['1', '2019']]) {
      await page.getByTestId('jump-key').fill(`${id}, ${yr}`);
      await page.getByTestId('jump-key').press('Enter');
      const at = rows.findIndex(({ r }) => String(r[0]) === id && String(r[1]) === yr);
      const info = page.getByTestId('jump-info');
      await expect.poll(() => info.getAttribute('data-pages')).toBe(String(heights.slice(0, rows[at].part + 1).reduce((a, b) => a + b, 0)));
      expect(await info.textContent()).toMatch(/Looked up through the B-tree: .*partitions' B-trees searched in partition order/);
      const shown = page.locator(`[data-row="${at}"]`);
      await shown.waitFor({ timeout: 20_000 });
      const cells: string[] = [];
      for (let c = 0; c < 5; c++) cells.push((await shown.locator(`[data-col="${c}"]`).textContent()) ?? '');
      expect(cells).toEqual([...rows[at].r.map((v) => (v === null ? 'NULL' : String(v))), want[rows[at].part].name]);
    }
    // A key no partition holds: every partition searched.
    await page.getByTestId('jump-key').fill('99999, 2020');
    await page.getByTestId('jump-key').press('Enter');
    await expect.poll(() => page.getByTestId('jump-message').textContent()).toBe('No row has id, yr = 99999, 2020.');
    expect(await page.getByTestId('jump-info').getAttribute('data-pages')).toBe(String(heights.reduce((a, b) => a + b, 0)));
    await shot('partitions-go-to');
  }, 300_000);

  it('shows a secondary index in its order across the partitions, as the server reads the table with FORCE INDEX; Go to keeps that order', async () => {
    const server = db as MariadbServer;
    const parts = await serverPartitions(server, 'sales', 'id, yr');
    // Each row's partition, by its primary key; each partition's rows of the index in turn (what the grid shows before the merge).
    const partitionOf = new Map<string, string>();
    const byPartition: (string | null)[][] = [];
    for (const { name } of parts) {
      const own = name.split('#SP#').at(-1) as string;
      const rows = (await server.query(`SELECT amt, note, id, yr FROM sales PARTITION (\`${own}\`) FORCE INDEX (kan) ORDER BY amt, note, id, yr`)).rows;
      for (const r of rows) partitionOf.set(`${r[2]},${r[3]}`, name);
      byPartition.push(...rows.map((r) => [...r, name]));
    }
    const want = (await server.query('SELECT amt, note, id, yr FROM sales FORCE INDEX (kan) ORDER BY amt, note, id, yr')).rows.map((r) => [...r, partitionOf.get(`${r[2]},${r[3]}`) ?? null]);
    // The partitions' orders interleave: one order is not their rows one partition after the other.
    expect(want.map(String)).not.toEqual(byPartition.map(String));
    await page.locator('[data-testid="table-item"][data-table="sales"]').click();
    await waitForTable('sales', 'done', 120_000);
    await page.getByTestId('index-choice').selectOption('kan');
    await page.getByTestId('sort-amt').waitFor();
    await waitForTable('sales', 'done', 120_000);
    expect(await rowCount()).toBe(want.length);
    await expect.poll(() => page.getByTestId('sort-status').textContent(), { timeout: 60_000 }).toMatch(/^\s*Sorted by the key \(amt, note, id, yr\): the index's order across the partitions\./);
    expect(await page.getByTestId('index-order-note').textContent()).toMatch(/in the index's order across the partitions/);
    expect((await download('CSV', 'sales.kan.csv')).toString('utf8')).toBe(csvHeader(['amt', 'note', 'id', 'yr', '_partition']) + csvRows(want));
    await shot('partitions-index');
    // Go to a key: the row where the merged order has it, the order kept.
    const at = 3217;
    await page.getByTestId('jump-key').fill(`${want[at][0]}, ${want[at][1]}`);
    await page.getByTestId('jump-key').press('Enter');
    await expect.poll(() => page.getByTestId('jump-info').textContent()).toMatch(/Looked up through the B-tree/);
    const found = page.locator(`[data-row-pos="${at}"]`);
    await found.waitFor({ timeout: 20_000 });
    expect(await found.locator('[data-col="2"]').textContent()).toBe(String(want[at][2]));
    expect(await page.getByTestId('index-order-note').textContent()).toMatch(/in the index's order across the partitions/);
    // A filter over the index's rows keeps the order too.
    await page.getByTestId('filter-text').fill('sale 12');
    await page.getByTestId('filter-text').press('Enter');
    const matching = want.filter((r) => String(r[1]).includes('sale 12'));
    await expect.poll(() => page.getByTestId('filter-result').textContent(), { timeout: 60_000 }).toMatch(new RegExp(`^${matching.length} of 6,000 rows`));
    await expect.poll(() => page.getByTestId('sort-status').textContent(), { timeout: 60_000 }).toMatch(/^\s*Sorted by the key/);
    const first = page.locator('[data-row-pos="0"][data-row]:not([data-pending])');
    await first.waitFor({ timeout: 20_000 });
    expect(await first.locator('[data-col="2"]').textContent()).toBe(String(matching[0][2]));
    await page.getByTestId('filter-text').fill('');
    await page.getByTestId('filter-text').press('Enter');
    // Cleared, the rows come partition after partition again, and the note says so.
    await page.getByTestId('sort-amt').click();
    await page.getByTestId('sort-amt').click();
    await expect.poll(() => page.getByTestId('index-order-note').textContent()).toMatch(/in index order within each partition; sort by amt for one order/);
  }, 300_000);

  it('damaged partitions: one empty file named unreadable, one with page 0 zeroed said; the rows of those that read', async () => {
    const server = db as MariadbServer;
    const want = await serverPartitions(server, 'regions', 'id');
    const damaged = join(work, 'damaged', 'test');
    mkdirSync(damaged, { recursive: true });
    for (const f of readdirSync(folder)) if (f.startsWith('regions')) copyFileSync(join(folder, f), join(damaged, f));
    writeFileSync(join(damaged, 'regions#P#west.ibd'), new Uint8Array(0));
    const mid = readFileSync(join(damaged, 'regions#P#mid.ibd'));
    mid.fill(0, 0, server.pageSize);
    writeFileSync(join(damaged, 'regions#P#mid.ibd'), mid);
    await clearAll();
    await page.locator('[data-testid="folder-input"]').setInputFiles(join(work, 'damaged'));
    await page.locator('[data-testid="table-item"][data-table="regions"]').click();
    await waitForTable('regions', 'done', 120_000);
    const read = want.filter((p) => p.name !== 'west');
    expect(await rowCount()).toBe(read.reduce((n, p) => n + p.rows.length, 0));
    const shown = await page.locator('[data-testid="partition"]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-name'), e.getAttribute('data-rows')]));
    expect(shown).toEqual(read.map((p) => [p.name, String(p.rows.length)]));
    const warnings = (await page.getByTestId('partition-warnings').textContent()) ?? '';
    expect(warnings).toContain('partition west of regions cannot be read: regions#P#west.ibd');
    expect(warnings).toContain('regions#P#mid.ibd: page 0 (the space header) is damaged');
    const columns = (await server.query('SELECT * FROM regions LIMIT 0')).columns;
    expect((await download('CSV', 'regions.csv')).toString('utf8')).toBe(csvHeader([...columns, '_partition']) + csvRows(read.flatMap((p) => p.rows.map((r) => [...r, p.name]))));
  }, 300_000);
});
