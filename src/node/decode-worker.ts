/**
 * A Node worker thread of the CLI's pool: opens the table once, then decodes the runs of leaf pages
 * it is sent and posts each batch back with its buffers transferred (no copy).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { IbdError } from '../core/errors.ts';
import { batchBuffers } from '../core/row-batch.ts';
import type { TableDef } from '../core/schema.ts';
import { openTable, type OpenOptions } from '../core/table-reader.ts';
import { fileSource } from './file-source.ts';

export interface RunRequest {
  id: number;
  pages: number[];
  first: boolean;
}

export interface WorkerError {
  message: string;
  file?: string;
  detail?: string;
  page?: number | null;
  record?: number | null;
}

const { path, table, options } = workerData as { path: string; table: TableDef; options: OpenOptions };
const port = parentPort;
if (port === null) throw new Error('decode-worker must run as a worker thread');
const reader = fileSource(path).then((source) => openTable(source, table, options));

port.on('message', (request: RunRequest) => {
  void reader
    .then((r) => r.decodePages(request.pages, { first: request.first }).then((batch) => ({ batch, stats: r.stats })))
    .then(({ batch, stats }) => port.postMessage({ id: request.id, batch, stats }, batchBuffers(batch)))
    .catch((e: unknown) => {
      const error: WorkerError = e instanceof IbdError
        ? { message: e.message, file: e.file, detail: e.detail, page: e.page, record: e.record }
        : { message: e instanceof Error ? e.message : String(e) };
      port.postMessage({ id: request.id, error });
    });
});
