/**
 * The server processes the harness starts, kept from outliving the test process: a process 'exit'
 * hook and a detached watchdog shell per server kill them and delete their temp dirs. Also what
 * starting one needs of the system: a free TCP port, a temp dir short enough for a unix socket.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error('could not get a free port'))));
    });
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

export interface LiveServer {
  child: ChildProcess;
  watchdog: ChildProcess | null;
  baseDir: string;
}

export const live = new Set<LiveServer>();
let exitHookInstalled = false;

export function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const s of live) {
      try {
        if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
      } catch {
        /* ignore */
      }
      try {
        s.watchdog?.kill('SIGKILL');
      } catch {
        /* ignore */
      }
      try {
        rmSync(s.baseDir, { recursive: true, force: true });
      } catch {
        /* ignore */
      }
    }
    live.clear();
  });
}

/**
 * Detached shell that outlives a hard-killed Node process: while Node lives it only polls; once
 * Node is gone it stops the server (if its pid is still our mariadbd) and deletes the temp dir.
 * It exits by itself once the temp dir is gone (normal stop()).
 */
const WATCHDOG_SCRIPT = `
ppid="$1"; spid="$2"; dir="$3"
while kill -0 "$ppid" 2>/dev/null; do
  [ -d "$dir" ] || exit 0
  sleep 1
done
ours() { grep -qF -- "$dir" "/proc/$spid/cmdline" 2>/dev/null; }
if ours; then
  kill -TERM "$spid" 2>/dev/null
  for i in $(seq 1 40); do ours || break; sleep 0.25; done
  ours && kill -KILL "$spid" 2>/dev/null
fi
rm -rf -- "$dir"
`;

export function startWatchdog(serverPid: number, baseDir: string): ChildProcess | null {
  try {
    const wd = spawn('bash', ['-c', WATCHDOG_SCRIPT, 'mariadb-watchdog', String(process.pid), String(serverPid), baseDir], {
      detached: true,
      stdio: 'ignore',
    });
    wd.on('error', () => {
      /* best effort */
    });
    wd.unref();
    return wd;
  } catch {
    return null;
  }
}

export function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.off('exit', onExit);
      resolve(false);
    }, ms);
    const onExit = () => {
      clearTimeout(timer);
      resolve(true);
    };
    child.once('exit', onExit);
  });
}

export function makeBaseDir(): string {
  let root = tmpdir();
  // A unix socket path must stay under ~107 bytes.
  if (root.length > 60) root = '/tmp';
  return mkdtempSync(join(root, 'ibd-mariadb-'));
}
