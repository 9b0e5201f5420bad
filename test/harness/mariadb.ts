/**
 * Test harness: runs a PRIVATE, throw-away MariaDB server (Node only) so that
 * differential tests can create tables with a real server, export their .ibd
 * files and compare what ibd-reader decodes with what `SELECT` shows.
 *
 *   const srv = await startMariadb({ pageSize: 4096, checksum: 'crc32' });
 *   await srv.exec('CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(10)); INSERT INTO t VALUES (1, "x")');
 *   const { columns, rows } = await srv.query('SELECT * FROM t ORDER BY a');
 *   const ibdPath = await srv.exportTable('t');
 *   ...
 *   await srv.stop();
 *
 * Cost: `startMariadb` is EXPENSIVE: mariadb-install-db (~1 s) + server start
 * (~0.5 s), so ~1.5 s each on the 2-core machine (5 started in parallel: ~3 s);
 * each server uses ~75-150 MB of RAM (64 MB buffer pool, enough even for 64K
 * pages). Start one per page size / format per test file (in `beforeAll`),
 * not one per test; several may run at the same time.
 *
 * Lifetime: `stop()` shuts the server down (SIGTERM, then SIGKILL after a
 * timeout) and deletes its whole temp dir (datadir, socket, logs AND every
 * folder handed out by `exportTable`). Servers never outlive the test process:
 * a process 'exit' hook SIGKILLs them and deletes their dirs, and a tiny
 * detached watchdog shell per server does the same within ~1 s if the Node
 * process dies without running 'exit' hooks (SIGKILL, crash).
 *
 * If `mariadbd` is not installed, `ensureMariadbInstalled()` installs it with
 * apt-get (root required) and throws loudly if that fails: these tests never
 * skip silently.
 *
 * Value rendering of `query()` (uses the official `mariadb` connector over the
 * text protocol, with a typeCast that never lets JS convert anything):
 *   - every non-NULL value is the exact text the server sends (what the
 *     `mariadb` CLI prints): '-1.50', '2024-02-29 13:05:00.123000',
 *     '0000-00-00', '1.5' ...
 *   - SQL NULL is JS `null` (distinct from the 4-character string 'NULL');
 *   - strings are decoded as UTF-8 (the session is utf8mb4, so the server
 *     converts latin1 etc. to UTF-8);
 *   - binary values (BINARY/VARBINARY/BLOB family, GEOMETRY, binary-charset
 *     expressions: string types with charset `binary` (63)) and BIT values are
 *     rendered as '0x' + UPPERCASE hex of their bytes, like the mysql client's
 *     --binary-as-hex; an EMPTY binary value renders as '0x' (never '').
 *
 * Server settings worth knowing (see `serverArgs` below): UTC time zone
 * (`--default-time-zone=+00:00`, TIMESTAMP shows UTC), character-set-server
 * utf8mb4 / utf8mb4_general_ci (like Debian's packaged config), the session
 * sql_mode is the server's global default (the connector's IGNORE_SPACE is
 * undone), max_allowed_packet 1G (large `exec` scripts are fine).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, unlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createConnection, type Connection, type FieldInfo, type TypeCastFunction } from 'mariadb';

export type ChecksumAlgorithm = 'full_crc32' | 'crc32';

export interface StartMariadbOptions {
  /** innodb_page_size: 4096, 8192, 16384 (default), 32768 or 65536. Fixed at install time. */
  pageSize?: number;
  /** innodb_checksum_algorithm (default 'full_crc32' = MariaDB's own tablespace format;
   *  'crc32' creates tablespaces in the MySQL-compatible format). */
  checksum?: ChecksumAlgorithm;
  /** Extra mariadbd options (e.g. '--innodb-default-row-format=compact'). They are passed
   *  both to mariadb-install-db (bootstrap) and to the server. */
  extraArgs?: string[];
  /** How long to wait for the server to accept connections (default 60000 ms). */
  startTimeoutMs?: number;
}

export interface QueryResult {
  columns: string[];
  /** One array per row; each value exactly as the server's text protocol renders it,
   *  SQL NULL as `null`, binary/BIT values as '0x' + uppercase hex. */
  rows: (string | null)[][];
}

