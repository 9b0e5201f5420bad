/**
 * Issue 37 at the datadir's scale: a MariaDB 10.11 datadir killed mid-work (crash-recovery-setup.ts)
 * read whole, `ibd-reader DIR -o OUT`: each table equals the SELECT of a second server that recovered
 * a copy by itself. The log's census is taken once for the run (openSharedRedoLog): each table's file
 * then reads only the stretches of the log holding its records, which the reads of the log counted
 * here show (a scan of the whole log for each table reads all of it each time).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogCensus } from '../../src/core/log/redo-scan.ts';
import type { ByteSource } from '../../src/core/tablespace/source.ts';
import { openInnodb, openSharedRedoLog } from '../../src/lib/node.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { crashMidWork, expectDirAsServer, SERVER_ARGS, TABLES, type Crashed } from './crash-recovery-setup.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
/** Every table of the datadir: those the log changes, and t_open and t_part (loaded before the checkpoint, not changed after it). */
const ALL = [...TABLES, 't_open', 't_part'];

let crashed: Crashed;
let copyA: string;
let recovered: MariadbServer;

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
  crashed = await crashMidWork(false);
  copyA = crashed.server.copyDatadir();
  recovered = await startMariadb({ datadir: crashed.server.copyDatadir(), extraArgs: SERVER_ARGS });
}, 300_000);

afterAll(async () => {
  await recovered?.stop();
  await crashed?.server.stop();
});

describe('a crashed datadir read whole (DIR -o)', () => {
  it('writes each table as the recovering server has it', async () => {
    const out = mkdtempSync(join(tmpdir(), 'crash-dir-'));
    try {
      const run = spawnSync(process.execPath, [CLI, copyA, '-o', out, '--format', 'ndjson', '--json-strings'], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      await expectDirAsServer(recovered, out, ALL);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 300_000);

  it('reads the log once for the census, then each table only the stretches holding its records', async () => {
    const shared = await openSharedRedoLog(copyA);
    if (shared === null || shared.census === null) throw new Error('no census of the crashed datadir\'s log');
    const logged = shared.census.bounds.endLsn - shared.census.bounds.checkpointLsn;
    const read = new Map<string, number>();
    let table = '';
    const log: ByteSource = { name: shared.log.name, size: shared.log.size, read: (offset, length) => (read.set(table, (read.get(table) ?? 0) + length), shared.log.read(offset, length)) };
    const open = async (name: string, census: LogCensus | null) => {
      table = name;
      const file = await openInnodb(join(copyA, 'test', `${name.replace(/ .*/, '')}.ibd`), { sharedLog: { ...shared, census, log } });
      try {
        expect(file.recovery?.clean, name).toBe(false);
        return file.recovery?.pagesInLog;
      } finally {
        await file.close();
      }
    };
    try {
      for (const t of TABLES) expect(await open(t, shared.census), t).toBeGreaterThan(0);
      expect(await open('t_open', shared.census)).toBe(0);
      // Without the census, the same file's own scan reads the whole log.
      await open('t_open without the census', null);
    } finally {
      await shared.close();
    }
    expect(logged).toBeGreaterThan(8 << 20);
    // A table the log does not change: the header and checkpoint blocks only.
    expect(read.get('t_open') ?? 0).toBeLessThan(64 << 10);
    expect(read.get('t_open without the census')).toBeGreaterThanOrEqual(logged);
    for (const t of TABLES) expect(read.get(t), t).toBeGreaterThan(0);
  }, 120_000);
});
