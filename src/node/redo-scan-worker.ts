/**
 * A Node worker thread that scans a redo log from a mini-transaction to its end (core/log/
 * redo-scan-split.ts's second half) and posts what it found, its arrays transferred: started by
 * logStretchScanner (redo-scan-thread.ts), one per scan.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { scanLogStretch } from '../core/log/redo-scan-split.ts';
import { fileSource } from './file-source.ts';
import type { StretchReply, StretchRequest } from './redo-scan-thread.ts';

const { path, fromLsn, spaces } = workerData as StretchRequest;
const port = parentPort;
if (port === null) throw new Error('redo-scan-worker must run as a worker thread');
const source = await fileSource(path);
try {
  const stretch = await scanLogStretch(source, fromLsn, spaces);
  port.postMessage({ stretch } satisfies StretchReply, [stretch.pages.buffer, stretch.runs.buffer]);
} catch (e) {
  port.postMessage({ error: e instanceof Error ? e.message : String(e) } satisfies StretchReply);
} finally {
  await source.close();
}
