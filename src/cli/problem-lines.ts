/**
 * The CLI's stderr lines for what a read could not vouch for, the same for one file, each partition
 * and a lookup: a decoder problem naming the file, page and record offset; the leaf pages a count
 * left out (the first 20 of them).
 */
import type { Problem } from '../core/readers/table-reader.ts';

/** A decoder problem, naming the file, page and record. */
export function problemLine(file: string, p: Problem): string {
  return `${file}${p.page !== null ? `, page ${p.page}` : ''}${p.record !== null ? `, record at ${p.record}` : ''}: ${p.message}`;
}

/** The first 20 of the leaf pages a count could not read, a line each. */
export function uncountedLines(file: string, indexId: bigint, pages: readonly number[]): string[] {
  return pages.slice(0, 20).map((page) => `${file}, page ${page}: not a readable leaf page of index ${indexId}; its rows are not in the count`);
}
