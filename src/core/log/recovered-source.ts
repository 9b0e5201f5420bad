/**
 * A tablespace file as the server's crash recovery would leave it (recv_recover_page): a ByteSource
 * over the file's bytes in which each page the redo log changes after its checkpoint is replaced by
 * the page with those changes applied: the page read, every mini-transaction newer than its
 * FIL_PAGE_LSN applied in LSN order (from the last INIT_PAGE on, without the page, where the log
 * initialises it), its LSN set and its checksum computed in the file's format. Every reader above
 * (the tablespace, the leaf counts' runs, the page map, exports) so sees recovered pages. Pages the
 * log creates beyond the file's end are built from it. Recovered pages are kept in a bounded cache
 * and made again when asked for after they left it. A page torn by the crash (its checksum fails, or
 * it is all zeros) whose intact copy the doublewrite buffer holds is replaced by the copy first, as
 * buf_dblwr_t::recover does, and the log applied to the copy. A PAGE_COMPRESSED page (either format)
 * is decompressed, after decryption, before the log is applied to it (fil_page_decompress), and the
 * recovered page is written back uncompressed.
 */
import { pageChecksums, crc32c, verifyPage } from '../pages/checksum.ts';
import { FIL_PAGE_LSN, isAllZero, u32 } from '../pages/fil-header.ts';
import { isValidPageSize, parseSpaceFlags } from '../pages/fsp-header.ts';
import { decompressFullCrc32, decompressMariadb, fullCrc32StoredSize, isFullCrc32Compressed, isMariadbCompressed, PageCompressionError } from '../pages/page-compression.ts';
import { verifyZipPage, zipPageCrc32 } from '../pages/zip-page.ts';
import type { ByteSource } from '../tablespace/source.ts';
import { EncryptionError, openDecryptor, type PageDecryptor } from '../tablespace/encryption.ts';
import { Tablespace } from '../tablespace/tablespace.ts';
import type { Doublewrite } from './doublewrite.ts';
import { lsnAt } from './doublewrite-slot.ts';
import { MtrRecords } from './mtr-records.ts';
import { RecvBatches } from './recv-batch.ts';
import { applyRecord, type ApplyState } from './page-apply.ts';
import { decryptedBytes, type PageLog, type RedoScan } from './redo-scan.ts';

/** Recovered pages kept (4 MiB of 16 KB pages). */
const PAGES_KEPT = 256;
/** The largest page: page 0 built from the log before its size is known. */
const MAX_PAGE = 65536;
/** FSP_HEADER_OFFSET + FSP_SPACE_FLAGS. */
const FSP_FLAGS = 38 + 16;

/** What the roll-forward did to a table's file, as far as it was read. */
export interface RecoveryStats {
  /** Pages of the file the log changes after its checkpoint, and its records for them. */
  readonly pagesInLog: number;
  readonly recordsInLog: number;
  /** Pages read so far whose image the log changed, and the records applied to them. */
  pagesRecovered: number;
  recordsApplied: number;
  /** Pages of the log beyond the file's end (created after the checkpoint, built from the log). */
  readonly pagesBeyondEnd: number;
  /** Pages whose log could not be applied: their image is left as the file has it, and why. */
  failed: { page: number; why: string }[];
  /** Pages torn in the file (checksum failing, or all zeros) taken whole from the doublewrite buffer. */
  restored: number[];
}

/** The copies of a doublewrite buffer (doublewrite.ts), those within the log's checkpoint..end. */
export type DoublewriteBuffer = Pick<Doublewrite, 'copyOf' | 'entries'>;

/** What the log needs of a tablespace's format: its physical page size and checksum layout. */
interface Layout {
  physical: number;
  fullCrc32: boolean;
  zip: boolean;
  /** An encrypted file's: the log applies to its pages decrypted, which are then written back plain. */
  decryptor: PageDecryptor | null;
  /**
   * A full_crc32 PAGE_COMPRESSED file's algorithm (space flags), else 0. The log applies to a
   * page-compressed page decompressed (fil_page_decompress), in either format; the recovered page
   * is written back uncompressed, as the server writes a page whose compression saves no space.
   */
  compression: number;
}

