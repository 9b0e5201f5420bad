/**
 * The grid's filter as a test of decoded rows, one for every place it runs in a worker (searches,
 * sorts, exports): a text filter and a key match are tested at once (search.ts); a typed filter's
 * conditions are made into a test once per worker and query (where.ts: a collation's weights may
 * have to be loaded first), kept while the same query comes run after run.
 */
import type { Column } from '../src/core/schema.ts';
import type { RowBatch } from '../src/core/values/row-batch.ts';
import { keyRows, textRows } from '../src/ui/search/search.ts';
import { compileWhere, type RowTest } from '../src/core/readers/where.ts';
import type { RowQuery } from './viewer-api.ts';

/** What a typed filter is tested against: the view's output columns, the table's columns, the zone TIMESTAMP is shown in. */
export interface FilterTable {
  columns: readonly string[];
  table: readonly Column[];
  timeZone: string;
}

/** The last typed filter made into a test, with what it was made for. */
let made: { text: string; table: readonly Column[]; columns: readonly string[]; zone: string; test: Promise<RowTest> } | null = null;

/** Appends the rows of a batch `query` matches to `out`, ascending. */
export async function rowFilter(query: RowQuery, on: FilterTable): Promise<(batch: RowBatch, out: number[]) => void> {
  if (query.kind === 'text') return (batch, out) => textRows(batch, query, out);
  if (query.kind === 'key') return (batch, out) => keyRows(batch, query, out);
  const text = JSON.stringify(query.conditions);
  if (made === null || made.text !== text || made.table !== on.table || made.columns !== on.columns || made.zone !== on.timeZone) {
    made = { text, table: on.table, columns: on.columns, zone: on.timeZone, test: compileWhere(query.conditions, on.columns, on.table, on.timeZone) };
  }
  return made.test;
}
