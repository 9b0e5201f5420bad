/**
 * The page inspector: one page of a tablespace described whole, as a front end shows it (the data
 * shapes are in page-inspection.ts). Its state as the page map gives it (valid, checksum-bad,
 * all-zero, free, missing, unreadable), its FIL header and trailer field by field, the checksum it
 * stores against what each algorithm the file may use computes, the structures of its type (INDEX:
 * page-inspect-index.ts; FSP, XDES, INODE, BLOB: page-inspect-space.ts), the problems the decoder's
 * checks find, and the byte ranges of every structure for a hex dump.
 */
import { findIndexRoots, type IndexRoot } from '../btree/btree.ts';
import { truncationOf } from '../btree/truncation.ts';
import { IbdError } from '../errors.ts';
import { pageChecksums, type ChecksumResult } from '../pages/checksum.ts';
import { FIL_NULL, FIL_PAGE_LSN, FIL_PAGE_OFFSET, FIL_PAGE_TYPE, isAllZero, PageType, pageTypeName, u16, u32 } from '../pages/fil-header.ts';
import { readIndexHeader } from '../pages/index-page.ts';
import { fullCrc32StoredSize, isFullCrc32Compressed } from '../pages/page-compression.ts';
import { zipPageCrc32 } from '../pages/zip-page.ts';
import type { TableDef } from '../schema.ts';
import type { EncryptionKeys } from '../tablespace/encryption.ts';
import type { ByteSource } from '../tablespace/source.ts';
import { Tablespace, type Page } from '../tablespace/tablespace.ts';
import { timeZone, type TimeZone } from '../values/time-zone.ts';
import { emptyStats } from './decode-stats.ts';
import { pageIsFree } from './free-pages.ts';
import { fileLayout, leafContext } from './leaf-context.ts';
import { LeafDecoder } from './leaf-decoder.ts';
import { inspectIndexPage, type InspectTable } from './page-inspect-index.ts';
import { inspectSpacePage } from './page-inspect-space.ts';
import { fieldRanges, problem, readField, type ByteSpan, type ChecksumCheck, type ChecksumReport, type InspectProblem, type PageInspection, type Section } from './page-inspection.ts';
import { ROW_STATE_COLUMN } from './row-state.ts';

export interface InspectOptions {
  keys?: EncryptionKeys;
  /** The table definition: the records of its clustered index's leaf pages are decoded with it. */
  table?: TableDef | null;
  /** The zone the records' TIMESTAMP values are shown in, as the table's rows are (time-zone.ts): UTC by default. */
  timeZone?: string;
}

const MAGIC_NONE = 0xdeadbeef;

function filHeader(stored: Uint8Array, no: number, fullCrc32: boolean): Section {
  const link = (name: string, offset: number) => {
    const f = readField(stored, name, offset, 4);
    return f.value === FIL_NULL ? { ...f, note: 'none (FIL_NULL)' } : f;
  };
  const offset = u32(stored, FIL_PAGE_OFFSET);
  return {
    title: 'FIL header',
    fields: [
      fullCrc32
        ? readField(stored, 'FIL_PAGE_FCRC32_KEY_VERSION', 0, 4, 'the key version the page is encrypted with (0: not encrypted)')
        : readField(stored, 'FIL_PAGE_SPACE_OR_CHKSUM', 0, 4, 'checksum'),
      readField(stored, 'FIL_PAGE_OFFSET', FIL_PAGE_OFFSET, 4, offset === no ? 'the page number' : `the page number, yet this is page ${no}`),
      link('FIL_PAGE_PREV', 8),
      link('FIL_PAGE_NEXT', 12),
      readField(stored, 'FIL_PAGE_LSN', FIL_PAGE_LSN, 8, 'LSN of the newest change written to the page'),
      readField(stored, 'FIL_PAGE_TYPE', FIL_PAGE_TYPE, 2, pageTypeName(u16(stored, FIL_PAGE_TYPE))),
      readField(stored, 'FIL_PAGE_FILE_FLUSH_LSN_OR_KEY_VERSION', 26, 8, 'the flushed LSN (system tablespace page 0); MariaDB: key version and checksum of an encrypted page, or the algorithm of a page-compressed one'),
      readField(stored, 'FIL_PAGE_SPACE_ID', 34, 4),
    ],
  };
}

