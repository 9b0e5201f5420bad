/**
 * Public entry point of the decoder: open an .ibd against a table definition and stream its rows in
 * primary-key order. Damage never stops the read silently: every skipped page and undecodable
 * record is counted in `stats` and described in `stats.problems`.
 */
import { readExternValue } from './blob-page.ts';
import { findClusteredRoot, findIndexRoots, leafPageNumbers, leftmostLeaf, type IndexRoot } from './btree.ts';
import { rawView, type RawTarget } from './orphan-scan.ts';
import { scanIndexes, scanLeafPages } from './page-scan.ts';
import { clusteredLayout, type ClusteredLayout } from './clustered-index.ts';
import { IbdError } from './errors.ts';
import { FIL_NULL, FIL_PAGE_NEXT, FIL_PAGE_OFFSET, FIL_PAGE_PREV, FIL_PAGE_TYPE, PageType, pageTypeName, u16, u32 } from './fil-header.ts';
import {
  compactInfoBits, freeListOrigins, PAGE_DATA, PAGE_NEW_SUPREMUM_END, PAGE_OLD_SUPREMUM_END, readIndexHeader, recordOrigins, redundantInfoBits,
  REC_INFO_DELETED, REC_INFO_MIN_REC,
} from './index-page.ts';
import type { EncryptionKeys } from './encryption.ts';
import { readInstantLayout } from './instant.ts';
import { countLeafRows } from './leaf-counts.ts';
import { csvBytes } from './csv-bytes.ts';
import { compactChildPage, compactRecordReadable, decodeCompact, decodeRedundant, RecordError, fieldColumns, redundantChildPage, type FieldColumns, rollPtrIsZero, type ExternField, type RecordSink } from './record.ts';
import { BatchBuilder, batchRows, batchView, releaseBatch, type RowBatch } from './row-batch.ts';
import type { TableDef } from './schema.ts';
import { fastWriteOf, quoteCheckOf, writerFor, type FastWrite, type Write } from './text-writers.ts';
import type { ByteSource } from './source.ts';
import { Tablespace, type Page, type PageRun } from './tablespace.ts';

/** One decoded cell, rendered as the server's SELECT renders it as text; null for SQL NULL. */
export type Cell = string | null;
export type Row = Cell[];

export interface Problem {
  page: number | null;
  record: number | null;
  message: string;
}

export interface TableInfo {
  file: string;
  fileSize: number;
  /** Logical page size in bytes (4096..65536). */
  pageSize: number;
  /** Pages in the file (file size / page size). */
  pageCount: number;
  spaceId: number;
  /** 'mysql' (crc32/innodb/none checksums) or 'full_crc32' (MariaDB 10.5+ default). */
  checksumFormat: 'mysql' | 'full_crc32';
  rowFormat: 'REDUNDANT' | 'COMPACT' | 'DYNAMIC' | 'COMPRESSED';
  /** The clustered index's root page, or -1 when none was found (the leaves were found by scanning). */
  rootPage: number;
  indexId: bigint;
  /** Levels in the clustered index B-tree (1 = the root is a leaf; 0 = unknown, no root found). */
  treeHeight: number;
  /** What InnoDB clusters the rows on. */
  clusteredOn: 'primary' | 'unique' | 'row_id';
  /** How the leaf pages were found: through the B-tree, or (when it is damaged) by scanning every page. */
  leafSource: 'btree' | 'scan';
}

export interface DecodeStats {
  pagesRead: number;
  pagesSkipped: number;
  badChecksums: number;
  rowsDecoded: number;
  recordsFailed: number;
  /** Delete-marked records still in the tree (deleted rows not yet purged); returned outside `live` mode. */
  deletedSkipped: number;
  /** Deleted rows returned (`deleted`/`both` modes): delete-marked ones, and purged ones from free lists. */
  deletedRecovered: number;
  /** Purged records found in free lists that could no longer be read (their space partly reused). */
  purgedUnreadable: number;
  /** Every skipped page and undecodable record, with why (capped list; counts are exact). */
  problems: Problem[];
}

export interface ReadOptions {
  signal?: AbortSignal;
  /** Rows per yielded batch (default 1000). */
  batchSize?: number;
  /** Batches for csvBytes(): a comma after each cell's text (BatchBuilder's `separated`). */
  separated?: boolean;
}

