/**
 * What the count of the table on screen found wrong, leaf by leaf: the damaged leaf pages (they fail
 * their checksum or a structural check) with what each holds, and the leaves that could not be read
 * at all. The count hands it over run by run, in key order (workers/leaf-damage.ts); the banner's
 * figures (DamageBanner.svelte), the grid's marks and the key search (table-view.ts) read it.
 * Memory: a byte per leaf, and the decoder's line about each of the first MAX_LISTED damaged pages.
 * No DOM: unit-tested in Node.
 */
import type { DecodeStats } from '../../core/readers/decode-stats.ts';
import type { LeafCounts, RowMode } from '../../../workers/viewer-api.ts';
import { hasStateColumn, modeIncludes } from '../../core/readers/row-state.ts';
import { formatCount, plural } from '../format.ts';

/** Damaged and skipped pages named (and damaged pages' lines kept), at most. */
export const MAX_LISTED = 1000;

const DAMAGED = 1;
const SKIPPED = 2;

/** The count's figures so far: what a read of the whole table in the same row mode says (the CLI's). */
export interface DamageFigures {
  /** Leaves counted so far, of `leaves`. */
  counted: number;
  leaves: number;
  /** Leaf pages that fail their checksum or a structural check. */
  damagedPages: number;
  /** Their rows the mode returns (of state `damaged`). */
  damagedRows: number;
  /** Their rows the mode leaves out that it would return from an intact page. */
  withheld: number;
  /** Their records that could not be read back at all. */
  lost: number;
  /** Leaf pages the tree points to that could not be read (past the end of the file, or not a leaf). */
  skipped: number;
  /** Of those, the ones past the end of the file. */
  pastEnd: number;
  /** The first damaged pages and skipped pages, by page number (MAX_LISTED of each). */
  damagedList: number[];
  skippedList: number[];
}

export class DamageTally {
  readonly #flags: Uint8Array;
  /** The decoder's line about a damaged page, by page number (the first MAX_LISTED). */
  readonly #reasons = new Map<number, string>();
  #figures: DamageFigures;

  /** `pageCount`: pages in the file (a leaf numbered past it lies beyond the end of the file). */
  constructor(readonly leaves: Int32Array, private readonly pageCount: number) {
    this.#flags = new Uint8Array(leaves.length);
    this.#figures = { counted: 0, leaves: leaves.length, damagedPages: 0, damagedRows: 0, withheld: 0, lost: 0, skipped: 0, pastEnd: 0, damagedList: [], skippedList: [] };
  }

  /** The count of leaves [from, from + counts.length), in key order after the runs before it. */
  add(from: number, run: LeafCounts): void {
    const f = this.#figures;
    const damagedList = f.damagedList.slice();
    const skippedList = f.skippedList.slice();
    let { damagedPages, damagedRows, withheld, lost, skipped, pastEnd } = f;
    for (const d of run.damaged) {
      const leaf = from + d.at;
      this.#flags[leaf] = DAMAGED;
      damagedPages++;
      damagedRows += d.rows;
      withheld += d.withheld;
      lost += d.lost;
      if (damagedList.length < MAX_LISTED) {
        damagedList.push(this.leaves[leaf]);
        if (d.reason !== null) this.#reasons.set(this.leaves[leaf], d.reason);
      }
    }
    for (let i = 0; i < run.counts.length; i++) {
      if (run.counts[i] >= 0) continue;
      const leaf = from + i;
      this.#flags[leaf] = SKIPPED;
      skipped++;
      if (this.leaves[leaf] >= this.pageCount) pastEnd++;
      if (skippedList.length < MAX_LISTED) skippedList.push(this.leaves[leaf]);
    }
    // A new object: the page keeps the last one in its state and redraws when it changes.
    this.#figures = { ...f, counted: Math.max(f.counted, from + run.counts.length), damagedPages, damagedRows, withheld, lost, skipped, pastEnd, damagedList, skippedList };
  }

  get figures(): DamageFigures {
    return this.#figures;
  }

  /** Leaf `leaf` (an index into `leaves`) is damaged. */
  damaged(leaf: number): boolean {
    return this.#flags[leaf] === DAMAGED;
  }

  /** The damaged leaves counted so far, in key order. */
  *damagedLeaves(): Generator<number> {
    const flags = this.#flags;
    for (let leaf = flags.indexOf(DAMAGED); leaf >= 0; leaf = flags.indexOf(DAMAGED, leaf + 1)) yield leaf;
  }

