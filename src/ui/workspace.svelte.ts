/**
 * The page's state: the files the user gave (files/file-set.svelte.ts, with their encryption keys),
 * the tables found in them (one TableEntry each, tables/table-entry.svelte.ts), which one is on
 * screen, and what the user does with them. Components read it; the work runs in workers
 * (workers/decoder.worker.ts):
 *
 *  - the listing (summary/listing.ts) reads every table file's summary and definition in batches
 *    across the pool, and the full checksum scan of the large ones in a summary worker, after the
 *    table on screen is counted so the two do not fight for the cores;
 *  - a *pool* of workers (pool.ts) serves the table on screen (tables/on-screen.ts, grid/table-view.ts):
 *    counts its rows per leaf page, decodes the pages the grid shows, searches; only that table is open;
 *  - the recovery tools (recovery/recovery-tools.ts: index scan, column guess) have a worker of their own;
 *  - each export gets a pool of its own (export/export-run.svelte.ts), killed on Cancel, while the
 *    background work steps aside (export/export-hold.ts).
 */
import * as Comlink from 'comlink';
import type { ColumnEdit, NamedBlob, PartialGrid, RowMode, SystemProgress, SystemTable, TransactionList } from '../../workers/decoder-api.ts';
import { connectDecoder, setDatadirLogs, type DecoderConnection } from '../../workers/decoder-connection.ts';
import { describeError } from './format.ts';
import { ExportHold } from './export/export-hold.ts';
import { FileSet } from './files/file-set.svelte.ts';
import { kindOf, type InputFile, type PairedTable } from './files/pairing.ts';
import { fetchSample } from './files/sample.ts';
import { poolSize, WorkerPool, type Api } from './pool.ts';
import { withDamaged, withoutDamaged } from './recovery/damage.ts';
import { RecoveryTools } from './recovery/recovery-tools.ts';
import { Listing } from './summary/listing.ts';
import { OnScreen } from './tables/on-screen.ts';
import { TableEntry } from './tables/table-entry.svelte.ts';
import { RevertRun } from './undo/revert-run.svelte.ts';

/** The Transactions view's list: the undo logs of the datadir given (its ibdata1, undo001 …). */
export interface TransactionsRead {
  state: 'reading' | 'done' | 'error';
  list: TransactionList | null;
  error: string | null;
}

/** The datadir's `db/table` of a table file (`…/shop/items.ibd` → `shop/items`), as the data dictionary names it. */
function datadirTableName(entry: TableEntry): string {
  if (entry.paired.system) return entry.paired.system.name;
  return entry.paired.ibd.path.replace(/\.ibd$/i, '').split('/').slice(-2).join('/');
}

export class Workspace {
  tables = $state.raw<TableEntry[]>([]);
  /** The Transactions view's list, once asked for (readTransactions); null: not read (or files changed). */
  transactions = $state.raw<TransactionsRead | null>(null);
  /** Whether the files given hold a datadir's ibdata1, whose undo logs the Transactions view reads. */
  hasUndo = $state(false);
  selectedKey = $state<string | null>(null);
  readonly files = new FileSet();
  /** Exports hold back the summary scans and the row count (ExportAll, startExport). */
  readonly exportHold = new ExportHold();
  /** The Transactions view's "Revert SQL" (one at a time). */
  readonly revert = new RevertRun();
  /**
   * Two tasks per worker: one reads the file while the other works (counting a 931 MB table went
   * from ~4.2 s to ~3.5 s with this).
   */
  readonly #pool = new WorkerPool(poolSize(), 2);
  readonly #listing = new Listing(this.#pool, this.files, this.exportHold);
  readonly screen = new OnScreen(this.#pool, this.files, this.exportHold, () => this.#listing.summaryApi());
  readonly recovery = new RecoveryTools();
  /** The workers listing system tablespaces' tables (#readSystems). */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- not rendered
  readonly #systemLists = new Set<DecoderConnection>();
  /** The datadir log the workers were last given (setDatadirLog), as a signature. */
  #log = '[]';

  constructor() {
    // Start the workers now: loading their code is a good part of the time to the first rows (and the
    // summary worker, started on the first drop, took the main thread's and the pool's time then).
    this.#pool.warm();
    this.#listing.warm();
  }

  get selected(): TableEntry | null {
    return this.tables.find((t) => t.key === this.selectedKey) ?? null;
  }

  #find(key: string): TableEntry | undefined {
    return this.tables.find((t) => t.key === key);
  }

