/**
 * Issue 38: a file-per-table datadir given as one folder (`ibd-reader DIR -o OUT`): every .ibd with
 * its .frm, found by name, a partitioned table's partitions as one file, each equal to the server's
 * SELECT; `--format sql` a dump a server loads back to the same rows.
 */
import { readFileSync } from 'node:fs';
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
    // a partitioned table is not written as SQL yet: said in tables.tsv, exit status 2
    expect(run.status, run.stderr).toBe(2);
    expect(readFileSync(join(out, 'tables.tsv'), 'utf8')).toMatch(/\nother\tparts\t.*--format sql is not written for a partitioned table/);
    const server = await startMariadb();
    try {
      for (const name of ['other/orders', 'other/nokey', 'seeda/t1', `seeda/t${N}`]) await server.exec(readFileSync(join(out, `${name}.sql`), 'utf8'));
      for (const [name, sql] of [['other/orders', 'SELECT * FROM other.orders ORDER BY cust, seq'], ['other/nokey', 'SELECT * FROM other.nokey ORDER BY a'], ['seeda/t1', 'SELECT * FROM seeda.t1'], [`seeda/t${N}`, `SELECT * FROM seeda.t${N}`]]) {
        expect((await server.query(sql)).rows, name).toEqual(made.expected.get(name)?.rows);
      }
    } finally {
      await server.stop();
    }
  });
});
