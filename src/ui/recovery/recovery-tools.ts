/**
 * The tools for a damaged file, a raw image or a file no definition describes, run in a worker of
 * their own (long reads that must not hold up the pool; it also keeps the guess it made):
 *
 *  - "Scan the file for indexes" (`scanIndexes`): reads every page once and lists the indexes found
 *    (workers/recovery-methods.ts listIndexes); IndexScan.svelte shows them, and one chosen is decoded
 *    in place of the index page 0 leads to (TableEntry.target);
 *  - "Guess the columns" (`guessColumns`): the columns read off the records, for the user to correct
 *    in GuessEditor.svelte; `tableFromGuess` turns the edited columns into a definition.
 */
import * as Comlink from 'comlink';
import type { ColumnEdit, TableDef } from '../../../workers/decoder-api.ts';
import { connectDecoder, type DecoderConnection } from '../../../workers/decoder-connection.ts';
import { describeError } from '../format.ts';
import type { TableEntry } from '../tables/table-entry.svelte.ts';

/** Progress of the index scan is shown at most this often. */
const SCAN_SHOWN_MS = 150;

export class RecoveryTools {
  #conn: DecoderConnection | null = null;

  /** Reads every page of `entry`'s file once and lists the indexes found. Stop with cancelScan(). */
  async scanIndexes(entry: TableEntry): Promise<void> {
    if (entry.scan?.state === 'running') return;
    const total = entry.file.size;
    entry.scan = { state: 'running', done: 0, total, list: null, error: null };
    let last = 0;
    const progress = Comlink.proxy((done: number) => {
      const now = Date.now();
      if (entry.scan?.state !== 'running' || now - last < SCAN_SHOWN_MS) return;
      last = now;
      entry.scan = { ...entry.scan, done };
    });
    try {
      const list = await this.#tool().api.listIndexes(entry.file, entry.file.name, undefined, progress);
      entry.scan = { state: 'done', done: total, total, list, error: null };
    } catch (err) {
      const cancelled = err instanceof Error && err.name === 'AbortError';
      entry.scan = { state: cancelled ? 'cancelled' : 'error', done: 0, total, list: null, error: cancelled ? null : describeError(err) };
    }
  }

  /** Stops the running index scan. */
  cancelScan(): void {
    void this.#conn?.api.cancelListing();
  }

  /** "Guess the columns" of a file no definition describes. */
  async guessColumns(entry: TableEntry): Promise<void> {
    if (entry.guess?.state === 'running') return;
    entry.guess = { state: 'running', result: null, error: null, applying: false };
    try {
      // an index chosen from a scan (a raw image, a damaged page 0), a dropped table's in an ibdata1: guess from that index's pages
      const target = entry.index ? { index: entry.index, raw: entry.raw } : undefined;
      const result = await this.#tool().api.guessColumns(entry.file, entry.file.name, target);
      entry.guess = { state: 'ready', result, error: null, applying: false };
    } catch (err) {
      entry.guess = { state: 'error', result: null, error: describeError(err), applying: false };
    }
  }

  /**
   * The definition of the (edited) guessed columns, which the editor then shows as applied; null
   * when there is no guess, or a type does not parse (said in the editor).
   */
  async tableFromGuess(entry: TableEntry, columns: ColumnEdit[]): Promise<TableDef | null> {
    const guess = entry.guess;
    if (!guess?.result) return null;
    entry.guess = { ...guess, applying: true, error: null };
    try {
      const api = this.#tool().api;
      const info = await api.tableFromGuess(guess.result.tableName, columns);
      const table = await api.tableDef(info.name);
      entry.guess = { ...guess, result: { ...guess.result, columns: columns.map((c) => ({ ...c })), createSql: info.createSql }, applying: false, error: null };
      return table;
    } catch (err) {
      entry.guess = { ...guess, applying: false, error: describeError(err) };
      return null;
    }
  }

  /** Stops the tools' worker (every file closed). */
  reset(): void {
    this.#conn?.terminate();
    this.#conn = null;
  }

  #tool(): DecoderConnection {
    this.#conn ??= connectDecoder();
    return this.#conn;
  }
}
