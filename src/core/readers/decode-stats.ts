/**
 * What a read of a table's rows counts and names: every page skipped, every record that could not be
 * read, every row of a damaged page returned or withheld. Counts are exact; the list of problems is
 * capped (MAX_PROBLEMS) but names file, page, record offset and why.
 */

export interface Problem {
  page: number | null;
  record: number | null;
  message: string;
}

export interface DecodeStats {
  pagesRead: number;
  pagesSkipped: number;
  badChecksums: number;
  /** Rows returned, of every state. */
  rowsDecoded: number;
  recordsFailed: number;
  /** Delete-marked records still in the tree (deleted rows not yet purged); returned outside `live` mode. */
  deletedSkipped: number;
  /** Deleted rows returned (`deleted`/`both`/`all` modes): delete-marked ones, and purged ones from free lists. */
  deletedRecovered: number;
  /** Purged records found in free lists that could no longer be read (their space partly reused). */
  purgedUnreadable: number;
  /** Leaf pages that failed their checksum or a structural check: their rows are of state `damaged`. */
  damagedPages: number;
  /** Rows of state `damaged` returned (`damaged` and `all` modes). */
  damagedRows: number;
  /** Rows of damaged pages left out by a mode without the state `damaged`: what `--rows damaged` would return. */
  damagedWithheld: number;
  /** Off-page values that could not be read: their cells say `[unreadable: …]`, the rest of the row is kept. */
  valuesUnreadable: number;
  /** Records of damaged pages found by carving the page body (page-carve.ts), past a broken record list. */
  carvedRecords: number;
  /** Records changed by a transaction whose changes are taken back (trx/row-vers.ts): shown as their earlier version, or no row (an insert). */
  rowsRolledBack: number;
  /** Of those, rows whose earlier version is no longer in the undo logs: shown marked `history-lost`, or withheld. */
  historyLost: number;
  /** Every skipped page and undecodable record, with why (capped list; counts are exact). */
  problems: Problem[];
}

export const MAX_PROBLEMS = 1000;

export function emptyStats(): DecodeStats {
  return {
    pagesRead: 0, pagesSkipped: 0, badChecksums: 0, rowsDecoded: 0, recordsFailed: 0,
    deletedSkipped: 0, deletedRecovered: 0, purgedUnreadable: 0,
    damagedPages: 0, damagedRows: 0, damagedWithheld: 0, valuesUnreadable: 0, carvedRecords: 0, rowsRolledBack: 0, historyLost: 0, problems: [],
  };
}

export function addProblem(stats: DecodeStats, page: number | null, record: number | null, message: string): void {
  if (stats.problems.length < MAX_PROBLEMS) stats.problems.push({ page, record, message });
}

/** Whether anything was left out, damaged or unreadable (the CLI's exit status 2). */
export function anythingAmiss(s: DecodeStats): boolean {
  return s.recordsFailed + s.pagesSkipped + s.badChecksums + s.damagedPages + s.valuesUnreadable + s.historyLost > 0;
}
