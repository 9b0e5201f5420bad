/**
 * The page inspector's INDEX part: the page header field by field, every record the page reaches
 * (infimum and supremum, the record list in key order, the free list of deleted records) with its
 * header, in list order and in heap order, the page directory, and the byte ranges of all of it.
 * With a table definition, on a leaf page of the clustered index, each record's values as the leaf
 * decoder writes them (LeafDecoder.decodeRecord) and the decoder's own reading of the page (its rows
 * of every state and the problems its checks find), so that what the inspector shows is what the
 * decoder does, not a second reading.
 */
import { PAGE_DATA, PAGE_FREE, PAGE_GARBAGE, PAGE_HEADER, PAGE_HEAP_TOP, PAGE_INDEX_ID, PAGE_LEVEL, PAGE_N_DIR_SLOTS, PAGE_N_HEAP, PAGE_N_RECS, PAGE_NEW_INFIMUM, PAGE_NEW_SUPREMUM, PAGE_OLD_INFIMUM, PAGE_OLD_SUPREMUM, PAGE_BTR_SEG_TOP, freeListOrigins, recordOrigins, REC_INFO_DELETED, REC_INFO_MIN_REC } from '../pages/index-page.ts';
import {
  directorySlots, directoryStart, FSEG_HEADER_SIZE, PAGE_BTR_SEG_LEAF, PAGE_DIRECTION, PAGE_LAST_INSERT, PAGE_MAX_TRX_ID, PAGE_N_DIRECTION, readIndexPageFields, readRecordHeader,
  redundantExtent, type IndexPageFields,
} from '../pages/index-page-fields.ts';
import { FIL_PAGE_END_LSN_OLD_CHKSUM } from '../pages/fil-header.ts';
import type { ClusteredLayout } from '../records/clustered-index.ts';
import { compactChildPage, redundantChildPage } from '../records/key-fields.ts';
import type { Page } from '../tablespace/tablespace.ts';
import { BatchBuilder, batchRows, batchView } from '../values/row-batch.ts';
import type { DecodeStats } from './decode-stats.ts';
import type { LeafDecoder } from './leaf-decoder.ts';
import { directoryProblems, listProblems, recordProblems } from './page-inspect-checks.ts';
import { fieldRanges, readField, type ByteRange, type DecodedPage, type Field, type IndexPageInspection, type InspectedRecord, type InspectProblem, type Section } from './page-inspection.ts';

/** The table the records are decoded as: its clustered index and a decoder set up for it (see page-inspect.ts). */
export interface InspectTable {
  indexId: bigint;
  layout: ClusteredLayout;
  decoder: LeafDecoder;
  stats: DecodeStats;
  /** Output columns: the table's, then `_row_state`. */
  columns: string[];
}

export interface IndexPart {
  index: IndexPageInspection;
  sections: Section[];
  ranges: ByteRange[];
  problems: InspectProblem[];
}

const COMPACT_STATUS = ['ordinary', 'node pointer', 'infimum', 'supremum', 'instant (MariaDB)'];

