/**
 * Implementation of `ViewerApi` (see viewer-api.ts), mixed into the decoder worker's API. Plain
 * TypeScript over the decoder core; `lookup` finds a table of the worker's last `readSchema`.
 */
import * as Comlink from 'comlink';
import {
  csvHeader, csvRows, ndjsonRows, sqlColumns, sqlInserts, sqlPostamble, sqlPreamble,
} from '../src/core/output.ts';
import { csvBytes } from '../src/core/csv-bytes.ts';
import { BatchBuilder, batchBuffers, type RowBatch } from '../src/core/row-batch.ts';
import type { Column, TableDef } from '../src/core/schema.ts';
import { blobSource } from '../src/core/source.ts';
import { summarize } from '../src/core/summary.ts';
import { openTable, type DecodeStats, type Row } from '../src/core/table-reader.ts';
import { batchToRows } from '../src/ui/batch-text.ts';
import type {
  BatchSink, ColumnInfo, ExportOptions, ExportResult, ExportSink, OpenedView, ViewerApi, ViewResult,
} from './viewer-api.ts';

function snapshot(stats: DecodeStats): DecodeStats {
  return { ...stats, problems: stats.problems.slice() };
}

const NUMERIC = new Set(['tinyint', 'bool', 'smallint', 'mediumint', 'int', 'bigint', 'decimal', 'float', 'double']);
const BINARY = new Set([
  'bit', 'binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob',
  'geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection',
]);

function sqlType(c: Column): string {
  let t = c.type;
  if (c.type === 'decimal' || ((c.type === 'float' || c.type === 'double') && c.precision > 0)) {
    t += `(${c.precision},${c.scale})`;
  } else if (c.length > 0 && c.type !== 'bool') {
    t += `(${c.length})`;
  } else if (c.fsp > 0) {
    t += `(${c.fsp})`;
  }
  if (c.unsigned) t += ' unsigned';
  return t;
}

export function columnInfo(table: TableDef, columns: readonly string[]): ColumnInfo[] {
  const byName = new Map(table.columns.map((c) => [c.name.toLowerCase(), c]));
  return columns.map((name) => {
    const c = byName.get(name.toLowerCase());
    if (!c) return { name, sqlType: '', numeric: false, binary: false, nullable: true };
    return {
      name,
      sqlType: sqlType(c),
      numeric: NUMERIC.has(c.type),
      binary: BINARY.has(c.type) || (c.charset === 'binary' && /char|text/.test(c.type)),
      nullable: c.nullable,
    };
  });
}

/** Output column indexes of the key InnoDB clusters the rows on. */
export function keyColumns(table: TableDef, columns: readonly string[], clusteredOn: string): number[] {
  let index = table.indexes.find((i) => i.kind === 'primary');
  if (!index && clusteredOn === 'unique') {
    const notNull = new Set(table.columns.filter((c) => !c.nullable).map((c) => c.name.toLowerCase()));
    index = table.indexes.find((i) => i.kind === 'unique' && i.columns.every((k) => k.prefix === 0 && notNull.has(k.name.toLowerCase())));
  }
  if (!index || clusteredOn === 'row_id') return [];
  const lower = columns.map((c) => c.toLowerCase());
  const out = index.columns.map((k) => lower.indexOf(k.name.toLowerCase()));
  return out.every((i) => i >= 0) ? out : [];
}

/** Packs decoded rows into a RowBatch (one UTF-8 buffer, offsets, NULL flags): for tests. */
export function packRows(rows: readonly Row[], cols: number, builder = new BatchBuilder(cols, rows.length)): RowBatch {
  for (const row of rows) {
    const base = builder.startRow();
    for (let c = 0; c < cols; c++) {
      const v = row[c];
      if (v !== null && v !== undefined) builder.setString(base + c, v);
    }
  }
  return builder.take();
}

