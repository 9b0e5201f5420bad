/**
 * The system columns (issue 41, `--system-columns`): `_db_trx_id`, `_db_roll_ptr`, `_page`, `_heap`.
 * A read view held open keeps purge from resetting DB_TRX_ID while four transactions, whose ids the
 * server gives in information_schema.innodb_trx while each is open, insert, update, delete and insert
 * again in tables of the three row formats; every page is written, the server killed. Each row's
 * `_db_trx_id` is the id of the transaction that changed it last (its DB_ROLL_PTR's insert flag
 * says whether it inserted it), and `_page` / `_heap` are where the page inspector (`--page N`)
 * finds the record of that key on that page.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer, type Session } from '../harness/mariadb.ts';
import { buildCli, cli, flushDirtyPages, ndjsonRows } from './undo-setup.ts';

const FORMATS = ['REDUNDANT', 'COMPACT', 'DYNAMIC'] as const;
const SYSTEM = ['_db_trx_id', '_db_roll_ptr', '_page', '_heap'];
const STEPS = {
  inserted: (t: string) => `INSERT INTO ${t} SELECT seq, CONCAT('v', seq), seq FROM seq_1_to_600`,
  updated: (t: string) => `UPDATE ${t} SET n = n + 1 WHERE id % 4 = 0`,
  deleted: (t: string) => `DELETE FROM ${t} WHERE id % 10 = 0`,
  added: (t: string) => `INSERT INTO ${t} SELECT 1000 + seq, 'added', seq FROM seq_1_to_40`,
};
type Step = keyof typeof STEPS;

let server: MariadbServer;
const trxIds = new Map<Step, string>();

/** Runs one step in all tables as one transaction; the server's id for it, read while it is open. */
async function step(writer: Session, name: Step): Promise<string> {
  await writer.exec('START TRANSACTION');
  for (const f of FORMATS) await writer.exec(STEPS[name](`t_${f}`));
  // INFORMATION_SCHEMA.INNODB_TRX is a cache refreshed at most every 0.1 s.
  await new Promise((r) => setTimeout(r, 250));
  const id = String((await writer.query('SELECT trx_id FROM information_schema.innodb_trx WHERE trx_mysql_thread_id = CONNECTION_ID()')).rows[0][0]);
  await writer.exec('COMMIT');
  return id;
}

beforeAll(async () => {
  buildCli();
  server = await startMariadb();
  for (const f of FORMATS) await server.exec(`CREATE TABLE t_${f} (id INT PRIMARY KEY, v VARCHAR(20) NOT NULL, n INT, KEY k_n (n)) ROW_FORMAT=${f}`);
  const view = await server.openSession();
  await view.exec('START TRANSACTION WITH CONSISTENT SNAPSHOT');
  await view.query('SELECT COUNT(*) FROM t_DYNAMIC');
  const writer = await server.openSession();
  for (const name of Object.keys(STEPS) as Step[]) trxIds.set(name, await step(writer, name));
  await flushDirtyPages(server);
  await server.crash();
}, 300_000);

afterAll(async () => {
  await server?.stop();
});

/** The step that changed row `id` last, and whether it inserted it. */
function lastChange(id: number): { step: Step; insert: boolean } {
  if (id > 1000) return { step: 'added', insert: true };
  if (id % 10 === 0) return { step: 'deleted', insert: false };
  if (id % 4 === 0) return { step: 'updated', insert: false };
  return { step: 'inserted', insert: true };
}

