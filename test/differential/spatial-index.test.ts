/**
 * SPATIAL indexes against a real MariaDB: tables (DYNAMIC, REDUNDANT, COMPRESSED) of two R-trees (a GEOMETRY column of polygons,
 * points and flat lines; a POINT column) and a B-tree index between them, 5,000 rows, on 16K and 4K
 * pages (R-trees of several levels); each SPATIAL index read by name, its rows — `MBR(g)` as WKT,
 * then the primary key — compared as a set with the server's `SELECT ST_AsText(ST_Envelope(g)), id`
 * (an R-tree's leaves are not in key order), the count with the table's; through the CLI too, where
 * a `--key` is an MBR's text, compared on every leaf.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectSameRows } from './decode.ts';
import { decodeIndex, indexRows, tableDef } from './index-query.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
const ROWS = 5000;

const fill = (name: string, format: string) => `CREATE TABLE ${name} (id INT NOT NULL PRIMARY KEY, g GEOMETRY NOT NULL, name VARCHAR(20) NULL, p POINT NOT NULL,
    SPATIAL KEY sg (g), KEY kn (name), SPATIAL KEY spt (p)) ENGINE=InnoDB ROW_FORMAT=${format};
  INSERT INTO ${name} SELECT seq,
    CASE seq % 4
      WHEN 0 THEN ST_GeomFromText(CONCAT('POINT(', seq * 0.25 - 300, ' ', (seq % 97) * -1.5, ')'))
      WHEN 1 THEN ST_GeomFromText(CONCAT('LINESTRING(', seq, ' 7, ', seq + 3.5, ' 7)'))
      ELSE ST_GeomFromText(CONCAT('POLYGON((', seq % 500, ' ', seq % 300, ',', seq % 500 + 10.125, ' ', seq % 300, ',', seq % 500 + 2, ' ', seq % 300 + 1e-7 * seq, ',', seq % 500, ' ', seq % 300, '))'))
    END,
    CONCAT('n', seq % 50), ST_GeomFromText(CONCAT('POINT(', (seq * 7919) % 10007 / 3, ' ', -(seq % 1000) / 7, ')')) FROM seq_1_to_${ROWS};`;

const sorted = (rows: readonly (readonly (string | null)[])[]) => rows.map((r) => r.join('\t')).sort();

describe.each([16384, 4096])('SPATIAL indexes, %i-byte pages', (pageSize) => {
  let server: MariadbServer;
  let ibd: string;
  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    server = await startMariadb({ pageSize });
    await server.exec(fill('sp', 'DYNAMIC') + fill('sp_r', 'REDUNDANT') + fill('sp_c', 'COMPRESSED'));
    ibd = await server.exportTable('sp');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each([['sg', 'g'], ['spt', 'p']])('index %s: every MBR and key, as ST_Envelope shows them', async (index, column) => {
    const table = await tableDef(server, 'sp');
    const expected = await server.query(`SELECT ST_AsText(ST_Envelope(${column})), id FROM sp`);
    const decoded = await decodeIndex(ibd, table, index);
    expect(decoded.reader.columns).toEqual([`MBR(${column})`, 'id']);
    expect(decoded.rows.length).toBe(ROWS);
    expect(sorted(decoded.rows)).toEqual(sorted(expected.rows));
    expect(decoded.reader.stats.problems).toEqual([]);
    if (pageSize === 4096) expect(decoded.reader.info.treeHeight).toBeGreaterThan(1);
  });

  it('REDUNDANT records; the B-tree index between the R-trees', async () => {
    const table = await tableDef(server, 'sp_r');
    const expected = await server.query('SELECT ST_AsText(ST_Envelope(g)), id FROM sp_r');
    expect(sorted((await decodeIndex(await server.exportTable('sp_r'), table, 'sg')).rows)).toEqual(sorted(expected.rows));
    const kn = await indexRows(server, table, 'kn');
    expectSameRows((await decodeIndex(ibd, await tableDef(server, 'sp'), 'kn')).rows, kn.rows, 'kn', kn.names);
  });

  it('ROW_FORMAT=COMPRESSED: both R-trees\' compressed pages, and the B-tree index between them', async () => {
    const table = await tableDef(server, 'sp_c');
    const file = await server.exportTable('sp_c');
    for (const [index, column] of [['sg', 'g'], ['spt', 'p']]) {
      const expected = await server.query(`SELECT ST_AsText(ST_Envelope(${column})), id FROM sp_c`);
      const decoded = await decodeIndex(file, table, index);
      expect(decoded.reader.info.rowFormat, index).toBe('COMPRESSED');
      expect(decoded.rows.length, index).toBe(ROWS);
      expect(sorted(decoded.rows), index).toEqual(sorted(expected.rows));
      expect(decoded.reader.stats.problems, index).toEqual([]);
      // Node pages of the R-tree compressed too.
      expect(decoded.reader.info.treeHeight, index).toBeGreaterThan(1);
    }
    const kn = await indexRows(server, table, 'kn');
    expectSameRows((await decodeIndex(file, table, 'kn')).rows, kn.rows, 'sp_c.kn', kn.names);
  });

  it('the CLI reads it by name, counts it, and finds an MBR given as the key', async () => {
    const rows = spawnSync(process.execPath, [CLI, ibd, '--index', 'sg', '--format', 'ndjson', '--json-strings'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(rows.status, rows.stderr).toBe(0);
    expect(rows.stdout.trim().split('\n').length).toBe(ROWS);
    const count = spawnSync(process.execPath, [CLI, ibd, '--index', 'spt', '--count'], { encoding: 'utf8' });
    expect(count.stdout.trim()).toBe(String(ROWS));
    // No B-tree order to descend by: a key is its MBR's text, found on every leaf (a note says so).
    const first = JSON.parse(rows.stdout.split('\n')[0]) as Record<string, string>;
    const key = spawnSync(process.execPath, [CLI, ibd, '--index', 'sg', '--key', first['MBR(g)'].replaceAll(',', '\\,'), '--format', 'ndjson', '--json-strings'], { encoding: 'utf8' });
    expect(key.status, key.stderr).toBe(0);
    expect(key.stderr).toContain('whose stored order is not modelled');
    const found = key.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    expect(found.map((o) => o['MBR(g)'])).toEqual(found.map(() => first['MBR(g)']));
    expect(found.map((o) => o.id)).toContain(first.id);
  });
});