/**
 * The file's format from its page 0; for a file whose page 0 was never written (created after the
 * checkpoint, its pages only in the buffer pool), from page 0 as the log builds it (its FSP flags).
 * Else why the log cannot be applied to it.
 */
async function layoutOf(raw: ByteSource, scan: RedoScan, spaceId: number): Promise<Layout | string> {
  const ts = await Tablespace.open(raw).catch(() => null);
  if (ts !== null && ts.page0Damaged === null) {
    const decryptor = ts.encryption === null ? null : await openDecryptor(raw, ts.fsp, ts.physicalSize, scan.keys);
    if (decryptor?.problem) return `the file is encrypted and the log applies to its decrypted pages: ${decryptor.problem}`;
    const compression = ts.fullCrc32 ? ts.fsp.flags.pageCompression : 0;
    return { physical: ts.physicalSize, fullCrc32: ts.fullCrc32, zip: ts.fsp.flags.zipSize !== 0, decryptor, compression };
  }
  const log = scan.pages.get(spaceId)?.get(0);
  if (!log || log.initAt < 0) return 'page 0 of the file cannot be read and the log does not build it, so its page size and format are not known';
  const stats: RecoveryStats = { pagesInLog: 0, recordsInLog: 0, pagesRecovered: 0, recordsApplied: 0, pagesBeyondEnd: 0, failed: [], restored: [] };
  const page0 = await new PageRecovery(scan, spaceId, { physical: MAX_PAGE, fullCrc32: true, zip: false, decryptor: null, compression: 0 }, stats).page(0, log, null);
  const flags = page0 === null ? null : parseSpaceFlags(u32(page0, FSP_FLAGS));
  if (flags === null || !isValidPageSize(flags.pageSize)) return 'page 0 as the log builds it has no valid tablespace flags';
  return { physical: flags.zipSize || flags.pageSize, fullCrc32: flags.fullCrc32, zip: flags.zipSize !== 0, decryptor: null, compression: flags.fullCrc32 ? flags.pageCompression : 0 };
}

/** Why the log is not applied to this file (another datadir's, an encrypted file without its key), or null. */
export async function unappliableTo(raw: ByteSource, scan: RedoScan, spaceId: number): Promise<string | null> {
  if (scan.unappliable) return scan.unappliable;
  const layout = await layoutOf(raw, scan, spaceId);
  if (typeof layout === 'string') return layout;
  if (raw.size >= layout.physical) {
    const page0 = await raw.read(0, layout.physical);
    const lsn = u32(page0, 16) * 0x1_0000_0000 + u32(page0, 20);
    if (lsn > scan.bounds.endLsn) return `page 0 of the file has LSN ${lsn}, newer than the log's end ${scan.bounds.endLsn}: the log is not this file's datadir's`;
  }
  const named = scan.files.find((f) => f.spaceId === spaceId && f.op !== 'delete');
  if (named && baseName(named.newName ?? named.name) !== baseName(raw.name)) {
    return `the log's tablespace ${spaceId} is ${named.newName ?? named.name}, not ${raw.name}: the log is not this file's datadir's`;
  }
  return null;
}

const baseName = (n: string) => n.replace(/^.*[\\/]/, '').toLowerCase();

/** The tablespace id the log gives a file it names (created or changed after the checkpoint), or null. */
export function spaceIdInLog(scan: RedoScan, fileName: string): number | null {
  const named = scan.files.filter((f) => f.op !== 'delete' && baseName(f.newName ?? f.name) === baseName(fileName));
  return named.length === 0 ? null : named[named.length - 1].spaceId;
}

