/**
 * One export at a time, in a pool of workers of its own (pool.ts): the leaf pages (known from the
 * view) are cut into runs, each worker decodes a run and formats it (CSV / NDJSON / SQL) into a Blob
 * (or, for a streamed download, bytes) — for Parquet, encodes it into row groups of its own, which
 * the page lays out in the file (ParquetLayout) and a worker ends with the footer —
 * and the runs are written to a SaveTarget (export.ts) strictly in key order, with a bounded number in
 * flight (ordered.ts), so memory stays flat whatever the table size. Progress is counted in rows
 * against the exact row count, with rows/s and the time left. Cancel terminates every worker of the
 * pool at once (no waiting for them to notice) and drops the partial output.
 */
import * as Comlink from 'comlink';
import type { ExportOptions, ViewSpec } from '../../../workers/viewer-api.ts';
import { saveBlob, type ExportFormat, type SaveTarget } from './export.ts';
import { alignedBounds } from '../../core/readers/parallel.ts';
import { describeNotHeld, ParquetLayout } from '../../core/writers/parquet-row-groups.ts';
import { runOrdered } from '../ordered.ts';
import { PoolStopped, poolSize, WorkerPool } from '../pool.ts';
import { describeError } from '../format.ts';
import type { SortProgress } from '../grid/sort-rows.ts';
import { runOptions, runOrder, writeSorted, type ExportOrder } from './export-order.ts';

/**
 * Leaf pages per run: 4 MiB of 16K pages, read at once (TableReader.decodePages reads a run with one
 * read): in Chromium a Blob read costs far more than its bytes (LINEITEM's export went from ~14 s to
 * ~11-12 s when runs of 128 pages read in 1 MiB chunks became one read of 512 pages). A streamed
 * download holds the runs in flight in the page, so they are half that: as fast (LINEITEM 14.5-14.9 s
 * either way) and ~50 MB less at the peak.
 */
const RUN_PAGES = 256;
/**
 * A Parquet run is a row group (or, for small rows, a few of ROW_GROUP_ROWS): larger groups than
 * RUN_PAGES would make (LINEITEM: ~55 000 rows), held one per worker (its values and its bytes).
 */
const PARQUET_RUN_PAGES = 512;

export interface ExportProgress {
  format: ExportFormat;
  table: string;
  /** The table it was started from (TableEntry.key). */
  owner: string;
  fileName: string;
  target: SaveTarget['kind'];
  state: 'running' | 'finishing' | 'done' | 'cancelled' | 'error';
  rows: number;
  /** Rows the table holds (from the summary), when known. */
  total: number | null;
  bytes: number;
  elapsedMs: number;
  /** Rows per second over the run so far. */
  rate: number;
  /** Estimated milliseconds left, when the total is known. */
  etaMs: number | null;
  error: string | null;
  /** What the rows are besides the view's (the rows of damaged pages left out or in), for the end. */
  note: string | null;
  /** An export of sorted rows sorts them first: how far that got (null when not sorting). */
  sorting: SortProgress | null;
}

export interface ExportJob {
  /** The table as the view opened it (file, definition, row mode, keys). */
  spec: ViewSpec;
  /** Its leaf pages in key order. */
  leaves: Int32Array;
  total: number | null;
  options: ExportOptions;
  target: SaveTarget;
  note: string | null;
  /** The grid's rows only (a filter's matches, a sort), when not all rows in key order. */
  order?: ExportOrder;
  /** The table it is started from (TableEntry.key). */
  owner: string;
}

class Cancelled extends Error {}

export class ExportRun {
  progress = $state.raw<ExportProgress | null>(null);
  #pool: WorkerPool | null = null;
  #target: SaveTarget | null = null;
  #reject: ((err: Error) => void) | null = null;

  get running(): boolean {
    return this.progress?.state === 'running' || this.progress?.state === 'finishing';
  }

