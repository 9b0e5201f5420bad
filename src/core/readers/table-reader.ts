/**
 * Public entry point of the decoder: open an .ibd against a table definition and stream its rows in
 * primary-key order. Damage never stops the read silently: every skipped page and undecodable
 * record is counted in `stats` and described in `stats.problems`.
 */
import { leafPageNumbers, leftmostLeaf, type IndexRoot } from '../btree/btree.ts';
import { rawView, type RawTarget } from '../tablespace/orphan-scan.ts';
import { scanLeafPages, type LeafScan } from '../btree/page-scan.ts';
import { IbdError } from '../errors.ts';
import { FIL_PAGE_TYPE, isIndexPageType, pageTypeName, u16 } from '../pages/fil-header.ts';
import { readIndexHeader } from '../pages/index-page.ts';
import type { EncryptionKeys } from '../tablespace/encryption.ts';
import { countLeafRows, markDisowned, DECODE_TO_COUNT } from './leaf-counts.ts';
import { addProblem, emptyStats, type DecodeStats } from './decode-stats.ts';
import { LeafDecoder, type LeafContext } from './leaf-decoder.ts';
import type { LeafPageHook } from './leaf-fields.ts';
import type { RowVersions } from '../trx/row-vers.ts';
import { RecordError } from '../records/record.ts';
import { compactChildPage, redundantChildPage } from '../records/key-fields.ts';
import { hasStateColumn, modeIncludes, ROW_STATE_COLUMN, type RowMode } from './row-state.ts';
import { fileLayout, leafContext, notRolledBack, secondaryRollback, systemColumns } from './leaf-context.ts';
import type { SecondaryUndo } from '../trx/row-undo-sec.ts';
import { HISTORY_COLUMNS } from './leaf-history.ts';
import { definitionClues, fileRowFormat } from './definition-clues.ts';
import { chooseRoot } from './index-root.ts';
import { secondaryIndexName, secondaryTree } from './index-choice.ts';
import { planLookup, type KeyLookup, type KeyRange } from './key-lookup.ts';
import type { ClusteredLayout, KeyColumn } from '../records/clustered-index.ts';
import { BatchBuilder, batchRows, batchView, releaseBatch, type RowBatch } from '../values/row-batch.ts';
import { timeZone, UTC, type TimeZone } from '../values/time-zone.ts';
import type { TableDef } from '../schema.ts';
import type { ByteSource } from '../tablespace/source.ts';
import { Tablespace, type Page, type PageRun } from '../tablespace/tablespace.ts';

/** One decoded cell, rendered as the server's SELECT renders it as text; null for SQL NULL. */
export type Cell = string | null;
export type Row = Cell[];

export type { DecodeStats, Problem } from './decode-stats.ts';
export { emptyStats } from './decode-stats.ts';
export type { RowMode, RowState } from './row-state.ts';
export { ROW_STATE_COLUMN } from './row-state.ts';
export { DefinitionMismatch } from './leaf-decoder.ts';
export type { KeyLookup, KeyRange, LookupReadOptions } from './key-lookup.ts';

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

export interface ReadOptions {
  signal?: AbortSignal;
  /** Rows per yielded batch (default 1000). */
  batchSize?: number;
  /** Batches for csvBytes(): a comma after each cell's text (BatchBuilder's `separated`). */
  separated?: boolean;
}

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
  /**
   * Decode the table's index of this name (secondary-index.ts): its columns, then the primary key's.
   * Its B-tree is `index` when given, else found by name (index-choice.ts). The clustered index's
   * name (PRIMARY) reads the table as without it.
   */
  indexName?: string;
  /**
   * The zone TIMESTAMP values are shown in (time-zone.ts): `UTC` (the default), an IANA name
   * (`Europe/Berlin`) or an offset (`+02:00`). DATETIME is zone-less.
   */
  timeZone?: string;
  /** Transactions whose changes are taken back (trx/row-vers.ts): active at a crash, or from --before-trx on. Clustered index only. */
  versions?: RowVersions | null;
  /** End each row with DB_TRX_ID, DB_ROLL_PTR, its leaf page and heap number (system-columns.ts). */
  systemColumns?: boolean;
}

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
  /** Takes trusted pages' rows straight to its output (leaf-fields.ts); the batch then holds only the rows of the pages after the last it took. */
  hook?: LeafPageHook;
  /**
   * The pages as read at once by readRun() (the caller releases it); without this option, the
   * pages are read at once here when they lie close together.
   */
  run?: PageRun | null;
}