/**
 * Which records to return: the table as the server shows it (`live`), the deleted rows still in the
 * file (`deleted`: records delete-marked in the B-tree, and purged ones left in the pages' free
 * lists), or `both`. Outside `live`, a last column `_row_state` says which each row is.
 */
export type RowMode = 'live' | 'deleted' | 'both';

export interface OpenOptions {
  mode?: RowMode;
  /** Keys for an encrypted tablespace (MariaDB key file, MySQL keyring): see encryption.ts. */
  keys?: EncryptionKeys;
  /**
   * Decode this index instead of the one found through page 0 (the lowest index id): a table of a
   * general tablespace or mysql.ibd (index id and root page from its SDI), or an index of a raw image.
   * With no usable root, its leaves are found by scanning the file for pages of that index id.
   */
  index?: { indexId: bigint; rootPage?: number | null };
  /** A raw image without a valid page 0 (see orphan-scan.ts): where its pages lie and how they are checked. */
  raw?: RawTarget;
}

/** The extra column of the `deleted` and `both` modes. */
export const ROW_STATE_COLUMN = '_row_state';
const STATE_TEXT = { live: 'live', marked: 'delete-marked', purged: 'purged' } as const;

export interface DecodePagesOptions {
  /**
   * The pages come first in the table: if the first one's records do not add up with this table
   * definition, the definition is wrong (an IbdError), not the page. Otherwise such a page is
   * reported as damaged and skipped.
   */
  first?: boolean;
  /**
   * Decode into this builder (emptied first) and return a batch that is a view of its buffers, valid
   * until its next use: a caller that formats each run at once (an export) allocates nothing per run.
   */
  into?: BatchBuilder;
  /**
   * The pages as read at once by readRun() (the caller releases it); without this option, the
   * pages are read at once here when they lie close together.
   */
  run?: PageRun | null;
}

/**
 * What csvPages() makes a run into CSV with, reused run after run (one set per run in progress): a
 * separated builder, and the buffer the CSV is written to (replaced here by a bigger one when it grows).
 */
export interface CsvBuffers {
  into: BatchBuilder;
  csv: Uint8Array<ArrayBuffer>;
}

export function csvBuffers(cols: number): CsvBuffers {
  return { into: new BatchBuilder(cols, undefined, undefined, true), csv: new Uint8Array(0) };
}

export interface TableReader {
  readonly info: TableInfo;
  /** Output column names, in table order (stored and visible columns). */
  readonly columns: string[];
  readonly stats: DecodeStats;
  /** Rows in primary-key order, in compact batches (see row-batch.ts): the fast path. */
  batches(options?: ReadOptions): AsyncGenerator<RowBatch>;
  /** Rows in primary-key order, as arrays of strings. */
  rows(options?: ReadOptions): AsyncGenerator<Row[]>;
  /** The clustered index's leaf pages in key order (read off the level above; leaves are not read). */
  leafPages(): Promise<number[]>;
  /**
   * The first leaf page in key order, found by descending the leftmost node pointers (a read per
   * level, not the whole level above the leaves); null when the B-tree cannot be descended.
   */
  firstLeafPage(): Promise<number | null>;
  /**
   * Rows on each of these leaf pages (same order), from their record lists: no row is decoded
   * (leaf-counts.ts). `readBytes`: the largest read.
   */
  countLeaves(pageNos: ArrayLike<number>, options?: { readBytes?: number; signal?: AbortSignal }): Promise<Int32Array>;
  /** Decodes these leaf pages, in order, into one batch (the unit of work of a worker pool). */
  decodePages(pageNos: readonly number[], options?: DecodePagesOptions): Promise<RowBatch>;
  /**
   * The CSV lines (csvBytes) of these leaf pages, in order (an export's unit of work): read at once
   * where they lie close together, decoded a few at a time (see CSV_PIECE_BYTES) with `buffers`; the
   * result is a view of buffers.csv, valid until its next use, with how many rows they hold.
   * `first`: as DecodePagesOptions.first.
   */
  csvPages(pageNos: readonly number[], first: boolean, buffers: CsvBuffers): Promise<{ csv: Uint8Array<ArrayBuffer>; rows: number }>;
  /**
   * Reads a run of mostly adjacent pages at once, for a caller about to decode them one by one
   * (decodePages with `run`); null when they are not read at once. Released with releaseRun().
   */
  readRun(pageNos: ArrayLike<number>): Promise<PageRun | null>;
  /** Lets go of a run from readRun(): its buffer serves the next run. */
  releaseRun(run: PageRun | null): void;
}

