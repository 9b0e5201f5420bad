/**
 * The redo bench (`npm run bench -- --only redo`, issue 37): a MariaDB 10.11 datadir SIGKILLed with
 * ~512 MB of redo log after its checkpoint (made once, ~minutes, kept in .cache/bench/redo-<version>/),
 * our roll-forward of its table (the scan of the log from the checkpoint, then every page read
 * through the recovered source: bench/redo-apply.ts) against the server's own crash recovery of a
 * copy of the same datadir, timed from its error log.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { startMariadb, type MariadbServer } from '../test/harness/mariadb.ts';
import { applyTable, serverRecovery, type ApplyTimes, type ServerRecovery } from './redo-apply.ts';

/** Change when the workload below changes: an older cache is then made again. */
const VERSION = 'v1';
/** The log the workload leaves after the checkpoint. */
const LOG_AFTER_CHECKPOINT = 512e6;
const ROWS = 400_000;
/** A large buffer pool, dirty pages allowed, little flushing: the changes stay in the log until the crash. */
const SERVER_ARGS = [
  '--innodb-buffer-pool-size=2G',
  '--innodb-log-file-size=1G',
  '--innodb-max-dirty-pages-pct=90',
  '--innodb-max-dirty-pages-pct-lwm=0',
  '--innodb-adaptive-flushing=OFF',
  '--innodb-io-capacity=100',
  '--innodb-flush-log-at-trx-commit=0',
];

interface Meta {
  version: string;
  logBytes: number;
  madeAt: string;
  makeSeconds: number;
}

/** The log written after the last checkpoint (SHOW ENGINE INNODB STATUS: "Log sequence number" − "Last checkpoint at"). */
async function checkpointAge(server: MariadbServer): Promise<number> {
  const { rows } = await server.query('SHOW ENGINE INNODB STATUS');
  const text = rows[0]?.[2] ?? '';
  const lsn = /Log sequence number\s+(\d+)/.exec(text);
  const checkpoint = /Last checkpoint at\s+(\d+)/.exec(text);
  if (!lsn || !checkpoint) throw new Error('SHOW ENGINE INNODB STATUS gives no log sequence number or checkpoint');
  return Number(lsn[1]) - Number(checkpoint[1]);
}

async function dirtyPages(server: MariadbServer): Promise<number> {
  const { rows } = await server.query("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'");
  return Number(rows[0]?.[1] ?? 0);
}

