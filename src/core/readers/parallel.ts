/**
 * Decoding with several workers while the output stays in primary-key order: the leaf pages (known
 * up front, in key order) are cut into runs of consecutive pages, each worker decodes one run at a
 * time, and finished runs are handed out strictly in run order. Platform code (Web Workers through
 * comlink, Node worker_threads) only supplies the RunDecoders.
 */
import type { RowBatch } from '../values/row-batch.ts';
import { emptyStats, type DecodeStats } from './table-reader.ts';

/** A run's output: its rows as a batch, or already formatted (e.g. CSV bytes made in the worker). */
export interface RunResult<T = RowBatch> {
  batch: T;
  /** The worker's statistics so far (cumulative over its runs). */
  stats: DecodeStats;
}

/** One worker: decodes a run of leaf pages of the table it was opened on. */
export interface RunDecoder<T = RowBatch> {
  decode(pages: number[], first: boolean): Promise<RunResult<T>>;
}

export interface ParallelOptions {
  /** Leaf pages per run (default 64: 1 MB of 16K pages, one read). */
  runPages?: number;
  /** Runs each decoder is given at once (default 2: one to decode while the other's result is sent). */
  inFlight?: number;
  signal?: AbortSignal;
}

export function splitRuns(leaves: readonly number[], runPages: number): number[][] {
  const runs: number[][] = [];
  for (let i = 0; i < leaves.length; i += runPages) runs.push(leaves.slice(i, i + runPages));
  return runs;
}

/**
 * Runs of consecutive leaves cut where the pages cross a multiple of `runPages` (once a run holds at
 * least half that many): leaves mostly lie in ascending page order, so each run then covers one
 * aligned block of the file, and one worker reads it (a Tablespace reads 1 MB chunks, 64 pages of
 * 16 KB) instead of two workers each reading the chunk its run shares with the next.
 */
export function alignedRuns(leaves: readonly number[], runPages: number): number[][] {
  return alignedBounds(leaves, runPages).map(([from, to]) => leaves.slice(from, to));
}

/** Where alignedRuns() cuts `leaves`: [from, to) index ranges, in order. */
export function alignedBounds(leaves: ArrayLike<number>, runPages: number): [number, number][] {
  const bounds: [number, number][] = [];
  let from = 0;
  for (let i = 0; i < leaves.length; i++) {
    const length = i - from;
    const crossed = length > 0 && Math.floor(leaves[i] / runPages) !== Math.floor(leaves[i - 1] / runPages);
    if (length >= runPages || (crossed && length >= runPages / 2)) {
      bounds.push([from, i]);
      from = i;
    }
  }
  if (from < leaves.length) bounds.push([from, leaves.length]);
  return bounds;
}

/**
 * Yields the batches of all runs in order. At most two runs per worker (`inFlight`) are in flight, so
 * a slow consumer (a disk, a page) holds back decoding instead of letting batches pile up in memory.
 */
export async function* decodeInParallel<T>(leaves: readonly number[], decoders: RunDecoder<T>[], options: ParallelOptions = {}): AsyncGenerator<RunResult<T>> {
  const runs = alignedRuns(leaves, options.runPages ?? 64);
  const pending = new Map<number, Promise<RunResult<T>>>();
  const idle = Array.from({ length: options.inFlight ?? 2 }, () => decoders).flat();
  const ahead = idle.length;
  let next = 0;
  let current = 0;
  const launch = (): void => {
    while (idle.length > 0 && next < runs.length && next < current + ahead && !options.signal?.aborted) {
      const decoder = idle.pop() as RunDecoder<T>;
      const index = next++;
      const done = decoder.decode(runs[index], index === 0).finally(() => {
        idle.push(decoder);
        launch();
      });
      // Errors surface when the run's turn comes; until then they must not be "unhandled".
      done.catch(() => undefined);
      pending.set(index, done);
    }
  };
  for (let index = 0; index < runs.length; index++) {
    options.signal?.throwIfAborted();
    current = index;
    launch();
    const result = await (pending.get(index) as Promise<RunResult<T>>);
    pending.delete(index);
    yield result;
  }
}

/** Adds up the per-worker statistics (each cumulative) into one. */
export function mergeStats(all: readonly DecodeStats[], maxProblems = 1000): DecodeStats {
  const total = emptyStats();
  for (const s of all) {
    for (const key of Object.keys(total) as (keyof DecodeStats)[]) {
      if (key !== 'problems') total[key] += s[key];
    }
    total.problems.push(...s.problems.slice(0, maxProblems - total.problems.length));
  }
  total.problems.sort((a, b) => (a.page ?? -1) - (b.page ?? -1));
  return total;
}
