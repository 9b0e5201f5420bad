/**
 * What a tablespace file is, before (and without) decoding any row and without a table definition:
 * page size, space flags and what they say about the server that wrote the file, the B-trees it
 * holds and their heights, a checksum check of every page, and the exact number of rows.
 *
 * Three stages. `quickSummary` reads page 0 and the index roots (a handful of pages). `summarize`
 * then reads the file twice, in file order, in large sequential chunks:
 *  1. counting (no checksums: the row count comes first): the extent descriptors (XDES entries on
 *     page 0 and on every descriptor page) say which pages are free — a page freed by a B-tree merge
 *     keeps its old bytes, so it is left out; every INDEX page in use is counted against its index
 *     (pages, levels), and on the leaf pages of the clustered index the record list is walked:
 *     rows = records neither delete-marked (deleted but not purged yet) nor MariaDB's instant-ALTER
 *     metadata record. That is exactly the number of rows the decoder returns from an undamaged
 *     file, known long before the rows are decoded (`rows` is set when this pass ends);
 *  2. checking: every page's checksum is verified (pages checked / bad / never written).
 * With the option `pageMap`, both passes fill in a record per page as they go (page-map.ts).
 *
 * Plain TypeScript, no DOM: runs in the page's worker, in Node and in tests.
 */
import { findIndexRoots, type IndexRoot, type UnreadSegmentPage } from '../btree/btree.ts';
import type { ChecksumResult } from '../pages/checksum.ts';
import { FIL_NULL, FIL_PAGE_PREV, FIL_PAGE_TYPE, isAllZero, PageType, pageTypeName, u16, u32 } from '../pages/fil-header.ts';
import { readIndexHeader, tallyRecords, type RecordTally } from '../pages/index-page.ts';
import { groupFreeFlags } from './free-pages.ts';
import type { PageMap } from './page-map.ts';
import { plainPages, storedChecksum, TRANSFORMED_TYPES } from './page-map-fill.ts';
import { readAhead, type ByteSource } from '../tablespace/source.ts';
import type { EncryptionKeys } from '../tablespace/encryption.ts';
import { Tablespace } from '../tablespace/tablespace.ts';
import { truncationOf, type MissingLeaves, type Truncation } from '../btree/truncation.ts';

export interface IndexSummary {
  /** Index id (decimal text: it is a 64-bit number). */
  indexId: string;
  rootPage: number;
  /** Levels of the B-tree (1 = the root is the only page). */
  height: number;
  /** The clustered index (the table's rows); the others are secondary indexes. */
  clustered: boolean;
  /** Pages of this index in use, found by the scan (0 until it ran). */
  pages: number;
  leafPages: number;
  /** User records on its leaf pages, delete-marked ones included (PAGE_N_RECS). */
  leafRecords: number;
}

export interface ChecksumSummary {
  /** Pages whose checksum was verified (every page of the file once the scan is complete). */
  checked: number;
  /** Pages whose checksum does not match: damaged or torn. */
  bad: number;
  /** All-zero pages: allocated but never written (valid). */
  empty: number;
  /** Page numbers of the first bad pages. */
  badPages: number[];
  /** How many pages carry each checksum kind. */
  kinds: Partial<Record<ChecksumResult, number>>;
}

export type RowFormatGuess = 'REDUNDANT' | 'COMPACT' | 'DYNAMIC' | 'COMPACT or DYNAMIC' | 'COMPRESSED';

