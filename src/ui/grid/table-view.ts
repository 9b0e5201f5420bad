/**
 * One table on screen, read on demand through the worker pool (pool.ts):
 *
 *  - `open`: opens the table in the pool (definition, row mode, keys) and gets its leaf pages in key
 *    order (from the level above the leaves: a few reads) in one worker while another descends to the
 *    first leaf and decodes it, so the first screen does not wait for the whole plan;
 *  - `count`: rows per leaf page, counted without decoding (src/core/readers/leaf-counts.ts) by every worker
 *    on runs of leaves, in key order: the first run is short so the first rows show at once, and the
 *    row count grows as runs come in (RowMap);
 *  - the grid reads rows through `store` (RowStore: decodes the pages on screen, keeps a few);
 *  - `filter`: every page decoded and searched in the pool, run by run; returns the global row
 *    numbers of the matches (a Float64Array: 8 bytes a match, never the rows);
 *  - `findKey`: a key value's row, through the B-tree in a worker (key-seek.ts: one page per level),
 *    its row number from the counts of the leaves before its leaf; where the path crosses a damaged
 *    page (or cannot be followed), a binary search over the intact leaf pages when the key's text
 *    orders like its values (numbers, dates), then a look through the damaged ones (their rows are
 *    not in key order, and their keys are not vouched for); else a search for the exact value,
 *    stopping at the first;
 *  - `sortBy`: the rows (a filter's matches) by a non-key column, sorted in the workers (sort-rows.ts);
 *  - `damage`: the damaged and unreadable leaves the count found (damage.ts).
 */
import type { RunSort } from '../../../workers/sort-methods.ts';
import { addTaken, type FirstLeaf, type LeafCounts, type OpenedView, type PartialGrid, type RowQuery, type TakenCount, type ViewSpec } from '../../../workers/viewer-api.ts';
import type { DecodeStats, IndexEntries, MappedRange, PartialResult } from '../../../workers/decoder-api.ts';
import type { RowBatch } from '../../core/values/row-batch.ts';
import { runBounds, runOrdered } from '../ordered.ts';
import type { WorkerPool } from '../pool.ts';
import { DamageTally } from '../recovery/damage.ts';
import { RowMap } from './row-map.ts';
import { RowStore } from './row-store.ts';
import { findOrderedKey, rowWithCells, type KeyFound } from '../search/key-search.ts';
import { keyComparer } from '../search/search.ts';
import { sortRows, type SortProgress } from './sort-rows.ts';
import { alignedBounds, mergeStats } from '../../core/readers/parallel.ts';

/**
 * Leaves counted per task (64 MiB of 16K pages, read 16 MiB at a time: Blob reads are fastest large,
 * and a task keeps its next read going while it counts), and in the first task (the first screen).
 * Four times the 1,024 of before: fewer task boundaries, where a worker's reads stopped until the page
 * sent it the next task (LINEITEM's count 2.6–2.8 s → 2.0–2.4 s, alternating builds).
 */
const COUNT_RUN = 4096;
const COUNT_FIRST = 16;
/**
 * Leaves decoded and searched per task, at most: 8 MiB of 16K pages, read at once (a Blob read costs
 * far more than its bytes), and cut on those reads (alignedBounds), so that no two workers read the
 * same part of the file.
 */
const SEARCH_RUN = 512;

export interface SearchProgress {
  /** Rows searched so far, matches so far. */
  searched: number;
  found: number;
}

/** A growable Float64Array (matches are appended in order). */
class Rows {
  data = new Float64Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }
  take(): Float64Array {
    return this.data.slice(0, this.length);
  }
}

export class TableView {
  readonly store: RowStore;
  /** What the count found damaged or unreadable, leaf by leaf. */
  damage: DamageTally;
  #stats: DecodeStats | null = null;
  /** As before transaction N (ViewSpec.undo), or a crash's transactions rolled back: the count's rows taken back (per transaction) and rows whose history is lost, so far. */
  taken: TakenCount | null = null;
  /** The statistics of the last search that decoded every leaf (each once): a complete recovery report. */
  fullPass: DecodeStats | null = null;
  /** Row numbers or statistics changed (the page redraws). */
  readonly #onChange: () => void;
  /** Waiting for the count to reach a leaf (findKey): woken after each run the count adds, and at its end. */
  #countWaiters: (() => void)[] = [];
  #counting = false;

