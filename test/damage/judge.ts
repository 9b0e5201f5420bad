/**
 * What the contract says of an output, as plain functions over CSV records and stderr text (the test
 * asserts on what they return, so a failure shows the rows or lines at fault):
 *
 *  - a row of the default output must be a server row, byte for byte; rows of `--rows all` come with
 *    a state, and those marked `damaged` should mostly (9 in 10) be server rows too;
 *  - the rows of intact records must all come back;
 *  - stderr says how many rows were withheld, which page is damaged, how many pages are missing.
 */
import { multisetMinus, splitState } from './csv-records.ts';

export const STATES = ['live', 'delete-marked', 'purged', 'damaged'] as const;

/** The records of `records` that are not in `truth`. */
export function notIn(records: readonly string[], truth: ReadonlySet<string>): string[] {
  return records.filter((r) => !truth.has(r));
}

/** Records that occur more than once (each extra occurrence once). */
export function duplicates(records: readonly string[]): string[] {
  const seen = new Set<string>();
  const extra: string[] = [];
  for (const r of records) {
    if (seen.has(r)) extra.push(r);
    else seen.add(r);
  }
  return extra;
}

/** The rows of `expected` that `records` lack. */
export function missing(expected: readonly string[], records: readonly string[]): string[] {
  const got = new Set(records);
  return expected.filter((r) => !got.has(r));
}

/** Whether two outputs hold the same records, as multisets: what one has that the other lacks. */
export function difference(a: readonly string[], b: readonly string[]): { extra: string[]; lacking: string[] } {
  return { extra: multisetMinus(a, b), lacking: multisetMinus(b, a) };
}

/** An output with a `_row_state` column, its rows grouped by state (rows without a known state under `unknown`). */
export function byState(records: readonly string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  const known = new Set<string>(STATES);
  for (const record of records) {
    const { row, state } = splitState(record);
    const key = known.has(state) ? state : 'unknown';
    const group = groups.get(key) ?? [];
    group.push(key === 'unknown' ? record : row);
    groups.set(key, group);
  }
  return groups;
}

/** All rows of an output with a `_row_state` column, the state taken off. */
export function withoutState(records: readonly string[]): string[] {
  return records.map((r) => splitState(r).row);
}

/** "N rows from damaged pages were withheld": N, or null when stderr does not say it. */
export function withheldCount(stderr: string): number | null {
  const m = /(\d+) rows? from damaged pages (?:were|was) withheld/.exec(stderr);
  return m ? Number(m[1]) : null;
}

/** Every page number stderr names ("page N"). */
export function pagesNamed(stderr: string): Set<number> {
  return new Set([...stderr.matchAll(/\bpage (\d+)/g)].map((m) => Number(m[1])));
}

/** Pages named on lines of stderr that speak of damage (damaged, checksum, corrupt, unreadable, skipped, withheld, bad). */
export function pagesCalledDamaged(stderr: string): Set<number> {
  return new Set(stderr.split('\n').filter((line) => /damag|checksum|corrupt|unreadable|skipped|withheld|\bbad\b/i.test(line)).flatMap((line) => [...pagesNamed(line)]));
}

/** Whether a line of stderr says that `n` pages are missing (the word and the number on one line). */
export function saysMissing(stderr: string, n: number): boolean {
  return stderr.split('\n').some((line) => /missing/i.test(line) && new RegExp(`(^|\\D)${n}(\\D|$)`).test(line));
}

/** The figure behind "at least 9 of 10 damaged rows equal a server row". */
export interface DamagedTally {
  rows: number;
  serverRows: number;
}

export function tallyDamaged(into: DamagedTally, damagedRows: readonly string[], ever: ReadonlySet<string>): void {
  into.rows += damagedRows.length;
  into.serverRows += damagedRows.filter((r) => ever.has(r)).length;
}

/** The first lines of stderr, for a failure message. */
export function stderrHead(stderr: string, lines = 3): string {
  const all = stderr.trimEnd().split('\n');
  return all.slice(0, lines).map((l) => (l.length > 200 ? `${l.slice(0, 200)}…` : l)).join(' / ') + (all.length > lines ? ` / … (${all.length} lines)` : '');
}

/** A few of a list, for a failure message. */
export function firstFew(list: readonly string[], n = 3): string {
  const shown = list.slice(0, n).map((s) => (s.length > 160 ? `${s.slice(0, 160)}…` : s));
  return list.length === 0 ? 'none' : `${list.length}: ${shown.join(' | ')}${list.length > n ? ' | …' : ''}`;
}
