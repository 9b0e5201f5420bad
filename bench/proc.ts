/**
 * Running and timing the programs being compared. Every command runs under GNU time (`/usr/bin/time`)
 * so its peak memory (max RSS, worker threads included) and CPU time come from the kernel's own
 * accounting rather than from sampling; wall time is measured here around the whole process.
 * Server-side CPU (the mariadbd serving a dump) is read from /proc before and after.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';

export interface Timed {
  /** Seconds from spawn to exit. */
  wallS: number;
  /** Peak resident memory of the process, MB (GNU time's %M). */
  maxRssMb: number;
  /** User + system CPU seconds of the process and its children. */
  cpuS: number;
  status: number | null;
  /** The end of stderr (for summaries and error messages). */
  stderr: string;
}

export interface TimedOptions {
  /** File that receives stdout (default: discarded). */
  stdoutTo?: string;
  /** File whose contents become stdin. */
  stdinFrom?: string;
  cwd?: string;
  /** A scratch file for GNU time's report. */
  timeFile: string;
}

const STDERR_KEEP = 64 * 1024;

/** Runs `cmd args` under /usr/bin/time; never throws for a non-zero exit (the caller decides). */
export function timed(cmd: string, args: string[], opts: TimedOptions): Promise<Timed> {
  const out = opts.stdoutTo ? openSync(opts.stdoutTo, 'w') : 'ignore';
  const input = opts.stdinFrom ? openSync(opts.stdinFrom, 'r') : 'ignore';
  rmSync(opts.timeFile, { force: true });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-o', opts.timeFile, '-f', '%M %U %S', cmd, ...args], {
      cwd: opts.cwd,
      stdio: [input, out, 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString('utf8')).slice(-STDERR_KEEP);
    });
    child.on('error', reject);
    child.on('close', (status) => {
      const wallS = (performance.now() - started) / 1000;
      if (typeof out === 'number') closeSync(out);
      if (typeof input === 'number') closeSync(input);
      // GNU time appends "Command exited with non-zero status N" before the format line.
      const line = existsSync(opts.timeFile) ? readFileSync(opts.timeFile, 'utf8').trim().split('\n').pop() ?? '' : '';
      const [rssKb, user, sys] = line.split(' ').map(Number);
      resolve({ wallS, maxRssMb: (rssKb || 0) / 1024, cpuS: (user || 0) + (sys || 0), status, stderr });
    });
  });
}

let clockTicks = 0;

/** CPU seconds (user + system) a process has used so far, from /proc/PID/stat. */
export function processCpuSeconds(pid: number): number {
  if (clockTicks === 0) clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; fields after its closing parenthesis are fixed.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

/** Makes sure the Debian packages that provide these programs are installed (apt-get, as root). */
export function ensurePackages(needs: { program: string; pkg: string }[]): void {
  const missing = needs.filter((n) => !existsSync(n.program) && spawnSync('sh', ['-c', `command -v ${n.program}`]).status !== 0).map((n) => n.pkg);
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) throw new Error(`missing ${missing.join(', ')}: run as root, or apt-get install them yourself`);
  console.log(`bench: installing ${missing.join(', ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', ...missing]]) {
    const r = spawnSync('apt-get', args, { env, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (status ${r.status})`);
  }
}

const warmBuffer = Buffer.alloc(1 << 20);

/** Reads a whole file through the OS page cache and drops the bytes: later reads are warm. */
export function warmFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    while (readSync(fd, warmBuffer, 0, warmBuffer.length, null) > 0) {
      // only the reading matters
    }
  } finally {
    closeSync(fd);
  }
}

/** Bytes of every file under `dir` (one level), for dump outputs split over many files. */
export function dirBytes(dir: string): number {
  const r = spawnSync('du', ['-sb', dir], { encoding: 'utf8' });
  return Number(r.stdout.split('\t')[0]) || 0;
}
