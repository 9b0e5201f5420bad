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
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogArea, START_OFFSET } from '../../src/core/log/log-file.ts';
import { readMtr, varint, varintLength } from '../../src/core/log/mtr-records.ts';
import { recoveredSource, spaceIdInLog } from '../../src/core/log/recovered-source.ts';
import { logCensus, scanRedoLog, type RedoScan } from '../../src/core/log/redo-scan.ts';
import { scanRedoLogSplit, type LogStretchScanner } from '../../src/core/log/redo-scan-split.ts';
import { logStretchScanner } from '../../src/node/redo-scan-thread.ts';
import { Tablespace } from '../../src/core/tablespace/tablespace.ts';
import { crc32c } from '../../src/core/pages/checksum.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { crashMidWork, expectAsServer, SERVER_ARGS, TABLES, type Crashed } from './crash-recovery-setup.ts';

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
    it(`reads ${table} as the server's own recovery leaves it, every row`, () => expectAsServer(setup.recovered, setup.copyA, table), 60_000);
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
    // three CLI runs, each scanning the log: past a minute when the 2 cores are shared by a dozen jobs
  }, 180_000);

  it('indexes the same records of each table from the log\'s census (only the stretches holding them read) as from a scan of the whole log', async () => {
    const log = await fileSource(join(setup.copyA, 'ib_logfile0'));
    try {
      const census = await logCensus(log);
      const whole = await scanRedoLog(log, null);
      expect([census.bounds, census.recordCount, census.files]).toEqual([whole.bounds, whole.recordCount, whole.files]);
      // The log's stretches are 1 MiB: the workload's spans several, not every table each of them.
      expect(census.starts.length).toBeGreaterThan(4);
      let read = 0;
      for (const table of TABLES) {
        // t_new's page 0 was never written: the log names its tablespace.
        const file = await fileSource(join(setup.copyA, 'test', `${table}.ibd`));
        const spaceId = (await Tablespace.open(file).then((ts) => ts.fsp.spaceId, () => spaceIdInLog(whole, file.name)))!;
        await file.close();
        const guided = await scanRedoLog(log, new Set([spaceId]), undefined, undefined, census);
        const pages = (scan: typeof whole) => [...(scan.pages.get(spaceId) ?? new Map())].map(([no, p]) => [no, p.runs, p.initAt, p.freed, p.records]).sort((a, b) => (a[0] as number) - (b[0] as number));
        expect(pages(guided)).toEqual(pages(whole));
        expect(guided.pages.get(spaceId)?.size).toBeGreaterThan(0);
        read += census.stretches.get(spaceId)?.length ?? 0;
      }
      // Each table's scan reads only some of the log (19 stretches, 25 of 76 read when written).
      expect(read).toBeLessThan(census.starts.length * TABLES.length);
    } finally {
      await log.close();
    }
  });

  it('indexes the same runs of every page with the log cut in two, its second half scanned by a worker thread, as in one scan', async () => {
    const path = join(setup.copyA, 'ib_logfile0');
    const log = await fileSource(path);
    const dir = mkdtempSync(join(tmpdir(), 'redo-scan-'));
    try {
      await build({ entryPoints: [join(ROOT, 'src/node/redo-scan-worker.ts')], outfile: join(dir, 'redo-scan-worker.mjs'), bundle: true, platform: 'node', target: 'node20', format: 'esm', logLevel: 'warning' });
      const thread = logStretchScanner(path, pathToFileURL(join(dir, 'redo-scan-worker.mjs')));
      const cuts: number[] = [];
      const scanner: LogStretchScanner = (from, spaces, signal) => {
        cuts.push(from);
        return thread(from, spaces, signal);
      };
      const whole = await scanRedoLog(log, null);
      // The workload's log is a few MiB: cut whatever its length.
      const split = await scanRedoLogSplit(log, null, scanner, undefined, undefined, 0);
      const { checkpointLsn, endLsn } = whole.bounds;
      expect(cuts).toHaveLength(1);
      expect(cuts[0]).toBeGreaterThan(checkpointLsn + (endLsn - checkpointLsn) / 4);
      expect(cuts[0]).toBeLessThan(endLsn - (endLsn - checkpointLsn) / 4);
      const counts = (scan: RedoScan) => [scan.bounds, scan.mtrCount, scan.recordCount, [...scan.recordsPerSpace].sort((a, b) => a[0] - b[0]), scan.files];
      expect(counts(split)).toEqual(counts(whole));
      const pages = (scan: RedoScan) => [...scan.pages].flatMap(([space, logs]) => [...logs].map(([no, p]) => [space, no, p.runs, p.initAt, p.freed, p.records])).sort((a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number));
      expect(pages(split)).toEqual(pages(whole));
      // Pages with runs on both sides of the cut: the merge kept the first half's before the second's.
      const across = [...whole.pages.values()].flatMap((logs) => [...logs.values()]).filter((p) => p.start(0) < cuts[0] && p.start(p.count - 1) > cuts[0]);
      expect(across.length).toBeGreaterThan(10);
      // A log shorter than the least worth cutting is scanned here alone (a probe right after the end
      // may find stale mini-transactions of the last block written, whose cut the scan then drops:
      // past the whole area, none is of the current pass).
      const alone = await scanRedoLogSplit(log, null, scanner, undefined, undefined, log.size);
      expect(cuts).toHaveLength(1);
      expect(pages(alone)).toEqual(pages(whole));
    } finally {
      await log.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('makes the same pages whether the log of a table is read in one batch or in one batch per page, read in turn or all at once', async () => {
    const raw = await fileSource(join(setup.copyA, 'test', 't_dynamic.ibd'));
    const log = await fileSource(join(setup.copyA, 'ib_logfile0'));
    try {
      const spaceId = (await Tablespace.open(raw)).fsp.spaceId;
      const scan = await scanRedoLog(log, new Set([spaceId]));
      const one = await recoveredSource(raw, scan, spaceId);
      // A batch of 1 byte: every page's records read in a pass of their own.
      const each = await recoveredSource(raw, scan, spaceId, null, 1);
      // Page by page backwards, so that each read leaves the batch of the one before.
      const differ: number[] = [];
      for (let at = one.source.size - 16384; at >= 0; at -= 16384) {
        if (Buffer.compare(await each.source.read(at, 16384), await one.source.read(at, 16384)) !== 0) differ.push(at / 16384);
      }
      expect(differ).toEqual([]);
      // Every page asked for at once (reads in flight together), each in a batch of its own.
      const apart = await recoveredSource(raw, scan, spaceId, null, 1);
      const offsets = Array.from({ length: one.source.size / 16384 }, (_, k) => k * 16384);
      const together = await Promise.all(offsets.map((at) => apart.source.read(at, 16384)));
      for (const [k, at] of offsets.entries()) if (Buffer.compare(together[k], await one.source.read(at, 16384)) !== 0) differ.push(at / 16384);
      expect(differ).toEqual([]);
      expect(one.stats.pagesRecovered).toBeGreaterThan(10);
      expect([each.stats.pagesRecovered, each.stats.recordsApplied, each.stats.failed]).toEqual([one.stats.pagesRecovered, one.stats.recordsApplied, []]);
    } finally {
      await raw.close();
      await log.close();
    }
  }, 300_000);

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

/** mlog_encode_varint as mtr0log.h describes it: 1 to 5 bytes, each length's range after the shorter ones'. */
function encodeVarint(v: number): number[] {
  if (v < 0x80) return [v];
  if (v < 0x4080) return [0x80 | ((v - 0x80) >> 8), (v - 0x80) & 0xff];
  if (v < 0x204080) return [0xc0 | ((v - 0x4080) >> 16), ((v - 0x4080) >> 8) & 0xff, (v - 0x4080) & 0xff];
  if (v < 0x10204080) return [0xe0 | ((v - 0x204080) >>> 24), ((v - 0x204080) >> 16) & 0xff, ((v - 0x204080) >> 8) & 0xff, (v - 0x204080) & 0xff];
  const w = v - 0x10204080;
  return [0xf0, w >>> 24, (w >>> 16) & 0xff, (w >>> 8) & 0xff, w & 0xff];
}

const u64 = (b: Uint8Array, o: number) => new DataView(b.buffer, b.byteOffset).getUint32(o) * 2 ** 32 + new DataView(b.buffer, b.byteOffset).getUint32(o + 4);
const put64 = (b: Uint8Array, o: number, v: number) => {
  new DataView(b.buffer, b.byteOffset).setUint32(o, Math.floor(v / 2 ** 32));
  new DataView(b.buffer, b.byteOffset).setUint32(o + 4, v >>> 0);
};

describe('the log parser on the real ib_logfile0', () => {
  it('decodes every length of variable-length integer', () => {
    for (const v of [0, 1, 0x7f, 0x80, 0x81, 0x407f, 0x4080, 0x4081, 0x20407f, 0x204080, 0x1020407f, 0x10204080, 0xffffffff]) {
      const bytes = Uint8Array.from(encodeVarint(v));
      expect([varintLength(bytes[0]), varint(bytes, 0)]).toEqual([bytes.length, v]);
    }
  });

  it('ends the log at a mini-transaction whose CRC-32C fails, and only there', async () => {
    const bytes = new Uint8Array(readFileSync(join(setup.copyA, 'ib_logfile0')));
    const original = await scanRedoLog(bytesSource(bytes, 'ib_logfile0'), new Set());
    const area = new LogArea(bytesSource(bytes, 'ib_logfile0'), u64(bytes, 8));
    // The hundredth mini-transaction after the checkpoint, one byte of its records flipped.
    let lsn = original.bounds.checkpointLsn;
    for (let i = 0; i < 100; i++) lsn = (await readMtr(area, lsn, false))!.endLsn;
    const damaged = bytes.slice();
    damaged[area.offsetOf(lsn) + 1] ^= 0x40;
    const cut = await scanRedoLog(bytesSource(damaged, 'ib_logfile0'), new Set());
    expect([cut.bounds.endLsn, cut.mtrCount]).toEqual([lsn, 100]);
    expect(original.bounds.endLsn).toBeGreaterThan(lsn);
  });

  it('reads a log that wraps around the end of its circular area as the same log', async () => {
    const bytes = new Uint8Array(readFileSync(join(setup.copyA, 'ib_logfile0')));
    const first = u64(bytes, 8);
    const capacity = bytes.length - START_OFFSET;
    const original = await scanRedoLog(bytesSource(bytes, 'ib_logfile0'), null);
    const area = new LogArea(bytesSource(bytes, 'ib_logfile0'), first);
    const mtrs: { start: number; end: number }[] = [];
    for (let lsn = original.bounds.checkpointLsn; lsn < original.bounds.endLsn; ) {
      const m = (await readMtr(area, lsn, false))!;
      mtrs.push({ start: lsn, end: m.endLsn });
      lsn = m.endLsn;
    }
    // Every LSN moved by `shift`, so that the middle mini-transaction straddles the area's end.
    const middle = mtrs[mtrs.length >> 1];
    const shift = capacity - (middle.start - first) - 3;
    const wrapped = new Uint8Array(bytes.length);
    wrapped.set(bytes.subarray(0, START_OFFSET), 0);
    wrapped.set(bytes.subarray(START_OFFSET, START_OFFSET + capacity - shift), START_OFFSET + shift);
    wrapped.set(bytes.subarray(START_OFFSET + capacity - shift), START_OFFSET);
    // The termination byte flips on the second pass over the area.
    for (const m of mtrs) wrapped[START_OFFSET + ((m.end - 5 + shift - first) % capacity)] = (Math.floor((m.end - 5 + shift - first) / capacity) & 1) ^ 1;
    for (const at of [4096, 8192]) {
      if (crc32c(wrapped, at, at + 60) !== new DataView(wrapped.buffer).getUint32(at + 60)) continue;
      put64(wrapped, at, u64(wrapped, at) + shift);
      put64(wrapped, at + 8, u64(wrapped, at + 8) + shift);
      new DataView(wrapped.buffer).setUint32(at + 60, crc32c(wrapped, at, at + 60));
    }
    const moved = await scanRedoLog(bytesSource(wrapped, 'ib_logfile0'), null);
    expect(Math.floor((moved.bounds.endLsn - first) / capacity)).toBe(1);
    expect([moved.bounds.checkpointLsn - shift, moved.bounds.endLsn - shift]).toEqual([original.bounds.checkpointLsn, original.bounds.endLsn]);
    expect([moved.mtrCount, moved.recordCount]).toEqual([original.mtrCount, original.recordCount]);
    expect(moved.files.map((f) => ({ ...f, lsn: f.lsn - shift }))).toEqual(original.files);
    expect([...moved.recordsPerSpace]).toEqual([...original.recordsPerSpace]);
  });
});

describe('a crash with a transaction left open', () => {
  // t_open's rows need the open transaction rolled back (the undo branch): the others must match.
  for (const table of TABLES) {
    it(`reads ${table} as the server does, the open transaction's table aside`, () => expectAsServer(withOpen.recovered, withOpen.copyA, table), 60_000);
  }
});
