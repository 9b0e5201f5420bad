/**
 * A Node worker thread of the CLI's pool: opens the table once, then decodes the runs of leaf pages
 * it is sent and posts each back with its buffers transferred (no copy): as a batch, or, for CSV
 * output, as the run's CSV bytes, so that formatting is spread over the workers too instead of
 * leaving it all to the main thread (a quarter of the work, and the main thread shares the cores);
 * or, for --count, as the rows of each page of the run (TableReader.countLeaves: checksums make a
 * count's work, and they spread over the cores too); or, for --format parquet, as the run's own
 * Parquet row groups (parquet-pages.ts), the encoding spread over the cores too. With --where, the
 * batches and Parquet runs hold only the rows it keeps (filtered where they are decoded).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { IbdError } from '../core/errors.ts';
import { batchBuffers, type RowBatch } from '../core/values/row-batch.ts';
import type { TableDef } from '../core/schema.ts';
import { openTable, type OpenOptions, type TableReader } from '../core/readers/table-reader.ts';
import { csvBuffers, csvPages, type CsvBuffers } from '../core/writers/csv-pages.ts';
import { parquetPages, type ParquetRun, type ParquetRunSpec } from '../core/writers/parquet-pages.ts';
import { whereFilter, type BatchFilter, type RowWhere } from '../core/readers/where.ts';
import { dataFilesOf } from './data-files.ts';
import { servedFile, type ServedBytes, type ServedFile, type Supplied } from './recovered-pages.ts';

export interface RunRequest {
  id: number;
  pages: number[];
  first: boolean;
  /** A recovered file's chunks holding the pages, read by the main thread (recovered-pages.ts). */
  supplied?: Supplied[];
}

/** A CSV run's buffer given back by the main thread once written (NodePool.give): the next runs' CSV is made in it. */
export interface GiveBack {
  give: ArrayBuffer;
}

export interface WorkerError {
  message: string;
  file?: string;
  detail?: string;
  page?: number | null;
  record?: number | null;
}

/** What the workers hand back per run: the decoded batch, its CSV lines, its pages' row counts, or its Parquet row groups. */
export type RunOutput = 'batch' | 'csv' | 'count' | 'parquet';

/** Reads of a count run (one read per run of 16 KB pages, as the CLI's single-thread count). */
const COUNT_READ_BYTES = 4 << 20;

/** What a worker is started with: the data files, the table, how to open it, what to make of each run (`parquet`: with what). */
export interface WorkerStart {
  paths: readonly string[];
  table: TableDef;
  options: OpenOptions;
  output: RunOutput;
  parquet?: ParquetRunSpec;
  /** --where: the rows of `batch` and `parquet` runs kept, the others filtered out here. */
  where?: RowWhere;
  /** The file as its datadir's redo log rolls it forward: read through the main thread, which applies the log (recovered-pages.ts). */
  served?: ServedFile;
}

const { paths, table, options, output, parquet, where, served } = workerData as WorkerStart;
const port = parentPort;
if (port === null) throw new Error('decode-worker must run as a worker thread');
const recovered = served === undefined ? null : servedFile(served, port);
const reader = (recovered === null ? dataFilesOf(paths) : Promise.resolve(recovered.source)).then((source) => openTable(source, table, options));
/** The filter of --where (a collation's weights may be loaded first), made once for every run. */
const keep: Promise<BatchFilter | undefined> = where === undefined ? Promise.resolve(undefined) : reader.then((r) => whereFilter(where, r.columns, table.columns));

/** CSV runs decode into reused buffers: a builder and a CSV buffer per run in progress. */
const buffers: CsvBuffers[] = [];
/** CSV buffers the main thread gave back (GiveBack), and the size of the last one made here. */
const spare: ArrayBuffer[] = [];
let csvBytes = 0;

async function csvRun(r: TableReader, request: RunRequest): Promise<Uint8Array<ArrayBuffer>> {
  const mine = buffers.pop() ?? csvBuffers(r.columns.length);
  try {
    // The last run's CSV buffer went with it: one given back, else one as large (not grown step by step).
    if (mine.csv.byteLength === 0) mine.csv = new Uint8Array(spare.pop() ?? new ArrayBuffer(csvBytes));
    const bytes = (await csvPages(r, request.pages, request.first, mine)).csv;
    csvBytes = Math.max(csvBytes, mine.csv.byteLength);
    // Transferred as it is, no copy: the main thread gives its buffer back once it has written it.
    return bytes;
  } finally {
    buffers.push(mine);
  }
}

async function runOutput(r: TableReader, request: RunRequest): Promise<RowBatch | Uint8Array<ArrayBuffer> | Int32Array<ArrayBuffer> | ParquetRun> {
  if (output === 'csv') return csvRun(r, request);
  if (output === 'count') return r.countLeaves(request.pages, { exact: true, readBytes: COUNT_READ_BYTES });
  if (output === 'parquet') {
    if (parquet === undefined) throw new Error('a Parquet worker needs its output columns');
    return parquetPages(r, table, request.pages, request.first, parquet, await keep);
  }
  const batch = await r.decodePages(request.pages, { first: request.first });
  const filter = await keep;
  return filter === undefined ? batch : filter(batch);
}

port.on('message', (request: RunRequest | GiveBack | ServedBytes) => {
  if ('read' in request) {
    recovered?.answered(request);
    return;
  }
  if ('give' in request) {
    spare.push(request.give);
    return;
  }
  const supplied = request.supplied ?? [];
  for (const s of supplied) recovered?.supplied.add(s);
  void reader
    .then(async (r) => {
      const batch = await runOutput(r, request);
      const buffers = batch instanceof Uint8Array || batch instanceof Int32Array ? [batch.buffer] : 'part' in batch ? [batch.bytes.buffer] : batchBuffers(batch);
      port.postMessage({ id: request.id, batch, stats: r.stats }, buffers);
    })
    .catch((e: unknown) => {
      const error: WorkerError = e instanceof IbdError
        ? { message: e.message, file: e.file, detail: e.detail, page: e.page, record: e.record }
        : { message: e instanceof Error ? e.message : String(e) };
      port.postMessage({ id: request.id, error });
    })
    .finally(() => {
      for (const s of supplied) recovered?.supplied.delete(s);
    });
});
