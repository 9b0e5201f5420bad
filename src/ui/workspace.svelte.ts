/**
 * The page's state: the files the user gave, the tables found in them, and for each table its summary
 * (read without a schema), its rows and its state. Components read it; the work runs in workers
 * (workers/decoder.worker.ts):
 *
 *  - a *summary* worker reads every table file's summary in turn (page size, server hints, checksums)
 *    and finds each table's definition; the full checksum scan of the table on screen waits until its
 *    rows are counted, so the two do not fight for the cores;
 *  - a *pool* of workers (pool.ts) serves the table on screen (table-view.ts): counts its rows per
 *    leaf page, decodes the pages the grid shows, searches; only that table is open;
 *  - each export gets a pool of its own (see export-run.svelte.ts), killed on Cancel.
 *
 * Which table definition decodes a file is the worker's `resolveSchema`: the file's own data
 * dictionary (MySQL 8 SDI), else the .frm beside it, else a CREATE TABLE of the .sql files.
 * Encrypted tables take the key files dropped with them (MariaDB file_key_management, MySQL keyring).
 *
 * Per table:   resolving ──▶ pending ──select──▶ reading-schema ──▶ decoding (counting) ──▶ done | cancelled | error
 *                       └──▶ needs-schema (nothing describes it) · choose (no definition named like it)
 */
import * as Comlink from 'comlink';
import { connectDecoder } from '../../workers/decoder-api.ts';
import type {
  DecodeStats, DecoderConnection, EncryptionKeys, NamedBlob, OpenedView, ResolvedSchemaResult, RowMode, TableDef, TablespaceSummary,
} from '../../workers/decoder-api.ts';
import { loadKeyFile, parseMysqlKeyring } from '../core/encryption.ts';
import { detectKeyFiles, pairFiles, type InputFile, type PairedTable } from './pairing.ts';
import { PoolStopped, WorkerPool } from './pool.ts';
import { fetchSample } from './sample.ts';
import { TableView } from './table-view.ts';

export type TableState = 'resolving' | 'pending' | 'needs-schema' | 'choose' | 'reading-schema' | 'decoding' | 'done' | 'cancelled' | 'error';
export type SummaryState = 'waiting' | 'scanning' | 'done' | 'error';

/** The full summary scan of the table on screen waits at most this long for its row count. */
const COUNT_FIRST_MS = 10_000;

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
  /** Which rows to show: the live ones, the deleted ones still in the file, or both. */
  mode = $state<RowMode>('live');

  summaryState = $state<SummaryState>('waiting');
  summary = $state.raw<TablespaceSummary | null>(null);
  summaryError = $state<string | null>(null);

  state = $state<TableState>('resolving');
  error = $state<string | null>(null);
  opened = $state.raw<OpenedView | null>(null);
  stats = $state.raw<DecodeStats | null>(null);
  /** Rows counted so far (all of them once `state` is done). */
  rowCount = $state(0);
  /** The exact row count, once every leaf page is counted (in `mode`). */
  counted = $state<number | null>(null);
  /** Bumps whenever rows arrive or are renumbered (the view itself is not reactive). */
  version = $state(0);
  elapsedMs = $state<number | null>(null);
  /** The rows, read on demand; only the table on screen has one. */
  view: TableView | null = null;
  /** Rows per leaf page from the last full count (4 bytes a page): coming back to the table skips counting. */
  counts: { mode: RowMode; leaves: Int32Array; counts: Int32Array } | null = null;
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

  /** The summary, with the live row count from counting the leaves when that came first. */
  get shownSummary(): TablespaceSummary | null {
    const s = this.summary;
    if (!s || this.mode !== 'live' || this.counted === null || s.rows !== null) return s;
    return { ...s, rows: this.counted };
  }

  /** Resolves once the rows are counted (or will not be), or after `ms`. */
  whenCounted(ms: number): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#countWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Counting ended (or stopped). */
  countEnded(): void {
    const waiters = this.#countWaiters;
    this.#countWaiters = [];
    for (const w of waiters) w();
  }
}

