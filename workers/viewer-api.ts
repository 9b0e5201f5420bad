/**
 * The page's own decoder-worker methods (implemented in viewer-methods.ts, exposed by
 * decoder.worker.ts as part of `DecoderApi`). The page runs a pool of these workers (src/ui/pool.ts);
 * each opens the same File by Blob slices and works on runs of leaf pages, so nothing grows with the
 * table size:
 *
 *  - `summarize` / `quickSummary`: what the file is, before any row (src/core/readers/summary.ts).
 *  - `openView(spec)`: opens the table (definition, row mode, encryption keys) in this worker; every
 *    other view method works on the table last opened.
 *  - `leafPages()`: the clustered index's leaf pages in key order (read off the level above);
 *    `firstLeaf()`: the first of them found down the leftmost node pointers, decoded (the first
 *    screen; the decoder's `resolveAndOpen` opens the table, decodes it and plans the leaves in one
 *    call, TableView.open has one worker decode it while another plans).
 *  - `checkDefinition()`: whether the table definition fits the file (its first undamaged leaf), before
 *    any row is shown: a DefinitionMismatch (named so) when it does not.
 *  - `countLeaves(pages)`: rows on each of those pages, without decoding them (src/core/readers/leaf-counts.ts),
 *    and what the damaged ones among them hold (leaf-damage.ts).
 *  - `decodeLeaves(pages)`: one compact RowBatch per page, *transferred* to the page (not copied).
 *  - `searchLeaves(pages, query)`: decodes and searches a run; returns each page's row count and the
 *    matching (page, row) pairs, never the rows.
 *  - `exportLeaves(pages, options, as)`: a run formatted (CSV / NDJSON / SQL, Parquet row groups) into a Blob made in the
 *    worker, or into bytes handed over; `exportEdge` gives the header / preamble and the postamble.
 *  - `stats()`: this worker's decode statistics since `openView`.
 */
import type { WhereCondition } from '../src/core/readers/where-parse.ts';
import type * as Comlink from 'comlink';
import type { EncryptionKeys } from '../src/core/tablespace/encryption.ts';
import type { CsvOptions } from '../src/core/writers/output.ts';
import type { ParquetGroups, ParquetPart } from '../src/core/writers/parquet-row-groups.ts';
import type { RowBatch } from '../src/core/values/row-batch.ts';
import type { TableDef } from '../src/core/schema.ts';
import type { TablespaceSummary } from '../src/core/readers/summary.ts';
import type { MappedRange } from '../src/core/readers/page-map-fill.ts';
import type { DecodeStats, OpenOptions, RowMode, TableInfo } from '../src/core/readers/table-reader.ts';
import type { RawTarget } from '../src/core/tablespace/orphan-scan.ts';
import type { NamedBlob } from './schema-api.ts';
import type { BeforeTrx } from './undo-methods.ts';
import type { RedoNotice } from './redo-api.ts';

export type { CsvOptions, EncryptionKeys, RawTarget, RowBatch, RowMode, TableDef, TablespaceSummary };

/** The `name` of the error checkDefinition() rejects with when the table definition does not fit the file. */
export const DEFINITION_MISMATCH = 'DefinitionMismatch';

/** What the page needs to know about one output column. */
export interface ColumnInfo {
  name: string;
  /** The type as written in SQL, e.g. `int unsigned`, `varchar(40)`, `decimal(10,2)`. */
  sqlType: string;
  /** Integer, decimal or floating-point: right-aligned, compared as numbers. */
  numeric: boolean;
  /** Shown as 0x hex (binary strings, BLOBs, BIT). */
  binary: boolean;
  nullable: boolean;
}

/** Everything a worker needs to open a table: the same in every worker of a pool. */
export interface ViewSpec {
  ibd: Blob;
  /** The file name, for messages (a Blob has none). */
  name: string;
  table: TableDef;
  mode: RowMode;
  keys?: EncryptionKeys;
  /** Which index to decode (a table of a general tablespace, an index of a raw image): OpenOptions.index. */
  index?: OpenOptions['index'];
  /** A raw image without a valid page 0 (from listIndexes): OpenOptions.raw. */
  raw?: RawTarget;
  /** The zone TIMESTAMP values are shown in (OpenOptions.timeZone; default UTC). */
  timeZone?: string;
  /**
   * Read the table's secondary index of this name (from the definition) instead of its rows: its
   * columns, then the primary key's, in the index's order (TableOptions.index; its tree is found by
   * the file's data dictionary or InnoDB's creation order); with `partitions`, each partition's. Not with `raw`.
   */
  indexName?: string;
  /** A partitioned table: the files of its partitions (`ibd` is the first of them), read as one table (partition-view.ts). */
  partitions?: NamedBlob[];
  /** Beside them: the table's .par, which orders its partitions. */
  companions?: NamedBlob[];
  /**
   * The partial rows shown among the rows (partial-view.ts): the rows of lost clustered leaves made
   * from the secondary indexes (partial-methods.ts). Live mode of a table's clustered index only (a partitioned table's too).
   */
  partial?: PartialGrid;
  /**
   * The table as it was before transaction N and every later one changed it (the CLI's --before-trx),
   * from the datadir's undo logs (undo-methods.ts): changed cells come marked (RowBatch.changed),
   * rows whose earlier version is gone are history-lost (withheld and counted, or marked in modes
   * that show them). A table's clustered index, of its own file or its partitions' (no secondary index, no raw image).
   */
  undo?: BeforeTrx;
  /** Rows end with DB_TRX_ID, DB_ROLL_PTR, leaf page and heap number (TableOptions.systemColumns; the Columns menu). */
  systemColumns?: boolean;
}

