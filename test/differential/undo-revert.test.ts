/**
 * Every version of a row, and the SQL that reverts one transaction (issue 39), judged by a real
 * server. Tables of each row format (COMPACT, DYNAMIC, REDUNDANT) with a fixed-length column, a
 * variable-length one under a secondary index, a DECIMAL and a TEXT stored off-page for some rows.
 * A read view held open keeps purge back; the undo logs lie in three undo tablespaces.
 *
 * History: `items_*` go through five transactions (an UPDATE of an indexed and a fixed column, a
 * DELETE, an INSERT, a primary-key update, an UPDATE of off-page values), a SELECT taken before each
 * and after the last; a sixth, left open at the crash, changes two rows. `--history` must give each
 * row's versions exactly as the SELECTs saw it change, newest first, each with the transaction that
 * wrote it, and none of the open one's.
 *
 * Revert: `r_*` take a mistaken transaction N (updates, deletes, inserts, a primary-key update, a
 * row updated then deleted), then L1 changing other rows, then L2 changing a row N changed. `c_*`,
 * alike at the start, take L1 alone. A server recovering a copy of the datadir runs the output of
 * `--revert-trx N --format sql`: r_ must then equal c_ but for L2's row, whose statement is
 * commented out naming L2, and which stays as N and L2 left it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer, type Session } from '../harness/mariadb.ts';
import { duckdbRead } from './parquet-duckdb.ts';
import { buildCli, cli, flushDirtyPages, ndjsonRows } from './undo-setup.ts';

const FORMATS = ['compact', 'dynamic', 'redundant'] as const;
const COLUMNS = ['id', 'code', 'name', 'price', 'note'];
const SELECT = (t: string) => `SELECT id, code, name, price, note FROM ${t} ORDER BY id`;
const create = (t: string, format: string) => `CREATE TABLE ${t} (id INT PRIMARY KEY, code CHAR(8) NOT NULL, name VARCHAR(40) NOT NULL, price DECIMAL(10,2) NOT NULL, note TEXT, KEY (name)) ROW_FORMAT=${format};
  INSERT INTO ${t} SELECT seq, CONCAT('c', seq), CONCAT('item ', seq), seq * 1.5, IF(seq % 4 = 0, REPEAT(CONCAT('n', seq), 4000), NULL) FROM seq_1_to_120;`;

const HISTORY_STEPS = [
  "UPDATE {t} SET price = price + 1, name = CONCAT(name, ' x'), code = 'upd' WHERE id % 3 = 0",
  'DELETE FROM {t} WHERE id % 7 = 0',
  "INSERT INTO {t} SELECT 500 + seq, 'new', CONCAT('added ', seq), seq, IF(seq % 2 = 0, REPEAT('a', 9000), NULL) FROM seq_1_to_20",
  'UPDATE {t} SET id = id + 10000 WHERE id % 10 = 1',
  "UPDATE {t} SET note = REPEAT('z', 9000) WHERE id % 8 = 0",
];
/** The mistake: one transaction of several statements; 35 is updated, then deleted. */
const MISTAKE = [
  "UPDATE {t} SET price = 0, name = CONCAT('oops ', id), code = 'bad', note = IF(id % 4 = 0, REPEAT('o', 9000), note) WHERE id % 5 = 0",
  'DELETE FROM {t} WHERE id % 7 = 0',
  "INSERT INTO {t} SELECT 600 + seq, 'ins', 'inserted', seq, NULL FROM seq_1_to_10",
  'UPDATE {t} SET id = id + 10000 WHERE id % 11 = 1 AND id % 5 <> 0',
];
const LATER = ["UPDATE {t} SET name = 'later one' WHERE id IN (2, 3); INSERT INTO {t} VALUES (900, 'l1', 'later row', 9, NULL)"];
/** A row the mistake updated. */
const CONFLICT_ID = '10';
const CONFLICT = `UPDATE {t} SET code = 'later' WHERE id = ${CONFLICT_ID}`;

const UNCOMMITTED = "UPDATE {t} SET name = 'never committed' WHERE id IN (2, 3)";

let server: MariadbServer;
let recovered: MariadbServer;
/** A copy recovered, then purged of all history (slow shutdown). */
let purged: MariadbServer;
/** Per format: the SELECT before each history step, and after the last; each step's transaction id. */
const history = new Map<string, { snapshots: (string | null)[][][]; trxIds: string[] }>();
const trx = { mistake: '', later: '', conflict: '' };

