/** The machine a result was measured on: numbers mean little without it (and without the load). */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';

export interface Machine {
  date: string;
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  os: string;
  node: string;
  mariadb: string;
  chromium: string;
}

function firstLine(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return r.status === 0 ? (r.stdout.trim().split('\n')[0] ?? '') : 'not found';
}

export function machine(chromiumPath: string): Machine {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const debian = existsSync('/etc/debian_version') ? `Debian ${readFileSync('/etc/debian_version', 'utf8').trim()}` : 'Linux';
  const mariadbd = existsSync('/usr/sbin/mariadbd') ? '/usr/sbin/mariadbd' : 'mariadbd';
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    cpus: availableParallelism(),
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    os: debian,
    node: process.version,
    mariadb: firstLine(mariadbd, ['--version']).replace(/^.*Ver\s+/, '').replace(/\s+for\s.*$/, ''),
    chromium: existsSync(chromiumPath) ? firstLine(chromiumPath, ['--version']) : 'not installed',
  };
}

/** The 1/5/15-minute load averages, as `uptime` prints them. */
export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(', ');
}
