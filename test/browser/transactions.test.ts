/**
 * The Transactions view (issue 39) on the BUILT page (dist/), in the machine's headless Chromium: the
 * datadir of test/differential/undo-history.test.ts (a MariaDB 10.11 server with three undo
 * tablespaces; a read view held open keeps purge back while an UPDATE without WHERE, a DELETE, an
 * INSERT, a primary-key update and a one-row UPDATE commit, each after a SELECT; every page written,
 * the server killed) dropped as a folder. The view lists each transaction with its table and the
 * server's affected rows; "As before" shows the grid as before it: its CSV export equals the SELECT
 * taken before it, and the cells whose values are not today's are highlighted. A table altered with
 * ALGORITHM=INSTANT (whose records this reader does not rebuild from undo logs) then has 10 of its 50
 * rows updated, the view still held: as before that transaction, those 10 rows are history-lost,
 * counted in the banner and withheld; the row mode "both" shows them as on disk, marked, as the CLI's
 * --before-trx --rows both does. "Revert SQL" of the one-row UPDATE, then of the primary-key update,
 * each loaded into a second server recovering a copy of the datadir, gives back the SELECT taken
 * before each; so does that of an UPDATE of 30,000 long names (`wide`), whose held UPDATEs pass 8 Mi
 * characters and go through the page's origin-private file system (workers/opfs-run.ts). A partitioned
 * table's UPDATE, named by the undo logs in each partition, is taken back in every partition, and each
 * partition's Revert SQL, run by a recovering server, gives back its rows.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { buildCli, cli, commitItemSteps, flushDirtyPages, ITEMS_SELECT, type StepBefore } from '../differential/undo-setup.ts';
import { checkSetup, expectOwnOriginOnly, loadPage, pageSteps, startSession, type Session } from './harness.ts';

const COLUMNS = ['id', 'name', 'price', 'note'];

/** Commits `statement` in a transaction of its own, then writes every dirty page; returns its transaction id. */
async function commitAlone(server: MariadbServer, statement: string): Promise<string> {
  const writer = await server.openSession();
  await writer.exec('START TRANSACTION');
  await writer.exec(statement);
  // INFORMATION_SCHEMA.INNODB_TRX is a cache refreshed at most every 0.1 s.
  await new Promise((r) => setTimeout(r, 250));
  const trxId = String((await writer.query('SELECT trx_id FROM information_schema.innodb_trx WHERE trx_mysql_thread_id = CONNECTION_ID()')).rows[0][0]);
  await writer.exec('COMMIT');
  await flushDirtyPages(server);
  return trxId;
}

/** `altered` (50 rows, a column added with ALGORITHM=INSTANT), then a committed UPDATE of 10 of them; returns its transaction id. */
async function commitAlteredUpdate(server: MariadbServer): Promise<string> {
  await server.exec(`CREATE TABLE altered (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL); INSERT INTO altered SELECT seq, CONCAT('a', seq) FROM seq_1_to_50;
    ALTER TABLE altered ADD COLUMN extra INT NOT NULL DEFAULT 7, ALGORITHM=INSTANT`);
  return commitAlone(server, "UPDATE altered SET name = 'changed' WHERE id % 5 = 0");
}

/** `wide` (30,000 rows of long names), then a committed UPDATE of every name: its revert holds more than 8 Mi characters of UPDATEs. Returns the SELECT before it and its transaction id. */
async function commitWideUpdate(server: MariadbServer): Promise<{ rows: (string | null)[][]; trxId: string }> {
  await server.exec("CREATE TABLE wide (id INT PRIMARY KEY, name VARCHAR(400) NOT NULL); INSERT INTO wide SELECT seq, CONCAT('wide ', seq, ' ', REPEAT('w', 300)) FROM seq_1_to_30000");
  const rows = (await server.query('SELECT id, name FROM wide ORDER BY id')).rows;
  return { rows, trxId: await commitAlone(server, "UPDATE wide SET name = CONCAT('oops ', id)") };
}

const PARTS = ['p0', 'p1', 'p2'];

