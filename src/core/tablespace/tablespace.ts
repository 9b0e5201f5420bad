/**
 * A tablespace file opened through a ByteSource: page 0 tells the page size and checksum layout, and
 * pages are then read in aligned chunks (a few hundred KB to a few MB) so that walking a B-tree, whose
 * leaves mostly sit in consecutive extents, costs few reads while memory stays bounded.
 *
 * Every page goes through one hook before anything else sees it: the physical page as stored is
 * checked against its checksum, then decrypted (MariaDB file_key_management, MySQL keyring), then
 * decompressed (MariaDB PAGE_COMPRESSED, MySQL COMPRESSION=, ROW_FORMAT=COMPRESSED index pages), so
 * the rest of the decoder only ever reads ordinary page images of the logical page size.
 */
import { verifyPage, type ChecksumResult } from '../pages/checksum.ts';
import { EncryptionError, openDecryptor, type EncryptionKeys, type PageDecryptor } from './encryption.ts';
import { IbdError } from '../errors.ts';
import { crc32c } from '../pages/checksum.ts';
import { FIL_PAGE_FILE_FLUSH_LSN, FIL_PAGE_TYPE, isAllZero, PageType, u16, u32 } from '../pages/fil-header.ts';
import { isValidPageSize, parseSpaceFlags, readFspHeader, type FspHeader } from '../pages/fsp-header.ts';
import { CHECKSUM, describeFormat, flagsProblem, inferSpaceHeader, notATablespace, page0Checks, page0Problem, type SpaceHeader } from './space-header.ts';
import {
  decompressFullCrc32, decompressMariadb, decompressMysql, fullCrc32StoredSize, isFullCrc32Compressed, isMariadbCompressed, isMysqlCompressed,
  MARIADB_ALGORITHMS, PageCompressionError,
} from '../pages/page-compression.ts';
import type { RawLayout } from './orphan-scan.ts';
import { readBuffers, type ByteSource } from './source.ts';
import { decompressZipPage, isZipIndexType, verifyZipPage, zipPageCrc32 } from '../pages/zip-page.ts';
import { ZipPageError } from '../pages/zip-fields.ts';

// The byte source keeps the tablespace opened over it (Tablespace.open): declared here, above the
// source, so that the byte source knows nothing of what is read from it.
declare module './source.ts' {
  interface ByteSource {
    /**
     * The tablespace last opened over this source, set by Tablespace.open for everyone reading the
     * source to share. (Kept here rather than in a WeakMap keyed by the source: with the tablespace
     * pointing back at its source, 10,000 such entries tripled V8's garbage collection time.)
     */
    opened?: { keys: EncryptionKeys | undefined; tablespace: Promise<Tablespace> };
  }
}

/** Bytes per cached read. */
const CHUNK_BYTES = 1 << 20;
/** Chunks kept; the cache never holds more than CHUNKS_KEPT × CHUNK_BYTES. */
const CHUNKS_KEPT = 4;
/** Decrypted/decompressed pages kept, so that the B-tree's upper pages are not rebuilt on every read. */
const TRANSFORMED_KEPT = 64;
/** The largest page size: page 0 is read whole whatever its size. */
const MAX_PAGE_SIZE = 65536;
/** MariaDB's FIL_PAGE_TYPE_INSTANT: a clustered index root after instant ALTER TABLE (MySQL uses 18 for SDI_BLOB). */
const MARIADB_INSTANT_ROOT = 18;

export interface Page {
  no: number;
  /**
   * The logical page image: decrypted and decompressed, `pageSize` bytes, except the non-index pages
   * of a ROW_FORMAT=COMPRESSED tablespace (compressed BLOB pages and the like), which keep the
   * compressed page size. FSP, extent descriptor and INODE pages of such a tablespace are padded with
   * zeros to the logical size, since their layout is sized by it.
   */
  bytes: Uint8Array;
  /** The checksum of the page as stored (before decryption and decompression, where that is how the engine checks it). */
  checksum: ChecksumResult;
}

