/**
 * TIMESTAMP time zones and geometry in the BUILT page (dist/), in Debian's Chromium, against a real
 * MariaDB with the zones' tables loaded: a table with TIMESTAMP values around Europe/Berlin's DST
 * changes, a zone-less DATETIME and geometries, dropped with a my.cnf that names the server's zone.
 * The grid shows the server's zone (said as such), re-renders in the zone picked; the CSV and NDJSON
 * are in the zone picked, equal to the server's `SET time_zone` SELECT; the SQL export (TIMESTAMP in
 * UTC, geometry as ST_GeomFromText) loads back into the server with the same stored values. The CSV
 * and NDJSON in a zone other than UTC say it in their names; the CSV for LOAD DATA (TIMESTAMP in UTC)
 * and its name.load.sql, run by the mariadb client, load back the same stored values too.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { MariadbServer } from '../harness/mariadb.ts';
import { csvHeader, csvRows, ndjsonRows } from '../../src/core/writers/output.ts';
import { ewkt } from '../types/compare.ts';
import { pageSteps } from './harness.ts';
import { pageTest } from './page-test.ts';
import { tableFiles } from './test-tables.ts';

const ZONES = ['Europe/Berlin', 'America/New_York'];
/** The server's text of every column, TIMESTAMP in `zone`. */
const select = (zone: string) => `SET STATEMENT time_zone = '${zone}' FOR SELECT id, ts, dt, ${ewkt('g')} FROM tz ORDER BY id`;

describe('TIMESTAMP time zones and geometry in the built page', () => {
  let db: MariadbServer | undefined;
  let page: Page;
  let work: string;
  let files: { ibd: string; sql: string };

  const env = pageTest('tz', { mariadb: {} });
  const { shot, waitForTable, open, download, clearAll } = pageSteps(() => page);
  const column = (col: number) => page.locator(`[data-row] [data-col="${col}"]`).allTextContents();

  beforeAll(async () => {
    ({ db, page, work } = env);
    await db.exec(ZONES.map((z) => execFileSync('mariadb-tzinfo-to-sql', [`/usr/share/zoneinfo/${z}`, z], { encoding: 'utf8' })).join('\n'), 'mysql');
    // Around Berlin's changes of 2024 (01:00 UTC on 31 March and 27 October), every 20 minutes (the grid shows them all).
    await db.exec(`CREATE TABLE tz (id INT PRIMARY KEY, ts TIMESTAMP(3) NULL, dt DATETIME NULL, g GEOMETRY NULL);
      SET time_zone = '+00:00';
      INSERT INTO tz SELECT seq, FROM_UNIXTIME(${Date.UTC(2024, 2, 31) / 1000} + seq * 1200 + 0.5), '2024-03-31 02:30:00', IF(seq % 3 = 0, NULL, ST_GeomFromText(CONCAT('POINT(', seq / 7, ' -', seq, ')'), IF(seq % 2 = 0, 4326, 0))) FROM seq_1_to_5;
      INSERT INTO tz SELECT 100 + seq, FROM_UNIXTIME(${Date.UTC(2024, 9, 27) / 1000} + seq * 1200), NULL, ST_GeomFromText('GEOMETRYCOLLECTION EMPTY') FROM seq_1_to_5;`);
    files = await tableFiles(db, 'tz', work);
    writeFileSync(join(work, 'my.cnf'), '[mysqld]\ndefault-time-zone = Europe/Berlin\n');
  }, 240_000);

  it("shows the server's zone from its my.cnf, re-renders in the zone picked, exports in it; SQL loads back", async () => {
    await open([files.ibd, files.sql, join(work, 'my.cnf')]);
    await waitForTable('tz', 'done');
    const choice = page.getByTestId('time-zone');
    expect(await choice.inputValue()).toBe('Europe/Berlin');
    expect(await choice.locator('option:checked').textContent()).toBe("Europe/Berlin (the server's)");
    await shot('tz-01-server-zone');
    const berlin = (await db!.query(select('Europe/Berlin'))).rows;
    expect(await column(1)).toEqual(berlin.map((r) => r[1]));
    expect(await column(3)).toEqual(berlin.map((r) => r[3] ?? 'NULL'));
    expect(berlin.map((r) => r[1])).toContain('2024-10-27 02:20:00.000'); // the hour shown twice

    await choice.selectOption('UTC');
    const utc = (await db!.query(select('+00:00'))).rows;
    await expect.poll(() => column(1)).toEqual(utc.map((r) => r[1]));
    expect(await column(2)).toEqual(berlin.map((r) => r[2] ?? 'NULL')); // DATETIME does not move

    await choice.selectOption('America/New_York');
    const ny = (await db!.query(select('America/New_York'))).rows;
    await expect.poll(() => column(1)).toEqual(ny.map((r) => r[1]));
    const columns = ['id', 'ts', 'dt', 'g'];
    expect((await download('CSV', 'tz (TIMESTAMP in America_New_York).csv')).toString('utf8')).toBe(csvHeader(columns) + csvRows(ny));
    expect((await download('NDJSON strings', 'tz (TIMESTAMP in America_New_York).ndjson')).toString('utf8')).toBe(ndjsonRows(columns, ny));

    const sql = await download('SQL', 'tz.sql');
    await db!.exec('CREATE DATABASE reloaded');
    await db!.exec(sql.toString('utf8'), 'reloaded');
    const stored = (database: string) => db!.query("SET STATEMENT time_zone = '+00:00' FOR SELECT id, ts, dt, HEX(g) FROM tz ORDER BY id", database);
    expect((await stored('reloaded')).rows).toEqual((await stored('test')).rows);

    // The CSV for LOAD DATA: TIMESTAMP in UTC (so no zone in its name), and its statement downloaded beside it.
    await page.getByRole('radio', { name: 'CSV', exact: true }).check();
    await page.getByTestId('csv-load-data').check();
    const statement = page.waitForEvent('download', { predicate: (d) => d.suggestedFilename() === 'tz.load.sql', timeout: 120_000 });
    const csv = await download('CSV', 'tz.csv');
    const folder = join(work, 'load-data');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'tz.csv'), csv);
    const loadSql = readFileSync(await (await statement).path(), 'utf8');
    await db!.exec('CREATE DATABASE loaded; CREATE TABLE loaded.tz LIKE test.tz');
    const load = spawnSync('mariadb', ['--local-infile=1', `--socket=${db!.socket}`, '-uroot', 'loaded'], { cwd: folder, input: loadSql, encoding: 'utf8' });
    expect(load.status, load.stderr).toBe(0);
    expect((await stored('loaded')).rows).toEqual((await stored('test')).rows);
    await page.getByTestId('csv-load-data').uncheck();

    // Closed and opened again without the my.cnf: the server's zone is forgotten, the zone picked kept.
    await clearAll();
    await open([files.ibd, files.sql]);
    await waitForTable('tz', 'done');
    expect(await page.getByTestId('time-zone').inputValue()).toBe('America/New_York');
    expect(await page.getByTestId('time-zone').locator('option', { hasText: "(the server's)" }).count()).toBe(0);
    expect(await column(1)).toEqual(ny.map((r) => r[1]));
  }, 180_000);
});
