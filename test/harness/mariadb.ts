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
 * Lifetime (mariadb-process.ts): `stop()` shuts the server down (SIGTERM, then SIGKILL after a
 * timeout) and deletes its whole temp dir (datadir, socket, logs AND every
 * folder handed out by `exportTable`). Servers never outlive the test process:
 * a process 'exit' hook SIGKILLs them and deletes their dirs, and a tiny
 * detached watchdog shell per server does the same within ~1 s if the Node
 * process dies without running 'exit' hooks (SIGKILL, crash).
 *
 * If `mariadbd` is not installed, `ensureMariadbInstalled()` (mariadb-install.ts)
 * installs it with apt-get (root required) and throws loudly if that fails: these tests never
 * skip silently.
 *
 * Value rendering of `query()` (mariadb-sql.ts; uses the official `mariadb` connector over the
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
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection, type Connection } from 'mariadb';
import { exportTableFiles, tableFiles } from './mariadb-export.ts';
import { ensureMariadbInstalled, findMariadbd, readTail, runInstallDb, tail } from './mariadb-install.ts';
import { freePort, installExitHook, live, makeBaseDir, sleep, startWatchdog, waitForExit, type LiveServer } from './mariadb-process.ts';
import { connectAsRoot, queryResult, sqlError, type QueryResult } from './mariadb-sql.ts';

export { ensureMariadbInstalled } from './mariadb-install.ts';
export type { QueryResult } from './mariadb-sql.ts';

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
  /** Start on this existing datadir (a copy of a crashed server's, say) instead of a new one: no
   *  mariadb-install-db; the server runs its own crash recovery on it at start. The folder is
   *  used in place and deleted by stop() like the rest of the server's files. */
  datadir?: string;
}

export interface Session {
  exec(sql: string): Promise<void>;
  query(sql: string): Promise<QueryResult>;
  close(): Promise<void>;
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
  /** A slow shutdown (innodb_fast_shutdown=0: purge done, every page written); resolves once the
   *  process is gone, its files left in datadir for the test to copy (stop() then removes them). */
  slowShutdown(): Promise<void>;
  /** SIGKILL, as a crash: no page is flushed, no log written after it; resolves once the process
   *  is gone, its datadir left as the crash left it (copy it, then start a server on the copy with
   *  `startMariadb({ datadir })` to have the server's own recovery judge it). */
  crash(): Promise<void>;
  /** A copy of the datadir (after crash() or slowShutdown()) in a fresh temp folder, for
   *  `startMariadb({ datadir })`; deleted by that server's stop(), or by the caller. */
  copyDatadir(): string;
  /** One connection kept open (a transaction left open across other statements, a read view held
   *  to keep purge back); closed by close(), or with the server. */
  openSession(database?: string): Promise<Session>;
  /** Shuts the server down and removes baseDir. Idempotent. */
  stop(): Promise<void>;
}

const VALID_PAGE_SIZES = [4096, 8192, 16384, 32768, 65536];

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
  const datadir = opts.datadir ?? join(baseDir, 'data');
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
    if (opts.datadir === undefined) await runInstallDb(
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

    const withConn = async <T>(database: string | undefined, fn: (c: Connection) => Promise<T>): Promise<T> => {
      if (stopped) throw new Error('MariaDB server already stopped');
      const conn = await connectAsRoot(socket, database);
      try {
        return await fn(conn);
      } finally {
        await conn.end().catch(() => conn.destroy());
      }
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
          return queryResult(res);
        });
      },

      async exportTable(table: string, database = 'test'): Promise<string> {
        const files = tableFiles(datadir, table, database);
        return withConn(database, (c) => exportTableFiles(c, files, baseDir, table, database));
      },

      copyDatadir(): string {
        const copy = makeBaseDir();
        cpSync(datadir, copy, { recursive: true });
        return copy;
      },

      async openSession(database = 'test'): Promise<Session> {
        const conn = await connectAsRoot(socket, database);
        conn.on('error', () => undefined);
        const run = async (sql: string): Promise<unknown> => {
          try {
            return await conn.query(sql);
          } catch (e) {
            throw sqlError(e, sql);
          }
        };
        return {
          exec: async (sql) => void (await run(sql)),
          query: async (sql) => queryResult(await run(sql)),
          close: () => conn.end().catch(() => conn.destroy()),
        };
      },

      async crash(): Promise<void> {
        proc.kill('SIGKILL');
        if (!(await waitForExit(proc, 30000))) throw new Error('mariadbd did not die within 30 s of SIGKILL');
      },

      async slowShutdown(): Promise<void> {
        await server.exec('SET GLOBAL innodb_fast_shutdown = 0');
        const conn = await connectAsRoot(socket, undefined);
        // SHUTDOWN kills this connection: its error, and the event the connector emits then, are expected.
        conn.on('error', () => undefined);
        await conn.query('SHUTDOWN').catch(() => undefined);
        conn.destroy();
        if (!(await waitForExit(proc, 120000))) throw new Error('mariadbd did not stop within two minutes of a slow SHUTDOWN');
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
            if (opts.datadir !== undefined) rmSync(opts.datadir, { recursive: true, force: true });
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
