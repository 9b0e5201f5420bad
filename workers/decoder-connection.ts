/**
 * The page's end of a decoder worker: starts workers/decoder.worker.ts and wraps it with comlink into
 * a typed `Remote<DecoderApi>` (decoder-api.ts). Page side only; apart from the contract, so that the
 * worker, which implements that contract, does not import what starts it.
 */
import * as Comlink from 'comlink';
import type { DatadirLog, DecoderApi } from './decoder-api.ts';
import type { LogCensus } from '../src/core/log/redo-scan.ts';
import { censusKey } from './redo-api.ts';
import decoderUrl from './decoder.worker.ts?worker&url';

export interface DecoderConnection {
  api: Comlink.Remote<DecoderApi>;
  /** Hard stop: kills the worker at once, wherever it is (Cancel of an export, a table closed). */
  terminate(): void;
}

let wrapperUrl: string | undefined;

/**
 * The script a decoder worker starts from: a blob: module that imports the worker's own chunk. A
 * worker started from a same-origin URL takes its Content-Security-Policy from that script's
 * response headers, and a static host sends none, so nothing would bind what the worker fetches;
 * a worker started from a blob: URL inherits the page's policy (index.html's <meta>), connect-src
 * 'self' included. One small Blob, made once and kept for the page's life.
 */
function workerScript(): string {
  wrapperUrl ??= URL.createObjectURL(new Blob([`import ${JSON.stringify(new URL(decoderUrl, location.href).href)};\n`], { type: 'text/javascript' }));
  return wrapperUrl;
}

/** The redo logs every decoder worker reads the dropped datadirs' files through (setDatadirLogs), and the workers running. */
let datadirLogs: DatadirLog[] = [];
const running = new Set<Comlink.Remote<DecoderApi>>();
/** Each log's census once taken (by its censusKey), handed to every worker started later too. */
const censuses = new Map<string, LogCensus | null>();
const censusing = new Set<string>();

/**
 * Every decoder worker, running or started later (the pools', the summary's, the exports'), reads
 * each datadir's files through its own log of `logs` from now on (none: every file as it is). A
 * worker takes them before any call made after this one.
 */
export function setDatadirLogs(logs: DatadirLog[]): void {
  datadirLogs = logs;
  for (const api of running) void api.useDatadirLogs(logs);
  for (const log of logs) takeCensus(log);
}

/**
 * The census of `log` (which tablespaces it changes, where in the log), taken once per page load in
 * a worker of its own (it reads the whole log: a pool's workers went on with their work meanwhile),
 * then handed to every decoder worker: each scanned the whole log itself before, and again for each
 * file. A census that cannot be taken is handed as null: each worker then reads the log itself.
 */
function takeCensus(log: DatadirLog): void {
  const key = censusKey(log);
  if (censuses.has(key) || censusing.has(key)) return;
  censusing.add(key);
  const worker = new Worker(workerScript(), { type: 'module', name: 'ibd-redo-census' });
  const api = Comlink.wrap<DecoderApi>(worker);
  const failed = new Promise<null>((resolve) => worker.addEventListener('error', () => resolve(null)));
  void Promise.race([api.redoCensus(log.log, log.keys).catch(() => null), failed]).then((census) => {
    censusing.delete(key);
    censuses.set(key, census);
    for (const each of running) void each.useRedoCensus(key, census);
    api[Comlink.releaseProxy]();
    worker.terminate();
  });
}


/** Starts a decoder worker and wraps it. */
export function connectDecoder(): DecoderConnection {
  const worker = new Worker(workerScript(), { type: 'module', name: 'ibd-decoder' });
  const api = Comlink.wrap<DecoderApi>(worker);
  if (datadirLogs.length > 0) void api.useDatadirLogs(datadirLogs);
  for (const [key, census] of censuses) void api.useRedoCensus(key, census);
  running.add(api);
  return {
    api,
    terminate() {
      running.delete(api);
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
