/**
 * A worker thread of `ibd-reader DIR -o OUTDIR` (datadir-threads.ts): reads the groups of small
 * tables of a system tablespace it is sent, one table after another through its own handles on the
 * data files, each as the main thread would (datadir-table.ts), and sends back each table's line of
 * tables.tsv with its output held whole (the main thread writes the file), or `wide` for a table of
 * so many leaves that every thread should decode it (the main thread then reads it).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDefinedTable } from '../lib/innodb-table.ts';
import { dataFilesOf } from '../node/data-files.ts';
import { PARALLEL_MIN_PAGES } from '../node/pool.ts';
import { readRows, type RowsRun } from './datadir-table.ts';
import type { GroupReply, GroupRequest, SmallRead, SmallTable, TablesWorkerStart } from './datadir-threads.ts';
import { TableFiles } from './table-file.ts';

const start = workerData as TablesWorkerStart;
const port = parentPort;
if (port === null) throw new Error('datadir-worker must run as a worker thread');
const source = dataFilesOf(start.paths);
/** The output of the table being read, when held whole (TableFiles: else streamed to its file here). */
let held: Uint8Array | null = null;
const run: RowsRun = { out: start.out, format: start.format, jsonStrings: start.jsonStrings, threads: 1, files: new TableFiles((_, bytes) => (held = bytes)) };

async function readTable(t: SmallTable): Promise<{ read: SmallRead; bytes: Uint8Array | null }> {
  const { line } = t;
  held = null;
  try {
    const table = await openDefinedTable(await source, t.definition, { target: t.target, timeZone: start.timeZone, systemColumns: start.systemColumns, keys: start.keys });
    if ((await table.reader.leafPages().catch(() => [])).length >= PARALLEL_MIN_PAGES) return { read: 'wide', bytes: null };
    await readRows(run, table, start.paths, line, t.path);
  } catch (e) {
    line.problems.push(`not read: ${(e as Error).message}`);
    line.status = 1;
  }
  // Set by the TableFiles sink as the table's output ended (TypeScript cannot see the callback assign it).
  const bytes = held as Uint8Array | null;
  return { read: { line, size: bytes?.length ?? null }, bytes };
}

/** The groups one after another: `held` is the table in hand's. */
let previous: Promise<unknown> = Promise.resolve();

/** The group's tables read, their outputs put one after another in one buffer (GroupReply). */
async function readGroup(request: GroupRequest): Promise<GroupReply & { bytes: Uint8Array<ArrayBuffer> }> {
  const results: SmallRead[] = [];
  const outputs: Uint8Array[] = [];
  for (const t of request.tables) {
    const { read, bytes } = await readTable(t);
    results.push(read);
    if (bytes !== null) outputs.push(bytes);
  }
  const bytes = new Uint8Array(outputs.reduce((n, o) => n + o.length, 0));
  let at = 0;
  for (const o of outputs) {
    bytes.set(o, at);
    at += o.length;
  }
  return { id: request.id, results, bytes };
}

port.on('message', (request: GroupRequest) => {
  previous = previous.then(() => readGroup(request)).then(
    (reply) => port.postMessage(reply, [reply.bytes.buffer]),
    (e: unknown) => port.postMessage({ id: request.id, error: e instanceof Error ? e.message : String(e) } satisfies GroupReply),
  );
});
