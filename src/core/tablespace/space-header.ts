/**
 * Whether page 0 (fsp0fsp: the FSP header with the space flags, and the first extent descriptors)
 * can be believed about how the other pages are laid out: page size, ROW_FORMAT=COMPRESSED or not,
 * full_crc32 or not. A zeroed page 0 reads as the flags of a MySQL 5.6 COMPACT file, so believing a
 * damaged one makes every intact page of a MariaDB file look damaged. When page 0 is damaged (all
 * zeros, a checksum that does not match, a header that cannot be one) or its flags disagree with the
 * pages, the layout is taken from the pages themselves (orphan-scan.ts guessSpaceLayout) and what was
 * wrong is kept, for the summary and the CLI to say.
 */
import { describeFile } from './file-kind.ts';
import { IbdError, NotInnodbError } from '../errors.ts';
import { FIL_PAGE_DATA, FIL_PAGE_OFFSET, FIL_PAGE_SPACE_ID, FIL_PAGE_TYPE, isAllZero, PageType, pageTypeName, u16, u32 } from '../pages/fil-header.ts';
import { FSP_SPACE_ID, isValidPageSize, parseSpaceFlags, type FspHeader, type SpaceFlags } from '../pages/fsp-header.ts';
import { inodeLogicalPageSize } from '../pages/inode.ts';
import { guessLayout, guessSpaceLayout, pageChecks, type SpaceLayout } from './orphan-scan.ts';
import { decompressFullCrc32, isFullCrc32Compressed, MARIADB_ALGORITHMS } from '../pages/page-compression.ts';
import type { ByteSource } from './source.ts';
import { verifyZipPage } from '../pages/zip-page.ts';

/** What Tablespace.open goes by when page 0 cannot be believed. */
export interface SpaceHeader {
  fsp: FspHeader;
  /** Why page 0 is not used (its flags, size, extent descriptors and lists), or null. */
  page0Damaged: string | null;
  /** Page 0 is sound but its space flags disagree with the pages: what each says. */
  flagsDisagree: string | null;
}

/** Pages looked at for the SDI (MySQL 8 creates its root at page 3) and the INODE page. */
const FIRST_PAGES = 8;

const ZEROED = 'its header (first 1 KB) is all zeros';
/** The problem of a page 0 that looks right but does not check out. */
export const CHECKSUM = 'its checksum does not match';

/** What makes `head` no FSP header page, its space flags aside; null when nothing does. */
export function page0Problem(head: Uint8Array): string | null {
  // No page 0 ever written has a zero header: LSN, space size and free limit are never 0.
  if (isAllZero(head.subarray(0, 1024))) return ZEROED;
  const type = u16(head, FIL_PAGE_TYPE);
  // Servers before 5.1 left page 0's type at 0 (FIL_PAGE_TYPE_ALLOCATED).
  if (type !== PageType.FSP_HDR && type !== PageType.ALLOCATED) return `its page type is ${pageTypeName(type)}, not FSP_HDR`;
  const no = u32(head, FIL_PAGE_OFFSET);
  if (no !== 0) return `it carries page number ${no}, not 0`;
  const [fil, fsp] = [u32(head, FIL_PAGE_SPACE_ID), u32(head, FIL_PAGE_DATA + FSP_SPACE_ID)];
  if (fil !== fsp) return `its FIL and FSP headers name different space ids (${fil} and ${fsp})`;
  return null;
}

/** What makes the space flags impossible; null when they name a valid layout. */
export function flagsProblem(flags: SpaceFlags): string | null {
  const { pageSize, zipSize } = flags;
  if (isValidPageSize(pageSize) && zipSize <= pageSize && (zipSize === 0 || zipSize >= 1024)) return null;
  return `its space flags (0x${flags.raw.toString(16)}) name no valid page size`;
}

/** Whether page 0 (its first physical page size of bytes) checks out in the layout `flags` give. */
export function page0Checks(head: Uint8Array, flags: SpaceFlags): boolean {
  const page = head.subarray(0, flags.zipSize || flags.pageSize);
  if (flags.zipSize !== 0) return verifyZipPage(page) !== 'bad' && !isAllZero(page);
  return pageChecks(page, flags.fullCrc32);
}

/** The layout in words: "16 KB pages, full_crc32 checksums". */
export function describeFormat(flags: SpaceFlags): string {
  const kb = (n: number) => `${n / 1024} KB`;
  if (flags.zipSize !== 0) return `${kb(flags.zipSize)} compressed pages (ROW_FORMAT=COMPRESSED, ${kb(flags.pageSize)} uncompressed)`;
  if (flags.fullCrc32) {
    const algo = flags.pageCompression;
    return `${kb(flags.pageSize)} pages, full_crc32 checksums${algo ? `, page-compressed with ${MARIADB_ALGORITHMS[algo] ?? algo}` : ''}`;
  }
  return `${kb(flags.pageSize)} pages, crc32/innodb checksums`;
}

