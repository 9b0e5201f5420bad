/**
 * Issue 37: a transaction open at the crash whose changes AND undo pages were never flushed (a big
 * buffer pool, little flushing, as in crash-recovery-setup.ts), so that only the redo log has them. The
 * rollback reads ibdata1 and the undo tablespaces through the same redo overlay as the table: the
 * transaction is found active and taken back, and our rows equal those of a second server that
 * recovers a copy of the datadir by itself. Read without the log, the undo logs do not even show
 * the transaction as active: the overlay is what makes the rollback possible.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInnodb } from '../../src/lib/node.ts';
import { openDatadirUndoAt } from '../../src/node/undo-spaces.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { SERVER_ARGS, type Crashed } from './crash-recovery-setup.ts';
import { buildCli, cli, ndjsonRows } from './undo-setup.ts';

const COLUMNS = ['id', 'k', 's'];
let crashed: Crashed;
let recovered: MariadbServer;
let copyA: string;
let expected: (string | null)[][];

/** Waits until the buffer pool has no dirty page, then lets pages stay dirty (90 %). */
async function flushAll(server: MariadbServer): Promise<void> {
  await server.exec('SET GLOBAL innodb_max_dirty_pages_pct = 0');
  for (let i = 0; i < 300 && (await server.query("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'")).rows[0][1] !== '0'; i++) await new Promise((r) => setTimeout(r, 100));
  await server.exec('SET GLOBAL innodb_max_dirty_pages_pct = 90');
}

beforeAll(async () => {
  buildCli();
  const server = await startMariadb({ extraArgs: SERVER_ARGS });
  await server.exec(`CREATE TABLE t_open (id INT NOT NULL PRIMARY KEY, k INT NOT NULL, s VARCHAR(300) NOT NULL) ENGINE=InnoDB;
    INSERT INTO t_open SELECT seq, seq % 97, REPEAT(CHAR(97 + seq % 26), 20 + seq % 200) FROM seq_1_to_1000;`);
  await flushAll(server);
  const session = await server.openSession();
  await session.exec("BEGIN; DELETE FROM t_open WHERE id < 500; UPDATE t_open SET s = 'uncommitted', k = -1 WHERE id > 700; INSERT INTO t_open SELECT 2000 + seq, 0, 'new' FROM seq_1_to_300");
  // A commit of another connection writes the log buffer out, the open transaction's records with it.
  await server.exec('CREATE TABLE t_sync (id INT PRIMARY KEY); INSERT INTO t_sync VALUES (1)');
  await server.crash();
  crashed = { server, session };
  copyA = server.copyDatadir();
  recovered = await startMariadb({ datadir: server.copyDatadir(), extraArgs: SERVER_ARGS });
  expected = (await recovered.query('SELECT id, k, s FROM t_open ORDER BY id')).rows;
}, 300_000);

afterAll(async () => {
  await crashed?.session?.close().catch(() => undefined);
  await recovered?.stop();
  await crashed?.server.stop();
});

/** The transactions active at the crash, as the undo logs of copy A say: on disk, or through the redo log. */
async function activeTrx(throughLog: boolean): Promise<number> {
  const log = await fileSource(join(copyA, 'ib_logfile0'));
  const undo = await openDatadirUndoAt(join(copyA, 'ibdata1'), throughLog ? log : undefined);
  try {
    return undo.logs.logs.filter((l) => l.state === 'active').length;
  } finally {
    await undo.close();
    await log.close();
  }
}

describe('an open transaction whose undo pages are in the redo log only', () => {
  it('is not active in the undo logs on disk, and is through the log', async () => {
    expect(await activeTrx(false)).toBe(0);
    expect(await activeTrx(true)).toBe(1);
  });

  it('is rolled back: every row as the recovering server has it', () => {
    const run = cli([join(copyA, 'test', 't_open.ibd'), '--format', 'ndjson', '--json-strings']);
    expect(run.stderr).toMatch(/transaction \d+ was active at the crash: rolled back/);
    expect(run.status, run.stderr).toBe(0);
    expect(ndjsonRows(run.stdout, COLUMNS)).toEqual(expected);
  }, 120_000);

  it('the log carries its uncommitted changes: rolled forward only, the live rows are not the server\'s', async () => {
    const file = await openInnodb(join(copyA, 'test', 't_open.ibd'));
    try {
      expect(file.recovery?.applied?.recordsApplied).toBeGreaterThan(0);
      expect((await file.countLiveRows()).rows).toBe(1000 - 499 + 300);
    } finally {
      await file.close();
    }
    expect(expected.length).toBe(1000);
  });
});