const MAX_PROBLEMS = 1000;
/** The largest span of pages decodePages() reads at once. */
const RUN_MAX_BYTES = 16 << 20;
/**
 * How much of a run csvPages() decodes into its builder before turning it into CSV: the builder's
 * text and cells then stay in the CPU's cache while the next piece is written over them (LINEITEM
 * decoded ~10% faster in pieces of 8 pages than in runs of 256 decoded whole).
 */
const CSV_PIECE_BYTES = 128 << 10;

export function emptyStats(): DecodeStats {
  return {
    pagesRead: 0, pagesSkipped: 0, badChecksums: 0, rowsDecoded: 0, recordsFailed: 0,
    deletedSkipped: 0, deletedRecovered: 0, purgedUnreadable: 0, problems: [],
  };
}

function rowFormatOf(ts: Tablespace, compact: boolean, table: TableDef): TableInfo['rowFormat'] {
  if (!compact) return 'REDUNDANT';
  if (ts.fsp.flags.zipSize !== 0) return 'COMPRESSED';
  if (table.rowFormat === 'COMPACT' || table.rowFormat === 'DYNAMIC') return table.rowFormat;
  // MySQL marks DYNAMIC in the space flags; MariaDB's full_crc32 flags do not, and DYNAMIC is its default.
  return ts.fsp.flags.atomicBlobs || ts.fsp.flags.fullCrc32 ? 'DYNAMIC' : 'COMPACT';
}

export async function openTable(source: ByteSource, table: TableDef, options: OpenOptions = {}): Promise<TableReader> {
  const ts = options.raw ? Tablespace.openRaw(rawView(source, options.raw.base), options.raw) : await Tablespace.open(source, { keys: options.keys });
  const root = await chooseRoot(ts, options);
  const compact = root.header.compact;
  let layout: ClusteredLayout;
  try {
    layout = clusteredLayout(table, !compact);
  } catch (e) {
    throw new IbdError(source.name, `table \`${table.name}\`: ${(e as Error).message}`);
  }
  // Instant ADD/DROP COLUMN: fields in physical order, and the defaults of fields records lack.
  layout = await readInstantLayout(ts, root.page, layout, compact);
  const info: TableInfo = {
    file: source.name,
    fileSize: source.size,
    pageSize: ts.pageSize,
    pageCount: ts.pageCount,
    spaceId: ts.fsp.spaceId,
    checksumFormat: ts.fullCrc32 ? 'full_crc32' : 'mysql',
    rowFormat: rowFormatOf(ts, compact, table),
    rootPage: root.page,
    indexId: root.header.indexId,
    treeHeight: root.page < 0 ? 0 : root.header.level + 1,
    clusteredOn: layout.keyKind,
    leafSource: root.page < 0 ? 'scan' : 'btree',
  };
  return new ClusteredReader(ts, root, info, layout, compact, options.mode ?? 'live');
}

/** The root of the index asked for (OpenOptions.index), else of the clustered index found through page 0. */
async function chooseRoot(ts: Tablespace, options: OpenOptions): Promise<IndexRoot> {
  const wanted = options.index;
  if (!wanted) {
    return findClusteredRoot(ts).catch(async (e: unknown) => {
      if (!(e instanceof IbdError)) throw e;
      return rootlessIndex(ts, e);
    });
  }
  if (wanted.rootPage !== undefined && wanted.rootPage !== null) {
    const root = await rootAt(ts, wanted.rootPage, wanted.indexId);
    if (root) return root;
  }
  // A raw image's page 0 is not trusted (it may be missing or another file's): no INODE lookup there.
  const roots = options.raw ? [] : await findIndexRoots(ts).catch(() => []);
  return roots.find((r) => r.header.indexId === wanted.indexId)
    ?? rootlessIndex(ts, new IbdError(ts.source.name, `no root page of index ${wanted.indexId} was found`, wanted.rootPage ?? null), wanted.indexId);
}

/** Page `no` if it is an intact root of index `indexId` (an INDEX page of it with no neighbours). */
async function rootAt(ts: Tablespace, no: number, indexId: bigint): Promise<IndexRoot | null> {
  const page = await ts.page(no).catch(() => null);
  if (page === null || page.checksum === 'bad' || u16(page.bytes, FIL_PAGE_TYPE) !== PageType.INDEX) return null;
  const header = readIndexHeader(page.bytes);
  const alone = u32(page.bytes, FIL_PAGE_PREV) === FIL_NULL && u32(page.bytes, FIL_PAGE_NEXT) === FIL_NULL;
  return header.indexId === indexId && alone ? { page: no, header } : null;
}