/** Loads sysbench-like rows, takes a checkpoint, then updates and inserts until LOG_AFTER_CHECKPOINT bytes of log follow it; SIGKILL. */
async function makeCrashedDatadir(target: string): Promise<Meta> {
  const started = performance.now();
  const server = await startMariadb({ extraArgs: SERVER_ARGS });
  try {
    await server.exec(`CREATE TABLE big (id INT NOT NULL PRIMARY KEY, k INT NOT NULL, c CHAR(120) NOT NULL, pad VARCHAR(60) NOT NULL, KEY k_1 (k)) ENGINE=InnoDB;
      INSERT INTO big SELECT seq, seq % 10007, REPEAT(CHAR(97 + seq % 26), 120), REPEAT('p', seq % 60) FROM seq_1_to_${ROWS};`);
    // Every page written and the checkpoint moved past the load: what follows is only in the log.
    await server.exec('SET GLOBAL innodb_max_dirty_pages_pct = 0');
    for (let i = 0; i < 600 && ((await dirtyPages(server)) > 0 || (await checkpointAge(server)) > 1e6); i++) await new Promise((r) => setTimeout(r, 200));
    await server.exec('SET GLOBAL innodb_max_dirty_pages_pct = 90');
    let round = 0;
    while ((await checkpointAge(server)) < LOG_AFTER_CHECKPOINT) {
      const from = ((round * 37_000) % ROWS) + 1;
      await server.exec(`UPDATE big SET k = k + 1, c = REPEAT(CHAR(65 + ${round % 26}), 100 + ${round % 20}), pad = REPEAT('q', ${round % 60}) WHERE id BETWEEN ${from} AND ${from + 40_000};
        DELETE FROM big WHERE id BETWEEN ${from + 40_001} AND ${from + 41_000};
        INSERT INTO big SELECT seq, seq % 101, 'again', '' FROM seq_${from + 40_001}_to_${from + 41_000};`);
      round++;
    }
    const logBytes = await checkpointAge(server);
    await server.crash();
    const tmp = `${target}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    cpSync(server.datadir, tmp, { recursive: true });
    rmSync(target, { recursive: true, force: true });
    renameSync(tmp, target);
    return { version: VERSION, logBytes, madeAt: new Date().toISOString(), makeSeconds: (performance.now() - started) / 1000 };
  } finally {
    await server.stop();
  }
}

/** The crashed datadir, from the cache or made now. */
async function crashedDatadir(cacheRoot: string): Promise<{ datadir: string; meta: Meta; made: boolean }> {
  const dir = join(cacheRoot, `redo-${VERSION}`);
  const datadir = join(dir, 'datadir');
  const metaPath = join(dir, 'meta.json');
  if (existsSync(metaPath) && existsSync(datadir)) return { datadir, meta: JSON.parse(readFileSync(metaPath, 'utf8')) as Meta, made: false };
  mkdirSync(dir, { recursive: true });
  console.log(`bench: redo: making a crashed datadir with ${LOG_AFTER_CHECKPOINT / 1e6} MB of log after its checkpoint (once; cached in ${dir})`);
  const meta = await makeCrashedDatadir(datadir);
  writeFileSync(metaPath, JSON.stringify(meta, null, 2));
  return { datadir, meta, made: true };
}

const s = (x: number) => `${x.toFixed(1)} s`;

/** Runs the redo bench; its report as Markdown lines. */
export async function benchRedo(cacheRoot: string): Promise<string[]> {
  const { datadir, meta, made } = await crashedDatadir(cacheRoot);
  console.log('bench: redo: our scan and apply of test/big.ibd');
  const ours: ApplyTimes = await applyTable(datadir, 'test/big.ibd');
  console.log('bench: redo: the server recovering a copy');
  const server: ServerRecovery = await serverRecovery(datadir, SERVER_ARGS);
  const total = ours.scanWallS + ours.applyWallS;
  const cpu = ours.scanCpuS + ours.applyCpuS;
  return [
    '## Redo roll-forward against the server\'s own crash recovery (issue 37)',
    '',
    `A MariaDB datadir SIGKILLed mid-work (${made ? `made now in ${s(meta.makeSeconds)}` : `cached, made ${meta.madeAt.slice(0, 10)} in ${s(meta.makeSeconds)}`}): ${(ours.logBytes / 1e6).toFixed(0)} MB of log after the checkpoint; the table test/big.ibd (${(ours.fileBytes / 1e6).toFixed(0)} MB).`,
    '',
    '| | wall | CPU |',
    '| --- | --- | --- |',
    `| ours: scan of the log${ours.split ? ' (its second half on a worker thread)' : ''} | ${s(ours.scanWallS)} | ${s(ours.scanCpuS)} |`,
    `| ours: apply (every page read, ${ours.records.toLocaleString('en-US')} records to ${ours.pages.toLocaleString('en-US')} pages) | ${s(ours.applyWallS)} | ${s(ours.applyCpuS)} |`,
    `| ours: total | ${s(total)} | ${s(cpu)} |`,
    `| server: recovery (error log: from "Starting crash recovery" to "ready for connections"; whole seconds) | ${server.recoveryS === null ? '—' : s(server.recoveryS)} | — |`,
    `| server: start on the copy, recovery included | ${s(server.startS)} | ${s(server.cpuS)} |`,
    '',
    `${server.recoveryS === null ? 'The server\'s error log gave no recovery time' : `Ours / the server's recovery: ${(total / server.recoveryS).toFixed(1)}× its wall time (issue 37 asks for 2× or less)`}; ours / the server's CPU: ${(cpu / server.cpuS).toFixed(1)}×; our peak RSS ${ours.peakRssMb.toFixed(0)} MB; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')} (wall times stretch with it).`,
    '',
    '```',
    ...server.lines,
    '```',
  ];
}
