/**
 * A tablespace file opened through a ByteSource: page 0 tells the page size and checksum layout, and
 * pages are then read in aligned chunks (a few hundred KB to a few MB) so that walking a B-tree, whose
 * leaves mostly sit in consecutive extents, costs few reads while memory stays bounded.
 */
import { verifyPage, type ChecksumResult } from './checksum.ts';
import { IbdError } from './errors.ts';
import { FIL_PAGE_OFFSET, FIL_PAGE_SPACE_ID, isAllZero, u32 } from './fil-header.ts';
import { isValidPageSize, readFspHeader, type FspHeader } from './fsp-header.ts';
import type { ByteSource } from './source.ts';

/** Bytes per cached read. */
const CHUNK_BYTES = 1 << 20;
/** Chunks kept; the cache never holds more than CHUNKS_KEPT × CHUNK_BYTES. */
const CHUNKS_KEPT = 4;

export interface Page {
  no: number;
  bytes: Uint8Array;
  checksum: ChecksumResult;
}

export class Tablespace {
  readonly pageCount: number;
  private readonly chunkPages: number;
  private readonly chunks = new Map<number, Uint8Array>();

  private constructor(
    readonly source: ByteSource,
    readonly fsp: FspHeader,
    readonly pageSize: number,
  ) {
    this.pageCount = Math.floor(source.size / pageSize);
    this.chunkPages = Math.max(1, Math.floor(CHUNK_BYTES / pageSize));
  }

  static async open(source: ByteSource): Promise<Tablespace> {
    if (source.size < 4096) {
      throw new IbdError(source.name, `the file is ${source.size} bytes long; an InnoDB tablespace is at least one 4 KB page`, 0);
    }
    const head = await source.read(0, 4096);
    const fsp = readFspHeader(head);
    const pageSize = fsp.flags.pageSize;
    if (!isValidPageSize(pageSize) || fsp.flags.zipSize > pageSize || u32(head, FIL_PAGE_OFFSET) !== 0) {
      throw new IbdError(source.name, 'this is not an InnoDB tablespace (page 0 has no valid FSP header: unknown space flags or page number)', 0);
    }
    if (fsp.flags.zipSize !== 0) {
      throw new IbdError(source.name, `ROW_FORMAT=COMPRESSED tablespaces (KEY_BLOCK_SIZE=${fsp.flags.zipSize / 1024}) are not supported yet`, 0);
    }
    if (u32(head, FIL_PAGE_SPACE_ID) !== fsp.spaceId) {
      throw new IbdError(source.name, 'this is not an InnoDB tablespace (the space id in the FIL header and the FSP header differ)', 0);
    }
    if (source.size < pageSize) {
      throw new IbdError(source.name, `the file is ${source.size} bytes long, shorter than one ${pageSize / 1024} KB page: it is truncated`, 0);
    }
    return new Tablespace(source, fsp, pageSize);
  }

  get fullCrc32(): boolean {
    return this.fsp.flags.fullCrc32;
  }

  /** Reads one page, verifying its checksum; throws IbdError for a page past the end of the file. */
  async page(no: number): Promise<Page> {
    if (!Number.isInteger(no) || no < 0 || no >= this.pageCount) {
      throw new IbdError(this.source.name, `page ${no} is past the end of the file (${this.pageCount} pages): the file is truncated or a page pointer is damaged`, no);
    }
    const chunkNo = Math.floor(no / this.chunkPages);
    let chunk = this.chunks.get(chunkNo);
    if (chunk) {
      // Re-insert so the Map's order is least-recently-used first.
      this.chunks.delete(chunkNo);
    } else {
      chunk = await this.source.read(chunkNo * this.chunkPages * this.pageSize, this.chunkPages * this.pageSize);
      if (this.chunks.size >= CHUNKS_KEPT) this.chunks.delete(this.chunks.keys().next().value as number);
    }
    this.chunks.set(chunkNo, chunk);
    const start = (no - chunkNo * this.chunkPages) * this.pageSize;
    const bytes = chunk.subarray(start, start + this.pageSize);
    return { no, bytes, checksum: verifyPage(bytes, this.fullCrc32) };
  }

  /** True when the page was allocated but never written. */
  static isEmpty(page: Page): boolean {
    return page.checksum === 'empty' && isAllZero(page.bytes);
  }
}