/**
 * No root could be found (page 2 or the root itself is damaged): take the index asked for, else the
 * one with the lowest id that has leaf pages, as the clustered index is created first. Its root is
 * unknown (page -1), so its leaves will be found by scanning.
 */
async function rootlessIndex(ts: Tablespace, why: IbdError, indexId?: bigint): Promise<IndexRoot> {
  const indexes = (await scanIndexes(ts)).filter((i) => indexId === undefined || i.indexId === indexId);
  if (indexes.length === 0) throw new IbdError(ts.source.name, `${why.detail}; no leaf page of ${indexId === undefined ? 'any index' : `index ${indexId}`} was found in the file either`, why.page);
  const first = indexes[0];
  return { page: -1, header: { nDirSlots: 0, heapTop: 0, nHeap: 0, compact: first.compact, free: 0, garbage: 0, nRecs: 0, level: 0, indexId: first.indexId } };
}

class ClusteredReader implements TableReader {
  readonly columns: string[];
  readonly stats: DecodeStats = emptyStats();
  /** One byte writer per clustered index field (system fields write nothing). */
  private readonly writers: Write[];
  /** The writers' fast kinds (fastWriteOf). */
  private readonly fast: FastWrite[];
  private readonly fieldColumns: FieldColumns;
  /** BatchBuilder.quoteChecks for our columns. */
  private readonly quoteChecks: Uint8Array;

  constructor(
    private readonly ts: Tablespace,
    private readonly root: IndexRoot,
    readonly info: TableInfo,
    private readonly layout: ClusteredLayout,
    private readonly compact: boolean,
    private readonly mode: RowMode,
  ) {
    this.columns = layout.columns.map((c) => c.name);
    if (mode !== 'live') this.columns.push(ROW_STATE_COLUMN);
    this.writers = layout.fields.map((f) => writerFor(f.out >= 0 ? layout.columns[f.out] : null, f.render));
    this.fast = this.writers.map(fastWriteOf);
    this.fieldColumns = fieldColumns(layout.fields);
    // Scan all (QUOTE_SCAN) but where the writer knows; not for an instantly altered table, whose
    // older records show defaults written from their text.
    this.quoteChecks = new Uint8Array(this.columns.length);
    if (!layout.instant) layout.fields.forEach((f, i) => {
      if (f.out >= 0) this.quoteChecks[f.out] = quoteCheckOf(this.writers[i]);
    });
  }

  private problem(page: number | null, record: number | null, message: string): void {
    if (this.stats.problems.length < MAX_PROBLEMS) this.stats.problems.push({ page, record, message });
  }

  async *rows(options: ReadOptions = {}): AsyncGenerator<Row[]> {
    for await (const batch of this.batches(options)) yield batchRows(batch);
  }

  async *batches(options: ReadOptions = {}): AsyncGenerator<RowBatch> {
    const batchSize = options.batchSize ?? 1000;
    const leaves = await this.leafPages();
    // Room for the rows of a few leaves at first (it grows): a one-page table, of which a listing
    // decodes 10,000 in a row, needs no builder for thousands of rows.
    const out = new BatchBuilder(this.columns.length, Math.min(batchSize, 128 * Math.max(1, leaves.length)), undefined, options.separated);
    for (let i = 0; i < leaves.length; i++) {
      options.signal?.throwIfAborted();
      await this.decodePage(leaves[i], out, i === 0, null);
      if (out.rows >= batchSize) yield out.take();
    }
    if (out.rows > 0) yield out.take();
  }

  private leaves: Promise<number[]> | null = null;

  leafPages(): Promise<number[]> {
    this.leaves ??= this.findLeaves();
    return this.leaves;
  }

  async firstLeafPage(): Promise<number | null> {
    if (this.root.page < 0) return null;
    try {
      return await leftmostLeaf(this.ts, this.root, this.childOf());
    } catch (e) {
      if (!(e instanceof IbdError) && !(e instanceof RecordError)) throw e;
      return null;
    }
  }

  countLeaves(pageNos: ArrayLike<number>, options: { readBytes?: number; signal?: AbortSignal } = {}): Promise<Int32Array> {
    return countLeafRows(this.ts, pageNos, { indexId: this.info.indexId, compact: this.compact, mode: this.mode, ...options });
  }