export interface TablespaceSummary {
  file: string;
  fileSize: number;
  pageSize: number;
  /** Pages in the file (file size / page size). */
  pageCount: number;
  spaceId: number;
  /** The FSP space flags, raw. */
  spaceFlags: number;
  checksumFormat: 'full_crc32' | 'mysql';
  /** From the space flags and the root page; null when there is no index. */
  rowFormat: RowFormatGuess | null;
  /** MySQL 8: the file carries its own table definition (SDI). */
  sdi: boolean;
  encrypted: boolean;
  /** MariaDB PAGE_COMPRESSED=1. */
  pageCompressed: boolean;
  /** Plain-language guesses about the server that wrote the file. */
  serverHints: string[];
  indexes: IndexSummary[];
  /** Rows in the clustered index (null until the counting pass ended, or without a clustered index). */
  rows: number | null;
  /** Rows seen so far by the counting pass (equals `rows` once it ended). */
  rowsSoFar: number;
  /** Delete-marked records still in the clustered index (deleted rows not purged yet). */
  deletedRecords: number;
  /** Pages the counting pass has read so far. */
  pagesScanned: number;
  /** Pages that the extent descriptors mark free (not counted anywhere else but checksums). */
  freePages: number;
  checksums: ChecksumSummary;
  /** Page type name → pages, for the pages in use. */
  pageTypes: Record<string, number>;
  /** True once every page has been counted and checked. */
  complete: boolean;
  /** Things the scan could not make sense of (plain language, with page numbers). */
  problems: string[];
  /** Page 0 (the space header) damaged or disagreeing with the pages, in a sentence (Tablespace.headerNote); else null. */
  spaceHeader: string | null;
  /** Page 0 is not believed (Tablespace.page0Damaged): among the bad pages for that, whatever its checksum (all zeros is none). */
  page0Damaged: boolean;
  /**
   * The file is cut short: from the space header and the file size at once, then with the clustered
   * index's leaf pages past the end once the counting pass ended; null when nothing is missing.
   */
  truncation: Truncation | null;
}

export interface SummarizeOptions {
  signal?: AbortSignal;
  /** Called after the quick stage, then every `progressPages` pages, and when each pass ends, with a snapshot. */
  onProgress?: (summary: TablespaceSummary) => void;
  progressPages?: number;
  /** Bytes per read (default 4 MiB). */
  chunkBytes?: number;
  /** Keys for an encrypted tablespace (without them its encrypted pages cannot be counted or checked). */
  keys?: EncryptionKeys;
  /** Filled in (reset first) with a record per page as the passes read them. */
  pageMap?: PageMap;
}

const MAX_BAD_PAGES = 100;
const MAX_PROBLEMS = 50;

function rowFormatOf(ts: Tablespace, root: IndexRoot | undefined): RowFormatGuess | null {
  if (!root) return null;
  if (!root.header.compact) return 'REDUNDANT';
  const f = ts.fsp.flags;
  if (f.zipSize !== 0) return 'COMPRESSED';
  // Without page 0 the flags are made up from the pages, which do not tell the two apart.
  if (f.fullCrc32 || ts.page0Damaged !== null) return 'COMPACT or DYNAMIC';
  return f.atomicBlobs ? 'DYNAMIC' : 'COMPACT';
}

function serverHints(ts: Tablespace, rowFormat: RowFormatGuess | null): string[] {
  const f = ts.fsp.flags;
  if (ts.page0Damaged !== null) return damagedHints(f);
  const hints: string[] = [];
  if (f.fullCrc32) hints.push('MariaDB 10.5 or later (full_crc32 page format)');
  if (f.sdi) hints.push('MySQL 8.0 or later (the file carries its own table definition, SDI)');
  if (!f.fullCrc32 && f.pageCompression) hints.push('MariaDB (PAGE_COMPRESSED table)');
  if (!f.fullCrc32 && !f.sdi) {
    if (f.raw === 0 && rowFormat !== 'REDUNDANT') {
      hints.push('MySQL 5.6 or earlier, MariaDB 10.1 or earlier, or a COMPACT table of a later server');
    } else if (f.atomicBlobs) {
      hints.push('MySQL 5.7, or MariaDB 10.4 or earlier (or later with innodb_checksum_algorithm other than full_crc32)');
    }
  }
  if (ts.encryption) hints.push(`encrypted: ${ts.encryption}`);
  else if (f.encrypted) hints.push('encrypted tablespace (MySQL keyring)');
  if (f.zipSize !== 0) hints.push(`ROW_FORMAT=COMPRESSED, KEY_BLOCK_SIZE=${f.zipSize / 1024}`);
  return hints;
}

/** What the pages alone tell of the server, page 0's flags being lost. */
function damagedHints(f: Tablespace['fsp']['flags']): string[] {
  const hints = [
    f.fullCrc32 ? 'MariaDB 10.5 or later (full_crc32 pages)'
      : f.sdi ? 'MySQL 8.0 or later (SDI pages)'
        : 'MySQL, or MariaDB with innodb_checksum_algorithm other than full_crc32 (crc32/innodb pages)',
  ];
  if (f.zipSize !== 0) hints.push(`ROW_FORMAT=COMPRESSED, KEY_BLOCK_SIZE=${f.zipSize / 1024}`);
  return hints;
}