export interface MariadbServer {
  /** Root of everything this server owns (deleted by stop()). */
  readonly baseDir: string;
  /** The server's data directory (`<datadir>/<db>/<table>.ibd`). */
  readonly datadir: string;
  /** Unix socket path (the `mariadb` CLI works: `mariadb --socket=... -uroot test`). */
  readonly socket: string;
  /** TCP port on 127.0.0.1 (user root, no password). */
  readonly port: number;
  readonly pageSize: number;
  readonly checksum: ChecksumAlgorithm;
  /** PID of mariadbd. */
  readonly pid: number;
  /** Runs SQL (any number of ';'-separated statements, any size) as root in `database`
   *  (default 'test', created at start). Rejects on the first failing statement. */
  exec(sql: string, database?: string): Promise<void>;
  /** Runs SQL and returns the (last) result set, values rendered as documented above. */
  query(sql: string, database?: string): Promise<QueryResult>;
  /** FLUSH TABLES `table` FOR EXPORT, copies `<table>.ibd` (+ `.cfg`, `.frm` when present)
   *  into a fresh folder while the lock is held, UNLOCK TABLES; returns the copied .ibd path.
   *  The copy lives inside baseDir: it is deleted by stop() — read it before stopping. */
  exportTable(table: string, database?: string): Promise<string>;
  /** Current text of the server's error log. */
  errorLog(): string;
  /** Shuts the server down and removes baseDir. Idempotent. */
  stop(): Promise<void>;
}

const VALID_PAGE_SIZES = [4096, 8192, 16384, 32768, 65536];
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

function findMariadbd(): string | null {
  if (existsSync('/usr/sbin/mariadbd')) return '/usr/sbin/mariadbd';
  return findExecutable('mariadbd');
}

function tail(text: string, lines = 40): string {
  const all = text.trimEnd().split('\n');
  return all.slice(-lines).join('\n');
}