/**
 * A cached read, with the pages of it already checked that are presented as stored: a page read again
 * (page 0, the root, by the summary, the definition and the rows in turn) is not checksummed again.
 */
interface Chunk {
  bytes: Uint8Array;
  pages: (Page | undefined)[];
}

/** Pages read at once for one reader (Tablespace.readRun), from page `first` on; its own until released. */
export interface PageRun extends Chunk {
  readonly first: number;
}

export interface TablespaceOptions {
  /** Keys for encrypted tablespaces; without them an encrypted file fails to open, naming the key. */
  keys?: EncryptionKeys;
}

export class Tablespace {
  /** Pages in the file (file size / physical page size). */
  readonly pageCount: number;
  /** Bytes per page as stored: the compressed page size of a ROW_FORMAT=COMPRESSED tablespace, else pageSize. */
  readonly physicalSize: number;
  private readonly chunkPages: number;
  private readonly chunks = new Map<number, Chunk>();
  /** Chunks being read (chunkRead). */
  private readonly reading = new Map<number, Promise<Chunk>>();
  /** Runs read by readRun() and not yet released. */
  private readonly runs = new Set<PageRun>();
  private readonly transformed = new Map<number, Page>();
  private decryptor: PageDecryptor | null = null;
  private rawImage = false;
  /**
   * Why page 0 (the FSP header) is not believed — all zeros, a checksum that does not match, a header
   * that cannot be one — or null. The layout then comes from the other pages (space-header.ts), the
   * space id from their FIL headers; page 0's extent descriptors, space size and INODE list are lost.
   */
  page0Damaged: string | null = null;
  /** Page 0 is sound but its space flags disagree with the pages (read as the pages show): both, in words; or null. */
  flagsDisagree: string | null = null;
  /** Neither page 0 nor any other page checks out in the layout the flags give: it is a last resort, not a finding. */
  private layoutUnconfirmed = false;

  private constructor(
    readonly source: ByteSource,
    readonly fsp: FspHeader,
    /** The logical (uncompressed) page size. */
    readonly pageSize: number,
  ) {
    this.physicalSize = fsp.flags.zipSize || pageSize;
    this.pageCount = Math.floor(source.size / this.physicalSize);
    this.chunkPages = Math.max(1, Math.floor(CHUNK_BYTES / this.physicalSize));
  }

  /**
   * Opens the tablespace of `source`: the one already open over that source object (kept on it, see
   * ByteSource.opened) when it is not encrypted (keys change nothing then) or was opened with the
   * same keys. The summary, the definition and the rows of one file so share the pages already
   * checked (a table listing checksummed page 0 and the root three times over, a third of its time).
   */
  static async open(source: ByteSource, options: TablespaceOptions = {}): Promise<Tablespace> {
    const known = source.opened;
    if (known) {
      if (known.keys === options.keys) return known.tablespace;
      const ts = await known.tablespace.catch(() => null);
      if (ts && ts.decryptor === null) return ts;
    }
    const tablespace = Tablespace.read(source, options);
    source.opened = { keys: options.keys, tablespace };
    return tablespace;
  }

  /**
   * Page 0 decides the layout when it is sound and pages 1-3 agree with it; otherwise the layout
   * comes from the pages (space-header.ts), and Tablespace.page0Damaged / flagsDisagree say why.
   */
  private static async read(source: ByteSource, options: TablespaceOptions): Promise<Tablespace> {
    const head = await source.read(0, Math.min(source.size, MAX_PAGE_SIZE));
    const fsp = readFspHeader(head);
    let problem = source.size < 1024 ? `the file is ${source.size} bytes long` : page0Problem(head) ?? flagsProblem(fsp.flags);
    if (problem === null) {
      const physical = fsp.flags.zipSize || fsp.flags.pageSize;
      if (source.size < physical) {
        throw new IbdError(source.name, `the file is ${source.size} bytes long, shorter than one ${physical / 1024} KB page: it is truncated`, 0);
      }
      if (!page0Checks(head, fsp.flags)) problem = CHECKSUM;
    }
    const sound = problem === null ? await Tablespace.fromPage0(source, fsp, options) : null;
    if (sound && (await sound.pagesAgree())) return sound;
    const inferred = await inferSpaceHeader(source, head, fsp, problem);
    if (inferred) return Tablespace.inferred(source, inferred);
    if (sound) return sound;
    if (problem === CHECKSUM) {
      // Nothing else checks out either: the flags are all there is to go by.
      const ts = await Tablespace.fromPage0(source, fsp, options);
      ts.page0Damaged = `${problem}, and no other page checks out in any layout either`;
      ts.layoutUnconfirmed = true;
      return ts;
    }
    throw await notATablespace(source, problem ?? 'its flags disagree with the pages');
  }

