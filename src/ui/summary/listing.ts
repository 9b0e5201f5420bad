/**
 * The listing of the tables given: each table file's summary (page size, server hints, checksums;
 * read without a schema) and its definition (the worker's `resolveSchema`: the file's own data
 * dictionary, else the .frm beside it, else a CREATE TABLE of the .sql files), for the table list.
 *
 * Entries are queued (`queue`) and listed in batches across the page's worker pool at `low`
 * priority (the table on screen goes first): each batch is one worker call (`listTables`,
 * workers/list-methods.ts) that reads every file's summary and finds its definition (the .sql parsed
 * once per worker). Small files get their full summary (exact row count, checksums) in that call,
 * and the tiniest their CSV too, kept for "Export all tables"; large ones get their quick summary,
 * then their full scan one after another in a summary worker of its own, once the table on screen
 * is counted and no export runs (export-hold.ts). 10,000 one-row tables are ~40 calls, and the
 * state changes once per batch, not once per file.
 */
import * as Comlink from 'comlink';
import type { ExportedTable, ListedTable, ListItem, TablespaceSummary } from '../../../workers/decoder-api.ts';
import { connectDecoder, type DecoderConnection } from '../../../workers/decoder-connection.ts';
import type { ExportHold } from '../export/export-hold.ts';
import { definitionBlob, type FileSet } from '../files/file-set.svelte.ts';
import { describeError } from '../format.ts';
import { PoolStopped, type WorkerPool } from '../pool.ts';
import type { TableEntry } from '../tables/table-entry.svelte.ts';

/** Files this small get their full summary (row count and checksums) in the listing batch: a few pages. */
const FULL_SUMMARY_BELOW = 1 << 20;
/**
 * Files this small (a few pages: an empty or nearly empty table) also get their CSV in the listing
 * batch, kept for "Export all tables": decoding a few rows costs less than reading the file again.
 */
const LIST_CSV_BELOW = 128 << 10;
/** The CSVs of the listing kept on the page, at most (the others are read again by the export). */
const KEEP_CSV_BYTES = 32 << 20;
/** Files per listing call. */
const LIST_BATCH = 250;
/** The sizes of the queued files are read in slices of this many milliseconds (the page stays responsive). */
const SIZE_SLICE_MS = 50;
/** The full summary scan of the table on screen waits at most this long for its row count. */
const COUNT_FIRST_MS = 10_000;

/** A queued entry: its summary (`summary: true`) and/or its definition are to be read. */
interface Job {
  entry: TableEntry;
  summary: boolean;
}

export class Listing {
  readonly #pool: WorkerPool;
  readonly #files: FileSet;
  readonly #hold: ExportHold;
  #queue: Job[] = [];
  /** The entries listed (the tables given), for O(1) "is it still open" checks (10,000 tables). */
  #live = new Set<TableEntry>();
  /** Listing batches running in the pool, and the generation they belong to (bumped by reset). */
  #lanes = 0;
  #gen = 0;
  /** Large files listed with their quick summary, waiting for their full scan in the summary worker. */
  #fullQueue: TableEntry[] = [];
  #summaryConn: DecoderConnection | null = null;
  #summaryRunning = false;
  /** Bytes of the entries' `listedCsv`. */
  #csvKept = 0;
  /** Bumped when .sql or .frm files are added: CSVs listed with the definitions of before are not kept. */
  #schemaGen = 0;

