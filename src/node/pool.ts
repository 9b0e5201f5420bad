/** The CLI's worker pool: one Node worker thread per core, each a RunDecoder (see core/parallel.ts). */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { IbdError } from '../core/errors.ts';
import { mergeStats, type RunDecoder, type RunResult } from '../core/readers/parallel.ts';
import type { DecodeStats, OpenOptions } from '../core/readers/table-reader.ts';
import type { TableDef } from '../core/schema.ts';
import type { GiveBack, RunOutput, RunRequest, WorkerError, WorkerStart } from './decode-worker.ts';
import type { RowBatch } from '../core/values/row-batch.ts';
import type { ParquetRun, ParquetRunSpec } from '../core/writers/parquet-pages.ts';
import type { RowWhere } from '../core/readers/where.ts';
import { answerRead, servedSource, suppliedChunks, type ServedRead } from './recovered-pages.ts';

/** What the workers hand back per run (RunOutput): batches, CSV bytes, row counts per page, or Parquet row groups. */
interface Outputs {
  batch: RowBatch;
  csv: Uint8Array;
  count: Int32Array;
  parquet: ParquetRun;
}

export interface NodePool<T> {
  decoders: RunDecoder<T>[];
  /** All workers' statistics so far, added up. */
  stats(): DecodeStats;
  /**
   * Gives a CSV run's buffer back to the worker that made it, once its bytes are written: that
   * worker makes its next runs' CSV in it (a megabyte's fresh buffer per run otherwise, which the
   * page faults of its first writes and this thread's garbage collector pay for).
   */
  give(buffer: ArrayBuffer): void;
  close(): Promise<void>;
}

type Reply<T> = { id: number; error: WorkerError } | ({ id: number; error?: undefined } & RunResult<T>);

/** Below this many leaf pages, starting worker threads costs more than it saves. */
export const PARALLEL_MIN_PAGES = 256;

export function startPool<O extends RunOutput>(
  workerUrl: URL, paths: readonly string[], table: TableDef, options: OpenOptions, output: O, size = availableParallelism(), parquet?: ParquetRunSpec, where?: RowWhere,
): NodePool<Outputs[O]> {
  type T = Outputs[O];
  // A file rolled forward by its datadir's log: the workers' reads are served by this thread's recovered source.
  const recovered = servedSource(paths);
  const served = recovered && { name: recovered.source.name, size: recovered.source.size, version: recovered.source.version };
  const workerData: WorkerStart = { paths, table, options, output, parquet, where, served };
  const workers = Array.from({ length: Math.max(1, size) }, () => new Worker(workerUrl, { workerData }));
  let nextId = 0;
  const latest: DecodeStats[] = [];
  /** The worker that made each CSV buffer not yet given back. */
  const madeBy = new WeakMap<ArrayBuffer, Worker>();
  const decoders = workers.map((worker, n): RunDecoder<T> => {
    const waiting = new Map<number, { resolve: (r: RunResult<T>) => void; reject: (e: Error) => void }>();
    worker.on('message', (reply: Reply<T> | ServedRead) => {
      if ('read' in reply) {
        if (recovered) void answerRead(recovered.source, reply, (answer, transfer) => worker.postMessage(answer, transfer));
        return;
      }
      const w = waiting.get(reply.id);
      if (!w) return;
      waiting.delete(reply.id);
      if (reply.error === undefined) {
        latest[n] = reply.stats;
        if (reply.batch instanceof Uint8Array) madeBy.set(reply.batch.buffer as ArrayBuffer, worker);
        w.resolve({ batch: reply.batch, stats: reply.stats });
      }
      else w.reject(toError(reply.error));
    });
    worker.on('error', (e) => {
      for (const w of waiting.values()) w.reject(e);
      waiting.clear();
    });
    return {
      async decode(pages, first) {
        const id = nextId++;
        // A recovered file's chunks holding the run go with it, read here in the order the runs are handed out.
        const supplied = recovered ? await suppliedChunks(recovered, pages) : undefined;
        return new Promise<RunResult<T>>((resolve, reject) => {
          waiting.set(id, { resolve, reject });
          worker.postMessage({ id, pages, first, supplied } satisfies RunRequest, supplied?.map((s) => s.bytes.buffer as ArrayBuffer) ?? []);
        });
      },
    };
  });
  return {
    decoders,
    stats: () => mergeStats(latest.filter((s) => s !== undefined)),
    give: (buffer) => {
      const worker = madeBy.get(buffer);
      madeBy.delete(buffer);
      worker?.postMessage({ give: buffer } satisfies GiveBack, [buffer]);
    },
    close: async () => void (await Promise.all(workers.map((w) => w.terminate()))),
  };
}

function toError(e: WorkerError): Error {
  return e.file !== undefined && e.detail !== undefined ? new IbdError(e.file, e.detail, e.page ?? null, e.record ?? null) : new Error(e.message);
}
