/**
 * Implementation of `ViewerApi` (see viewer-api.ts), mixed into the decoder worker's API. Plain
 * TypeScript over the decoder core; `lookup` finds a table of the worker's last `readSchema`.
 * A worker holds at most one open table (the last `openView`); the page's pool opens the same one in
 * every worker and hands each a run of leaf pages at a time.
 */
import * as Comlink from 'comlink';
import {
  csvHeader, csvRows, ndjsonOf, sqlColumns, sqlInserts, sqlPostamble, sqlPreamble,
} from '../src/core/writers/output.ts';
import { BatchBuilder, batchBuffers, type RowBatch } from '../src/core/values/row-batch.ts';
import { packRows } from '../src/core/values/batch-edit.ts';
import type { Column, TableDef } from '../src/core/schema.ts';
import { blobSource } from '../src/core/tablespace/source.ts';
import { packedBuffers, PageMap } from '../src/core/readers/page-map.ts';
import { quickSummary, summarize } from '../src/core/readers/summary.ts';
import { SYSTEM_COLUMNS, systemColumnDefs } from '../src/core/readers/system-columns.ts';
import { DefinitionMismatch, ROW_STATE_COLUMN, type DecodeStats, type Row } from '../src/core/readers/table-reader.ts';
import { csvBuffers, csvPages, type CsvBuffers } from '../src/core/writers/csv-pages.ts';
import { loadDataEscaped, loadDataStatement } from '../src/core/writers/load-data.ts';
import { parquetFooter, parquetPart } from '../src/core/writers/parquet-rows.ts';
import { PARQUET_MAGIC, type ParquetGroups, type ParquetPart } from '../src/core/writers/parquet-row-groups.ts';
import { openDefinedTable, type InnodbTable } from '../src/lib/innodb-table.ts';
import { PARTITION_COLUMN } from '../src/lib/partitioned-table.ts';
import type { ByteSource } from '../src/core/tablespace/source.ts';
import { batchToRows } from '../src/ui/grid/batch-text.ts';
import { rowFilter, type FilterTable } from './row-filter.ts';
import { seekKey, type KeySeekMethods, type SeekTree } from './key-seek.ts';
import { LeafCounter } from './leaf-damage.ts';
import { PartialView, sqlKeepingPartial } from './partial-view.ts';
import { PartitionView, type ViewCounter, type ViewReader } from './partition-view.ts';
import { PageMapStore } from './page-map-methods.ts';
import { fileSource, redoNotice, rollbackOf, withRollback } from './redo-sources.ts';
import { createSortMethods, type SortMethods } from './sort-methods.ts';
import { createPartialMethods, type PartialMethods } from './partial-methods.ts';
import { versionsBefore } from './undo-methods.ts';
import {
  DEFINITION_MISMATCH, type ColumnInfo, type ExportOptions, type OpenedView, type RowQuery, type SearchResult, type ViewerApi, type ViewSpec,
} from './viewer-api.ts';

function snapshot(stats: DecodeStats): DecodeStats {
  return { ...stats, problems: stats.problems.slice() };
}

/** What `after` added to `before` (the same reader's statistics, later). */
export function statsSince(before: DecodeStats, after: DecodeStats): DecodeStats {
  const out = { ...after, problems: after.problems.slice(before.problems.length) };
  for (const key of Object.keys(after) as (keyof DecodeStats)[]) {
    if (key !== 'problems') out[key] = after[key] - before[key];
  }
  return out;
}

const NUMERIC = new Set(['tinyint', 'bool', 'smallint', 'mediumint', 'int', 'bigint', 'decimal', 'float', 'double']);
const BINARY = new Set(['bit', 'binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob']);

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

