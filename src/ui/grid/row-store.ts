/**
 * The rows of the table on screen, decoded on demand: a row number is mapped to its leaf page
 * (RowMap), and only the pages asked for are decoded (in the worker pool), kept as compact RowBatches
 * (one UTF-8 buffer + offsets + NULL flags per page; a cell becomes a string only when shown) in a
 * small least-recently-used cache. Memory is bounded by BUDGET_BYTES, whatever the table size.
 *
 * `row()` answers at once: the cells, or null while the page is being read (the grid shows a
 * placeholder and asks with `want()`; `onChange` says when pages arrived). A page that decodes to a
 * different number of rows than counted corrects the RowMap, which renumbers the rows after it.
 */
import type { RowBatch } from '../../core/values/row-batch.ts';
import { batchText, cellString, type BatchText } from './batch-text.ts';
import type { RowMap } from './row-map.ts';

export type Cell = string | null;

/** Decoded pages kept, in bytes (text, offsets, flags, and the decoded string). */
const BUDGET_BYTES = 48 << 20;
/** Pages decoded per request (consecutive leaves in one worker call). */
const FETCH_PAGES = 4;

interface Cached {
  batch: RowBatch;
  text: BatchText | null;
  bytes: number;
}

/** Decodes leaves (indexes into RowMap.leaves, consecutive), one batch each. */
export type FetchLeaves = (from: number, to: number) => Promise<RowBatch[]>;

export class RowStore {
  readonly cols: number;
  readonly map: RowMap;
  /** Set when a page could not be read at all (the message). */
  error: string | null = null;
  #fetch: FetchLeaves;
  #onChange: () => void;
  #cache = new Map<number, Cached>();
  #loading = new Map<number, Promise<void>>();
  #bytes = 0;

  constructor(map: RowMap, cols: number, fetch: FetchLeaves, onChange: () => void) {
    this.map = map;
    this.cols = cols;
    this.#fetch = fetch;
    this.#onChange = onChange;
  }

  /** Rows known so far. */
  get count(): number {
    return this.map.rows;
  }

  /** The decoded page holding `row` and the row's index on it, or null when not in memory. */
  #at(row: number): { entry: Cached; index: number } | null {
    const leaf = this.map.leafOf(row);
    if (leaf < 0) return null;
    const entry = this.#cache.get(leaf);
    if (!entry) return null;
    const index = row - this.map.start(leaf);
    return index < entry.batch.rows ? { entry, index } : null;
  }

  #text(entry: Cached): BatchText {
    if (!entry.text) {
      entry.text = batchText(entry.batch);
      entry.bytes += entry.text.str.length * 2 + (entry.text.map?.byteLength ?? 0);
      this.#bytes += entry.text.str.length * 2 + (entry.text.map?.byteLength ?? 0);
    }
    return entry.text;
  }

  /** The row's cells, or null while its page is not in memory. */
  row(row: number): Cell[] | null {
    const at = this.#at(row);
    if (!at) return null;
    const out = new Array<Cell>(this.cols);
    const base = at.index * this.cols;
    const text = this.#text(at.entry);
    for (let c = 0; c < this.cols; c++) out[c] = cellString(at.entry.batch, text, base + c);
    return out;
  }

  /**
   * The row's columns whose values are not those on disk (RowBatch.changed: a view "as before
   * transaction N"), or null when none is (or its page is not in memory).
   */
  changed(row: number): number[] | null {
    const at = this.#at(row);
    const marks = at?.entry.batch.changed;
    if (!at || !marks) return null;
    const base = at.index * this.cols;
    const out: number[] = [];
    // Marks are in row order: a binary search finds the row's first.
    let lo = 0;
    let hi = marks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (marks[mid] < base) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < marks.length && marks[i] < base + this.cols; i++) out.push(marks[i] - base);
    return out.length > 0 ? out : null;
  }

  /** One cell; undefined while its page is not in memory. */
  cell(row: number, col: number): Cell | undefined {
    const at = this.#at(row);
    if (!at) return undefined;
    return cellString(at.entry.batch, this.#text(at.entry), at.index * this.cols + col);
  }

  /** Asks for the pages of these rows (and the next page, for smooth scrolling). */
  want(rows: readonly number[]): void {
    const leaves = new Set<number>();
    for (const r of rows) {
      const leaf = this.map.leafOf(r);
      if (leaf >= 0) leaves.add(leaf);
    }
    const last = Math.max(-1, ...leaves);
    if (last >= 0 && last + 1 < this.map.known) leaves.add(last + 1);
    void this.load([...leaves]);
  }

  /** Loads these leaves (if not in memory), in groups of consecutive ones. */
  async load(leaves: readonly number[]): Promise<void> {
    const missing = leaves.filter((l) => !this.#cache.has(l)).sort((a, b) => a - b);
    const waits: Promise<void>[] = [];
    let i = 0;
    while (i < missing.length) {
      const from = missing[i];
      const busy = this.#loading.get(from);
      if (busy) {
        waits.push(busy);
        i++;
        continue;
      }
      let to = from + 1;
      while (i + 1 < missing.length && missing[i + 1] === to && to - from < FETCH_PAGES && !this.#loading.has(to)) {
        i++;
        to++;
      }
      i++;
      waits.push(this.#request(from, to));
    }
    for (const l of leaves) {
      const entry = this.#cache.get(l);
      if (entry) this.#touch(l, entry);
    }
    await Promise.all(waits);
  }

  /** The decoded page `leaf` (loaded if needed). */
  async page(leaf: number): Promise<RowBatch | null> {
    await this.load([leaf]);
    return this.#cache.get(leaf)?.batch ?? null;
  }

  /** A leaf decoded elsewhere (the first one, decoded as the table was opened). */
  seed(leaf: number, batch: RowBatch): void {
    this.#add(leaf, batch);
  }

  #request(from: number, to: number): Promise<void> {
    const p = this.#fetch(from, to).then(
      (batches) => {
        batches.forEach((batch, k) => this.#add(from + k, batch));
        this.#onChange();
      },
      (err: unknown) => {
        if (err instanceof Error && err.name === 'PoolStopped') return;
        this.error = err instanceof Error ? err.message : String(err);
        this.#onChange();
      },
    ).finally(() => {
      for (let l = from; l < to; l++) this.#loading.delete(l);
    });
    for (let l = from; l < to; l++) this.#loading.set(l, p);
    return p;
  }

  #add(leaf: number, batch: RowBatch): void {
    this.map.setDecoded(leaf, batch.rows);
    const old = this.#cache.get(leaf);
    if (old) this.#bytes -= old.bytes;
    const bytes = batch.text.byteLength + batch.cells.byteLength + batch.nulls.byteLength;
    this.#cache.set(leaf, { batch, text: null, bytes });
    this.#bytes += bytes;
    for (const [l, e] of this.#cache) {
      if (this.#bytes <= BUDGET_BYTES || this.#cache.size <= FETCH_PAGES * 4) break;
      this.#cache.delete(l);
      this.#bytes -= e.bytes;
    }
  }

  /** Marks a page as just used (a Map iterates in insertion order: the oldest first). */
  #touch(leaf: number, entry: Cached): void {
    this.#cache.delete(leaf);
    this.#cache.set(leaf, entry);
  }
}