export interface CountOptions {
  readBytes?: number;
  signal?: AbortSignal;
  /** Count purged rows too (decoding every page): what the CLI's --count of a deleted/both/all read needs. */
  exact?: boolean;
}

export interface TableReader {
  readonly info: TableInfo;
  /** Which rows it returns. */
  readonly mode: RowMode;
  /** Output column names, in table order (stored and visible columns). */
  readonly columns: string[];
  /** The key the rows are in order of (the index's parts, then a secondary index's clustered key parts), each with its output column. */
  readonly keyParts: readonly KeyColumn[];
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
   * Rows on each of these leaf pages (same order), from their record lists (leaf-counts.ts): only
   * damaged pages, and with `exact` those whose purged rows the mode returns, are decoded to count
   * them, so that a count is what the same mode's read returns. `readBytes`: the largest read.
   */
  countLeaves(pageNos: ArrayLike<number>, options?: CountOptions): Promise<Int32Array<ArrayBuffer>>;
  /**
   * Of leaves found by a scan (no B-tree above them), those a merge freed, taken out of the index's
   * leaf list, with why (leaf-chain.ts); none for a B-tree's leaves. A count elsewhere (on its own
   * Tablespace) marks them with markDisowned, as countLeaves does.
   */
  disownedLeaves(): Promise<ReadonlyMap<number, string>>;
  /**
   * Whether the table definition fits the file: its first leaf pages (the first one that is not
   * damaged) are decoded aside, and a DefinitionMismatch thrown when their records do not fit. A
   * front end calls it before it shows or writes anything, so no row is decoded with a wrong one.
   */
  checkDefinition(): Promise<void>;
  /** Decodes these leaf pages, in order, into one batch (the unit of work of a worker pool). */
  decodePages(pageNos: readonly number[], options?: DecodePagesOptions): Promise<RowBatch>;
  /**
   * Reads a run of mostly adjacent pages at once, for a caller about to decode them one by one
   * (decodePages with `run`); null when they are not read at once. Released with releaseRun().
   * `pooled`: read into a reused buffer even where they lie in one chunk (Tablespace.readRun).
   */
  readRun(pageNos: ArrayLike<number>, pooled?: boolean): Promise<PageRun | null>;
  /** Lets go of a run from readRun(): its buffer serves the next run. */
  releaseRun(run: PageRun | null): void;
  /**
   * The rows whose key (the index's key parts, from the first) lies in `range`, through the B-tree,
   * reading only the pages on the path (key-lookup.ts). Throws an Error for a key that is not one of
   * the index's.
   */
  lookup(range: KeyRange): KeyLookup;
}