/** What the summary says of a page findIndexRoots could not read. */
function unreadProblem({ error, first }: UnreadSegmentPage): string {
  const what = `page ${error.page}, the first page of a file segment (an index's root or first leaf), cannot be read (${error.detail})`;
  return first ? `${what}: it may be the clustered index's root, so no index is taken for the table's rows and they are not counted` : `${what}: an index rooted there, if any, is not listed`;
}

/** `clusteredKnown`: the lowest index id is the clustered index (see quick()). */
function indexSummaries(roots: IndexRoot[], clusteredKnown: boolean): IndexSummary[] {
  return roots.map((r, i) => ({
    indexId: r.header.indexId.toString(),
    rootPage: r.page,
    height: r.header.level + 1,
    clustered: clusteredKnown && i === 0,
    pages: 0,
    leafPages: 0,
    leafRecords: 0,
  }));
}

function snapshot(s: TablespaceSummary): TablespaceSummary {
  return {
    ...s,
    serverHints: s.serverHints.slice(),
    indexes: s.indexes.map((x) => ({ ...x })),
    checksums: { ...s.checksums, badPages: s.checksums.badPages.slice(), kinds: { ...s.checksums.kinds } },
    pageTypes: { ...s.pageTypes },
    problems: s.problems.slice(),
    truncation: s.truncation && { ...s.truncation },
  };
}

async function quick(ts: Tablespace): Promise<{ summary: TablespaceSummary; roots: IndexRoot[] }> {
  const source = ts.source;
  const unread: UnreadSegmentPage[] = [];
  const roots = await findIndexRoots(ts, unread);
  // In an encrypted file a page that cannot be read lacks its key (decryption itself cannot fail):
  // every page does, and the answer is the key wanted, not a summary of unreadable pages.
  if (unread.length > 0 && ts.encryption !== null) throw unread[0].error;
  // An unread page before every root may be the clustered index's: the lowest id found is then not known to be it.
  const clusteredKnown = !unread.some((u) => u.first);
  const rowFormat = rowFormatOf(ts, roots[0]);
  const f = ts.fsp.flags;
  const summary: TablespaceSummary = {
    file: source.name,
    fileSize: source.size,
    pageSize: ts.pageSize,
    pageCount: ts.pageCount,
    spaceId: ts.fsp.spaceId,
    spaceFlags: f.raw,
    checksumFormat: ts.fullCrc32 ? 'full_crc32' : 'mysql',
    rowFormat,
    sdi: f.sdi,
    encrypted: f.encrypted,
    pageCompressed: f.pageCompression !== 0,
    serverHints: serverHints(ts, rowFormat),
    indexes: indexSummaries(roots, clusteredKnown),
    rows: null,
    rowsSoFar: 0,
    deletedRecords: 0,
    pagesScanned: 0,
    freePages: 0,
    checksums: { checked: 0, bad: 0, empty: 0, badPages: [], kinds: {} },
    pageTypes: {},
    complete: false,
    problems: unread.slice(0, MAX_PROBLEMS).map(unreadProblem),
    spaceHeader: ts.headerNote,
    page0Damaged: ts.page0Damaged !== null,
    truncation: truncationOf(ts),
  };
  return { summary, roots };
}

/** Page 0 and the index roots only: a few small reads. Throws IbdError when this is not a tablespace. */
export async function quickSummary(source: ByteSource, keys?: EncryptionKeys): Promise<TablespaceSummary> {
  return (await quick(await Tablespace.open(source, { keys }))).summary;
}

/**
 * Reads pages [0, count) in file order, `chunk` bytes at a time, yielding each page's bytes as stored
 * (valid until the next page is asked for). The chunks go through the worker's reused read buffers
 * (readAhead): a fresh buffer per read left the whole file, twice over, as garbage for the worker to
 * collect (the page's memory rose by ~40 MB when this scan started).
 */
async function* pagesInOrder(source: ByteSource, pageSize: number, count: number, chunk: number, signal?: AbortSignal): AsyncGenerator<[number, Uint8Array]> {
  const perRead = Math.max(1, Math.floor(chunk / pageSize));
  const reads = Math.ceil(count / perRead);
  let first = 0;
  for await (const bytes of readAhead(source, reads, (k) => [k * perRead * pageSize, Math.min(perRead, count - k * perRead) * pageSize])) {
    signal?.throwIfAborted();
    for (let i = 0; (i + 1) * pageSize <= bytes.length; i++) yield [first + i, bytes.subarray(i * pageSize, (i + 1) * pageSize)];
    first += perRead;
  }
}

