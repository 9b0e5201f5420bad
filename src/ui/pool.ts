/**
 * A pool of decoder workers (workers/decoder.worker.ts) on the page: one per core, at least two.
 * Each worker opens the same File by Blob slices; the pool opens the current table (`ViewSpec`) in a
 * worker before its first task for that table, so switching tables or row modes keeps the workers.
 *
 * Tasks wait in two queues: `high` (what is on screen, a key jump) goes before `low` (counting,
 * search, export runs), so the grid answers while a long job runs. Each worker runs `slots` tasks at
 * a time (two lets one read the file while the other decodes). `terminate()` kills every worker at
 * once — the only way to stop a worker in the middle of a page — and rejects what is queued; the
 * next task starts fresh workers.
 *
 * A table shown as before transaction N (`ViewSpec.undo`) is open in one worker only, which runs all
 * its tasks: each worker opening it would read and keep its own copy of the undo pages (up to 256 MiB),
 * and a worker cannot share its memory with another without cross-origin isolation. The CLI reads
 * such a table on one thread as well.
 */
import type { Remote } from 'comlink';
import type { DecoderApi, DecodeStats } from '../../workers/decoder-api.ts';
import { connectDecoder, type DecoderConnection } from '../../workers/decoder-connection.ts';
import type { OpenedView, ViewSpec } from '../../workers/viewer-api.ts';
import { mergeStats } from '../core/readers/parallel.ts';

export type Api = Remote<DecoderApi>;
export type Priority = 'high' | 'low';

/** Rejects the tasks of a terminated pool. */
export class PoolStopped extends Error {
  constructor() {
    super('stopped');
    this.name = 'PoolStopped';
  }
}

interface Member {
  conn: DecoderConnection;
  running: number;
  /** The spec generation open in this worker, and the open call. */
  gen: number;
  opening: Promise<OpenedView> | null;
  /** Its reader's statistics, as of its last task. */
  stats: DecodeStats | null;
  /** Tasks running in it (rejected if it is killed: a dead worker never answers). */
  jobs: Set<Job>;
}

/** A task: runs in worker `member`, with the table it has open (null for a task needing none). */
export type Task<T> = (api: Api, member: number, view: OpenedView | null) => Promise<T>;

interface Job {
  task: Task<unknown>;
  /** The spec generation the task is for (it needs that table open), or null for none. */
  gen: number | null;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

export function poolSize(): number {
  return Math.max(2, Math.min(8, navigator.hardwareConcurrency || 2));
}

export class WorkerPool {
  #members: Member[] = [];
  #high: Job[] = [];
  #low: Job[] = [];
  #spec: ViewSpec | null = null;
  #gen = 0;
  /** The statistics of workers `recycle` replaced, for the table of generation `#gen`. */
  #retired: DecodeStats[] = [];
  /** The one worker a table with undo versions is open in (see above), or null. */
  #pinned: number | null = null;

  constructor(readonly size = poolSize(), readonly slots = 1) {}

  /** Starts every worker (their code loads while the page does other things). */
  warm(): void {
    while (this.#members.length < this.size) this.#members.push(this.#member());
  }

  #member(): Member {
    return { conn: connectDecoder(), running: 0, gen: 0, opening: null, stats: null, jobs: new Set() };
  }

  /** Tables opened from now on use `spec`; returns its generation. */
  setSpec(spec: ViewSpec): number {
    this.#spec = spec;
    this.#retired = [];
    this.#pinned = spec.undo ? 0 : null;
    return ++this.#gen;
  }

