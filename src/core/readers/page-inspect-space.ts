/**
 * The page inspector's parts for the pages that are no B-tree page, where the decoder reads their
 * structures: the FSP header (page 0), the extent descriptors (page 0 and every descriptor page:
 * which pages of the group are free), the INODE entries (file segments) and the BLOB page header.
 * Other types show their FIL header and trailer only.
 */
import { BTR_BLOB_HDR_NEXT_PAGE_NO, BTR_BLOB_HDR_PART_LEN } from '../pages/blob-page.ts';
import { FIL_NULL, FIL_PAGE_DATA, PageType, u32 } from '../pages/fil-header.ts';
import { FSP_FREE_LIMIT, FSP_SEG_INODES_FREE, FSP_SEG_INODES_FULL, FSP_SIZE, FSP_SPACE_FLAGS, FSP_SPACE_ID, parseSpaceFlags } from '../pages/fsp-header.ts';
import { inodeEntries, inodeEntrySize } from '../pages/inode.ts';
import { isPageFree } from '../pages/xdes.ts';
import { describeFormat } from '../tablespace/space-header.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';
import { fieldRanges, readField, type ByteRange, type Section } from './page-inspection.ts';

/** FSP_HEADER_SIZE: the FSP header after the FIL header of page 0. */
const FSP_HEADER_SIZE = 112;
/** FLST_FIRST: the first node's page, 4 bytes into a list base node (after FLST_LEN). */
const FLST_FIRST_PAGE = 4;

export interface SpacePart {
  sections: Section[];
  ranges: ByteRange[];
}

function fspHeader(bytes: Uint8Array): SpacePart {
  const at = (o: number) => FIL_PAGE_DATA + o;
  const flags = parseSpaceFlags(u32(bytes, at(FSP_SPACE_FLAGS)));
  const list = (name: string, o: number) => {
    const f = readField(bytes, `${name} (first page)`, at(o + FLST_FIRST_PAGE), 4);
    return f.value === FIL_NULL ? { ...f, note: 'none' } : f;
  };
  const section: Section = {
    title: 'FSP header',
    fields: [
      readField(bytes, 'FSP_SPACE_ID', at(FSP_SPACE_ID), 4),
      readField(bytes, 'FSP_SIZE', at(FSP_SIZE), 4, 'pages in the space'),
      readField(bytes, 'FSP_FREE_LIMIT', at(FSP_FREE_LIMIT), 4, 'pages from here on were never initialised'),
      readField(bytes, 'FSP_SPACE_FLAGS', at(FSP_SPACE_FLAGS), 4, describeFormat(flags)),
      list('FSP_SEG_INODES_FULL', FSP_SEG_INODES_FULL),
      list('FSP_SEG_INODES_FREE', FSP_SEG_INODES_FREE),
    ],
  };
  return { sections: [section], ranges: [{ start: FIL_PAGE_DATA, end: FIL_PAGE_DATA + FSP_HEADER_SIZE, kind: 'fsp-header', label: 'FSP header' }] };
}

/** Runs of consecutive page numbers, as text: "5-63, 100". */
function runs(pages: readonly number[]): string {
  const out: string[] = [];
  for (let i = 0; i < pages.length; ) {
    let j = i;
    while (j + 1 < pages.length && pages[j + 1] === pages[j] + 1) j++;
    out.push(i === j ? `${pages[i]}` : `${pages[i]}-${pages[j]}`);
    i = j + 1;
  }
  return out.join(', ') || 'none';
}

/** The group of pages a descriptor page describes, split into free and used ones (within the file). */
function descriptors(bytes: Uint8Array, no: number, ts: Tablespace): Section {
  const free: number[] = [];
  const end = Math.min(no + ts.physicalSize, ts.pageCount);
  for (let p = no; p < end; p++) if (p >= ts.fsp.freeLimit || isPageFree(bytes, p, ts)) free.push(p);
  return {
    title: `extent descriptors (pages ${no}-${no + ts.physicalSize - 1})`,
    fields: [
      { name: 'pages in use', offset: FIL_PAGE_DATA + FSP_HEADER_SIZE, size: 0, value: end - no - free.length },
      { name: 'free pages', offset: FIL_PAGE_DATA + FSP_HEADER_SIZE, size: 0, value: runs(free), note: 'in the file; at or past FSP_FREE_LIMIT counts as free' },
    ],
  };
}

function inodes(bytes: Uint8Array, no: number): SpacePart {
  const size = inodeEntrySize(bytes.length);
  const entries = inodeEntries(bytes, no);
  return {
    sections: [{
      title: `INODE entries (${entries.length} file segments)`,
      fields: entries.map((e) => ({ name: 'FSEG_FRAG_ARR[0]', offset: e.offset, size, value: e.firstFrag, note: e.firstFrag === FIL_NULL ? 'no fragment page' : 'first fragment page (a B-tree root for a non-leaf segment)' })),
    }],
    ranges: entries.map((e) => ({ start: e.offset, end: e.offset + size, kind: 'inode-entry', label: `file segment at ${e.offset}` })),
  };
}

function blobHeader(bytes: Uint8Array): SpacePart {
  const section: Section = {
    title: 'BLOB page header',
    fields: [
      readField(bytes, 'BTR_BLOB_HDR_PART_LEN', FIL_PAGE_DATA + BTR_BLOB_HDR_PART_LEN, 4, 'bytes of the value on this page'),
      readField(bytes, 'BTR_BLOB_HDR_NEXT_PAGE_NO', FIL_PAGE_DATA + BTR_BLOB_HDR_NEXT_PAGE_NO, 4),
    ],
  };
  return { sections: [section], ranges: fieldRanges(section, 'blob-header') };
}

/** The parts of page `no` (image `bytes`, of type `type`) that are not B-tree pages. */
export function inspectSpacePage(bytes: Uint8Array, no: number, type: number, ts: Tablespace): SpacePart {
  switch (type) {
    case PageType.FSP_HDR: {
      const fsp = fspHeader(bytes);
      return { sections: [...fsp.sections, descriptors(bytes, no, ts)], ranges: fsp.ranges };
    }
    case PageType.XDES:
      return { sections: [descriptors(bytes, no, ts)], ranges: [] };
    case PageType.INODE:
      return inodes(bytes, no);
    case PageType.BLOB:
      return blobHeader(bytes);
    default:
      return { sections: [], ranges: [] };
  }
}