  /** Reads a node pointer's child page number (how depends on the record format and key). */
  private childOf(): (p: Uint8Array, o: number) => number {
    return this.compact ? (p, o) => compactChildPage(p, o, this.layout) : redundantChildPage;
  }

  /** Through the B-tree; if it is damaged, by scanning every page of the file for our leaves. */
  private async findLeaves(): Promise<number[]> {
    if (this.root.page < 0) {
      this.problem(null, null, `no B-tree root was found; the leaf pages of index ${this.info.indexId} were found by scanning the whole file, so rows may come out of primary-key order`);
      return scanLeafPages(this.ts, this.info.indexId);
    }
    try {
      return await leafPageNumbers(this.ts, this.root, this.childOf());
    } catch (e) {
      if (!(e instanceof IbdError) && !(e instanceof RecordError)) throw e;
      this.problem(e instanceof IbdError ? e.page : null, null, `the B-tree cannot be walked (${e instanceof IbdError ? e.detail : e.message}); found the leaf pages by scanning the whole file instead, so rows may come out of primary-key order`);
      this.info.leafSource = 'scan';
      return scanLeafPages(this.ts, this.info.indexId);
    }
  }

  /**
   * Reads pages mostly next to each other (a run of leaves) at once (Tablespace.readRun), for a
   * caller about to decode them one by one; decodePages() does it for its own.
   */
  async readRun(pageNos: ArrayLike<number>): Promise<PageRun | null> {
    if (pageNos.length < 2) return null;
    let lo = pageNos[0];
    let hi = pageNos[0];
    for (let i = 1; i < pageNos.length; i++) {
      if (pageNos[i] < lo) lo = pageNos[i];
      if (pageNos[i] > hi) hi = pageNos[i];
    }
    return hi - lo < 2 * pageNos.length && (hi - lo + 1) * this.ts.physicalSize <= RUN_MAX_BYTES ? this.ts.readRun(lo, hi) : null;
  }

  releaseRun(run: PageRun | null): void {
    this.ts.release(run);
  }

  async decodePages(pageNos: readonly number[], options: DecodePagesOptions = {}): Promise<RowBatch> {
    const into = options.into;
    into?.clear();
    // Room for the text of about a page's worth of bytes per page: most runs never grow it.
    const out = into ?? new BatchBuilder(this.columns.length, pageNos.length * 64, pageNos.length * this.info.pageSize);
    const own = options.run === undefined ? await this.readRun(pageNos) : null;
    const run = options.run ?? own;
    try {
      for (let i = 0; i < pageNos.length; i++) await this.decodePage(pageNos[i], out, options.first === true && i === 0, run);
    } finally {
      this.ts.release(own);
    }
    return into ? batchView(into) : releaseBatch(out);
  }

  async csvPages(pageNos: readonly number[], first: boolean, buffers: CsvBuffers): Promise<{ csv: Uint8Array<ArrayBuffer>; rows: number }> {
    const step = Math.max(1, Math.floor(CSV_PIECE_BYTES / this.info.pageSize));
    // Pieces read on their own (each where its pages lie close together) when the run is not read at once.
    const run = (await this.readRun(pageNos)) ?? undefined;
    let at = 0;
    let rows = 0;
    try {
      for (let i = 0; i < pageNos.length; i += step) {
        const piece = await this.decodePages(pageNos.slice(i, i + step), { first: first && i === 0, into: buffers.into, run });
        rows += piece.rows;
        const out = csvBytes(piece, buffers.csv, at);
        at = out.length;
        buffers.csv = new Uint8Array(out.buffer);
      }
    } finally {
      this.releaseRun(run ?? null);
    }
    return { csv: buffers.csv.subarray(0, at), rows };
  }

  private async decodePage(pageNo: number, out: BatchBuilder, first: boolean, run: PageRun | null): Promise<void> {
    const page = await this.readLeaf(pageNo, run);
    if (page === null) return;
    // Only pages with off-page columns have anything to wait for.
    const pending = this.decodeLeaf(page, out, first);
    if (pending !== null) await pending;
  }