  /** Adds dropped or picked files (a file with the same path replaces the earlier one). */
  async addFiles(inputs: InputFile[]): Promise<void> {
    if (inputs.length === 0) return;
    const fresh = await this.files.fresh(inputs);
    if (fresh.length === 0) {
      this.files.notice = 'These files are already open.';
      return;
    }
    const keysChanged = await this.files.add(fresh);
    this.transactions = null;
    this.hasUndo = this.files.undoBlobs() !== null;
    // (before any table is listed or read: the workers read the datadir's files through its log)
    if (this.#useDatadirLog()) this.#readAgain();
    const zoneChanged = await this.files.timeZone.read(fresh);
    if (keysChanged) this.#listing.summarizeAgain(this.tables);
    // (an ibdata1 may define the .ibd files of its datadir that have no .frm)
    const schemaFilesChanged = fresh.some((f) => /\.(sql|frm)$/i.test(f.file.name) || kindOf(f.file.name) === 'system');
    const firstNew = this.#repair(fresh, schemaFilesChanged);
    void this.#readSystems(fresh);
    const selected = this.selected;
    // Show the first table just added; else the table on screen may have just got its definition or key.
    if (firstNew) this.select(firstNew.key);
    else if (selected && keysChanged && selected.state === 'error') this.retry(selected.key);
    else if (selected && schemaFilesChanged && !selected.busy && selected.state !== 'done') this.select(selected.key);
    else if (selected && zoneChanged && this.screen.shows(selected)) this.#reopen(selected, () => {});
    this.files.describeLeftovers(this.tables.length);
  }

  /**
   * Gives the workers the redo log of the datadir among the files (files/redo-files.ts), when it
   * changed: a log dropped, a file of its datadir added, the "as on disk" switch. True when it did.
   */
  #useDatadirLog(): boolean {
    const logs = this.files.datadirLogs();
    // (the keys are Maps, which JSON does not show: the key files read stand for them)
    const signature = JSON.stringify(logs.map((log) => ({ ...log, log: log.log.name, more: log.more.map((f) => f.name), system: log.system?.name ?? null, doublewrite: log.doublewrite.map((f) => f.name), undo: log.undo.map((f) => f.name), keys: this.files.keyRing.files })));
    if (signature === this.#log) return false;
    this.#log = signature;
    setDatadirLogs(logs);
    return true;
  }

  /** The tables already listed read again (their files are now read otherwise): summaries, counts, the table on screen. */
  #readAgain(): void {
    for (const t of this.tables) {
      t.counts = null;
      t.pageMap = null;
      this.#listing.forgetCsv(t);
    }
    this.#listing.summarizeAgain(this.tables, true);
    const selected = this.selected;
    if (selected && this.screen.shows(selected)) this.#reopen(selected, () => {});
  }

  /** Reads a dropped datadir's pages as they are on disk (true), or as its redo log rolls them forward (false, the default). */
  setAsOnDisk(on: boolean): void {
    if (this.files.asOnDisk === on) return;
    this.files.asOnDisk = on;
    if (this.#useDatadirLog()) this.#readAgain();
  }

  /**
   * The tables inside the system tablespaces among `fresh`, listed as their dictionaries' listings
   * hand them over (in the pool), chunk after chunk: the list grows while the rest are counted.
   */
  async #readSystems(fresh: InputFile[]): Promise<void> {
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local
    const known = new Map(this.tables.map((t) => [t.key, t]));
    // Each chunk's tables added to the list (not all files paired again: that was quadratic in the
    // tables); a table named before (pending) takes what its listing found.
    const grown = (_ibdata: InputFile, paired: PairedTable[]) => {
      const added: TableEntry[] = [];
      for (const p of paired) {
        const had = known.get(p.key);
        if (had?.paired.system?.pending) {
          had.paired = p;
          had.takeSystem(p.system as SystemTable);
        }
        if (had) continue;
        const entry = new TableEntry(p);
        entry.takeSystem(p.system as SystemTable);
        known.set(p.key, entry);
        added.push(entry);
      }
      if (added.length === 0) return;
      this.tables = [...this.tables, ...added];
      if (!this.selected) this.select(added[0].key);
    };
    const found = (ibdata: InputFile) => {
      const firstNew = this.#repair([ibdata], false);
      if (firstNew && !this.selected) this.select(firstNew.key);
    };
    // In a worker of its own: the tables listed so far are opened and counted in the pool meanwhile
    // (whose workers are recycled after a large count), and Close all ends it.
    const list = async (ibdata: InputFile, frmNames: string[], frms: (names: string[]) => Promise<NamedBlob[]>, onTables: (tables: SystemTable[], progress: SystemProgress) => void) => {
      const conn = connectDecoder();
      this.#systemLists.add(conn);
      try {
        return await conn.api.listSystemTables(ibdata.file, ibdata.file.name, frmNames, Comlink.proxy(frms), Comlink.proxy(onTables));
      } finally {
        this.#systemLists.delete(conn);
        conn.terminate();
      }
    };
    const read = await this.files.readSystems(fresh, list, grown);
    for (const ibdata of read) found(ibdata);
    this.files.describeLeftovers(this.tables.length);
  }

