/**
 * A TIMESTAMP key in a time zone with summer time, against MariaDB: the table is keyed on instants
 * every 10 minutes through 2024 (both of Berlin's and New York's changes), the server loads the zones'
 * tables (mariadb-tzinfo-to-sql), and every lookup read in a zone (TableReader.lookup with timeZone,
 * the CLI's --key and --from/--to with --time-zone) must give the rows, and their values, that
 * `SET STATEMENT time_zone = … FOR SELECT … WHERE` gives. A local time the clocks skip or repeat is
 * refused with the reason. The CLI's --page N shows a leaf's records in the zone, as the server does.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { openTable, type KeyRange, type Row, type TableReader } from '../../src/core/readers/table-reader.ts';
import { batchRows } from '../../src/core/values/row-batch.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectSameRows } from './decode.ts';

const ZONES = ['Europe/Berlin', 'America/New_York'];
const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
const COLUMNS = ['t', 'n', 't6', 'dt'];

/** Local times either side of the changes, the changes' edges, and a plain summer and winter time. */
const POINTS: Record<string, string[]> = {
  'Europe/Berlin': ['2024-01-15 08:10:00', '2024-07-01 12:00:00', '2024-03-31 01:50:00', '2024-03-31 03:00:00', '2024-10-27 01:50:00', '2024-10-27 03:00:00', '2024-12-31 23:50:00'],
  'America/New_York': ['2024-03-10 01:50:00', '2024-03-10 03:00:00', '2024-11-03 00:50:00', '2024-11-03 02:00:00', '2024-08-08 08:00:00'],
};
const RANGES: Record<string, KeyRange[]> = {
  'Europe/Berlin': [
    { from: ['2024-10-27 00:00:00'], to: ['2024-10-27 04:00:00'] },
    { from: ['2024-03-31 01:00:00'], to: ['2024-03-31 04:00:00'] },
    { from: ['2024-12-31 22:00:00'], to: null },
    { from: null, to: ['2024-01-01 02:00:00'] },
  ],
  'America/New_York': [{ from: ['2024-11-03 00:00:00'], to: ['2024-11-03 03:10:00'] }, { from: ['2024-03-09 23:00:00'], to: ['2024-03-10 04:00:00'] }],
};

async function lookupRows(reader: TableReader, range: KeyRange): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const batch of reader.lookup(range).batches()) rows.push(...batchRows(batch));
  return rows;
}

const where = (r: KeyRange) => [r.from && `t >= '${r.from[0]}'`, r.to && `t <= '${r.to[0]}'`].filter(Boolean).join(' AND ');