  /** Reads a leaf page of our index, or records why it cannot be read and returns null. */
  private async readLeaf(pageNo: number, run: PageRun | null): Promise<Page | null> {
    let page: Page;
    try {
      page = await this.ts.page(pageNo, run);
    } catch (e) {
      if (!(e instanceof IbdError)) throw e;
      this.stats.pagesSkipped++;
      this.problem(pageNo, null, e.detail);
      return null;
    }
    this.stats.pagesRead++;
    const type = u16(page.bytes, FIL_PAGE_TYPE);
    const h = readIndexHeader(page.bytes);
    if (type !== PageType.INDEX || h.indexId !== this.info.indexId || h.level !== 0) {
      this.stats.pagesSkipped++;
      this.problem(pageNo, null, `the B-tree points to page ${pageNo} as a leaf of index ${this.info.indexId}, but it is ${pageTypeName(type)} (index ${h.indexId}, level ${h.level}); skipped`);
      return null;
    }
    if (page.checksum === 'bad') {
      this.stats.badChecksums++;
      this.problem(pageNo, null, 'the page checksum does not match (the page is damaged); its records were decoded anyway and may be wrong');
    }
    return page;
  }

  /** Scratch lists of decodeLeaf(), reused from page to page. */
  private readonly origins: number[] = [];
  private readonly fields: ExternField[] = [];

  /**
   * Decodes a leaf page's records into `out`. Returns null when that is all, or a promise when
   * values stored off-page are still being read (so that pages without them need no await).
   */
  private decodeLeaf(page: Page, out: BatchBuilder, first: boolean): Promise<void> | null {
    const bytes = page.bytes;
    const compact = this.compact;
    const layout = this.layout;
    const origins = this.origins;
    const damage = recordOrigins(bytes, compact, origins);
    if (damage !== null) this.problem(page.no, null, `${damage}; records after that point on this page are lost`);
    const rowsBefore = out.rows;
    const posBefore = out.pos;
    let externs: { origin: number; field: ExternField }[] | null = null;
    const fields = this.fields;
    const sink: RecordSink = { out, base: 0, writers: this.writers, fast: this.fast, ...this.fieldColumns };
    out.quoteChecks = this.quoteChecks;
    // The page accounts for every byte of its heap: records in the list, plus garbage (freed records).
    let recordBytes = 0;
    let accountable = damage === null;
    for (let r = 0; r < origins.length; r++) {
      const origin = origins[r];
      const info = compact ? compactInfoBits(bytes, origin) : redundantInfoBits(bytes, origin);
      if (info & REC_INFO_MIN_REC) {
        accountable = false; // MariaDB's instant-ALTER metadata record, laid out differently: not a row.
        continue;
      }
      if (compact && !compactRecordReadable(bytes, origin, layout)) {
        accountable = false;
        this.stats.recordsFailed++;
        this.problem(page.no, origin, 'the record is in a format the table\'s metadata does not describe (written after an instant ALTER TABLE that this file does not record)');
        continue;
      }
      const deleted = (info & REC_INFO_DELETED) !== 0;
      const wanted = deleted ? this.mode !== 'live' : this.mode !== 'deleted';
      const rowRows = out.rows;
      const rowPos = out.pos;
      if (wanted) sink.base = this.startRow(out, deleted ? STATE_TEXT.marked : STATE_TEXT.live);
      if (fields.length !== 0) fields.length = 0;
      try {
        recordBytes += compact
          ? decodeCompact(bytes, origin, layout, wanted ? sink : null, fields)
          : decodeRedundant(bytes, origin, layout, wanted ? sink : null, fields);
      } catch (e) {
        if (!(e instanceof RecordError)) throw e;
        out.rollback({ rows: rowRows, pos: rowPos });
        accountable = false;
        this.stats.recordsFailed++;
        this.problem(page.no, origin, `the record does not fit the table definition: ${e.message}`);
        continue;
      }
      if (wanted) out.endRow();
      if (deleted) this.stats[wanted ? 'deletedRecovered' : 'deletedSkipped']++;
      if (fields.length > 0) {
        externs ??= [];
        for (const field of fields) externs.push({ origin, field });
      }
    }
    if (accountable && !this.heapAddsUp(bytes, recordBytes, first)) {
      out.rollback({ rows: rowsBefore, pos: posBefore });
      return null;
    }
    if (this.mode !== 'live') {
      externs ??= [];
      this.recoverPurged(page, out, sink, externs);
      if (externs.length === 0) externs = null;
    }
    if (externs === null) {
      this.stats.rowsDecoded += out.rows - rowsBefore;
      return null;
    }
    return this.resolveExterns(externs, out, page.no, rowsBefore);
  }