/** The FIL trailer as stored; null for a ROW_FORMAT=COMPRESSED page, which has none. */
function filTrailer(stored: Uint8Array, ts: Tablespace): Section | null {
  if (ts.fsp.flags.zipSize !== 0) return null;
  const end = stored.length;
  if (ts.fullCrc32) {
    const size = fullCrc32StoredSize(stored) ?? end;
    const checksum = readField(stored, 'FIL_PAGE_FCRC32_CHECKSUM', size - 4, 4, 'CRC-32C of the bytes before it');
    if (isFullCrc32Compressed(stored)) return { title: 'FIL trailer (of the compressed page)', fields: [checksum] };
    return { title: 'FIL trailer', fields: [readField(stored, 'FIL_PAGE_FCRC32_END_LSN', end - 8, 4, 'low 32 bits of FIL_PAGE_LSN'), checksum] };
  }
  return {
    title: 'FIL trailer',
    fields: [
      readField(stored, 'FIL_PAGE_END_LSN_OLD_CHKSUM', end - 8, 4, 'checksum (the innodb algorithm\'s old-style one, or crc32 again)'),
      readField(stored, 'FIL_PAGE_END_LSN_OLD_CHKSUM + 4', end - 4, 4, 'low 32 bits of FIL_PAGE_LSN'),
    ],
  };
}

/** One algorithm's check: what is stored at each of `offsets` against what it computes there. */
function check(algorithm: string, stored: Uint8Array, places: [number, number][]): ChecksumCheck {
  const list = places.map(([offset, computed]) => ({ offset, stored: u32(stored, offset), computed }));
  return { algorithm, places: list, matches: list.every((p) => p.stored === p.computed) };
}

/** The checksum fields of the page as stored against each algorithm of the file's format. */
function checksumReport(stored: Uint8Array, ts: Tablespace, result: ChecksumResult, no: number): ChecksumReport {
  const report = checksumChecks(stored, ts, result);
  return { ...report, damaged: no === 0 && ts.page0Damaged !== null ? `page 0 (the space header) is damaged: ${ts.page0Damaged}` : null };
}

function checksumChecks(stored: Uint8Array, ts: Tablespace, result: ChecksumResult): Omit<ChecksumReport, 'damaged'> {
  const end = stored.length;
  const lsnLow = u32(stored, FIL_PAGE_LSN + 4);
  if (ts.fsp.flags.zipSize !== 0) return { result, checks: [check('crc32 (ROW_FORMAT=COMPRESSED)', stored, [[0, zipPageCrc32(stored)]])], lsnMatches: null };
  if (ts.fullCrc32) {
    const size = fullCrc32StoredSize(stored) ?? end;
    const compressed = isFullCrc32Compressed(stored);
    return { result, checks: [check('full_crc32', stored, [[size - 4, pageChecksums(stored, size).fullCrc32]])], lsnMatches: compressed ? null : u32(stored, end - 8) === lsnLow };
  }
  const c = pageChecksums(stored);
  const checks = [
    check('crc32', stored, [[0, c.crc32], [end - 8, c.crc32]]),
    check('innodb', stored, [[0, c.innodbHeader], [end - 8, c.innodbTrailer]]),
    check('none', stored, [[0, MAGIC_NONE], [end - 8, MAGIC_NONE]]),
  ];
  // MariaDB stores an encrypted page's checksum after its key version.
  if (ts.encryption?.startsWith('MariaDB') && u32(stored, 26) !== 0) checks.push(check('crc32 (MariaDB encrypted page)', stored, [[30, c.crc32]]));
  return { result, checks, lsnMatches: u32(stored, end - 4) === lsnLow };
}

/** The checksum fields whose stored value no algorithm computes: the bytes a failed checksum refuses. */
function checksumFields(report: ChecksumReport): ByteSpan[] {
  const places = report.checks.flatMap((c) => c.places);
  const offsets = new Set(places.map((p) => p.offset).filter((o) => places.every((p) => p.offset !== o || p.stored !== p.computed)));
  return [...offsets].map((offset) => ({ start: offset, end: offset + 4 }));
}

/** A page past the end of a file cut short. */
function missingPage(ts: Tablespace, no: number): PageInspection {
  const cut = truncationOf(ts);
  return {
    file: ts.source.name, page: no, state: 'missing', type: 0, typeName: pageTypeName(0), bytes: new Uint8Array(0), stored: null,
    sections: [], checksum: null, index: null, ranges: [], problems: [problem(cut?.message ?? `the file ends before page ${no}`)],
  };
}

/** The table's clustered index (the root with the lowest index id) and a decoder set up for it; null when it cannot be had. */
async function inspectTable(ts: Tablespace, table: TableDef, root: IndexRoot, zone: TimeZone, problems: InspectProblem[]): Promise<InspectTable | null> {
  try {
    const layout = await fileLayout(ts, table, root.page, root.header.compact);
    const stats = emptyStats();
    const decoder = new LeafDecoder(leafContext(ts, layout, root.header.compact, 'all', stats, zone));
    return { indexId: root.header.indexId, layout, decoder, stats, columns: [...layout.columns.map((c) => c.name), ROW_STATE_COLUMN] };
  } catch (e) {
    if (!(e instanceof IbdError)) throw e;
    problems.push(problem(`the table definition cannot be used: ${e.detail}`));
    return null;
  }
}

