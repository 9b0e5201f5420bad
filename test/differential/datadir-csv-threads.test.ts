/**
 * `DIR -o OUT` with a table large enough for the worker threads: each run's CSV buffer is given
 * back to the thread that made it once written (NodePool.give), and the file must still be the
 * server's SELECT byte for byte (a buffer given back before its write ended would be detached).
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { datadirCli as cli, outDir, removeOutDirs } from './many-tables-setup.ts';

let server: MariadbServer;
let datadir: string;
let expected: string;

beforeAll(async () => {
  server = await startMariadb();
  // ~60,000 rows of ~100 bytes: over 300 leaf pages, past the CLI's threshold for worker threads.
  await server.exec(`CREATE DATABASE big; CREATE TABLE big.t (id INT PRIMARY KEY, note VARCHAR(80), amount DECIMAL(10,2), day DATE) ENGINE=InnoDB;
    INSERT INTO big.t SELECT seq, CONCAT('note ', seq, IF(seq % 13 = 0, ', with "quotes"', REPEAT(' x', seq % 30))), seq / 7, DATE'2001-01-01' + INTERVAL seq % 9000 DAY FROM seq_1_to_60000;`);
  const { columns, rows } = await server.query('SELECT * FROM big.t ORDER BY id');
  expected = csvHeader(columns) + csvRows(rows);
  await server.slowShutdown();
  datadir = server.copyDatadir();
}, 600_000);

afterAll(async () => {
  await server?.stop();
  if (datadir) rmSync(datadir, { recursive: true, force: true });
  removeOutDirs();
});

it('a table decoded over 2 threads is written as the server\'s SELECT', () => {
  const out = outDir();
  const run = cli([datadir, '-o', out, '--threads', '2']);
  expect(run.status, run.stderr).toBe(0);
  expect(readFileSync(join(out, 'big', 't.csv'), 'utf8') === expected).toBe(true);
}, 300_000);