async function step(writer: Session, sql: string): Promise<string> {
  await writer.exec('START TRANSACTION');
  for (const s of sql.split(/;\s*/)) if (s.trim() !== '') await writer.exec(s);
  // INFORMATION_SCHEMA.INNODB_TRX is a cache refreshed at most every 0.1 s.
  await new Promise((r) => setTimeout(r, 250));
  const id = String((await writer.query('SELECT trx_id FROM information_schema.innodb_trx WHERE trx_mysql_thread_id = CONNECTION_ID()')).rows[0][0]);
  await writer.exec('COMMIT');
  return id;
}

const onAll = (sql: string, prefix: string) => FORMATS.map((f) => sql.replaceAll('{t}', `${prefix}${f}`)).join('; ');

beforeAll(async () => {
  buildCli();
  server = await startMariadb({ extraArgs: ['--innodb-undo-tablespaces=3'] });
  for (const f of FORMATS) await server.exec(create(`items_${f}`, f) + create(`r_${f}`, f) + create(`c_${f}`, f));
  const view = await server.openSession();
  await view.exec('START TRANSACTION WITH CONSISTENT SNAPSHOT');
  await view.query('SELECT COUNT(*) FROM items_compact');
  const writer = await server.openSession();
  for (const f of FORMATS) history.set(f, { snapshots: [], trxIds: [] });
  for (const s of HISTORY_STEPS) {
    for (const f of FORMATS) history.get(f)!.snapshots.push((await server.query(SELECT(`items_${f}`))).rows);
    const id = await step(writer, onAll(s, 'items_'));
    for (const f of FORMATS) history.get(f)!.trxIds.push(id);
  }
  for (const f of FORMATS) history.get(f)!.snapshots.push((await server.query(SELECT(`items_${f}`))).rows);
  trx.mistake = await step(writer, FORMATS.map((f) => MISTAKE.map((m) => m.replaceAll('{t}', `r_${f}`)).join('; ')).join('; '));
  trx.later = await step(writer, `${onAll(LATER[0], 'r_')}; ${onAll(LATER[0], 'c_')}`);
  trx.conflict = await step(writer, onAll(CONFLICT, 'r_'));
  // Open at the crash: its versions are none of the history's (the server's recovery takes them back).
  const open = await server.openSession();
  await open.exec('START TRANSACTION');
  await open.exec(onAll(UNCOMMITTED, 'items_'));
  await flushDirtyPages(server);
  await server.crash();
  recovered = await startMariadb({ datadir: server.copyDatadir(), extraArgs: ['--innodb-undo-tablespaces=3'] });
  purged = await startMariadb({ datadir: server.copyDatadir(), extraArgs: ['--innodb-undo-tablespaces=3'] });
  await purged.slowShutdown();
}, 500_000);

afterAll(async () => {
  await purged?.stop();
  await recovered?.stop();
  await server?.stop();
});

const file = (table: string) => join(server.datadir, 'test', `${table}.ibd`);

/** A key's states across the snapshots, oldest first, repeats and the time before it existed dropped: a value's JSON, or null for absent. */
function expectedVersions(snapshots: (string | null)[][][], id: string): (string | null)[] {
  const seq = snapshots.map((rows) => {
    const row = rows.find((r) => r[0] === id);
    return row === undefined ? null : JSON.stringify(row);
  });
  const out: (string | null)[] = [];
  for (const s of seq) if (out.length === 0 ? s !== null : out[out.length - 1] !== s) out.push(s);
  return out;
}