  /** The tablespace as page 0 describes it. */
  private static async fromPage0(source: ByteSource, fsp: FspHeader, options: TablespaceOptions): Promise<Tablespace> {
    const algo = fsp.flags.fullCrc32 ? fsp.flags.pageCompression : 0;
    if (!(algo in MARIADB_ALGORITHMS)) {
      throw new IbdError(source.name, `the tablespace is page-compressed with an unknown algorithm ${algo} (MariaDB's are ${Object.values(MARIADB_ALGORITHMS).slice(1).join(', ')})`, 0);
    }
    const ts = new Tablespace(source, fsp, fsp.flags.pageSize);
    // Without the right key the file still opens (its summary can be shown); its encrypted pages
    // then fail to read, with a message naming the key to give.
    ts.decryptor = await openDecryptor(source, fsp, ts.physicalSize, options.keys);
    return ts;
  }

  /** The tablespace as its pages show it, page 0 damaged or disagreeing (no encryption keys: page 0 held them). */
  private static inferred(source: ByteSource, header: SpaceHeader): Tablespace {
    const ts = new Tablespace(source, header.fsp, header.fsp.flags.pageSize);
    ts.page0Damaged = header.page0Damaged;
    ts.flagsDisagree = header.flagsDisagree;
    return ts;
  }

  /**
   * Whether pages 1-3 (change buffer bitmap, INODE, first root or SDI) check out in the layout page 0
   * gives, or cannot tell (never written, unreadable without a key): a page 0 whose flags were
   * rewritten can carry a valid checksum of its own.
   */
  private async pagesAgree(): Promise<boolean> {
    let bad = 0;
    for (let no = 1; no < Math.min(4, this.pageCount); no++) {
      const checksum = (await this.page(no).catch(() => null))?.checksum;
      if (checksum === 'bad') bad++;
      else if (checksum !== undefined && checksum !== 'empty') return true;
    }
    return bad === 0;
  }

  /**
   * A tablespace without a page 0 to go by (orphan-scan.ts): the page size and checksum format were
   * guessed from the pages themselves, and `source` is already placed so that page N is at N × pageSize.
   * Not for encrypted or ROW_FORMAT=COMPRESSED images (their page 0 is needed to read them).
   */
  static openRaw(source: ByteSource, layout: { pageSize: number; fullCrc32: boolean; spaceId: number }): Tablespace {
    if (!isValidPageSize(layout.pageSize)) throw new IbdError(source.name, `${layout.pageSize} bytes is not an InnoDB page size`, null);
    const ssize = Math.log2(layout.pageSize / 512);
    // Space flags as the engine would write them: full_crc32 with this page size, or the MySQL layout
    // of a DYNAMIC table (POST_ANTELOPE | ATOMIC_BLOBS; the row format only affects what is reported).
    const flags = parseSpaceFlags(layout.fullCrc32 ? 0x10 | ssize : 0x21 | (ssize << 6));
    const pages = Math.floor(source.size / layout.pageSize);
    const ts = new Tablespace(source, { spaceId: layout.spaceId, size: pages, freeLimit: pages, flags }, layout.pageSize);
    ts.rawImage = true;
    return ts;
  }