describe('a TIMESTAMP key in a zone with summer time, against MariaDB with SET time_zone', () => {
  let server: MariadbServer;
  let ibd = '';
  let ddl = '';
  const work = mkdtempSync(join(tmpdir(), 'ibd-tzkey-'));
  const sources: { close(): Promise<void> }[] = [];
  const serverRows = async (zone: string, cond: string) => (await server.query(`SET STATEMENT time_zone = '${zone}' FOR SELECT t, n, t6, dt FROM tk WHERE ${cond} ORDER BY t`)).rows;
  async function reader(zone: string): Promise<TableReader> {
    const source = await fileSource(ibd);
    sources.push(source);
    return openTable(source, parseCreateTables(ddl)[0], { timeZone: zone });
  }
  const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ibd, '--schema', join(work, 'tk.sql'), ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    server = await startMariadb({ pageSize: 16384 });
    await server.exec(ZONES.map((z) => execFileSync('mariadb-tzinfo-to-sql', [`/usr/share/zoneinfo/${z}`, z], { encoding: 'utf8' })).join('\n'), 'mysql');
    await server.exec('CREATE TABLE tk (t TIMESTAMP NOT NULL PRIMARY KEY, n INT NOT NULL, t6 TIMESTAMP(6) NULL, dt DATETIME NULL);' +
      "SET time_zone = '+00:00';" +
      `INSERT INTO tk SELECT FROM_UNIXTIME(${Date.UTC(2024, 0, 1) / 1000 - 86400} + seq * 600), seq, FROM_UNIXTIME(${Date.UTC(2024, 0, 1) / 1000} + seq * 600 + seq / 1000000), FROM_UNIXTIME(seq * 600) FROM seq_0_to_53000;`);
    ddl = (await server.query('SHOW CREATE TABLE tk')).rows[0][1] as string;
    writeFileSync(join(work, 'tk.sql'), ddl);
    ibd = await server.exportTable('tk');
  }, 300_000);
  afterAll(async () => {
    await Promise.all(sources.map((s) => s.close()));
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it.each(ZONES)('point and range lookups read in %s', async (zone) => {
    const r = await reader(zone);
    for (const key of POINTS[zone]) {
      const expected = await serverRows(zone, `t = '${key}'`);
      expect(expected.length, key).toBe(1);
      expectSameRows(await lookupRows(r, { from: [key], to: [key] }), expected, `${zone} ${key}`, COLUMNS);
    }
    for (const range of RANGES[zone]) {
      const expected = await serverRows(zone, where(range));
      expect(expected.length).toBeGreaterThan(10);
      expectSameRows(await lookupRows(r, range), expected, `${zone} ${JSON.stringify(range)}`, COLUMNS);
    }
  }, 120_000);

  it('refuses a local time the clocks skip or repeat, with the reason', async () => {
    const r = await reader('Europe/Berlin');
    expect(() => r.lookup({ from: ['2024-03-31 02:30:00'], to: ['2024-03-31 02:30:00'] })).toThrow("'2024-03-31 02:30:00' is no time in Europe/Berlin: the clocks go from +01:00 to +02:00 and skip it; give it in UTC");
    expect(() => r.lookup({ from: ['2024-10-27 02:30:00'], to: null })).toThrow("'2024-10-27 02:30:00' is two times in Europe/Berlin: the clocks go from +02:00 to +01:00 and repeat it; give it in UTC to say which");
    // Both of them, in UTC: the instants either side of the change.
    const utc = await reader('UTC');
    expectSameRows(await lookupRows(utc, { from: ['2024-10-27 00:30:00'], to: ['2024-10-27 01:30:00'] }), await serverRows('+00:00', "t BETWEEN '2024-10-27 00:30:00' AND '2024-10-27 01:30:00'"), 'UTC', COLUMNS);
  });

  it('the CLI: --key, --from/--to and --page N in --time-zone', async () => {
    const zone = 'Europe/Berlin';
    const key = cli('--key', '2024-10-27 03:00:00', '--time-zone', zone, '--format', 'ndjson', '--json-strings');
    expect(key.status, key.stderr).toBe(0);
    const [expected] = await serverRows(zone, "t = '2024-10-27 03:00:00'");
    expect(Object.values(JSON.parse(key.stdout) as Record<string, string>)).toEqual(expected);
    const range = cli('--from', '2024-10-27 01:00:00', '--to', '2024-10-27 04:00:00', '--time-zone', zone);
    expect(range.status, range.stderr).toBe(0);
    expect(range.stdout.trim().split('\n').slice(1)).toEqual((await serverRows(zone, "t BETWEEN '2024-10-27 01:00:00' AND '2024-10-27 04:00:00'")).map((row) => row.join(',')));
    const refused = cli('--key', '2024-03-31 02:10:00', '--time-zone', zone);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('is no time in Europe/Berlin');

    const leaves = await (await reader(zone)).leafPages();
    const page = leaves[Math.floor(leaves.length / 2)];
    const shown = cli('--page', String(page), '--time-zone', zone, '--format', 'ndjson');
    expect(shown.status, shown.stderr).toBe(0);
    const index = (JSON.parse(shown.stdout) as { index: { records: { kind: string; values: string[] | null }[]; decoded: { rows: string[][] } } }).index;
    const decoded = index.decoded.rows.map((row) => row.slice(0, COLUMNS.length));
    expect(decoded.length).toBeGreaterThan(50);
    const ns = decoded.map((row) => row[1]).join(', ');
    expectSameRows(decoded, await serverRows(zone, `n IN (${ns})`), `page ${page} in ${zone}`, COLUMNS);
    const records = index.records.filter((r) => r.values !== null).map((r) => r.values?.slice(0, COLUMNS.length) ?? []);
    expectSameRows(records, decoded, `page ${page}'s records`, COLUMNS);
  }, 120_000);
});