  /** The password of a locked key file: its keys are read, and the table on screen is opened again. */
  async unlock(path: string, password: string): Promise<void> {
    if (!(await this.files.keyRing.unlock(path, password))) return;
    // (key 1 may be the redo log's: its files are read through it again)
    if (this.#useDatadirLog()) this.#readAgain();
    this.#listing.summarizeAgain(this.tables);
    const selected = this.selected;
    if (selected && !selected.busy && selected.state !== 'done') this.retry(selected.key);
  }

  /**
   * Pairs all files again; keeps entries whose .ibd did not change. New entries get a summary and a
   * definition; with new schema files, the others not read yet get a definition again.
   * Returns the first new entry.
   */
  #repair(fresh: InputFile[], schemaFilesChanged: boolean): TableEntry | null {
    const paired = this.files.pair();
    if (schemaFilesChanged) this.#listing.schemaChanged();
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local
    const old = new Map(this.tables.map((t) => [t.key, t]));
    let firstNew: TableEntry | null = null;
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- local
    const freshPaths = new Set(fresh.map((f) => f.path));
    const next = paired.map((p) => {
      const prev = old.get(p.key);
      if (prev && prev.file === p.ibd.file) {
        prev.paired = p;
        // made with the definitions of before (an entry listed again gets a new one)
        if (schemaFilesChanged) this.#listing.forgetCsv(prev);
        // (a table of a system tablespace has its definition from the dictionary's listing, unless it lost it)
        if (schemaFilesChanged && !prev.paired.system?.source && !prev.busy && prev.state !== 'done' && prev.state !== 'cancelled') {
          prev.state = 'resolving';
          prev.error = null;
          this.#listing.queue(prev, false);
        }
        return prev;
      }
      if (prev) this.#drop(prev);
      const entry = new TableEntry(p);
      if (p.system) entry.takeSystem(p.system);
      else this.#listing.queue(entry, true);
      if (!firstNew && freshPaths.has(p.ibd.path)) firstNew = entry;
      return entry;
    });
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- not rendered
    const live = new Set(next);
    this.#listing.follow(live);
    for (const t of old.values()) if (!live.has(t)) this.#drop(t);
    this.tables = next;
    this.#listing.run();
    return firstNew;
  }