  constructor(pool: WorkerPool, files: FileSet, hold: ExportHold) {
    this.#pool = pool;
    this.#files = files;
    this.#hold = hold;
    // A summary scan under way is stopped for an export, and scanned again once it is over.
    hold.onHold(() => void this.#summaryConn?.api.stopView());
  }

  /**
   * Starts the summary worker now, after the pool's: started on the first drop, it took the main
   * thread's and the pool's time then.
   */
  warm(): void {
    this.#summaryWorker();
  }

  /** The entries listed from now on (the others' jobs are skipped). */
  follow(live: Set<TableEntry>): void {
    this.#live = live;
  }

  /** Queues `entry`'s definition, and its summary when `summary`; `run()` lists the queue. */
  queue(entry: TableEntry, summary: boolean): void {
    this.#queue.push({ entry, summary });
  }

  /** .sql or .frm files were added: the CSVs listed so far were made with the definitions of before. */
  schemaChanged(): void {
    this.#schemaGen++;
  }

  /** Forgets an entry's listed CSV (its table is gone, or its definition may change). */
  forgetCsv(entry: TableEntry): void {
    this.#keepCsv(entry, null);
  }

  /** New keys: the summaries that failed or are of encrypted files are read again, with the keys (`all`: every one, the files now read otherwise). */
  summarizeAgain(tables: readonly TableEntry[], all = false): void {
    for (const t of tables) {
      if (t.summaryState === 'waiting' || t.summaryState === 'scanning') continue;
      if (!all && t.summaryState !== 'error' && !t.summary?.encrypted) continue;
      t.summaryState = 'waiting';
      t.summaryError = null;
      this.queue(t, true);
    }
    this.run();
  }

  /**
   * Works through the queue in batches, as many at a time as the pool has task slots (two per
   * worker: a worker has its next batch while the page hands over the one after, which costs the
   * page's main thread a look at each File's size, ~0.25–0.6 ms a file in Chromium).
   */
  run(): void {
    const gen = this.#gen;
    void this.#readSizes(gen);
    while (this.#lanes < this.#pool.size * this.#pool.slots && this.#queue.length > 0) {
      this.#lanes++;
      void this.#lane(gen).finally(() => {
        if (gen === this.#gen) this.#lanes--;
      });
    }
  }

  /** Forgets every entry; the summary worker is stopped (a new one starts with the next full scan). */
  reset(): void {
    this.#queue = [];
    this.#fullQueue = [];
    this.#csvKept = 0;
    this.#gen++;
    this.#lanes = 0;
      this.#live = new Set();
    this.#summaryConn?.terminate();
    this.#summaryConn = null;
    this.#summaryRunning = false;
  }

  /** The summary worker, which keeps the page maps of its full scans (the page map panel asks it). */
  summaryApi(): DecoderConnection['api'] {
    return this.#summaryWorker().api;
  }