/** Leaf pages checkDefinition() tries for one that is not damaged. */
const DEFINITION_CHECK_PAGES = 8;
/** The largest span of pages decodePages() reads at once. */
const RUN_MAX_BYTES = 16 << 20;
export async function openTable(source: ByteSource, table: TableDef, options: OpenOptions = {}): Promise<TableReader> {
  const zone = await tableError(source, table, async () => timeZone(options.timeZone ?? 'UTC'));
  const ts = options.raw ? Tablespace.openRaw(rawView(source, options.raw.base), options.raw) : await Tablespace.open(source, { keys: options.keys });
  const secondary = await tableError(source, table, async () => (options.indexName === undefined ? null : secondaryIndexName(table, options.indexName)));
  const index = secondary !== null && !options.index ? await tableError(source, table, () => secondaryTree(ts, table, secondary)) : options.index;
  const root = await chooseRoot(ts, index, Boolean(options.raw));
  const compact = root.header.compact;
  // Instant ADD/DROP COLUMN: fields in physical order, and the defaults of fields records lack.
  const layout = await fileLayout(ts, table, root.page, compact, secondary);
  const info: TableInfo = {
    file: source.name,
    fileSize: source.size,
    pageSize: ts.pageSize,
    pageCount: ts.pageCount,
    spaceId: ts.fsp.spaceId,
    checksumFormat: ts.fullCrc32 ? 'full_crc32' : 'mysql',
    rowFormat: fileRowFormat(ts, compact, table),
    rootPage: root.page,
    indexId: root.header.indexId,
    treeHeight: root.page < 0 ? 0 : root.header.level + 1,
    clusteredOn: layout.keyKind,
    leafSource: root.page < 0 ? 'scan' : 'btree',
  };
  const versions = options.versions ?? null;
  const entries = await secondaryRollback(ts, table, layout, compact, versions);
  return new ClusteredReader(ts, root, info, layout, compact, options.mode ?? 'live', zone, versions, entries, definitionClues(ts, compact, table), options.systemColumns === true);
}

/** What `step` returns; what it throws, as an IbdError naming the file and the table. */
async function tableError<T>(source: ByteSource, table: TableDef, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    if (e instanceof IbdError) throw e;
    throw new IbdError(source.name, `table \`${table.name}\`: ${(e as Error).message}`);
  }
}

class ClusteredReader implements TableReader {
  readonly columns: string[];
  readonly stats: DecodeStats = emptyStats();
  readonly keyParts: readonly KeyColumn[];
  private readonly leaf: LeafDecoder;

  constructor(
    private readonly ts: Tablespace,
    private readonly root: IndexRoot,
    readonly info: TableInfo,
    private readonly layout: ClusteredLayout,
    private readonly compact: boolean,
    readonly mode: RowMode,
    private readonly zone: TimeZone,
    versions: RowVersions | null,
    /** A secondary index's read with `versions`: its entries' rollback, or why it cannot be had. */
    entries: SecondaryUndo | string | null,
    /** What the definition says that the file contradicts, added to the verdict when it does not fit. */
    clues = '', system = false,
  ) {
    this.columns = layout.columns.map((c) => c.name);
    this.keyParts = layout.keyParts;
    if (hasStateColumn(mode)) this.columns.push(ROW_STATE_COLUMN);
    const history = versions?.history === true;
    if (history) this.columns.push(...HISTORY_COLUMNS);
    this.context = { ...leafContext(ts, layout, compact, mode, this.stats, zone, history, system), versions, secondaryUndo: typeof entries === 'string' ? null : entries, clues };
    if (entries !== null) notRolledBack(this.stats, layout, versions, entries);
    this.columns.push(...systemColumns(this.context));
    this.leaf = new LeafDecoder(this.context);
  }

  private readonly context: LeafContext;

  async checkDefinition(): Promise<void> {
    // Aside: its own decoder and counts, so that the pages decoded here are not counted twice.
    const check = new LeafDecoder({ ...this.context, stats: emptyStats(), versions: null });
    const out = new BatchBuilder(this.columns.length, 64, this.info.pageSize);
    for (const no of (await this.leafPages()).slice(0, DEFINITION_CHECK_PAGES)) {
      const page = await this.ts.page(no).catch(() => null);
      if (page === null || !this.isOurLeaf(page)) continue;
      out.clear();
      await check.decode(page, out, true);
      if (check.lastTrusted) return;
    }
  }

  private problem(page: number | null, record: number | null, message: string): void {
    addProblem(this.stats, page, record, message);
  }

  async *rows(options: ReadOptions = {}): AsyncGenerator<Row[]> {
    for await (const batch of this.batches(options)) yield batchRows(batch);
  }