/**
 * Whether a page of the file is torn: all zeros, or failing the checksum of the file's format. A
 * full_crc32 page's checksum is of its stored bytes (encrypted, compressed: up to the size its type
 * records). In the original format, of the plaintext page before compression (so it is decrypted and
 * decompressed first, and torn when it does not decrypt or decompress).
 */
async function torn(page: Uint8Array, no: number, layout: Layout): Promise<boolean> {
  if (layout.fullCrc32 && !layout.zip) {
    const stored = fullCrc32StoredSize(page);
    return stored === null || u32(page, stored - 4) !== crc32c(page, 0, stored - 4) || isAllZero(page);
  }
  const decrypt = !layout.fullCrc32 && layout.decryptor?.isEncrypted(page) === true;
  let plain: Uint8Array | string | null = decrypt ? await layout.decryptor!.decrypt(page, no).catch(() => null) : page;
  if (plain !== null && isMariadbCompressed(plain)) plain = uncompressed(plain, 0);
  if (plain === null || typeof plain === 'string') return true;
  const result = layout.zip ? verifyZipPage(plain) : verifyPage(plain, layout.fullCrc32);
  return result === 'bad' || result === 'empty';
}

/** The page image of a MariaDB page-compressed page (`algo`: a full_crc32 file's, 0 in the original format), or why it does not decompress. */
function uncompressed(page: Uint8Array, algo: number): Uint8Array | string {
  try {
    return algo === 0 ? decompressMariadb(page) : decompressFullCrc32(page, algo);
  } catch (e) {
    if (e instanceof PageCompressionError) return e.message;
    throw e;
  }
}

/**
 * The pages of the file torn by the crash whose intact copy the doublewrite buffer holds, by page
 * number: only the buffer's pages are looked at (at most two extents), not the whole file. A copy
 * older than the LSN the torn page's header still says is not taken: it is not the write torn.
 */
export async function tornPagesRestored(raw: ByteSource, buffer: DoublewriteBuffer | null, spaceId: number, layout: Layout): Promise<Map<number, Uint8Array>> {
  const restored = new Map<number, Uint8Array>();
  if (buffer === null) return restored;
  const fileEnd = Math.floor(raw.size / layout.physical);
  for (const { spaceId: space, pageNo } of buffer.entries()) {
    const copy = buffer.copyOf(space, pageNo);
    if (space !== spaceId || pageNo >= fileEnd || copy === null || copy.length !== layout.physical) continue;
    const page = await raw.read(pageNo * layout.physical, layout.physical);
    if (lsnAt(copy, FIL_PAGE_LSN) >= lsnAt(page, FIL_PAGE_LSN) && (await torn(page, pageNo, layout))) restored.set(pageNo, copy);
  }
  return restored;
}

/**
 * The recovered view of `raw` (tablespace `spaceId`), torn pages taken from `buffer` first: check
 * unappliableTo() first. `batchBytes` bounds the log held at once (recv-batch.ts; its default else).
 */