  /**
   * Worker `member` opened `spec` itself (resolveAndOpen): it becomes the pool's table, already open
   * there; the other workers open it before their first task. Call it from a task running in
   * `member`, so that no other task finds the worker between its open and this. Returns the generation.
   */
  adopt(member: number, spec: ViewSpec, view: OpenedView, stats: DecodeStats): number {
    const gen = this.setSpec(spec);
    if (this.#pinned !== null) this.#pinned = member;
    const m = this.#members[member];
    m.gen = gen;
    m.opening = Promise.resolve(view);
    m.stats = stats;
    return gen;
  }

  /**
   * Opens the current table in every worker now, not before its first task: the count or export of a
   * large table that follows then starts on every core at once (opening one reads the B-tree's upper
   * levels, ~0.3 s for a GB table).
   */
  openEverywhere(): void {
    if (this.#pinned !== null) return;
    for (const m of this.#members) this.#open(m).catch(() => undefined);
  }

  /**
   * No table is open until the next setSpec / adopt: tasks of the last one no longer start (a worker
   * may be about to open another table on its own, see adopt).
   */
  close(): void {
    this.#spec = null;
    this.#retired = [];
    this.#pinned = null;
    this.#gen++;
  }

  get generation(): number {
    return this.#gen;
  }

  /**
   * Runs `task` in a worker with the table of generation `gen` open (null: any worker, no table).
   * A task for a generation that is no longer current rejects with PoolStopped.
   */
  run<T>(task: Task<T>, priority: Priority, gen: number | null): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const job: Job = { task: task as Task<unknown>, gen, resolve: resolve as (v: unknown) => void, reject };
      (priority === 'high' ? this.#high : this.#low).push(job);
      this.#pump();
    });
  }

  /** The statistics of every worker's reader, added up. */
  stats(): DecodeStats {
    return mergeStats([...this.#retired, ...this.#members.flatMap((m) => (m.stats && m.gen === this.#gen ? [m.stats] : []))]);
  }

  /** Keeps a worker's latest statistics (tasks return them with their results). */
  noteStats(member: number, stats: DecodeStats): void {
    const m = this.#members[member];
    if (m) m.stats = stats;
  }

  /**
   * When no task is running or waiting: replaces every worker with a fresh one (its table opened again
   * before its next task). A worker that has read through a large file holds tens of MB of read
   * buffers its V8 has not collected yet (it collects when allocating more, which an idle worker
   * does not); a fresh worker costs ~15 MB. Returns whether it did.
   */
  recycle(): boolean {
    if (this.#high.length > 0 || this.#low.length > 0 || this.#members.some((m) => m.running > 0)) return false;
    for (const m of this.#members) {
      // What they read still counts (a damaged page they skipped stays in the report).
      if (m.stats && m.gen === this.#gen) this.#retired.push(m.stats);
      m.conn.terminate();
    }
    this.#members = [];
    this.warm();
    return true;
  }

  /** Kills every worker at once; queued tasks reject with PoolStopped. */
  terminate(): void {
    const queued = [...this.#high, ...this.#low];
    for (const m of this.#members) {
      m.conn.terminate();
      queued.push(...m.jobs);
    }
    this.#members = [];
    this.#high = [];
    this.#low = [];
    for (const job of queued) job.reject(new PoolStopped());
  }

  #pump(): void {
    for (;;) {
      const job = this.#high[0] ?? this.#low[0];
      if (!job) return;
      const index = job.gen !== null && this.#pinned !== null ? this.#pinnedMember() : this.#idleMember();
      if (index < 0) return;
      (this.#high[0] === job ? this.#high : this.#low).shift();
      void this.#start(index, job);
    }
  }

  /** An idle worker (the least busy), starting one while the pool is not full; -1 when all are busy. */
  #idleMember(): number {
    let best = -1;
    this.#members.forEach((m, i) => {
      if (m.running < this.slots && (best < 0 || m.running < this.#members[best].running)) best = i;
    });
    if ((best < 0 || this.#members[best].running > 0) && this.#members.length < this.size) {
      this.#members.push(this.#member());
      return this.#members.length - 1;
    }
    return best;
  }

  /** The worker a table with undo versions runs in, when it has a free slot (started if need be), else -1. */
  #pinnedMember(): number {
    const at = this.#pinned as number;
    while (this.#members.length <= at) this.#members.push(this.#member());
    return this.#members[at].running < this.slots ? at : -1;
  }

  async #start(index: number, job: Job): Promise<void> {
    const m = this.#members[index];
    m.running++;
    m.jobs.add(job);
    try {
      if (job.gen !== null && job.gen !== this.#gen) throw new PoolStopped();
      const view = job.gen === null ? null : await this.#open(m);
      job.resolve(await job.task(m.conn.api, index, view));
    } catch (e) {
      job.reject(this.#members[index] === m ? e : new PoolStopped());
    } finally {
      m.running--;
      m.jobs.delete(job);
      if (this.#members[index] === m) this.#pump();
    }
  }

  #open(m: Member): Promise<OpenedView> {
    const spec = this.#spec;
    if (!spec) return Promise.reject(new Error('No table to open.'));
    if (m.gen !== this.#gen || !m.opening) {
      m.gen = this.#gen;
      m.stats = null;
      m.opening = m.conn.api.openView(spec);
      // A failed open is tried again by the next task.
      m.opening.catch(() => {
        if (m.gen === this.#gen) m.opening = null;
      });
    }
    return m.opening;
  }
}
