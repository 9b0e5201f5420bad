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
 * Each table's state is a TableEntry (table-entry.svelte.ts).
 */
import * as Comlink from 'comlink';
import { connectDecoder, type DecoderConnection } from '../../workers/decoder-connection.ts';
import type {
  ColumnEdit, EncryptionKeys, ExportedTable, FirstLeaf, ListedTable, ListItem, NamedBlob, OpenedView, ResolvedSchemaResult, RowMode,
  TableDef, TablespaceSummary, ViewSpec,
} from '../../workers/decoder-api.ts';
import { DEFINITION_MISMATCH } from '../../workers/viewer-api.ts';
import { loadKeyFile, parseMysqlKeyring } from '../core/tablespace/encryption.ts';
import { withDamaged, withoutDamaged } from './recovery/damage.ts';
import { detectKeyFiles, pairFiles, type InputFile } from './files/pairing.ts';
import { PoolStopped, poolSize, WorkerPool, type Api } from './pool.ts';
import { fetchSample } from './files/sample.ts';
import { TableEntry, type TableState } from './tables/table-entry.svelte.ts';
import { TableView } from './grid/table-view.ts';

export { TableEntry };
export type { DecodeTarget, FullReport, GuessState, IndexScan, SummaryState, TableState } from './tables/table-entry.svelte.ts';

/** A table a pool worker opened while resolving its definition (resolveAndOpen), adopted by the pool as generation `gen`. */
interface Opened {
  gen: number;
  spec: ViewSpec;
  view: OpenedView;
  leaves: Int32Array;
  first: FirstLeaf | null;
}

/** Files this small get their full summary (row count and checksums) in the listing batch: a few pages. */
const FULL_SUMMARY_BELOW = 1 << 20;
/**
 * Files this small (a few pages: an empty or nearly empty table) also get their CSV in the listing
 * batch, kept for "Export all tables": decoding a few rows costs less than reading the file again.
 */
const LIST_CSV_BELOW = 128 << 10;
/** The CSVs of the listing kept on the page, at most (the others are read again by the export). */
const KEEP_CSV_BYTES = 32 << 20;
/** Files per listing call. */
const LIST_BATCH = 250;
/** The sizes of the queued files are read in slices of this many milliseconds (the page stays responsive). */
const SIZE_SLICE_MS = 50;

/** A count over this many leaf pages (16 MB of 16K pages) leaves read buffers worth dropping with the workers. */
const RECYCLE_AFTER_LEAVES = 1024;

/** The full summary scan of the table on screen waits at most this long for its row count. */
const COUNT_FIRST_MS = 10_000;
/**
 * The running count is shown at most this often: each showing lays out the grid anew (its height
 * follows the rows), which on a large table cost the main thread more than a second per count and
 * took that time from the workers' cores.
 */
const COUNT_SHOWN_MS = 250;

