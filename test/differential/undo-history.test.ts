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
import { buildCli, cli, commitItemSteps, ITEMS_STEPS, ndjsonRows, type StepBefore } from './undo-setup.ts';

const COLUMNS = ['id', 'name', 'price', 'note'];
const STEPS = ITEMS_STEPS;

let server: MariadbServer;
let purged: MariadbServer;
let before: StepBefore[] = [];

beforeAll(async () => {
  buildCli();
  server = await startMariadb({ extraArgs: ['--innodb-undo-tablespaces=3'] });
  before = await commitItemSteps(server);
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