describe.each(FORMATS)('%s', (format) => {
  it('--history: each row\'s versions are the values the SELECTs saw, newest first, with the transaction that wrote each', () => {
    const run = cli([file(`items_${format}`), '--history', '--format', 'ndjson', '--json-strings']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/transaction \d+ was active at the crash \(the server rolls it back\): the versions it wrote are not shown/);
    expect(run.stdout).not.toContain('never committed');
    const rows = ndjsonRows(run.stdout, [...COLUMNS, '_row_state', '_trx_id', '_version']);
    const { snapshots, trxIds } = history.get(format)!;
    const records: (string | null)[][][] = [];
    for (const r of rows) {
      if (r[7] === '0') records.push([]);
      records[records.length - 1].push(r);
    }
    const ids = new Set(snapshots.flatMap((rows) => rows.map((r) => r[0] as string)));
    expect(records.map((r) => r[0][0]).sort()).toEqual([...ids].sort());
    let changed = 0;
    for (const versions of records) {
      const id = versions[0][0] as string;
      // Oldest first: a delete-marked version is the row gone.
      const got = versions.slice().reverse().map((v) => (v[5] === 'delete-marked' ? null : JSON.stringify(v.slice(0, 5))));
      expect(got, `row ${id}`).toEqual(expectedVersions(snapshots, id));
      // Every version but the oldest was written by one of the steps, the newest first.
      for (const v of versions.slice(0, -1)) expect(trxIds).toContain(v[6]);
      if (versions.length > 1) changed++;
      expect(versions.map((v) => v[7])).toEqual(versions.map((_, i) => String(i)));
    }
    expect(changed).toBeGreaterThan(60);
  });

  it('--history as CSV: the same columns, the versions\' _trx_id and _version', () => {
    const run = cli([file(`items_${format}`), '--history']);
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('id,code,name,price,note,_row_state,_trx_id,_version');
    expect(lines.filter((l) => l.startsWith('3,upd,item 3 x,5.50,')).length).toBe(1);
    expect(lines.some((l) => l.startsWith('3,c3,item 3,4.50,\\N,live,') && l.endsWith(',1'))).toBe(true);
  });

  it('--history as Parquet: the rows NDJSON gives, _trx_id and _version as strings', async () => {
    const ndjson = cli([file(`items_${format}`), '--history', '--format', 'ndjson', '--json-strings']);
    const expected = ndjsonRows(ndjson.stdout, [...COLUMNS, '_row_state', '_trx_id', '_version']);
    const out = join(server.baseDir, `history-${format}.parquet`);
    const run = cli([file(`items_${format}`), '--history', '--format', 'parquet', '-o', out]);
    expect(run.status, run.stderr).toBe(0);
    const read = await duckdbRead(out, { rows: expected });
    expect(read.columns).toEqual([...COLUMNS, '_row_state', '_trx_id', '_version']);
    expect(read.rows).toEqual(expected);
  });

  it('--revert-trx N --format sql, run by the server, gives back the table before N but for the row a later transaction changed', async () => {
    const run = cli([file(`r_${format}`), '--revert-trx', trx.mistake, '--format', 'sql']);
    expect(run.status, run.stderr).toBe(0);
    const sql = run.stdout;
    expect(sql).toMatch(/^DELETE FROM `r_\w+` WHERE `id` = 601;$/m);
    expect(sql).toMatch(/^UPDATE `r_\w+` SET `code` = 'c5', `name` = 'item 5', `price` = 7\.50 WHERE `id` = 5;$/m);
    expect(sql).toContain("(35,'c35','item 35',52.50,NULL)");
    const commented = sql.split('\n').filter((l) => l.startsWith('-- UPDATE'));
    expect(commented).toHaveLength(1);
    expect(commented[0]).toContain(`WHERE \`id\` = ${CONFLICT_ID};`);
    expect(sql).toContain(`-- not run: transaction ${trx.conflict} changed this row after ${trx.mistake}`);
    const conflictBefore = (await recovered.query(`SELECT id, code, name, price, note FROM r_${format} WHERE id = ${CONFLICT_ID}`)).rows;
    await recovered.exec(sql);
    const reverted = (await recovered.query(SELECT(`r_${format}`))).rows;
    const control = (await recovered.query(SELECT(`c_${format}`))).rows;
    expect(reverted.filter((r) => r[0] !== CONFLICT_ID)).toEqual(control.filter((r) => r[0] !== CONFLICT_ID));
    expect(reverted.filter((r) => r[0] === CONFLICT_ID)).toEqual(conflictBefore);
  });
});

describe('after purge', () => {
  it('--history: each row one version, the last SELECT\'s, or marked history-lost; never an old value', () => {
    const run = cli([join(purged.datadir, 'test', 'items_dynamic.ibd'), '--history', '--format', 'ndjson', '--json-strings']);
    const rows = ndjsonRows(run.stdout, [...COLUMNS, '_row_state', '_trx_id', '_version']);
    const last = history.get('dynamic')!.snapshots.at(-1)!;
    expect(rows.map((r) => JSON.stringify(r.slice(0, 5)))).toEqual(last.map((r) => JSON.stringify(r)));
    expect(new Set(rows.map((r) => r[7]))).toEqual(new Set(['0']));
    const lost = rows.filter((r) => r[5] === 'history-lost').length;
    expect(rows.length - lost).toBe(rows.filter((r) => r[5] === 'live').length);
    expect(run.status, run.stderr).toBe(lost > 0 ? 2 : 0);
  });

  it('--revert-trx of a purged transaction: an error, no statement', () => {
    const run = cli([join(purged.datadir, 'test', 'r_dynamic.ibd'), '--revert-trx', trx.mistake, '--format', 'sql']);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`transaction ${trx.mistake} is not in the undo logs' history`);
  });
});

describe('usage', () => {
  it('--revert-trx needs --format sql; a transaction not in the undo logs is an error', () => {
    expect(cli([file('r_dynamic'), '--revert-trx', trx.mistake]).status).toBe(64);
    const run = cli([file('r_dynamic'), '--revert-trx', '1', '--format', 'sql']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('transaction 1 is not in the undo logs\' history');
  });
});