function headerSection(bytes: Uint8Array, h: IndexPageFields): Section {
  const at = (o: number) => PAGE_HEADER + o;
  const fseg = (name: string, o: number, s: IndexPageFields['segLeaf']): Field => ({ name, offset: at(o), size: FSEG_HEADER_SIZE, value: `space ${s.spaceId}, INODE page ${s.inodePage}, offset ${s.inodeOffset}` });
  return {
    title: 'INDEX page header',
    fields: [
      readField(bytes, 'PAGE_N_DIR_SLOTS', at(PAGE_N_DIR_SLOTS), 2),
      readField(bytes, 'PAGE_HEAP_TOP', at(PAGE_HEAP_TOP), 2),
      readField(bytes, 'PAGE_N_HEAP', at(PAGE_N_HEAP), 2, `${h.nHeap} records in the heap (infimum and supremum included), ${h.compact ? 'COMPACT' : 'REDUNDANT'} format`),
      readField(bytes, 'PAGE_FREE', at(PAGE_FREE), 2, h.free === 0 ? 'no free list' : 'the first record of the free list'),
      readField(bytes, 'PAGE_GARBAGE', at(PAGE_GARBAGE), 2, 'bytes of deleted records'),
      readField(bytes, 'PAGE_LAST_INSERT', at(PAGE_LAST_INSERT), 2),
      readField(bytes, 'PAGE_DIRECTION', at(PAGE_DIRECTION), 2, h.directionName),
      readField(bytes, 'PAGE_N_DIRECTION', at(PAGE_N_DIRECTION), 2),
      readField(bytes, 'PAGE_N_RECS', at(PAGE_N_RECS), 2, 'user records in the record list'),
      readField(bytes, 'PAGE_MAX_TRX_ID', at(PAGE_MAX_TRX_ID), 8),
      readField(bytes, 'PAGE_LEVEL', at(PAGE_LEVEL), 2, h.level === 0 ? 'leaf' : undefined),
      readField(bytes, 'PAGE_INDEX_ID', at(PAGE_INDEX_ID), 8),
      fseg('PAGE_BTR_SEG_LEAF', PAGE_BTR_SEG_LEAF, h.segLeaf),
      fseg('PAGE_BTR_SEG_TOP', PAGE_BTR_SEG_TOP, h.segTop),
    ],
  };
}

/** A record as the page's header bytes show it (no definition needed). */
function baseRecord(bytes: Uint8Array, origin: number, reached: InspectedRecord['reached'], h: IndexPageFields): InspectedRecord {
  const header = readRecordHeader(bytes, origin, h.compact);
  const minRec = (header.infoBits & REC_INFO_MIN_REC) !== 0;
  const system = reached === 'system';
  let kind: string;
  if (header.status !== null) kind = COMPACT_STATUS[header.status] ?? `status ${header.status}`;
  else kind = system ? (origin === PAGE_OLD_INFIMUM ? 'infimum' : 'supremum') : h.level > 0 ? 'node pointer' : 'ordinary';
  if (minRec && h.level === 0 && !system) kind = 'instant ALTER metadata (MariaDB)';
  const extent = !h.compact && !system ? redundantExtent(bytes, origin) : null;
  return {
    origin, reached, header, deleted: (header.infoBits & REC_INFO_DELETED) !== 0, minRec, kind,
    start: extent?.start ?? null, end: extent?.end ?? null, childPage: null, values: null, error: null, errorField: null,
  };
}

function childOf(bytes: Uint8Array, origin: number, compact: boolean, layout: ClusteredLayout | null): number | null {
  try {
    if (!compact) return redundantChildPage(bytes, origin);
    return layout === null ? null : compactChildPage(bytes, origin, layout);
  } catch {
    return null;
  }
}

/** The records the page reaches: infimum, the list, supremum, the free list; and what the list walk refused. */
function pageRecords(bytes: Uint8Array, h: IndexPageFields, layout: ClusteredLayout | null): { records: InspectedRecord[]; listDamage: string | null } {
  const list: number[] = [];
  const listDamage = recordOrigins(bytes, h.compact, list);
  const free: number[] = [];
  freeListOrigins(bytes, h.compact, free);
  const records = [
    baseRecord(bytes, h.compact ? PAGE_NEW_INFIMUM : PAGE_OLD_INFIMUM, 'system', h),
    ...list.map((o) => baseRecord(bytes, o, 'list', h)),
    baseRecord(bytes, h.compact ? PAGE_NEW_SUPREMUM : PAGE_OLD_SUPREMUM, 'system', h),
    ...free.map((o) => baseRecord(bytes, o, 'free', h)),
  ];
  if (h.level > 0) for (const r of records) if (r.reached === 'list') r.childPage = childOf(bytes, r.origin, h.compact, layout);
  return { records, listDamage };
}

