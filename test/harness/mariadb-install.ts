/**
 * The MariaDB programs the harness runs: found on the PATH (or the usual sbin folders), installed with
 * apt-get when missing (never skipping a test silently), and mariadb-install-db, which makes a fresh
 * data directory. Also the tails of their logs that the harness's errors quote.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const SEARCH_DIRS = ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin', '/sbin', '/bin'];

function findExecutable(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter).filter(Boolean), ...SEARCH_DIRS];
  for (const dir of dirs) {
    const p = join(dir, name);
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      /* not here */
    }
  }
  return null;
}

export function findMariadbd(): string | null {
  if (existsSync('/usr/sbin/mariadbd')) return '/usr/sbin/mariadbd';
  return findExecutable('mariadbd');
}

export function tail(text: string, lines = 40): string {
  const all = text.trimEnd().split('\n');
  return all.slice(-lines).join('\n');
}

export function readTail(path: string, lines = 40): string {
  try {
    return tail(readFileSync(path, 'utf8'), lines);
  } catch {
    return '(no log file)';
  }
}

let installChecked = false;

/**
 * Makes sure mariadbd, mariadb-install-db and the mariadb client exist; installs the Debian
 * packages mariadb-server + mariadb-client with apt-get otherwise (same as scripts/test.sh).
 * Throws (never skips) if they cannot be installed. Synchronous; cheap once installed.
 */
export function ensureMariadbInstalled(): void {
  if (installChecked) return;
  const have = () => findMariadbd() !== null && findExecutable('mariadb-install-db') !== null && findExecutable('mariadb') !== null;
  if (!have()) {
    if (typeof process.getuid === 'function' && process.getuid() !== 0) {
      throw new Error(
        'MariaDB server is not installed and this process is not root, so it cannot apt-get install it. ' +
          'Run: sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends mariadb-server mariadb-client',
      );
    }
    // Keep dpkg from starting the system MariaDB service (we only want the binaries).
    const policy = '/usr/sbin/policy-rc.d';
    const addedPolicy = !existsSync(policy);
    if (addedPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
    try {
      const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
      const run = (args: string[]) => {
        const r = spawnSync('apt-get', args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
        if (r.error || r.status !== 0) {
          throw new Error(
            `MariaDB install failed: apt-get ${args.join(' ')} exited with ${r.error ? r.error.message : `status ${r.status}`}\n` +
              tail(`${r.stdout ?? ''}\n${r.stderr ?? ''}`),
          );
        }
      };
      run(['update']);
      run(['install', '-y', '--no-install-recommends', 'mariadb-server', 'mariadb-client']);
    } finally {
      if (addedPolicy) {
        try {
          unlinkSync(policy);
        } catch {
          /* ignore */
        }
      }
    }
    if (!have()) {
      throw new Error('MariaDB install finished but mariadbd / mariadb-install-db / mariadb are still not found');
    }
  }
  installChecked = true;
}

export function runInstallDb(args: string[], logPath: string): Promise<void> {
  const installDb = findExecutable('mariadb-install-db');
  if (!installDb) throw new Error('mariadb-install-db not found');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const child = spawn(installDb, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c: Buffer) => chunks.push(c));
    child.stderr!.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const out = Buffer.concat(chunks).toString('utf8');
      writeFileSync(logPath, out);
      if (code === 0) resolve();
      else
        reject(
          new Error(`mariadb-install-db failed (${signal ?? `exit ${code}`}): ${installDb} ${args.join(' ')}\n${tail(out)}`),
        );
    });
  });
}