/** Output column indexes of the key InnoDB clusters the rows on; of a secondary index read (`secondary`), all its fields (not the row state or partition added). */
export function keyColumns(table: TableDef, columns: readonly string[], clusteredOn: string, secondary = false): number[] {
  if (secondary) return columns.flatMap((c, i) => (c === ROW_STATE_COLUMN || c === PARTITION_COLUMN ? [] : [i]));
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

/** The table's reader, its partial rows among its rows when the spec asks for them (live mode of a table's clustered index). */
function withPartial(spec: ViewSpec, reader: ViewReader): ViewReader {
  if (!spec.partial || spec.mode !== 'live' || spec.indexName !== undefined) return reader;
  return new PartialView(reader, spec.partial);
}

/** The table this worker has open. */
interface OpenView {
  spec: ViewSpec;
  source: ByteSource;
  /** Its reader; a partitioned table's partitions behind one (partition-view.ts). */
  reader: ViewReader;
  /** The B-trees its keys are looked up in: its own, or each partition's. */
  trees: readonly SeekTree[];
  /** What counts its leaves (made on the first count, by `counterOf`; a partitioned table's is its view). */
  counter: Promise<ViewCounter> | null;
  counterOf: () => Promise<ViewCounter>;
  view: OpenedView;
  /**
   * An export's buffers, reused run after run: nothing is allocated per run. One set per run in
   * progress (a worker reads one run while it decodes another).
   */
  exportBuffers: CsvBuffers[];
  /** Builders searchLeaves decodes each page into (one per task running in this worker). */
  searchBuilders: BatchBuilder[];
}

/** Decodes each page on its own (so the page's row count is known), in order. */
async function decodeEach(reader: ViewReader, pages: Int32Array, first: boolean): Promise<RowBatch[]> {
  const out: RowBatch[] = [];
  const run = await reader.readRun(pages);
  try {
    for (let i = 0; i < pages.length; i++) out.push(await reader.decodePages([pages[i]], { first: first && i === 0, run }));
  } finally {
    reader.releaseRun(run);
  }
  return out;
}

/** True for the options the byte-level CSV writer produces exactly (papaparse's output for them). */
function plainCsv(options: ExportOptions): boolean {
  const csv = options.csv ?? {};
  return options.format === 'csv' && (csv.delimiter ?? ',') === ',' && !csv.quoteAll && (csv.nullAs ?? 'marker') === 'marker';
}

/**
 * A run of leaf pages decoded and formatted. As a Blob (`as` 'blob'), made here in the worker: its
 * bytes go to the browser's blob store from this thread, and the page only collects handles (no large
 * buffers cross to the page or stay in it). As bytes of their own, for the page to pass on
 * (transferred, not copied) to a download it streams.
 */
async function formatRun(open: OpenView, pages: number[], first: boolean, options: ExportOptions, as: 'blob' | 'bytes', spare?: ArrayBuffer): Promise<{ data: Blob | Uint8Array<ArrayBuffer>; rows: number; parquet?: ParquetPart }> {
  // Sized for the pieces CSV is made in (see csvPages); it grows for a whole run of other formats.
  const buffers = open.exportBuffers.pop() ?? csvBuffers(open.reader.columns.length);
  try {
    if (plainCsv(options) && !options.filter && !options.reverse && !options.columns) {
      const { csv, rows } = await csvPages(open.reader, pages, first, buffers);
      const bytes = options.csv?.loadData ? loadDataEscaped(csv) : csv;
      // A copy of its own: it is held until written, with others in flight.
      return { data: as === 'bytes' ? handedOver(bytes, spare) : new Blob([bytes]), rows };
    }
    const batch = await open.reader.decodePages(pages, { first, into: buffers.into });
    if (options.format === 'parquet') {
      if (options.columns) throw new Error('a Parquet export writes every column');
      // The run's own row groups, laid out in the file by the page (parquet-row-groups.ts).
      const shown = options.filter || options.reverse ? packRows(await exportedRows(open, batch, options), open.reader.columns.length) : batch;
      const { bytes, part } = parquetPart(open.spec.table, open.reader.columns, shown);
      return { data: as === 'bytes' ? handedOver(bytes, spare) : new Blob([bytes]), rows: shown.rows, parquet: part };
    }
    const rows = await exportedRows(open, batch, options);
    return { data: formatRows(open, rows, options, as), rows: rows.length };
  } finally {
    open.exportBuffers.push(buffers);
  }
}

/** The rows of a decoded run an export writes: those its filter matches, last first for `reverse`. */
async function exportedRows(open: OpenView, batch: RowBatch, options: ExportOptions): Promise<Row[]> {
  let rows = batchToRows(batch);
  const { filter } = options;
  if (filter) {
    const matched: number[] = [];
    (await rowFilter(filter, filterTable(open)))(batch, matched);
    rows = matched.map((r) => rows[r]);
  }
  return options.reverse ? rows.reverse() : rows;
}

/** What the view's typed filters are tested against. */
function filterTable(open: OpenView): FilterTable {
  return { columns: open.reader.columns, table: typedColumns(open.spec, open.reader.columns), timeZone: open.spec.timeZone ?? 'UTC' };
}

/** The definition's columns, and the system columns' types where the rows have them (so DB_TRX_ID sorts and filters as a number), named as the reader names them. */
function typedColumns(spec: ViewSpec, columns: readonly string[]): TableDef['columns'] {
  return spec.systemColumns === true ? [...spec.table.columns, ...systemColumnDefs(columns.slice(-SYSTEM_COLUMNS.length))] : spec.table.columns;
}

/** Rounding of a new hand-over buffer's size, so that it can carry a later run's bytes too. */
const HANDOVER_STEP = 1 << 20;

/**
 * `bytes` copied into `spare` when it is large enough (a buffer the page had back from the download
 * stream), else into a new buffer with room to spare: reused, export buffers cost no new memory,
 * which Chromium maps, faults in and unmaps again for each buffer of this size.
 */
function handedOver(bytes: Uint8Array, spare: ArrayBuffer | undefined): Uint8Array<ArrayBuffer> {
  const buffer = spare && spare.byteLength >= bytes.length ? spare : new ArrayBuffer(Math.ceil((bytes.length + 1) / HANDOVER_STEP) * HANDOVER_STEP);
  const out = new Uint8Array(buffer, 0, bytes.length);
  out.set(bytes);
  return out;
}

/** Rows in a format other than plain CSV (papaparse's CSV with other options, NDJSON, SQL). */
function formatRows(open: OpenView, rows: Row[], options: ExportOptions, as: 'blob' | 'bytes'): Blob | Uint8Array<ArrayBuffer> {
  // Parquet takes whole batches in key order (formatRun); a sort by a column merges rows one by one.
  if (options.format === 'parquet') throw new Error('a Parquet export is written in primary-key order: export the rows sorted by a column as CSV, NDJSON or SQL');
  const { reader } = open;
  const { columns } = options;
  if (columns && options.format === 'sql') throw new Error('an SQL export writes every column: INSERTs of some would load rows whose other columns take their defaults');
  const written = columns ? rows.map((r) => columns.map((c) => r[c])) : rows;
  const text = options.format === 'csv'
    ? csvRows(written, options.csv ?? {})
    : options.format === 'ndjson'
      ? ndjsonOf(open.spec.table, columns ? columns.map((c) => reader.columns[c]) : reader.columns, written, { strings: options.jsonStrings })
      : sqlText(open, rows, options.sqlRowsPerInsert ?? 1000);
  const bytes = options.format === 'csv' && options.csv?.loadData ? loadDataEscaped(encoder.encode(text)) : null;
  if (bytes !== null) return as === 'bytes' ? handedOver(bytes, undefined) : new Blob([bytes]);
  return as === 'bytes' ? encoder.encode(text) : new Blob([text]);
}

const encoder = new TextEncoder();

/** INSERTs of `rows`; with partial rows among them, theirs commented out (sqlKeepingPartial). */
function sqlText(open: OpenView, rows: Row[], perInsert: number): string {
  const { reader, spec } = open;
  const inserts = (some: Row[]) => sqlInserts(spec.table.name, sqlColumns(spec.table, reader.columns), some, perInsert);
  return reader instanceof PartialView ? sqlKeepingPartial(rows, reader.columns.length - 1, inserts) : inserts(rows);
}

/** A Parquet export's head (PAR1) or its footer, for the row groups its runs made as the page laid them out. */
function parquetEdge(open: OpenView, edge: 'head' | 'tail', groups: ParquetGroups | undefined): Blob {
  if (edge === 'head') return new Blob([PARQUET_MAGIC]);
  if (groups === undefined) throw new Error('A Parquet export\'s end needs its row groups.');
  return new Blob([parquetFooter(open.spec.table, open.reader.columns, groups)]);
}

/** `maps`: the page map each full summary fills is kept there (page-map-methods.ts). */
export function createViewerMethods(lookup: (tableName: string) => TableDef | undefined, maps = new PageMapStore()): ViewerApi & SortMethods & KeySeekMethods & PartialMethods {
  const running = new Set<AbortController>();
  let current: OpenView | null = null;

  function opened(): OpenView {
    if (!current) throw new Error('No table is open in this worker.');
    return current;
  }

  return {
    // Sorts decode into the search's builders (a worker runs one task of either at a time per slot).
    ...createSortMethods(() => {
      const open = opened();
      return { reader: open.reader, table: { ...open.spec.table, columns: typedColumns(open.spec, open.reader.columns) }, builders: open.searchBuilders, timeZone: open.spec.timeZone ?? 'UTC', filterTable: filterTable(open) };
    }, (batch, options, as) => formatRows(opened(), batchToRows(batch), options, as)),
    ...createPartialMethods(opened),

    async summarize(ibd, name, progress, keys) {
      const controller = new AbortController();
      running.add(controller);
      try {
        let last = 0;
        let counted = false;
        // A map kept already (the row count's: page-map-fill.ts) is not filled again; the read of
        // the pages its count did not read goes first.
        await maps.settled(ibd, name);
        const pageMap = maps.has(ibd, name) ? undefined : new PageMap();
        const scan = summarize(await fileSource(ibd, name, () => blobSource(ibd, name)), {
          keys,
          pageMap,
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
        if (pageMap) maps.filling(ibd, name, pageMap, scan);
        return await scan;
      } finally {
        running.delete(controller);
      }
    },

    async quickSummary(ibd, name, keys) {
      return quickSummary(await fileSource(ibd, name, () => blobSource(ibd, name)), keys);
    },

    async tableDef(tableName) {
      const table = lookup(tableName);
      if (!table) throw new Error(`Table ${tableName} is not defined in the schema that was read.`);
      return table;
    },

    async openView(spec) {
      current = null;
      const source = await fileSource(spec.ibd, spec.name);
      // As before transaction N: this worker's versions of the rows (every partition's); else
      // transactions active at a crashed datadir's crash, rolled back (a partitioned table's in every
      // partition; through a secondary index, its entries as the rollback leaves them: core/trx/row-undo-sec.ts).
      if (spec.undo && (spec.indexName !== undefined || spec.raw)) throw new Error(`as before transaction ${spec.undo.beforeTrx}: a table's rows are rebuilt from its clustered index and the undo logs, not ${spec.raw ? 'a raw image\'s tree' : `its index ${spec.indexName}`}`);
      const before = spec.undo ? await versionsBefore(spec.undo) : null;
      const rollback = before === null ? await rollbackOf(spec.ibd, spec.name) : null;
      const versions = before?.taken?.versions ?? rollback?.taken?.versions ?? null;
      const partitioned = spec.partitions?.length ? await PartitionView.open(spec, versions) : null;
      if (partitioned) await partitioned.leafPages();
      // A secondary index: its tree found by name (in a general tablespace, the SDI's), not the table's `index`.
      const how = spec.indexName === undefined ? { target: { index: spec.index, raw: spec.raw } } : { index: spec.indexName };
      const table = partitioned ? null : await openDefinedTable(source, spec.table, { rows: spec.mode, keys: spec.keys, timeZone: spec.timeZone, ...how, versions, systemColumns: spec.systemColumns });
      const reader = withPartial(spec, partitioned ?? (table as InnodbTable).reader);
      const view: OpenedView = {
        table: spec.table.name,
        columns: reader.columns.slice(),
        columnInfo: columnInfo({ ...spec.table, columns: typedColumns(spec, reader.columns) }, reader.columns),
        keyColumns: keyColumns(spec.table, reader.columns, reader.info.clusteredOn, spec.indexName !== undefined && (partitioned ? partitioned.index !== null : table?.options.indexName !== undefined)),
        warnings: table?.warnings.slice() ?? [],
        ...(before ? { undoNotes: before.said.slice() } : {}),
        stateColumn: reader.columns.indexOf(ROW_STATE_COLUMN),
        mode: spec.mode,
        info: { ...reader.info },
        createSql: spec.table.createSql,
        redo: withRollback(await redoNotice(spec.ibd, spec.name), rollback),
        partitions: partitioned ? { parts: partitioned.partitions, warnings: partitioned.warnings.slice(), unmerged: 'why' in partitioned.keyOrder ? partitioned.keyOrder.why : null } : null,
      };
      const counterOf = () => (partitioned ? Promise.resolve(partitioned) : LeafCounter.open(source, spec, (table as InnodbTable).reader, versions));
      current = { spec, source, reader, trees: partitioned?.trees() ?? [{ lookup: (range) => (table as InnodbTable).reader.lookup(range), leaf: (page) => page, partition: null }], counter: null, counterOf, view, exportBuffers: [], searchBuilders: [] };
      return view;
    },

    async leafPages() {
      const { reader } = opened();
      const leaves = Int32Array.from(await reader.leafPages());
      return Comlink.transfer({ leaves, stats: snapshot(reader.stats) }, [leaves.buffer]);
    },

    async firstLeaf() {
      const { reader } = opened();
      const page = await reader.firstLeafPage();
      if (page === null) return null;
      const batch = await reader.decodePages([page], { first: true });
      return Comlink.transfer({ page, batch, stats: snapshot(reader.stats) }, batchBuffers(batch));
    },

    async checkDefinition() {
      try {
        await opened().reader.checkDefinition();
      } catch (e) {
        // Named so across the worker boundary (comlink carries an error's name and message).
        if (e instanceof DefinitionMismatch) e.name = DEFINITION_MISMATCH;
        throw e;
      }
    },

    async countLeaves(pages, map) {
      const open = opened();
      open.counter ??= open.counterOf().catch((e: unknown) => {
        open.counter = null;
        throw e;
      });
      // 16 MB reads, into reused buffers: a Blob read costs Chromium ~15 ms whatever its size, and
      // LINEITEM (931 MB) was counted in 2.14–2.41 s so against 2.62–2.88 s with 8 MB reads (Chromium
      // 150), for ~30 MB more in flight; as fast as 8 MB on Chromium 156.
      const counted = await (await open.counter).count(pages, 16 << 20, map);
      return Comlink.transfer(counted, [counted.counts.buffer, ...(counted.mapped ?? []).flatMap((r) => packedBuffers(r.map))]);
    },

    async decodeLeaves(pages, first) {
      const { reader } = opened();
      const batches = await decodeEach(reader, pages, first);
      return Comlink.transfer({ batches, stats: snapshot(reader.stats) }, batches.flatMap(batchBuffers));
    },

    async searchLeaves(pages, first, query: RowQuery) {
      const open = opened();
      const { reader } = open;
      const before = snapshot(reader.stats);
      // Each page decoded into a reused builder and searched at once: nothing of it leaves the worker.
      const builder = open.searchBuilders.pop() ?? new BatchBuilder(reader.columns.length, 64, reader.info.pageSize);
      let counts = new Int32Array(pages.length);
      const pageOf: number[] = [];
      const rowOf: number[] = [];
      const rows: number[] = [];
      const matching = await rowFilter(query, filterTable(open));
      const run = await reader.readRun(pages);
      try {
        for (let i = 0; i < pages.length; i++) {
          const batch = await reader.decodePages([pages[i]], { first: first && i === 0, into: builder, run });
          counts[i] = batch.rows;
          rows.length = 0;
          matching(batch, rows);
          for (const r of rows) {
            pageOf.push(i);
            rowOf.push(r);
          }
          if (query.kind === 'key' && query.firstOnly && rows.length > 0) {
            // Counts only for the pages decoded (each corrects the page's row count in the RowMap).
            counts = counts.slice(0, i + 1);
            break;
          }
        }
      } finally {
        reader.releaseRun(run);
        open.searchBuilders.push(builder);
      }
      const result: SearchResult = {
        counts, pageOf: Int32Array.from(pageOf), rowOf: Int32Array.from(rowOf), stats: snapshot(reader.stats), runStats: statsSince(before, reader.stats),
      };
      return Comlink.transfer(result, [result.counts.buffer, result.pageOf.buffer, result.rowOf.buffer]);
    },

    async exportLeaves(pages, first, options, as = 'blob', spare) {
      const open = opened();
      const { data, rows, parquet } = await formatRun(open, Array.from(pages), first, options, as, spare);
      const run = { data, rows, stats: snapshot(open.reader.stats), parquet };
      return data instanceof Blob ? run : Comlink.transfer(run, [data.buffer]);
    },

    async exportEdge(options, edge, parquet) {
      const open = opened();
      const { reader, spec } = open;
      if (options.format === 'parquet') return parquetEdge(open, edge, parquet);
      let text = '';
      const names = options.columns ? options.columns.map((c) => reader.columns[c]) : reader.columns;
      if (edge === 'head' && options.format === 'csv' && options.csvHeader !== false) text = csvHeader(names, options.csv ?? {});
      if (edge === 'head' && options.format === 'sql') text = sqlPreamble(spec.table, spec.name);
      if (edge === 'tail' && options.format === 'sql') text = sqlPostamble();
      return new Blob([options.csv?.loadData ? loadDataEscaped(encoder.encode(text)) : text]);
    },

    async loadDataStatement(csvFile) {
      const { reader, spec } = opened();
      return loadDataStatement(spec.table, reader.columns, csvFile);
    },

    async stats() {
      return snapshot(opened().reader.stats);
    },

    seekKey(values) {
      return seekKey(opened().trees, values);
    },

    async reportLeaves(pages) {
      const { reader } = opened();
      const before = snapshot(reader.stats);
      // Not `first`: a page whose records do not add up is reported as damaged, not thrown.
      await reader.decodePages(Array.from(pages));
      return statsSince(before, reader.stats);
    },

    stopView() {
      for (const c of running) c.abort();
    },
  };
}
