/**
 * The redo log roll-forward (src/core/log/) on a crashed MariaDB 10.8+ datadir, timed: one table's
 * file opened with the datadir's log (the scan of ib_logfile0 from its checkpoint, as the CLI does
 * for a table), then every page of it read through the recovered source (so every page the log
 * changes is rolled forward). Used by `npm run bench -- --only redo` (bench/redo.ts); also runs
 * alone, on any crashed datadir, with --server for the server's own recovery of a copy beside. The
 * scan's second half runs on a worker thread (redo-scan-split.ts) when its bundle is beside this
 * one (as the CLI's is), unless --serial:
 *
 *   npx esbuild redo-apply=bench/redo-apply.ts redo-scan-worker=src/node/redo-scan-worker.ts --bundle --platform=node --format=esm --packages=external --outdir=.cache/redo-apply --out-extension:.js=.mjs
 *   node .cache/redo-apply/redo-apply.mjs DATADIR db/table.ibd [--server] [--serial] [--hash]
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withRedoLog } from '../src/core/log/redo-recovery.ts';
import { fileSource } from '../src/node/file-source.ts';
import { logStretchScanner } from '../src/node/redo-scan-thread.ts';
import { startMariadb } from '../test/harness/mariadb.ts';

export interface ApplyTimes {
  logBytes: number;
  fileBytes: number;
  scanWallS: number;
  scanCpuS: number;
  applyWallS: number;
  applyCpuS: number;
  /** The scan's second half ran on a worker thread. */
  split: boolean;
  records: number;
  pages: number;
  peakRssMb: number;
  /** With `hash`: the SHA-256 of the whole recovered file as read (to compare two builds' pages), else null. */
  sha256: string | null;
}

const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;

/** The scan worker's bundle, where it is beside this one (bench/run.mjs and the build above put it there). */
function scanWorker(): URL | null {
  const url = new URL('./redo-scan-worker.mjs', import.meta.url);
  return existsSync(fileURLToPath(url)) ? url : null;
}

/**
 * Our scan and apply of `table` (a path under `datadir`, e.g. test/t.ibd); `serial`: the scan on this
 * thread alone; `hash`: the recovered file's bytes hashed as they are read (inside the apply's time).
 */
export async function applyTable(datadir: string, table: string, serial = false, hash = false): Promise<ApplyTimes> {
  const worker = serial ? null : scanWorker();
  const logPath = join(datadir, 'ib_logfile0');
  const log = await fileSource(logPath);
  const raw = await fileSource(join(datadir, table));
  let peak = process.memoryUsage().rss;
  try {
    let t = performance.now();
    let cpu = process.cpuUsage();
    const { source, recovery } = await withRedoLog(raw, log, { logScanner: worker === null ? undefined : logStretchScanner(logPath, worker) });
    const scanWallS = (performance.now() - t) / 1000;
    const scanCpuS = cpuSeconds(process.cpuUsage(cpu));
    if (recovery.applied === null) throw new Error(`${table}: the log was not applied: ${recovery.notApplied ?? 'the datadir was shut down cleanly'}`);
    t = performance.now();
    cpu = process.cpuUsage();
    // Every page read, 1 MiB at a time, as a full read of the table would.
    const sha = hash ? createHash('sha256') : null;
    for (let at = 0; at < source.size; at += 1 << 20) {
      const bytes = await source.read(at, 1 << 20);
      sha?.update(bytes);
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    const a = recovery.applied;
    if (a.failed.length > 0) throw new Error(`${table}: ${a.failed.length} pages failed, e.g. page ${a.failed[0].page}: ${a.failed[0].why}`);
    const b = recovery.bounds!;
    return {
      logBytes: b.endLsn - b.checkpointLsn, fileBytes: raw.size, scanWallS, scanCpuS,
      applyWallS: (performance.now() - t) / 1000, applyCpuS: cpuSeconds(process.cpuUsage(cpu)), split: worker !== null, records: a.recordsApplied, pages: a.pagesRecovered, peakRssMb: peak / 1e6,
      sha256: sha?.digest('hex') ?? null,
    };
  } finally {
    await raw.close();
    await log.close();
  }
}

export interface ServerRecovery {
  /** From the error log's "Starting crash recovery" to "ready for connections" (whole seconds: its timestamps'), or null. */
  recoveryS: number | null;
  /** From the server's start on the copy to its being ready, recovery included. */
  startS: number;
  /** The server's CPU seconds up to then (its startup included). */
  cpuS: number;
  lines: string[];
}

/** The seconds of an error log line's time stamp ('2026-12-07  3:20:31 0 [Note] …': the hour not padded). */
const stamp = (line: string) => {
  const m = /^(\d{4}-\d\d-\d\d) +(\d+):(\d\d):(\d\d)/.exec(line);
  return m ? Date.parse(`${m[1]}T${m[2].padStart(2, '0')}:${m[3]}:${m[4]}Z`) / 1000 : null;
};

/** The server's own crash recovery of a copy of `datadir`, started with `args`. */
export async function serverRecovery(datadir: string, args: string[]): Promise<ServerRecovery> {
  const copy = mkdtempSync(join(tmpdir(), 'redo-bench-'));
  try {
    cpSync(datadir, copy, { recursive: true });
    const t = performance.now();
    const srv = await startMariadb({ datadir: copy, extraArgs: args });
    const startS = (performance.now() - t) / 1000;
    const ticks = readFileSync(`/proc/${srv.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const cpuS = (Number(ticks[11]) + Number(ticks[12])) / 100;
    // The error log from the recovery's first line to the server's being ready.
    const all = srv.errorLog().split('\n');
    const first = all.findIndex((l) => /Starting crash recovery/i.test(l));
    const ready = all.findIndex((l, k) => k > first && /ready for connections/i.test(l));
    const lines = first < 0 || ready < 0 ? all.filter((l) => /recovery|ready for connections/i.test(l)) : all.slice(first, ready + 1).filter((l) => /InnoDB|ready/.test(l));
    await srv.stop();
    const from = first < 0 ? null : stamp(all[first]);
    const to = ready < 0 ? null : stamp(all[ready]);
    const recoveryS = from === null || to === null ? null : to - from;
    return { recoveryS, startS, cpuS, lines };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('redo-apply.mjs')) {
  const [datadir, table, ...rest] = process.argv.slice(2);
  if (!datadir || !table) {
    console.error('usage: node redo-apply.mjs DATADIR db/table.ibd [--server] [--serial] [--hash]');
    process.exit(64);
  }
  console.log(await applyTable(datadir, table, rest.includes('--serial'), rest.includes('--hash')));
  if (rest.includes('--server')) console.log(await serverRecovery(datadir, ['--innodb-buffer-pool-size=1G', '--innodb-log-file-size=1G']));
}