export async function recoveredSource(raw: ByteSource, scan: RedoScan, spaceId: number, buffer: DoublewriteBuffer | null = null, batchBytes?: number): Promise<{ source: ByteSource; stats: RecoveryStats }> {
  const layout = await layoutOf(raw, scan, spaceId);
  if (typeof layout === 'string') throw new Error(layout);
  const physical = layout.physical;
  const pages = scan.pages.get(spaceId) ?? new Map<number, PageLog>();
  const fileEnd = Math.floor(raw.size / physical);
  let last = fileEnd - 1;
  let records = 0;
  for (const [no, log] of pages) {
    last = Math.max(last, no);
    records += log.records;
  }
  const restored = await tornPagesRestored(raw, buffer, spaceId, layout);
  const stats: RecoveryStats = {
    pagesInLog: pages.size, recordsInLog: records, pagesRecovered: 0, recordsApplied: 0, failed: [],
    pagesBeyondEnd: [...pages.keys()].filter((no) => no >= fileEnd).length, restored: [...restored.keys()].sort((a, b) => a - b),
  };
  const recovery = new PageRecovery(scan, spaceId, layout, stats, batchBytes);
  const size = Math.max(raw.size, (last + 1) * physical);
  /** Patches the recovered pages into `bytes`, the range [offset, offset + bytes.length) of the file. */
  const patch = async (bytes: Uint8Array, offset: number) => {
    const first = Math.floor(offset / physical);
    const end = Math.ceil((offset + bytes.length) / physical);
    for (let no = first; no < end; no++) {
      const log = pages.get(no);
      const copy = restored.get(no);
      if (!log && !copy) continue;
      const at = no * physical - offset;
      const disk = copy ?? (at >= 0 && at + physical <= bytes.length && no < fileEnd ? bytes.subarray(at, at + physical) : no < fileEnd ? await raw.read(no * physical, physical) : null);
      const image = log ? ((await recovery.page(no, log, disk)) ?? copy ?? null) : (copy ?? null);
      if (image === null) continue;
      const from = Math.max(0, -at);
      bytes.set(image.subarray(from, Math.min(physical, bytes.length - at)), at + from);
    }
  };
  const needsPatch = (offset: number, length: number) => {
    for (let no = Math.floor(offset / physical), end = Math.ceil((offset + length) / physical); no < end; no++) if (pages.has(no) || restored.has(no)) return true;
    return false;
  };
  /** The file's bytes of the range, zeros past its end (pages the log creates there). */
  const rawRange = async (offset: number, length: number) => {
    const end = Math.min(size, offset + length);
    if (end <= raw.size) return raw.read(offset, end - offset);
    const out = new Uint8Array(Math.max(0, end - offset));
    if (offset < raw.size) out.set(await raw.read(offset, raw.size - offset), 0);
    return out;
  };
  const source: ByteSource = {
    name: raw.name,
    size,
    version: raw.version === undefined ? undefined : `${raw.version}, recovered to LSN ${scan.bounds.endLsn}`,
    async read(offset, length) {
      const bytes = await rawRange(offset, length);
      if (!needsPatch(offset, bytes.length)) return bytes;
      // The source's bytes may be its cached block: patched in a copy.
      const copy = bytes.slice();
      await patch(copy, offset);
      return copy;
    },
  };
  if (raw.readInto) {
    const readInto = raw.readInto.bind(raw);
    source.readInto = async (offset, length, buffer) => {
      if (offset + length > raw.size) {
        return new Uint8Array(await source.read(offset, length));
      }
      const bytes = await readInto(offset, length, buffer);
      if (needsPatch(offset, bytes.length)) await patch(bytes, offset);
      return bytes;
    };
  }
  return { source, stats };
}

/** recv_recover_page for one tablespace: each page's records applied to it, the images kept in a bounded cache. */
class PageRecovery {
  private readonly kept = new Map<number, Uint8Array | null>();
  private readonly counted = new Set<number>();
  private readonly batches: RecvBatches;
  private readonly walk = new MtrRecords(new Uint8Array(0));

  constructor(
    scan: RedoScan,
    private readonly spaceId: number,
    private readonly layout: Layout,
    private readonly stats: RecoveryStats,
    batchBytes?: number,
  ) {
    const decrypted = scan.crypt === null ? null : (lsn: number, length: number, end: number) => decryptedBytes(scan, lsn, length, end);
    this.batches = new RecvBatches(scan.area, scan.pages.get(spaceId) ?? new Map(), scan.bounds.checkpointLsn, scan.bounds.endLsn, batchBytes, decrypted);
  }

  /** Page `no` recovered from its bytes on disk (null past the file's end), or null when the disk's image stands. */
  async page(no: number, log: PageLog, disk: Uint8Array | null): Promise<Uint8Array | null> {
    if (this.kept.has(no)) {
      const image = this.kept.get(no) ?? null;
      this.kept.delete(no);
      this.kept.set(no, image);
      return image;
    }
    const image = await this.apply(no, log, disk);
    if (this.kept.size >= PAGES_KEPT) this.kept.delete(this.kept.keys().next().value as number);
    this.kept.set(no, image);
    return image;
  }

