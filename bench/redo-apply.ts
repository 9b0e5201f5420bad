/**
 * Micro-benchmark of the redo log roll-forward (src/core/log/): on a crashed MariaDB 10.8+ datadir,
 * the scan of ib_logfile0 from its checkpoint, then every page of every .ibd read through its
 * recovered source (so every page the log changes is rolled forward); prints MB of log, records
 * and pages, and the records applied per second. With --server, a private MariaDB recovers a copy
 * of the datadir by itself and the time its error log gives its recovery is printed beside.
 *
 *   npx esbuild bench/redo-apply.ts --bundle --platform=node --format=esm --packages=external --outfile=/tmp/redo-apply.mjs
 *   node /tmp/redo-apply.mjs DATADIR [--server]
 */
import { cpSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withRedoLog } from '../src/core/log/redo-recovery.ts';
import { scanRedoLog } from '../src/core/log/redo-scan.ts';
import { fileSource } from '../src/node/file-source.ts';
import { startMariadb } from '../test/harness/mariadb.ts';

const seconds = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e9;

async function ours(datadir: string): Promise<void> {
  const log = await fileSource(join(datadir, 'ib_logfile0'));
  let t = process.hrtime.bigint();
  const scan = await scanRedoLog(log, new Set());
  const scanned = seconds(t);
  const scanCpu = process.cpuUsage();
  const logMb = (scan.bounds.endLsn - scan.bounds.checkpointLsn) / 1e6;
  console.log(`log: ${logMb.toFixed(1)} MB after the checkpoint, ${scan.mtrCount} mini-transactions, ${scan.recordCount} page records; scan ${scanned.toFixed(2)} s, ${((scanCpu.user + scanCpu.system) / 1e6).toFixed(2)} CPU-s for the process so far (${(logMb / scanned).toFixed(0)} MB/s)`);
  t = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  let records = 0;
  let pages = 0;
  for (const db of readdirSync(datadir).filter((d) => statSync(join(datadir, d)).isDirectory())) {
    for (const name of readdirSync(join(datadir, db)).filter((n) => n.endsWith('.ibd'))) {
      const raw = await fileSource(join(datadir, db, name));
      const { source, recovery } = await withRedoLog(raw, log);
      // Every page read, 1 MiB at a time, as a full read of the table would.
      for (let at = 0; at < source.size; at += 1 << 20) await source.read(at, 1 << 20);
      records += recovery.applied?.recordsApplied ?? 0;
      pages += recovery.applied?.pagesRecovered ?? 0;
      if (recovery.notApplied || recovery.applied?.failed.length) console.log(`${db}/${name}: ${recovery.notApplied ?? `${recovery.applied?.failed.length} pages failed`}`);
      await raw.close();
    }
  }
  const applied = seconds(t);
  const used = process.cpuUsage(cpu);
  console.log(`applied: ${records} records to ${pages} pages in ${applied.toFixed(2)} s, ${((used.user + used.system) / 1e6).toFixed(2)} CPU-s (each file's own scan of the log included): ${(records / applied / 1e3).toFixed(0)} k records/s`);
  await log.close();
}

/** The server's own crash recovery of a copy: from its error log's first line to 'ready for connections'. */
async function server(datadir: string): Promise<void> {
  const copy = mkdtempSync(join(tmpdir(), 'redo-bench-'));
  cpSync(datadir, copy, { recursive: true });
  const t = process.hrtime.bigint();
  const srv = await startMariadb({ datadir: copy, extraArgs: ['--innodb-buffer-pool-size=1G', '--innodb-log-file-size=1G'] });
  const wall = seconds(t);
  const lines = srv.errorLog().split('\n').filter((l) => /recovery|Apply batch|redo log|ready for connections/i.test(l));
  console.log(`server: started on the copy in ${wall.toFixed(2)} s (its recovery included); its error log:\n${lines.join('\n')}`);
  await srv.stop();
}

const [datadir, ...rest] = process.argv.slice(2);
if (!datadir) {
  console.error('usage: node redo-apply.mjs DATADIR [--server]');
  process.exit(64);
}
await ours(datadir);
if (rest.includes('--server')) await server(datadir);
