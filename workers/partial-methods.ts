/**
 * Worker methods for the page's partial rows (core/readers/partial-rows.ts): the rows of the open
 * table's lost or damaged clustered leaf pages, made from its secondary indexes' entries; a
 * partitioned table's, partition after partition, each from its own indexes (they hold its rows
 * only), the rows ending with the partition's name as the view's do. They are
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
import { PARTITION_COLUMN } from '../src/lib/partitioned-table.ts';
import { PartitionView } from './partition-view.ts';
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
  /** A partitioned table's: each partition's lost or damaged leaf pages (none for one table). */
  lostIn: { partition: string; pages: number[] }[];
  /** Per secondary index read, how many partial rows took columns from it. */
  byIndex: { index: string; rows: number }[];
  /** Why no partial row could be made, or what was read with doubt. */
  notes: string[];
}

/** A secondary index's live entries, and whether every leaf of it was read (none lost or damaged). */
export interface IndexEntries {
  index: string;
  entries: number;
  complete: boolean;
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
   * lists without decoding them (leaf-counts.ts). Every live row has an entry in each index, so a
   * complete index's count less the table's intact live rows is the number of the lost leaves' live
   * rows, at most what partial rows can give back; an index with leaves lost or damaged bounds nothing.
   */
  indexEntries(): Promise<IndexEntries[]>;
}

/** A tree the partial rows are read from: the table's file or a partition's, and the view's name of its leaf page `page`. */
interface PartialFile {
  source: ByteSource;
  partition: string | null;
  leaf(page: number): number;
  target?: { index: ViewSpec['index']; raw: ViewSpec['raw'] };
}

/** The table's file, or each partition's (its leaves numbered across the partitions as the view has them: partition-view.ts). */
async function filesOf(spec: ViewSpec, source: ByteSource): Promise<PartialFile[]> {
  if (!spec.partitions?.length) return [{ source, partition: null, leaf: (page) => page, target: { index: spec.index, raw: spec.raw } }];
  const view = await PartitionView.open({ ...spec, mode: 'live', indexName: undefined, partial: undefined });
  await view.leafPages();
  return view.files().map((f) => ({ source: f.source, partition: f.name, leaf: f.leaf }));
}

async function read(open: { spec: ViewSpec; source: ByteSource }): Promise<{ result: PartialResult; cells: (string | null)[][]; pages: number[] }> {
  const { spec, source } = open;
  if (spec.indexName !== undefined) {
    return { result: { columns: [], rows: [], absent: [], lostPages: [], lostIn: [], byIndex: [], notes: ['partial rows are read for a table\u2019s clustered index, not a secondary index read'] }, cells: [], pages: [] };
  }
  const base = { rows: 'live' as const, keys: spec.keys, timeZone: spec.timeZone };
  const result: PartialResult = { columns: [], rows: [], absent: [], lostPages: [], lostIn: [], byIndex: [], notes: [] };
  const cells: (string | null)[][] = [];
  const pages: number[] = [];
  const byIndex = new Map<string, number>();
  for (const file of await filesOf(spec, source)) {
    const clustered = await openDefinedTable(file.source, spec.table, { ...base, target: file.target });
    const own = [...clustered.reader.columns.filter((c) => c !== ROW_STATE_COLUMN), ROW_STATE_COLUMN];
    const index = async (name: string) => (await openDefinedTable(file.source, spec.table, { ...base, index: name })).reader;
    const found = await partialRows(spec.table, clustered.reader, index, own);
    // A partition's rows name it before their state, as the view's rows do (its `_partition`, then `_row_state`).
    const named = (row: (string | null)[]) => (file.partition === null ? row : [...row.slice(0, -1), file.partition, ...row.slice(-1)]);
    result.columns = file.partition === null ? own : [...own.slice(0, -1), PARTITION_COLUMN, ROW_STATE_COLUMN];
    // The page's copy: an absent cell is null here and named by `absent`, never the mark's text (its position is before the partition's).
    found.rows.forEach((row, r) => result.rows.push(named(row.map((cell, c) => (found.absent[r].includes(c) ? null : cell)))));
    result.absent.push(...found.absent);
    cells.push(...found.rows.map(named));
    const leaves = new Map<number, number>();
    for (const page of found.pages) if (!leaves.has(page)) leaves.set(page, file.leaf(page));
    pages.push(...found.pages.map((page) => leaves.get(page) ?? -1));
    result.lostPages.push(...found.lostPages);
    if (file.partition !== null && found.lostPages.length > 0) result.lostIn.push({ partition: file.partition, pages: found.lostPages });
    result.notes.push(...found.notes.map((n) => (file.partition === null ? n : `${file.partition}: ${n}`)));
    for (const [name, n] of found.byIndex) byIndex.set(name, (byIndex.get(name) ?? 0) + n);
  }
  result.byIndex = [...byIndex].map(([name, n]) => ({ index: name, rows: n }));
  return { result, cells, pages };
}

/** Each secondary index's live entries, in every partition (no FULLTEXT or SPATIAL index: partial-rows.ts reads neither). */
async function indexEntries(open: { spec: ViewSpec; source: ByteSource }): Promise<IndexEntries[]> {
  const { spec, source } = open;
  if (spec.indexName !== undefined) return [];
  const files = await filesOf(spec, source);
  const out: IndexEntries[] = [];
  for (const index of spec.table.indexes) {
    if (index.kind === 'fulltext' || index.kind === 'spatial' || isClusteredIndex(spec.table, index)) continue;
    try {
      let entries = 0;
      let complete = true;
      for (const file of files) {
        const { reader } = await openDefinedTable(file.source, spec.table, { rows: 'live', keys: spec.keys, timeZone: spec.timeZone, index: index.name });
        const counts = await reader.countLeaves(await reader.leafPages());
        entries += counts.reduce((n, c) => n + Math.max(0, c), 0);
        const s = reader.stats;
        complete &&= counts.every((c) => c >= 0) && s.pagesSkipped + s.damagedPages + s.recordsFailed === 0;
      }
      out.push({ index: index.name, entries, complete });
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