/**
 * Counts (pass 1) and checks (pass 2) every page; see the top of this file. A file whose pages all
 * need decrypting or decompressing (ROW_FORMAT=COMPRESSED, encrypted, MariaDB PAGE_COMPRESSED) is read
 * once, through Tablespace.page(), counting and checking together. Rejects with the signal's reason
 * when aborted.
 */
export async function summarize(source: ByteSource, options: SummarizeOptions = {}): Promise<TablespaceSummary> {
  const ts = await Tablespace.open(source, { keys: options.keys });
  const { summary: s, roots } = await quick(ts);
  const { signal, onProgress, pageMap: map } = options;
  map?.reset(ts.pageCount, s.truncation?.missingPages ?? 0, ts.pageSize, roots.map((r) => r.header.indexId));
  const every = Math.max(1, options.progressPages ?? 2048);
  const chunk = options.chunkBytes ?? 4 << 20;
  onProgress?.(snapshot(s));

  const byId = new Map<bigint, IndexSummary>();
  roots.forEach((r, i) => byId.set(r.header.indexId, s.indexes[i]));
  const clusteredId = s.indexes[0]?.clustered ? roots[0].header.indexId : null;
  const compact = roots[0]?.header.compact ?? true;
  const freeLimit = ts.fsp.freeLimit;
  const problem = (text: string) => {
    if (s.problems.length < MAX_PROBLEMS) s.problems.push(text);
  };
  const tally: RecordTally = { live: 0, deleted: 0, other: 0 };
  const tree: TreeCounts = { pages: [], pointers: [] };
  let groupFree: Uint8Array | null = null;
  const leftmostLeaves: number[] = [];
  // Descriptor pages come every `physicalSize` pages (KEY_BLOCK_SIZE in a ROW_FORMAT=COMPRESSED
  // tablespace: see xdes.ts), and the plain path reads pages as stored: both are the physical size.
  const size = ts.physicalSize;

  const checked = (no: number, result: ChecksumResult) => {
    map?.checked(no, result);
    s.checksums.checked++;
    s.checksums.kinds[result] = (s.checksums.kinds[result] ?? 0) + 1;
    if (result === 'bad') {
      s.checksums.bad++;
      if (s.checksums.badPages.length < MAX_BAD_PAGES) s.checksums.badPages.push(no);
    } else if (result === 'empty') {
      s.checksums.empty++;
    }
  };

  /** Counts one page image (the logical image, for the pages that matter). */
  const count = (no: number, bytes: Uint8Array) => {
    s.pagesScanned++;
    if (no % size === 0) {
      groupFree = groupFreeFlags(bytes, no, ts, freeLimit);
      if (groupFree === null) {
        // A freed leaf keeps its old records: counted as if in use, they add rows the table no longer has.
        problem(`page ${no}: the extent descriptor page is damaged; free pages in pages ${no}–${Math.min(no + size, ts.pageCount) - 1} cannot be told apart from used ones, so the row count may include the old rows of freed pages`);
      }
    }
    if (groupFree !== null && groupFree[no % size] === 1) {
      s.freePages++;
      map?.free(no, bytes);
      return;
    }
    const type = u16(bytes, FIL_PAGE_TYPE);
    if (type === 0 && isAllZero(bytes)) {
      map?.allZero(no);
      return;
    }
    map?.read(no, bytes);
    const name = pageTypeName(type);
    s.pageTypes[name] = (s.pageTypes[name] ?? 0) + 1;
    if (type !== PageType.INDEX && type !== PageType.RTREE) return;
    const h = readIndexHeader(bytes);
    const index = byId.get(h.indexId);
    if (!index) return;
    index.pages++;
    if (h.indexId === clusteredId) countLevel(tree, h.level, h.nRecs);
    if (h.level !== 0) return;
    index.leafPages++;
    index.leafRecords += h.nRecs;
    if (h.indexId === clusteredId) {
      if (u32(bytes, FIL_PAGE_PREV) === FIL_NULL) leftmostLeaves.push(no);
      countLeafRows(bytes, compact, h.nRecs, no, s, tally, problem);
    }
  };

  /** The page image through the Tablespace (decrypted, decompressed), or null when it cannot be read. */
  const viaTablespace = async (no: number) => {
    try {
      return await ts.page(no);
    } catch (e) {
      problem((e as Error).message);
      map?.unreadable(no);
      return null;
    }
  };

  const plain = plainPages(ts);
  if (plain) {
    // Pass 1: count.
    for await (const [no, raw] of pagesInOrder(source, size, ts.pageCount, chunk, signal)) {
      const bytes = TRANSFORMED_TYPES.has(u16(raw, FIL_PAGE_TYPE)) ? ((await viaTablespace(no))?.bytes ?? raw) : raw;
      count(no, bytes);
      if (onProgress && s.pagesScanned % every === 0) onProgress(snapshot(s));
    }
  } else {
    // One pass through the Tablespace: count and check together.
    for (let no = 0; no < ts.pageCount; no++) {
      if ((no & 255) === 0) signal?.throwIfAborted();
      const page = await viaTablespace(no);
      if (page === null) {
        s.pagesScanned++;
        checked(no, 'bad');
        continue;
      }
      // Counted first: the page map takes the checksum of a page it has read.
      count(no, page.bytes);
      checked(no, page.checksum);
      if (onProgress && s.pagesScanned % every === 0) onProgress(snapshot(s));
    }
  }
  if (clusteredId !== null) {
    if (leftmostLeaves.length > 1) {
      problem(`${leftmostLeaves.length} leaf pages (${leftmostLeaves.slice(0, 5).join(', ')}) each claim to be the first of the table; the row count may include stale pages`);
    }
    s.rows = s.rowsSoFar;
    // Leaf pages past the end: only when the file is known to be cut (else they are damaged ones).
    if (s.truncation) s.truncation = truncationOf(ts, missingLeaves(tree, s.rows));
  }
  onProgress?.(snapshot(s));

  if (plain) {
    // Pass 2: check every page's checksum (as stored; special pages as the Tablespace checks them).
    for await (const [no, raw] of pagesInOrder(source, size, ts.pageCount, chunk, signal)) {
      if (TRANSFORMED_TYPES.has(u16(raw, FIL_PAGE_TYPE))) checked(no, (await viaTablespace(no))?.checksum ?? 'bad');
      else checked(no, storedChecksum(ts, no, raw));
      if (onProgress && s.checksums.checked % every === 0) onProgress(snapshot(s));
    }
  }
  s.complete = true;
  onProgress?.(snapshot(s));
  return snapshot(s);
}