export function createViewerMethods(lookup: (tableName: string) => TableDef | undefined): ViewerApi {
  const running = new Set<AbortController>();

  function begin(): AbortController {
    const controller = new AbortController();
    running.add(controller);
    return controller;
  }

  function tableOrThrow(tableName: string): TableDef {
    const table = lookup(tableName);
    if (!table) throw new Error(`Table ${tableName} is not defined in the schema that was read.`);
    return table;
  }

  return {
    async summarize(ibd, name, progress) {
      const controller = begin();
      try {
        let last = 0;
        let counted = false;
        return await summarize(blobSource(ibd, name), {
          signal: controller.signal,
          progressPages: 1024,
          onProgress: (s) => {
            const now = Date.now();
            // At most ~8 updates a second, plus the first, the row count as soon as it is known, and the last.
            const countNow = !counted && s.rows !== null;
            if (progress && (s.pagesScanned === 0 || countNow || s.complete || now - last > 120)) {
              last = now;
              counted ||= countNow;
              void progress(s);
            }
          },
        });
      } finally {
        running.delete(controller);
      }
    },

    async decodeBatches(ibd, name, tableName, sinkProxy, options = {}) {
      const sink = sinkProxy as unknown as Comlink.Remote<BatchSink>;
      const table = tableOrThrow(tableName);
      const controller = begin();
      const { signal } = controller;
      try {
        const reader = await openTable(blobSource(ibd, name), table);
        const view: OpenedView = {
          table: table.name,
          columns: reader.columns.slice(),
          columnInfo: columnInfo(table, reader.columns),
          keyColumns: keyColumns(table, reader.columns, reader.info.clusteredOn),
          info: { ...reader.info },
          createSql: table.createSql,
        };
        if (signal.aborted) return { status: 'cancelled', stats: snapshot(reader.stats) };
        await sink.opened(view);
        try {
          for await (const batch of reader.batches({ signal, batchSize: options.batchSize ?? 4000 })) {
            await sink.batch(Comlink.transfer(batch, batchBuffers(batch)), snapshot(reader.stats));
            if (signal.aborted) break;
          }
        } catch (err) {
          if (signal.aborted) return { status: 'cancelled', stats: snapshot(reader.stats) };
          throw err;
        }
        const result: ViewResult = { status: signal.aborted ? 'cancelled' : 'done', stats: snapshot(reader.stats) };
        return result;
      } finally {
        running.delete(controller);
      }
    },

    async exportRows(ibd, name, tableName, options: ExportOptions, sinkProxy) {
      const sink = sinkProxy as unknown as Comlink.Remote<ExportSink>;
      const table = tableOrThrow(tableName);
      const controller = begin();
      const { signal } = controller;
      try {
        const reader = await openTable(blobSource(ibd, name), table);
        const encoder = new TextEncoder();
        const limit = options.chunkBytes ?? 1 << 20;
        const sql = options.format === 'sql' ? sqlColumns(table, reader.columns) : null;
        const csv = options.csv ?? {};
        // The core's byte-level CSV writer is papaparse's output for the default options.
        const plainCsv = options.format === 'csv' && (csv.delimiter ?? ',') === ',' && !csv.quoteAll && (csv.nullAs ?? 'marker') === 'marker';
        let parts: Uint8Array[] = [];
        let pendingBytes = 0;
        let rows = 0;
        let bytes = 0;
        const add = (chunk: Uint8Array | string) => {
          const b = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
          parts.push(b);
          pendingBytes += b.length;
        };
        const flush = async (force: boolean) => {
          if (pendingBytes === 0 || (!force && pendingBytes < limit)) return;
          const chunk = new Uint8Array(pendingBytes);
          let at = 0;
          for (const p of parts) {
            chunk.set(p, at);
            at += p.length;
          }
          parts = [];
          pendingBytes = 0;
          bytes += chunk.length;
          await sink.chunk(Comlink.transfer(chunk, [chunk.buffer]), rows);
        };
        if (options.format === 'csv' && options.csvHeader !== false) add(csvHeader(reader.columns, csv));
        if (options.format === 'sql') add(sqlPreamble(table, name));
        for await (const batch of reader.batches({ signal, batchSize: 4000 })) {
          if (plainCsv) add(csvBytes(batch));
          else {
            const text = batchToRows(batch);
            if (options.format === 'csv') add(csvRows(text, csv));
            else if (options.format === 'ndjson') add(ndjsonRows(reader.columns, text));
            else add(sqlInserts(table.name, sql ?? [], text, options.sqlRowsPerInsert ?? 1000));
          }
          rows += batch.rows;
          await flush(false);
        }
        if (options.format === 'sql') add(sqlPostamble());
        await flush(true);
        const result: ExportResult = { rows, bytes, stats: snapshot(reader.stats) };
        return result;
      } finally {
        running.delete(controller);
      }
    },

    stopView() {
      for (const c of running) c.abort();
    },
  };
}
