/**
 * The redo logs this reader measures but does not apply (MariaDB 10.2-10.7, MySQL 5.6-8.0.30+),
 * joined to the reading of a table: withRedoLog reads their bounds from all the log's files, the
 * library finds ib_logfile0/1… or #innodb_redo/#ib_redoN in the datadir, the CLI says the rows may
 * be stale and exits 2, or exits 0 when the checkpoint is the log's end. No such server runs here:
 * the logs are built from their documented layout (redo-log-builder.ts), the table is a fixture.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logFilesReader, recoveryAmiss, recoveryLines, withRedoLog } from '../../src/core/log/redo-recovery.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { openInnodb } from '../../src/lib/node.ts';
import { checkpoint57, Group, header, put32, put64, seal } from './redo-log-builder.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const FIXTURE = join(ROOT, 'test/fixtures/mysql-testsuite/mysql56/column/binary');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

/** A MySQL 5.7 group of two 64 KiB files whose checkpoint is in the second file, the log reaching `end`. */
function mysql57(ckpt: number, end: number): Group {
  const g = new Group(2, 65536, 8192);
  g.write(8192, end, 'crc32');
  g.files[0].set(header(1, 'MySQL 5.7.44', 8192, 'crc32'), 0);
  g.files[0].set(checkpoint57(7, ckpt, g.groupOffset(ckpt)), 512);
  return g;
}
const CKPT = 8192 + 63488 + 1000;
const END = CKPT + 5000 + 17;

/** A MySQL 8.0.30+ #ib_redoN holding the data from `start`, the log ending at `end`, checkpoint `ckpt`. */
function redoFile(start: number, end: number, ckpt: number): Uint8Array {
  const g = new Group(1, 65536, start);
  g.write(start, end, 'crc32');
  g.files[0].set(seal(header(6, 'MySQL 8.0.36', start, null), 'crc32'), 0);
  const c = new Uint8Array(512);
  put64(c, 8, ckpt);
  g.files[0].set(seal(c, 'crc32'), 512);
  return g.files[0];
}

const table = bytesSource(new Uint8Array(16384 * 4), 't.ibd');

describe('withRedoLog with the readers of the other formats', () => {
  it('an unclean MySQL 5.7 log: its bounds from both files, not applied, rows may be stale', async () => {
    const [first, second] = mysql57(CKPT, END).sources();
    const { source, recovery } = await withRedoLog(table, first, { boundsReaders: [logFilesReader([second])] });
    expect(source).toBe(table);
    expect(recovery.bounds).toEqual({ format: 'MySQL 5.7', creator: 'MySQL 5.7.44', checkpointLsn: CKPT, endLsn: END, encrypted: false });
    expect(recovery.clean).toBe(false);
    expect(recoveryAmiss(recovery)).toBe(true);
    const lines = recoveryLines('t.ibd', recovery).join('\n');
    expect(lines).toContain(`t.ibd: the datadir was not shut down cleanly (ib_logfile0, MySQL 5.7, MySQL 5.7.44: checkpoint at LSN ${CKPT}, log ends at LSN ${END})`);
    expect(lines).toMatch(/the log is not applied: a MySQL 5.7 redo log is not applied by this reader .*rows may be stale/);
  });

  it('a clean one (the checkpoint is the end): nothing amiss', async () => {
    const [first, second] = mysql57(CKPT, CKPT).sources();
    const { recovery } = await withRedoLog(table, first, { boundsReaders: [logFilesReader([second])] });
    expect(recovery).toMatchObject({ clean: true, notApplied: null, bounds: { checkpointLsn: CKPT, endLsn: CKPT } });
    expect(recoveryAmiss(recovery)).toBe(false);
  });

  it('the second file missing: says which, instead of the 10.8 reader\'s "not its format"', async () => {
    const [first] = mysql57(CKPT, END).sources();
    const { recovery } = await withRedoLog(table, first, { boundsReaders: [logFilesReader([])] });
    expect(recovery.notApplied).toMatch(/the redo log cannot be read: .*a log file is missing/);
    expect(recoveryAmiss(recovery)).toBe(true);
  });
});

describe('the library and the CLI find the log in the datadir', () => {
  let dir: string;
  /** A datadir holding db/tb07.ibd and the log files given (name → bytes). */
  const datadir = (name: string, logs: Record<string, Uint8Array>) => {
    const d = join(dir, name);
    mkdirSync(join(d, 'db'), { recursive: true });
    copyFileSync(join(FIXTURE, 'tb07.ibd'), join(d, 'db/tb07.ibd'));
    for (const [file, bytes] of Object.entries(logs)) {
      mkdirSync(join(d, file, '..'), { recursive: true });
      writeFileSync(join(d, file), bytes);
    }
    return join(d, 'db/tb07.ibd');
  };
  const open = (ibd: string) => openInnodb(ibd, { schema: join(FIXTURE, 'tb07.sql') });
  const cli = (ibd: string) => spawnSync(process.execPath, [CLI, '--schema', join(FIXTURE, 'tb07.sql'), '--count', ibd], { encoding: 'utf8' });

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'other-logs-'));
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ib_logfile0 and ib_logfile1 of MySQL 5.7: both read, exit 2', async () => {
    const g = mysql57(CKPT, END);
    const ibd = datadir('m57', { ib_logfile0: g.files[0], ib_logfile1: g.files[1] });
    const file = await open(ibd);
    expect(file.recovery?.bounds).toMatchObject({ format: 'MySQL 5.7', checkpointLsn: CKPT, endLsn: END });
    await file.close();
    const r = cli(ibd);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`checkpoint at LSN ${CKPT}, log ends at LSN ${END}`);
    expect(r.stderr).toMatch(/rows may be stale/);
  });

  it('a clean MySQL 5.7 log: exit 0, no warning of stale rows', () => {
    const g = mysql57(CKPT, CKPT);
    const r = cli(datadir('m57clean', { ib_logfile0: g.files[0], ib_logfile1: g.files[1] }));
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/stale/);
  });

  it('MySQL 8.0.30+: #innodb_redo/#ib_redoN, spares left out, exit 2', async () => {
    const a = 8192 + 10 * 63488;
    const b = a + 63488;
    const end = b + 4000 + 3;
    const spare = new Uint8Array(65536);
    put32(spare, 0, 0xdeadbeef);
    const ibd = datadir('m80', { '#innodb_redo/#ib_redo10': redoFile(a, end, a + 600), '#innodb_redo/#ib_redo11': redoFile(b, end, b + 100), '#innodb_redo/#ib_redo12_tmp': spare });
    const file = await open(ibd);
    expect(file.recovery?.bounds).toEqual({ format: 'MySQL 8.0.30+', creator: 'MySQL 8.0.36', checkpointLsn: b + 100, endLsn: end, encrypted: false });
    await file.close();
    const r = cli(ibd);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`MySQL 8.0.30+, MySQL 8.0.36: checkpoint at LSN ${b + 100}, log ends at LSN ${end}`);
  });
});
