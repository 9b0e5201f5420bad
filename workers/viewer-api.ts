/**
 * The page's own decoder-worker methods (implemented in viewer-methods.ts, exposed by
 * decoder.worker.ts as part of `DecoderApi`):
 *
 *  - `summarize(ibd, name, progress)`: what the file is, before any row (src/core/summary.ts):
 *    page size, flags, server hints, index heights, a checksum check of every page and the exact row
 *    count. Needs no table definition. `progress` (a comlink proxy) gets snapshots as the scan goes.
 *  - `decodeBatches(ibd, name, tableName, sink)`: the rows of a table defined by the last
 *    `readSchema`, as compact `RowBatch`es (src/core/row-batch.ts: one UTF-8 buffer + offsets +
 *    NULL flags per batch) whose buffers are *transferred* to the page, not copied. The page keeps
 *    only these batches, so a million rows cost tens of MB rather than a JS object per cell.
 *  - `exportRows(ibd, name, tableName, options, sink)`: decodes the table again and streams the
 *    export file (CSV / NDJSON / SQL) as UTF-8 chunks to `sink.chunk`, which is awaited (so the
 *    worker never runs ahead of the disk). The page runs each export in a worker of its own and ends
 *    it with `terminate()` on Cancel: that stops it at once, wherever it is.
 *  - `stopView()`: aborts the running `summarize` / `decodeBatches` / `exportRows` of this worker.
 */
import type * as Comlink from 'comlink';
import type { CsvOptions } from '../src/core/output.ts';
import type { RowBatch } from '../src/core/row-batch.ts';
import type { TablespaceSummary } from '../src/core/summary.ts';
import type { DecodeStats, TableInfo } from '../src/core/table-reader.ts';

export type { CsvOptions, RowBatch, TablespaceSummary };

/** What the page needs to know about one output column. */
export interface ColumnInfo {
  name: string;
  /** The type as written in SQL, e.g. `int unsigned`, `varchar(40)`, `decimal(10,2)`. */
  sqlType: string;
  /** Integer, decimal or floating-point: right-aligned, compared as numbers. */
  numeric: boolean;
  /** Shown as 0x hex (binary strings, BLOBs, BIT, geometry). */
  binary: boolean;
  nullable: boolean;
}

/** Sent once per decodeBatches, before any batch. */
export interface OpenedView {
  table: string;
  columns: string[];
  columnInfo: ColumnInfo[];
  /** Output column indexes of the clustered index key (PRIMARY KEY, or the unique key InnoDB used); [] for a hidden row id. */
  keyColumns: number[];
  info: TableInfo;
  /** The CREATE TABLE statement the table was read with. */
  createSql: string;
}

export interface BatchSink {
  opened(view: OpenedView): void;
  /** One batch of rows in primary-key order; awaited. */
  batch(batch: RowBatch, stats: DecodeStats): void | Promise<void>;
}

export interface ViewResult {
  status: 'done' | 'cancelled';
  stats: DecodeStats;
}

export type ExportFormat = 'csv' | 'ndjson' | 'sql';

export interface ExportOptions {
  format: ExportFormat;
  csv?: CsvOptions;
  /** CSV: write the header line (default true). */
  csvHeader?: boolean;
  /** SQL: rows per INSERT statement (default 1000). */
  sqlRowsPerInsert?: number;
  /** Bytes of text gathered before a chunk is sent (default 1 MiB). */
  chunkBytes?: number;
}

export interface ExportSink {
  /** UTF-8 bytes of the export file, in order; `rows` is the number of rows written so far. Awaited. */
  chunk(bytes: Uint8Array, rows: number): void | Promise<void>;
}

export interface ExportResult {
  rows: number;
  bytes: number;
  stats: DecodeStats;
}

export interface ViewerApi {
  summarize(
    ibd: Blob,
    name: string,
    progress?: ((summary: TablespaceSummary) => void) & Comlink.ProxyMarked,
  ): Promise<TablespaceSummary>;
  decodeBatches(
    ibd: Blob,
    name: string,
    tableName: string,
    sink: BatchSink & Comlink.ProxyMarked,
    options?: { batchSize?: number },
  ): Promise<ViewResult>;
  exportRows(
    ibd: Blob,
    name: string,
    tableName: string,
    options: ExportOptions,
    sink: ExportSink & Comlink.ProxyMarked,
  ): Promise<ExportResult>;
  stopView(): void;
}
