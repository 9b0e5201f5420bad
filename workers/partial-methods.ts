/**
 * Worker methods for the page's partial rows (core/readers/partial-rows.ts): the rows of the open
 * table's lost or damaged clustered leaf pages, made from its secondary indexes' entries. They are
 * the keys of the lost pages only (memory bounded by those pages, never the table): the intact
 * leaves are decoded one at a time, the indexes streamed. Mixed into the decoder worker's API by
 * viewer-methods.ts; everything returned survives structured cloning.
 */
import { csvHeader, csvRows } from '../src/core/writers/output.ts';
import { partialRows } from '../src/core/readers/partial-rows.ts';
import { ROW_STATE_COLUMN } from '../src/core/readers/row-state.ts';
import type { ByteSource } from '../src/core/tablespace/source.ts';
import { isClusteredIndex } from '../src/core/records/secondary-index.ts';
import { openDefinedTable } from '../src/lib/innodb-table.ts';
import type { PartialGrid, ViewSpec } from './viewer-api.ts';

export interface PartialResult {
  /** The table's columns, `_row_state` last (every row says `partial`). */
  columns: string[];
  /** In key order; a cell is its text or null (NULL). */
  rows: (string | null)[][];
  /** Per row, the positions of the cells no secondary index held: not recovered, not NULL. */
  absent: number[][];
  /** The clustered leaf pages lost or damaged. */
  lostPages: number[];
  /** Per secondary index read, how many partial rows took columns from it. */
  byIndex: { index: string; rows: number }[];
  /** Why no partial row could be made, or what was read with doubt. */
  notes: string[];
}

export interface PartialMethods {
  /** The partial rows of the open table (none when no clustered leaf is lost or damaged). */
  partialRows(): Promise<PartialResult>;
  /** The same rows as CSV with the `_row_state` column, the absent cells holding the decoder's mark. */
  partialCsv(): Promise<Blob>;
  /** The same rows for the grid (ViewSpec.partial): the absent cells holding the mark, each row's lost leaf. */
  partialGrid(): Promise<PartialGrid>;
  /**
   * Before the rows are read: each secondary index's live entries, counted from its leaves' record
   * lists without decoding them (leaf-counts.ts). Every live row has an entry in each index, so an
   * index's count less the table's intact live rows is at most the rows partial rows can give back.
   */
  indexEntries(): Promise<{ index: string; entries: number }[]>;
}

async function read(open: { spec: ViewSpec; source: ByteSource }): Promise<{ result: PartialResult; cells: (string | null)[][]; pages: number[] }> {
  const { spec, source } = open;
  const empty = { columns: [], rows: [], absent: [], lostPages: [], byIndex: [], notes: [] };
  if (spec.partitions?.length || spec.indexName !== undefined) {
    return { result: { ...empty, notes: ['partial rows are read for one table\u2019s clustered index (not a partitioned table, not a secondary index read)'] }, cells: [], pages: [] };
  }
  const base = { rows: 'live' as const, keys: spec.keys, timeZone: spec.timeZone };
  const clustered = await openDefinedTable(source, spec.table, { ...base, target: { index: spec.index, raw: spec.raw } });
  const columns = [...clustered.reader.columns.filter((c) => c !== ROW_STATE_COLUMN), ROW_STATE_COLUMN];
  const index = async (name: string) => (await openDefinedTable(source, spec.table, { ...base, index: name })).reader;
  const found = await partialRows(spec.table, clustered.reader, index, columns);
  const absent = found.absent;
  // The page's copy: an absent cell is null here and named by `absent`, never the mark's text.
  const rows = found.rows.map((row, r) => row.map((cell, c) => (absent[r].includes(c) ? null : cell)));
  const result: PartialResult = {
    columns, rows, absent, lostPages: found.lostPages, notes: found.notes,
    byIndex: [...found.byIndex].map(([name, n]) => ({ index: name, rows: n })),
  };
  return { result, cells: found.rows, pages: found.pages };
}

/** Each secondary index's live entries (no FULLTEXT or SPATIAL index: partial-rows.ts reads neither). */
async function indexEntries(open: { spec: ViewSpec; source: ByteSource }): Promise<{ index: string; entries: number }[]> {
  const { spec, source } = open;
  if (spec.partitions?.length || spec.indexName !== undefined) return [];
  const out: { index: string; entries: number }[] = [];
  for (const index of spec.table.indexes) {
    if (index.kind === 'fulltext' || index.kind === 'spatial' || isClusteredIndex(spec.table, index)) continue;
    try {
      const { reader } = await openDefinedTable(source, spec.table, { rows: 'live', keys: spec.keys, timeZone: spec.timeZone, index: index.name });
      const counts = await reader.countLeaves(await reader.leafPages());
      out.push({ index: index.name, entries: counts.reduce((n, c) => n + Math.max(0, c), 0) });
    } catch {
      // An index that cannot be opened gives no partial row either (partial-rows.ts says why when they are read).
    }
  }
  return out;
}

export function createPartialMethods(opened: () => { spec: ViewSpec; source: ByteSource }): PartialMethods {
  return {
    async partialRows() {
      return (await read(opened())).result;
    },
    async partialCsv() {
      const { result, cells } = await read(opened());
      return new Blob([csvHeader(result.columns), csvRows(cells)], { type: 'text/csv' });
    },
    async partialGrid() {
      const { cells, pages } = await read(opened());
      return { rows: cells, pages };
    },
    indexEntries() {
      return indexEntries(opened());
    },
  };
}
