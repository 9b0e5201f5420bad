/**
 * The contract between the page and the decoder Web Worker, bridged by comlink. Both sides import
 * these types: the worker implements `DecoderApi` and exposes it; the page calls it through
 * `connectDecoder()` (decoder-connection.ts), which returns a typed `Remote<DecoderApi>`. Types only:
 * the worker module imports them, and nothing here imports the worker.
 *
 * Flow: `readSchema(sqlFile, ibdName)` parses the CREATE TABLE text in the worker (a mysqldump can be
 * large; the page never holds it) and says which table matches the .ibd; `tableDef(name)` hands that
 * definition to the page, which opens it in every worker of its pool (`openView`, viewer-api.ts).
 * Errors about the user's files reject with the IbdError's message (comlink carries `name` and
 * `message` of thrown errors across).
 *
 * Without a .sql: `resolveSchema(ibdFile, ibdName, otherFiles)` finds the definition in the .ibd
 * itself (MySQL 8 data dictionary), else in a .frm named like it among `otherFiles`, else in the .sql
 * files among them; the tables it finds can then be decoded by name like readSchema's.
 * `createSql(tableName)` gives the CREATE TABLE text (rebuilt from the data dictionary or the .frm).
 */
import type { DecodeStats, TableInfo } from '../src/core/readers/table-reader.ts';
import type { EncryptionKeys } from '../src/core/tablespace/encryption.ts';
import type { FirstLeaf, LeafPlan, OpenedView, TableDef, ViewerApi, ViewSpec } from './viewer-api.ts';
import type { RecoveryMethods } from './recovery-methods.ts';
import type { GuessMethods } from './guess-methods.ts';
import type { ListMethods } from './list-methods.ts';
import type { PageMapMethods } from './page-map-methods.ts';
import type { SortMethods } from './sort-methods.ts';
import type { IndexEntries, PartialMethods, PartialResult } from './partial-methods.ts';
import type { KeySeekMethods } from './key-seek.ts';
import type { SystemMethods } from './system-methods.ts';
import type { UndoMethods } from './undo-methods.ts';
import type { NamedBlob, ResolvedSchemaResult, SchemaResult } from './schema-api.ts';
import type { DatadirLog } from './redo-api.ts';
import type { LogCensus } from '../src/core/log/redo-scan.ts';

export type { DecodeStats, TableInfo };
export type * from './viewer-api.ts';
export type * from './schema-api.ts';
export type * from './redo-api.ts';
export type { IndexList, IndexListEntry } from './recovery-methods.ts';
export type { ColumnEdit, GuessResult, GuessedTableInfo } from './guess-methods.ts';
export type { ExportedTable, ExportFormat, ListedTable, ListItem } from './list-methods.ts';
export type { SystemListing, SystemProgress, SystemTable } from './system-methods.ts';
export type { KeySeek } from './key-seek.ts';
export type { BeforeTrx, RevertDone, RevertRequest, TransactionList, UndoBlobs } from './undo-methods.ts';
export type { TableChanges, TransactionInfo } from '../src/lib/datadir-undo.ts';
export type { IndexEntries, PartialResult };
export type { BTreeLevels, IndexName, MappedRange, PackedPageMap, PageBucket, PageCells, PageInspection, PageMapEntry } from './page-map-methods.ts';

/**
 * The page's summary / view / export methods are in viewer-api.ts; listing the indexes of a raw image
 * in recovery-methods.ts; guessing the columns of a file with no definition in guess-methods.ts; the
 * page map and the page inspector in page-map-methods.ts.
 */
export interface DecoderApi extends ViewerApi, PartialMethods, SortMethods, KeySeekMethods, RecoveryMethods, GuessMethods, ListMethods, PageMapMethods, SystemMethods, UndoMethods {
  /** Parses the .sql (File, Blob or text) and picks the table matching `ibdName`. */
  readSchema(sql: Blob | string, ibdName: string): Promise<SchemaResult>;
  /**
   * Finds the definition of `ibd` with no CREATE TABLE typed: the file's own data dictionary, else a
   * .frm named like it among `files`, else the .sql files among them (see src/core/definitions/schema-source.ts).
   * Replaces the tables of the last readSchema / resolveSchema. `chosen`: the table of a system
   * tablespace to be opened (its definitions only, that one picked; see resolveSystem).
   */
  resolveSchema(ibd: Blob, ibdName: string, files: NamedBlob[], chosen?: string | null): Promise<ResolvedSchemaResult>;
  /**
   * resolveSchema, then, when a table is picked (`want.chosen` if the files define it), openView with
   * it, checkDefinition, firstLeaf and leafPages, all in this worker: the first screen needs no round
   * trip through the page, whose main thread is busy drawing the file just dropped. `opened` is null
   * when no table is picked, or when opening fails or the definition does not fit (the page then
   * opens it the usual way, which reports why).
   */
  resolveAndOpen(ibd: Blob, ibdName: string, files: NamedBlob[], want: OpenWish): Promise<ResolvedOpen>;
  /** The CREATE TABLE text of a table of the last readSchema / resolveSchema. */
  createSql(tableName: string): Promise<string>;
  /** The files of each dropped datadir are read from now on through its own redo log (redo-sources.ts); none: as they are. */
  useDatadirLogs(logs: DatadirLog[]): void;
  /** The census of a redo log (one scan, no page indexed; an encrypted one's with `keys`' key 1), taken in one worker for all (null: not MariaDB 10.8+'s). */
  redoCensus(log: NamedBlob, keys?: EncryptionKeys): Promise<LogCensus | null>;
  /** The census of the log whose censusKey is `key`, for the files read through it from now on (null: each worker reads the log itself). */
  useRedoCensus(key: string, census: LogCensus | null): void;
}

/** How to open the table resolveAndOpen picks: what a ViewSpec has besides the file and the definition. */
export interface OpenWish extends Omit<ViewSpec, 'ibd' | 'name' | 'table'> {
  /** The table the user chose among the files' definitions, if any. */
  chosen: string | null;
}

export interface ResolvedOpen {
  resolved: ResolvedSchemaResult;
  /** The definition picked (chosen, else resolveSchema's pick); null when none is. */
  table: TableDef | null;
  /** The table as opened (with `want` and the picked definition), its first leaf and leaf plan. */
  opened: { view: OpenedView; first: FirstLeaf | null; plan: LeafPlan } | null;
}
