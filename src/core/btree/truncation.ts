/**
 * A file cut short (a copy that ran out of space, a download that stopped): the pages past the end
 * are simply absent, so without a word the rows on them go missing quietly. Three things tell it:
 * the FSP header's FSP_SIZE (pages the space has) against the pages present, a file size that is
 * not a whole number of pages, and B-tree node pointers to leaf pages past the end. This puts them
 * in one sentence, with an estimate of the rows lost (the average of the intact leaf pages).
 */
import { FIL_PAGE_TYPE, PageType, u16 } from '../pages/fil-header.ts';
import { readIndexHeader } from '../pages/index-page.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';

export interface Truncation {
  /** Whole pages in the file: the first page missing. */
  cutAt: number;
  /** Bytes of page `cutAt` that are there (the file ends inside it), else 0. */
  partialBytes: number;
  /** FSP_SIZE, the pages the space header says the space has; null when page 0 is damaged. */
  spaceSize: number | null;
  /** Pages missing past the end: at least this many. */
  missingPages: number;
  /** Leaf pages of the clustered index the B-tree points to past the end; null when not known (yet). */
  missingLeaves: number | null;
  /** Rows estimated on those leaf pages, from the average of the intact ones; null when not known. */
  estimatedRows: number | null;
  /** All of it in a sentence. */
  message: string;
}

/** What the caller knows of the leaf pages past the end (see truncationOf, leafTruncation). */
export interface MissingLeaves {
  /** Leaf pages the B-tree points to past the end. */
  leaves: number;
  /** Some node pointer pages are missing too: there may be more. */
  atLeast?: boolean;
  /** The highest page number pointed to past the end, when known. */
  highest?: number;
  /** Average records per intact leaf page, when known. */
  rowsPerLeaf: number | null;
}

/** Leaf pages sampled for the average when the caller does not know it. */
const SAMPLED_LEAVES = 32;

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * What is missing at the end of the file, or null when nothing is: from the space header and the
 * file size alone, and from what the caller knows of the B-tree's leaf pages past the end.
 */
export function truncationOf(ts: Tablespace, missing: MissingLeaves | null = null): Truncation | null {
  const cutAt = ts.pageCount;
  const partialBytes = ts.source.size % ts.physicalSize;
  const spaceSize = ts.page0Damaged === null && !ts.raw ? ts.fsp.size : null;
  const missingPages = Math.max(spaceSize === null ? 0 : spaceSize - cutAt, missing?.highest !== undefined ? missing.highest + 1 - cutAt : 0, partialBytes > 0 ? 1 : 0);
  if (missingPages === 0 && !missing?.leaves) return null;
  const estimatedRows = missing && missing.rowsPerLeaf !== null ? Math.round(missing.leaves * missing.rowsPerLeaf) : null;
  const t: Truncation = { cutAt, partialBytes, spaceSize, missingPages, missingLeaves: missing?.leaves ?? null, estimatedRows, message: '' };
  t.message = truncationText(t, missing?.atLeast === true, ts.fsp.spaceId === 0);
  return t;
}

function truncationText(t: Truncation, atLeast: boolean, systemSpace: boolean): string {
  let text = cutText(t, systemSpace);
  if (t.missingLeaves === 0) return `${text}; none of them is a leaf page of the table's B-tree`;
  if (t.missingLeaves !== null) {
    text += `; the B-tree expects ${atLeast ? 'at least ' : ''}${count(t.missingLeaves, 'leaf page')} there`;
    if (t.estimatedRows !== null) text += ` (about ${count(t.estimatedRows, 'row')}, estimated from the intact leaf pages' average)`;
  }
  return text;
}

/** Where the file ends, against what the space header says. */
function cutText(t: Truncation, systemSpace: boolean): string {
  // A system tablespace may go on in more data files (innodb_data_file_path): not cut, if they are there.
  if (systemSpace && t.partialBytes === 0 && t.spaceSize !== null) {
    return `the file holds pages 0 to ${t.cutAt - 1} of the ${count(t.spaceSize, 'page')} its space header gives the system tablespace: the other ${count(t.missingPages, 'page')} are in its further data files (ibdata2 …, as innodb_data_file_path lists them), to be given after it, or missing`;
  }
  const partial = t.partialBytes > 0 ? ` (the file ends ${count(t.partialBytes, 'byte')} into it)` : '';
  const header = t.spaceSize === null ? 'the space header, on page 0, is damaged' : `the space header says ${count(t.spaceSize, 'page')}`;
  return `the file is cut at page ${t.cutAt}${partial}: ${t.spaceSize === null ? 'at least ' : ''}${count(t.missingPages, 'page')} missing past the end (${header})`;
}

/**
 * truncationOf for a caller that has the index's leaf page numbers (from its node pointers, in key
 * order): counts those past the end and estimates their rows from a sample of the others' headers.
 */
export async function leafTruncation(ts: Tablespace, leaves: readonly number[]): Promise<Truncation | null> {
  const past = leaves.filter((no) => no >= ts.pageCount);
  if (past.length === 0) return truncationOf(ts, null);
  const present = leaves.filter((no) => no < ts.pageCount);
  return truncationOf(ts, { leaves: past.length, highest: Math.max(...past), rowsPerLeaf: await averageRecords(ts, present) });
}

/** PAGE_N_RECS averaged over up to SAMPLED_LEAVES of `leaves`, spread evenly; null when none reads. */
async function averageRecords(ts: Tablespace, leaves: readonly number[]): Promise<number | null> {
  const step = Math.max(1, leaves.length / SAMPLED_LEAVES);
  let pages = 0;
  let records = 0;
  for (let i = 0; i < leaves.length; i += step) {
    const page = await ts.page(leaves[Math.floor(i)]).catch(() => null);
    if (!page || page.checksum === 'bad' || u16(page.bytes, FIL_PAGE_TYPE) !== PageType.INDEX) continue;
    pages++;
    records += readIndexHeader(page.bytes).nRecs;
  }
  return pages > 0 ? records / pages : null;
}