  async *batches(options: ReadOptions = {}): AsyncGenerator<RowBatch> {
    const batchSize = options.batchSize ?? 1000;
    const leaves = await this.leafPages();
    // Room for the rows of a few leaves at first (it grows): a one-page table, of which a listing
    // decodes 10,000 in a row, needs no builder for thousands of rows.
    const out = new BatchBuilder(this.columns.length, Math.min(batchSize, 128 * Math.max(1, leaves.length)), Math.max(1, Math.min(4, leaves.length)) * this.info.pageSize, options.separated);
    let first = true;
    for (let i = 0; i < leaves.length; i++) {
      options.signal?.throwIfAborted();
      first = await this.decodePage(leaves[i], out, first, null, null);
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

  async countLeaves(pageNos: ArrayLike<number>, options: CountOptions = {}): Promise<Int32Array<ArrayBuffer>> {
    const counts = await countLeafRows(this.ts, pageNos, { indexId: this.info.indexId, compact: this.compact, mode: this.mode, ...options });
    markDisowned(pageNos, counts, await this.disownedLeaves());
    let scratch: BatchBuilder | null = null;
    // Versions taken back change which records are rows: every page is decoded to count them.
    const decodeAll = this.context.versions != null && (this.context.layout.secondary === undefined || this.context.secondaryUndo != null);
    for (let i = 0; i < counts.length; i++) {
      if (counts[i] !== DECODE_TO_COUNT && !decodeAll) continue;
      options.signal?.throwIfAborted();
      scratch ??= new BatchBuilder(this.columns.length);
      counts[i] = (await this.decodePages([pageNos[i]], { into: scratch })).rows;
    }
    return counts;
  }

  /** Reads a node pointer's child page number (how depends on the record format and key). */
  private childOf(): (p: Uint8Array, o: number) => number {
    return this.compact ? (p, o) => compactChildPage(p, o, this.layout) : redundantChildPage;
  }

  /** Through the B-tree; if it is damaged, by scanning every page of the file for our leaves. */
  private async findLeaves(): Promise<number[]> {
    if (this.root.page < 0) {
      this.problem(null, null, `no B-tree root was found; the leaf pages of index ${this.info.indexId} were found by scanning the whole file, so rows may come out of primary-key order`);
      return (await this.leafScan()).pages;
    }
    try {
      return await leafPageNumbers(this.ts, this.root, this.childOf());
    } catch (e) {
      if (!(e instanceof IbdError) && !(e instanceof RecordError)) throw e;
      this.problem(e instanceof IbdError ? e.page : null, null, `the B-tree cannot be walked (${e instanceof IbdError ? e.detail : e.message}); found the leaf pages by scanning the whole file instead, so rows may come out of primary-key order`);
      this.info.leafSource = 'scan';
      return (await this.leafScan()).pages;
    }
  }

  /**
   * Reads pages mostly next to each other (a run of leaves) at once (Tablespace.readRun), for a
   * caller about to decode them one by one; decodePages() does it for its own.
   */
  async readRun(pageNos: ArrayLike<number>, pooled = false): Promise<PageRun | null> {
    if (pageNos.length < 2) return null;
    let lo = pageNos[0];
    let hi = pageNos[0];
    for (let i = 1; i < pageNos.length; i++) {
      if (pageNos[i] < lo) lo = pageNos[i];
      if (pageNos[i] > hi) hi = pageNos[i];
    }
    return hi - lo < 2 * pageNos.length && (hi - lo + 1) * this.ts.physicalSize <= RUN_MAX_BYTES ? this.ts.readRun(lo, hi, pooled) : null;
  }

  releaseRun(run: PageRun | null): void {
    this.ts.release(run);
  }

  lookup(range: KeyRange): KeyLookup {
    const { ts, root, layout, compact, zone } = this;
    const decodeLeaf = (no: number) => this.decodePages([no]);
    const zonedKey = zone !== UTC && layout.keyParts.some((k) => k.column.type === 'timestamp');
    const decodeKeys = zonedKey ? (page: Page) => this.decodeInUtc(page) : null;
    return planLookup({ ts, root, layout, compact, childOf: this.childOf(), decodeLeaf, leafPages: () => this.leafPages(), purged: modeIncludes(this.mode, 'purged'), zone, decodeKeys }, range);
  }

  /** A leaf's rows as decodePages gives them but with TIMESTAMP in UTC: aside, its own decoder and counts (not counted twice). */
  private async decodeInUtc(page: Page): Promise<RowBatch> {
    this.utcLeaf ??= new LeafDecoder(leafContext(this.ts, this.layout, this.compact, this.mode, emptyStats()));
    const out = new BatchBuilder(this.columns.length);
    const pending = this.utcLeaf.decode(page, out, false, this.root.page < 0 ? await this.disowned(page) : null);
    if (pending !== null) await pending;
    return releaseBatch(out);
  }

  private utcLeaf: LeafDecoder | null = null;

  async decodePages(pageNos: readonly number[], options: DecodePagesOptions = {}): Promise<RowBatch> {
    const into = options.into;
    into?.clear();
    // Room for the text of about a page's worth of bytes per page: most runs never grow it.
    const out = into ?? new BatchBuilder(this.columns.length, pageNos.length * 64, pageNos.length * this.info.pageSize);
    const own = options.run === undefined ? await this.readRun(pageNos) : null;
    const run = options.run ?? own;
    try {
      let first = options.first === true;
      for (let i = 0; i < pageNos.length; i++) first = await this.decodePage(pageNos[i], out, first, run, options.hook ?? null);
    } finally {
      this.ts.release(own);
    }
    return into ? batchView(into) : releaseBatch(out);
  }

  /**
   * Decodes one leaf page into `out`. `first`: it is the table's first leaf page, where a misfit is
   * the definition's; returns whether the next page is to be taken as the first (this one was
   * unreadable or damaged, so the definition is still unchecked).
   */
  private async decodePage(pageNo: number, out: BatchBuilder, first: boolean, run: PageRun | null, hook: LeafPageHook | null): Promise<boolean> {
    const page = await this.readLeaf(pageNo, run);
    if (page === null) return first;
    // Only pages with off-page columns have anything to wait for.
    // Only a scan's leaves are questioned (and awaited): a B-tree's page costs no extra turn.
    const pending = this.leaf.decode(page, out, first, this.root.page < 0 ? await this.disowned(page) : null, hook);
    if (pending !== null) await pending;
    return first && !this.leaf.lastTrusted;
  }

  /**
   * Leaves found by a scan, with no B-tree above them, may include pages a merge freed, whose
   * records are an old copy (leaf-chain.ts): why `page` is one, or null. A B-tree's leaves are its own.
   */
  private async disowned(page: Page): Promise<string | null> {
    if (page.checksum === 'bad') return null;
    return (await this.leafScan()).disowned.get(page.no) ?? null;
  }

  async disownedLeaves(): Promise<ReadonlyMap<number, string>> {
    return this.root.page < 0 ? (await this.leafScan()).disowned : new Map();
  }

  private scanned: Promise<LeafScan> | null = null;

  /** The scan for leaves, once (each worker's reader makes its own, as it decodes pages another found). */
  private leafScan(): Promise<LeafScan> {
    this.scanned ??= scanLeafPages(this.ts, this.info.indexId);
    return this.scanned;
  }

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
    // A damaged page the tree points to may have a damaged header too: its body is still carved.
    if (!this.isOurLeaf(page) && page.checksum !== 'bad') {
      const type = u16(page.bytes, FIL_PAGE_TYPE);
      const h = readIndexHeader(page.bytes);
      this.stats.pagesSkipped++;
      this.problem(pageNo, null, `the B-tree points to page ${pageNo} as a leaf of index ${this.info.indexId}, but it is ${pageTypeName(type)} (index ${h.indexId}, level ${h.level}); skipped`);
      return null;
    }
    if (page.checksum === 'bad') this.stats.badChecksums++;
    return page;
  }

  private isOurLeaf(page: Page): boolean {
    const h = readIndexHeader(page.bytes);
    return isIndexPageType(u16(page.bytes, FIL_PAGE_TYPE)) && h.indexId === this.info.indexId && h.level === 0;
  }
}