  /** The decoder's line about damaged page `page` (null when it is not one of the first listed). */
  reason(page: number): string | null {
    return this.#reasons.get(page) ?? null;
  }

  /** What the grid says of a row of damaged leaf `leaf`: the page, and why it is damaged. */
  rowNote(leaf: number): string {
    const page = this.leaves[leaf];
    const why = reasonOf(this.reason(page));
    return `From damaged page ${page}${why ? ` (${why})` : ''}: each value passed its type's checks, but nothing vouches for the row`;
  }
}

/** Why the decoder calls a page damaged, from its line about it ("the page is damaged (why): …"). */
export function reasonOf(line: string | null): string | null {
  if (line === null) return null;
  const m = /^the page is damaged \((.*)\): \d+ records? read back/.exec(line);
  return m ? m[1] : line;
}

/** The row mode that shows the rows of damaged pages besides the mode's own: every state. */
export function withDamaged(mode: RowMode): RowMode {
  return modeIncludes(mode, 'damaged') ? mode : 'all';
}

/** The row mode of `mode`'s rows less those of damaged pages (null: it has no others). */
export function withoutDamaged(mode: RowMode): RowMode | null {
  if (mode === 'damaged') return null;
  return mode === 'all' ? 'both' : mode;
}

/**
 * The row mode an export of a view in `mode` reads: the rows of damaged pages left out (the
 * default), or included, each tagged in `_row_state` (every state: no mode has the live rows and
 * the damaged ones alone). A view of the damaged rows alone exports them.
 */
export function exportMode(mode: RowMode, includeDamaged: boolean): RowMode {
  return includeDamaged ? withDamaged(mode) : (withoutDamaged(mode) ?? mode);
}

/** Rows of damaged pages a view in `mode` holds (shown) or would hold (withheld), by the count. */
export function damagedRowsOf(f: DamageFigures, mode: RowMode): number {
  return modeIncludes(mode, 'damaged') ? f.damagedRows : f.withheld;
}

/** "page 7", "pages 7 and 9", "pages 7, 9, 12 and 3 more". */
export function pageList(pages: readonly number[], total: number): string {
  if (total === 0) return '';
  const shown = pages.slice(0, total > 6 ? 5 : 6);
  const more = total - shown.length;
  if (total === 1) return `page ${shown[0]}`;
  if (more > 0) return `pages ${shown.join(', ')} and ${plural(more, 'more', 'more')}`;
  return `pages ${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** The file as the banner speaks of it. */
export interface FileShape {
  fileSize: number;
  pageSize: number;
  /** Whole pages in the file. */
  pageCount: number;
}

export interface DamageReport {
  /** One line on the whole. */
  headline: string;
  /** What is missing, withheld or damaged, a sentence each. */
  lines: string[];
  /** What the banner offers: show the rows of damaged pages, or leave them out again (null: neither). */
  offer: 'show' | 'hide' | null;
}

/**
 * The banner's text, or null when nothing is missing, withheld or damaged. `extraLost`: records of
 * intact pages that could not be decoded (known once every page was read, for the recovery report).
 */
export function damageReport(f: DamageFigures, mode: RowMode, file: FileShape, extraLost: number): DamageReport | null {
  const lines: string[] = [];
  const head: string[] = [];
  const shows = modeIncludes(mode, 'damaged');
  const one = f.damagedPages === 1;
  const pages = `${one ? 'a damaged page' : plural(f.damagedPages, 'damaged page')} (${pageList(f.damagedList, f.damagedPages)})`;
  const it = (n: number) => (n === 1 ? 'it' : 'them');
  if (f.damagedPages > 0) {
    const lost = f.lost > 0 ? ` ${plural(f.lost, 'record')} of ${one ? 'the page' : 'these pages'} could not be read back at all.` : '';
    const why = `${one ? 'the page fails its' : 'the pages fail their'} checksum or a structural check`;
    if (!shows && f.withheld > 0) {
      head.push(`${plural(f.withheld, 'row')} withheld from ${one ? 'a damaged page' : plural(f.damagedPages, 'damaged page')}`);
      lines.push(`${plural(f.withheld, 'row')} from ${pages} ${f.withheld === 1 ? 'is' : 'are'} withheld: ${why}, so nothing vouches for ${it(f.withheld)}. “Show damaged rows” lists ${it(f.withheld)} among the others, each marked ⚠ in the row gutter.${lost}`);
    } else if (shows && f.damagedRows > 0) {
      head.push(`${plural(f.damagedRows, 'row')} from ${one ? 'a damaged page' : plural(f.damagedPages, 'damaged page')}`);
      const tagged = hasStateColumn(mode) ? ' and tagged damaged in _row_state' : '';
      lines.push(`${mode === 'damaged' ? 'These are only the' : 'Among the rows below, the'} ${plural(f.damagedRows, 'row')} read from ${pages}, marked ⚠ in the row gutter${tagged}: ${why}; each value passed its type's checks, but nothing vouches for ${it(f.damagedRows)}.${lost}`);
    } else {
      head.push(`${plural(f.damagedPages, 'damaged page')}`);
      lines.push(`${pages.charAt(0).toUpperCase()}${pages.slice(1)}: ${why}, and none of ${one ? 'its' : 'their'} records is a row of this view.${lost}`);
    }
  }
  const lost = f.lost + extraLost;
  if (lost > 0) head.push(`${plural(lost, 'record')} unreadable`);
  if (extraLost > 0) lines.push(`${plural(extraLost, 'record')} of intact pages could not be decoded (see the recovery report).`);
  if (f.skipped > 0) {
    head.push(`${plural(f.skipped, 'leaf page')} unreadable`);
    // Not "unknown" when the summary shows an estimate for pages past a truncated file's end: counted, no; estimated, yes.
    const estimate = f.pastEnd > 0 ? ` (of those past the file's end, the summary estimates the rows from the intact leaf pages' average)` : '';
    lines.push(`${plural(f.skipped, 'leaf page')} (${pageList(f.skippedList, f.skipped)}) could not be read: ${f.skipped === 1 ? 'its' : 'their'} rows are missing and cannot be counted${estimate}.`);
  }
  const truncated = truncation(f, file);
  if (truncated) {
    head.push('the file is truncated');
    lines.push(truncated);
  }
  if (lines.length === 0) return null;
  if (f.counted < f.leaves) lines.push(`So far: ${formatCount(f.counted)} of ${plural(f.leaves, 'leaf page')} counted.`);
  const headline = head.join(' · ');
  const offer = f.damagedPages === 0 ? null : !shows && f.withheld > 0 ? 'show' : mode === 'all' ? 'hide' : null;
  return { headline: headline.charAt(0).toUpperCase() + headline.slice(1), lines, offer };
}