  private constructor(
    private readonly pool: WorkerPool,
    private readonly gen: number,
    /** What the pool opened: also what an export opens in its own pool. */
    readonly spec: ViewSpec,
    readonly view: OpenedView,
    readonly map: RowMap,
    onChange: () => void,
  ) {
    this.#onChange = onChange;
    this.damage = new DamageTally(map.leaves, view.info.pageCount);
    this.store = new RowStore(map, view.columns.length, (from, to) => this.#decode(from, to), onChange);
  }

  /** The rows of the lost or damaged leaves made from the secondary indexes, read in a worker (partial-methods.ts). */
  partialRows(): Promise<PartialResult> {
    return this.pool.run((api) => api.partialRows(), 'low', this.gen);
  }

  /** The same as CSV, each row's `_row_state` partial. */
  partialCsv(): Promise<Blob> {
    return this.pool.run((api) => api.partialCsv(), 'low', this.gen);
  }

  /** The same rows for the grid (ViewSpec.partial). */
  partialGrid(): Promise<PartialGrid> {
    return this.pool.run((api) => api.partialGrid(), 'low', this.gen);
  }

  /** Each secondary index's live entries, counted without decoding (the banner's bound on the partial rows). */
  indexEntries(): Promise<IndexEntries[]> {
    return this.pool.run((api) => api.indexEntries(), 'low', this.gen);
  }

  /**
   * A run's counts as the rows read: with partial rows shown, a lost leaf that carries some has them
   * (partial-view.ts; the count of the leaf itself, UNCOUNTED, stays the damage tally's).
   */
  #rowsCounted(from: number, counts: Int32Array): Int32Array {
    const carried = this.#carried();
    if (carried === null) return counts;
    return counts.map((c, i) => Math.max(0, c) + (carried.get(this.map.leaves[from + i]) ?? 0));
  }

  /** Partial rows per lost leaf that carries them, made once for every run of the count; null with none shown. */
  #carriedRows: Map<number, number> | null | undefined;
  #carried(): Map<number, number> | null {
    if (this.#carriedRows !== undefined) return this.#carriedRows;
    const pages = this.spec.partial?.pages ?? [];
    const carried = pages.length === 0 ? null : new Map<number, number>();
    for (const page of pages) carried?.set(page, (carried.get(page) ?? 0) + 1);
    return (this.#carriedRows = carried);
  }

  static async open(pool: WorkerPool, spec: ViewSpec, onChange: () => void): Promise<TableView> {
    const gen = pool.setSpec(spec);
    // Any failure here (a definition that does not fit the first page) comes again, with its
    // message, from the store's own decode of leaf 0.
    const first = pool.run(async (api, member) => {
      const r = await api.firstLeaf();
      if (r) pool.noteStats(member, r.stats);
      return r;
    }, 'high', gen).catch(() => null);
    const { view, leaves } = await pool.run(async (api, member, opened) => {
      // Before any row is shown: a definition that does not fit is a verdict, not rows of garbage.
      await api.checkDefinition();
      const plan = await api.leafPages();
      pool.noteStats(member, plan.stats);
      return { view: opened as OpenedView, leaves: plan.leaves };
    }, 'high', gen);
    return TableView.opened(pool, gen, spec, { view, leaves, first: await first }, onChange);
  }

  /**
   * The table of generation `gen`, as a worker opened it (TableView.open, or resolveAndOpen in the
   * worker): its leaf plan, and its first leaf decoded (shown at once) unless that failed.
   */
  static opened(pool: WorkerPool, gen: number, spec: ViewSpec, got: { view: OpenedView; leaves: Int32Array; first: FirstLeaf | null }, onChange: () => void): TableView {
    const table = new TableView(pool, gen, spec, got.view, new RowMap(got.leaves), onChange);
    const { first, leaves } = got;
    if (first && leaves.length > 0 && leaves[0] === first.page) table.store.seed(0, first.batch);
    table.#noteStats();
    return table;
  }

  /** Still the pool's table (another open replaces it). */
  get current(): boolean {
    return this.pool.generation === this.gen;
  }

  /** The counts of an earlier count of the same leaves in the same row mode (the table opened again). */
  restore(counts: Int32Array, damage: DamageTally): void {
    this.map.setCounts(0, counts);
    this.damage = damage;
  }

  /** Decode statistics of the pages read so far (every worker). */
  stats(): DecodeStats | null {
    return this.#stats;
  }

  #noteStats(): void {
    this.#stats = this.pool.stats();
  }