  #drop(entry: TableEntry): void {
    if (this.screen.shows(entry)) this.screen.stop();
    entry.view = null;
    this.#listing.forgetCsv(entry);
    // (its queued jobs are skipped: the listing no longer follows it)
  }

  /** Runs `task` in a worker of the pool, after what the table on screen needs (Export all tables). */
  runInPool<T>(task: (api: Api) => Promise<T>): Promise<T> {
    return this.#pool.run(task, 'low', null);
  }

  get poolSize(): number {
    return this.#pool.size;
  }

  /** Shows a table; opens its rows unless they are open already. */
  /** The worker that keeps the files' page maps and inspects their pages (the summary worker). */
  pageMapApi(): Api {
    return this.#listing.summaryApi();
  }

  select(key: string): void {
    const entry = this.#find(key);
    if (!entry) return;
    this.selectedKey = key;
    const open = entry.view !== null && entry.view.current;
    const decodable = entry.state === 'resolving' || entry.state === 'pending' || ((entry.state === 'done' || entry.state === 'cancelled') && !open);
    if (decodable) void this.screen.open(entry);
  }

  /** Reads `entry`'s rows anew after `change` (another definition, row mode or index): its view is closed first. */
  #reopen(entry: TableEntry, change: () => void): void {
    if (this.screen.shows(entry)) this.screen.stop();
    change();
    entry.error = null;
    entry.state = 'resolving';
    this.select(entry.key);
  }

  /** The user picked the table definition (none is named like the file). */
  chooseTable(key: string, tableName: string): void {
    const entry = this.#find(key);
    if (!entry || entry.busy) return;
    // Another table of the same file (a general tablespace): opened afresh.
    this.#reopen(entry, () => {
      entry.chosen = tableName;
      entry.custom = null;
    });
  }

  /** Shows TIMESTAMP values in another zone: the table on screen is opened again (its counts kept). */
  setTimeZone(zone: string): void {
    this.files.timeZone.pick(zone);
    const entry = this.selected;
    if (entry && this.screen.shows(entry)) this.#reopen(entry, () => {});
  }

  /** Shows the rows of another row mode (row-state.ts): the table is opened again. */
  setMode(key: string, mode: RowMode): void {
    const entry = this.#find(key);
    if (!entry || entry.mode === mode) return;
    entry.modeBeforeDamaged = null;
    this.#reopen(entry, () => (entry.mode = mode));
  }

  /** Shows the rows of the table's index `name` (null: the table's own rows): the table is opened again. */
  setIndex(key: string, name: string | null): void {
    const entry = this.#find(key);
    if (!entry || entry.indexName === name) return;
    this.#reopen(entry, () => {
      entry.indexName = name;
      // "As before transaction N" rebuilds the clustered index's rows only (viewer-methods.ts openView).
      if (name !== null) {
        entry.beforeTrx = null;
        entry.taken = null;
      }
    });
  }

  /** "Show damaged rows": a mode with the rows of damaged pages besides the others (marked in the grid). */
  showDamaged(key: string): void {
    const entry = this.#find(key);
    if (!entry || withDamaged(entry.mode) === entry.mode) return;
    const before = entry.mode;
    this.#reopen(entry, () => (entry.mode = withDamaged(entry.mode)));
    entry.modeBeforeDamaged = before;
  }

  /** Shows the partial rows (read from the secondary indexes) among the rows, or leaves them out (null). */
  /** Adds the system columns to the rows (DB_TRX_ID, DB_ROLL_PTR, page, heap), or takes them away: the table is opened again. */
  setSystemColumns(key: string, on: boolean): void {
    const entry = this.#find(key);
    if (!entry || entry.systemColumns === on) return;
    this.#reopen(entry, () => (entry.systemColumns = on));
  }

  showPartial(key: string, grid: PartialGrid | null): void {
    const entry = this.#find(key);
    if (!entry || entry.partial === grid) return;
    this.#reopen(entry, () => (entry.partial = grid));
  }

  /** Leaves the rows of damaged pages out again: back to the mode before showDamaged. */
  hideDamaged(key: string): void {
    const entry = this.#find(key);
    const mode = entry && (entry.modeBeforeDamaged ?? withoutDamaged(entry.mode));
    if (!entry || !mode || mode === entry.mode) return;
    entry.modeBeforeDamaged = null;
    this.#reopen(entry, () => (entry.mode = mode));
  }

  /** Decodes an index of the last scan (by space and index id) with the table's definition. */
  decodeIndex(key: string, spaceId: number, indexId: string): void {
    const entry = this.#find(key);
    const list = entry?.scan?.list;
    const line = list?.indexes.find((i) => i.spaceId === spaceId && i.indexId === indexId);
    if (!entry || !list || !line) return;
    this.#reopen(entry, () => {
      // A raw image is read through the grid the scan found; an intact file keeps its own page 0.
      const raw = entry.summary === null || entry.summaryState === 'error' || entry.error !== null ? line.open.raw : undefined;
      entry.target = { index: line.open.index, raw, list, entry: line };
      entry.counts = null;
    });
  }

  /** Back to the index page 0 leads to. */
  clearTarget(key: string): void {
    const entry = this.#find(key);
    if (!entry || !entry.target) return;
    this.#reopen(entry, () => {
      entry.target = null;
      entry.counts = null;
    });
  }

  /** Decodes with the (edited) guessed columns; a type that does not parse is said in the editor. */
  async applyGuess(key: string, columns: ColumnEdit[]): Promise<void> {
    const entry = this.#find(key);
    if (!entry) return;
    const table = await this.recovery.tableFromGuess(entry, columns);
    if (!table) return;
    this.#reopen(entry, () => {
      entry.custom = table;
      entry.counts = null;
    });
  }

  /** Opens again (after a cancel or an error). */
  retry(key: string): void {
    const entry = this.#find(key);
    if (!entry || entry.busy) return;
    entry.state = 'resolving';
    entry.error = null;
    this.select(key);
  }

  /** Reads the transactions of the datadir's undo logs (in a worker of the pool), once per set of files. */
  async readTransactions(): Promise<void> {
    const files = this.files.undoBlobs();
    if (!files || this.transactions?.state === 'reading' || this.transactions?.state === 'done') return;
    const read: TransactionsRead = { state: 'reading', list: null, error: null };
    this.transactions = read;
    try {
      const list = await this.runInPool((api) => api.listTransactions(files));
      if (this.transactions === read) this.transactions = { state: 'done', list, error: null };
    } catch (err) {
      if (this.transactions === read) this.transactions = { state: 'error', list: null, error: describeError(err) };
    }
  }

  /** The table entry of a table the undo logs name (`db/table`), if its file was given. */
  tableNamed(name: string): TableEntry | null {
    // A partition's name (db/t#P#p0, as the dictionary has it) is its partitioned table's, whose entry holds every partition.
    const table = (n: string) => n.replace(/#p#.*$/i, '');
    return this.tables.find((t) => table(datadirTableName(t)) === table(name)) ?? this.tables.find((t) => table(datadirTableName(t)).toLowerCase() === table(name).toLowerCase()) ?? null;
  }

  /** "Revert SQL": the statements reverting `trxId`'s changes to table `name` (db/table); its file and definition come with its view, so it is opened first. */
  async revertSql(name: string, trxId: number): Promise<void> {
    const entry = this.tableNamed(name);
    const files = this.files.undoBlobs();
    if (!entry || !files || this.revert.running) return;
    if (!entry.view) this.select(entry.key);
    while (!entry.view && ['resolving', 'pending', 'reading-schema', 'decoding'].includes(entry.state)) await new Promise((r) => setTimeout(r, 100));
    const fail = (error: string) => (this.revert.progress = { table: name, trxId, fileName: null, state: 'error', bytes: 0, done: null, error });
    if (!entry.view) return void fail(`${name} could not be opened (${entry.error ?? entry.state}): its definition is needed to write the statements`);
    const spec = entry.view.spec;
    if (!spec.partitions?.length) return this.revert.start(spec, files, trxId);
    // A partitioned table: the undo logs name the partition changed; its statements come from that partition's file.
    const partition = name.split('/').pop() as string;
    const file = spec.partitions.find((f) => f.name.replace(/\.ibd$/i, '').toLowerCase() === partition.toLowerCase());
    if (!file) return void fail(`${name}: the undo logs name no partition of ${spec.table.name} given among the files (${spec.partitions.map((f) => f.name).join(', ')})`);
    await this.revert.start({ ...spec, ibd: file.blob, name: file.name, partitions: undefined }, files, trxId, partition);
  }

  /** Shows the table as it was before transaction `trxId` and every later one (null: as it is); it is opened again. */
  setBeforeTrx(key: string, trxId: number | null): void {
    const entry = this.#find(key);
    if (!entry || entry.beforeTrx === trxId) return;
    this.#reopen(entry, () => {
      entry.beforeTrx = trxId;
      entry.taken = null;
      if (trxId !== null) entry.indexName = null;
    });
  }

  /** Forgets every file. */
  reset(): void {
    this.transactions = null;
    this.hasUndo = false;
    this.screen.stop();
    this.#pool.terminate();
    this.#pool.warm();
    this.#listing.reset();
    for (const conn of this.#systemLists) conn.terminate();
    this.#systemLists.clear();
    this.recovery.reset();
    this.files.reset();
    this.#useDatadirLog();
    this.tables = [];
    this.selectedKey = null;
  }

  /** Fetches the bundled sample and opens it. */
  async openSample(baseUrl = './sample/'): Promise<void> {
    this.files.notice = 'Fetching the sample…';
    try {
      const files = await fetchSample(baseUrl);
      this.files.notice = null;
      await this.addFiles(files.map((file) => ({ file, path: `sample/${file.name}` })));
    } catch (err) {
      this.files.notice = null;
      this.files.failed(err);
    }
  }
}
