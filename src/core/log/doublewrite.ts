/**
 * The doublewrite buffer (buf0dblwr): before a server writes a batch of pages to their data files it
 * writes them, and syncs them, here; a page torn by a crash in its data file is then whole in the
 * buffer. Two homes:
 *  - the system tablespace (MariaDB, MySQL ≤ 8.0.19): the TRX_SYS page (page 5) keeps, at page size
 *    − 200, a header naming two blocks of FSP_EXTENT_SIZE pages of ibdata1 (trx0sys.h);
 *  - MySQL 8.0.20+: files `#ib_<page size>_<n>.dblwr`, page-size slots one after another.
 * Either way a slot is a page image as written, whose own FIL header says which page of which
 * tablespace it is. What recovery takes from it (buf_dblwr_t::recover, MySQL's dblwr::recv) is the
 * newest copy of a page that passes its checksum, within the log's LSN range.
 */
import { IbdError } from '../errors.ts';
import type { ByteSource } from '../tablespace/source.ts';
import { Tablespace } from '../tablespace/tablespace.ts';
import { FIL_PAGE_SPACE_ID, u32 } from '../pages/fil-header.ts';
import { readSlot, type SlotCopy, type SlotRejection } from './doublewrite-slot.ts';
import type { DoublewriteCopies } from './log-types.ts';

/** TRX_SYS_PAGE_NO. */
const TRX_SYS_PAGE = 5;
/** TRX_SYS_DOUBLEWRITE: the header's place from the end of the TRX_SYS page. */
const HEADER_FROM_END = 200;
/** Offsets in the header: after the FSEG header (10 bytes) the magic, block 1, block 2; then all three again. */
const MAGIC = 10;
const BLOCK1 = 14;
const BLOCK2 = 18;
const REPEAT = 12;
/** TRX_SYS_DOUBLEWRITE_MAGIC_N. */
const MAGIC_N = 536853855;
/** Bytes read at once from a MySQL doublewrite file. */
const FILE_READ_BYTES = 1 << 20;

export interface DoublewriteOptions {
  /**
   * Copies with an LSN outside [from, to] are not used: older than the log's checkpoint, the data
   * file already had the page whole (MariaDB's init_or_load_pages skips them); newer than the log's
   * end, the log cannot bring the page's other pages to the same point (buf_dblwr_t::recover).
   */
  lsnRange?: { from: number; to: number };
  /**
   * Only copies of these tablespaces are wanted: a slot whose FIL header names another is passed
   * over unchecked (no checksum computed). For MySQL's buffers only, whose pages keep their space id
   * in the clear; a MariaDB full_crc32 page encrypted or page-compressed hides it.
   */
  spaceIds?: ReadonlySet<number>;
}

/** One copy the buffer holds, as a diagnosis lists it. */
export interface CopyEntry {
  spaceId: number;
  pageNo: number;
  lsn: number;
  checksum: string;
}

/** The extent size of a page size (FSP_EXTENT_SIZE): 1 MiB of pages, at least 64 pages. */
function extentPages(pageSize: number): number {
  return pageSize <= 16384 ? (1 << 20) / pageSize : 64;
}

/** The page size a MySQL doublewrite file's name gives (`#ib_16384_0.dblwr`), or null. */
export function dblwrFilePageSize(name: string): number | null {
  const m = /#ib_(\d+)_\d+\.dblwr$/.exec(name);
  return m === null ? null : Number(m[1]);
}

export class Doublewrite implements DoublewriteCopies {
  /** The newest copy of each page, by space id then page number. */
  readonly #copies = new Map<number, Map<number, SlotCopy>>();
  #size = 0;
  /** Slots holding no usable copy, by why. */
  readonly rejected: Record<SlotRejection | 'own page' | 'outside the LSN range' | 'other tablespaces', number> = {
    empty: 0, 'bad checksum': 0, unverifiable: 0, 'space unknown': 0, 'own page': 0, 'outside the LSN range': 0, 'other tablespaces': 0,
  };
  /** Slots read. */
  slots = 0;

  private constructor(
    /** Where the buffer is, in words ('ibdata1 pages 64-191', '#ib_16384_0.dblwr'). */
    readonly where: string,
    private readonly options: DoublewriteOptions,
  ) {}

  /**
   * The buffer of a system tablespace (ibdata1, or ibdata1 + ibdata2 … as one source), or null when
   * its TRX_SYS page holds no doublewrite header (never created, or MySQL 8.0.20+ that keeps it in
   * files of its own and left the old blocks unused).
   */
  static async fromSystemTablespace(source: ByteSource, options: DoublewriteOptions = {}): Promise<Doublewrite | null> {
    const ts = await Tablespace.open(source);
    const pageSize = ts.pageSize;
    if (ts.fsp.spaceId !== 0) throw new IbdError(source.name, `not a system tablespace (its space id is ${ts.fsp.spaceId}): it keeps no doublewrite buffer`, 0);
    const blocks = readHeader(await source.read(TRX_SYS_PAGE * pageSize, pageSize), pageSize);
    if (blocks === null) return null;
    const extent = extentPages(pageSize);
    const pages = Math.floor(source.size / pageSize);
    for (const first of blocks) {
      if (first < TRX_SYS_PAGE + 1 || first + extent > pages) {
        throw new IbdError(source.name, `the doublewrite header of the TRX_SYS page names a block at pages ${first}-${first + extent - 1}, outside the file's ${pages} pages: the header is damaged or the file is cut`, TRX_SYS_PAGE);
      }
    }
    const dw = new Doublewrite(`${source.name} pages ${blocks[0]}-${blocks[0] + extent - 1} and ${blocks[1]}-${blocks[1] + extent - 1}`, options);
    for (const first of blocks) {
      const bytes = await source.read(first * pageSize, extent * pageSize);
      for (let k = 0; k < extent; k++) dw.add(bytes.subarray(k * pageSize, (k + 1) * pageSize), first + k);
    }
    return dw;
  }

