/**
 * Which records of a damaged copy are certainly intact, computed from the intact file rather than
 * assumed. The intact file's leaf pages are walked record by record: each record's origin comes from
 * the page's record list (index-page.ts recordOrigins), its size from measuring it with the table's
 * clustered layout (record.ts decodeCompact / decodeRedundant with no sink: the record's total size,
 * header included), and its row from decoding that page with the library (rows come out in record
 * order), checked against the server's rows and their primary-key order.
 *
 * A record is certainly intact in a copy when its page is there and no byte of the page changed in
 * [origin − size, origin + size): that span holds the record whichever way its bytes sit around the
 * origin (header and lengths before it, data after). The tables keep every value on the leaf page
 * (see tables.ts), so a record's row needs no other page.
 */
import { clusteredLayout } from '../../src/core/records/clustered-index.ts';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { FIL_PAGE_TYPE, PageType, u16 } from '../../src/core/pages/fil-header.ts';
import { compactInfoBits, readIndexHeader, recordOrigins, redundantInfoBits, REC_INFO_DELETED, REC_INFO_MIN_REC } from '../../src/core/pages/index-page.ts';
import { decodeCompact, decodeRedundant } from '../../src/core/records/record.ts';
import { batchRows } from '../../src/core/values/row-batch.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { openTable } from '../../src/core/readers/table-reader.ts';
import { rowRecords } from './csv-records.ts';

export interface LeafRecord {
  page: number;
  /** Byte offset of the record's origin in its page. */
  origin: number;
  /** Total size in bytes, header included. */
  size: number;
  deleted: boolean;
  /** The row's CSV record, as the CLI writes it (no `_row_state`). */
  row: string;
}

export interface LeafMap {
  pageSize: number;
  /** Pages in the intact file. */
  pageCount: number;
  /** The clustered index's root page and the pages of each level, from the intact file. */
  root: number;
  /** Non-leaf, non-root pages of the index at level 1. */
  level1: number[];
  /** Leaf pages in key order. */
  leaves: number[];
  /** Every user record of every leaf page, in key order. */
  records: LeafRecord[];
}

export interface MapInput {
  bytes: Uint8Array;
  ddl: string;
  /**
   * CSV records of every row the file may hold (live or delete-marked), in primary-key order: each
   * record's row must be one, and the records of the leaf level must come in that order.
   */
  everRows: readonly string[];
}

/** Walks the intact file's leaf level; throws when the file and the server rows do not pair up exactly. */
export async function mapLeafRecords(input: MapInput): Promise<LeafMap> {
  const table = parseCreateTables(input.ddl)[0];
  const reader = await openTable(bytesSource(input.bytes, 'intact.ibd'), table, { mode: 'both' });
  const { pageSize, rootPage, indexId } = reader.info;
  const leaves = await reader.leafPages();
  const origins: number[] = [];
  const records: LeafRecord[] = [];
  const order = new Map(input.everRows.map((row, i) => [row, i]));
  let last = -1;
  for (const page of leaves) {
    const bytes = input.bytes.subarray(page * pageSize, (page + 1) * pageSize);
    const compact = readIndexHeader(bytes).compact;
    const layout = clusteredLayout(table, !compact);
    const damage = recordOrigins(bytes, compact, origins);
    if (damage !== null) throw new Error(`intact file, page ${page}: ${damage}`);
    // Rows of the page in record order, with their state (live / delete-marked) last.
    const rows = batchRows(await reader.decodePages([page])).filter((r) => r.at(-1) !== 'purged');
    const lines = rowRecords(rows.map((r) => r.slice(0, -1)));
    let k = 0;
    for (const origin of origins) {
      const info = compact ? compactInfoBits(bytes, origin) : redundantInfoBits(bytes, origin);
      if (info & REC_INFO_MIN_REC) continue;
      const size = compact ? decodeCompact(bytes, origin, layout, null, [], true) : decodeRedundant(bytes, origin, layout, null, [], true);
      const deleted = (info & REC_INFO_DELETED) !== 0;
      const row = lines[k];
      const at = order.get(row ?? '');
      if (row === undefined || at === undefined) throw new Error(`intact file, page ${page}, record at ${origin}: its row ${row ?? '(none)'} is not a server row`);
      // Paired by position, checked by key: the records' rows are the server's in primary-key order.
      if (at <= last) throw new Error(`intact file, page ${page}, record at ${origin}: its row comes before the previous record's in key order`);
      last = at;
      if ((rows[k].at(-1) === 'delete-marked') !== deleted) throw new Error(`intact file, page ${page}, record at ${origin}: the delete mark and the row state disagree`);
      records.push({ page, origin, size, deleted, row });
      k++;
    }
    if (k !== lines.length) throw new Error(`intact file, page ${page}: ${k} records but ${lines.length} rows`);
  }
  if (reader.stats.problems.length > 0) throw new Error(`the intact file has problems: ${JSON.stringify(reader.stats.problems.slice(0, 3))}`);
  const pageCount = input.bytes.length / pageSize;
  const level1: number[] = [];
  for (let p = 0; p < pageCount; p++) {
    const bytes = input.bytes.subarray(p * pageSize, (p + 1) * pageSize);
    if (p === rootPage || u16(bytes, FIL_PAGE_TYPE) !== PageType.INDEX) continue;
    const h = readIndexHeader(bytes);
    if (h.indexId === indexId && h.level === 1) level1.push(p);
  }
  return { pageSize, pageCount, root: rootPage, level1, leaves, records };
}

/** Offsets (within the page) of the bytes of page `page` that differ between the two copies; null when the copy lacks the page. */
export function changedOffsets(intact: Uint8Array, copy: Uint8Array, page: number, pageSize: number): number[] | null {
  const start = page * pageSize;
  if (start + pageSize > copy.length) return null;
  const out: number[] = [];
  for (let i = 0; i < pageSize; i++) if (intact[start + i] !== copy[start + i]) out.push(i);
  return out;
}

export interface Intactness {
  /** Records certainly intact in the copy (their page is there, no byte near them changed). */
  intact: LeafRecord[];
  /** Leaf pages of the copy identical to the intact file's. */
  undamagedLeaves: Set<number>;
  /** Leaf pages with at least one changed byte. */
  damagedLeaves: number[];
  /** Pages of the intact file the copy lacks (it is shorter). */
  missingPages: number;
}

export function intactness(map: LeafMap, intact: Uint8Array, copy: Uint8Array): Intactness {
  const changed = new Map<number, number[] | null>();
  for (const page of map.leaves) changed.set(page, changedOffsets(intact, copy, page, map.pageSize));
  const near = (r: LeafRecord, offsets: readonly number[]) => offsets.some((o) => o >= r.origin - r.size && o < r.origin + r.size);
  return {
    intact: map.records.filter((r) => {
      const offsets = changed.get(r.page);
      return offsets !== null && offsets !== undefined && !near(r, offsets);
    }),
    undamagedLeaves: new Set(map.leaves.filter((p) => changed.get(p)?.length === 0)),
    damagedLeaves: map.leaves.filter((p) => (changed.get(p)?.length ?? 0) > 0),
    missingPages: map.pageCount - Math.floor(copy.length / map.pageSize),
  };
}