/** Each user record's values (and, in COMPACT, its extent) as the decoder reads it; the decoder's reading of the whole page. */
async function decodeRecords(page: Page, records: InspectedRecord[], table: InspectTable): Promise<DecodedPage> {
  const { decoder, stats, columns } = table;
  const out = new BatchBuilder(columns.length);
  const problemsBefore = stats.problems.length;
  await decoder.decode(page, out, false);
  const decoded: DecodedPage = { columns, rows: batchRows(batchView(out)), problems: stats.problems.slice(problemsBefore) };
  const one = new BatchBuilder(columns.length);
  for (const r of records) {
    if (r.reached === 'system' || r.minRec) continue;
    one.clear();
    const result = await decoder.decodeRecord(page, r.origin, one);
    if ('why' in result) {
      r.error = result.why;
      r.errorField = result.field;
      continue;
    }
    r.values = batchRows(batchView(one))[0].slice(0, columns.length - 1);
    r.start = result.start;
    r.end = result.end;
  }
  return decoded;
}

/** The ranges of the records: the system records whole, a user record's header (or all its bytes before the origin) and its data where known. */
function recordRanges(records: readonly InspectedRecord[], compact: boolean): ByteRange[] {
  const ranges: ByteRange[] = [];
  for (const r of records) {
    const label = `${r.kind} record, heap no ${r.header.heapNo}, at ${r.origin}`;
    if (r.reached === 'system') {
      const supremum = r.kind === 'supremum';
      const before = compact ? 5 : 7;
      ranges.push({ start: r.origin - before, end: r.origin + (supremum && !compact ? 9 : 8), kind: 'system-record', label });
      continue;
    }
    const free = r.reached === 'free';
    ranges.push({ start: r.start ?? r.origin - r.header.size, end: r.origin, kind: free ? 'free-record-header' : 'record-header', label });
    if (r.end !== null) ranges.push({ start: r.origin, end: r.end, kind: free ? 'free-record' : 'record', label });
  }
  return ranges;
}

function directoryOf(bytes: Uint8Array, h: IndexPageFields): IndexPageInspection['directory'] {
  return directorySlots(bytes, h.nDirSlots).map((offset, slot) => ({
    slot,
    offset,
    owned: offset >= PAGE_DATA && offset < bytes.length - FIL_PAGE_END_LSN_OLD_CHKSUM ? readRecordHeader(bytes, offset, h.compact).nOwned : null,
  }));
}

/**
 * An INDEX (or RTREE, SDI) page. `table`: the table to decode its records as, when the page is a
 * leaf of that table's clustered index; else null.
 */
export async function inspectIndexPage(page: Page, table: InspectTable | null, clustered: boolean | null): Promise<IndexPart> {
  const bytes = page.bytes;
  const h = readIndexPageFields(bytes);
  const layout = clustered === true && table !== null ? table.layout : null;
  const { records, listDamage } = pageRecords(bytes, h, layout);
  const leafTable = layout !== null && h.level === 0 ? table : null;
  const decoded = leafTable !== null ? await decodeRecords(page, records, leafTable) : null;
  const heapOrder = records.map((_, i) => i).sort((a, b) => records[a].header.heapNo - records[b].header.heapNo);
  const section = headerSection(bytes, h);
  const dirStart = directoryStart(bytes, h.nDirSlots);
  const ranges = [
    ...fieldRanges({ ...section, fields: section.fields.slice(0, -2) }, 'page-header'),
    ...fieldRanges({ ...section, fields: section.fields.slice(-2) }, 'fseg-header'),
    ...recordRanges(records, h.compact),
  ];
  if (h.heapTop < dirStart) ranges.push({ start: h.heapTop, end: dirStart, kind: 'free-space', label: 'free space (between PAGE_HEAP_TOP and the page directory)' });
  if (dirStart >= PAGE_DATA) ranges.push({ start: dirStart, end: bytes.length - FIL_PAGE_END_LSN_OLD_CHKSUM, kind: 'directory', label: `page directory (${h.nDirSlots} slots)` });
  const directory = directoryOf(bytes, h);
  const problems = [
    ...listProblems(records, listDamage, h),
    ...(listDamage === null ? directoryProblems(bytes.length, records, directory, h.compact) : []),
    ...recordProblems(records, decoded?.problems ?? []),
  ];
  return {
    index: {
      header: h, clustered, records, heapOrder, listDamage, directory,
      columns: leafTable ? leafTable.columns.slice(0, -1) : null, decoded,
    },
    sections: [section],
    ranges,
    problems,
  };
}
