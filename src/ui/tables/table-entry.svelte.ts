/**
 * One table of the files given, as the page shows it (Workspace, workspace.svelte.ts, keeps them
 * and runs the work): its summary, its definition, its rows as last opened and their state, what
 * the count found damaged, and the tools run on it (index scan, column guess, recovery report).
 *
 * Per table:   resolving ──▶ pending ──select──▶ reading-schema ──▶ decoding (counting) ──▶ done | cancelled | error
 *                       └──▶ needs-schema (nothing describes it) · choose (no definition named like it)
 */
import type {
  DecodeStats, ExportedTable, GuessResult, IndexList, IndexListEntry, ListedTable, OpenedView, PartialGrid, RawTarget, ResolvedSchemaResult, RowMode, SystemTable,
  TableDef, TablespaceSummary, ViewSpec,
} from '../../../workers/decoder-api.ts';
import type { TakenCount } from '../../../workers/viewer-api.ts';
import type { DamageFigures, DamageTally } from '../recovery/damage.ts';
import type { PairedTable } from '../files/pairing.ts';
import type { TableView } from '../grid/table-view.ts';

export type TableState = 'resolving' | 'pending' | 'needs-schema' | 'choose' | 'reading-schema' | 'decoding' | 'done' | 'cancelled' | 'error';
export type SummaryState = 'waiting' | 'scanning' | 'done' | 'error';

/** An index chosen from "Scan the file for indexes", decoded instead of the one page 0 leads to. */
export interface DecodeTarget {
  index: { indexId: bigint; rootPage: number | null };
  /** Set for a raw image (no valid page 0). */
  raw?: RawTarget;
  /** The listing it was chosen from, and its line. */
  list: IndexList;
  entry: IndexListEntry;
}

/** "Scan the file for indexes" (listIndexes in a worker): reads every page once. */
export interface IndexScan {
  state: 'running' | 'done' | 'error' | 'cancelled';
  /** Bytes read so far, of `total`. */
  done: number;
  total: number;
  list: IndexList | null;
  error: string | null;
}

/** "Guess the columns": the guess to edit, and why the last apply failed. */
export interface GuessState {
  state: 'running' | 'ready' | 'error';
  result: GuessResult | null;
  error: string | null;
  applying: boolean;
}

/** A pass decoding every leaf once for the recovery report (count only numbers rows, never decodes them). */
export interface FullReport {
  state: 'running' | 'done' | 'error' | 'cancelled';
  /** Leaves read so far, of `total`. */
  leaves: number;
  total: number;
  stats: DecodeStats | null;
  error: string | null;
}

/**
 * What a table opened (or about to be) has: its row mode, rows, count and tools. Kept apart from
 * TableEntry and made on the first write: a datadir lists 50,000 tables, most never opened, and each
 * state field is an object of its own (a signal), ~40 bytes each on every entry.
 */
class TableWork {
  /** Which rows to show (row-state.ts): live, deleted, both, those of damaged pages, or all. */
  mode = $state<RowMode>('live');
  /** The table as it was before this transaction and every later one (the Transactions view); null: as it is. */
  beforeTrx = $state<number | null>(null);
  /** With `beforeTrx`, or a crash's transactions rolled back: rows the count found taken back, and rows whose earlier version is lost. */
  taken = $state.raw<TakenCount | null>(null);
  /** The secondary index whose rows the grid shows (its name in the definition); null: the table's rows. */
  indexName = $state<string | null>(null);
  /** The partial rows shown among the rows (live mode), once read from the secondary indexes; null: not shown. */
  partial = $state.raw<PartialGrid | null>(null);
  /** The rows end with DB_TRX_ID, DB_ROLL_PTR, leaf page and heap number (the Columns menu; kept for the session). */
  systemColumns = $state(false);
  /** The index to decode instead of the one page 0 leads to (chosen from `scan`). */
  target = $state.raw<DecodeTarget | null>(null);
  /** The last "Scan the file for indexes". */
  scan = $state.raw<IndexScan | null>(null);
  /** The last "Guess the columns". */
  guess = $state.raw<GuessState | null>(null);
  /** A definition the user built from the guess: decodes in place of what resolveSchema finds. */
  custom = $state.raw<TableDef | null>(null);
  /** The recovery report's pass over every leaf (of the table as last opened). */
  report = $state.raw<FullReport | null>(null);
  opened = $state.raw<OpenedView | null>(null);
  stats = $state.raw<DecodeStats | null>(null);
  /** Rows counted so far (all of them once `state` is done). */
  rowCount = $state(0);
  /** The exact row count, once every leaf page is counted (in `mode`). */
  counted = $state<number | null>(null);
  /** Bumps whenever rows arrive or are renumbered (the view itself is not reactive). */
  version = $state(0);
  elapsedMs = $state<number | null>(null);
  /** What the count of the rows on screen found damaged or unreadable so far (damage.ts). */
  damage = $state.raw<DamageFigures | null>(null);
  /** The last error is the verdict that the table definition does not fit the file. */
  mismatch = $state(false);
}

