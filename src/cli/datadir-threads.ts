/**
 * The small tables of a system tablespace read on the worker threads (issue 38): `ibd-reader DIR -o
 * OUTDIR` of a datadir of 50,000 one-row tables in ibdata1 spends ~0.3 CPU-ms on each (its opening,
 * its definition's check, decoding, writing), which left alone on the main thread kept the second
 * core idle. Here the main thread finds where each table's rows lie (InnodbFile.tableTarget, from its
 * one scan of the file) and hands the tables to the workers in groups of GROUP_TABLES; each worker
 * (datadir-worker.ts) reads ibdata1 through its own file handles and sends back each table's line of
 * tables.tsv and its output (held whole up to table-file.ts's SMALL_OUTPUT, else streamed to its file
 * by the worker), which the main thread writes in the order the tables were queued (TableQueue): the
 * folder and tables.tsv are those of `--threads 1`, byte for byte. The memory held is bounded by the
 * queue's window: GROUPS_AHEAD groups a thread, each table's output at most SMALL_OUTPUT.
 *
 * A table the worker finds to have PARALLEL_MIN_PAGES leaves or more comes back `wide`, to be read
 * by the main thread over every worker thread as before. A group is sent when full, or sooner when
 * the queue waits on a table of it (kick: so that no table waits for a group that does not fill).
 */
import { Worker } from 'node:worker_threads';
import type { IndexTarget } from '../core/readers/dropped-indexes.ts';
import type { TableDef } from '../core/schema.ts';
import type { EncryptionKeys } from '../core/tablespace/encryption.ts';
import type { OutFormat } from './datadir-rows.ts';
import type { TableLine } from './datadir-table.ts';

/** Tables per message to a worker: a group of one-row tables is ~10 ms of its work, so a message's cost is small beside it. */
export const GROUP_TABLES = 32;
/** Groups in flight per worker: one read while the next waits, so a worker is not idle between them. */
export const GROUPS_AHEAD = 2;

/** What a worker is started with: the data files of the system tablespace and how every table is read and written. */
export interface TablesWorkerStart {
  paths: readonly string[];
  keys: EncryptionKeys | undefined;
  timeZone: string;
  systemColumns: boolean | undefined;
  out: string | null;
  format: OutFormat;
  jsonStrings: boolean;
}

/** A table for a worker: its definition, where its rows lie, its line so far and its output file. */
export interface SmallTable {
  definition: TableDef;
  target: IndexTarget;
  line: TableLine;
  path: string;
}

/**
 * A table's line as the worker filled it in and its output held whole (null: none, or streamed to its
 * file by the worker), or `wide`: too many leaves for one thread, not read.
 */
export type SmallResult = { line: TableLine; bytes: Uint8Array | null } | 'wide';

/** A table's line and the size of its output in its group's bytes (null: none), or `wide`. */
export type SmallRead = { line: TableLine; size: number | null } | 'wide';

export interface GroupRequest {
  id: number;
  tables: SmallTable[];
}

/**
 * The group's tables read: their outputs one after another in one buffer, transferred (a buffer per
 * table, or a view of Node's 8 KiB pool cloned whole, would each be memory outside the heap for the
 * main thread's collector to count: such buffers set off its full collections before, session 27).
 */
export type GroupReply = { id: number; results: SmallRead[]; bytes: Uint8Array; error?: undefined } | { id: number; error: string };

interface Waiter {
  resolve(r: SmallResult): void;
  reject(e: Error): void;
}

interface Thread {
  worker: Worker;
  /** Each group in flight: its tables' waiters. */
  groups: Map<number, Waiter[]>;
}

export class SmallTables {
  private readonly threads: Thread[];
  private group: SmallTable[] = [];
  private waiters: Waiter[] = [];
  private nextId = 0;
  private waiting = false;
  private scheduled = false;

  constructor(url: URL, start: TablesWorkerStart, threads: number) {
    this.threads = Array.from({ length: Math.max(1, threads) }, () => this.started(new Worker(url, { workerData: start })));
  }

  private started(worker: Worker): Thread {
    const thread: Thread = { worker, groups: new Map() };
    worker.on('message', (reply: GroupReply) => {
      const waiters = thread.groups.get(reply.id) ?? [];
      thread.groups.delete(reply.id);
      if (reply.error !== undefined) for (const w of waiters) w.reject(new Error(reply.error));
      else {
        let at = 0;
        waiters.forEach((w, i) => {
          const read = reply.results[i];
          if (read === 'wide') return w.resolve(read);
          const bytes = read.size === null ? null : reply.bytes.subarray(at, (at += read.size));
          w.resolve({ line: read.line, bytes });
        });
      }
      this.kick();
    });
    const fail = (e: Error) => {
      for (const waiters of thread.groups.values()) for (const w of waiters) w.reject(e);
      thread.groups.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`a worker thread reading the datadir's tables ended (exit code ${code})`)));
    return thread;
  }

  /** `table` read by a worker: its line, or `wide`. */
  read(table: SmallTable): Promise<SmallResult> {
    return new Promise<SmallResult>((resolve, reject) => {
      this.group.push(table);
      this.waiters.push({ resolve, reject });
      if (this.group.length >= GROUP_TABLES) this.send();
      else if (this.waiting && !this.scheduled) {
        // The tables queued in this turn of the event loop go together.
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.kick();
        });
      }
    });
  }

  /** Told by the queue when it waits for a table's line (on), and when that line has come (off). */
  wait(on: boolean): void {
    this.waiting = on;
    this.kick();
  }

  /**
   * The group so far sent, though not full, when the queue waits and no group is in flight: the
   * table waited for is then in it. While groups are in flight their replies move the queue on,
   * and sending a part of a group then would only make groups of one or two tables.
   */
  private kick(): void {
    if (this.waiting && this.threads.every((t) => t.groups.size === 0)) this.send();
  }

  /** The group so far to the worker with the fewest groups in flight. */
  private send(): void {
    if (this.group.length === 0) return;
    const thread = this.threads.reduce((a, b) => (b.groups.size < a.groups.size ? b : a));
    const id = this.nextId++;
    thread.groups.set(id, this.waiters);
    thread.worker.postMessage({ id, tables: this.group } satisfies GroupRequest);
    this.group = [];
    this.waiters = [];
  }

  async close(): Promise<void> {
    for (const t of this.threads) t.worker.removeAllListeners('exit');
    await Promise.all(this.threads.map((t) => t.worker.terminate()));
  }
}