  #summaryWorker(): DecoderConnection {
    this.#summaryConn ??= connectDecoder();
    return this.#summaryConn;
  }

  /**
   * Reads the size of every queued table file (and .frm) ahead of the listing calls, in slices. In
   * Chromium a picked File's first `size` is a synchronous look at the disk (~0.4 ms, ~1 ms while the
   * workers read files), and so is the structured clone that sends an unsized File to a worker: the
   * page's main thread did it for each batch as it went out, while that batch's worker waited. Read
   * ahead, the sizes stay with the File objects and a batch goes out at once.
   */
  async #readSizes(gen: number): Promise<void> {
    const entries = this.#queue.map((j) => j.entry);
    for (let at = 0; at < entries.length && gen === this.#gen; ) {
      const started = performance.now();
      for (; at < entries.length && performance.now() - started < SIZE_SLICE_MS; at++) {
        const entry = entries[at];
        void entry.file.size;
        void entry.paired.frm?.file.size;
      }
      if (at < entries.length) await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  /** The next batch of the queue: up to LIST_BATCH files. */
  #takeBatch(): Job[] {
    const batch: Job[] = [];
    while (this.#queue.length > 0 && batch.length < LIST_BATCH) {
      for (const job of this.#queue.splice(0, LIST_BATCH - batch.length)) if (this.#live.has(job.entry)) batch.push(job);
    }
    return batch;
  }

  async #lane(gen: number): Promise<void> {
    for (let batch = this.#takeBatch(); batch.length > 0 && gen === this.#gen; batch = this.#takeBatch()) {
      for (const job of batch) if (job.summary) job.entry.summaryState = 'scanning';
      const schemaGen = this.#schemaGen;
      const results = await this.#list(batch, gen);
      if (!results || gen !== this.#gen) return;
      batch.forEach((job, i) => {
        if (this.#live.has(job.entry)) this.#take(job, results[i], schemaGen === this.#schemaGen);
      });
      if (this.#fullQueue.length > 0) void this.#runFullSummaries();
    }
  }

  /** One listing call for `batch`; its failure is each entry's; null when the pool was stopped (reset). */
  async #list(batch: readonly Job[], gen: number): Promise<ListedTable[] | null> {
    const items: ListItem[] = batch.map(({ entry }) => ({
      ibd: entry.file,
      name: entry.file.name,
      frm: definitionBlob(entry.paired),
    }));
    const sqls = this.#files.sqlBlobs();
    try {
      const options = { fullBelow: FULL_SUMMARY_BELOW, csvBelow: LIST_CSV_BELOW, keys: this.#files.keyRing.keys };
      return await this.#pool.run((api) => api.listTables(items, sqls, options), 'low', null);
    } catch (err) {
      if (err instanceof PoolStopped || gen !== this.#gen) return null;
      const text = describeError(err);
      return batch.map(() => ({ summary: null, csv: null, summaryError: text, resolved: null, resolveError: text, live: null, pageMap: null }));
    }
  }

  /** What the listing found of one entry; its CSV is kept when made with today's definitions (`csvCurrent`). */
  #take({ entry, summary }: Job, r: ListedTable, csvCurrent: boolean): void {
    // (a partitioned table's CSV is of all its partitions: the export makes it)
    if (csvCurrent && !entry.paired.partitions) this.#keepCsv(entry, r.csv);
    if (summary) {
      entry.listed = r.live;
      if (r.summary) {
        entry.summary = r.summary;
        entry.pageMap = r.pageMap;
        if (r.summary.complete) entry.summaryState = 'done';
        else this.#fullQueue.push(entry);
      } else {
        entry.summaryState = 'error';
        entry.summaryError = r.summaryError;
      }
    }
    if (entry.busy || entry.state === 'done' || entry.state === 'cancelled') return;
    if (r.resolved) {
      entry.setResolved(r.resolved);
      entry.settle();
    } else {
      entry.error = r.resolveError;
      entry.state = 'error';
    }
  }

  /** Keeps (or with null, forgets) an entry's listed CSV, while they add up to at most KEEP_CSV_BYTES. */
  #keepCsv(entry: TableEntry, csv: ExportedTable | null): void {
    this.#csvKept -= entry.listedCsv?.bytes?.length ?? 0;
    const size = csv?.bytes?.length ?? 0;
    const kept = csv && this.#csvKept + size <= KEEP_CSV_BYTES ? csv : null;
    entry.listedCsv = kept;
    if (kept) this.#csvKept += size;
  }

  /** The full scan (checksums of every page) of the large files, one after another in the summary worker. */
  async #runFullSummaries(): Promise<void> {
    if (this.#summaryRunning) return;
    this.#summaryRunning = true;
    const conn = this.#summaryWorker();
    try {
      for (let target = this.#fullQueue.shift(); target; target = this.#fullQueue.shift()) {
        if (this.#live.has(target) && target.summaryState === 'scanning') await this.#fullSummary(conn, target);
      }
    } catch (err) {
      // The worker was terminated (reset): a new queue runner starts with the next files.
      if (conn === this.#summaryConn) throw err;
    } finally {
      if (conn === this.#summaryConn) this.#summaryRunning = false;
    }
  }

  async #fullSummary(conn: DecoderConnection, target: TableEntry): Promise<void> {
    // Let the selected table get its rows counted and on screen first, and exports run alone: the
    // full scan reads and checksums every page, and the cores are few.
    await new Promise((r) => setTimeout(r, 0));
    await target.whenCounted(COUNT_FIRST_MS);
    for (;;) {
      await this.#hold.released();
      try {
        const progress = Comlink.proxy((s: TablespaceSummary) => {
          if (target.summaryState === 'scanning') target.summary = s;
        });
        target.summary = await conn.api.summarize(target.file, target.file.name, progress, this.#files.keyRing.keys);
        target.summaryState = 'done';
        return;
      } catch (err) {
        // Stopped for an export: scanned again from the start once it is over.
        if (this.#hold.held && conn === this.#summaryConn) continue;
        target.summaryState = 'error';
        target.summaryError = describeError(err);
        return;
      }
    }
  }
}
