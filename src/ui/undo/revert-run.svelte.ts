/**
 * "Revert SQL" in the Transactions view: the statements that put back what one transaction changed
 * in a table (the CLI's --revert-trx N --format sql, the same core writer: workers/undo-methods.ts
 * revertSql), downloaded like an export (streamed through the service worker, else one Blob). It
 * runs in a decoder worker of its own, which reads the table's whole history and is ended when it
 * is done (or cancelled: terminated at once, the partial file dropped).
 */
import * as Comlink from 'comlink';
import type { RevertDone, UndoBlobs, ViewSpec } from '../../../workers/decoder-api.ts';
import { connectDecoder, type DecoderConnection } from '../../../workers/decoder-connection.ts';
import { describeError } from '../format.ts';
import { downloadTarget, exportFileName, streamTarget, type SaveTarget } from '../export/export.ts';

export interface RevertProgress {
  table: string;
  trxId: number;
  fileName: string | null;
  state: 'running' | 'done' | 'cancelled' | 'error';
  bytes: number;
  done: RevertDone | null;
  error: string | null;
}

export class RevertRun {
  progress = $state.raw<RevertProgress | null>(null);
  #conn: DecoderConnection | null = null;
  #target: SaveTarget | null = null;
  /** Ends the wait for a worker cancel terminated (a dead worker never answers). */
  #stop: (() => void) | null = null;

  get running(): boolean {
    return this.progress?.state === 'running';
  }

  /** Writes the revert of `trxId`'s changes to the table `spec` opens (its file, definition, keys); `label` names the file and progress (a partition's name). */
  async start(spec: ViewSpec, files: UndoBlobs, trxId: number, label = spec.table.name): Promise<void> {
    if (this.running) return;
    const table = label;
    let progress: RevertProgress = { table, trxId, fileName: null, state: 'running', bytes: 0, done: null, error: null };
    const set = (p: Partial<RevertProgress>) => {
      if (this.progress === progress) this.progress = progress = { ...progress, ...p };
    };
    this.progress = progress;
    const conn = connectDecoder();
    this.#conn = conn;
    try {
      const fileName = exportFileName(`${table}.revert-${trxId}`, 'sql');
      const target = (await streamTarget(fileName, 'sql', () => this.cancel())) ?? downloadTarget(fileName, 'sql');
      this.#target = target;
      set({ fileName: target.fileName });
      let bytes = 0;
      const sink = Comlink.proxy(async (chunk: Uint8Array<ArrayBuffer>) => {
        bytes += chunk.byteLength;
        await target.write(chunk);
        set({ bytes });
      });
      const stopped = new Promise<never>((_, reject) => (this.#stop = () => reject(new Error('cancelled'))));
      const done = await Promise.race([conn.api.revertSql({ files, trxId, ibd: spec.ibd, name: spec.name, table: spec.table, keys: spec.keys }, sink), stopped]);
      await target.finish();
      set({ state: 'done', done, bytes });
    } catch (err) {
      if (this.progress !== progress) return;
      await this.#target?.abort();
      set({ state: 'error', error: describeError(err) });
    } finally {
      conn.terminate();
      if (this.#conn === conn) this.#conn = null;
      this.#target = null;
      this.#stop = null;
    }
  }

  /** Stops at once: the worker is terminated and the partial file dropped. */
  cancel(): void {
    if (!this.running || !this.progress) return;
    this.#conn?.terminate();
    void this.#target?.abort();
    this.progress = { ...this.progress, state: 'cancelled' };
    this.#stop?.();
  }

  dismiss(): void {
    if (!this.running) this.progress = null;
  }
}