  /**
   * The buffer of MySQL 8.0.20+'s doublewrite files (`#ib_<page size>_<n>.dblwr`), read together:
   * a page may have copies in several. The page size comes from their names, else `pageSize`.
   */
  static async fromFiles(files: readonly ByteSource[], options: DoublewriteOptions & { pageSize?: number } = {}): Promise<Doublewrite> {
    const dw = new Doublewrite(files.map((f) => f.name).join(', '), options);
    for (const file of files) {
      const pageSize = dblwrFilePageSize(file.name) ?? options.pageSize;
      if (pageSize === undefined || ![4096, 8192, 16384, 32768, 65536].includes(pageSize)) {
        throw new IbdError(file.name, 'the page size of this doublewrite file is not known: its name is not #ib_<page size>_<n>.dblwr and none was given', null);
      }
      const step = Math.max(1, Math.floor(FILE_READ_BYTES / pageSize)) * pageSize;
      for (let at = 0; at + pageSize <= file.size; at += step) {
        const bytes = await file.read(at, Math.min(step, file.size - at));
        for (let k = 0; (k + 1) * pageSize <= bytes.length; k++) dw.add(bytes.subarray(k * pageSize, (k + 1) * pageSize), null);
      }
    }
    return dw;
  }

  /** Takes the copy in `slot` (at page `ownPage` of the system tablespace, or null) if it is the newest of its page. */
  private add(slot: Uint8Array, ownPage: number | null): void {
    this.slots++;
    const wanted = this.options.spaceIds;
    if (wanted && !wanted.has(u32(slot, FIL_PAGE_SPACE_ID))) {
      this.rejected['other tablespaces']++;
      return;
    }
    const copy = readSlot(slot);
    if (typeof copy === 'string') {
      this.rejected[copy]++;
      return;
    }
    // A slot never used since the buffer was made still holds the page itself, as allocated.
    if (ownPage !== null && copy.spaceId === 0 && copy.pageNo === ownPage) {
      this.rejected['own page']++;
      return;
    }
    const range = this.options.lsnRange;
    if (range && (copy.lsn < range.from || copy.lsn > range.to)) {
      this.rejected['outside the LSN range']++;
      return;
    }
    let space = this.#copies.get(copy.spaceId);
    if (!space) this.#copies.set(copy.spaceId, (space = new Map()));
    const known = space.get(copy.pageNo);
    if (known && known.lsn >= copy.lsn) return;
    if (!known) this.#size++;
    // Copied out of the read, which is let go.
    space.set(copy.pageNo, { ...copy, bytes: copy.bytes.slice() });
  }

  copyOf(spaceId: number, pageNo: number): Uint8Array | null {
    return this.#copies.get(spaceId)?.get(pageNo)?.bytes ?? null;
  }

  get size(): number {
    return this.#size;
  }

  /** The copies kept (the newest of each page), for a diagnosis to list. */
  *entries(): Generator<CopyEntry> {
    for (const space of this.#copies.values()) {
      for (const { spaceId, pageNo, lsn, checksum } of space.values()) yield { spaceId, pageNo, lsn, checksum };
    }
  }

  /** What the buffer holds, in a sentence. */
  describe(): string {
    const why = Object.entries(this.rejected).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
    return `the doublewrite buffer (${this.where}): ${this.slots} slots, ${this.#size} page copies that pass their checksums${why.length ? `; not used: ${why.join(', ')}` : ''}`;
  }
}

/**
 * A datadir's doublewrite buffer read once for all of its files (ibd-reader DIR -o reads hundreds
 * through one log, and each would read and check every slot of it again): the first read serves
 * every file after it, read for every tablespace (a file's own copies are found by its space id).
 */
export class SharedDoublewrite {
  #read: { range: string; buffer: Promise<Doublewrite | null> } | null = null;

  /** The buffer `read` gives within `options`' LSN range (its spaceIds dropped), read the first time it is asked for, or again for another range. */
  read(options: DoublewriteOptions, read: (options: DoublewriteOptions) => Promise<Doublewrite | null>): Promise<Doublewrite | null> {
    const range = `${options.lsnRange?.from}-${options.lsnRange?.to}`;
    if (this.#read?.range !== range) this.#read = { range, buffer: read({ lsnRange: options.lsnRange }) };
    return this.#read.buffer;
  }
}

/** Blocks 1 and 2 of the doublewrite header of a TRX_SYS page, from the header or its repeat; null when neither has the magic. */
function readHeader(page: Uint8Array, pageSize: number): [number, number] | null {
  const at = pageSize - HEADER_FROM_END;
  if (page.length < pageSize) return null;
  for (const off of [at, at + REPEAT]) {
    if (u32(page, off + MAGIC) === MAGIC_N) return [u32(page, off + BLOCK1), u32(page, off + BLOCK2)];
  }
  return null;
}