  private async apply(no: number, log: PageLog, disk: Uint8Array | null): Promise<Uint8Array | null> {
    // A page the log frees last is no longer in use: what the file holds stands.
    if (log.freed) return null;
    const fromInit = log.initAt >= 0;
    const decryptor = this.layout.decryptor;
    let frame: Uint8Array;
    if (fromInit || disk === null) frame = new Uint8Array(this.layout.physical);
    else if (decryptor?.isEncrypted(disk)) {
      const plain = await decryptor.decrypt(disk, no).catch((e: unknown) => (e instanceof EncryptionError ? e.message : Promise.reject(e)));
      if (typeof plain === 'string') return this.fail(no, `the page does not decrypt: ${plain}`);
      frame = plain;
    } else frame = disk.slice();
    const compressed = fromInit || disk === null ? false : this.layout.compression !== 0 ? isFullCrc32Compressed(frame) : isMariadbCompressed(frame);
    if (compressed) {
      const image = uncompressed(frame, this.layout.compression);
      if (typeof image === 'string') return this.fail(no, image);
      frame = image;
    }
    const pageLsn = fromInit ? 0 : u32(frame, 16) * 0x1_0000_0000 + u32(frame, 20);
    const state: ApplyState = { lastOffset: 1 };
    const { bytes, at } = await this.batches.runsOf(no);
    const walk = this.walk;
    let applied = 0;
    let lsn = 0;
    for (let i = Math.max(0, log.initAt), from = at; i < log.count; from += log.length(i), i++) {
      const end = log.mtrEnd(i);
      if (end <= pageLsn) continue;
      walk.reset(bytes, from, from + log.length(i));
      while (walk.next()) {
        const why = applyRecord(frame, this.spaceId, no, walk, state);
        if (why !== null) return this.fail(no, `the log record at LSN ${log.start(i) + walk.recordAt - from} could not be applied: ${why}`);
        applied++;
      }
      if (walk.malformed) return this.fail(no, `the mini-transaction ending at LSN ${end} is malformed`);
      lsn = end;
    }
    if (applied === 0) return null;
    this.stamp(frame, lsn);
    if (!this.counted.has(no)) {
      this.counted.add(no);
      this.stats.pagesRecovered++;
      this.stats.recordsApplied += applied;
    }
    return frame;
  }

  private fail(no: number, why: string): null {
    if (!this.stats.failed.some((f) => f.page === no)) this.stats.failed.push({ page: no, why });
    return null;
  }

  /** The page's LSN and checksum, as buf_flush_init_for_writing writes them in the file's format. */
  private stamp(frame: Uint8Array, lsn: number): void {
    const size = frame.length;
    const view = new DataView(frame.buffer, frame.byteOffset, size);
    const high = Math.floor(lsn / 0x1_0000_0000);
    const low = lsn >>> 0;
    // An encrypted file's page is left decrypted: key version 0 (and no post-encryption checksum) says so to the reader above.
    if (this.layout.decryptor !== null && this.layout.fullCrc32) frame.fill(0, 0, 4);
    else if (this.layout.decryptor !== null) frame.fill(0, 26, 34);
    view.setUint32(16, high);
    view.setUint32(20, low);
    if (this.layout.zip) {
      view.setUint32(0, zipPageCrc32(frame));
    } else if (this.layout.fullCrc32) {
      view.setUint32(size - 8, low);
      view.setUint32(size - 4, crc32c(frame, 0, size - 4));
    } else {
      view.setUint32(size - 4, low);
      const crc = pageChecksums(frame).crc32;
      view.setUint32(0, crc);
      view.setUint32(size - 8, crc);
    }
  }
}
