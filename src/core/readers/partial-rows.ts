/**
 * Partial rows: where leaf pages of the clustered index are lost (unreadable, not a leaf of the
 * index) or damaged, the rows they held are still in every secondary index of the table, each entry
 * holding the index's columns and the primary key (secondary-index.ts). This module finds the key
 * ranges the lost leaves covered — strictly between the last key of the nearest intact leaf before
 * them and the first key of the nearest intact leaf after them, in the leaf level's key order — reads
 * each secondary index's live entries (a delete-marked entry is no row) whose key falls in one, and
 * makes one row per such key, the columns of all the indexes that hold it merged: state `partial`.
 *
 * Never a wrong value without a mark: a column no index holds whole (not indexed, or indexed by a
 * prefix only) is not NULL but the mark ABSENT_CELL says it was not recovered, and which clustered
 * pages were lost; the row's state is `partial` (row-state.ts). Memory: the keys of the rows of the
 * lost pages only; the intact leaves are decoded one at a time, the indexes read as they stream.
 */
import type { IndexDef, TableDef } from '../schema.ts';
import { clusterKey } from '../records/clustered-index.ts';
import { comparePart } from '../records/key-compare.ts';
import { isClusteredIndex } from '../records/secondary-index.ts';
import { keyPart, type KeyPart } from '../values/key-values.ts';
import { cellText, type RowBatch } from '../values/row-batch.ts';
import { ROW_STATE_COLUMN } from './row-state.ts';
import { systemColumnOf } from './system-columns.ts';
import type { Row, TableReader } from './table-reader.ts';

/** How the text of every absent cell begins (the page shows such a cell of a partial row as not recovered). */
export const ABSENT_MARK = '[absent: not in any secondary index;';

/** A cell of a partial row whose column no secondary index holds: not NULL, not a value. */
export function absentCell(lostPages: readonly number[]): string {
  return `${ABSENT_MARK} clustered leaf page${lostPages.length > 1 ? 's' : ''} ${lostPages.join(', ')} lost]`;
}

/** A run of lost or damaged clustered leaves and the key range they covered (exclusive bounds; null: open). */
interface Gap {
  pages: number[];
  low: Uint8Array[] | null;
  high: Uint8Array[] | null;
}

export interface PartialRows {
  /** The rows in `columns` order, in key order. */
  rows: Row[];
  /** Per row, the positions in `columns` of its cells no index held (their text is absentCell's mark). */
  absent: number[][];
  /** Per row, the first clustered leaf page of the run of lost ones its key fell in: where it sits in key order. */
  pages: number[];
  /** The clustered leaf pages lost or damaged. */
  lostPages: number[];
  /** Per secondary index read: how many partial rows took columns from it. */
  byIndex: Map<string, number>;
  /** Why no partial row could be made, or what was read with doubt. */
  notes: string[];
}

/** Opens the table's secondary index `name` for a read of its live entries. */
export type OpenIndex = (name: string) => Promise<TableReader>;

/** One partial row being filled: its cells by table column (undefined: no index gave it). */
interface Found {
  key: Uint8Array[];
  cells: (string | null | undefined)[];
  gap: Gap;
}

/**
 * The partial rows of `table` for the output `columns` (the table's, `_row_state` last or not):
 * `clustered` is a fresh reader of the clustered index in `live` mode (its counts tell which leaves
 * are lost), `open` opens each secondary index.
 */
export async function partialRows(table: TableDef, clustered: TableReader, open: OpenIndex, columns: readonly string[]): Promise<PartialRows> {
  const result: PartialRows = { rows: [], absent: [], pages: [], lostPages: [], byIndex: new Map(), notes: [] };
  const key = clusterKey(table);
  if (key.kind === 'row_id') return note(result, 'the table has no primary key: its rows are clustered on a hidden DB_ROW_ID, which no secondary index entry can be matched to a lost page by');
  const parts = key.cols.map((k) => keyPart(column(table, k.name), k.prefix, k.descending));
  const unordered = parts.find((p) => p.order === null);
  if (unordered) return note(result, `${unordered.why}: the key ranges of the lost pages cannot be told`);
  const gaps = await lostGaps(clustered, parts);
  result.lostPages = gaps.flatMap((g) => g.pages);
  if (gaps.length === 0) return result;
  const found = new Map<string, Found>();
  for (const index of table.indexes) {
    if (index.kind === 'fulltext' || index.kind === 'spatial' || isClusteredIndex(table, index)) continue;
    await readIndex(table, index, parts, gaps, open, found, result);
  }
  const names = table.columns.filter((c) => c.generated !== 'virtual').map((c) => c.name.toLowerCase());
  const sorted = [...found.values()].sort((a, b) => compareKeys(parts, a.key, b.key));
  // The system columns (system-columns.ts) are NULL: no clustered record, no page, is behind the row.
  // (a table's own column first: one named like a system column is the table's, ours renamed)
  const at = columns.map((c) => (c === ROW_STATE_COLUMN ? null : names.includes(c.toLowerCase()) ? names.indexOf(c.toLowerCase()) : systemColumnOf(c) >= 0 ? SYSTEM_CELL : -1));
  result.rows = sorted.map((f) => at.map((i) => (i === null ? 'partial' : i === SYSTEM_CELL ? null : cellOf(f, i))));
  result.absent = sorted.map((f) => at.flatMap((i, c) => (i !== null && i !== SYSTEM_CELL && (i < 0 || f.cells[i] === undefined) ? [c] : [])));
  result.pages = sorted.map((f) => f.gap.pages[0]);
  return result;
}

