/**
 * A table's CSV made in this thread (--threads 1, or a table too small for worker threads): its leaf
 * pages in runs, each decoded straight into CSV (csv-pages.ts) in one of two reused sets of buffers,
 * the next run's pages read while this one is decoded, and each run's CSV written while the next
 * is decoded. Nothing is allocated per run (batches and their CSV were made anew every 5,000 rows
 * before, a tenth of the time went to the garbage collector), and the disk waits on neither side.
 */
import type { Writable } from 'node:stream';
import { alignedRuns } from '../core/readers/parallel.ts';
import type { TableReader } from '../core/readers/table-reader.ts';
import { csvBuffers, csvPages } from '../core/writers/csv-pages.ts';

/** Leaf pages per run: 1 MiB of 16 KiB pages read at once, decoded in CSV_PIECE_BYTES pieces. */
const RUN_PAGES = 64;

/** Writes the CSV lines of `leaves` (key order) to `out`; a run's buffers serve again once `out` has written its CSV. */
export async function writeCsvHere(reader: TableReader, leaves: readonly number[], out: Writable): Promise<void> {
  const runs = alignedRuns(leaves, RUN_PAGES);
  const sets = [csvBuffers(reader.columns.length), csvBuffers(reader.columns.length)];
  const written: (Promise<void> | null)[] = [null, null];
  let next = runs.length > 0 ? reader.readRun(runs[0], true) : null;
  try {
    for (let i = 0; i < runs.length; i++) {
      const read = next as Promise<Awaited<ReturnType<TableReader['readRun']>>>;
      next = i + 1 < runs.length ? reader.readRun(runs[i + 1], true) : null;
      const k = i & 1;
      await written[k];
      const { csv } = await csvPages(reader, runs[i], i === 0, sets[k], read);
      written[k] = new Promise((resolve, reject) => out.write(csv, (e) => (e ? reject(e) : resolve())));
    }
    await Promise.all(written);
  } finally {
    // Stopped early (an error): the run read ahead goes back to the pool when its read ends.
    void next?.then((run) => reader.releaseRun(run), () => undefined);
  }
}
