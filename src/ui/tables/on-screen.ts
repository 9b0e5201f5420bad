/**
 * The table on screen: only one table is open at a time, in the page's worker pool (pool.ts).
 *
 *  - `open`: resolves the definition and opens the table in one call to a pool worker, which then
 *    serves the first screen (a definition from "Guess the columns" is opened as it is); the other
 *    workers open it before their first task. The first page is decoded first: it shows at once, and
 *    a definition that does not fit is caught there.
 *  - then its rows are counted leaf by leaf (grid/table-view.ts), the count stepping aside while an
 *    export runs (export/export-hold.ts); a table counted before takes its counts as they were.
 *  - `fullReport`: the recovery report's pass over every leaf of the table open.
 *
 * Each opening is a numbered run: the callbacks of a table closed or opened again since are ignored.
 */
import type { FirstLeaf, OpenedView, ResolvedSchemaResult, TableDef, ViewSpec } from '../../../workers/decoder-api.ts';
import { DEFINITION_MISMATCH } from '../../../workers/viewer-api.ts';
import type { ExportHold } from '../export/export-hold.ts';
import { partitionFiles, type FileSet } from '../files/file-set.svelte.ts';
import { describeError } from '../format.ts';
import { TableView } from '../grid/table-view.ts';
import { countedMapFeed } from '../pages/counted-map.ts';
import { PoolStopped, type Api, type WorkerPool } from '../pool.ts';
import type { TableEntry, TableState } from './table-entry.svelte.ts';

/** A table a pool worker opened while resolving its definition (resolveAndOpen), adopted by the pool as generation `gen`. */
interface Opened {
  gen: number;
  spec: ViewSpec;
  view: OpenedView;
  leaves: Int32Array;
  first: FirstLeaf | null;
}

/** A count over this many leaf pages (16 MB of 16K pages) leaves read buffers worth dropping with the workers. */
const RECYCLE_AFTER_LEAVES = 1024;
/**
 * The running count is shown at most this often: each showing lays out the grid anew (its height
 * follows the rows), which on a large table cost the main thread more than a second per count and
 * took that time from the workers' cores.
 */
const COUNT_SHOWN_MS = 250;

/** The secondary index the grid shows (ViewSpec.indexName), where one can be. */
function shownIndex(entry: TableEntry): Pick<ViewSpec, 'indexName'> {
  return entry.indexName !== null && entry.indexable ? { indexName: entry.indexName } : {};
}

/** The system columns, where the user asked for them (the Columns menu). */
function shownSystem(entry: TableEntry): Pick<ViewSpec, 'systemColumns'> {
  return entry.systemColumns ? { systemColumns: true } : {};
}

/** The partial rows among the rows, in live mode only (partial-view.ts). */
function shownPartial(entry: TableEntry): Pick<ViewSpec, 'partial'> {
  return entry.partial !== null && entry.mode === 'live' && entry.indexName === null ? { partial: entry.partial } : {};
}