function readTail(path: string, lines = 40): string {
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

function freePort(): Promise<number> {
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

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Quote an identifier with backticks. */
function ident(name: string): string {
  return '`' + name.replace(/`/g, '``') + '`';
}

/**
 * MariaDB's file-name encoding of a database/table name (my_charset_filename), for ASCII names:
 * [0-9A-Za-z_] stay, any other ASCII char becomes '@' + 4 lowercase hex digits. Non-ASCII names use
 * special tables in the server; they are not supported here (throws).
 */
function filenameEncode(name: string): string {
  let out = '';
  for (const ch of name) {
    const cp = ch.codePointAt(0)!;
    if (/[0-9A-Za-z_]/.test(ch)) out += ch;
    else if (cp < 0x80) out += '@' + cp.toString(16).padStart(4, '0');
    else throw new Error(`exportTable: non-ASCII name ${JSON.stringify(name)} is not supported by the harness`);
  }
  return out;
}

// MySQL protocol column types that carry bytes (rendered as hex when their charset is binary).
const STRINGISH_TYPES = new Set([
  15, // VARCHAR
  245, // JSON (MySQL only)
  247, // ENUM
  248, // SET
  249, // TINY_BLOB
  250, // MEDIUM_BLOB
  251, // LONG_BLOB
  252, // BLOB
  253, // VAR_STRING
  254, // STRING
  255, // GEOMETRY
]);
const BIT_TYPE = 16;
const BINARY_COLLATION = 63;

function renderValue(column: FieldInfo): string | null {
  const type = column.columnType as number;
  if (type === BIT_TYPE || (STRINGISH_TYPES.has(type) && column.collation.index === BINARY_COLLATION)) {
    const buf = column.buffer();
    return buf === null ? null : '0x' + buf.toString('hex').toUpperCase();
  }
  return column.string();
}

const typeCast: TypeCastFunction = (column) => renderValue(column);

interface LiveServer {
  child: ChildProcess;
  watchdog: ChildProcess | null;
  baseDir: string;
}

const live = new Set<LiveServer>();
let exitHookInstalled = false;

function installExitHook(): void {
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

function startWatchdog(serverPid: number, baseDir: string): ChildProcess | null {
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

function runInstallDb(args: string[], logPath: string): Promise<void> {
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

function waitForExit(child: ChildProcess, ms: number): Promise<boolean> {
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

function makeBaseDir(): string {
  let root = tmpdir();
  // A unix socket path must stay under ~107 bytes.
  if (root.length > 60) root = '/tmp';
  return mkdtempSync(join(root, 'ibd-mariadb-'));
}

/** Starts a private MariaDB server. Expensive (seconds): share it between tests. */
export async function startMariadb(opts: StartMariadbOptions = {}): Promise<MariadbServer> {
  const pageSize = opts.pageSize ?? 16384;
  const checksum: ChecksumAlgorithm = opts.checksum ?? 'full_crc32';
  const extraArgs = opts.extraArgs ?? [];
  const startTimeoutMs = opts.startTimeoutMs ?? 60000;
  if (!VALID_PAGE_SIZES.includes(pageSize)) throw new Error(`startMariadb: invalid pageSize ${pageSize}`);
  if (checksum !== 'full_crc32' && checksum !== 'crc32') throw new Error(`startMariadb: invalid checksum ${String(checksum)}`);

  ensureMariadbInstalled();
  const mariadbd = findMariadbd()!;
  installExitHook();

  const baseDir = makeBaseDir();
  const datadir = join(baseDir, 'data');
  const serverTmp = join(baseDir, 'tmp');
  const socket = join(baseDir, 'mysqld.sock');
  const errorLogPath = join(baseDir, 'error.log');
  mkdirSync(serverTmp);

  // Options that shape the on-disk format or are needed to bootstrap: given to install-db AND server.
  const formatArgs = [
    `--innodb-page-size=${pageSize}`,
    `--innodb-checksum-algorithm=${checksum}`,
    '--innodb-buffer-pool-size=64M',
    '--innodb-log-file-size=32M',
    '--innodb-use-native-aio=0',
    '--skip-log-bin',
    '--character-set-server=utf8mb4',
    '--collation-server=utf8mb4_general_ci',
    '--aria-pagecache-buffer-size=8M',
    '--key-buffer-size=8M',
  ];

  let cleanupOnFailure = true;
  let child: ChildProcess | null = null;
  let watchdog: ChildProcess | null = null;
  let entry: LiveServer | null = null;
  try {
    await runInstallDb(
      [
        '--no-defaults',
        '--user=root',
        `--datadir=${datadir}`,
        '--auth-root-authentication-method=normal',
        '--skip-test-db',
        '--skip-name-resolve',
        `--tmpdir=${serverTmp}`,
        ...formatArgs,
        ...extraArgs,
      ],
      join(baseDir, 'install.log'),
    );

    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      const args = [
        '--no-defaults',
        '--user=root',
        `--datadir=${datadir}`,
        `--socket=${socket}`,
        '--bind-address=127.0.0.1',
        `--port=${port}`,
        `--pid-file=${join(baseDir, 'mysqld.pid')}`,
        `--log-error=${errorLogPath}`,
        `--tmpdir=${serverTmp}`,
        '--skip-name-resolve',
        '--default-time-zone=+00:00',
        '--max-allowed-packet=1G',
        '--max-connections=64',
        '--innodb-flush-log-at-trx-commit=2',
        '--innodb-doublewrite=0',
        '--innodb-buffer-pool-dump-at-shutdown=0',
        '--innodb-buffer-pool-load-at-startup=0',
        ...formatArgs,
        ...extraArgs,
      ];
      const proc = spawn(mariadbd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      child = proc;
      let stderr = '';
      proc.stderr!.on('data', (c: Buffer) => {
        if (stderr.length < 65536) stderr += c.toString('utf8');
      });
      let spawnError: Error | null = null;
      proc.on('error', (e) => (spawnError = e));
      entry = { child: proc, watchdog: null, baseDir };
      live.add(entry);
      if (proc.pid !== undefined) {
        watchdog = startWatchdog(proc.pid, baseDir);
        entry.watchdog = watchdog;
      }

      const deadline = Date.now() + startTimeoutMs;
      let ready = false;
      while (Date.now() < deadline) {
        if (spawnError || proc.exitCode !== null || proc.signalCode !== null) break;
        if (existsSync(socket)) {
          try {
            const conn = await createConnection({ socketPath: socket, user: 'root', connectTimeout: 2000 });
            await conn.query('CREATE DATABASE IF NOT EXISTS test');
            await conn.end();
            ready = true;
            break;
          } catch {
            /* not ready yet */
          }
        }
        await sleep(100);
      }
      if (ready) break;

      const exited = proc.exitCode !== null || proc.signalCode !== null || spawnError !== null;
      if (!exited) {
        proc.kill('SIGKILL');
        await waitForExit(proc, 5000);
      }
      live.delete(entry);
      watchdog?.kill('SIGKILL');
      const log = readTail(errorLogPath);
      if (exited && attempt < 3 && /Bind on TCP\/IP port|Address already in use/i.test(log)) continue; // port race: retry
      throw new Error(
        `mariadbd did not become ready (${exited ? `exited: ${spawnError ?? proc.exitCode ?? proc.signalCode}` : `timeout ${startTimeoutMs} ms`})\n` +
          `command: ${mariadbd} ${args.join(' ')}\n--- error log tail (${errorLogPath}) ---\n${log}\n--- stderr ---\n${tail(stderr)}`,
      );
    }

    const proc = child!;
    const myEntry = entry!;
    const myWatchdog = watchdog;
    let stopped: Promise<void> | null = null;

    const connect = (database: string | undefined) =>
      createConnection({
        socketPath: socket,
        user: 'root',
        database: database || undefined,
        multipleStatements: true,
        rowsAsArray: true,
        typeCast,
        collation: 'UTF8MB4_GENERAL_CI',
        // The connector always announces CLIENT_IGNORE_SPACE; restore the server's default sql_mode.
        initSql: 'SET SESSION sql_mode = @@GLOBAL.sql_mode',
        permitLocalInfile: true,
        connectTimeout: 10000,
      });

    const withConn = async <T>(database: string | undefined, fn: (c: Connection) => Promise<T>): Promise<T> => {
      if (stopped) throw new Error('MariaDB server already stopped');
      const conn = await connect(database);
      try {
        return await fn(conn);
      } finally {
        await conn.end().catch(() => conn.destroy());
      }
    };

    const sqlError = (e: unknown, sql: string): Error => {
      const msg = e instanceof Error ? e.message : String(e);
      const shown = sql.length > 1000 ? sql.slice(0, 1000) + ` ... (${sql.length} chars)` : sql;
      const err = new Error(`${msg}\n--- SQL ---\n${shown}`);
      (err as Error & { cause?: unknown }).cause = e;
      return err;
    };

    const server: MariadbServer = {
      baseDir,
      datadir,
      socket,
      port,
      pageSize,
      checksum,
      pid: proc.pid!,

      async exec(sql: string, database = 'test'): Promise<void> {
        await withConn(database, async (c) => {
          try {
            await c.query(sql);
          } catch (e) {
            throw sqlError(e, sql);
          }
        });
      },

      async query(sql: string, database = 'test'): Promise<QueryResult> {
        return withConn(database, async (c) => {
          let res: unknown;
          try {
            res = await c.query(sql);
          } catch (e) {
            throw sqlError(e, sql);
          }
          // Single statement: an array of rows with a `meta` property (or an OkPacket).
          // Several statements: an array of such results; take the last result set.
          type RS = unknown[][] & { meta?: FieldInfo[] };
          const isResultSet = (r: unknown): r is RS => Array.isArray(r) && (r as RS).meta !== undefined;
          let rs: RS | undefined;
          if (isResultSet(res)) rs = res;
          else if (Array.isArray(res)) {
            for (const r of res) if (isResultSet(r)) rs = r;
          }
          if (!rs) return { columns: [], rows: [] };
          return {
            columns: rs.meta!.map((m) => m.name()),
            rows: Array.from(rs, (row) => Array.from(row, (v) => (v === null ? null : (v as string)))),
          };
        });
      },

      async exportTable(table: string, database = 'test'): Promise<string> {
        const dbDir = join(datadir, filenameEncode(database));
        const base = filenameEncode(table);
        const ibd = join(dbDir, `${base}.ibd`);
        return withConn(database, async (c) => {
          try {
            await c.query(`FLUSH TABLES ${ident(table)} FOR EXPORT`);
          } catch (e) {
            throw sqlError(e, `FLUSH TABLES ${ident(table)} FOR EXPORT`);
          }
          try {
            if (!existsSync(ibd)) {
              let listing = '';
              try {
                listing = readdirSync(dbDir).join(', ');
              } catch {
                listing = '(no such database directory)';
              }
              throw new Error(`exportTable: ${ibd} does not exist (is ${database}.${table} an InnoDB file-per-table table?). ${dbDir}: ${listing}`);
            }
            const outDir = mkdtempSync(join(baseDir, 'export-'));
            for (const ext of ['.ibd', '.cfg', '.frm']) {
              const src = join(dbDir, base + ext);
              if (existsSync(src)) copyFileSync(src, join(outDir, base + ext));
            }
            return join(outDir, `${base}.ibd`);
          } finally {
            await c.query('UNLOCK TABLES');
          }
        });
      },

      errorLog(): string {
        try {
          return readFileSync(errorLogPath, 'utf8');
        } catch {
          return '';
        }
      },

      stop(): Promise<void> {
        if (!stopped) {
          stopped = (async () => {
            if (proc.exitCode === null && proc.signalCode === null) {
              proc.kill('SIGTERM');
              if (!(await waitForExit(proc, 30000))) {
                proc.kill('SIGKILL');
                await waitForExit(proc, 10000);
              }
            }
            rmSync(baseDir, { recursive: true, force: true });
            live.delete(myEntry);
            try {
              myWatchdog?.kill('SIGKILL');
            } catch {
              /* ignore */
            }
          })();
        }
        return stopped;
      },
    };
    cleanupOnFailure = false;
    return server;
  } finally {
    if (cleanupOnFailure) {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await waitForExit(child, 5000);
      }
      if (entry) live.delete(entry);
      try {
        watchdog?.kill('SIGKILL');
      } catch {
        /* ignore */
      }
      rmSync(baseDir, { recursive: true, force: true });
    }
  }
}