  /** What is wrong with page 0, as the summary and the CLI say it; null when nothing is. */
  get headerNote(): string | null {
    if (this.page0Damaged !== null) {
      return `page 0 (the space header) is damaged: ${this.page0Damaged}; page size/format taken from the other pages: ${describeFormat(this.fsp.flags)}`;
    }
    return this.flagsDisagree;
  }

  /**
   * The layout every reader of the file goes by (page size as stored, compressed or not, checksum
   * format), as decided once when the file was opened; null when nothing confirmed it (then a
   * scan must guess from the bytes, orphan-scan.ts).
   */
  get layout(): RawLayout | null {
    if (this.layoutUnconfirmed || this.rawImage) return null;
    return { pageSize: this.physicalSize, gridOffset: 0, fullCrc32: this.fullCrc32, compressed: this.fsp.flags.zipSize !== 0 };
  }

  /** Opened by openRaw: other files' pages, or copies of this one's, may lie anywhere in the image. */
  get raw(): boolean {
    return this.rawImage;
  }

  get fullCrc32(): boolean {
    return this.fsp.flags.fullCrc32;
  }

  /** What the file is encrypted with, or null. */
  get encryption(): string | null {
    return this.decryptor?.description ?? null;
  }

  /** Why the encrypted pages cannot be read (the key to give), or null. */
  get encryptionProblem(): string | null {
    return this.decryptor?.problem ?? null;
  }

  /**
   * The checksum result of page `no` as stored, when a page() read has computed it and it is still
   * cached (a page of a plain tablespace: no transform); else undefined.
   */
  knownChecksum(no: number): ChecksumResult | undefined {
    const result = this.chunks.get(Math.floor(no / this.chunkPages))?.pages[no % this.chunkPages]?.checksum;
    // An all-zero page is called empty here before any checksum; verifyPage is left to say so itself.
    return result === 'empty' ? undefined : result;
  }

  /**
   * Reads one page: checksum, decryption, decompression. Throws IbdError for a page past the end of
   * the file, and for one that cannot be decrypted or decompressed (saying why).
   */
  async page(no: number, run: PageRun | null = null): Promise<Page> {
    if (!Number.isInteger(no) || no < 0 || no >= this.pageCount) {
      throw new IbdError(this.source.name, `page ${no} is past the end of the file (${this.pageCount} pages): the file is truncated or a page pointer is damaged`, no);
    }
    const kept = this.transformed.get(no);
    if (kept) {
      this.transformed.delete(no);
      this.transformed.set(no, kept);
      return kept;
    }
    const inRun = run ? no - run.first : -1;
    if (run && inRun >= 0 && (inRun + 1) * this.physicalSize <= run.bytes.length) return this.present(no, run, inRun);
    return this.present(no, await this.chunk(Math.floor(no / this.chunkPages)), no % this.chunkPages);
  }

  /** Page `no`, the `at`th page of `held` (a chunk or a run): checked once, transformed where it needs it. */
  private async present(no: number, held: Chunk, at: number): Promise<Page> {
    const checked = held.pages[at];
    if (checked) return checked;
    const raw = held.bytes.subarray(at * this.physicalSize, (at + 1) * this.physicalSize);
    let page: Page;
    try {
      page = await this.transform(no, raw);
    } catch (e) {
      if (e instanceof PageCompressionError || e instanceof ZipPageError || e instanceof EncryptionError) {
        throw new IbdError(this.source.name, e.message, no);
      }
      throw e;
    }
    if (page.bytes !== raw) {
      if (this.transformed.size >= TRANSFORMED_KEPT) this.transformed.delete(this.transformed.keys().next().value as number);
      this.transformed.set(no, page);
    } else {
      held.pages[at] = page;
    }
    return page;
  }

  /** The chunk holding the pages of `chunkNo` as stored in the file. */
  private async chunk(chunkNo: number): Promise<Chunk> {
    let chunk = this.chunks.get(chunkNo);
    if (chunk) {
      // Re-insert so the Map's order is least-recently-used first.
      this.chunks.delete(chunkNo);
    } else {
      chunk = await this.chunkRead(chunkNo);
      if (this.chunks.size >= CHUNKS_KEPT && !this.chunks.has(chunkNo)) this.chunks.delete(this.chunks.keys().next().value as number);
      this.chunks.delete(chunkNo);
    }
    this.chunks.set(chunkNo, chunk);
    return chunk;
  }