/** Partial rows as the grid shows them: the table's columns then `_row_state` (partial), an absent cell holding its mark. */
export interface PartialGrid {
  rows: (string | null)[][];
  /** Per row, the lost leaf page it takes the place of (the first of its run of lost leaves). */
  pages: number[];
}

/** What `openView` found. */
export interface OpenedView {
  table: string;
  columns: string[];
  columnInfo: ColumnInfo[];
  /**
   * Output column indexes of the key the rows are in order of: the clustered index's (PRIMARY KEY, or
   * the unique key InnoDB used; [] for a hidden row id), or a secondary index's fields (its columns,
   * then the primary key's).
   */
  keyColumns: number[];
  /** What opening said of the index read (a secondary index's tree taken by InnoDB's creation order, unchecked). */
  warnings: string[];
  /** With ViewSpec.undo: what reading the undo logs said (a transaction whose history is gone …). */
  undoNotes?: string[];
  /** Output column index of `_row_state` (deleted / both modes), else -1. */
  stateColumn: number;
  mode: RowMode;
  info: TableInfo;
  /** The CREATE TABLE statement the table was read with. */
  createSql: string;
  /** What its datadir's redo log did to the file's pages (a dropped datadir with its log), else null. */
  redo: RedoNotice | null;
  /**
   * A partitioned table: its partitions in order, each with the table's leaf its leaves begin at (its
   * rows end with `_partition`), what the partitions' reading said (a partition not given), and why
   * its rows cannot be sorted into the key's order across partitions (an R-tree, a hidden row id), or
   * null when they can (RunSort.index).
   */
  partitions: { parts: { name: string; start: number }[]; warnings: string[]; unmerged: string | null } | null;
}

/**
 * A text filter, an exact key match (`columns` / `values`: every one must equal), or a typed filter
 * (`text` as typed, parsed into `conditions`: src/core/readers/where-parse.ts).
 */
export type RowQuery =
  | { kind: 'text'; text: string; column: number | null; matchCase: boolean }
  | { kind: 'where'; text: string; conditions: WhereCondition[] }
  | { kind: 'key'; columns: number[]; values: string[]; fold: boolean; firstOnly: boolean };

export interface SearchResult {
  /** Rows each page of the run decoded to (a key search that found its row stops there: fewer). */
  counts: Int32Array;
  /** Matches: index of the page in the run, and row on that page (same length). */
  pageOf: Int32Array;
  rowOf: Int32Array;
  stats: DecodeStats;
  /** The statistics of this run alone (a search over every run gives the full recovery report). */
  runStats: DecodeStats;
}

export interface DecodedLeaves {
  /** One batch per page asked for, in order. */
  batches: RowBatch[];
  stats: DecodeStats;
}

/** A damaged page of a counted run (it fails its checksum or a structural check), as its decode found it. */
export interface DamagedLeaf {
  /** Index of the page in the run. */
  at: number;
  /** Its rows the row mode returns (of state `damaged`). */
  rows: number;
  /** Its rows the mode leaves out that it would return from an intact page. */
  withheld: number;
  /** Its records that could not be read back at all. */
  lost: number;
  /** Of the records read back, those carved from the page body past a broken record list. */
  carved: number;
  /** The decoder's line about the page (why it is damaged, what was read back); null if it made none. */
  reason: string | null;
}

export interface LeafCounts {
  /** Rows on each page of the run (UNCOUNTED, -1, where it cannot be read as a leaf of the table). */
  counts: Int32Array;
  /** The damaged pages of the run, in order. */
  damaged: DamagedLeaf[];
  /** Asked for (`countLeaves` with `map`): each range of pages the count read, as the page map records them. */
  mapped?: MappedRange[];
  /** With ViewSpec.undo or a crash's rollback (every leaf then decoded to count it): rows taken back, and rows whose earlier version is lost. */
  versions?: TakenCount;
}

/** Rows a count found taken back by one transaction: updated or deleted rows restored, inserted rows removed. */
export interface TrxTaken {
  trx: number;
  restored: number;
  removed: number;
}