  #pages(from: number, to: number): Int32Array {
    return this.map.leaves.slice(from, to);
  }

  #decode(from: number, to: number): Promise<RowBatch[]> {
    return this.pool.run(async (api, member) => {
      const r = await api.decodeLeaves(this.#pages(from, to), from === 0);
      this.pool.noteStats(member, r.stats);
      this.#noteStats();
      return r.batches;
    }, 'high', this.gen);
  }

  /**
   * Counts the rows of every leaf, in key order; `onRun` after each run. Each run's task waits for
   * `free` first (an export has the cores meanwhile). With `onMapped`, the workers record every page
   * they read for the page map too, handed to it run by run (pages/counted-map.ts).
   */
  async count(signal: AbortSignal, free: () => Promise<void>, onRun: () => void, onMapped?: (ranges: MappedRange[]) => void): Promise<void> {
    const runs = runBounds(this.map.leaves.length, COUNT_RUN, COUNT_FIRST);
    // A count stopped while it waits must not wait on (for the export to end).
    const stopped = new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    stopped.catch(() => undefined);
    this.#counting = true;
    try {
      await this.#countRuns(runs, free, stopped, signal, onRun, onMapped);
    } finally {
      this.#counting = false;
      this.#wakeCountWaiters();
    }
  }

  async #countRuns(runs: [number, number][], free: () => Promise<void>, stopped: Promise<never>, signal: AbortSignal, onRun: () => void, onMapped?: (ranges: MappedRange[]) => void): Promise<void> {
    await runOrdered(
      runs.length,
      (i) => Promise.race([free(), stopped]).then(() => this.pool.run((api) => api.countLeaves(this.#pages(runs[i][0], runs[i][1]), onMapped !== undefined), 'low', this.gen)),
      (counted: LeafCounts, i) => {
        this.map.setCounts(runs[i][0], this.#rowsCounted(runs[i][0], counted.counts));
        this.damage.add(runs[i][0], counted);
        if (counted.versions) this.taken = addTaken(this.taken, counted.versions);
        if (counted.mapped?.length) onMapped?.(counted.mapped);
        onRun();
        this.#wakeCountWaiters();
      },
      // One task per worker: each keeps two reads going itself (leaf-counts.ts), into the two read
      // buffers a worker keeps; two tasks each would need four, half of them new each time (+50 MB).
      { ahead: this.pool.size, signal },
    );
  }

  /** Decodes and searches every page; the global row numbers of the matches, ascending. */
  async filter(query: RowQuery, signal: AbortSignal, onProgress: (p: SearchProgress) => void): Promise<Float64Array> {
    const found = new Rows();
    await this.#scan(query, signal, (leaf, row) => {
      found.push(this.map.start(leaf) + row);
      return false;
    }, (searched) => onProgress({ searched, found: found.length }));
    return found.take();
  }

  /**
   * Runs `query` over all pages in key order; `hit(leaf, row)` for each match (in order), which may
   * return true to stop. Each page's decoded count corrects the RowMap first, so the row numbers
   * computed in `hit` are final.
   */
  async #scan(query: RowQuery, signal: AbortSignal, hit: (leaf: number, row: number) => boolean, progress: (searched: number) => void): Promise<void> {
    const runs = alignedBounds(this.map.leaves, SEARCH_RUN);
    const stop = new AbortController();
    const both = AbortSignal.any([signal, stop.signal]);
    let searched = 0;
    let pass = mergeStats([]);
    try {
      await runOrdered(
        runs.length,
        (i) => this.pool.run(async (api, member) => {
          const r = await api.searchLeaves(this.#pages(runs[i][0], runs[i][1]), runs[i][0] === 0, query);
          this.pool.noteStats(member, r.stats);
          return r;
        }, 'low', this.gen),
        (r, i) => {
          const from = runs[i][0];
          let renumbered = false;
          r.counts.forEach((n, k) => {
            renumbered = this.map.setDecoded(from + k, n) || renumbered;
          });
          if (renumbered) this.#onChange();
          for (let m = 0; m < r.pageOf.length; m++) {
            if (hit(from + r.pageOf[m], r.rowOf[m])) {
              stop.abort();
              return;
            }
          }
          for (const n of r.counts) searched += n;
          pass = mergeStats([pass, r.runStats]);
          progress(searched);
        },
        { ahead: this.pool.size * 2, signal: both },
      );
      // Every leaf was decoded once: the recovery report of this pass is complete.
      this.fullPass = pass;
    } catch (e) {
      if (!stop.signal.aborted || signal.aborted) throw e;
    } finally {
      this.#noteStats();
      this.#onChange();
    }
  }

  /**
   * Row numbers of the rows (those `filter` matches, or all) in ascending order of output column
   * `by.column`, ties in key order, or of the view's whole key (`by.index`, sort-rows.ts); `runPages`:
   * leaves per sorted run.
   */
  sortBy(by: Pick<RunSort, 'column' | 'index' | 'columns'>, filter: RowQuery | null, signal: AbortSignal, onProgress: (p: SortProgress) => void, runPages = SEARCH_RUN): Promise<Float64Array> {
    return sortRows({ pool: this.pool, gen: this.gen }, this.map, this.#onChange, by, filter, signal, onProgress, runPages);
  }

  /**
   * Decodes every leaf once, in runs, for the recovery report: the statistics of this pass alone
   * (each page counted once, whatever the grid decoded before). `onRun` hears the leaves done so far
   * and the statistics so far.
   */
  async reportAll(signal: AbortSignal, onRun: (leavesDone: number, stats: DecodeStats) => void): Promise<DecodeStats> {
    const runs = alignedBounds(this.map.leaves, SEARCH_RUN);
    let total = mergeStats([]);
    let done = 0;
    await runOrdered(
      runs.length,
      (i) => this.pool.run((api) => api.reportLeaves(this.#pages(runs[i][0], runs[i][1])), 'low', this.gen),
      (s, i) => {
        total = mergeStats([total, s]);
        done += runs[i][1] - runs[i][0];
        onRun(done, total);
      },
      { ahead: this.pool.size * 2, signal },
    );
    return total;
  }

  #wakeCountWaiters(): void {
    const waiters = this.#countWaiters;
    this.#countWaiters = [];
    for (const w of waiters) w();
  }

  /** Whether leaf `leaf`'s first row number is known, waiting for the count while it runs. */
  async #counted(leaf: number, signal: AbortSignal): Promise<boolean> {
    while (this.map.known <= leaf && this.#counting && !signal.aborted) await new Promise<void>((wake) => this.#countWaiters.push(wake));
    return this.map.known > leaf;
  }

  /**
   * The first row whose key (the view's key columns from the first: fewer values match every key
   * that begins with them) equals `values`: -1 when none, then perhaps the damaged page it would be
   * on. Through the B-tree in a worker (`via`), or where the path crosses a damaged page (`offPath`),
   * by searching the leaves. Rejects with the worker's Error for a key that is not one of the index's.
   */
  async findKey(values: readonly string[], signal: AbortSignal): Promise<KeyFound> {
    if (this.view.keyColumns.length === 0) return this.#searchKey(values, signal);
    const seek = await this.pool.run((api) => api.seekKey([...values]), 'high', this.gen);
    signal.throwIfAborted();
    const via = { pages: seek.path.length, ms: seek.ms, notes: seek.notes };
    const leaf = seek.found === null ? -1 : this.map.leaves.indexOf(seek.found.leaf);
    if (seek.offPath !== null || (seek.found !== null && leaf < 0)) {
      const offPath = seek.offPath ?? `leaf page ${seek.found?.page} is not in the plan of the leaf level`;
      return { ...(await this.#searchKey(values, signal)), offPath };
    }
    if (seek.found === null) return { row: -1, damagedPage: null, via };
    if (!(await this.#counted(leaf, signal))) return { row: -1, damagedPage: null, via, uncountedPage: seek.found.page };
    const batch = await this.store.page(leaf);
    const row = batch === null ? -1 : rowWithCells(batch, seek.found.cells);
    // The grid's decode of the leaf holds the row the worker's did (the same decoder, the same mode).
    if (row < 0) return { ...(await this.#searchKey(values, signal)), offPath: `leaf page ${seek.found.page} decoded differently in the grid` };
    return { row: this.map.start(leaf) + row, damagedPage: null, via };
  }

  /** findKey by reading the leaves: a binary search where the key's text orders like it, else a search of every page. */
  async #searchKey(values: readonly string[], signal: AbortSignal): Promise<KeyFound> {
    const keys = this.view.keyColumns.slice(0, values.length);
    const none: KeyFound = { row: -1, damagedPage: null };
    if (keys.length === 0 || this.map.rows === 0) return none;
    const cmp = keys.length === 1 && this.view.keyColumns.length === 1 ? keyComparer(this.view.columnInfo[keys[0]], this.spec.timeZone) : null;
    if (cmp) return findOrderedKey({ map: this.map, damage: this.damage, page: (leaf) => this.store.page(leaf) }, keys[0], values[0], cmp);
    // Every page searched, damaged ones too (a search compares every row).
    for (const fold of [false, true]) {
      let row = -1;
      await this.#scan({ kind: 'key', columns: keys, values: [...values], fold, firstOnly: true }, signal, (leaf, r) => {
        row = this.map.start(leaf) + r;
        return true;
      }, () => undefined);
      if (row >= 0) return { row, damagedPage: null };
    }
    return none;
  }
}
