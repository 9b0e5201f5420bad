/**
 * The page's end of a decoder worker: starts workers/decoder.worker.ts and wraps it with comlink into
 * a typed `Remote<DecoderApi>` (decoder-api.ts). Page side only; apart from the contract, so that the
 * worker, which implements that contract, does not import what starts it.
 */
import * as Comlink from 'comlink';
import type { DatadirLog, DecoderApi } from './decoder-api.ts';
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

/**
 * Every decoder worker, running or started later (the pools', the summary's, the exports'), reads
 * each datadir's files through its own log of `logs` from now on (none: every file as it is). A
 * worker takes them before any call made after this one.
 */
export function setDatadirLogs(logs: DatadirLog[]): void {
  datadirLogs = logs;
  for (const api of running) void api.useDatadirLogs(logs);
}

/** Starts a decoder worker and wraps it. */
export function connectDecoder(): DecoderConnection {
  const worker = new Worker(workerScript(), { type: 'module', name: 'ibd-decoder' });
  const api = Comlink.wrap<DecoderApi>(worker);
  if (datadirLogs.length > 0) void api.useDatadirLogs(datadirLogs);
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
