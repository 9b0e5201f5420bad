/**
 * The texts of the page's recovery report (RecoveryReport.svelte) and index list (IndexScan.svelte),
 * from the decode statistics and the index scan: plain language, no DOM. The CLI's one-line report
 * is src/core/readers/recovery-target.ts's recoveryReport.
 */
import type { DecodeStats, IndexList, IndexListEntry } from '../../../workers/decoder-api.ts';
import type { Problem } from '../../core/readers/table-reader.ts';
import { formatCount } from '../format.ts';

export interface ReportFigure {
  label: string;
  value: number;
  /** Worth the user's attention (damage, loss). */
  bad: boolean;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** The report's figures, in the order the CLI prints them. */
export function reportFigures(s: DecodeStats): ReportFigure[] {
  const live = s.rowsDecoded - s.deletedRecovered;
  return [
    { label: 'Pages read', value: s.pagesRead, bad: false },
    { label: 'Pages damaged (bad checksum, read anyway)', value: s.badChecksums, bad: s.badChecksums > 0 },
    { label: 'Pages skipped (unreadable)', value: s.pagesSkipped, bad: s.pagesSkipped > 0 },
    { label: 'Rows read (live)', value: live, bad: false },
    { label: 'Deleted rows read', value: s.deletedRecovered, bad: false },
    { label: 'Deleted rows left out (delete-marked)', value: s.deletedSkipped, bad: false },
    { label: 'Records that could not be read', value: s.recordsFailed, bad: s.recordsFailed > 0 },
    { label: 'Purged records that could not be read', value: s.purgedUnreadable, bad: false },
  ];
}

/** One page (or the file as a whole: page null) and everything wrong with it. */
export interface PageProblems {
  page: number | null;
  what: string[];
}

/** The problems grouped by page, pages in order, problems about the file as a whole first. */
export function problemsByPage(problems: readonly Problem[]): PageProblems[] {
  const byPage = new Map<number | null, string[]>();
  for (const p of problems) {
    const text = p.record !== null ? `record at byte ${p.record}: ${p.message}` : p.message;
    const list = byPage.get(p.page);
    if (!list) byPage.set(p.page, [text]);
    else if (!list.includes(text)) list.push(text);
  }
  return [...byPage.entries()]
    .sort((a, b) => (a[0] ?? -1) - (b[0] ?? -1))
    .map(([page, what]) => ({ page, what }));
}

/** A sentence on the whole: what was read, what was lost. */
export function reportHeadline(s: DecodeStats, complete: boolean): string {
  const lost = s.pagesSkipped + s.recordsFailed;
  const scope = !complete ? 'So far' : s.pagesSkipped > 0 ? 'Every leaf page was tried' : 'Every leaf page was read';
  if (lost === 0 && s.badChecksums === 0) {
    return `${scope}: ${plural(s.rowsDecoded, 'row')} from ${plural(s.pagesRead, 'page')}, nothing damaged${complete ? '' : ' (only the pages shown or searched have been read)'}.`;
  }
  const parts: string[] = [];
  if (s.pagesSkipped > 0) parts.push(`${plural(s.pagesSkipped, 'page')} could not be read`);
  if (s.badChecksums > 0) parts.push(`${plural(s.badChecksums, 'page')} ${s.badChecksums === 1 ? 'is' : 'are'} damaged but were read`);
  if (s.recordsFailed > 0) parts.push(`${plural(s.recordsFailed, 'record')} could not be decoded`);
  return `${scope}: ${plural(s.rowsDecoded, 'row')} from ${plural(s.pagesRead, 'page')}; ${parts.join(', ')}.`;
}

/** What the index scan found in the file, in a sentence. */
export function scanHeadline(list: IndexList): string {
  return `${list.file}: ${list.pageSize / 1024} KB pages from byte ${formatCount(list.gridOffset)}, `
    + `${list.checksumFormat === 'full_crc32' ? 'full_crc32' : 'crc32/innodb'} checksums (guessed from the pages); `
    + `${plural(list.pagesScanned, 'page')} read: ${formatCount(list.validPages)} valid, ${formatCount(list.damagedPages)} damaged index pages, `
    + `${formatCount(list.emptyPages)} empty.`;
}

/** The indexes of one space, clustered index (lowest id) first: the likely table is its first line. */
export function likelyClustered(list: IndexList, entry: IndexListEntry): boolean {
  const same = list.indexes.filter((i) => i.spaceId === entry.spaceId && i.leafPages > 0);
  return same.length > 0 && same.every((i) => BigInt(i.indexId) >= BigInt(entry.indexId));
}

/** What reading a raw image left out, for the report. */
export function rawNotes(list: IndexList, entry: IndexListEntry): string[] {
  const out = [`Read as a raw image (no valid page 0): ${scanHeadline(list)}`];
  const missing = -entry.open.raw.base / list.pageSize;
  if (Number.isInteger(missing) && missing > 0) {
    out.push(`The image starts at page ${formatCount(missing)} of the tablespace: ${missing === 1 ? 'page 0 is' : `pages 0–${formatCount(missing - 1)} are`} missing (cut off), so whatever ${missing === 1 ? 'it' : 'they'} held was skipped.`);
  }
  out.push(`Index ${entry.indexId} of space ${entry.spaceId}: ${plural(entry.pages, 'page')} found (${formatCount(entry.leafPages)} leaf), ${plural(entry.records, 'record')}.`);
  if (entry.root === null) out.push('Its root page was not found (cut off or damaged): the leaf pages were found by scanning, so rows may not be in key order.');
  if (entry.damagedPages > 0) out.push(`${plural(entry.damagedPages, 'page')} of this index fail their checksum.`);
  if (entry.copiesElsewhere > 0) out.push(`${plural(entry.copiesElsewhere, 'copy', 'copies')} of its pages elsewhere in the image (a doublewrite buffer, stale copies) were not used.`);
  return out;
}

/**
 * The line that ends a pass over every leaf page: complete only when every one could be read (a
 * truncated file's missing leaves are counted, not read).
 */
export function passEnd(s: DecodeStats, total: number): { complete: boolean; text: string } {
  if (s.pagesSkipped === 0) return { complete: true, text: `Complete: all ${formatCount(total)} leaf pages were read.` };
  return {
    complete: false,
    text: `Not complete: ${formatCount(Math.max(0, total - s.pagesSkipped))} of ${formatCount(total)} leaf pages were read; ${plural(s.pagesSkipped, 'page')} could not be read (see below).`,
  };
}
