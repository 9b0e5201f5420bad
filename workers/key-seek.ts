/**
 * The page's "Go to" a key, in a decoder worker: the key's first row looked up through the B-tree of
 * the index the view reads (TableReader.lookup, src/core/readers/key-lookup.ts), reading only the
 * pages on the path from the root: one per level for a whole key. What goes back is where the row
 * is (its leaf page, and its cells, by which the page finds it among that leaf's rows as its grid
 * decodes them), the pages read and the time taken; or that no row has the key; or why the path
 * cannot be followed (a damaged page on it, a key part whose order is not modelled): the page then
 * searches every leaf in its pool, as it did before, and says so.
 */
import type { KeyLookup, KeyRange } from '../src/core/readers/table-reader.ts';
import { cellText } from '../src/core/values/row-batch.ts';

export interface KeySeek {
  /** The leaf page holding the key's first row in key order, and that row's cells; null when no row has the key. */
  found: { page: number; cells: (string | null)[] } | null;
  /** The pages read: the node pages from the root down, then the leaf pages. */
  path: number[];
  /** Why the path from the root could not be followed to the end (the page then scans), or null. */
  offPath: string | null;
  /** How the lookup went where it was not the plain search (a prefix key part, a collation compared by value). */
  notes: string[];
  /** Milliseconds the lookup took in the worker. */
  ms: number;
}

export interface KeySeekMethods {
  /**
   * The first row whose key (the view's index: its key parts from the first, as text) equals
   * `values`, through the B-tree. Rejects with an Error saying why for a key that is not one of the
   * index's (too many parts, a value its column cannot hold).
   */
  seekKey(values: string[]): Promise<KeySeek>;
}

/** Looks `values` up with `lookup` (the open table's, or null when it has none: a partitioned view). */
export async function seekKey(lookup: ((range: KeyRange) => KeyLookup) | null, values: readonly string[]): Promise<KeySeek> {
  if (lookup === null) throw new Error('a partitioned table is searched partition by partition, not through one B-tree');
  const started = performance.now();
  const found = lookup({ from: values, to: values });
  let hit: KeySeek['found'] = null;
  for await (const batch of found.batches(undefined, { pathOnly: true })) {
    if (batch.rows === 0) continue;
    const cells: (string | null)[] = [];
    for (let c = 0; c < batch.cols; c++) cells.push(cellText(batch, 0, c));
    hit = { page: found.path[found.path.length - 1], cells };
    break;
  }
  return { found: hit, path: found.path.slice(), offPath: found.offPath, notes: found.notes.slice(), ms: performance.now() - started };
}
