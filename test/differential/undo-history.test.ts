/**
 * History from the undo logs (issue 39): a read view held open keeps purge back while an UPDATE
 * without WHERE, a DELETE, an INSERT, a primary-key update and a small later transaction commit, each
 * followed by a SELECT; undo in three undo tablespaces (undo001…). Every page is written, the server
 * killed (a slow shutdown would wait for the view). `--before-trx N` equals the SELECT taken before N;
 * `--list-transactions` names N, its table and the server's affected rows. Then a server recovers a
 * copy and purges everything (slow shutdown): the same question marks every changed row
 * history-lost, and no row shows a value that is not the old one.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { buildCli, cli, flushDirtyPages, ndjsonRows } from './undo-setup.ts';

const COLUMNS = ['id', 'name', 'price', 'note'];
const SELECT = 'SELECT id, name, price, note FROM items ORDER BY id';
const STEPS = [
  'UPDATE items SET price = 0',
  'DELETE FROM items WHERE id % 9 = 0',
  "INSERT INTO items SELECT 500 + seq, CONCAT('added ', seq), seq, NULL FROM seq_1_to_50",
  'UPDATE items SET id = id + 10000 WHERE id % 50 = 1',
  "UPDATE items SET name = 'later' WHERE id = 2",
];

let server: MariadbServer;
let purged: MariadbServer;
/** Before each step: the table, the step's transaction id, its affected rows. */
const before: { rows: (string | null)[][]; trxId: string; affected: string }[] = [];

beforeAll(async () => {
  buildCli();
  server = await startMariadb({ extraArgs: ['--innodb-undo-tablespaces=3'] });
  await server.exec(`CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, price DECIMAL(10,2) NOT NULL, note TEXT) ROW_FORMAT=DYNAMIC;
    INSERT INTO items SELECT seq, CONCAT('item ', seq), seq * 1.5, IF(seq % 6 = 0, REPEAT('note', 2500), NULL) FROM seq_1_to_400;`);
  const view = await server.openSession();
  await view.exec('START TRANSACTION WITH CONSISTENT SNAPSHOT');
  await view.query('SELECT COUNT(*) FROM items');
  const writer = await server.openSession();
  for (const step of STEPS) {
    const rows = (await server.query(SELECT)).rows;
    await writer.exec('START TRANSACTION');
    await writer.exec(step);
    const affected = String((await writer.query('SELECT ROW_COUNT()')).rows[0][0]);
    // INFORMATION_SCHEMA.INNODB_TRX is a cache refreshed at most every 0.1 s.
    await new Promise((r) => setTimeout(r, 250));
    const trxId = String((await writer.query('SELECT trx_id FROM information_schema.innodb_trx WHERE trx_mysql_thread_id = CONNECTION_ID()')).rows[0][0]);
    await writer.exec('COMMIT');
    before.push({ rows, trxId, affected });
  }
  await flushDirtyPages(server);
  await server.crash();
  purged = await startMariadb({ datadir: server.copyDatadir(), extraArgs: ['--innodb-undo-tablespaces=3'] });
  await purged.slowShutdown();
}, 300_000);

afterAll(async () => {
  await purged?.stop();
  await server?.stop();
});

const file = (datadir: string) => join(datadir, 'test', 'items.ibd');

describe('the table before a transaction, from the undo logs', () => {
  it.each(STEPS.map((s, i) => [i, s]))('before step %i (%s): the rows equal the SELECT taken before it', (i) => {
    const run = cli([file(server.datadir), '--format', 'ndjson', '--json-strings', '--before-trx', before[i as number].trxId]);
    expect(run.status, run.stderr).toBe(0);
    expect(ndjsonRows(run.stdout, COLUMNS)).toEqual(before[i as number].rows);
  });

  it('--list-transactions names the UPDATE without WHERE, its table and the rows it changed', () => {
    const run = cli([join(server.datadir, 'ibdata1'), '--list-transactions']);
    expect(run.status, run.stderr).toBe(0);
    const line = run.stdout.split('\n').find((l) => l.startsWith(`trx ${before[0].trxId}\t`));
    expect(line).toContain('committed');
    expect(line).toContain(`test/items: 0 inserted, ${before[0].affected} updated (price), 0 deleted`);
    const deleted = run.stdout.split('\n').find((l) => l.startsWith(`trx ${before[1].trxId}\t`));
    expect(deleted).toContain(`test/items: 0 inserted, 0 updated, ${before[1].affected} deleted`);
  });

  it('the current table (no --before-trx) is the server\'s, nothing taken back', () => {
    const run = cli([file(server.datadir), '--format', 'ndjson', '--json-strings']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('taken back');
  });

  it('after purge: every row the transactions changed is marked history-lost, none shown as if old', () => {
    const run = cli([file(purged.datadir), '--format', 'ndjson', '--json-strings', '--rows', 'both', '--before-trx', before[0].trxId]);
    expect(run.status, run.stderr).toBe(2);
    const rows = ndjsonRows(run.stdout, [...COLUMNS, '_row_state']);
    const old = new Map(before[0].rows.map((r) => [r[0], JSON.stringify(r)]));
    for (const r of rows) {
      if (r[4] !== 'history-lost') expect(old.get(r[0])).toBe(JSON.stringify(r.slice(0, 4)));
    }
    expect(rows.filter((r) => r[4] === 'history-lost').length).toBeGreaterThan(300);
  });
});
