/**
 * The page's state: the files the user gave, the tables found in them, and for each table its summary
 * (read without a schema), its decoded rows and its state. Components read it; the work runs in
 * workers (workers/decoder.worker.ts):
 *
 *  - a *summary* worker reads every table file's summary in turn (page size, server hints, checksums,
 *    exact row count) and lists the CREATE TABLEs of each .sql file;
 *  - a *view* worker decodes the rows of the table on screen into compact batches (RowStore);
 *  - each export gets a worker of its own (see export-run.svelte.ts), killed on Cancel.
 *
 * Which table definition decodes a file is the worker's `resolveSchema`: the file's own data
 * dictionary (MySQL 8 SDI), else the .frm beside it, else a CREATE TABLE of the .sql files.
 *
 * Per table:   resolving ──▶ pending ──select──▶ reading-schema ──▶ decoding ──▶ done | cancelled | error
 *                       └──▶ needs-schema (nothing describes it) · choose (no definition named like it)
 */
import * as Comlink from 'comlink';
import { connectDecoder } from '../../workers/decoder-api.ts';
import type {
  BatchSink, DecodeStats, DecoderConnection, NamedBlob, OpenedView, ResolvedSchemaResult, RowBatch, TablespaceSummary,
} from '../../workers/decoder-api.ts';
import { pairFiles, type InputFile, type PairedTable } from './pairing.ts';
import { RowStore } from './row-store.ts';
import { fetchSample } from './sample.ts';

export type TableState = 'resolving' | 'pending' | 'needs-schema' | 'choose' | 'reading-schema' | 'decoding' | 'done' | 'cancelled' | 'error';
export type SummaryState = 'waiting' | 'scanning' | 'done' | 'error';

/** How long a cancel may take before the worker is killed outright. */
const CANCEL_GRACE_MS = 1500;
/**
 * The rows of a table wait this long at most for its summary's row count: on two cores, the count
 * (one quick pass over the file) comes first, and decoding starts right after it.
 */
const COUNT_FIRST_MS = 1500;
/** Rows of tables not on screen are dropped (least recently viewed first) past this many bytes. */
const STORE_BUDGET_BYTES = 384 << 20;

/** Plain-language text for anything thrown (IbdError messages already name file and page). */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === 'string') return err;
  return 'Something went wrong while reading the file.';
}

export class TableEntry {
  readonly key: string;
  paired = $state.raw(null as unknown as PairedTable);
  /** Where the table definition comes from (the worker's resolveSchema), once known. */
  resolved = $state.raw<ResolvedSchemaResult | null>(null);
  /** The table the user picked when no definition is named like the file. */
  chosen = $state<string | null>(null);

  summaryState = $state<SummaryState>('waiting');
  summary = $state.raw<TablespaceSummary | null>(null);
  summaryError = $state<string | null>(null);

  state = $state<TableState>('resolving');
  error = $state<string | null>(null);
  opened = $state.raw<OpenedView | null>(null);
  stats = $state.raw<DecodeStats | null>(null);
  /** Rows held in `store`; bumps on every batch (the store itself is not reactive). */
  rowCount = $state(0);
  elapsedMs = $state<number | null>(null);
  store: RowStore | null = null;
  lastViewed = 0;
  #countWaiters: (() => void)[] = [];

  constructor(paired: PairedTable) {
    this.key = paired.key;
    this.paired = paired;
  }

  get file(): File {
    return this.paired.ibd.file;
  }

  /** Table name for display (with the partition). */
  get label(): string {
    const n = this.paired.name;
    return n.partition ? `${n.table} (partition ${n.partition})` : n.table;
  }

  /** The table definition to decode with, by name (null: none yet). */
  get tableName(): string | null {
    return this.chosen ?? this.resolved?.picked ?? null;
  }

  get busy(): boolean {
    return this.state === 'reading-schema' || this.state === 'decoding';
  }

  /** Resolves once the summary knows the row count (or has failed), or after `ms`. */
  whenCounted(ms: number): Promise<void> {
    if (this.summaryState !== 'scanning' || this.summary?.rows != null) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#countWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** The summary's count is in (or will not come). */
  counted(): void {
    const waiters = this.#countWaiters;
    this.#countWaiters = [];
    for (const w of waiters) w();
  }
}

function sameFile(a: InputFile, b: InputFile): boolean {
  return a.path === b.path && a.file.size === b.file.size && a.file.lastModified === b.file.lastModified;
}

export class Workspace {
  tables = $state.raw<TableEntry[]>([]);
  selectedKey = $state<string | null>(null);
  sqlFiles = $state.raw<InputFile[]>([]);
  /** Files that are not table files, schemas or .cfg/.frm; and .frm/.cfg without an .ibd. */
  ignored = $state.raw<InputFile[]>([]);
  orphans = $state.raw<InputFile[]>([]);
  /** Problems with the files as a whole (an unreadable .sql), in plain language. */
  fileErrors = $state.raw<string[]>([]);
  notice = $state<string | null>(null);