describe.each(FORMATS)('ROW_FORMAT=%s', (format) => {
  const file = () => join(server.datadir, 'test', `t_${format}.ibd`);
  const read = () => {
    const run = cli([file(), '--rows', 'all', '--system-columns', '--format', 'ndjson', '--json-strings', '--as-on-disk']);
    expect(run.status, run.stderr).toBe(0);
    return ndjsonRows(run.stdout, ['id', '_row_state', ...SYSTEM]);
  };

  it('each row\'s DB_TRX_ID is the server\'s id of the transaction that changed it last; DB_ROLL_PTR\'s insert flag says whether it inserted it', () => {
    const rows = read();
    expect(rows).toHaveLength(640);
    expect(new Set(trxIds.values()).size).toBe(4);
    for (const [id, state, trx, roll] of rows) {
      const last = lastChange(Number(id));
      expect([id, trx], `row ${id}`).toEqual([id, trxIds.get(last.step)]);
      expect(state).toBe(last.step === 'deleted' ? 'delete-marked' : 'live');
      expect(roll).toMatch(/^0x[0-9A-F]{14}$/);
      expect((parseInt((roll ?? '').slice(2, 4), 16) & 0x80) !== 0, `row ${id}'s roll pointer ${roll}`).toBe(last.insert);
    }
  });

  it('each row\'s page and heap number are those of its record as the page inspector shows the page', () => {
    const rows = read();
    const pages = [...new Set(rows.map((r) => r[4]))];
    expect(pages.length).toBeGreaterThan(1);
    let records = 0;
    for (const page of pages) {
      const run = cli([file(), '--page', String(page), '--format', 'ndjson', '--as-on-disk']);
      expect(run.status, run.stderr).toBe(0);
      const inspected = JSON.parse(run.stdout) as { index: { records: { kind: string; reached: string; header: { heapNo: number }; values: (string | null)[] | null }[] } };
      // The record list's records: the free list holds the bytes a page split moved away, no row.
      const heaps = new Map(inspected.index.records.filter((r) => r.kind === 'ordinary' && r.reached === 'list').map((r) => [r.values?.[0], String(r.header.heapNo)]));
      const onPage = rows.filter((r) => r[4] === page);
      expect(onPage.length, `page ${page}`).toBe(heaps.size);
      for (const r of onPage) expect(r[5], `row ${r[0]} on page ${page}`).toBe(heaps.get(r[0]));
      records += heaps.size;
    }
    expect(records).toBe(rows.length);
  });
});

describe('the other outputs', () => {
  const file = () => join(server.datadir, 'test', 't_COMPACT.ibd');

  it('CSV: the four columns last, the same values as NDJSON; NDJSON writes the numbers as numbers', () => {
    const csv = cli([file(), '--system-columns', '--as-on-disk', '--threads', '1']);
    expect(csv.status, csv.stderr).toBe(0);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe('id,v,n,_db_trx_id,_db_roll_ptr,_page,_heap');
    const json = cli([file(), '--system-columns', '--as-on-disk', '--format', 'ndjson']);
    const objects = json.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(objects).toHaveLength(lines.length - 1);
    expect(typeof objects[0]._db_trx_id).toBe('number');
    expect(lines.slice(1).map((l) => l.split(',').slice(3).join(','))).toEqual(objects.map((o) => SYSTEM.map((c) => String(o[c])).join(',')));
  });

  it('off by default: no system column, the same rows', () => {
    const plain = cli([file(), '--as-on-disk']);
    expect(plain.stdout.split('\n')[0]).toBe('id,v,n');
    const wide = cli([file(), '--system-columns', '--as-on-disk']);
    expect(wide.stdout.trim().split('\n').map((l) => l.split(',').slice(0, 3).join(','))).toEqual(plain.stdout.trim().split('\n').map((l) => l.replace(/^(id,v,n).*/, '$1')));
  });

  it('a secondary index\'s rows have a page and heap number but no DB_TRX_ID nor DB_ROLL_PTR (its records hold none): empty', () => {
    const clustered = ndjsonRows(cli([file(), '--system-columns', '--as-on-disk', '--format', 'ndjson', '--json-strings']).stdout, ['_page']);
    const run = cli([file(), '--system-columns', '--as-on-disk', '--index', 'k_n', '--format', 'ndjson', '--json-strings']);
    expect(run.status, run.stderr).toBe(0);
    const rows = ndjsonRows(run.stdout, ['n', 'id', ...SYSTEM]);
    expect(rows).toHaveLength(clustered.length);
    expect(rows.every((r) => r[2] === null && r[3] === null && /^\d+$/.test(r[4] ?? '') && /^\d+$/.test(r[5] ?? ''))).toBe(true);
    const ownPages = new Set(clustered.map((r) => r[0]));
    expect(rows.some((r) => ownPages.has(r[4]))).toBe(false);
  });
});
