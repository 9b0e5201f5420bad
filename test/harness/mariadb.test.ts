// Proves the MariaDB test harness itself: value rendering of query(), exportTable(), page-size and
// checksum options (checked through the FSP flags of the exported .ibd), and clean shutdown.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer } from './mariadb.ts';

/** FSP_SPACE_FLAGS: FSP header starts after the 38-byte FIL header; flags are at +16. */
function fspFlags(ibdPath: string): number {
  const buf = readFileSync(ibdPath);
  return buf.readUInt32BE(38 + 16);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const EDGE_TABLE = `
CREATE TABLE edge (
  id INT NOT NULL PRIMARY KEY,
  s VARCHAR(20) CHARACTER SET utf8mb4,
  lat VARCHAR(20) CHARACTER SET latin1,
  b BLOB,
  vb VARBINARY(8),
  d DECIMAL(6,2),
  dt DATETIME(6),
  ts TIMESTAMP(6) NULL,
  bt BIT(5),
  dz DATE,
  f DOUBLE
) ENGINE=InnoDB;
SET time_zone = '+02:00';
INSERT INTO edge VALUES
  (1, 'NULL', 'é', 0x00FF, '', -1.5, '2024-02-29 13:05:00.123', '2024-02-29 15:05:00.5', b'10101', '0000-00-00', 1.5),
  (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL),
  (3, '', '', '', 0x00, -0.00, '1000-01-01 00:00:00', '1970-01-01 02:00:01', b'0', '9999-12-31', -0e0),
  (4, 'a😀b', 'Ünïcödé', x'DEADBEEF', 'NULL', 9999.99, '2038-01-19 03:14:07.999999', NULL, b'11111', '2024-02-29', 1e300);
`;

describe('mariadb harness, 16K full_crc32', () => {
  let srv: MariadbServer;

  beforeAll(async () => {
    srv = await startMariadb({ pageSize: 16384, checksum: 'full_crc32' });
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('runs with the requested settings', async () => {
    const r = await srv.query(
      'SELECT @@innodb_page_size, @@innodb_checksum_algorithm, @@time_zone, @@character_set_results, DATABASE(), @@sql_mode LIKE "%IGNORE_SPACE%"',
    );
    expect(r.rows).toEqual([['16384', 'full_crc32', '+00:00', 'utf8mb4', 'test', '0']]);
    expect(srv.pageSize).toBe(16384);
    expect(existsSync(srv.socket)).toBe(true);
    expect(existsSync(join(srv.datadir, 'mysql'))).toBe(true);
  });

  it('renders values exactly as the server text protocol does', async () => {
    await srv.exec(EDGE_TABLE);
    const r = await srv.query('SELECT * FROM edge ORDER BY id');
    expect(r.columns).toEqual(['id', 's', 'lat', 'b', 'vb', 'd', 'dt', 'ts', 'bt', 'dz', 'f']);
    expect(r.rows).toEqual([
      ['1', 'NULL', 'é', '0x00FF', '0x', '-1.50', '2024-02-29 13:05:00.123000', '2024-02-29 13:05:00.500000', '0x15', '0000-00-00', '1.5'],
      ['2', null, null, null, null, null, null, null, null, null, null],
      // MariaDB stores DECIMAL -0.00 as 0.00, and DOUBLE -0e0 shows as 0.
      ['3', '', '', '0x', '0x00', '0.00', '1000-01-01 00:00:00.000000', '1970-01-01 00:00:01.000000', '0x00', '9999-12-31', '0'],
      ['4', 'a😀b', 'Ünïcödé', '0xDEADBEEF', '0x4E554C4C', '9999.99', '2038-01-19 03:14:07.999999', null, '0x1F', '2024-02-29', '1e300'],
    ]);
    // NULL is never confused with the string 'NULL'.
    expect(r.rows[0][1]).toBe('NULL');
    expect(r.rows[1][1]).toBeNull();
  });

  it('agrees with the mariadb CLI (--xml --binary-as-hex)', async () => {
    const sql = 'SELECT * FROM edge ORDER BY id';
    const xml = execFileSync('mariadb', ['--no-defaults', `--socket=${srv.socket}`, '-uroot', '--xml', '--binary-as-hex', '--default-character-set=utf8mb4', '-e', sql, 'test'], {
      encoding: 'utf8',
    });
    const cliRows = [...xml.matchAll(/<row>([\s\S]*?)<\/row>/g)].map((m) =>
      [...m[1].matchAll(/<field name="[^"]*"(?: xsi:nil="true" \/>|>([^<]*)<\/field>)/g)].map((f) =>
        f[0].includes('xsi:nil') ? null : f[1].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&'),
      ),
    );
    const ours = (await srv.query(sql)).rows;
    // (the CLI, too, prints an empty binary value as '0x')
    expect(cliRows).toEqual(ours);
  });

  it('keeps expressions, non-binary and binary results apart', async () => {
    const r = await srv.query(
      "SELECT 1 AS n, -0.5 AS dec_lit, CAST('x' AS BINARY) AS bin, HEX('é') AS hx, CONVERT('é' USING latin1) AS l1, NULL AS nul, '' AS empty_s",
    );
    expect(r.columns).toEqual(['n', 'dec_lit', 'bin', 'hx', 'l1', 'nul', 'empty_s']);
    expect(r.rows).toEqual([['1', '-0.5', '0x78', 'C3A9', 'é', null, '']]);
    // several statements: the last result set is returned
    const m = await srv.query('SET @a = 41; SELECT @a + 1 AS v');
    expect(m).toEqual({ columns: ['v'], rows: [['42']] });
    // no result set
    expect(await srv.query('DO 1')).toEqual({ columns: [], rows: [] });
  });

  it('uses the server sql_mode (function names usable as identifiers) and reports SQL errors', async () => {
    await srv.exec('CREATE TABLE count (count INT, now INT); INSERT INTO count VALUES (1, 2)');
    expect((await srv.query('SELECT count, now FROM count')).rows).toEqual([['1', '2']]);
    await expect(srv.exec('INSERT INTO no_such_table VALUES (1)')).rejects.toThrow(/no_such_table/);
  });

  it('works with other databases and large scripts', async () => {
    await srv.exec('CREATE DATABASE other');
    const values = Array.from({ length: 20000 }, (_, i) => `(${i}, '${'x'.repeat(100)}${i}')`).join(',');
    await srv.exec(`CREATE TABLE big (id INT PRIMARY KEY, v VARCHAR(200)); INSERT INTO big VALUES ${values};`, 'other');
    const r = await srv.query('SELECT COUNT(*), MAX(id), SUM(LENGTH(v)) FROM big', 'other');
    expect(r.rows).toEqual([['20000', '19999', String(20000 * 100 + 10 * 1 + 90 * 2 + 900 * 3 + 9000 * 4 + 10000 * 5)]]);
    const ibd = await srv.exportTable('big', 'other');
    expect(statSync(ibd).size % 16384).toBe(0);
    expect(statSync(ibd).size).toBeGreaterThan(16384 * 64);
  });

  it('exports a flushed .ibd with full_crc32 flags', async () => {
    const ibd = await srv.exportTable('edge');
    expect(existsSync(ibd)).toBe(true);
    expect(ibd.startsWith(srv.baseDir)).toBe(true);
    expect(ibd.endsWith('/edge.ibd')).toBe(true);
    expect(existsSync(join(dirname(ibd), 'edge.cfg'))).toBe(true);
    expect(existsSync(join(dirname(ibd), 'edge.frm'))).toBe(true);
    const size = statSync(ibd).size;
    expect(size).toBeGreaterThan(0);
    expect(size % 16384).toBe(0);
    const flags = fspFlags(ibd);
    expect(flags & 0x10).toBe(0x10); // FSP_FLAGS_FCRC32_MASK_MARKER
    expect(flags & 0xf).toBe(5); // full_crc32 page ssize: 16K
    // The lock was released: the table is writable again.
    await srv.exec('INSERT INTO edge (id) VALUES (5)');
    // Names that need file-name encoding.
    await srv.exec('CREATE TABLE `a-b c` (x INT) ENGINE=InnoDB');
    expect((await srv.exportTable('a-b c')).endsWith('/a@002db@0020c.ibd')).toBe(true);
  });
});

describe('mariadb harness, 4K crc32', () => {
  let srv: MariadbServer;

  beforeAll(async () => {
    srv = await startMariadb({ pageSize: 4096, checksum: 'crc32' });
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('exports MySQL-layout flags with 4K pages', async () => {
    expect((await srv.query('SELECT @@innodb_page_size, @@innodb_checksum_algorithm')).rows).toEqual([['4096', 'crc32']]);
    await srv.exec("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(50)) ENGINE=InnoDB; INSERT INTO t VALUES (1, 'one'), (2, NULL)");
    expect((await srv.query('SELECT * FROM t ORDER BY id')).rows).toEqual([
      ['1', 'one'],
      ['2', null],
    ]);
    const ibd = await srv.exportTable('t');
    const size = statSync(ibd).size;
    expect(size).toBeGreaterThan(0);
    expect(size % 4096).toBe(0);
    const flags = fspFlags(ibd);
    expect(flags & 0x10).toBe(0); // no full_crc32 marker
    expect((flags >> 6) & 0xf).toBe(3); // PAGE_SSIZE 3 = 4K
  });

  it('stop() kills the server and removes its directory', async () => {
    const { pid, baseDir } = srv;
    expect(processAlive(pid)).toBe(true);
    await srv.stop();
    await srv.stop(); // idempotent
    expect(processAlive(pid)).toBe(false);
    expect(existsSync(baseDir)).toBe(false);
    await expect(srv.query('SELECT 1')).rejects.toThrow(/stopped/);
  });
});

describe('mariadb harness, a crash and the server recovering a copy', () => {
  it('keeps committed rows the crash left only in the log, and rolls back the open transaction', async () => {
    const crashed = await startMariadb({ extraArgs: ['--innodb-flush-log-at-trx-commit=1'] });
    let recovered: MariadbServer | null = null;
    try {
      await crashed.exec('CREATE TABLE c (id INT PRIMARY KEY, v INT); INSERT INTO c VALUES (1, 1), (2, 2)');
      const open = await crashed.openSession();
      await open.exec('START TRANSACTION; UPDATE c SET v = 99 WHERE id = 1');
      await crashed.exec('INSERT INTO c VALUES (3, 3)');
      await crashed.crash();
      expect(processAlive(crashed.pid)).toBe(false);
      const copy = crashed.copyDatadir();
      recovered = await startMariadb({ datadir: copy });
      expect((await recovered.query('SELECT id, v FROM c ORDER BY id')).rows).toEqual([
        ['1', '1'],
        ['2', '2'],
        ['3', '3'],
      ]);
      expect(recovered.errorLog()).toMatch(/crash recovery|Starting final batch|Rolled back|rollback/i);
    } finally {
      await recovered?.stop();
      await crashed.stop();
    }
  });
});