  #files: InputFile[] = [];
  #summaryConn: DecoderConnection | null = null;
  #viewConn: DecoderConnection | null = null;
  /** Entries whose summary (`summary: true`) and/or table definition are to be read, in order. */
  #summaryQueue: { entry: TableEntry; summary: boolean }[] = [];
  #summaryRunning = false;
  /** Bumped for every decode run; callbacks of older runs are ignored. */
  #viewRun = 0;
  #viewing: TableEntry | null = null;
  #cancelTimer: ReturnType<typeof setTimeout> | null = null;

  get selected(): TableEntry | null {
    return this.tables.find((t) => t.key === this.selectedKey) ?? null;
  }

  get hasFiles(): boolean {
    return this.#files.length > 0;
  }

  #summaryWorker(): DecoderConnection {
    this.#summaryConn ??= connectDecoder();
    return this.#summaryConn;
  }

  #viewWorker(): DecoderConnection {
    this.#viewConn ??= connectDecoder();
    return this.#viewConn;
  }

  /** Adds dropped or picked files (a file with the same path replaces the earlier one). */
  async addFiles(inputs: InputFile[]): Promise<void> {
    if (inputs.length === 0) return;
    const fresh = inputs.filter((f) => !this.#files.some((g) => sameFile(f, g)));
    if (fresh.length === 0) {
      this.notice = 'These files are already open.';
      return;
    }
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local
    const paths = new Set(fresh.map((f) => f.path));
    this.#files = [...this.#files.filter((f) => !paths.has(f.path)), ...fresh];
    this.notice = null;
    this.fileErrors = [];
    const schemaFilesChanged = fresh.some((f) => /\.(sql|frm)$/i.test(f.file.name));
    const firstNew = this.#repair(fresh, schemaFilesChanged);
    const selected = this.selected;
    // Show the first table just added; else the table on screen may have just got its definition.
    if (firstNew) this.select(firstNew.key);
    else if (selected && schemaFilesChanged && !selected.busy && selected.state !== 'done') this.select(selected.key);
    this.#describeLeftovers();
  }

  /** The files that may define `entry`'s table: its .frm (same folder) and every .sql. */
  schemaFiles(entry: TableEntry): NamedBlob[] {
    const out: NamedBlob[] = [];
    if (entry.paired.frm) out.push({ name: entry.paired.frm.file.name, blob: entry.paired.frm.file });
    for (const sql of this.sqlFiles) out.push({ name: sql.path, blob: sql.file });
    return out;
  }

  /**
   * Pairs all files again; keeps entries (and their rows) whose .ibd did not change. New entries get
   * a summary and a definition; with new schema files, the others without rows get a definition again.
   * Returns the first new entry.
   */
  #repair(fresh: InputFile[], schemaFilesChanged: boolean): TableEntry | null {
    const pairing = pairFiles(this.#files);
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local
    const old = new Map(this.tables.map((t) => [t.key, t]));
    let firstNew: TableEntry | null = null;
    const next = pairing.tables.map((p) => {
      const prev = old.get(p.key);
      if (prev && prev.file === p.ibd.file) {
        prev.paired = p;
        if (schemaFilesChanged && !prev.busy && prev.state !== 'done' && prev.state !== 'cancelled') {
          prev.state = 'resolving';
          prev.error = null;
          this.#summaryQueue.push({ entry: prev, summary: false });
        }
        return prev;
      }
      if (prev) this.#drop(prev);
      const entry = new TableEntry(p);
      this.#summaryQueue.push({ entry, summary: true });
      if (!firstNew && fresh.some((f) => f.path === p.key)) firstNew = entry;
      return entry;
    });
    for (const t of old.values()) if (!next.includes(t)) this.#drop(t);
    this.tables = next;
    this.sqlFiles = pairing.sqls;
    this.ignored = pairing.ignored;
    this.orphans = pairing.orphans;
    void this.#runSummaries();
    return firstNew;
  }

  /** Sets a table's state from what resolveSchema found (unless it is being or has been decoded). */
  #applyResolved(entry: TableEntry, resolved: ResolvedSchemaResult): void {
    entry.resolved = resolved;
    if (entry.chosen && !resolved.tables.some((t) => t.name === entry.chosen)) entry.chosen = null;
    this.#settleState(entry);
  }

  #settleState(entry: TableEntry): void {
    if (entry.busy || entry.state === 'done' || entry.state === 'cancelled' || entry.state === 'error') return;
    const r = entry.resolved;
    if (!r) entry.state = 'resolving';
    else if (entry.tableName) entry.state = 'pending';
    else if (r.tables.length > 0) entry.state = 'choose';
    else entry.state = 'needs-schema';
  }

  #describeLeftovers(): void {
    const parts: string[] = [];
    if (this.ignored.length > 0) {
      const names = this.ignored.slice(0, 3).map((f) => f.path).join(', ');
      parts.push(`Ignored ${this.ignored.length} file${this.ignored.length === 1 ? '' : 's'} that ${this.ignored.length === 1 ? 'is' : 'are'} not .ibd, .frm, .sql or .cfg (${names}${this.ignored.length > 3 ? ', …' : ''}).`);
    }
    if (this.orphans.length > 0) {
      parts.push(`No .ibd for ${this.orphans.map((f) => f.path).slice(0, 3).join(', ')}${this.orphans.length > 3 ? ', …' : ''}.`);
    }
    if (this.tables.length === 0 && this.sqlFiles.length > 0) parts.push('Now add the .ibd table file(s).');
    this.notice = parts.length > 0 ? parts.join(' ') : null;
  }

  #drop(entry: TableEntry): void {
    if (this.#viewing === entry) this.#stopView();
    entry.store = null;
    this.#summaryQueue = this.#summaryQueue.filter((job) => job.entry !== entry);
  }

  /** Works through the queue in the summary worker: each file's summary, then its table definition. */
  async #runSummaries(): Promise<void> {
    if (this.#summaryRunning) return;
    this.#summaryRunning = true;
    const conn = this.#summaryWorker();
    try {
      for (let job = this.#summaryQueue.shift(); job; job = this.#summaryQueue.shift()) {
        const target = job.entry;
        if (!this.tables.includes(target)) continue;
        if (job.summary) {
          target.summaryState = 'scanning';
          try {
            const progress = Comlink.proxy((s: TablespaceSummary) => {
              if (target.summaryState !== 'scanning') return;
              target.summary = s;
              if (s.rows !== null) target.counted();
            });
            target.summary = await conn.api.summarize(target.file, target.file.name, progress);
            target.summaryState = 'done';
          } catch (err) {
            target.summaryState = 'error';
            target.summaryError = describeError(err);
          }
          target.counted();
        }
        if (target.busy || target.state === 'done' || target.state === 'cancelled') continue;
        try {
          const resolved = await conn.api.resolveSchema(target.file, target.file.name, this.schemaFiles(target));
          this.#applyResolved(target, resolved);
        } catch (err) {
          if (!target.busy) {
            target.error = describeError(err);
            target.state = 'error';
          }
        }
      }
    } catch (err) {
      // The worker was terminated (reset): a new queue runner starts with the next files.
      if (conn === this.#summaryConn) throw err;
    } finally {
      if (conn === this.#summaryConn) this.#summaryRunning = false;
    }
  }

  /** Shows a table; decodes its rows unless they are held already. */
  select(key: string): void {
    const entry = this.tables.find((t) => t.key === key);
    if (!entry) return;
    this.selectedKey = key;
    entry.lastViewed = performance.now();
    const decodable = entry.state === 'resolving' || entry.state === 'pending' || (entry.state === 'done' && entry.store === null);
    if (decodable) void this.#decode(entry);
  }

  /** The user picked the table definition (none is named like the file). */
  chooseTable(key: string, tableName: string): void {
    const entry = this.tables.find((t) => t.key === key);
    if (!entry || entry.busy) return;
    entry.chosen = tableName;
    entry.state = 'pending';
    this.select(key);
  }

  /** Decodes again (after a cancel or an error). */
  retry(key: string): void {
    const entry = this.tables.find((t) => t.key === key);
    if (!entry || entry.busy) return;
    entry.state = 'resolving';
    entry.error = null;
    this.select(key);
  }

  /** Stops the decode on screen; the rows read so far stay. */
  cancel(): void {
    const entry = this.#viewing;
    if (!entry || !entry.busy) return;
    const run = this.#viewRun;
    void this.#viewConn?.api.stopView();
    void this.#viewConn?.api.cancel();
    if (this.#cancelTimer) clearTimeout(this.#cancelTimer);
    this.#cancelTimer = setTimeout(() => {
      // The worker did not stop in time: kill it.
      if (run !== this.#viewRun || !entry.busy) return;
      this.#killView();
      this.#finishCancelled(entry);
    }, CANCEL_GRACE_MS);
  }

  /** Forgets every file. */
  reset(): void {
    this.#stopView();
    this.#summaryQueue = [];
    this.#summaryConn?.terminate();
    this.#summaryConn = null;
    this.#summaryRunning = false;
    this.#files = [];
    this.tables = [];
    this.selectedKey = null;
    this.sqlFiles = [];
    this.ignored = [];
    this.orphans = [];
    this.fileErrors = [];
    this.notice = null;
  }

  /** Fetches the bundled sample and opens it. */
  async openSample(baseUrl = './sample/'): Promise<void> {
    this.notice = 'Fetching the sample…';
    try {
      const files = await fetchSample(baseUrl);
      this.notice = null;
      await this.addFiles(files.map((file) => ({ file, path: `sample/${file.name}` })));
    } catch (err) {
      this.notice = null;
      this.fileErrors = [...this.fileErrors, describeError(err)];
    }
  }

  #killView(): void {
    this.#viewConn?.terminate();
    this.#viewConn = null;
  }

  #stopView(): void {
    this.#viewRun++;
    if (this.#cancelTimer) clearTimeout(this.#cancelTimer);
    this.#cancelTimer = null;
    const was = this.#viewing;
    if (was?.busy) {
      void this.#viewConn?.api.stopView();
      void this.#viewConn?.api.cancel();
      this.#finishCancelled(was);
    }
    this.#viewing = null;
  }

  #finishCancelled(entry: TableEntry): void {
    if (this.#cancelTimer) clearTimeout(this.#cancelTimer);
    this.#cancelTimer = null;
    entry.state = 'cancelled';
    if (this.#viewing === entry) this.#viewing = null;
  }

  /** Drops the rows of tables not on screen, least recently viewed first, past the budget. */
  #trimStores(keep: TableEntry): void {
    let total = this.tables.reduce((sum, t) => sum + (t.store?.bytes ?? 0), 0);
    const others = this.tables.filter((t) => t !== keep && t.store && !t.busy).sort((a, b) => a.lastViewed - b.lastViewed);
    for (const t of others) {
      if (total <= STORE_BUDGET_BYTES) break;
      total -= t.store?.bytes ?? 0;
      t.store = null;
      t.rowCount = 0;
      if (t.state === 'done' || t.state === 'cancelled') t.state = 'pending';
    }
  }

  async #decode(entry: TableEntry): Promise<void> {
    this.#stopView();
    const run = this.#viewRun;
    this.#viewing = entry;
    entry.error = null;
    entry.opened = null;
    entry.stats = null;
    entry.store = null;
    entry.rowCount = 0;
    entry.elapsedMs = null;
    entry.state = 'reading-schema';
    const started = performance.now();
    const api = this.#viewWorker().api;
    try {
      const resolved = await api.resolveSchema(entry.file, entry.file.name, this.schemaFiles(entry));
      if (run !== this.#viewRun) return;
      entry.resolved = resolved;
      if (entry.chosen && !resolved.tables.some((t) => t.name === entry.chosen)) entry.chosen = null;
      const tableName = entry.tableName;
      if (!tableName) {
        entry.state = resolved.tables.length > 0 ? 'choose' : 'needs-schema';
        return;
      }
      entry.state = 'decoding';
      await entry.whenCounted(COUNT_FIRST_MS);
      if (run !== this.#viewRun) return;
      let store: RowStore | null = null;
      const sink: BatchSink = {
        opened: (view) => {
          if (run !== this.#viewRun) return;
          store = new RowStore(view.columns.length);
          entry.store = store;
          entry.opened = view;
        },
        batch: (batch: RowBatch, stats) => {
          if (run !== this.#viewRun || !store) return;
          store.append(batch);
          entry.stats = stats;
          entry.rowCount = store.count;
        },
      };
      const result = await api.decodeBatches(entry.file, entry.file.name, tableName, Comlink.proxy(sink));
      if (run !== this.#viewRun) return;
      entry.stats = result.stats;
      entry.elapsedMs = performance.now() - started;
      if (result.status === 'cancelled' || this.#cancelTimer) this.#finishCancelled(entry);
      else entry.state = 'done';
      this.#trimStores(entry);
    } catch (err) {
      if (run !== this.#viewRun) return;
      if (this.#cancelTimer) this.#finishCancelled(entry);
      else {
        entry.error = describeError(err);
        entry.state = 'error';
      }
    } finally {
      if (run === this.#viewRun && this.#viewing === entry) this.#viewing = null;
    }
  }
}
