/**
 * One export at a time: a fresh decoder worker reads the table definition, decodes the file again
 * and streams the formatted text to a SaveTarget (export.ts). Progress is counted in rows against
 * the summary's exact row count, with rows/s and the time left. Cancel terminates the worker at
 * once (no waiting for it to notice) and drops the partial output.
 */
import * as Comlink from 'comlink';
import { connectDecoder } from '../../workers/decoder-api.ts';
import type { DecoderConnection, ExportOptions, ExportResult, NamedBlob } from '../../workers/decoder-api.ts';
import type { ExportFormat, SaveTarget } from './export.ts';
import { describeError } from './workspace.svelte.ts';

export interface ExportProgress {
  format: ExportFormat;
  table: string;
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
}

export interface ExportJob {
  ibd: File;
  /** The files that may define the table (see Workspace.schemaFiles); resolved again in the export worker. */
  schemaFiles: NamedBlob[];
  tableName: string;
  total: number | null;
  options: ExportOptions;
  target: SaveTarget;
}

class Cancelled extends Error {}

export class ExportRun {
  progress = $state.raw<ExportProgress | null>(null);
  #conn: DecoderConnection | null = null;
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
      table: job.tableName,
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
    };
    this.progress = base;
    this.#target = job.target;
    const conn = connectDecoder();
    this.#conn = conn;
    let bytes = 0;
    let lastShown = 0;
    const update = (rows: number, force = false) => {
      // A chunk that was on its way when the export was cancelled must not bring it back to life.
      if (this.progress?.state !== 'running' && this.progress?.state !== 'finishing') return;
      const now = performance.now();
      if (!force && now - lastShown < 100) return;
      lastShown = now;
      const elapsedMs = now - started;
      const rate = elapsedMs > 0 ? (rows / elapsedMs) * 1000 : 0;
      const etaMs = job.total !== null && rate > 0 ? Math.max(0, ((job.total - rows) / rate) * 1000) : null;
      this.progress = { ...this.progress, rows, bytes, elapsedMs, rate, etaMs };
    };
    const cancelled = new Promise<never>((_, reject) => {
      this.#reject = reject;
    });
    try {
      const work = (async (): Promise<ExportResult> => {
        await conn.api.resolveSchema(job.ibd, job.ibd.name, job.schemaFiles);
        const sink = Comlink.proxy({
          chunk: async (chunk: Uint8Array, rows: number) => {
            await job.target.write(chunk);
            bytes += chunk.byteLength;
            update(rows);
          },
        });
        return conn.api.exportRows(job.ibd, job.ibd.name, job.tableName, job.options, sink);
      })();
      const result = await Promise.race([work, cancelled]);
      this.progress = { ...this.progress, state: 'finishing' };
      await job.target.finish();
      update(result.rows, true);
      this.progress = { ...this.progress, state: 'done', rows: result.rows, bytes };
    } catch (err) {
      if (err instanceof Cancelled) {
        this.progress = { ...(this.progress ?? base), state: 'cancelled' };
      } else {
        await job.target.abort();
        this.progress = { ...(this.progress ?? base), state: 'error', error: describeError(err) };
      }
    } finally {
      // (Cancel has already terminated it.)
      if (this.#conn === conn) {
        conn.terminate();
        this.#conn = null;
      }
      this.#target = null;
      this.#reject = null;
    }
  }

  /** Stops the export at once: the worker is terminated and the partial output dropped. */
  cancel(): void {
    if (!this.running) return;
    this.#conn?.terminate();
    this.#conn = null;
    void this.#target?.abort();
    this.#reject?.(new Cancelled('cancelled'));
  }

  dismiss(): void {
    if (!this.running) this.progress = null;
  }
}