function sameLeaves(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * `resolved` with the table chosen by its name (a system tablespace's `db/table`) as the one picked,
 * from the file that defines it: resolveSchema picks by the definition's own name (`table`).
 */
function asChosen(resolved: ResolvedSchemaResult, chosen: string | null): ResolvedSchemaResult {
  const choice = resolved.tables.find((t) => t.name === chosen);
  return choice?.source ? { ...resolved, picked: choice.name, source: choice.source, file: choice.file ?? null } : resolved;
}

export class OnScreen {
  readonly #pool: WorkerPool;
  readonly #files: FileSet;
  readonly #hold: ExportHold;
  /** Bumped for every table opened; callbacks of older runs are ignored. */
  #run = 0;
  #entry: TableEntry | null = null;
  #counting: AbortController | null = null;
  #reporting: AbortController | null = null;

  /** The worker that keeps the files' page maps, fed by the count (pages/counted-map.ts). */
  readonly #maps: () => Api;

  constructor(pool: WorkerPool, files: FileSet, hold: ExportHold, maps: () => Api) {
    this.#pool = pool;
    this.#files = files;
    this.#hold = hold;
    this.#maps = maps;
  }

  /** `entry` is the table open. */
  shows(entry: TableEntry): boolean {
    return this.#entry === entry;
  }

  /** Closes the table open: its count and report stop (a count stopped leaves it cancelled). */
  stop(): void {
    this.#run++;
    this.#reporting?.abort();
    this.#reporting = null;
    this.#counting?.abort();
    this.#counting = null;
    const was = this.#entry;
    if (was?.busy) {
      was.state = 'cancelled';
      was.countEnded();
    }
    if (was) was.view = null;
    this.#entry = null;
  }

  /** Stops counting the table on screen; the rows counted so far stay readable. */
  cancelCount(): void {
    const entry = this.#entry;
    if (!entry || !entry.busy) return;
    this.#counting?.abort();
  }

  /** Opens `entry` in the pool (closing the table open before), counts its rows. */
  async open(entry: TableEntry): Promise<void> {
    this.stop();
    this.#pool.close();
    const run = this.#run;
    this.#entry = entry;
    entry.error = null;
    entry.mismatch = false;
    entry.opened = null;
    entry.stats = null;
    entry.damage = null;
    entry.view = null;
    entry.rowCount = 0;
    entry.counted = null;
    entry.elapsedMs = null;
    entry.report = null;
    entry.state = 'reading-schema';
    const started = performance.now();
    try {
      // A definition built from "Guess the columns" wins over whatever the files give; a dropped
      // table's recovered from the freed dictionary pages is the only one there is.
      const own = entry.custom ?? entry.paired.system?.definition ?? null;
      const found = own ? { table: own, opened: null } : await this.#resolve(entry, run);
      if (!found || run !== this.#run) return;
      entry.state = 'decoding';
      const view = await this.#openView(entry, found.table, run, found.opened);
      if (!view) return;
      // The first page first: it shows at once, and a table definition that does not fit is caught there.
      await view.store.load([0]);
      if (view.store.error) throw new Error(view.store.error);
      await this.#count(entry, view, run);
      if (run !== this.#run) return;
      entry.elapsedMs = performance.now() - started;
      // Recovering from a raw image: the report is what the user came for; read every page for it.
      if (entry.target && (entry.state as TableState) === 'done') void this.fullReport(entry);
    } catch (err) {
      if (run !== this.#run || err instanceof PoolStopped) return;
      entry.error = describeError(err);
      entry.mismatch = err instanceof Error && err.name === DEFINITION_MISMATCH;
      entry.state = 'error';
    } finally {
      entry.countEnded();
    }
  }

  /**
   * Resolves the definition and opens the table in one call to a pool worker, which the pool adopts
   * (`opened`). Null when no definition is picked: the entry then waits for a choice or a schema.
   */
  async #resolve(entry: TableEntry, run: number): Promise<{ table: TableDef; opened: Opened | null } | null> {
    const files = this.#files.schemaFiles(entry.paired);
    const want = { mode: entry.mode, keys: this.#files.keyRing.keys, chosen: entry.chosen, index: entry.index, raw: entry.raw, timeZone: this.#files.timeZone.zone, ...partitionFiles(entry.paired), ...shownIndex(entry), ...shownPartial(entry), ...shownSystem(entry), ...this.#before(entry) };
    let opened: Opened | null = null;
    const found = await this.#pool.run(async (api, member) => {
      const r = await api.resolveAndOpen(entry.file, entry.file.name, files, want);
      if (r.opened && r.table && run === this.#run) {
        const spec = this.#viewSpec(entry, r.table, r.resolved);
        const gen = this.#pool.adopt(member, spec, r.opened.view, r.opened.plan.stats);
        if (r.opened.plan.leaves.length > 1) this.#pool.openEverywhere();
        opened = { gen, spec, view: r.opened.view, leaves: r.opened.plan.leaves, first: r.opened.first };
      }
      return r;
    }, 'high', null);
    if (run !== this.#run) return null;
    // A table of a system tablespace keeps what its dictionary listing said (its definition, what it
    // lacks), unless its .frm was left unread by it: what the .frm says is known now.
    const system = entry.paired.system;
    if (!system?.source) entry.setResolved(found.resolved);
    else if (system.frmUnread) entry.setResolved(asChosen(found.resolved, entry.chosen));
    if (!found.table) {
      entry.state = found.resolved.tables.length > 0 ? 'choose' : 'needs-schema';
      return null;
    }
    return { table: found.table, opened };
  }

  /** What the pool's workers open for `entry` with `table` (as resolveAndOpen does in its worker). */
  #viewSpec(entry: TableEntry, table: TableDef, resolved: ResolvedSchemaResult | null): ViewSpec {
    // A table of a general tablespace / mysql.ibd: its own B-tree (from the SDI); an index of a scan,
    // a table of a system tablespace: that one.
    const choice = entry.custom ? undefined : resolved?.tables.find((t) => t.name === table.name);
    const index = entry.index ?? choice?.clusteredIndex ?? undefined;
    return { ibd: entry.file, name: entry.file.name, table, mode: entry.mode, keys: this.#files.keyRing.keys, index, raw: entry.raw, timeZone: this.#files.timeZone.zone, ...partitionFiles(entry.paired), ...shownIndex(entry), ...shownPartial(entry), ...shownSystem(entry), ...this.#before(entry) };
  }

  /** "As before transaction N" (ViewSpec.undo), when the entry asks for it and the datadir's ibdata1 is given. */
  #before(entry: TableEntry): Pick<ViewSpec, 'undo'> {
    const files = entry.beforeTrx === null ? null : this.#files.undoBlobs();
    return files === null || entry.beforeTrx === null ? {} : { undo: { files, beforeTrx: entry.beforeTrx } };
  }

  /** Opens the table in the pool, or takes the view a worker already opened (`opened`). */
  async #openView(entry: TableEntry, table: TableDef, run: number, opened: Opened | null): Promise<TableView | null> {
    const spec = opened?.spec ?? this.#viewSpec(entry, table, entry.resolved);
    const changed = () => {
      if (run !== this.#run) return;
      entry.rowCount = view.map.rows;
      entry.stats = view.stats();
      // A search went over every page: that is a complete recovery report too.
      if (view.fullPass && entry.report?.state !== 'done' && entry.report?.state !== 'running') {
        const total = view.map.leaves.length;
        entry.report = { state: 'done', leaves: total, total, stats: view.fullPass, error: null };
      }
      entry.version++;
    };
    const view = opened ? TableView.opened(this.#pool, opened.gen, spec, opened, changed) : await TableView.open(this.#pool, spec, changed);
    if (run !== this.#run) return null;
    entry.view = view;
    entry.opened = view.view;
    // The first leaf may have come with the view: show its rows now, not after the first count.
    changed();
    return view;
  }

  /** The counts of the last full count, when they are of the same leaves in the same mode: no count needed. */
  #restore(entry: TableEntry, view: TableView): boolean {
    const known = entry.counts;
    if (!known || known.mode !== entry.mode || known.partial !== (view.spec.partial !== undefined) || known.beforeTrx !== entry.beforeTrx || !sameLeaves(known.leaves, view.map.leaves)) return false;
    view.restore(known.counts, known.damage);
    entry.damage = known.damage.figures;
    entry.rowCount = view.map.rows;
    entry.counted = view.map.rows;
    entry.version++;
    entry.state = 'done';
    return true;
  }

  async #count(entry: TableEntry, view: TableView, run: number): Promise<void> {
    if (this.#restore(entry, view)) return;
    const controller = new AbortController();
    this.#counting = controller;
    const large = view.map.leaves.length >= RECYCLE_AFTER_LEAVES;
    let recycled = false;
    const free = (): Promise<void> => {
      if (!this.#hold.held) return Promise.resolve();
      // Held for an export: once the count's running tasks are over, its read buffers go with the
      // workers rather than wait in them through the export.
      if (large && !recycled) setTimeout(() => (recycled ||= this.#pool.recycle()), 0);
      return this.#hold.released();
    };
    let shown = performance.now();
    const mapFeed = countedMapFeed(this.#maps(), view.spec, entry.pageMap !== null);
    try {
      await view.count(controller.signal, free, () => {
        if (run !== this.#run || performance.now() - shown < COUNT_SHOWN_MS) return;
        shown = performance.now();
        entry.rowCount = view.map.rows;
        entry.damage = view.damage.figures;
        entry.taken = view.taken && { ...view.taken };
        entry.version++;
      }, mapFeed ? (ranges) => mapFeed.pages(ranges) : undefined);
      mapFeed?.end(true);
      if (run !== this.#run) return;
      entry.rowCount = view.map.rows;
      entry.damage = view.damage.figures;
      entry.taken = view.taken && { ...view.taken };
      entry.version++;
      entry.counted = view.map.rows;
      entry.counts = { mode: entry.mode, partial: view.spec.partial !== undefined, beforeTrx: entry.beforeTrx, leaves: view.map.leaves, counts: view.map.counts.slice(), damage: view.damage };
      entry.state = 'done';
      // The count read the whole file: its buffers go with the workers (an export, say, starts its own).
      if (large) this.#pool.recycle();
    } catch (err) {
      mapFeed?.end(false);
      if (!controller.signal.aborted) throw err;
      if (run === this.#run) entry.state = 'cancelled';
    } finally {
      if (this.#counting === controller) this.#counting = null;
    }
  }

  /** Reads every leaf of the table on screen once, for a complete recovery report. */
  async fullReport(entry: TableEntry): Promise<void> {
    const view = entry.view;
    if (!view || this.#entry !== entry || entry.report?.state === 'running') return;
    const controller = new AbortController();
    this.#reporting?.abort();
    this.#reporting = controller;
    const total = view.map.leaves.length;
    entry.report = { state: 'running', leaves: 0, total, stats: null, error: null };
    try {
      const stats = await view.reportAll(controller.signal, (leaves, s) => {
        if (!controller.signal.aborted) entry.report = { state: 'running', leaves, total, stats: s, error: null };
      });
      if (entry.view === view) entry.report = { state: 'done', leaves: total, total, stats, error: null };
    } catch (err) {
      // The table was closed or opened again meanwhile: its new view has a report of its own.
      if (entry.view !== view) return;
      const stopped = controller.signal.aborted || err instanceof PoolStopped;
      entry.report = { ...(entry.report ?? { leaves: 0, total, stats: null }), state: stopped ? 'cancelled' : 'error', error: stopped ? null : describeError(err) };
    } finally {
      if (this.#reporting === controller) this.#reporting = null;
    }
  }

  /** Stops the recovery report's pass. */
  cancelReport(): void {
    this.#reporting?.abort();
  }
}