/** In partialRows' column map: a system column. */
const SYSTEM_CELL = -2;

function cellOf(f: Found, at: number): string | null {
  const cell = at < 0 ? undefined : f.cells[at];
  return cell === undefined ? absentCell(f.gap.pages) : cell;
}

function note(result: PartialRows, message: string): PartialRows {
  result.notes.push(message);
  return result;
}

function column(table: TableDef, name: string): TableDef['columns'][number] {
  const c = table.columns.find((col) => col.name.toLowerCase() === name.toLowerCase());
  if (!c) throw new Error(`the primary key names column \`${name}\`, which the table does not have`);
  return c;
}

function compareKeys(parts: readonly KeyPart[], a: readonly Uint8Array[], b: readonly Uint8Array[]): number {
  for (let i = 0; i < parts.length; i++) {
    const c = comparePart(parts[i], a[i], b[i]);
    if (c !== 0) return c;
  }
  return 0;
}

/** The key of row `r` of `batch`, whose key columns are at `at`, as stored values. */
function rowKey(parts: readonly KeyPart[], batch: RowBatch, r: number, at: readonly number[]): Uint8Array[] {
  return parts.map((p, i) => p.encode(cellText(batch, r, at[i]) ?? ''));
}

function keyColumns(reader: TableReader, parts: readonly KeyPart[]): number[] {
  const names = reader.columns.map((c) => c.toLowerCase());
  return parts.map((p) => names.indexOf(p.column.name.toLowerCase()));
}

/**
 * The clustered leaves one by one, in key order: each run of lost or damaged ones (its decode counted
 * a skipped or damaged page) with the last key before it and the first key after it.
 */
async function lostGaps(clustered: TableReader, parts: readonly KeyPart[]): Promise<Gap[]> {
  const at = keyColumns(clustered, parts);
  const gaps: Gap[] = [];
  let open: Gap | null = null;
  let last: Uint8Array[] | null = null;
  const { stats } = clustered;
  for (const no of await clustered.leafPages()) {
    const before = stats.pagesSkipped + stats.damagedPages;
    const batch = await clustered.decodePages([no]);
    if (stats.pagesSkipped + stats.damagedPages > before) {
      open ??= { pages: [], low: last, high: null };
      open.pages.push(no);
    } else if (batch.rows > 0) {
      if (open !== null) {
        open.high = rowKey(parts, batch, 0, at);
        gaps.push(open);
        open = null;
      }
      last = rowKey(parts, batch, batch.rows - 1, at);
    }
  }
  if (open !== null) gaps.push(open);
  return gaps;
}

/** The gap key `k` falls in (strictly inside its bounds), by binary search over the gaps in key order. */
function gapOf(parts: readonly KeyPart[], gaps: readonly Gap[], k: readonly Uint8Array[]): Gap | null {
  let lo = 0;
  let hi = gaps.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const g = gaps[mid];
    if (g.low !== null && compareKeys(parts, k, g.low) <= 0) hi = mid - 1;
    else if (g.high !== null && compareKeys(parts, k, g.high) >= 0) lo = mid + 1;
    else return g;
  }
  return null;
}

/** Reads secondary index `index`'s live entries, adding the columns it holds whole to the rows of lost keys. */
async function readIndex(table: TableDef, index: IndexDef, parts: readonly KeyPart[], gaps: readonly Gap[], open: OpenIndex, found: Map<string, Found>, result: PartialRows): Promise<void> {
  let reader: TableReader;
  try {
    reader = await open(index.name);
    await reader.checkDefinition();
  } catch (e) {
    note(result, `index \`${index.name}\` could not be read: ${(e as Error).message}`);
    return;
  }
  const at = keyColumns(reader, parts);
  const prefixed = new Set(index.columns.filter((c) => c.prefix > 0).map((c) => c.name.toLowerCase()));
  const names = table.columns.filter((c) => c.generated !== 'virtual').map((c) => c.name.toLowerCase());
  const held = reader.columns.map((c) => (prefixed.has(c.toLowerCase()) ? -1 : names.indexOf(c.toLowerCase())));
  let used = 0;
  for await (const batch of reader.batches({ batchSize: 5000 })) {
    for (let r = 0; r < batch.rows; r++) {
      const k = rowKey(parts, batch, r, at);
      const gap = gapOf(parts, gaps, k);
      if (gap === null) continue;
      const id = k.map((v) => v.join(',')).join('/');
      let f = found.get(id);
      if (f === undefined) found.set(id, (f = { key: k, cells: new Array<undefined>(names.length), gap }));
      for (let c = 0; c < held.length; c++) if (held[c] >= 0) f.cells[held[c]] = cellText(batch, r, c);
      used++;
    }
  }
  const s = reader.stats;
  if (s.pagesSkipped + s.damagedPages + s.recordsFailed > 0) note(result, `index \`${index.name}\`: ${s.pagesSkipped} leaf pages skipped, ${s.damagedPages} damaged, ${s.recordsFailed} records unreadable; their entries give no partial row`);
  result.byIndex.set(index.name, used);
}