/** `parted` (60 rows in 3 hash partitions), then a committed UPDATE of half its rows, in every partition; returns each partition's SELECT before it and its transaction id. */
async function commitPartedUpdate(server: MariadbServer): Promise<{ parts: (string | null)[][][]; trxId: string }> {
  await server.exec("CREATE TABLE parted (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL) PARTITION BY HASH(id) PARTITIONS 3; INSERT INTO parted SELECT seq, CONCAT('p', seq) FROM seq_1_to_60");
  const parts = await Promise.all(PARTS.map(async (p) => (await server.query(`SELECT id, name FROM parted PARTITION (${p}) ORDER BY id`)).rows));
  return { parts, trxId: await commitAlone(server, "UPDATE parted SET name = CONCAT('oops ', id) WHERE id % 2 = 0") };
}

describe('the Transactions view, in the built page', () => {
  let server: MariadbServer;
  let datadir: string;
  let session: Session;
  let page: Page;
  let work: string;
  let before: StepBefore[] = [];
  let alteredTrx = '';
  let wide: { rows: (string | null)[][]; trxId: string } = { rows: [], trxId: '' };
  let parted: { parts: (string | null)[][][]; trxId: string } = { parts: [], trxId: '' };

  const { shot, waitForTable, rowCount, clearAll, download, panel } = pageSteps(() => page);
  const trxTable = (trxId: string, table = 'test/items') => page.locator(`[data-testid="transaction"][data-trx="${trxId}"] [data-testid="trx-table"][data-table="${table}"]`);

  beforeAll(async () => {
    checkSetup();
    server = await startMariadb({ extraArgs: ['--innodb-undo-tablespaces=3'] });
    before = await commitItemSteps(server);
    alteredTrx = await commitAlteredUpdate(server);
    wide = await commitWideUpdate(server);
    parted = await commitPartedUpdate(server);
    await server.crash();
    buildCli();
    datadir = server.copyDatadir();
    work = mkdtempSync(join(tmpdir(), 'ibd-transactions-test-'));
    session = await startSession(join(work, 'chromium-profile'));
    page = session.page;
    await loadPage(session);
  }, 600_000);

  afterAll(async () => {
    await session?.close();
    await server?.stop();
    for (const dir of [work, datadir]) if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  /** "Revert SQL" of transaction `trxId` on items: the downloaded file's text, once written. */
  async function revertSql(trxId: string, table = 'items', check?: (progress: string) => void): Promise<string> {
    await panel('transactions');
    const [dl] = await Promise.all([page.waitForEvent('download', { timeout: 120_000 }), trxTable(trxId, `test/${table}`).getByTestId('revert-sql').click()]);
    expect(dl.suggestedFilename()).toBe(`${table}.revert-${trxId}.sql`);
    const progress = page.getByTestId('revert-progress');
    await page.locator('[data-testid="revert-progress"][data-state="done"]').waitFor({ timeout: 120_000 });
    expect(await progress.getAttribute('data-lost')).toBe('0');
    check?.((await progress.textContent()) ?? '');
    const text = readFileSync(await dl.path() as string, 'utf8');
    await progress.getByRole('button', { name: 'OK', exact: true }).click();
    return text;
  }

  /** "As before" transaction `trxId` on items, once its rows are counted. */
  async function showBefore(trxId: string): Promise<void> {
    await panel('transactions');
    await trxTable(trxId).getByTestId('before-trx').click();
    await page.locator(`[data-testid="before-trx-banner"][data-trx="${trxId}"]`).waitFor();
    await waitForTable('items', 'done', 120_000);
  }

  it('lists each transaction, newest first, with its table and the server\'s affected rows', async () => {
    await clearAll();
    await page.locator('[data-testid="folder-input"]').setInputFiles(datadir);
    await page.locator('[data-testid="table-item"][data-table="items"]').click();
    await waitForTable('items', 'done', 120_000);
    await panel('transactions');
    await trxTable(before[0].trxId).waitFor({ timeout: 60_000 });
    const counts = async (i: number) => {
      const t = trxTable(before[i].trxId);
      return { inserted: Number(await t.getAttribute('data-inserted')), updated: Number(await t.getAttribute('data-updated')), deleted: Number(await t.getAttribute('data-deleted')) };
    };
    expect(await counts(0)).toEqual({ inserted: 0, updated: before[0].affected, deleted: 0 });
    expect(await counts(1)).toEqual({ inserted: 0, updated: 0, deleted: before[1].affected });
    expect(await counts(2)).toEqual({ inserted: before[2].affected, updated: 0, deleted: 0 });
    expect(await counts(4)).toEqual({ inserted: 0, updated: before[4].affected, deleted: 0 });
    expect(await trxTable(before[4].trxId).textContent()).toContain('(columns name)');
    // newest first
    const ids = await page.locator('[data-testid="transaction"]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-trx'))));
    expect(ids.indexOf(Number(before[4].trxId))).toBeLessThan(ids.indexOf(Number(before[0].trxId)));
    await shot('transactions-list');
  }, 300_000);

  it('as before the one-row UPDATE: one row taken back, its name cell highlighted; the CSV equals the SELECT before it', async () => {
    await showBefore(before[4].trxId);
    const banner = page.getByTestId('before-trx-banner');
    await expect.poll(() => banner.getAttribute('data-rolled-back')).toBe('1');
    expect(await rowCount()).toBe(before[4].rows.length);
    // id 2 is the table's first row (step 3 moved id 1 to 10001): its name is the old one, and marked; no other cell is
    const row = page.locator('[role="row"][data-row="0"]');
    await row.waitFor();
    expect(await row.locator('[data-col="1"]').textContent()).toBe('item 2');
    expect(await row.locator('[data-changed]').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-col')))).toEqual(['1']);
    expect(await page.locator('[role="row"][data-row] [data-changed]').count()).toBe(1);
    await shot('transactions-before-update');
    expect((await download('CSV', 'items.csv')).toString('utf8')).toBe(csvHeader(COLUMNS) + csvRows(before[4].rows));
  }, 300_000);

  it('as before the UPDATE without WHERE: every later change taken back, the CSV equals the SELECT before it, changed cells highlighted', async () => {
    await showBefore(before[0].trxId);
    expect(await rowCount()).toBe(before[0].rows.length);
    expect((await download('CSV', 'items.csv')).toString('utf8')).toBe(csvHeader(COLUMNS) + csvRows(before[0].rows));
    // id 1 was moved to 10001 (its old record back whole), id 2 had its price and name changed
    const changed = (n: number) => page.locator(`[role="row"][data-row="${n}"] [data-changed]`).evaluateAll((cells) => cells.map((c) => c.getAttribute('data-col')));
    await page.locator('[role="row"][data-row="1"]').waitFor();
    expect(await changed(0)).toEqual(['0', '1', '2', '3']);
    expect((await changed(1)).sort()).toEqual(['1', '2']);
    await page.getByTestId('before-trx-today').click();
    await waitForTable('items', 'done', 120_000);
    expect(await page.getByTestId('before-trx-banner').count()).toBe(0);
    expect(await page.locator('[data-changed]').count()).toBe(0);
    expectOwnOriginOnly(session);
  }, 300_000);

  it('Revert SQL of the one-row UPDATE, then of the primary-key update, run by a server recovering a copy, gives back the SELECT before each', async () => {
    const one = await revertSql(before[4].trxId);
    expect(one).toContain("UPDATE `items` SET `name` = 'item 2' WHERE `id` = 2;");
    const moved = await revertSql(before[3].trxId);
    expect(moved).not.toContain('-- not run');
    const copy = await startMariadb({ datadir: server.copyDatadir(), extraArgs: ['--innodb-undo-tablespaces=3'] });
    try {
      await copy.exec(one);
      expect((await copy.query(ITEMS_SELECT)).rows).toEqual(before[4].rows);
      await copy.exec(moved);
      expect((await copy.query(ITEMS_SELECT)).rows).toEqual(before[3].rows);
    } finally {
      await copy.stop();
    }
  }, 300_000);

  it('Revert SQL of an UPDATE of 30,000 long names: its held UPDATEs go through the page\'s private storage, and the server gets the table back', async () => {
    const sql = await revertSql(wide.trxId, 'wide', (text) => expect(text).toMatch(/30000 statements revert transaction \d+'s changes \(\d+ MiB of them held in a temporary file/));
    const copy = await startMariadb({ datadir: server.copyDatadir(), extraArgs: ['--innodb-undo-tablespaces=3'] });
    try {
      await copy.exec(sql);
      expect((await copy.query('SELECT id, name FROM wide ORDER BY id')).rows).toEqual(wide.rows);
    } finally {
      await copy.stop();
    }
  }, 300_000);

  it('a partitioned table: the UPDATE named in each partition; as before it, every partition taken back (the CSV equals the SELECT before it); each partition\'s Revert SQL gives the server the table back', async () => {
    await panel('transactions');
    const named = await page.locator(`[data-testid="transaction"][data-trx="${parted.trxId}"] [data-testid="trx-table"]`).evaluateAll((els) => els.map((e) => e.getAttribute('data-table')));
    expect(named.sort()).toEqual(PARTS.map((p) => `test/parted#P#${p}`));
    await trxTable(parted.trxId, 'test/parted#P#p1').getByTestId('before-trx').click();
    await page.locator(`[data-testid="before-trx-banner"][data-trx="${parted.trxId}"]`).waitFor();
    await waitForTable('parted', 'done', 120_000);
    await expect.poll(() => page.getByTestId('before-trx-banner').getAttribute('data-rolled-back')).toBe('30');
    expect(await rowCount()).toBe(60);
    const rows = parted.parts.flatMap((part, i) => part.map((r) => [...r, PARTS[i]]));
    const csv = csvHeader(['id', 'name', '_partition']) + csvRows(rows);
    expect((await download('CSV', 'parted.csv')).toString('utf8')).toBe(csv);
    const run = cli([...PARTS.map((p) => join(datadir, 'test', `parted#P#${p}.ibd`)), '--partition-column', '--before-trx', parted.trxId]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(csv);
    const sql: string[] = [];
    for (const p of PARTS) sql.push(await revertSql(parted.trxId, `parted#P#${p}`));
    const copy = await startMariadb({ datadir: server.copyDatadir(), extraArgs: ['--innodb-undo-tablespaces=3'] });
    try {
      for (const text of sql) await copy.exec(text);
      for (const [i, p] of PARTS.entries()) expect((await copy.query(`SELECT id, name FROM parted PARTITION (${p}) ORDER BY id`)).rows).toEqual(parted.parts[i]);
    } finally {
      await copy.stop();
    }
  }, 300_000);

  it('as before an UPDATE of a table altered with ALGORITHM=INSTANT: its rows history-lost, counted and withheld; "both" shows them marked, as the CLI does', async () => {
    await panel('transactions');
    await trxTable(alteredTrx, 'test/altered').getByTestId('before-trx').click();
    await page.locator(`[data-testid="before-trx-banner"][data-trx="${alteredTrx}"]`).waitFor();
    await waitForTable('altered', 'done', 120_000);
    const banner = page.getByTestId('before-trx-banner');
    await expect.poll(() => banner.getAttribute('data-history-lost')).toBe('10');
    expect(await banner.textContent()).toContain('10 rows whose earlier version is gone (history-lost): withheld');
    expect(await rowCount()).toBe(40);
    const csv = (await download('CSV', 'altered.csv')).toString('utf8');
    expect(csv).not.toContain('changed');
    await page.getByTestId('row-mode').selectOption('both');
    await waitForTable('altered', 'done', 120_000);
    await expect.poll(() => banner.getAttribute('data-history-lost')).toBe('10');
    expect(await rowCount()).toBe(50);
    const both = (await download('CSV', 'altered.csv')).toString('utf8');
    const run = cli([join(datadir, 'test', 'altered.ibd'), '--before-trx', alteredTrx, '--rows', 'both']);
    expect(run.status, run.stderr).toBe(2);
    expect(both).toBe(run.stdout);
    expect(both.split('\n').filter((l) => l.endsWith(',history-lost'))).toHaveLength(10);
    await shot('transactions-history-lost');
  }, 300_000);
});
