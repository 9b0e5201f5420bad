/**
 * The second half of a redo log's scan on a Node worker thread (core/log/redo-scan-split.ts): the
 * worker (redo-scan-worker.ts, bundled as `workerUrl`) opens the log file by its path itself.
 */
import { Worker } from 'node:worker_threads';
import type { LogStretch, LogStretchScanner } from '../core/log/redo-scan-split.ts';

/** What the worker is started with. */
export interface StretchRequest {
  path: string;
  fromLsn: number;
  spaces: number[] | null;
}

export type StretchReply = { stretch: LogStretch; error?: undefined } | { error: string };

/** A LogStretchScanner of the log file at `path`: a worker thread started for each stretch, ended with it. */
export function logStretchScanner(path: string, workerUrl: URL): LogStretchScanner {
  return (fromLsn, spaces, signal) =>
    new Promise<LogStretch>((resolve, reject) => {
      const worker = new Worker(workerUrl, { workerData: { path, fromLsn, spaces } satisfies StretchRequest });
      const stop = () => void worker.terminate();
      signal.addEventListener('abort', stop, { once: true });
      worker.once('message', (reply: StretchReply) => {
        if (reply.error === undefined) resolve(reply.stretch);
        else reject(new Error(reply.error));
        stop();
      });
      worker.once('error', reject);
      worker.once('exit', () => {
        signal.removeEventListener('abort', stop);
        reject(new Error('the redo log scan worker stopped before it answered'));
      });
    });
}
