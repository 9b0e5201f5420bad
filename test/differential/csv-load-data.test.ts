/**
 * `--csv-for load-data -o t.csv` against a real MariaDB whose zone is not UTC (+03:00): a table of
 * binary values holding every awkward byte (NUL, backslash, quote, comma, line breaks, 0xFF), BLOBs,
 * BIT, TIMESTAMP with fractions, NULLs, text that is literally `\N`, text with tabs, line breaks,
 * quotes and backslashes, utf8mb4, geometry (with an SRID), JSON, a generated column. The CSV and the
 * statement written beside it (t.load.sql) are run by the mariadb client into a fresh table of the
 * same definition (`mariadb --local-infile=1 back < t.load.sql`, as a DBA would), and the server's
 * SELECT of it equals its SELECT of the original, value by value. The default CSV stays as it was:
 * binary as `0x…` text and backslashes as they are (LOAD DATA would misread both).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectSameRows } from './decode.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

const TABLE = `CREATE TABLE t (
  id INT NOT NULL PRIMARY KEY, b VARBINARY(40), bn BINARY(4), bl BLOB, bits BIT(12), ts TIMESTAMP(6) NULL DEFAULT NULL,
  dt DATETIME(3), tx TEXT, v VARCHAR(100), l1 VARCHAR(20) CHARACTER SET latin1, vb VARCHAR(20) CHARACTER SET binary,
  g GEOMETRY, j JSON, e ENUM('a','b,c'), f DOUBLE, d DECIMAL(20,6), twice INT AS (id * 2) VIRTUAL
) DEFAULT CHARSET=utf8mb4`;

const ROWS = `
SET time_zone = '+05:30';
INSERT INTO t (id) VALUES (1);
INSERT INTO t (id, b, bn, bl, bits, ts, dt, tx, v, l1, vb, g, j, e, f, d) VALUES
  (2, 0x005C224E2C0A0D09FF27, 0x5C4E0000, UNHEX(REPEAT('5C4E2C0A00FF', 3000)), b'101010101010', '2024-03-31 02:30:00.123456', '2024-03-31 02:30:00.5',
   '\\\\N', 'tab\\there\\nnew "quoted" line\\\\back\\\\slash, comma', 'ÿé\\\\', 0x5C4E, ST_GeomFromText('POINT(1 2)', 4326), '{"k": "a\\\\\\\\b \\\\"q\\\\""}', 'b,c', -1.5e-300, -12345678901234.123456),
  (3, X'', X'00000000', X'', b'0', '1970-01-01 05:30:01', '1000-01-01 00:00:00', '', '', '', X'', ST_GeomFromText('LINESTRING(0 0, 1 1)'), '[]', 'a', 0, 0),
  (4, 0x4E554C4C, 0x4E554C4C, 0x5C, b'111111111111', '2038-01-19 08:44:07.999999', '9999-12-31 23:59:59.999', 'NULL', '\\\\', 'x', 0x4E554C4C, NULL, NULL, NULL, NULL, NULL),
  (5, NULL, NULL, NULL, NULL, NULL, NULL, '\\\\\\\\N', '"', '\\\\N', NULL, NULL, 'null', NULL, 1e300, 0.000001),
  (6, 0x0A, 0x0D0A0D0A, 0x22, b'1', '2000-02-29 23:59:59', '2000-02-29 23:59:59', 'utf8mb4 😀 漢字\\r\\nCRLF', 'a\\0b', 'z', 0x0A, NULL, '{}', 'a', 3.14, 1);
`;

describe('CSV for LOAD DATA (CLI) against MariaDB', () => {
  let server: MariadbServer;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    server = await startMariadb({ extraArgs: ['--default-time-zone=+03:00'] });
    await server.exec(`${TABLE};${ROWS}`);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('loads back equal to the original: binary, BLOB, TIMESTAMP in a non-UTC zone, NULL, \\N text, escapes, utf8mb4', async () => {
    const ibd = await server.exportTable('t');
    const csv = join(dirname(ibd), 't.csv');
    const run = spawnSync(process.execPath, [CLI, ibd, '--csv-for', 'load-data', '-o', csv, '--threads', '2'], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain(`${join(dirname(ibd), 't.load.sql')}: the LOAD DATA statement of ${csv}`);
    const statement = readFileSync(join(dirname(ibd), 't.load.sql'), 'utf8');
    expect(statement).toContain("TIME_ZONE='+00:00'");
    expect(statement).toContain('`b` = UNHEX(SUBSTRING(@c2, 3))');
    await server.exec('CREATE DATABASE back; CREATE TABLE back.t LIKE test.t');
    // The statement as written, with SHOW WARNINGS right after the load: none (no value cut, none converted).
    const input = statement.replace('\nSET SQL_MODE=@OLD_SQL_MODE;', '\nSHOW WARNINGS;\nSET SQL_MODE=@OLD_SQL_MODE;');
    const load = spawnSync('mariadb', ['--local-infile=1', `--socket=${server.socket}`, '-uroot', 'back'], { cwd: dirname(ibd), input, encoding: 'utf8' });
    expect(load.status, load.stderr).toBe(0);
    expect(load.stdout).toBe('');
    const original = await server.query('SELECT * FROM test.t ORDER BY id');
    const loaded = await server.query('SELECT * FROM back.t ORDER BY id');
    expect(loaded.rows.length).toBe(6);
    expectSameRows(loaded.rows, original.rows, 't loaded back', original.columns);
  });

  it('leaves the default CSV as it was: binary as 0x text, backslashes as they are', async () => {
    const ibd = await server.exportTable('t');
    const plain = spawnSync(process.execPath, [CLI, ibd], { encoding: 'utf8' });
    expect(plain.status, plain.stderr).toBe(0);
    const lines = plain.stdout.split('\n');
    expect(lines[0]).toBe('id,b,bn,bl,bits,ts,dt,tx,v,l1,vb,g,j,e,f,d');
    // Row 2's quoted fields hold line breaks: row 4 found by its key.
    expect(lines.find((l) => l.startsWith('4,'))).toMatch(/^4,0x4E554C4C,0x4E554C4C,0x5C,0x[0-9A-F]+,2038-01-19 03:14:07\.999999,9999-12-31 23:59:59\.999,NULL,\\,x,0x4E554C4C,\\N,/);
    const refused = spawnSync(process.execPath, [CLI, ibd, '--csv-for', 'load-data'], { encoding: 'utf8' });
    expect([refused.status, refused.stderr]).toEqual([64, expect.stringContaining('--csv-for load-data writes CSV (--format csv) to -o FILE')]);
  });
});