function sameLeaves(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameFile(a: InputFile, b: InputFile): boolean {
  return a.path === b.path && a.file.size === b.file.size && a.file.lastModified === b.file.lastModified;
}

/** A key file that needs its password before its keys can be used. */
export interface LockedKeyFile {
  path: string;
  file: File;
  /** Why the last password did not work, if one was tried. */
  error: string | null;
}

export class Workspace {
  tables = $state.raw<TableEntry[]>([]);
  selectedKey = $state<string | null>(null);
  sqlFiles = $state.raw<InputFile[]>([]);
  /** Files that are not table files, schemas, key files or .cfg/.frm; and .frm/.cfg without an .ibd. */
  ignored = $state.raw<InputFile[]>([]);
  orphans = $state.raw<InputFile[]>([]);
  /** Key files read so far (paths), for display. */
  keyFiles = $state.raw<string[]>([]);
  /** Key files waiting for their password. */
  locked = $state.raw<LockedKeyFile[]>([]);
  /** Problems with the files as a whole (an unreadable .sql or key file), in plain language. */
  fileErrors = $state.raw<string[]>([]);
  notice = $state<string | null>(null);

  #files: InputFile[] = [];
  #keys: EncryptionKeys = {};
  #summaryConn: DecoderConnection | null = null;
  readonly #pool = new WorkerPool();
  /** Entries whose summary (`summary: true`) and/or table definition are to be read, in order. */
  #summaryQueue: { entry: TableEntry; summary: boolean }[] = [];
  #summaryRunning = false;
  /** Bumped for every table opened; callbacks of older runs are ignored. */
  #viewRun = 0;
  #viewing: TableEntry | null = null;
  #counting: AbortController | null = null;

  constructor() {
    // Start the pool now: loading the workers' code is a good part of the time to the first rows.
    this.#pool.warm();
  }

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

  /** Adds dropped or picked files (a file with the same path replaces the earlier one). */
  async addFiles(inputs: InputFile[]): Promise<void> {
    if (inputs.length === 0) return;
    const fresh = (await detectKeyFiles(inputs.filter((f) => !this.#files.some((g) => sameFile(f, g)))));
    if (fresh.length === 0) {
      this.notice = 'These files are already open.';
      return;
    }
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local
    const paths = new Set(fresh.map((f) => f.path));
    this.#files = [...this.#files.filter((f) => !paths.has(f.path)), ...fresh];
    this.notice = null;
    this.fileErrors = [];
    const keysChanged = await this.#readKeys(fresh.filter((f) => f.key));
    const schemaFilesChanged = fresh.some((f) => /\.(sql|frm)$/i.test(f.file.name));
    const firstNew = this.#repair(fresh, schemaFilesChanged);
    const selected = this.selected;
    // Show the first table just added; else the table on screen may have just got its definition or key.
    if (firstNew) this.select(firstNew.key);
    else if (selected && keysChanged && selected.state === 'error') this.retry(selected.key);
    else if (selected && schemaFilesChanged && !selected.busy && selected.state !== 'done') this.select(selected.key);
    this.#describeLeftovers();
  }

  /** Reads key files (those with a password wait in `locked`); true when keys were added. */
  async #readKeys(files: InputFile[]): Promise<boolean> {
    let added = false;
    for (const f of files) {
      if (f.key === 'mariadb-encrypted') {
        this.locked = [...this.locked.filter((l) => l.path !== f.path), { path: f.path, file: f.file, error: null }];
        continue;
      }
      try {
        await this.#addKeys(f.file, f.key === 'mysql' ? 'mysql' : 'mariadb');
        this.keyFiles = [...this.keyFiles, f.path];
        added = true;
      } catch (err) {
        this.fileErrors = [...this.fileErrors, `${f.path}: ${describeError(err)}`];
      }
    }
    return added;
  }

  async #addKeys(file: Blob, kind: 'mariadb' | 'mysql', password?: string): Promise<void> {
    const bytes = new Uint8Array(await file.arrayBuffer());
    // Plain Maps: the keys go to the workers, nothing on the page renders them.
    /* eslint-disable svelte/prefer-svelte-reactivity */
    if (kind === 'mysql') this.#keys = { ...this.#keys, mysql: new Map([...(this.#keys.mysql ?? []), ...parseMysqlKeyring(bytes)]) };
    else this.#keys = { ...this.#keys, mariadb: new Map([...(this.#keys.mariadb ?? []), ...(await loadKeyFile(bytes, password))]) };
    /* eslint-enable svelte/prefer-svelte-reactivity */
  }

  /** The password of a locked key file: its keys are read, and the table on screen is opened again. */
  async unlock(path: string, password: string): Promise<void> {
    const locked = this.locked.find((l) => l.path === path);
    if (!locked) return;
    try {
      await this.#addKeys(locked.file, 'mariadb', password);
    } catch (err) {
      this.locked = this.locked.map((l) => (l === locked ? { ...l, error: describeError(err) } : l));
      return;
    }
    this.locked = this.locked.filter((l) => l !== locked);
    this.keyFiles = [...this.keyFiles, path];
    const selected = this.selected;
    if (selected && !selected.busy && selected.state !== 'done') this.retry(selected.key);
  }

  /** The files that may define `entry`'s table: its .frm (same folder) and every .sql. */
  schemaFiles(entry: TableEntry): NamedBlob[] {
    const out: NamedBlob[] = [];
    if (entry.paired.frm) out.push({ name: entry.paired.frm.file.name, blob: entry.paired.frm.file });
    for (const sql of this.sqlFiles) out.push({ name: sql.path, blob: sql.file });
    return out;
  }

  /**
   * Pairs all files again; keeps entries whose .ibd did not change. New entries get a summary and a
   * definition; with new schema files, the others not read yet get a definition again.
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
      parts.push(`Ignored ${this.ignored.length} file${this.ignored.length === 1 ? '' : 's'} that ${this.ignored.length === 1 ? 'is' : 'are'} not .ibd, .frm, .sql, .cfg or key files (${names}${this.ignored.length > 3 ? ', …' : ''}).`);
    }
    if (this.orphans.length > 0) {
      parts.push(`No .ibd for ${this.orphans.map((f) => f.path).slice(0, 3).join(', ')}${this.orphans.length > 3 ? ', …' : ''}.`);
    }
    if (this.tables.length === 0 && this.sqlFiles.length > 0) parts.push('Now add the .ibd table file(s).');
    this.notice = parts.length > 0 ? parts.join(' ') : null;
  }

  #drop(entry: TableEntry): void {
    if (this.#viewing === entry) this.#stopView();
    entry.view = null;
    this.#summaryQueue = this.#summaryQueue.filter((job) => job.entry !== entry);
  }

  /**
   * Works through the queue in the summary worker: each file's quick summary and table definition,
   * then its full scan (checksums of every page) once the table on screen has counted its rows.
   */
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
            target.summary = await conn.api.quickSummary(target.file, target.file.name);
          } catch (err) {
            target.summaryState = 'error';
            target.summaryError = describeError(err);
          }
        }
        if (!target.busy && target.state !== 'done' && target.state !== 'cancelled') {
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
        if (job.summary && target.summaryState === 'scanning') await this.#fullSummary(conn, target);
      }
    } catch (err) {
      // The worker was terminated (reset): a new queue runner starts with the next files.
      if (conn === this.#summaryConn) throw err;
    } finally {
      if (conn === this.#summaryConn) this.#summaryRunning = false;
    }
  }

  async #fullSummary(conn: DecoderConnection, target: TableEntry): Promise<void> {
    // Let the selected table get its rows counted and on screen first, and exports run alone: the
    // full scan reads and checksums every page, and the cores are few.
    await new Promise((r) => setTimeout(r, 0));
    await target.whenCounted(COUNT_FIRST_MS);
    for (;;) {
      await this.#exportsDone();
      try {
        const progress = Comlink.proxy((s: TablespaceSummary) => {
          if (target.summaryState === 'scanning') target.summary = s;
        });
        target.summary = await conn.api.summarize(target.file, target.file.name, progress);
        target.summaryState = 'done';
        return;
      } catch (err) {
        // Stopped for an export: scanned again from the start once it is over.
        if (this.#exports > 0 && conn === this.#summaryConn) continue;
        target.summaryState = 'error';
        target.summaryError = describeError(err);
        return;
      }
    }
  }

  #exports = 0;
  #exportWaiters: (() => void)[] = [];

  #exportsDone(): Promise<void> {
    return this.#exports === 0 ? Promise.resolve() : new Promise((resolve) => this.#exportWaiters.push(resolve));
  }

  /**
   * An export is starting: the summary scan steps aside until it is over (it would take a core from
   * it). Returns the function to call when the export ends.
   */
  holdSummaries(): () => void {
    this.#exports++;
    void this.#summaryConn?.api.stopView();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#exports--;
      if (this.#exports > 0) return;
      const waiters = this.#exportWaiters;
      this.#exportWaiters = [];
      for (const w of waiters) w();
    };
  }

  /** Shows a table; opens its rows unless they are open already. */
  select(key: string): void {
    const entry = this.tables.find((t) => t.key === key);
    if (!entry) return;
    this.selectedKey = key;
    const open = entry.view !== null && entry.view.current;
    const decodable = entry.state === 'resolving' || entry.state === 'pending' || ((entry.state === 'done' || entry.state === 'cancelled') && !open);
    if (decodable) void this.#open(entry);
  }

  /** The user picked the table definition (none is named like the file). */
  chooseTable(key: string, tableName: string): void {
    const entry = this.tables.find((t) => t.key === key);
    if (!entry || entry.busy) return;
    entry.chosen = tableName;
    entry.state = 'pending';
    this.select(key);
  }

  /** Shows live rows, deleted rows still in the file, or both: the table is opened again. */
  setMode(key: string, mode: RowMode): void {
    const entry = this.tables.find((t) => t.key === key);
    if (!entry || entry.mode === mode) return;
    entry.mode = mode;
    if (this.#viewing === entry) this.#stopView();
    entry.state = 'resolving';
    entry.error = null;
    this.select(key);
  }

  /** Opens again (after a cancel or an error). */
  retry(key: string): void {
    const entry = this.tables.find((t) => t.key === key);
    if (!entry || entry.busy) return;
    entry.state = 'resolving';
    entry.error = null;
    this.select(key);
  }

  /** Stops counting the table on screen; the rows counted so far stay readable. */
  cancel(): void {
    const entry = this.#viewing;
    if (!entry || !entry.busy) return;
    this.#counting?.abort();
  }

  /** Forgets every file. */
  reset(): void {
    this.#stopView();
    this.#pool.terminate();
    this.#pool.warm();
    this.#summaryQueue = [];
    this.#summaryConn?.terminate();
    this.#summaryConn = null;
    this.#summaryRunning = false;
    this.#files = [];
    this.#keys = {};
    this.keyFiles = [];
    this.locked = [];
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

  #stopView(): void {
    this.#viewRun++;
    this.#counting?.abort();
    this.#counting = null;
    const was = this.#viewing;
    if (was?.busy) {
      was.state = 'cancelled';
      was.countEnded();
    }
    if (was) was.view = null;
    this.#viewing = null;
  }

  /** Resolves the definition (in a pool worker, which hands it to the others) and opens the table. */
  async #open(entry: TableEntry): Promise<void> {
    this.#stopView();
    const run = this.#viewRun;
    this.#viewing = entry;
    entry.error = null;
    entry.opened = null;
    entry.stats = null;
    entry.view = null;
    entry.rowCount = 0;
    entry.counted = null;
    entry.elapsedMs = null;
    entry.state = 'reading-schema';
    const started = performance.now();
    const files = this.schemaFiles(entry);
    try {
      const { resolved, table } = await this.#pool.run(async (api) => {
        const r = await api.resolveSchema(entry.file, entry.file.name, files);
        const name = entry.chosen && r.tables.some((t) => t.name === entry.chosen) ? entry.chosen : r.picked;
        return { resolved: r, table: name ? await api.tableDef(name) : null };
      }, 'high', null);
      if (run !== this.#viewRun) return;
      entry.resolved = resolved;
      if (entry.chosen && !resolved.tables.some((t) => t.name === entry.chosen)) entry.chosen = null;
      if (!table) {
        entry.state = resolved.tables.length > 0 ? 'choose' : 'needs-schema';
        return;
      }
      entry.state = 'decoding';
      const view = await this.#openView(entry, table, run);
      if (!view) return;
      // The first page first: it shows at once, and a table definition that does not fit is caught there.
      await view.store.load([0]);
      if (view.store.error) throw new Error(view.store.error);
      await this.#count(entry, view, run);
      if (run !== this.#viewRun) return;
      entry.elapsedMs = performance.now() - started;
    } catch (err) {
      if (run !== this.#viewRun || err instanceof PoolStopped) return;
      entry.error = describeError(err);
      entry.state = 'error';
    } finally {
      entry.countEnded();
    }
  }

  async #openView(entry: TableEntry, table: TableDef, run: number): Promise<TableView | null> {
    const spec = { ibd: entry.file, name: entry.file.name, table, mode: entry.mode, keys: this.#keys };
    const view = await TableView.open(this.#pool, spec, () => {
      if (run !== this.#viewRun) return;
      entry.rowCount = view.map.rows;
      entry.stats = view.stats();
      entry.version++;
    });
    if (run !== this.#viewRun) return null;
    entry.view = view;
    entry.opened = view.view;
    return view;
  }

  async #count(entry: TableEntry, view: TableView, run: number): Promise<void> {
    const known = entry.counts;
    if (known && known.mode === entry.mode && sameLeaves(known.leaves, view.map.leaves)) {
      view.map.setCounts(0, known.counts);
      entry.rowCount = view.map.rows;
      entry.counted = view.map.rows;
      entry.version++;
      entry.state = 'done';
      return;
    }
    const controller = new AbortController();
    this.#counting = controller;
    try {
      await view.count(controller.signal, () => {
        if (run !== this.#viewRun) return;
        entry.rowCount = view.map.rows;
        entry.version++;
      });
      if (run !== this.#viewRun) return;
      entry.counted = view.map.rows;
      entry.counts = { mode: entry.mode, leaves: view.map.leaves, counts: view.map.counts.slice() };
      entry.state = 'done';
    } catch (err) {
      if (!controller.signal.aborted) throw err;
      if (run === this.#viewRun) entry.state = 'cancelled';
    } finally {
      if (this.#counting === controller) this.#counting = null;
    }
  }
}
