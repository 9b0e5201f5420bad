/**
 * The contract between the page and the decoder Web Worker, bridged by comlink. Both sides import
 * these types: the worker implements `DecoderApi` and exposes it; the page calls it through
 * `connectDecoder()`, which returns a typed `Remote<DecoderApi>`.
 *
 * Flow: `readSchema(sqlFile, ibdName)` parses the CREATE TABLE text in the worker (a mysqldump can be
 * large; the page never holds it) and says which table matches the .ibd. Then
 * `decode(ibdFile, tableName, sink)` opens the table and pushes row batches to `sink` (a
 * `comlink.proxy` object living on the page); each `sink.batch()` call is awaited, so the worker never
 * runs ahead of the page. `cancel()` aborts the running decode through its AbortSignal; `decode` then
 * resolves with `status: 'cancelled'`. Errors about the user's files reject with the IbdError's
 * message (comlink carries `name` and `message` of thrown errors across).
 */
import * as Comlink from 'comlink';
import type { DecodeStats, Row, TableInfo } from '../src/core/table-reader.ts';

export type { DecodeStats, Row, TableInfo };

/** One CREATE TABLE found in the .sql file. */
export interface TableChoice {
  name: string;
  columnCount: number;
}

export interface SchemaResult {
  /** Every table defined in the .sql text, in file order. */
  tables: TableChoice[];
  /** The table whose name matches the .ibd file name, or the only table; null when the user must choose. */
  picked: string | null;
}

/** Sent once, when the table is open and before any rows. */
export interface OpenedTable {
  table: string;
  columns: string[];
  info: TableInfo;
}

export interface DecodeResult {
  status: 'done' | 'cancelled';
  stats: DecodeStats;
}

/** Lives on the page; the worker calls it through a comlink proxy. */
export interface DecodeSink {
  opened(table: OpenedTable): void;
  /** A batch of rows in primary-key order, with the decoder's counters as of this batch. */
  batch(rows: Row[], stats: DecodeStats): void | Promise<void>;
}

export interface DecodeOptions {
  /** Rows per batch (default 2000). */
  batchSize?: number;
}

export interface DecoderApi {
  /** Parses the .sql (File, Blob or text) and picks the table matching `ibdName`. */
  readSchema(sql: Blob | string, ibdName: string): Promise<SchemaResult>;
  /**
   * Decodes `ibd` as table `tableName` of the last `readSchema` call, streaming to `sink`.
   * `name` is the file name to use in messages (a Blob has none).
   */
  decode(
    ibd: Blob,
    name: string,
    tableName: string,
    sink: DecodeSink & Comlink.ProxyMarked,
    options?: DecodeOptions,
  ): Promise<DecodeResult>;
  /** Aborts the running decode, if any. */
  cancel(): void;
}

export interface DecoderConnection {
  api: Comlink.Remote<DecoderApi>;
  /** Hard stop: kills the worker (used when a cancel is not honoured in time). */
  terminate(): void;
}

/** Starts a decoder worker and wraps it. Page side only. */
export function connectDecoder(): DecoderConnection {
  const worker = new Worker(new URL('./decoder.worker.ts', import.meta.url), {
    type: 'module',
    name: 'ibd-decoder',
  });
  const api = Comlink.wrap<DecoderApi>(worker);
  return {
    api,
    terminate() {
      api[Comlink.releaseProxy]();
      worker.terminate();
    },
  };
}

/** Wraps a page-side sink so the worker can call it. */
export function sinkProxy(sink: DecodeSink): DecodeSink & Comlink.ProxyMarked {
  return Comlink.proxy(sink);
}