/** TableWork's fields as they read before it is made. */
const NO_WORK: Readonly<TableWork> = {
  mode: 'live', beforeTrx: null, taken: null, indexName: null, partial: null, systemColumns: false, target: null, scan: null, guess: null, custom: null,
  report: null, opened: null, stats: null, rowCount: 0, counted: null, version: 0, elapsedMs: null, damage: null, mismatch: false,
};

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
  /** The page map the listing's full summary filled (a small file's): the page map panel's, no second scan. */
  pageMap: ListedTable['pageMap'] = null;

  state = $state<TableState>('resolving');
  error = $state<string | null>(null);
  /** The rows, read on demand; only the table on screen has one. */
  view: TableView | null = null;
  /** The CSV the listing made of a tiny file (for Export all tables), and the definition it was made with. */
  listedCsv: ExportedTable | null = null;
  /**
   * Rows per leaf page from the last full count (4 bytes a page) and what it found damaged: coming
   * back to the table skips counting.
   */
  counts: { mode: RowMode; partial: boolean; beforeTrx: number | null; leaves: Int32Array; counts: Int32Array; damage: DamageTally } | null = null;
  /** The mode before "Show damaged rows" switched to one with them, to go back to. */
  modeBeforeDamaged: RowMode | null = null;
  /** The decoder's count of live rows the listing made, where the summary saw a damaged page. */
  listed = $state.raw<ListedTable['live']>(null);
  /** Made on the first write of one of its fields (TableWork). */
  #work = $state.raw<TableWork | null>(null);

  #made(): TableWork {
    return (this.#work ??= new TableWork());
  }

  get mode() { return (this.#work ?? NO_WORK).mode; }
  set mode(v) { this.#made().mode = v; }
  get beforeTrx() { return (this.#work ?? NO_WORK).beforeTrx; }
  set beforeTrx(v) { this.#made().beforeTrx = v; }
  get taken() { return (this.#work ?? NO_WORK).taken; }
  set taken(v) { this.#made().taken = v; }
  get indexName() { return (this.#work ?? NO_WORK).indexName; }
  set indexName(v) { this.#made().indexName = v; }
  get partial() { return (this.#work ?? NO_WORK).partial; }
  set partial(v) { this.#made().partial = v; }
  get systemColumns() { return (this.#work ?? NO_WORK).systemColumns; }
  set systemColumns(v) { this.#made().systemColumns = v; }
  get target() { return (this.#work ?? NO_WORK).target; }
  set target(v) { this.#made().target = v; }
  get scan() { return (this.#work ?? NO_WORK).scan; }
  set scan(v) { this.#made().scan = v; }
  get guess() { return (this.#work ?? NO_WORK).guess; }
  set guess(v) { this.#made().guess = v; }
  get custom() { return (this.#work ?? NO_WORK).custom; }
  set custom(v) { this.#made().custom = v; }
  get report() { return (this.#work ?? NO_WORK).report; }
  set report(v) { this.#made().report = v; }
  get opened() { return (this.#work ?? NO_WORK).opened; }
  set opened(v) { this.#made().opened = v; }
  get stats() { return (this.#work ?? NO_WORK).stats; }
  set stats(v) { this.#made().stats = v; }
  get rowCount() { return (this.#work ?? NO_WORK).rowCount; }
  set rowCount(v) { this.#made().rowCount = v; }
  get counted() { return (this.#work ?? NO_WORK).counted; }
  set counted(v) { this.#made().counted = v; }
  get version() { return (this.#work ?? NO_WORK).version; }
  set version(v) { this.#made().version = v; }
  get elapsedMs() { return (this.#work ?? NO_WORK).elapsedMs; }
  set elapsedMs(v) { this.#made().elapsedMs = v; }
  get damage() { return (this.#work ?? NO_WORK).damage; }
  set damage(v) { this.#made().damage = v; }
  get mismatch() { return (this.#work ?? NO_WORK).mismatch; }
  set mismatch(v) { this.#made().mismatch = v; }
  #countWaiters: (() => void)[] = [];

  constructor(paired: PairedTable) {
    this.key = paired.key;
    this.paired = paired;
  }

  get file(): File {
    return this.paired.ibd.file;
  }

  /** The B-tree to read instead of the one page 0 leads to: an index chosen from a scan, or a system tablespace table's own. */
  get index(): ViewSpec['index'] {
    return this.target?.index ?? this.paired.system?.index ?? undefined;
  }

  /** Read as a raw image (no valid page 0; a system tablespace's dropped index whose root is lost): ViewSpec.raw. */
  get raw(): ViewSpec['raw'] {
    return this.target?.raw ?? this.paired.system?.raw ?? undefined;
  }

  /**
   * A table inside a system tablespace, as its dictionary listing found it: no summary of its own (the
   * file is the whole ibdata1's), its rows counted, its definition the dictionary's or its .frm's; a
   * dropped index whose table's dictionary rows are lost waits for a definition; one named before it
   * is listed (pending) keeps resolving.
   */
  takeSystem(t: SystemTable): void {
    // (named before it is listed: opened, it is resolved by its name with its .frm, as a listed one)
    if (t.pending || t.source !== null) this.chosen = t.name;
    if (t.pending) return;
    this.summaryState = 'done';
    if (t.rows !== null) this.listed = { rows: t.rows, damagedPages: 0, unreadablePages: 0 };
    if (t.source !== null) {
      const choice = { name: t.name, columnCount: t.columnCount, source: t.source, clusteredIndex: t.index };
      this.setResolved({ tables: [choice], picked: t.name, source: t.source, file: t.file, warnings: t.notes, error: null });
    } else {
      const error = `the data dictionary no longer lists the table of index ${t.index?.indexId ?? '?'}: give its CREATE TABLE (a .sql or its .frm), or guess the columns`;
      this.setResolved({ tables: [], picked: null, source: null, file: null, warnings: [], error });
    }
    this.settle();
  }

  /** The table's path in the files given: its .ibd's; a system tablespace's table's beside the ibdata1, as `db/table`. */
  get path(): string {
    const { ibd, system } = this.paired;
    if (!system) return ibd.path;
    const cut = ibd.path.lastIndexOf('/');
    return cut < 0 ? system.name : `${ibd.path.slice(0, cut)}/${system.name}`;
  }

  /** Whether a secondary index's rows can be shown: a table of its own file (a general tablespace's, or partitions), not ibdata1's or a raw image's. */
  get indexable(): boolean {
    return !this.paired.system && !this.target;
  }

  /** Table name for display (with the partition). */
  get label(): string {
    const n = this.paired.name;
    const parts = this.paired.partitions?.length ?? 0;
    if (parts > 0) return `${n.table} (${parts} partition${parts === 1 ? '' : 's'})`;
    return n.partition ? `${n.table} (partition ${n.partition})` : n.table;
  }

  /** The table definition to decode with, by name (null: none yet). */
  get tableName(): string | null {
    return this.custom?.name ?? this.chosen ?? this.resolved?.picked ?? null;
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

  /**
   * The table's rows in its row mode, as the page shows them: the count of its leaves once done;
   * before it, the live rows as the listing's decoder counted them, else as the summary did where
   * it saw no damage (it counts a damaged page's records, which a read withholds); null: unknown.
   */
  get rows(): number | null {
    if (this.counted !== null) return this.counted;
    // (a partitioned table's listing read its first partition only)
    if (this.mode !== 'live' || this.paired.partitions) return null;
    if (this.listed) return this.listed.rows;
    const s = this.summary;
    return s && s.checksums.bad === 0 && s.problems.length === 0 ? s.rows : null;
  }

  /** Damaged leaf pages of the table, as far as known (the count, else the listing; 0: none known). */
  get damagedPages(): number {
    return this.damage?.damagedPages ?? this.listed?.damagedPages ?? 0;
  }

  /** What resolveSchema found; a table chosen before that it no longer offers is forgotten. */
  setResolved(resolved: ResolvedSchemaResult): void {
    this.resolved = resolved;
    if (this.chosen && !resolved.tables.some((t) => t.name === this.chosen)) this.chosen = null;
  }

  /** The state the definitions known so far give (unless the table is being or has been read). */
  settle(): void {
    if (this.busy || this.state === 'done' || this.state === 'cancelled' || this.state === 'error') return;
    const r = this.resolved;
    if (this.custom) this.state = 'pending';
    else if (!r) this.state = 'resolving';
    else if (this.tableName) this.state = 'pending';
    else if (r.tables.length > 0) this.state = 'choose';
    else this.state = 'needs-schema';
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
