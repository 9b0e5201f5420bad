/**
 * sysbench's standard table, sbtest1: made by sysbench itself (`oltp_read_only ... prepare`, the
 * Debian package) when it can connect; otherwise the same table with rows of the same shape made
 * here: `c` is ten 11-digit groups joined by '-', `pad` five, `k` uniform in [1, rows], then the
 * secondary index k_1 added after the load, as sysbench does.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import type { MariadbServer } from '../test/harness/mariadb.ts';
import { Rng } from './lineitem.ts';

export const SBTEST_ROWS = 2_000_000;

const SBTEST_DDL = `CREATE TABLE sbtest1 (
  id INT NOT NULL AUTO_INCREMENT,
  k INT NOT NULL DEFAULT 0,
  c CHAR(120) NOT NULL DEFAULT '',
  pad CHAR(60) NOT NULL DEFAULT '',
  PRIMARY KEY (id)
) ENGINE=InnoDB`;

function digitGroups(rng: Rng, groups: number): string {
  const parts: string[] = [];
  for (let g = 0; g < groups; g++) parts.push(String(rng.int(0, 99_999)).padStart(5, '0') + String(rng.int(0, 999_999)).padStart(6, '0'));
  return parts.join('-');
}

/** Fills sbtest1 in `server`; returns how it was made. */
export async function makeSbtest(server: MariadbServer, rows: number, scratchTsv: string): Promise<string> {
  // --rand-seed makes sysbench's strings repeatable (0, its default, seeds from the clock).
  const run = spawnSync(
    'sysbench',
    ['oltp_read_only', `--mysql-socket=${server.socket}`, '--mysql-user=root', '--mysql-db=test', '--tables=1', `--table-size=${rows}`, '--rand-seed=1', 'prepare'],
    { encoding: 'utf8' },
  );
  if (run.status === 0) return 'sysbench oltp_read_only prepare';
  console.log(`bench: sysbench prepare failed (${run.error?.message ?? `status ${run.status}`}): ${run.stderr.trim().split('\n').pop() ?? ''}; making sbtest1 here`);
  await server.exec('DROP TABLE IF EXISTS sbtest1');
  const rng = new Rng(1);
  const fd = openSync(scratchTsv, 'w');
  try {
    let chunk = '';
    for (let id = 1; id <= rows; id++) {
      chunk += `${id}\t${rng.int(1, rows)}\t${digitGroups(rng, 10)}\t${digitGroups(rng, 5)}\n`;
      if (chunk.length >= 1 << 20) {
        writeSync(fd, chunk);
        chunk = '';
      }
    }
    writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  await server.exec(`${SBTEST_DDL}; LOAD DATA INFILE '${scratchTsv}' INTO TABLE sbtest1; CREATE INDEX k_1 ON sbtest1 (k)`);
  rmSync(scratchTsv, { force: true });
  return 'generated like sysbench (sysbench could not connect)';
}
