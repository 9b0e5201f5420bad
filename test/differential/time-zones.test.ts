/**
 * TIMESTAMP in a time zone, against MariaDB: the server loads the zones' tables from the system's
 * tzdata (mariadb-tzinfo-to-sql), the table holds instants every 6 hours from 1970 to 2038, every 15
 * minutes through 2024, and each transition the server's tables list (its second before, at, after,
 * and half an hour and an hour either side); every value decoded in each zone must be what
 * `SET STATEMENT time_zone = … FOR SELECT` shows: ambiguous and skipped hours, 1970 and the 2038 end
 * included. DATETIME, zone-less, must not move. The CLI takes --time-zone, refuses a zone that is none,
 * and takes the server's zone from a .cnf in the datadir.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { openTable, type Row } from '../../src/core/readers/table-reader.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectSameRows } from './decode.ts';

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'America/Sao_Paulo', 'Europe/Moscow', 'Asia/Kolkata', 'Pacific/Chatham', 'America/St_Johns', 'UTC'];
const OFFSETS = ['+02:00', '-09:30', '+13:00'];
const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
const LAST = 2 ** 31 - 1;

async function decodeIn(ibd: string, ddl: string, timeZone: string): Promise<Row[]> {
  const source = await fileSource(ibd);
  try {
    const reader = await openTable(source, parseCreateTables(ddl)[0], { timeZone });
    const rows: Row[] = [];
    for await (const batch of reader.rows({ batchSize: 5000 })) rows.push(...batch);
    return rows;
  } finally {
    await source.close();
  }
}

describe('TIMESTAMP in a time zone, against MariaDB with SET time_zone', () => {
  let server: MariadbServer;
  let ibd = '';
  let ddl = '';
  const work = mkdtempSync(join(tmpdir(), 'ibd-tz-'));
  beforeAll(async () => {
    for (const z of ZONES) if (!existsSync(`/usr/share/zoneinfo/${z}`)) throw new Error(`/usr/share/zoneinfo/${z} is missing: install tzdata (apt-get install tzdata)`);
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    server = await startMariadb({ pageSize: 16384 });
    const tzSql = ZONES.map((z) => execFileSync('mariadb-tzinfo-to-sql', [`/usr/share/zoneinfo/${z}`, z], { encoding: 'utf8' })).join('\n');
    await server.exec(tzSql, 'mysql');
    await server.exec('CREATE TABLE at_ (id INT PRIMARY KEY, u BIGINT NOT NULL);' +
      'INSERT INTO at_ SELECT seq, seq * 21600 FROM seq_1_to_99400;' +
      `INSERT INTO at_ SELECT 100000 + seq, ${Date.UTC(2024, 0, 1) / 1000} + seq * 900 FROM seq_0_to_35135;` +
      `INSERT IGNORE INTO at_ SELECT 200000 + 5 * seq_0_to_8.seq + 45 * t.n, t.Transition_time + ELT(seq_0_to_8.seq + 1, -3600, -1800, -1, 0, 1, 1800, 3600, -7200, 7200)
         FROM (SELECT ROW_NUMBER() OVER (ORDER BY Time_zone_id, Transition_time) AS n, Transition_time FROM mysql.time_zone_transition) t, seq_0_to_8;` +
      `INSERT INTO at_ VALUES (1000000, 1), (1000001, ${LAST}), (1000002, ${LAST - 3600});` +
      'DELETE FROM at_ WHERE u < 1 OR u > 2147483647;' +
      'CREATE TABLE ts (id INT PRIMARY KEY, t0 TIMESTAMP NULL, t6 TIMESTAMP(6) NULL, t3 TIMESTAMP(3) NULL, dt DATETIME(2) NULL);' +
      "SET time_zone = '+00:00';" +
      'INSERT INTO ts SELECT id, FROM_UNIXTIME(u), FROM_UNIXTIME(u + (id % 1000000) / 1000000), FROM_UNIXTIME(u + 0.125), FROM_UNIXTIME(u + 0.5) FROM at_;' +
      "INSERT INTO ts VALUES (2000000, '0000-00-00 00:00:00', '0000-00-00 00:00:00', NULL, '2024-03-31 02:30:00');");
    const near = await server.query('SELECT COUNT(*) FROM ts WHERE id BETWEEN 200000 AND 999999');
    expect(Number(near.rows[0][0])).toBeGreaterThan(2000);
    ddl = (await server.query('SHOW CREATE TABLE ts')).rows[0][1] as string;
    ibd = await server.exportTable('ts');
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it.each([...ZONES, ...OFFSETS])('%s', async (zone) => {
    const expected = await server.query(`SET STATEMENT time_zone = '${zone}' FOR SELECT id, t0, t6, t3, dt FROM ts ORDER BY id`);
    expect(expected.rows.length).toBeGreaterThan(140_000);
    expectSameRows(await decodeIn(ibd, ddl, zone), expected.rows, `TIMESTAMP in ${zone}`, ['id', 't0', 't6', 't3', 'dt']);
  }, 120_000);

  it('the CLI: --time-zone, a usage error naming a zone that is none, the server zone from a .cnf in the datadir', async () => {
    const sql = join(work, 'ts.sql');
    writeFileSync(sql, ddl);
    const rows = (zone: string | null, file = ibd) => spawnSync(process.execPath, [CLI, file, '--schema', sql, ...(zone === null ? [] : ['--time-zone', zone])], { encoding: 'utf8', maxBuffer: 1 << 30 });
    const berlin = rows('Europe/Berlin');
    expect(berlin.status).toBe(0);
    const expected = await server.query("SET STATEMENT time_zone = 'Europe/Berlin' FOR SELECT id, t0 FROM ts WHERE id IN (100000, 100360) ORDER BY id");
    for (const [id, t0] of expected.rows) expect(berlin.stdout).toContain(`\n${id},${t0},`);
    const bad = rows('Mars/Olympus');
    expect(bad.status).toBe(64);
    expect(bad.stderr).toContain('--time-zone: unknown time zone "Mars/Olympus"');
    expect(rows('+14:30').stderr).toContain('an offset lies from -13:59 to +14:00');

    const datadir = join(work, 'datadir');
    mkdirSync(join(datadir, 'shop'), { recursive: true });
    copyFileSync(ibd, join(datadir, 'shop', 'ts.ibd'));
    writeFileSync(join(datadir, 'my.cnf'), "[client]\ndefault-time-zone = '+05:00'\n[mysqld]\ndefault-time-zone = 'Europe/Berlin'  # the server's\n");
    const found = rows(null, join(datadir, 'shop', 'ts.ibd'));
    expect(found.stderr).toContain(`TIMESTAMP values are shown in Europe/Berlin, the server's zone (default-time-zone in ${join(datadir, 'my.cnf')})`);
    expect(found.stdout).toBe(berlin.stdout);
    writeFileSync(join(datadir, 'mysqld-auto.cnf'), JSON.stringify({ Version: 2, mysql_dynamic_variables: { time_zone: { Value: '-09:30', Metadata: { Timestamp: 1, User: 'root', Host: 'localhost' } } } }));
    const persisted = rows(null, join(datadir, 'shop', 'ts.ibd'));
    expect(persisted.stderr).toContain('the server\'s zone (time_zone in');
    expect(persisted.stdout).toBe(rows('-09:30').stdout);
    expect(rows('UTC', join(datadir, 'shop', 'ts.ibd')).stdout).toBe(rows(null).stdout);
  }, 120_000);
});