function sameFormat(flags: SpaceFlags, layout: SpaceLayout): boolean {
  return flags.fullCrc32 === layout.fullCrc32 && (flags.zipSize !== 0) === layout.compressed && (flags.zipSize || flags.pageSize) === layout.physicalSize;
}

/** The MariaDB algorithm a full_crc32 page-compressed page decompresses with (0: no such page found). */
function compressionOf(bytes: Uint8Array, pageSize: number): number {
  for (let o = pageSize; o + pageSize <= bytes.length; o += pageSize) {
    const page = bytes.subarray(o, o + pageSize);
    if (!isFullCrc32Compressed(page)) continue;
    for (const algo of Object.keys(MARIADB_ALGORITHMS).map(Number).filter((a) => a > 0)) {
      try {
        decompressFullCrc32(page, algo);
        return algo;
      } catch {
        // not this algorithm
      }
    }
  }
  return 0;
}

/** Space flags as the engine would write them for the layout the pages show (see fsp-header.ts). */
async function flagsOf(source: ByteSource, layout: SpaceLayout): Promise<SpaceFlags> {
  const size = layout.physicalSize;
  if (layout.fullCrc32) {
    const chunk = await source.read(0, Math.min(source.size, 4 << 20));
    return parseSpaceFlags(0x10 | Math.log2(size / 512) | (compressionOf(chunk, size) << 5));
  }
  const first = await source.read(0, Math.min(source.size, FIRST_PAGES * size));
  let pageSize = size;
  let zipSsize = 0;
  if (layout.compressed) {
    // The INODE page (2) is stored as is in a compressed tablespace; its entries are sized by the logical page size.
    pageSize = inodeLogicalPageSize(first.subarray(2 * size, 3 * size), [16384, 8192, 4096].filter((s) => s >= size)) ?? 16384;
    zipSsize = Math.log2(size / 512);
  }
  let sdi = false;
  for (let o = size; o + size <= first.length; o += size) if (u16(first, o + FIL_PAGE_TYPE) === PageType.SDI) sdi = true;
  // POST_ANTELOPE | ATOMIC_BLOBS: the row format only changes what is reported.
  return parseSpaceFlags(0x21 | (zipSsize << 1) | (Math.log2(pageSize / 512) << 6) | (sdi ? 1 << 14 : 0));
}

/**
 * The header to go by when page 0 is damaged (`problem` says how) or, with `problem` null, sound but
 * disagreeing with pages 1-3: from the layout the pages show. Null when no page checks out in place,
 * or (page 0 sound) when the pages agree with its flags after all.
 */
export async function inferSpaceHeader(source: ByteSource, head: Uint8Array, fsp: FspHeader, problem: string | null): Promise<SpaceHeader | null> {
  const layout = await guessSpaceLayout(source);
  if (layout === null || (problem === null && sameFormat(fsp.flags, layout))) return null;
  const pages = Math.floor(source.size / layout.physicalSize);
  const damaged = (why: string, flags: SpaceFlags): SpaceHeader => ({
    fsp: { spaceId: layout.spaceId, size: pages, freeLimit: pages, flags }, page0Damaged: why, flagsDisagree: null,
  });
  const why = problem === ZEROED && isAllZero(head.subarray(0, layout.physicalSize)) ? 'it is all zeros' : problem;
  // Its flags name the pages' layout: only the rest of page 0 is lost.
  if (page0Problem(head) === null && sameFormat(fsp.flags, layout)) return damaged(why ?? CHECKSUM, fsp.flags);
  const flags = await flagsOf(source, layout);
  const said = flagsProblem(fsp.flags) === null ? `say ${describeFormat(fsp.flags)}` : 'name no valid page size';
  // Sound: it checks out under its own flags (that pages 1-3 do not) or under the pages' layout.
  if (page0Problem(head) === null && (problem === null || page0Checks(head, flags))) {
    return {
      fsp: { ...fsp, flags }, page0Damaged: null,
      flagsDisagree: `the space flags on page 0 (0x${fsp.flags.raw.toString(16)}) ${said}, but the pages are ${describeFormat(flags)}: the file is read as its pages show`,
    };
  }
  const flagsToo = why === CHECKSUM && flagsProblem(fsp.flags) === null ? `, and its space flags ${said}, which the other pages are not` : '';
  return damaged(`${why ?? CHECKSUM}${flagsToo}`, flags);
}

/**
 * The error for a file whose page 0 is no FSP header and whose pages are nowhere a tablespace's would
 * be: a raw image when InnoDB pages lie elsewhere in it, else not InnoDB at all (saying what it is).
 */
export async function notATablespace(source: ByteSource, problem: string): Promise<IbdError> {
  if (source.size >= 4096 && (await guessLayout(source)) !== null) {
    return new IbdError(source.name, `page 0 is no FSP header (${problem}), and the InnoDB pages in the file are not where their page numbers put them: it is a raw image (a piece of an ibdata1, a disk image, a copy cut in front), to be read by scanning it for indexes`, 0);
  }
  return new NotInnodbError(source.name, await describeFile(source));
}