/** Reads page `no` as stored and as its image; the image is null when it cannot be made (the reason in `problems`). */
async function readPage(ts: Tablespace, no: number, problems: InspectProblem[]): Promise<{ stored: Uint8Array; page: Page | null }> {
  const stored = (await ts.source.read(no * ts.physicalSize, ts.physicalSize)).slice();
  try {
    return { stored, page: await ts.page(no) };
  } catch (e) {
    if (!(e instanceof IbdError)) throw e;
    problems.push(problem(e.detail));
    return { stored, page: null };
  }
}

/** The state the page map gives the page: unreadable, free, all-zero, checksum-bad or valid, the first that holds. */
function stateOf(page: Page | null, free: boolean | null): PageInspection['state'] {
  if (page === null) return 'unreadable';
  if (free === true) return 'free';
  if (u16(page.bytes, FIL_PAGE_TYPE) === 0 && isAllZero(page.bytes)) return 'all-zero';
  return page.checksum === 'bad' ? 'checksum-bad' : 'valid';
}

const isBtreeType = (type: number) => type === PageType.INDEX || type === PageType.RTREE || type === PageType.SDI;

/**
 * Page `no` of the tablespace in `source`, described whole. Throws IbdError for a page outside the
 * space (neither in the file nor missing from its end) and for a file that is no tablespace.
 */
export async function inspectPage(source: ByteSource, no: number, options: InspectOptions = {}): Promise<PageInspection> {
  const ts = await Tablespace.open(source, { keys: options.keys });
  const missing = truncationOf(ts)?.missingPages ?? 0;
  if (!Number.isInteger(no) || no < 0 || no >= ts.pageCount + missing) {
    throw new IbdError(source.name, `there is no page ${no}: the file has ${ts.pageCount} pages${missing > 0 ? ` and ${missing} missing past its end` : ''}`);
  }
  if (no >= ts.pageCount) return missingPage(ts, no);
  const problems: InspectProblem[] = [];
  const { stored, page } = await readPage(ts, no, problems);
  const bytes = page?.bytes ?? stored;
  const shown = bytes === stored || isSame(bytes, stored);
  const type = u16(bytes, FIL_PAGE_TYPE);
  const state = stateOf(page, await pageIsFree(ts, no));
  const checksum = page && checksumReport(stored, ts, page.checksum, no);
  // Page 0 not believed for what it holds (all zeros, another page's bytes): said so, not as a checksum failure.
  if (checksum && checksum.damaged !== null) problems.unshift(problem(checksum.damaged));
  else if (state === 'checksum-bad' && checksum) problems.unshift(problem('the page fails its checksum: its bytes are not as the server wrote them', ...(shown ? checksumFields(checksum) : [])));
  const header = filHeader(stored, no, ts.fullCrc32);
  if (u32(stored, FIL_PAGE_OFFSET) !== no && state !== 'all-zero') problems.push(problem(`its FIL header says it is page ${u32(stored, FIL_PAGE_OFFSET)}`, { start: FIL_PAGE_OFFSET, end: FIL_PAGE_OFFSET + 4 }));
  const trailer = filTrailer(stored, ts);
  const inspection: PageInspection = {
    file: source.name, page: no, state, type, typeName: pageTypeName(type), bytes, stored: shown ? null : stored,
    sections: [header], checksum, index: null, ranges: fieldRanges(header, 'fil-header'), problems,
  };
  if (page !== null && state !== 'all-zero') await typeParts(inspection, page, ts, options.table ?? null, timeZone(options.timeZone ?? 'UTC'));
  if (trailer) {
    inspection.sections.push(trailer);
    if (stored.length === bytes.length) inspection.ranges.push(...fieldRanges(trailer, 'fil-trailer'));
  }
  inspection.ranges.sort((a, b) => a.start - b.start || b.end - a.end);
  return inspection;
}

function isSame(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The structures of the page's type, added to `inspection`. */
async function typeParts(inspection: PageInspection, page: Page, ts: Tablespace, table: TableDef | null, zone: TimeZone): Promise<void> {
  const type = inspection.type;
  if (!isBtreeType(type)) {
    const part = inspectSpacePage(page.bytes, page.no, type, ts);
    inspection.sections.push(...part.sections);
    inspection.ranges.push(...part.ranges);
    return;
  }
  const roots = await findIndexRoots(ts).catch(() => []);
  const clustered = roots.length === 0 ? null : readIndexHeader(page.bytes).indexId === roots[0].header.indexId;
  const decodeAs = table !== null && clustered === true ? await inspectTable(ts, table, roots[0], zone, inspection.problems) : null;
  const part = await inspectIndexPage(page, decodeAs, clustered);
  inspection.index = part.index;
  inspection.sections.push(...part.sections);
  inspection.ranges.push(...part.ranges);
  inspection.problems.push(...part.problems);
}
