/**
 * The names of a file's B-trees for its summary (FileSummary.svelte): the trees in index id order are
 * the indexes in the order InnoDB creates them (index-choice.ts treeOrder: the clustered index, then
 * the definition's others in the server's key order), when the definition gives as many as the file
 * holds; else none (the trees are then shown by their ids). And the indexes the table view can show
 * the rows of (StatusBar.svelte's index chooser): the clustered index, then each secondary index.
 */
import { treeOrder } from '../../core/readers/index-choice.ts';
import { isClusteredIndex } from '../../core/records/secondary-index.ts';
import type { IndexDef, TableDef } from '../../core/schema.ts';

export function indexNames(table: TableDef | null, trees: number): string[] | null {
  if (!table) return null;
  const order = treeOrder(table);
  return order.length === trees ? order : null;
}

/** An index the grid can show: `name` null for the clustered index (the table's rows). */
export interface ShownIndex {
  name: string | null;
  label: string;
}

function partsOf(index: IndexDef): string {
  return index.columns.map((c) => `${c.name}${c.prefix > 0 ? `(${c.prefix})` : ''}${c.descending ? ' DESC' : ''}`).join(', ');
}

/**
 * The clustered index (PRIMARY, the UNIQUE key InnoDB clusters on, or the hidden row id's), then the
 * secondary indexes in the definition's order, each with its key parts; FULLTEXT indexes (their words
 * are in tables of their own) and SPATIAL ones (R-trees) aside.
 */
export function shownIndexes(table: TableDef): ShownIndex[] {
  const clustered = table.indexes.find((i) => isClusteredIndex(table, i));
  const out: ShownIndex[] = [{ name: null, label: clustered ? `${clustered.name} (${partsOf(clustered)})` : 'GEN_CLUST_INDEX (the hidden row id)' }];
  for (const index of table.indexes) {
    if (index === clustered || index.kind === 'fulltext' || index.kind === 'spatial') continue;
    out.push({ name: index.name, label: `${index.name} (${partsOf(index)})${index.kind === 'unique' ? ', unique' : ''}` });
  }
  return out;
}
