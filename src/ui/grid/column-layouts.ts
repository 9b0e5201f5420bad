/**
 * The grid's column layouts (column-layout.svelte.ts), kept per table (its entry's key, the index and
 * the row mode: their columns differ) for the page's session, so that coming back to a table finds it
 * as it was left. Not reactive itself: a layout is made while the grid's table is derived, and each
 * layout's own fields are.
 */
import { ColumnLayout } from './column-layout.svelte.ts';

const layouts = new Map<string, ColumnLayout>();

/** The layout `key` names (made on first use). */
function columnLayout(key: string): ColumnLayout {
  let layout = layouts.get(key);
  if (!layout) {
    layout = new ColumnLayout();
    layouts.set(key, layout);
  }
  return layout;
}

/** The layout of a table entry's grid: per table, index and row mode (their columns differ). */
export function entryLayout(entry: { key: string; indexName: string | null; mode: string }): ColumnLayout {
  return columnLayout(`${entry.key}\u0000${entry.indexName ?? ''}\u0000${entry.mode}`);
}
