/**
 * End-to-end tests of the BUILT page (dist/, made by `npm run build`) in the machine's headless
 * Chromium (playwright-core): the files a user brings, written by a real MariaDB
 * (test/harness/mariadb.ts) or by MySQL 8.
 *
 *  - an encrypted table (a MariaDB server with file_key_management): without its key the page says
 *    which file to drop; with the key file (plain, or encrypted with a password the page asks for) the
 *    rows are the server's, and its summary is read with the keys once they are given;
 *  - a whole folder pairs .ibd/.frm/.cfg/.sql and lists the tables with their state; files dropped one
 *    after the other (the .ibd, then its .sql);
 *  - a MySQL 8 file needs nothing else (its own data dictionary);
 *  - 300 dropped tables and their dump: every table listed with its exact row count (the list is
 *    virtualized), and "Export all tables" gives one tables.zip whose CSVs are the server's SELECTs;
 *  - no request leaves the page's origin.
 */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { unzipSync } from 'fflate';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { expectOwnOriginOnly, pageSteps, ROOT, shown, type Session } from './harness.ts';
import { pageTest } from './page-test.ts';
import { createAwkwardTable, ROWS, sha256, sqlString, tableFiles, TEXTS } from './test-tables.ts';

/** A file written by MySQL 8.0.18 (test/fixtures/mysql-testsuite). */
const MYSQL8_FILE = join(ROOT, 'test', 'fixtures', 'mysql-testsuite', 'mysql80', 'simple', 'emp.ibd');