  /**
   * Reads chunk `chunkNo`, once for all who ask while it is being read: tables read side by side
   * (`ibd-reader DIR -o`, 8 at once) read the same chunk 8 times over otherwise, and the 8.5 GB so
   * read for 50,000 one-row tables set off a full garbage collection every 64 MB.
   */
  private chunkRead(chunkNo: number): Promise<Chunk> {
    let read = this.reading.get(chunkNo);
    if (read === undefined) {
      const bytes = this.fromRuns(chunkNo);
      read = (bytes !== null ? Promise.resolve(bytes) : this.source.read(chunkNo * this.chunkPages * this.physicalSize, this.chunkPages * this.physicalSize))
        .then((b): Chunk => ({ bytes: b, pages: [] }))
        .finally(() => this.reading.delete(chunkNo));
      this.reading.set(chunkNo, read);
    }
    return read;
  }

  /**
   * Reads pages [from, to] with one read, for a caller about to read those pages one by one with
   * page(no, run) and then release(run) (a run of leaf pages). In a browser each Blob read costs far
   * more than its bytes: exporting a 931 MB table in reads of 1 MiB kept Chromium's browser process
   * busy ~2 s longer than in reads of 8 MiB. Once released, the run's buffer is read into again
   * (source.ts readBuffers: a fresh buffer per read costs a third of the read), so its bytes stay
   * the caller's: page() without the run copies the chunk it needs out of it instead. Null when the
   * pages lie in one chunk (page() reads that once and keeps it for the next reader) unless `pooled`,
   * or when the read fails (page() reports it page by page). `pooled`: a reader that reads each run
   * once (an export), for which a chunk read by page() is a fresh buffer per run and no read ahead.
   */
  async readRun(from: number, to: number, pooled = false): Promise<PageRun | null> {
    from = Math.max(0, from);
    to = Math.min(to, this.pageCount - 1);
    if (pooled ? from >= to : Math.floor(from / this.chunkPages) >= Math.floor(to / this.chunkPages)) return null;
    let bytes: Uint8Array;
    try {
      bytes = await readBuffers.read(this.source, from * this.physicalSize, (to - from + 1) * this.physicalSize);
    } catch {
      return null;
    }
    const run: PageRun = { first: from, bytes, pages: [] };
    this.runs.add(run);
    return run;
  }

  /** Lets go of a run from readRun(): none of its pages may be used after this. */
  release(run: PageRun | null): void {
    if (run && this.runs.delete(run)) readBuffers.give(run.bytes);
  }

  /** A copy of the bytes of chunk `chunkNo` when a run being read holds all of them. */
  private fromRuns(chunkNo: number): Uint8Array | null {
    const start = chunkNo * this.chunkPages * this.physicalSize;
    const end = Math.min(this.source.size, start + this.chunkPages * this.physicalSize);
    for (const run of this.runs) {
      const at = start - run.first * this.physicalSize;
      if (at >= 0 && at + (end - start) <= run.bytes.length) return run.bytes.slice(at, at + (end - start));
    }
    return null;
  }

