/**
 * Runs numbered jobs concurrently while their results are consumed strictly in order: job i's result
 * is handed to `consume` only after jobs 0..i-1's were. At most `ahead` jobs are started beyond the
 * one being consumed, so a slow consumer (a disk) holds back the work instead of letting results pile
 * up in memory. Used for exports (bytes must reach the file in key order), counting and search (row
 * numbers are prefix sums). No DOM: unit-tested in Node.
 */
export interface OrderedOptions {
  /** Jobs started but not yet consumed, at most (≥ 1). */
  ahead: number;
  signal?: AbortSignal;
}

export async function runOrdered<T>(
  count: number,
  job: (index: number) => Promise<T>,
  consume: (result: T, index: number) => void | Promise<void>,
  options: OrderedOptions,
): Promise<void> {
  const pending = new Map<number, Promise<T>>();
  let next = 0;
  const launch = (upTo: number): void => {
    while (next < count && next < upTo && !options.signal?.aborted) {
      const p = job(next);
      // Errors surface when the job's turn comes; until then they must not be "unhandled".
      p.catch(() => undefined);
      pending.set(next++, p);
    }
  };
  for (let i = 0; i < count; i++) {
    options.signal?.throwIfAborted();
    launch(i + Math.max(1, options.ahead));
    const result = await (pending.get(i) as Promise<T>);
    pending.delete(i);
    options.signal?.throwIfAborted();
    await consume(result, i);
  }
}

/** Cuts `total` items into consecutive runs: the first `first` long (quick first results), the rest `size`. */
export function runBounds(total: number, size: number, first = size): [number, number][] {
  const out: [number, number][] = [];
  let at = 0;
  let len = Math.max(1, Math.min(first, size));
  while (at < total) {
    out.push([at, Math.min(total, at + len)]);
    at += len;
    len = size;
  }
  return out;
}
