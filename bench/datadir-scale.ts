/**
 * Issue 38's scale: datadirs of N one-row tables (test/differential/many-tables-setup.ts), kept in
 * .cache/bench/datadir-N/{live,dropped}, and the CLI timed on them: `--list-tables`, one `--table`,
 * `DIR -o OUT` (its small tables on the worker threads, and with `--threads 1` on the main thread
 * alone), on the live datadir (.frm beside) and on the dropped one. Not part of npm test.
 *
 *   node bench/datadir-scale.mjs N [N2 …]      (bundled by bench/datadir-scale.mjs)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeManyTables } from '../test/differential/many-tables-setup.ts';

/**
 * The datadirs of n tables, made once. The servers run on a tmpfs where there is one (/dev/shm): each
 * CREATE and DROP TABLE syncs its files, which costs nothing there (1,500 tables made and dropped
 * in 8.7 s against ~100 s on disk).
 */
export async function datadirs(root: string, n: number): Promise<{ live: string; dropped: string }> {
  const dir = join(root, '.cache', 'bench', `datadir-${n}`);
  const live = join(dir, 'live');
  const dropped = join(dir, 'dropped');
  if (existsSync(join(dropped, 'ibdata1'))) return { live, dropped };
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  const tmp = process.env.TMPDIR;
  if (existsSync('/dev/shm')) process.env.TMPDIR = '/dev/shm';
  const made = await makeManyTables(n, { filePerTable: false, drop: true }).finally(() => {
    if (tmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmp;
  });
  for (const [from, to] of [[made.live, live], [made.dropped as string, dropped]]) {
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true });
  }
  made.remove();
  process.stderr.write(`made ${n} tables in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return { live, dropped };
}

/** Runs the CLI (`cli`: its built .mjs), returns wall seconds, CPU seconds (user + system: a shared machine's wall time is mostly waiting), exit status and peak memory (GNU time). */
function timed(cli: string, args: string[]): { seconds: number; cpu: number; status: number | null; maxRssMb: number | null } {
  const started = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S %M', 'node', cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const m = /([\d.]+) ([\d.]+) (\d+)\s*$/.exec(r.stderr ?? '');
  return { seconds, cpu: m ? Number(m[1]) + Number(m[2]) : NaN, status: r.status, maxRssMb: m ? Math.round(Number(m[3]) / 1024) : null };
}

/** The CLI's runs on the datadirs of `n` tables, a line each (tab-separated): what, wall, CPU, exit status, peak memory. */
export async function cliRuns(root: string, cli: string, n: number): Promise<string[]> {
  const { live, dropped } = await datadirs(root, n);
  const out = join(root, '.cache', 'bench', `datadir-${n}`, 'out');
  const runs: [string, string[]][] = [
    ['--list-tables (live, .frm beside)', [join(live, 'ibdata1'), '--list-tables', '-o', '/dev/null']],
    ['--table seeda/t5 (live, .frm beside)', [join(live, 'ibdata1'), '--table', 'seeda/t5', '-o', '/dev/null']],
    ['DIR -o OUT (live)', [live, '-o', join(out, 'live')]],
    ['DIR -o OUT (live, --threads 1)', [live, '-o', join(out, 'live'), '--threads', '1']],
    ['--list-tables (dropped)', [join(dropped, 'ibdata1'), '--list-tables', '-o', '/dev/null']],
    ['DIR -o OUT (dropped)', [dropped, '-o', join(out, 'dropped')]],
    ['DIR -o OUT (dropped, --threads 1)', [dropped, '-o', join(out, 'dropped'), '--threads', '1']],
  ];
  const lines: string[] = [];
  for (const [what, args] of runs) {
    rmSync(out, { recursive: true, force: true });
    const t = timed(cli, args);
    lines.push(`${n} tables\t${what}\t${t.seconds.toFixed(2)} s wall\t${t.cpu.toFixed(2)} s CPU\texit ${t.status}\t${t.maxRssMb} MB`);
    process.stdout.write(`${lines[lines.length - 1]}\n`);
  }
  rmSync(out, { recursive: true, force: true });
  return lines;
}

export async function main(root: string, argv: string[]): Promise<void> {
  for (const n of argv.map(Number)) await cliRuns(root, join(root, 'dist-cli', 'ibd-reader.mjs'), n);
}