/**
 * Walks one clustered leaf page's record list: adds its rows and delete-marked records to `s`
 * (MariaDB's instant-ALTER metadata record, first on the leftmost leaf, is not a row).
 */
function countLeafRows(
  bytes: Uint8Array,
  compact: boolean,
  nRecs: number,
  no: number,
  s: TablespaceSummary,
  tally: RecordTally,
  problem: (text: string) => void,
): void {
  const damage = tallyRecords(bytes, compact, tally);
  if (damage !== null) {
    problem(`page ${no}: ${damage}; counted its ${nRecs} records from the page header`);
    s.rowsSoFar += nRecs;
    return;
  }
  s.rowsSoFar += tally.live;
  s.deletedRecords += tally.deleted;
}

/** The clustered index's pages and node pointers (PAGE_N_RECS of its non-leaf pages) per level. */
interface TreeCounts {
  pages: number[];
  pointers: number[];
}

function countLevel(tree: TreeCounts, level: number, nRecs: number): void {
  tree.pages[level] = (tree.pages[level] ?? 0) + 1;
  tree.pointers[level] = (tree.pointers[level] ?? 0) + nRecs;
}

/**
 * The leaf pages the level-1 pages point to that are not in the file: each node pointer is one
 * child, so no table definition is needed to count them. When level-1 pages are missing too, the
 * leaves below them are not known: at least that many.
 */
function missingLeaves(tree: TreeCounts, rows: number): MissingLeaves | null {
  const leaves = tree.pages[0] ?? 0;
  if (tree.pointers[1] === undefined) return null;
  return {
    leaves: Math.max(0, tree.pointers[1] - leaves),
    atLeast: (tree.pages[1] ?? 0) < (tree.pointers[2] ?? 0),
    rowsPerLeaf: leaves > 0 ? rows / leaves : null,
  };
}
