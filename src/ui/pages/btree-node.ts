/** A node of the B-tree view (BTrees.svelte): one index's level, or the whole index (level null). */
export interface BTreeNode {
  indexId: string;
  level: number | null;
}
