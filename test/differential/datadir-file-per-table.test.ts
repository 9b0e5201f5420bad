/**
 * Issue 38: a file-per-table datadir given as one folder (`ibd-reader DIR -o OUT`): every .ibd with
 * its .frm, found by name, a partitioned table's partitions as one file, each equal to the server's
 * SELECT; `--format sql` a dump a server loads back to the same rows, a partitioned table with its
 * PARTITION BY clause from its .frm (without the .frm: unpartitioned, said in a comment).
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb } from '../harness/mariadb.ts';
import { datadirCli as cli, makeManyTables, ndjsonRows, outDir, removeOutDirs, sorted, type ManyTables } from './many-tables-setup.ts';

const N = 200;

let made: ManyTables;

beforeAll(async () => {
  made = await makeManyTables(N, { filePerTable: true, drop: false });
}, 600_000);

afterAll(() => {
  made?.remove();
  removeOutDirs();
});

describe('a file-per-table datadir as one folder', () => {
  it('every table (a partitioned one as one file) equal to the server\'s SELECT, tables.tsv a line each', () => {
    const out = outDir();
    const run = cli([made.live, '-o', out, '--format', 'ndjson', '--json-strings']);
    expect(run.status, run.stderr).toBe(0);
    const tsv = readFileSync(join(out, 'tables.tsv'), 'utf8');
    for (const [name, want] of made.expected) {
      const [db, table] = name.split('/');
      const rows = ndjsonRows(join(out, db, `${table}.ndjson`), want.columns);
      // a table without a key comes in its hidden row id's order, the server's SELECT in its ORDER BY
      expect(name === 'other/nokey' ? sorted(rows) : rows, name).toEqual(name === 'other/nokey' ? sorted(want.rows) : want.rows);
      expect(tsv, name).toMatch(new RegExp(`\\n${db}\\t${table}\\tlive\\t${db}/${table}(#P#p0)?\\.ibd.*\\t${want.rows.length}\\t(0|-)\\tfrm\\t`));
    }
    const csv = cli([made.live, '-o', outDir()]);
    expect(csv.status, csv.stderr).toBe(0);
  });

  it('--format sql: a dump per table a server loads back to the same rows', async () => {
    const out = outDir();
    const run = cli([made.live, '-o', out, '--format', 'sql']);
    expect(run.status, run.stderr).toBe(0);
    // the partitioned table with its PARTITION BY clause from its .frm
    expect(readFileSync(join(out, 'other/parts.sql'), 'utf8')).toMatch(/PARTITION BY RANGE/);
    const server = await startMariadb();
    try {
      for (const name of ['other/orders', 'other/nokey', 'other/parts', 'seeda/t1', `seeda/t${N}`]) await server.exec(readFileSync(join(out, `${name}.sql`), 'utf8'));
      for (const [name, sql] of [['other/orders', 'SELECT * FROM other.orders ORDER BY cust, seq'], ['other/nokey', 'SELECT * FROM other.nokey ORDER BY a'], ['other/parts', 'SELECT * FROM other.parts ORDER BY id'], ['seeda/t1', 'SELECT * FROM seeda.t1'], [`seeda/t${N}`, `SELECT * FROM seeda.t${N}`]]) {
        expect((await server.query(sql)).rows, name).toEqual(made.expected.get(name)?.rows);
      }
      // loaded as partitioned as it was: its rows in the same partitions
      const parts = await server.query("SELECT PARTITION_NAME, TABLE_ROWS FROM information_schema.PARTITIONS WHERE TABLE_SCHEMA = 'other' AND TABLE_NAME = 'parts' ORDER BY PARTITION_ORDINAL_POSITION");
      expect(parts.rows.map((r) => r[0])).toEqual(['p0', 'p1']);
      expect((await server.query('SELECT COUNT(*) FROM other.parts PARTITION (p0)')).rows).toEqual([['99']]);
    } finally {
      await server.stop();
    }
  });

  it('--format sql without the partitioned table\'s .frm: the table unpartitioned, a comment says why, the same rows', async () => {
    const dir = join(outDir(), 'datadir');
    cpSync(made.live, dir, { recursive: true });
    rmSync(join(dir, 'other', 'parts.frm'));
    const out = outDir();
    const run = cli([dir, '-o', out, '--format', 'sql']);
    expect(run.status, readFileSync(join(out, 'tables.tsv'), 'utf8').split('\n').filter((l) => l.includes('parts')).join('\n')).toBe(0);
    const dump = readFileSync(join(out, 'other/parts.sql'), 'utf8');
    expect(dump).toContain('no definition found gives its PARTITION BY clause: it is created unpartitioned');
    expect(dump).not.toMatch(/PARTITION BY RANGE/);
    const server = await startMariadb();
    try {
      await server.exec(dump);
      expect((await server.query('SELECT * FROM other.parts ORDER BY id')).rows).toEqual(made.expected.get('other/parts')?.rows);
    } finally {
      await server.stop();
    }
  });
});
