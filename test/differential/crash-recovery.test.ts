/**
 * Issue 37: a MariaDB 10.11 datadir left by SIGKILL mid-work (crash-recovery-setup.ts), read with its
 * redo log. The datadir is copied twice: our library and CLI read copy A, rolled forward from the
 * checkpoint; a second server started on copy B runs its own crash recovery, and its SELECT is the
 * truth for every row of every table (COMPACT, DYNAMIC, REDUNDANT, off-page columns, secondary
 * indexes, page splits and merges, a table created after the checkpoint). Read as on disk, the
 * rows differ (the log mattered) and the exit status is 2. A second crash leaves a transaction
 * open: the tables it did not touch still match the server (rolling it back is the undo branch's).
 */
import { spawnSync, execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { scanRedoLog } from '../../src/core/log/redo-scan.ts';
import { openTable, type Row } from '../../src/core/readers/table-reader.ts';
import { openInnodb } from '../../src/lib/node.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { crashMidWork, SERVER_ARGS, TABLES, type Crashed } from './crash-recovery-setup.ts';
import { expectSameRows } from './decode.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

/** A crashed datadir, its copy A for us, and a server recovering copy B by itself. */
interface Setup {
  crashed: Crashed;
  copyA: string;
  recovered: MariadbServer;
}

async function setUp(open: boolean): Promise<Setup> {
  const crashed = await crashMidWork(open);
  const copyA = crashed.server.copyDatadir();
  const recovered = await startMariadb({ datadir: crashed.server.copyDatadir(), extraArgs: SERVER_ARGS });
  return { crashed, copyA, recovered };
}

/** Every row of `table` in copy A, rolled forward by its log, decoded with the recovered server's definition. */
async function ourRows(setup: Setup, table: string): Promise<{ rows: Row[]; applied: number; failed: number }> {
  const ddl = (await setup.recovered.query(`SHOW CREATE TABLE \`${table}\``)).rows[0][1] as string;
  const file = await openInnodb(join(setup.copyA, 'test', `${table}.ibd`), { schema: { name: `${table}.sql`, data: ddl } });
  try {
    const reader = await openTable(file.source, parseCreateTables(ddl)[0]);
    const rows: Row[] = [];
    for await (const batch of reader.rows({ batchSize: 500 })) rows.push(...batch);
    expect(reader.stats.problems).toEqual([]);
    return { rows, applied: file.recovery?.applied?.recordsApplied ?? 0, failed: file.recovery?.applied?.failed.length ?? -1 };
  } finally {
    await file.close();
  }
}

async function expectAsServer(setup: Setup, table: string): Promise<void> {
  const expected = await setup.recovered.query(`SELECT * FROM \`${table}\` ORDER BY id`);
  const ours = await ourRows(setup, table);
  expect(ours.failed, `${table}: pages whose log failed`).toBe(0);
  expect(ours.applied, `${table}: log records applied`).toBeGreaterThan(0);
  expectSameRows(ours.rows, expected.rows, table, expected.columns);
}

let setup: Setup;
let withOpen: Setup;
/** The rows the recovering server has of a table. */
const countOf = async (s: Setup, table: string) => (await s.recovered.query(`SELECT COUNT(*) FROM ${table}`)).rows[0][0];

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
  [setup, withOpen] = await Promise.all([setUp(false), setUp(true)]);
}, 240_000);

afterAll(async () => {
  for (const s of [setup, withOpen]) {
    await s?.recovered.stop();
    await s?.crashed.server.stop();
  }
});

describe('a datadir killed mid-work, rolled forward by its redo log', () => {
  it('has a checkpoint behind the log end: the changes are in the log only', async () => {
    const log = await fileSource(join(setup.copyA, 'ib_logfile0'));
    try {
      const scan = await scanRedoLog(log, null);
      expect(scan.bounds.format).toBe('MariaDB 10.8+');
      expect(scan.bounds.creator).toMatch(/^MariaDB 10\.11/);
      expect(scan.bounds.endLsn - scan.bounds.checkpointLsn).toBeGreaterThan(1 << 20);
      expect(scan.recordCount).toBeGreaterThan(10_000);
      expect(scan.files.filter((f) => f.op !== 'modify').map((f) => [f.op, f.name])).toEqual([['create', './test/t_new.ibd'], ['delete', './test/t_gone.ibd']]);
    } finally {
      await log.close();
    }
    // The recovering server agrees that it had work to do.
    expect(setup.recovered.errorLog()).toMatch(/Starting crash recovery|crash recovery/i);
  });

  for (const table of TABLES) {
    it(`reads ${table} as the server's own recovery leaves it, every row`, () => expectAsServer(setup, table), 60_000);
  }

  it('CLI: says what the log did, exit 0; --as-on-disk reads other rows, says they may be stale, exit 2', async () => {
    const rows = await countOf(setup, 't_compact');
    const ibd = join(setup.copyA, 'test', 't_compact.ibd');
    const rolled = cli(ibd, '--count');
    expect(rolled.status, rolled.stderr).toBe(0);
    expect(rolled.stdout.trim()).toBe(rows);
    expect(rolled.stderr).toMatch(/the datadir was not shut down cleanly .*checkpoint at LSN \d+, log ends at LSN \d+/);
    expect(rolled.stderr).toMatch(/rolled forward from the checkpoint: \d+ log records applied to \d+ of the \d+ pages of this table/);
    expect(rolled.stderr).toContain('./test/t_gone.ibd (tablespace');
    expect(rolled.stderr).toMatch(/t_gone\.ibd \(tablespace \d+\) was deleted/);
    const onDisk = cli(ibd, '--count', '--as-on-disk');
    expect(onDisk.status, onDisk.stderr).toBe(2);
    expect(onDisk.stdout.trim()).not.toBe(rows);
    expect(onDisk.stderr).toMatch(/the log is not applied: the pages are read as they are on disk.*\d+ pages of this table were changed after the checkpoint; rows may be stale/);
    // The table created after the checkpoint: its file is all zeros on disk, its rows only in the log.
    const created = cli(join(setup.copyA, 'test', 't_new.ibd'), '--count');
    expect(created.status, created.stderr).toBe(0);
    expect(created.stdout.trim()).toBe(await countOf(setup, 't_new'));
    expect(created.stderr).toMatch(/beyond the file's end, built from the log|rolled forward/);
  }, 60_000);

  it('--datadir names the log of a file copied elsewhere; without it the file is read as it is', async () => {
    const rows = await countOf(setup, 't_dynamic');
    const dir = mkdtempSync(join(tmpdir(), 'ibd-redo-'));
    try {
      for (const ext of ['ibd', 'frm']) copyFileSync(join(setup.copyA, 'test', `t_dynamic.${ext}`), join(dir, `t_dynamic.${ext}`));
      const lone = cli(join(dir, 't_dynamic.ibd'), '--count');
      expect(lone.status, lone.stderr).toBe(0);
      expect(lone.stdout.trim()).not.toBe(rows);
      expect(lone.stderr).not.toContain('redo');
      expect(lone.stderr).not.toContain('shut down');
      const given = cli(join(dir, 't_dynamic.ibd'), '--count', '--datadir', setup.copyA);
      expect(given.status, given.stderr).toBe(0);
      expect(given.stdout.trim()).toBe(rows);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('a crash with a transaction left open', () => {
  // t_open's rows need the open transaction rolled back (the undo branch): the others must match.
  for (const table of TABLES) {
    it(`reads ${table} as the server does, the open transaction's table aside`, () => expectAsServer(withOpen, table), 60_000);
  }
});