/**
 * The file ends before the pages the B-tree points to: it was cut short (copied while it grew, a
 * disk full). Known here from the leaves past its end and a size that is not whole pages; the
 * diagnosis of the file (its summary) may know more, such as the size its header records: this is
 * the line to give those figures.
 */
function truncation(f: DamageFigures, file: FileShape): string | null {
  const partial = file.fileSize % file.pageSize;
  if (f.pastEnd === 0 && partial === 0) return null;
  const size = `${formatCount(file.fileSize)} bytes: ${plural(file.pageCount, 'whole page')}${partial > 0 ? ` and ${plural(partial, 'byte')} of page ${file.pageCount}` : ''}`;
  const beyond = f.pastEnd > 0 ? `, and ${plural(f.pastEnd, 'leaf page')} of the table ${f.pastEnd === 1 ? 'lies' : 'lie'} past its end` : '';
  return `The file is truncated (${size})${beyond}.`;
}

/**
 * What a read of a whole table left out (a table of "Export all tables", read in the live mode), in
 * a sentence the export's list of problems shows; null when nothing.
 */
export function readProblems(s: DecodeStats): string | null {
  const parts: string[] = [];
  if (s.damagedPages > 0) {
    parts.push(`${plural(s.damagedPages, 'damaged page')} (failing the checksum or a structural check): ${plural(s.damagedWithheld, 'row')} from ${s.damagedPages === 1 ? 'it' : 'them'} withheld`);
  }
  if (s.recordsFailed > 0) parts.push(`${plural(s.recordsFailed, 'record')} unreadable`);
  if (s.pagesSkipped > 0) parts.push(`${plural(s.pagesSkipped, 'page')} skipped`);
  return parts.length > 0 ? parts.join('; ') : null;
}

/**
 * What the secondary indexes' entries, counted before any partial row is read, say of those rows: at
 * most `rows` (a complete index's entries less the intact rows), or nothing, every index having
 * leaves lost or damaged too (`damaged`: their names).
 */
export type PartialBound = { rows: number } | { damaged: string[] };
