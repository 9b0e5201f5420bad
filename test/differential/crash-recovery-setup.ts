/**
 * A MariaDB 10.11 server killed mid-work, for the crash-recovery tests: tables of each row format
 * loaded and flushed (a checkpoint taken after them), then changed with little flushing (a big
 * buffer pool, dirty pages allowed up to 90 %, no adaptive flushing) so that the changes are only in
 * the redo log when the server is SIGKILLed: inserts that split pages, deletes that merge them,
 * updates that change lengths and move off-page columns, a table created and one dropped after the
 * checkpoint. `open` leaves one transaction open across the crash (its tables are `t_open` and the
 * partitioned `t_part`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { openTable, type Row } from '../../src/core/readers/table-reader.ts';
import type { EncryptionKeys } from '../../src/core/tablespace/encryption.ts';
import { openInnodb } from '../../src/lib/node.ts';
import { startMariadb, type MariadbServer, type Session } from '../harness/mariadb.ts';
import { expectSameRows } from './decode.ts';
import { ndjsonRows } from './undo-setup.ts';

export const SERVER_ARGS = [
  '--innodb-buffer-pool-size=256M',
  '--innodb-max-dirty-pages-pct=90',
  '--innodb-max-dirty-pages-pct-lwm=0',
  '--innodb-adaptive-flushing=OFF',
  '--innodb-io-capacity=100',
  '--innodb-flush-log-at-trx-commit=1',
  '--innodb-log-file-size=64M',
];

/** The tables compared with the server after its recovery, and their ORDER BY. */
export const TABLES = ['t_compact', 't_dynamic', 't_redundant', 't_new'] as const;

export const LOAD = (name: string, format: string, rows = 3000) => `
  CREATE TABLE ${name} (id INT NOT NULL PRIMARY KEY, k INT NOT NULL, s VARCHAR(300) NOT NULL, b MEDIUMBLOB NULL, KEY kk (k)) ENGINE=InnoDB ROW_FORMAT=${format};
  INSERT INTO ${name} SELECT seq, seq % 97, REPEAT(CHAR(97 + seq % 26), 20 + seq % 200), IF(seq % 50 = 0, REPEAT('x', 20000), NULL) FROM seq_1_to_${rows};`;

/** A partitioned table (three HASH partitions) the transaction left open also changes: updates, deletes and inserts, through its secondary index too. */
const LOAD_PART = `
  CREATE TABLE t_part (id INT NOT NULL PRIMARY KEY, k INT NOT NULL, s VARCHAR(300) NOT NULL, b MEDIUMBLOB NULL, KEY kk (k)) ENGINE=InnoDB PARTITION BY HASH (id) PARTITIONS 3;
  INSERT INTO t_part SELECT seq, seq % 97, REPEAT(CHAR(97 + seq % 26), 20 + seq % 200), IF(seq % 50 = 0, REPEAT('x', 20000), NULL) FROM seq_1_to_900;`;

export const CHANGE = (name: string) => `
  INSERT INTO ${name} SELECT seq, seq % 89, REPEAT(CHAR(65 + seq % 26), 10 + seq % 250), IF(seq % 40 = 0, REPEAT('y', 30000), NULL) FROM seq_3001_to_5000;
  DELETE FROM ${name} WHERE id BETWEEN 1000 AND 2000;
  UPDATE ${name} SET s = REPEAT('z', 290), k = k + 1 WHERE id % 7 = 0;
  UPDATE ${name} SET s = 'short' WHERE id % 11 = 0;
  UPDATE ${name} SET b = REPEAT('w', 25000) WHERE id % 13 = 0 AND id < 900;
  UPDATE ${name} SET b = NULL WHERE id % 50 = 0 AND id > 3500;
  INSERT INTO ${name} SELECT seq, 1, 'again', NULL FROM seq_1200_to_1300;`;

