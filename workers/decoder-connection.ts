/**
 * The page's end of a decoder worker: starts workers/decoder.worker.ts and wraps it with comlink into
 * a typed `Remote<DecoderApi>` (decoder-api.ts). Page side only; apart from the contract, so that the
 * worker, which implements that contract, does not import what starts it.
 */
import * as Comlink from 'comlink';
import type { DecoderApi } from './decoder-api.ts';

export interface DecoderConnection {
  api: Comlink.Remote<DecoderApi>;
  /** Hard stop: kills the worker at once, wherever it is (Cancel of an export, a table closed). */
  terminate(): void;
}

/** Starts a decoder worker and wraps it. */
export function connectDecoder(): DecoderConnection {
  const worker = new Worker(new URL('./decoder.worker.ts', import.meta.url), {
    type: 'module',
    name: 'ibd-decoder',
  });
  const api = Comlink.wrap<DecoderApi>(worker);
  return {
    api,
    terminate() {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}