  async start(job: ExportJob): Promise<void> {
    if (this.running) throw new Error('An export is already running.');
    const started = performance.now();
    const base: ExportProgress = {
      format: job.options.format,
      table: job.spec.table.name,
      owner: job.owner,
      fileName: job.target.fileName,
      target: job.target.kind,
      state: 'running',
      rows: 0,
      total: job.total,
      bytes: 0,
      elapsedMs: 0,
      rate: 0,
      etaMs: null,
      error: null,
      note: job.note,
      sorting: null,
    };
    this.progress = base;
    this.#target = job.target;
    // A Parquet run holds a row group's values while it encodes them: one at a time per worker.
    const parquet = job.options.format === 'parquet' ? new ParquetLayout() : null;
    const pool = new WorkerPool(poolSize(), parquet ? 1 : 2);
    this.#pool = pool;
    const gen = pool.setSpec(job.spec);
    let bytes = 0;
    let notHeld: string[] = [];
    let lastShown = 0;
    const update = (rows: number, force = false, sorting: SortProgress | null = null) => {
      // A chunk that was on its way when the export was cancelled must not bring it back to life.
      if (this.progress?.state !== 'running' && this.progress?.state !== 'finishing') return;
      const now = performance.now();
      if (!force && now - lastShown < 100) return;
      lastShown = now;
      const elapsedMs = now - started;
      const rate = elapsedMs > 0 ? (rows / elapsedMs) * 1000 : 0;
      const etaMs = job.total !== null && rate > 0 ? Math.max(0, ((job.total - rows) / rate) * 1000) : null;
      this.progress = { ...this.progress, rows, bytes, elapsedMs, rate, etaMs, sorting };
    };
    const cancelled = new Promise<never>((_, reject) => {
      this.#reject = reject;
    });
    try {
      const write = async (chunk: Blob | Uint8Array<ArrayBuffer>) => {
        const size = chunk instanceof Blob ? chunk.size : chunk.byteLength;
        if (size === 0) return;
        await job.target.write(chunk);
        bytes += size;
      };
      // A streamed download takes the bytes themselves; other targets, Blobs made in the workers.
      const as = job.target.kind === 'stream' ? 'bytes' : 'blob';
      const work = (async (): Promise<number> => {
        const { options } = job;
        const order = job.order ?? null;
        await write(await pool.run((api) => api.exportEdge(options, 'head'), 'low', gen));
        let rows = 0;
        if (order?.sort && !order.sort.key) {
          const sorted = { ...order, sort: order.sort };
          rows = await writeSorted({ pool, gen, leaves: job.leaves, order: sorted, options, as, write, onRows: (n, sorting) => update(n, false, sorting) });
          await write(await pool.run((api) => api.exportEdge(options, 'tail'), 'low', gen));
          return rows;
        }
        // Aligned with the runs' reads: no two workers read the same part of the file.
        const runs = alignedBounds(job.leaves, parquet ? PARQUET_RUN_PAGES : RUN_PAGES);
        const nth = runOrder(order, runs.length);
        const each = runOptions(options, order);
        await runOrdered(
          runs.length,
          (i) => pool.run((api) => {
            // The run's bytes go into a buffer the stream gave back, if there is one (no new memory).
            const spare = job.target.spare?.();
            const [from, to] = runs[nth(i)];
            return api.exportLeaves(job.leaves.slice(from, to), from === 0, each, as, spare && Comlink.transfer(spare, [spare]));
          }, 'low', gen),
          async (run) => {
            await write(run.data);
            rows += run.rows;
            if (run.parquet) {
              parquet?.place(run.parquet);
              notHeld = parquet?.notHeld().map(describeNotHeld) ?? [];
            }
            update(rows);
          },
          // Parquet: a row group per worker in flight, none waiting.
          { ahead: parquet ? pool.size : pool.size * pool.slots + 2 },
        );
        await write(await pool.run((api) => api.exportEdge(options, 'tail', parquet?.groups()), 'low', gen));
        return rows;
      })();
      const rows = await Promise.race([work, cancelled]);
      this.progress = { ...this.progress, state: 'finishing' };
      await job.target.finish();
      // A CSV for LOAD DATA: its statement beside it, `name.load.sql`.
      if (job.options.csv?.loadData) {
        const csvFile = job.target.fileName;
        saveBlob(new Blob([await pool.run((api) => api.loadDataStatement(csvFile), 'low', gen)]), csvFile.replace(/\.csv$/i, '') + '.load.sql');
      }
      update(rows, true);
      this.progress = { ...this.progress, state: 'done', rows, bytes, note: [job.note, ...notHeld].filter((n) => n !== null).join('; ') || null };
    } catch (err) {
      if (err instanceof Cancelled || err instanceof PoolStopped) {
        this.progress = { ...(this.progress ?? base), state: 'cancelled' };
      } else {
        await job.target.abort();
        this.progress = { ...(this.progress ?? base), state: 'error', error: describeError(err) };
      }
    } finally {
      // (Cancel has already terminated it.)
      pool.terminate();
      if (this.#pool === pool) this.#pool = null;
      this.#target = null;
      this.#reject = null;
    }
  }

  /** Stops the export at once: every worker is terminated and the partial output dropped. */
  cancel(): void {
    if (!this.running) return;
    this.#pool?.terminate();
    this.#pool = null;
    void this.#target?.abort();
    this.#reject?.(new Cancelled('cancelled'));
  }

  dismiss(): void {
    if (!this.running) this.progress = null;
  }
}
