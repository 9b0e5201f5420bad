/**
 * The page's "Go to" a key, in a decoder worker: the key's first row looked up through the B-tree of
 * the index the view reads (TableReader.lookup, src/core/readers/key-lookup.ts), reading only the
 * pages on the path from the root: one per level for a whole key. What goes back is where the row
 * is (its leaf page, and its cells, by which the page finds it among that leaf's rows as its grid
 * decodes them), the pages read and the time taken; or that no row has the key; or why the path
 * cannot be followed (a damaged page on it, a key part whose order is not modelled): the page then
 * searches every leaf in its pool, as it did before, and says so. A partitioned table's partitions
 * each have their own B-tree: they are searched in partition order (the grid's) until one holds the
 * key, the row named by the table's leaf and its cells ending with its partition.
 */
import type { KeyLookup, KeyRange } from '../src/core/readers/table-reader.ts';
import { cellText } from '../src/core/values/row-batch.ts';

export interface KeySeek {
  /**
   * The leaf page holding the key's first row in key order, the view's leaf it is (the page itself,
   * or a partitioned table's leaf number: partition-view.ts), and that row's cells; null when no row has the key.
   */
  found: { page: number; leaf: number; cells: (string | null)[] } | null;
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

/** One B-tree a key is looked up in: a table's, or a partition's (its rows end with `partition`). */
export interface SeekTree {
  lookup(range: KeyRange): KeyLookup;
  /** The view's leaf of leaf page `page` (-1: not one of the view's leaves). */
  leaf(page: number): number;
  partition: string | null;
}

/** Looks `values` up in `trees` in turn: the first one that holds the key, or that cannot be searched, ends the search. */
export async function seekKey(trees: readonly SeekTree[], values: readonly string[]): Promise<KeySeek> {
  const started = performance.now();
  const path: number[] = [];
  const notes = trees.length > 1 ? [`the partitions' B-trees searched in partition order until one held the key`] : [];
  for (const tree of trees) {
    const found = tree.lookup({ from: values, to: values });
    let hit: KeySeek['found'] = null;
    for await (const batch of found.batches(undefined, { pathOnly: true })) {
      if (batch.rows === 0) continue;
      const cells: (string | null)[] = [];
      for (let c = 0; c < batch.cols; c++) cells.push(cellText(batch, 0, c));
      if (tree.partition !== null) cells.push(tree.partition);
      const page = found.path[found.path.length - 1];
      hit = { page, leaf: tree.leaf(page), cells };
      break;
    }
    path.push(...found.path);
    for (const note of found.notes) if (!notes.includes(note)) notes.push(note);
    if (hit !== null || found.offPath !== null) return { found: hit, path, offPath: found.offPath, notes, ms: performance.now() - started };
  }
  return { found: null, path, offPath: null, notes, ms: performance.now() - started };
}