/** What a count of a table read without some transactions' changes found: rows taken back (per transaction) and rows whose earlier version is lost. */
export interface TakenCount {
  rolledBack: number;
  historyLost: number;
  byTrx: TrxTaken[];
}

/** `b` added to `a` (none yet: undefined or null). */
export function addTaken(a: TakenCount | null | undefined, b: TakenCount): TakenCount {
  const byTrx = (a?.byTrx ?? []).map((t) => ({ ...t }));
  for (const t of b.byTrx) {
    const at = byTrx.find((x) => x.trx === t.trx);
    if (at) {
      at.restored += t.restored;
      at.removed += t.removed;
    } else byTrx.push({ ...t });
  }
  return { rolledBack: (a?.rolledBack ?? 0) + b.rolledBack, historyLost: (a?.historyLost ?? 0) + b.historyLost, byTrx: byTrx.sort((x, y) => x.trx - y.trx) };
}

export interface LeafPlan {
  leaves: Int32Array;
  stats: DecodeStats;
}

/** The table's first leaf page, decoded (the first screen). */
export interface FirstLeaf {
  page: number;
  batch: RowBatch;
  stats: DecodeStats;
}

export type ExportFormat = 'csv' | 'ndjson' | 'sql' | 'parquet';

export interface ExportOptions {
  format: ExportFormat;
  csv?: CsvOptions;
  /** CSV: write the header line (default true). */
  csvHeader?: boolean;
  /** NDJSON: every value a string, as CSV shows it (default: numbers and BIT as JSON numbers where exact). */
  jsonStrings?: boolean;
  /** SQL: rows per INSERT statement (default 1000). */
  sqlRowsPerInsert?: number;
  /** Only the rows this filter matches (the grid's filter). */
  filter?: RowQuery;
  /** Each run's rows last first (an export in descending key order, whose runs go last first too). */
  reverse?: boolean;
  /** CSV and NDJSON: only these output columns, in this order (the grid's visible columns); else every one. */
  columns?: number[];
}

export interface ExportedRun {
  /** The run's output, made into a Blob in the worker, or its bytes (the page only passes either on). */
  data: Blob | Uint8Array<ArrayBuffer>;
  rows: number;
  stats: DecodeStats;
  /** Parquet: the run's row groups (their bytes are `data`), for the page to lay out in the file (parquet-row-groups.ts). */
  parquet?: ParquetPart;
}

export interface ViewerApi {
  summarize(
    ibd: Blob,
    name: string,
    progress?: ((summary: TablespaceSummary) => void) & Comlink.ProxyMarked,
    keys?: EncryptionKeys,
  ): Promise<TablespaceSummary>;
  /** Page 0 and the index roots only: a few small reads. */
  quickSummary(ibd: Blob, name: string, keys?: EncryptionKeys): Promise<TablespaceSummary>;
  /** The definition of a table of the last readSchema / resolveSchema (to open it in other workers). */
  tableDef(tableName: string): Promise<TableDef>;
  openView(spec: ViewSpec): Promise<OpenedView>;
  /** With the worker's statistics: a tree that had to be scanned for its leaves is a problem to report. */
  leafPages(): Promise<LeafPlan>;
  /** The first leaf found by descending the leftmost node pointers, decoded; null when the tree cannot be descended. */
  firstLeaf(): Promise<FirstLeaf | null>;
  /** Rejects with a DefinitionMismatch (its `name`) when the definition does not fit the file. */
  checkDefinition(): Promise<void>;
  /** `map`: every page the count reads comes back recorded for the page map too (`mapped`). */
  countLeaves(pages: Int32Array, map?: boolean): Promise<LeafCounts>;
  /** `first`: the run starts at the table's first leaf (a definition mismatch there is an error). */
  decodeLeaves(pages: Int32Array, first: boolean): Promise<DecodedLeaves>;
  searchLeaves(pages: Int32Array, first: boolean, query: RowQuery): Promise<SearchResult>;
  /** `spare`: a buffer to put the bytes in (`as` 'bytes'), when large enough, rather than a new one. */
  exportLeaves(pages: Int32Array, first: boolean, options: ExportOptions, as?: 'blob' | 'bytes', spare?: ArrayBuffer): Promise<ExportedRun>;
  /** Parquet's tail is the footer of `parquet`, the row groups as the page laid them out. */
  exportEdge(options: ExportOptions, edge: 'head' | 'tail', parquet?: ParquetGroups): Promise<Blob>;
  /** The LOAD DATA statement of a CSV export written for it (`csv.loadData`), named `csvFile` (load-data.ts). */
  loadDataStatement(csvFile: string): Promise<string>;
  stats(): Promise<DecodeStats>;
  /**
   * Decodes a run of leaves for the recovery report only (no rows come back): the decode statistics
   * of this run alone, so that adding up the runs of one pass over the leaves counts each page once.
   */
  reportLeaves(pages: Int32Array): Promise<DecodeStats>;
  /** Aborts the running `summarize`. */
  stopView(): void;
}
