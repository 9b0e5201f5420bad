/**
 * The names of a file's B-trees for its summary (FileSummary.svelte): the trees in index id order are
 * the indexes in the order InnoDB creates them (index-choice.ts treeOrder: the clustered index, then
 * the definition's others in the server's key order), when the definition gives as many as the file
 * holds; else none (the trees are then shown by their ids).
 */
import { treeOrder } from '../../core/readers/index-choice.ts';
import type { TableDef } from '../../core/schema.ts';

export function indexNames(table: TableDef | null, trees: number): string[] | null {
  if (!table) return null;
  const order = treeOrder(table);
  return order.length === trees ? order : null;
}