/** Waits until the buffer pool has no dirty page and the checkpoint has caught up with the log. */
export async function flushAll(server: MariadbServer): Promise<void> {
  await server.exec('SET GLOBAL innodb_max_dirty_pages_pct = 0');
  for (let i = 0; i < 300; i++) {
    const { rows } = await server.query("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'");
    const ckpt = await server.query("SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_checkpoint_age')");
    if (rows[0]?.[1] === '0' && (ckpt.rows.length === 0 || Number(ckpt.rows[0][1]) < 16384)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.exec('SET GLOBAL innodb_max_dirty_pages_pct = 90');
}

export interface Crashed {
  server: MariadbServer;
  /** Held open across the crash (with `open`): a transaction that changed t_open and never committed. */
  session: Session | null;
}

/**
 * Starts the server, runs the workload, and SIGKILLs it; the datadir is left as the crash left it.
 * `synced`: another connection commits after the open transaction's changes, writing the log buffer
 * out with them (else they may never reach ib_logfile0, and there is nothing to roll back).
 * `extraArgs` add to SERVER_ARGS (encryption, say).
 */
export async function crashMidWork(open: boolean, synced = false, extraArgs: readonly string[] = []): Promise<Crashed> {
  const server = await startMariadb({ extraArgs: [...SERVER_ARGS, ...extraArgs] });
  await server.exec([LOAD('t_compact', 'COMPACT'), LOAD('t_dynamic', 'DYNAMIC'), LOAD('t_redundant', 'REDUNDANT'), LOAD('t_gone', 'DYNAMIC', 500), LOAD('t_open', 'DYNAMIC', 1000), LOAD_PART].join(''));
  await flushAll(server);
  await server.exec(`${CHANGE('t_compact')}${CHANGE('t_dynamic')}${CHANGE('t_redundant')}
    CREATE TABLE t_new (id INT NOT NULL PRIMARY KEY, k INT NOT NULL, s VARCHAR(300) NOT NULL, b MEDIUMBLOB NULL, KEY kk (k)) ENGINE=InnoDB;
    INSERT INTO t_new SELECT seq, seq % 5, CONCAT('new ', seq), IF(seq % 100 = 0, REPEAT('n', 9000), NULL) FROM seq_1_to_2000;
    DROP TABLE t_gone;`);
  let session: Session | null = null;
  if (open) {
    session = await server.openSession();
    await session.exec(`BEGIN; DELETE FROM t_open WHERE id < 500; UPDATE t_open SET s = 'uncommitted' WHERE id > 700;
      DELETE FROM t_part WHERE id < 100; UPDATE t_part SET s = 'uncommitted', k = -k WHERE id % 4 = 0; INSERT INTO t_part SELECT 5000 + seq, seq, 'uncommitted', NULL FROM seq_1_to_50`);
    if (synced) await server.exec('CREATE TABLE t_sync (id INT PRIMARY KEY); INSERT INTO t_sync VALUES (1)');
  }
  await server.crash();
  return { server, session };
}

/** Every row of `table` in `datadir` (test/`table`.ibd), rolled forward by its log, decoded with the definition the recovered server gives. */
export async function ourRows(recovered: MariadbServer, datadir: string, table: string, keys?: EncryptionKeys): Promise<{ rows: Row[]; applied: number; failed: unknown[] }> {
  const ddl = (await recovered.query(`SHOW CREATE TABLE \`${table}\``)).rows[0][1] as string;
  const file = await openInnodb(join(datadir, 'test', `${table}.ibd`), { schema: { name: `${table}.sql`, data: ddl }, keys });
  try {
    const reader = await openTable(file.source, parseCreateTables(ddl)[0], { keys });
    const rows: Row[] = [];
    for await (const batch of reader.rows({ batchSize: 500 })) rows.push(...batch);
    expect(reader.stats.problems).toEqual([]);
    return { rows, applied: file.recovery?.applied?.recordsApplied ?? 0, failed: file.recovery?.applied?.failed ?? [] };
  } finally {
    await file.close();
  }
}

/** `table` of `datadir` read by ourRows: its log applied with no page failing, every row the recovering server's SELECT gives. */
export async function expectAsServer(recovered: MariadbServer, datadir: string, table: string, keys?: EncryptionKeys): Promise<void> {
  const expected = await recovered.query(`SELECT * FROM \`${table}\` ORDER BY id`);
  const ours = await ourRows(recovered, datadir, table, keys);
  expect(ours.failed, `${table}: pages whose log failed`).toEqual([]);
  expect(ours.applied, `${table}: log records applied`).toBeGreaterThan(0);
  expectSameRows(ours.rows, expected.rows, table, expected.columns);
}

/** `tables` as a `DIR -o OUT --format ndjson --json-strings` run wrote them (OUT/test/T.ndjson): each equal to the recovering server's SELECT. */
export async function expectDirAsServer(recovered: MariadbServer, out: string, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    const expected = await recovered.query(`SELECT id, k, s, CONCAT('0x', LOWER(HEX(b))) FROM ${table} ORDER BY id`);
    const ours = ndjsonRows(readFileSync(join(out, 'test', `${table}.ndjson`), 'utf8'), ['id', 'k', 's', 'b']).sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(ours.map((r) => [r[0], r[1], r[2], r[3]?.toLowerCase() ?? null]), table).toEqual(expected.rows);
  }
}