  private async resolveExterns(externs: { origin: number; field: ExternField }[], out: BatchBuilder, pageNo: number, rowsBefore: number): Promise<void> {
    for (const e of externs) await this.resolveExtern(e.field, out, pageNo, e.origin);
    this.stats.rowsDecoded += out.rows - rowsBefore;
  }

  /** Starts a row; outside `live` mode its last cell says whether it is live or deleted. */
  private startRow(out: BatchBuilder, state: string): number {
    const base = out.startRow();
    if (this.mode !== 'live') out.setString(base + this.columns.length - 1, state);
    return base;
  }

  /**
   * Purged rows: records in the page's free list. Purge only frees records that were delete-marked,
   * so a free record without the mark is not a deleted row (an old version of an updated one) and is
   * left out; one that no longer decodes, runs outside the heap, or was zero-filled (MariaDB scrubs
   * purged records) cannot be read back.
   */
  private recoverPurged(page: Page, out: BatchBuilder, sink: RecordSink, externs: { origin: number; field: ExternField }[]): void {
    const bytes = page.bytes;
    const heapTop = readIndexHeader(bytes).heapTop;
    const origins: number[] = [];
    freeListOrigins(bytes, this.compact, origins);
    const fields: ExternField[] = [];
    for (const origin of origins) {
      const info = this.compact ? compactInfoBits(bytes, origin) : redundantInfoBits(bytes, origin);
      if (!(info & REC_INFO_DELETED) || info & REC_INFO_MIN_REC) continue;
      if (rollPtrIsZero(bytes, origin, this.layout, this.compact)) {
        this.stats.purgedUnreadable++;
        continue;
      }
      const row = out.mark();
      sink.base = this.startRow(out, STATE_TEXT.purged);
      fields.length = 0;
      try {
        const size = this.compact ? decodeCompact(bytes, origin, this.layout, sink, fields) : decodeRedundant(bytes, origin, this.layout, sink, fields);
        if (origin + size > heapTop + (this.compact ? 5 : 6)) throw new RecordError('it runs past the end of the heap');
        out.endRow();
      } catch (e) {
        if (!(e instanceof RecordError)) throw e;
        out.rollback(row);
        this.stats.purgedUnreadable++;
        continue;
      }
      this.stats.deletedRecovered++;
      for (const field of fields) externs.push({ origin, field });
    }
  }

  /**
   * A wrong table definition still "decodes" COMPACT records (they do not store their field count),
   * only with every length wrong. The page header catches it: the heap (PAGE_HEAP_TOP) holds exactly
   * the infimum and supremum, the records in the list and PAGE_GARBAGE bytes of freed records.
   * On the table's first leaf page a mismatch means the DDL is wrong; elsewhere, that page is damaged.
   */
  private heapAddsUp(bytes: Uint8Array, recordBytes: number, first: boolean): boolean {
    const h = readIndexHeader(bytes);
    const base = (this.compact ? PAGE_NEW_SUPREMUM_END : PAGE_OLD_SUPREMUM_END) - PAGE_DATA;
    const expected = h.heapTop - PAGE_DATA - base - h.garbage;
    if (recordBytes === expected) return true;
    const pageNo = u32(bytes, FIL_PAGE_OFFSET);
    const detail = `its records take ${recordBytes} bytes when decoded with this table definition, but the page holds ${expected} bytes of records`;
    if (first) {
      throw new IbdError(this.info.file, `the table definition does not match the records: ${detail}. Check that the CREATE TABLE is this table's, with every column in order and the same types`, pageNo);
    }
    this.stats.pagesSkipped++;
    this.stats.recordsFailed += h.nRecs;
    this.problem(pageNo, null, `${detail}; the page is damaged, its ${h.nRecs} records were skipped`);
    return false;
  }

  private async resolveExtern(ext: ExternField, out: BatchBuilder, pageNo: number, origin: number): Promise<void> {
    const field = this.layout.fields[ext.fieldIndex];
    try {
      const value = await readExternValue(ext.local, async (no) => (await this.ts.page(no)).bytes);
      const start = out.pos;
      this.writers[ext.fieldIndex](value, 0, value.length, out);
      out.setCell(ext.cell, start, out.pos);
    } catch (e) {
      const message = `column \`${field.name}\`: ${(e as Error).message}`;
      this.problem(pageNo, origin, message);
      out.setString(ext.cell, `[unreadable: ${message}]`);
    }
  }
}