  private async transform(no: number, raw: Uint8Array): Promise<Page> {
    // A damaged page 0 is damaged whatever its bytes (all zeros would pass for never written).
    if (no === 0 && this.page0Damaged !== null) return { no, bytes: raw, checksum: 'bad' };
    if (isAllZero(raw)) return { no, bytes: raw, checksum: 'empty' };
    const zip = this.fsp.flags.zipSize !== 0;
    let bytes = raw;
    // MySQL checks its pages after decryption and decompression; MariaDB and compressed pages as stored.
    let checksum: ChecksumResult | null = zip ? this.zipChecksum(raw) : this.storedChecksum(raw);
    if (this.decryptor?.isEncrypted(bytes)) bytes = await this.decryptor.decrypt(bytes, no);
    if (!zip) {
      if (this.fullCrc32) {
        if (isFullCrc32Compressed(bytes)) bytes = decompressFullCrc32(bytes, this.fsp.flags.pageCompression);
      } else if (isMariadbCompressed(bytes)) {
        bytes = decompressMariadb(bytes);
      } else if (isMysqlCompressed(bytes)) {
        bytes = decompressMysql(bytes);
      }
    }
    checksum ??= verifyPage(bytes, false);
    const type = u16(bytes, FIL_PAGE_TYPE);
    if (zip) {
      if (isZipIndexType(type)) {
        bytes = decompressZipPage(bytes, this.pageSize);
      } else if (type === PageType.FSP_HDR || type === PageType.XDES || type === PageType.INODE) {
        const padded = new Uint8Array(this.pageSize);
        padded.set(bytes);
        bytes = padded;
      }
    } else if (type === MARIADB_INSTANT_ROOT && !this.fsp.flags.sdi && looksLikeIndexPage(bytes)) {
      // MariaDB marks the root of a table altered with instant ADD/DROP COLUMN as FIL_PAGE_TYPE_INSTANT
      // (its PAGE_INSTANT header field keeps the number of original fields; see instant.ts). It is an
      // index page in every other respect, and is presented as one.
      bytes = bytes.slice();
      bytes[FIL_PAGE_TYPE] = PageType.INDEX >> 8;
      bytes[FIL_PAGE_TYPE + 1] = PageType.INDEX & 0xff;
    }
    return { no, bytes, checksum };
  }

  /**
   * The checksum of a page in the original or full_crc32 format where the engine checks it on the
   * stored bytes; null where it is checked after decryption/decompression (MySQL).
   */
  private storedChecksum(raw: Uint8Array): ChecksumResult | null {
    if (this.fullCrc32) {
      const size = fullCrc32StoredSize(raw);
      if (size === null) return 'bad';
      return u32(raw, size - 4) === crc32c(raw, 0, size - 4) ? 'full_crc32' : 'bad';
    }
    const type = u16(raw, FIL_PAGE_TYPE);
    if (type === PageType.PAGE_COMPRESSED || type === PageType.PAGE_COMPRESSED_ENCRYPTED) {
      // MariaDB writes no checksum into page-compressed pages, only this marker.
      return u32(raw, 0) === 0xdeadbeef ? 'none' : 'bad';
    }
    if (this.decryptor?.isEncrypted(raw)) {
      if (this.decryptor.description.startsWith('MariaDB')) {
        // The checksum of the encrypted page, after the key version.
        return u32(raw, FIL_PAGE_FILE_FLUSH_LSN + 4) === crc32Page(raw) ? 'crc32' : 'bad';
      }
      return null;
    }
    if (type === PageType.COMPRESSED) return null;
    return verifyPage(raw, false);
  }

  private zipChecksum(raw: Uint8Array): ChecksumResult {
    if (this.decryptor?.isEncrypted(raw) && this.decryptor.description.startsWith('MariaDB')) {
      // MariaDB stores the checksum of the encrypted page after the key version.
      return u32(raw, FIL_PAGE_FILE_FLUSH_LSN + 4) === zipPageCrc32(raw) ? 'crc32' : 'bad';
    }
    return verifyZipPage(raw);
  }
}

/** An index page header with a plausible heap and the infimum where a COMPACT or REDUNDANT page has it. */
function looksLikeIndexPage(b: Uint8Array): boolean {
  const nHeap = u16(b, 38 + 4);
  const heapTop = u16(b, 38 + 2);
  return (nHeap & 0x7fff) >= 2 && heapTop >= 120 && heapTop < b.length && u32(b, 38 + 28) + u32(b, 38 + 32) !== 0;
}

/** buf_calc_page_crc32(): what MariaDB stores after the key version of an encrypted page. */
function crc32Page(page: Uint8Array): number {
  return (crc32c(page, 4, 26) ^ crc32c(page, 38, page.length - 8)) >>> 0;
}