describe('the files a user brings, in the built page', () => {
  let db: MariadbServer | undefined;
  let session: Session;
  let page: Page;
  let work: string;
  const files: Record<string, string> = {};

  const env = pageTest('files', { mariadb: {} });
  const { shot, waitForTable, rowCount, clearAll, open, download, panel, exportAll } = pageSteps(() => page);

  beforeAll(async () => {
    ({ db, session, page, work } = env);
    await createAwkwardTable(db);
    await db.exec(`CREATE TABLE other (id INT PRIMARY KEY, label VARCHAR(20) NOT NULL) ENGINE=InnoDB;
      INSERT INTO other SELECT seq, CONCAT('other ', seq) FROM seq_1_to_50;`);
    // A database folder as on a server: table files with their .frm and .cfg, plus a dump.
    const folder = join(work, 'datadir', 'shop');
    mkdirSync(folder, { recursive: true });
    for (const table of ['t', 'other']) {
      const { ibd, sql, exported } = await tableFiles(db, table, work);
      files[`${table}.ibd`] = ibd;
      files[`${table}.sql`] = sql;
      for (const ext of ['.ibd', '.frm', '.cfg']) {
        const src = exported.replace(/\.ibd$/, ext);
        if (existsSync(src)) cpSync(src, join(folder, basename(src)));
      }
    }
    writeFileSync(join(folder, 'shop-schema.sql'), readFileSync(files['t.sql'], 'utf8') + readFileSync(files['other.sql'], 'utf8'));
    writeFileSync(join(folder, 'README.txt'), 'not a table file');
    files.folder = dirname(folder);

  }, 240_000);

  it('reads an encrypted table once its key file is dropped (asking for the key file\'s password)', async () => {
    await clearAll();
    const KEYS = '1;a7addd9adea9978fda19f21e6be987880e68ac92632ca052e5bb42b1a506939a\n2;49c16acc2dffe616710c9ba9a10b94944a737de1beccb52dc1560abfdd67388b\n';
    const keyPath = join(work, 'keys.txt');
    writeFileSync(keyPath, KEYS);
    const enc = await startMariadb({ checksum: 'full_crc32', extraArgs: ['--plugin-load-add=file_key_management', `--file-key-management-filename=${keyPath}`] });
    try {
      await enc.exec(`CREATE TABLE secret (id INT NOT NULL PRIMARY KEY, v VARCHAR(40) NOT NULL) ENGINE=InnoDB ENCRYPTED=YES ENCRYPTION_KEY_ID=2;
        INSERT INTO secret SELECT seq, CONCAT('secret ', seq) FROM seq_1_to_3000;`);
      const want = await enc.query('SELECT * FROM secret ORDER BY id');
      const ibd = join(work, 'enc', 'secret.ibd');
      mkdirSync(dirname(ibd), { recursive: true });
      writeFileSync(ibd, readFileSync(await enc.exportTable('secret')));
      const sql = join(work, 'enc', 'secret.sql');
      writeFileSync(sql, `${(await enc.query('SHOW CREATE TABLE secret')).rows[0][1]};\n`);

      // No key: the page says which file to drop.
      await open([ibd, sql]);
      await waitForTable('secret', 'error');
      expect(await page.getByTestId('error').locator('.message').textContent()).toMatch(/key id 2/);
      expect(await page.getByTestId('needs-key').textContent()).toMatch(/file_key_management_filename/);
      await shot('10c-encrypted-needs-key');

      // The key file encrypted with a password (openssl enc -aes-256-cbc -md sha1), as file_key_management_filekey reads it.
      const salt = randomBytes(8);
      let material = Buffer.alloc(0);
      for (let d = Buffer.alloc(0); material.length < 48;) {
        d = createHash('sha1').update(Buffer.concat([d, Buffer.from('open-sesame'), salt])).digest();
        material = Buffer.concat([material, d]);
      }
      const cipher = createCipheriv('aes-256-cbc', material.subarray(0, 32), material.subarray(32, 48));
      const encrypted = join(work, 'enc', 'keys.enc');
      writeFileSync(encrypted, Buffer.concat([Buffer.from('Salted__'), salt, cipher.update(KEYS), cipher.final()]));
      await open([encrypted]);
      const form = page.getByTestId('key-password');
      await form.waitFor();
      await page.getByTestId('key-password-input').fill('wrong');
      await page.getByTestId('key-password-input').press('Enter');
      await form.getByRole('alert').waitFor();
      expect(await form.getByRole('alert').textContent()).toMatch(/password/);
      await page.getByTestId('key-password-input').fill('open-sesame');
      await page.getByTestId('key-password-input').press('Enter');
      await waitForTable('secret', 'done');
      expect(await rowCount()).toBe(3000);
      // The summary reads the encrypted pages with the keys too: checksums checked, no error.
      await expect.poll(async () => Number((await page.getByTestId('checksums').getAttribute('data-checked')) ?? 0), { timeout: 60_000 }).toBeGreaterThan(0);
      expect(await page.getByTestId('summary-error').count()).toBe(0);
      expect(await page.locator('[data-row="0"] [role="gridcell"]').allTextContents()).toEqual(want.rows[0].map(shown));
      const csv = await download('CSV', 'secret.csv');
      expect(sha256(csv)).toBe(sha256(csvHeader(want.columns) + csvRows(want.rows)));
      await shot('10d-encrypted-read');
    } finally {
      await enc.stop();
    }
  }, 180_000);

  it('pairs a whole folder (.ibd, .frm, .cfg, a dump) and lists the tables with their state', async () => {
    await clearAll();
    await page.locator('[data-testid="folder-input"]').setInputFiles(files.folder);
    await waitForTable('other', 'done');
    const names = await page.locator('[data-testid="table-item"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-table')));
    expect(names.sort()).toEqual(['other', 't']);
    expect(await page.getByTestId('notice').textContent()).toMatch(/README\.txt/);
    expect(await rowCount()).toBe(50);
    // Not opened yet: no badge beside its row count.
    expect(await page.locator('[data-testid="table-item"][data-table="t"] [data-testid="table-state"]').count()).toBe(0);
    await page.locator('[data-testid="table-item"][data-table="t"]').click();
    await waitForTable('t', 'done');
    expect(await rowCount()).toBe(ROWS);
    expect(await page.locator('[data-testid="table-item"][data-table="other"] [data-testid="table-rows"]').textContent()).toBe('50 rows');
    await shot('13-folder');
    // Back to the first table: opened again, its row counts kept from the first visit.
    await page.locator('[data-testid="table-item"][data-table="other"]').click();
    await waitForTable('other', 'done');
    expect(await rowCount()).toBe(50);
    await page.getByTestId('grid').focus();
    await page.keyboard.press('Control+End');
    expect(await page.locator('[data-row="49"] [data-col="1"]').textContent()).toBe('other 50');

    // Files dropped on the page (DataTransfer), one after the other: the .ibd first, then its .sql.
    await clearAll();
    const drop = async (paths: string[]) => {
      const payload = paths.map((p) => ({ name: basename(p), base64: readFileSync(p).toString('base64') }));
      await page.evaluate((items) => {
        const dt = new DataTransfer();
        for (const f of items) dt.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name));
        const el = document.querySelector('[data-testid="drop-zone"]')!;
        for (const type of ['dragenter', 'dragover', 'drop']) el.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, payload);
    };
    await drop([files['other.ibd']]);
    await waitForTable('other', 'needs-schema');
    await page.getByTestId('needs-schema').waitFor();
    await shot('14-needs-schema');
    await drop([files['other.sql']]);
    await waitForTable('other', 'done');
    expect(await rowCount()).toBe(50);
  }, 120_000);

  it('reads a MySQL 8 file alone: its own data dictionary defines the table', async () => {
    expect(existsSync(MYSQL8_FILE), `${MYSQL8_FILE} (test/fixtures) is missing`).toBe(true);
    await clearAll();
    await open([MYSQL8_FILE]);
    await waitForTable('emp', 'done');
    expect(await page.getByTestId('server-hints').textContent()).toMatch(/MySQL 8\.0 or later/);
    await panel('definition');
    expect(await page.getByTestId('definition').textContent()).toMatch(/data dictionary/);
    const count = Number(await page.getByTestId('summary-rows').getAttribute('data-rows'));
    expect(count).toBeGreaterThan(0);
    expect(await rowCount()).toBe(count);
    await shot('15-mysql8-sdi');
  }, 60_000);

  it('lists 300 dropped tables with their exact row counts and exports them all: each CSV is the server’s', async () => {
    // 300 small tables (0 to 4 rows each, awkward text) and one dump with every CREATE TABLE.
    const N = 300;
    let ddl = 'CREATE DATABASE IF NOT EXISTS manydb;\n';
    for (let k = 1; k <= N; k++) {
      ddl += `CREATE TABLE manydb.t${k} (id INT PRIMARY KEY, v VARCHAR(30) NULL) ENGINE=InnoDB;\n`;
      const rows = Array.from({ length: k % 5 }, (_, r) => `(${r + 1}, ${r === 1 ? 'NULL' : sqlString(TEXTS[(k + r) % TEXTS.length]?.slice(0, 30) ?? '')})`);
      if (rows.length > 0) ddl += `INSERT INTO manydb.t${k} VALUES ${rows.join(', ')};\n`;
    }
    await db!.exec(ddl);
    const dir = join(work, 'many300');
    mkdirSync(dir, { recursive: true });
    const want = new Map<string, { rows: number; csv: string }>();
    let dump = '';
    for (let k = 1; k <= N; k++) {
      const name = `t${k}`;
      const exported = await db!.exportTable(name, 'manydb');
      cpSync(exported, join(dir, `${name}.ibd`));
      dump += `${(await db!.query(`SHOW CREATE TABLE ${name}`, 'manydb')).rows[0][1]};\n\n`;
      const sel = await db!.query(`SELECT * FROM ${name} ORDER BY id`, 'manydb');
      want.set(name, { rows: sel.rows.length, csv: csvHeader(sel.columns) + csvRows(sel.rows) });
    }
    writeFileSync(join(dir, 'manydb.sql'), dump);

    await clearAll();
    const started = performance.now();
    await open([...Array.from({ length: N }, (_, i) => join(dir, `t${i + 1}.ibd`)), join(dir, 'manydb.sql')]);
    const list = page.getByTestId('table-list');
    await expect.poll(() => list.getAttribute('data-counted'), { timeout: 120_000 }).toBe(String(N));
    const listedS = (performance.now() - started) / 1000;
    expect(await list.getAttribute('data-tables')).toBe(String(N));
    expect(await list.getAttribute('data-failed')).toBe('0');
    // The list is virtualized: only the rows in view are in the DOM.
    expect(await page.locator('[data-testid="table-item"]').count()).toBeLessThan(100);
    await shot('19-many-tables');

    // Every table's count, read off the list while scrolling through it.
    const seen = new Map<string, string>();
    const scroller = page.getByTestId('table-scroll');
    for (let step = 0; step < 200 && seen.size < N; step++) {
      const items = await page.locator('[data-testid="table-item"]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-table') ?? '', e.querySelector('[data-testid="table-rows"]')?.textContent ?? '']));
      for (const [name, rows] of items) seen.set(name, rows);
      await scroller.evaluate((el) => {
        el.scrollTop += el.clientHeight * 0.8;
        el.dispatchEvent(new Event('scroll'));
      });
      await page.waitForTimeout(30);
    }
    expect(seen.size).toBe(N);
    for (const [name, w] of want) expect(seen.get(name), name).toBe(`${w.rows} row${w.rows === 1 ? '' : 's'}`);

    // Export all: one tables.zip with one CSV per table, each equal to the server's SELECT.
    const exportStarted = performance.now();
    const zip = unzipSync(await exportAll('zip'));
    const exportS = (performance.now() - exportStarted) / 1000;
    expect(Object.keys(zip).length).toBe(N);
    for (const [name, w] of want) expect(new TextDecoder().decode(zip[`${name}.csv`]), name).toBe(w.csv);
    await page.getByTestId('export-all-status').waitFor();
    expect(await page.getByTestId('export-all').getAttribute('data-failed')).toBe('0');
    console.log(`many tables: ${N} listed with exact counts in ${listedS.toFixed(1)} s, all exported in ${exportS.toFixed(1)} s`);
    await db!.exec('DROP DATABASE manydb');
  }, 300_000);

  it('made no request outside the page’s own origin, and logged no errors', () => {
    expectOwnOriginOnly(session);
  });
});