/** Plain-language text for anything thrown (IbdError messages already name file and page). */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === 'string') return err;
  return 'Something went wrong while reading the file.';
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
  /** A worker for index scans and column guesses (long reads that must not hold up the pool). */
  #toolConn: DecoderConnection | null = null;
  #reporting: AbortController | null = null;
  /**
   * Two tasks per worker: one reads the file while the other works (counting a 931 MB table went
   * from ~4.2 s to ~3.5 s with this).
   */
  readonly #pool = new WorkerPool(poolSize(), 2);
  /** Entries whose summary (`summary: true`) and/or table definition are to be read, in order. */
  #summaryQueue: { entry: TableEntry; summary: boolean }[] = [];
  #summaryRunning = false;
  /** The entries of `tables`, for O(1) "is it still open" checks (10,000 tables). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- not rendered
  #live = new Set<TableEntry>();
  /** Listing batches running in the pool, and the generation they belong to (bumped by reset). */
  #lanes = 0;
  #listGen = 0;
  /** Large files listed with their quick summary, waiting for their full scan in the summary worker. */
  #fullQueue: TableEntry[] = [];
  /** Bytes of the entries' `listedCsv`. */
  #csvKept = 0;
  /** Bumped when .sql or .frm files are added: CSVs listed with the definitions of before are not kept. */
  #schemaGen = 0;
  /** Bumped for every table opened; callbacks of older runs are ignored. */
  #viewRun = 0;
  #viewing: TableEntry | null = null;
  #counting: AbortController | null = null;

  constructor() {
    // Start the workers now: loading their code is a good part of the time to the first rows (and the
    // summary worker, started on the first drop, took the main thread's and the pool's time then).
    this.#pool.warm();
    this.#summaryWorker();
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
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local
    const known = new Map(this.#files.map((f) => [f.path, f]));
    const fresh = await detectKeyFiles(inputs.filter((f) => {
      const g = known.get(f.path);
      return !g || !sameFile(f, g);
    }));
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
    if (keysChanged) this.#summarizeAgain();
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
    this.#summarizeAgain();
    const selected = this.selected;
    if (selected && !selected.busy && selected.state !== 'done') this.retry(selected.key);
  }

  /** New keys: the summaries that failed or are of encrypted files are read again, with the keys. */
  #summarizeAgain(): void {
    for (const t of this.tables) {
      if (t.summaryState === 'waiting' || t.summaryState === 'scanning') continue;
      if (t.summaryState !== 'error' && !t.summary?.encrypted) continue;
      t.summaryState = 'waiting';
      t.summaryError = null;
      this.#summaryQueue.push({ entry: t, summary: true });
    }
    void this.#runSummaries();
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
    if (schemaFilesChanged) this.#schemaGen++;
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local
    const old = new Map(this.tables.map((t) => [t.key, t]));
    let firstNew: TableEntry | null = null;
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local
    const freshPaths = new Set(fresh.map((f) => f.path));
    const next = pairing.tables.map((p) => {
      const prev = old.get(p.key);
      if (prev && prev.file === p.ibd.file) {
        prev.paired = p;
        // made with the definitions of before (an entry listed again gets a new one)
        if (schemaFilesChanged) this.#keepCsv(prev, null);
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
      if (!firstNew && freshPaths.has(p.key)) firstNew = entry;
      return entry;
    });
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- not rendered
    this.#live = new Set(next);
    for (const t of old.values()) if (!this.#live.has(t)) this.#drop(t);
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
    if (entry.custom) entry.state = 'pending';
    else if (!r) entry.state = 'resolving';
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
    this.#keepCsv(entry, null);
    // (its queued jobs are skipped: it is no longer in #live)
  }

  /**
   * Works through the queue in batches, as many at a time as the pool has task slots (two per
   * worker: a worker has its next batch while the page hands over the one after, which costs the
   * page's main thread a look at each File's size, ~0.25–0.6 ms a file in Chromium), at `low`
   * priority (the table on screen goes first). Each batch is one worker call that reads every file's
   * summary and finds its definition (the .sql parsed once per worker). Small files get their full
   * summary (exact row count, checksums) in that call; large ones their quick summary, then their
   * full scan one after another in the summary worker (#runFullSummaries). 10,000 one-row tables are
   * ~40 calls, and the state changes once per batch, not once per file.
   */
  #runSummaries(): void {
    const gen = this.#listGen;
    void this.#readSizes(gen);
    while (this.#lanes < this.#pool.size * this.#pool.slots && this.#summaryQueue.length > 0) {
      this.#lanes++;
      void this.#lane(gen).finally(() => {
        if (gen === this.#listGen) this.#lanes--;
      });
    }
  }

  /**
   * Reads the size of every queued table file (and .frm) ahead of the listing calls, in slices. In
   * Chromium a picked File's first `size` is a synchronous look at the disk (~0.4 ms, ~1 ms while the
   * workers read files), and so is the structured clone that sends an unsized File to a worker: the
   * page's main thread did it for each batch as it went out, while that batch's worker waited. Read
   * ahead, the sizes stay with the File objects and a batch goes out at once.
   */
  async #readSizes(gen: number): Promise<void> {
    const entries = this.#summaryQueue.map((j) => j.entry);
    for (let at = 0; at < entries.length && gen === this.#listGen; ) {
      const started = performance.now();
      for (; at < entries.length && performance.now() - started < SIZE_SLICE_MS; at++) {
        const entry = entries[at];
        void entry.file.size;
        void entry.paired.frm?.file.size;
      }
      if (at < entries.length) await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  /** The next batch of the queue: up to LIST_BATCH files. */
  #takeBatch(): { entry: TableEntry; summary: boolean }[] {
    const batch: { entry: TableEntry; summary: boolean }[] = [];
    while (this.#summaryQueue.length > 0 && batch.length < LIST_BATCH) {
      for (const job of this.#summaryQueue.splice(0, LIST_BATCH - batch.length)) if (this.#live.has(job.entry)) batch.push(job);
    }
    return batch;
  }

  async #lane(gen: number): Promise<void> {
    for (let batch = this.#takeBatch(); batch.length > 0 && gen === this.#listGen; batch = this.#takeBatch()) {
      for (const job of batch) if (job.summary) job.entry.summaryState = 'scanning';
      const items: ListItem[] = batch.map(({ entry }) => ({
        ibd: entry.file,
        name: entry.file.name,
        frm: entry.paired.frm ? { name: entry.paired.frm.file.name, blob: entry.paired.frm.file } : null,
      }));
      const sqls = this.sqlFiles.map((f) => ({ name: f.path, blob: f.file as Blob }));
      const schemaGen = this.#schemaGen;
      let results: ListedTable[];
      try {
        const options = { fullBelow: FULL_SUMMARY_BELOW, csvBelow: LIST_CSV_BELOW, keys: this.#keys };
        results = await this.#pool.run((api) => api.listTables(items, sqls, options), 'low', null);
      } catch (err) {
        if (err instanceof PoolStopped || gen !== this.#listGen) return;
        const text = describeError(err);
        results = batch.map(() => ({ summary: null, csv: null, summaryError: text, resolved: null, resolveError: text, live: null }));
      }
      if (gen !== this.#listGen) return;
      batch.forEach(({ entry, summary }, i) => {
        if (!this.#live.has(entry)) return;
        const r = results[i];
        if (schemaGen === this.#schemaGen) this.#keepCsv(entry, r.csv);
        if (summary) {
          entry.listed = r.live;
          if (r.summary) {
            entry.summary = r.summary;
            if (r.summary.complete) entry.summaryState = 'done';
            else this.#fullQueue.push(entry);
          } else {
            entry.summaryState = 'error';
            entry.summaryError = r.summaryError;
          }
        }
        if (entry.busy || entry.state === 'done' || entry.state === 'cancelled') return;
        if (r.resolved) this.#applyResolved(entry, r.resolved);
        else {
          entry.error = r.resolveError;
          entry.state = 'error';
        }
      });
      if (this.#fullQueue.length > 0) void this.#runFullSummaries();
    }
  }

  /** Keeps (or with null, forgets) an entry's listed CSV, while they add up to at most KEEP_CSV_BYTES. */
  #keepCsv(entry: TableEntry, csv: ExportedTable | null): void {
    this.#csvKept -= entry.listedCsv?.bytes?.length ?? 0;
    const size = csv?.bytes?.length ?? 0;
    const kept = csv && this.#csvKept + size <= KEEP_CSV_BYTES ? csv : null;
    entry.listedCsv = kept;
    if (kept) this.#csvKept += size;
  }

  /** The full scan (checksums of every page) of the large files, one after another in the summary worker. */
  async #runFullSummaries(): Promise<void> {
    if (this.#summaryRunning) return;
    this.#summaryRunning = true;
    const conn = this.#summaryWorker();
    try {
      for (let target = this.#fullQueue.shift(); target; target = this.#fullQueue.shift()) {
        if (this.#live.has(target) && target.summaryState === 'scanning') await this.#fullSummary(conn, target);
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
        target.summary = await conn.api.summarize(target.file, target.file.name, progress, this.#keys);
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
   * An export is starting: the summary scan and the row count of the table on screen step aside
   * until it is over (each would take a core from it; the count's tasks already running finish,
   * the next ones wait). Returns the function to call when the export ends.
   */
  holdBackground(): () => void {
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

  /** Runs `task` in a worker of the pool, after what the table on screen needs (Export all tables). */
  runInPool<T>(task: (api: Api) => Promise<T>): Promise<T> {
    return this.#pool.run(task, 'low', null);
  }

  get poolSize(): number {
    return this.#pool.size;
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
    // Another table of the same file (a general tablespace): opened afresh.
    if (this.#viewing === entry) this.#stopView();
    entry.chosen = tableName;
    entry.custom = null;
    entry.error = null;
    entry.state = 'pending';
    this.select(key);
  }

  /** Shows the rows of another row mode (row-state.ts): the table is opened again. */
  setMode(key: string, mode: RowMode): void {
    const entry = this.tables.find((t) => t.key === key);
    if (!entry || entry.mode === mode) return;
    entry.modeBeforeDamaged = null;
    this.#switchMode(entry, mode);
  }

  /** "Show damaged rows": a mode with the rows of damaged pages besides the others (marked in the grid). */
  showDamaged(key: string): void {
    const entry = this.tables.find((t) => t.key === key);
    if (!entry || withDamaged(entry.mode) === entry.mode) return;
    const before = entry.mode;
    this.#switchMode(entry, withDamaged(entry.mode));
    entry.modeBeforeDamaged = before;
  }

  /** Leaves the rows of damaged pages out again: back to the mode before showDamaged. */
  hideDamaged(key: string): void {
    const entry = this.tables.find((t) => t.key === key);
    const mode = entry && (entry.modeBeforeDamaged ?? withoutDamaged(entry.mode));
    if (!entry || !mode || mode === entry.mode) return;
    entry.modeBeforeDamaged = null;
    this.#switchMode(entry, mode);
  }

  #switchMode(entry: TableEntry, mode: RowMode): void {
    entry.mode = mode;
    if (this.#viewing === entry) this.#stopView();
    entry.state = 'resolving';
    entry.error = null;
    this.select(entry.key);
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
    this.#fullQueue = [];
    this.#csvKept = 0;
    this.#listGen++;
    this.#lanes = 0;
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- not rendered
    this.#live = new Set();
    this.#summaryConn?.terminate();
    this.#summaryConn = null;
    this.#summaryRunning = false;
    this.#toolConn?.terminate();
    this.#toolConn = null;
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

  #tool(): DecoderConnection {
    this.#toolConn ??= connectDecoder();
    return this.#toolConn;
  }

  /**
   * "Scan the file for indexes": reads every page of the file once and lists the indexes found, for a
   * raw image or a file whose page 0 is damaged (or any file, when asked). Stop with cancelScan().
   */
  async scanIndexes(key: string): Promise<void> {
    const entry = this.tables.find((t) => t.key === key);
    if (!entry || entry.scan?.state === 'running') return;
    const total = entry.file.size;
    entry.scan = { state: 'running', done: 0, total, list: null, error: null };
    let last = 0;
    const progress = Comlink.proxy((done: number) => {
      const now = Date.now();
      if (entry.scan?.state !== 'running' || now - last < 150) return;
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
    void this.#toolConn?.api.cancelListing();
  }

  /** Decodes an index of the last scan (by space and index id) with the table's definition. */
  decodeIndex(key: string, spaceId: number, indexId: string): void {
    const entry = this.tables.find((t) => t.key === key);
    const list = entry?.scan?.list;
    const line = list?.indexes.find((i) => i.spaceId === spaceId && i.indexId === indexId);
    if (!entry || !list || !line) return;
    if (this.#viewing === entry) this.#stopView();
    // A raw image is read through the grid the scan found; an intact file keeps its own page 0.
    const raw = entry.summary === null || entry.summaryState === 'error' || entry.error !== null ? line.open.raw : undefined;
    entry.target = { index: line.open.index, raw, list, entry: line };
    entry.counts = null;
    entry.error = null;
    entry.state = 'resolving';
    this.select(key);
  }

  /** Back to the index page 0 leads to. */
  clearTarget(key: string): void {
    const entry = this.tables.find((t) => t.key === key);
    if (!entry || !entry.target) return;
    if (this.#viewing === entry) this.#stopView();
    entry.target = null;
    entry.counts = null;
    entry.error = null;
    entry.state = 'resolving';
    this.select(key);
  }

  /** "Guess the columns" of a file no definition describes (in the tool worker, which keeps the guess). */
  async guessColumns(key: string): Promise<void> {
    const entry = this.tables.find((t) => t.key === key);
    if (!entry || entry.guess?.state === 'running') return;
    entry.guess = { state: 'running', result: null, error: null, applying: false };
    try {
      // an index chosen from a scan (a raw image, a damaged page 0): guess from that index's pages
      const target = entry.target ? { index: entry.target.index, raw: entry.target.raw } : undefined;
      const result = await this.#tool().api.guessColumns(entry.file, entry.file.name, target);
      entry.guess = { state: 'ready', result, error: null, applying: false };
    } catch (err) {
      entry.guess = { state: 'error', result: null, error: describeError(err), applying: false };
    }
  }

  /** Decodes with the (edited) guessed columns; a type that does not parse is said in the editor. */
  async applyGuess(key: string, columns: ColumnEdit[]): Promise<void> {
    const entry = this.tables.find((t) => t.key === key);
    const guess = entry?.guess;
    if (!entry || !guess?.result) return;
    entry.guess = { ...guess, applying: true, error: null };
    try {
      const api = this.#tool().api;
      const info = await api.tableFromGuess(guess.result.tableName, columns);
      const table = await api.tableDef(info.name);
      // The editor now shows the columns applied (what the rows are read with).
      entry.guess = { ...guess, result: { ...guess.result, columns: columns.map((c) => ({ ...c })), createSql: info.createSql }, applying: false, error: null };
      if (this.#viewing === entry) this.#stopView();
      entry.custom = table;
      entry.counts = null;
      entry.error = null;
      entry.state = 'resolving';
      this.select(key);
    } catch (err) {
      entry.guess = { ...guess, applying: false, error: describeError(err) };
    }
  }

  /** Reads every leaf of the table on screen once, for a complete recovery report. */
  async fullReport(key: string): Promise<void> {
    const entry = this.tables.find((t) => t.key === key);
    const view = entry?.view;
    if (!entry || !view || this.#viewing !== entry || entry.report?.state === 'running') return;
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

  #stopView(): void {
    this.#viewRun++;
    this.#reporting?.abort();
    this.#reporting = null;
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

  /**
   * Resolves the definition and opens the table in one call to a pool worker (which then serves the
   * first screen), or opens the user's own definition; the other workers open it before their first task.
   */
  async #open(entry: TableEntry): Promise<void> {
    this.#stopView();
    this.#pool.close();
    const run = this.#viewRun;
    this.#viewing = entry;
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
    const files = this.schemaFiles(entry);
    try {
      // A definition built from "Guess the columns" wins over whatever the files give.
      let table = entry.custom;
      let opened: Opened | null = null;
      if (!table) {
        const want = { mode: entry.mode, keys: this.#keys, chosen: entry.chosen, index: entry.target?.index, raw: entry.target?.raw };
        const found = await this.#pool.run(async (api, member) => {
          const r = await api.resolveAndOpen(entry.file, entry.file.name, files, want);
          if (r.opened && r.table && run === this.#viewRun) {
            const spec = this.#viewSpec(entry, r.table, r.resolved);
            const gen = this.#pool.adopt(member, spec, r.opened.view, r.opened.plan.stats);
            if (r.opened.plan.leaves.length > 1) this.#pool.openEverywhere();
            opened = { gen, spec, view: r.opened.view, leaves: r.opened.plan.leaves, first: r.opened.first };
          }
          return r;
        }, 'high', null);
        if (run !== this.#viewRun) return;
        const resolved = found.resolved;
        entry.resolved = resolved;
        if (entry.chosen && !resolved.tables.some((t) => t.name === entry.chosen)) entry.chosen = null;
        if (!found.table) {
          entry.state = resolved.tables.length > 0 ? 'choose' : 'needs-schema';
          return;
        }
        table = found.table;
      }
      entry.state = 'decoding';
      const view = await this.#openView(entry, table, run, opened);
      if (!view) return;
      // The first page first: it shows at once, and a table definition that does not fit is caught there.
      await view.store.load([0]);
      if (view.store.error) throw new Error(view.store.error);
      await this.#count(entry, view, run);
      if (run !== this.#viewRun) return;
      entry.elapsedMs = performance.now() - started;
      // Recovering from a raw image: the report is what the user came for; read every page for it.
      if (entry.target && (entry.state as TableState) === 'done') void this.fullReport(entry.key);
    } catch (err) {
      if (run !== this.#viewRun || err instanceof PoolStopped) return;
      entry.error = describeError(err);
      entry.mismatch = err instanceof Error && err.name === DEFINITION_MISMATCH;
      entry.state = 'error';
    } finally {
      entry.countEnded();
    }
  }

  /** What the pool's workers open for `entry` with `table` (as resolveAndOpen does in its worker). */
  #viewSpec(entry: TableEntry, table: TableDef, resolved: ResolvedSchemaResult | null): ViewSpec {
    // A table of a general tablespace / mysql.ibd: its own B-tree (from the SDI); an index of a scan: that one.
    const choice = entry.custom ? undefined : resolved?.tables.find((t) => t.name === table.name);
    const index = entry.target?.index ?? choice?.clusteredIndex ?? undefined;
    return { ibd: entry.file, name: entry.file.name, table, mode: entry.mode, keys: this.#keys, index, raw: entry.target?.raw };
  }

  /** Opens the table in the pool, or takes the view a worker already opened (`opened`). */
  async #openView(entry: TableEntry, table: TableDef, run: number, opened: Opened | null): Promise<TableView | null> {
    const spec = opened?.spec ?? this.#viewSpec(entry, table, entry.resolved);
    const changed = () => {
      if (run !== this.#viewRun) return;
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
    if (run !== this.#viewRun) return null;
    entry.view = view;
    entry.opened = view.view;
    // The first leaf may have come with the view: show its rows now, not after the first count.
    changed();
    return view;
  }

  async #count(entry: TableEntry, view: TableView, run: number): Promise<void> {
    const known = entry.counts;
    if (known && known.mode === entry.mode && sameLeaves(known.leaves, view.map.leaves)) {
      view.restore(known.counts, known.damage);
      entry.damage = known.damage.figures;
      entry.rowCount = view.map.rows;
      entry.counted = view.map.rows;
      entry.version++;
      entry.state = 'done';
      return;
    }
    const controller = new AbortController();
    this.#counting = controller;
    const large = view.map.leaves.length >= RECYCLE_AFTER_LEAVES;
    let recycled = false;
    const free = (): Promise<void> => {
      if (this.#exports === 0) return Promise.resolve();
      // Held for an export: once the count's running tasks are over, its read buffers go with the
      // workers rather than wait in them through the export.
      if (large && !recycled) setTimeout(() => (recycled ||= this.#pool.recycle()), 0);
      return this.#exportsDone();
    };
    let shown = performance.now();
    try {
      await view.count(controller.signal, free, () => {
        if (run !== this.#viewRun || performance.now() - shown < COUNT_SHOWN_MS) return;
        shown = performance.now();
        entry.rowCount = view.map.rows;
        entry.damage = view.damage.figures;
        entry.version++;
      });
      if (run !== this.#viewRun) return;
      entry.rowCount = view.map.rows;
      entry.damage = view.damage.figures;
      entry.version++;
      entry.counted = view.map.rows;
      entry.counts = { mode: entry.mode, leaves: view.map.leaves, counts: view.map.counts.slice(), damage: view.damage };
      entry.state = 'done';
      // The count read the whole file: its buffers go with the workers (an export, say, starts its own).
      if (large) this.#pool.recycle();
    } catch (err) {
      if (!controller.signal.aborted) throw err;
      if (run === this.#viewRun) entry.state = 'cancelled';
    } finally {
      if (this.#counting === controller) this.#counting = null;
    }
  }
}
