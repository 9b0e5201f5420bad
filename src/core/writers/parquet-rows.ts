/**
 * A Parquet file of a table's rows, written as the rows come: RowBatches are read into typed column
 * values (parquet-columns.ts, parquet-cells.ts) until a row group is full (ROW_GROUP_ROWS rows, or
 * ROW_GROUP_BYTES of cell text for wide rows), which is then encoded by hyparquet-writer's
 * ParquetWriter and handed out as bytes. Memory is one row group's values and its encoded bytes,
 * never the table. The bytes of add() and flush(), in order, then parquetFooter() of groups(), are the file.
 *
 * Cells their column's type cannot hold (zero dates, unreadable values: see parquet-cells.ts) are
 * written as nulls and counted by column, with the first rows they are in (numbered from 0 in the
 * file's order); notHeld() gives them to the caller to say, and the file's footer carries them too
 * (key-value metadata `ibd-reader.values-not-held`, JSON), beside the table's CREATE TABLE.
 *
 * The same rows can be cut into parts encoded apart, in parallel, and laid out by the file's writer
 * (parquetPart, parquetFooter; parquet-row-groups.ts): a run's row groups are the bytes a ParquetRows
 * of its rows alone writes.
 */
import { ParquetWriter } from 'hyparquet-writer/src/parquet-writer.js';
import { ByteWriter } from 'hyparquet-writer/src/bytewriter.js';
import { writeColumn } from 'hyparquet-writer/src/column.js';
import type { ColumnEncoder, PageIndexes } from 'hyparquet-writer/src/types.js';
import type { ColumnChunk, RowGroup, SchemaElement } from 'hyparquet';
import { snappyEncode } from '../codecs/snappy-encode.ts';
import type { RowBatch } from '../values/row-batch.ts';
import { batchText, type BatchText } from '../values/batch-strings.ts';
import type { TableDef } from '../schema.ts';
import { cellReader, type CellReader, type CellValue } from './parquet-cells.ts';
import { parquetColumns, parquetSchema, type ParquetColumn } from './parquet-columns.ts';
import { noteNotHeld, type ChunkColumn } from './parquet-chunk.ts';
import { chunkColumn } from './parquet-chunk-kinds.ts';
import { PARQUET_MAGIC, type ChunkIndexes, type NotHeld, type ParquetGroups, type ParquetPart } from './parquet-row-groups.ts';

/** Rows per row group (the last one of a file has fewer). */
export const ROW_GROUP_ROWS = 100_000;
/** A row group is also closed once its cells' text reaches this many bytes (BLOBs, long text). */
export const ROW_GROUP_BYTES = 64 << 20;
/** hyparquet-writer's page size (its default), for the chunks it writes. */
const PAGE_SIZE = 1 << 20;

export interface ParquetRowsOptions {
  rowGroupRows?: number;
  rowGroupBytes?: number;
}

/** A ByteWriter whose bytes are taken out after each row group (its `offset` counts on: the file's). */
class ChunkWriter extends ByteWriter {
  take(): Uint8Array<ArrayBuffer> {
    const bytes = this.getBytes().slice();
    this.index = 0;
    return bytes;
  }
}

const NO_TEXT: BatchText = { str: '', map: null };

/** A column left to hyparquet-writer: its cells as JS values, and its encoder's options. */
interface LibraryColumn {
  read: CellReader;
  values: (CellValue | null)[];
  encoder: ColumnEncoder;
}

export class ParquetRows {
  readonly columns: ParquetColumn[];
  /** Each column's writer: ours (parquet-chunk.ts) or the library's. */
  readonly #chunks: (ChunkColumn | null)[];
  readonly #library: (LibraryColumn | null)[];
  #notHeld: NotHeld[] = [];
  readonly #out = new ChunkWriter(1 << 16);
  #rowGroups: RowGroup[] = [];
  #indexes: ChunkIndexes[] = [];
  readonly #groupRows: number;
  readonly #groupBytes: number;
  /** Whether a library column's values are read from the batch's text as a string. */
  readonly #strings: boolean;
  #rows = 0;
  #bytes = 0;
  #written = 0;

  constructor(readonly table: TableDef, outputColumns: readonly string[], options: ParquetRowsOptions = {}) {
    this.columns = parquetColumns(table, outputColumns);
    const schema = parquetSchema(this.columns);
    this.#chunks = this.columns.map(chunkColumn);
    this.#library = this.columns.map((c, i) => (this.#chunks[i] ? null : { read: cellReader(c.kind, c.scale), values: [], encoder: encoder(c, schema[0], schema[i + 1]) }));
    this.#strings = this.columns.some((c, i) => this.#library[i] !== null && (c.kind === 'text' || c.kind === 'float' || c.kind === 'double'));
    this.#groupRows = options.rowGroupRows ?? ROW_GROUP_ROWS;
    this.#groupBytes = options.rowGroupBytes ?? ROW_GROUP_BYTES;
    this.restart();
  }

  /** Starts a new file (its head written, nothing held), keeping the buffers grown so far; what groups() gave stays as it was. */
  restart(): void {
    this.#out.index = 0;
    this.#out.offset = 0;
    this.#out.appendBytes(PARQUET_MAGIC);
    this.#rowGroups = [];
    this.#indexes = [];
    this.#notHeld = this.columns.map((c) => ({ column: c.name, count: 0, rows: [], example: '' }));
    this.#written = 0;
    this.#rows = 0;
    this.#bytes = 0;
    for (const chunk of this.#chunks) if (chunk) chunk.n = 0;
    for (const lib of this.#library) if (lib) lib.values.length = 0;
  }

  /** Takes the batch's rows (copying what it keeps: the batch may be reused); the bytes of the row groups they filled. */
  add(batch: RowBatch): Uint8Array<ArrayBuffer> {
    const parts: Uint8Array<ArrayBuffer>[] = [];
    const { cols, cells, nulls } = batch;
    // Text and floats for the library are sliced out of the batch's text decoded at once (batch-strings.ts).
    const bt = this.#strings ? batchText(batch) : NO_TEXT;
    for (let r0 = 0; r0 < batch.rows;) {
      // The rows that go into the group being filled: up to its row count or its bytes of cell text.
      let r1 = r0;
      while (r1 < batch.rows) {
        for (let cell = r1 * cols, end = cell + cols; cell < end; cell++) if (!nulls[cell]) this.#bytes += cells[2 * cell + 1] - cells[2 * cell];
        r1++;
        if (this.#rows + r1 - r0 >= this.#groupRows || this.#bytes >= this.#groupBytes) break;
      }
      const firstRow = this.#written + this.#rows;
      for (let c = 0; c < cols; c++) {
        const chunk = this.#chunks[c];
        if (chunk) chunk.take(batch, c, r0, r1, firstRow, this.#notHeld[c]);
        else this.#take(batch, c, r0, r1, firstRow, bt);
      }
      this.#rows += r1 - r0;
      if (this.#rows >= this.#groupRows || this.#bytes >= this.#groupBytes) parts.push(this.#writeGroup());
      r0 = r1;
    }
    return joined(parts);
  }

  /** Each column's chunk writer (null: the column is left to hyparquet-writer). */
  get chunks(): readonly (ChunkColumn | null)[] {
    return this.#chunks;
  }

  /**
   * Takes `k` rows written into every column's chunk past the cells it holds (parquet-leaf.ts; every
   * column has one), row r with `rowBytes[r]` bytes of cell text, as add() takes a batch's rows: row
   * groups cut at the same rows. The bytes of the row groups they filled are pushed to `parts`.
   */
  addWritten(k: number, rowBytes: Int32Array, parts: Uint8Array<ArrayBuffer>[]): void {
    const chunks = this.#chunks as ChunkColumn[];
    for (let r0 = 0; r0 < k;) {
      let r1 = r0;
      while (r1 < k) {
        this.#bytes += rowBytes[r1++];
        if (this.#rows + r1 - r0 >= this.#groupRows || this.#bytes >= this.#groupBytes) break;
      }
      for (const chunk of chunks) chunk.n += r1 - r0;
      this.#rows += r1 - r0;
      if (this.#rows >= this.#groupRows || this.#bytes >= this.#groupBytes) {
        const cut = chunks[0].n;
        parts.push(this.#writeGroup());
        if (r1 < k) for (const chunk of chunks) chunk.carry(cut, k - r1);
      }
      r0 = r1;
    }
  }

  /** The rows held as a last row group (none without rows), with any bytes not yet handed out. */
  flush(): Uint8Array<ArrayBuffer> {
    return this.#rows > 0 ? this.#writeGroup() : this.#out.take();
  }

  /** The row groups written so far: their metadata, each chunk's page indexes, the rows not held. */
  groups(): ParquetGroups {
    return { rowGroups: this.#rowGroups, indexes: this.#indexes, rows: this.#written, offset: this.#out.offset, notHeld: this.notHeld() };
  }

  /** The columns some of whose cells were written as nulls, their type being unable to hold them. */
  notHeld(): NotHeld[] {
    return this.#notHeld.filter((n) => n.count > 0);
  }

  /** Rows [r0, r1) of a library column, as its JS values. */
  #take(batch: RowBatch, c: number, r0: number, r1: number, firstRow: number, bt: BatchText): void {
    const { cols, text, cells, nulls } = batch;
    const { read, values } = this.#library[c] as LibraryColumn;
    for (let r = r0; r < r1; r++) {
      const cell = r * cols + c;
      if (nulls[cell]) {
        values.push(null);
        continue;
      }
      const start = cells[2 * cell];
      const end = cells[2 * cell + 1];
      const v = read(text, start, end, bt);
      if (v === undefined) noteNotHeld(this.#notHeld[c], text, start, end, firstRow + r - r0);
      values.push(v ?? null);
    }
  }

  /** The rows held as one row group, laid out as hyparquet-writer's ParquetWriter.write lays one out. */
  #writeGroup(): Uint8Array<ArrayBuffer> {
    const start = this.#out.offset;
    const columns: ColumnChunk[] = [];
    let bytes = 0n;
    for (let c = 0; c < this.columns.length; c++) {
      const written = this.#chunks[c]?.write(this.#out) ?? this.#libraryChunk(c);
      columns.push(written.chunk);
      this.#indexes.push({ offsetIndex: written.offsetIndex, columnIndex: (written as PageIndexes).columnIndex });
      bytes += written.chunk.meta_data?.total_uncompressed_size ?? 0n;
    }
    this.#rowGroups.push({ columns, total_byte_size: bytes, num_rows: BigInt(this.#rows), total_compressed_size: BigInt(this.#out.offset - start) });
    this.#written += this.#rows;
    this.#rows = 0;
    this.#bytes = 0;
    return this.#out.take();
  }

  #libraryChunk(c: number): PageIndexes {
    const { values, encoder: column } = this.#library[c] as LibraryColumn;
    const definitionLevels = values.map((v) => (v === null ? 0 : 1));
    const written = writeColumn({ writer: this.#out, column, pageData: { values, definitionLevels, repetitionLevels: [], maxDefinitionLevel: 1 } });
    values.length = 0;
    return written;
  }
}

/** What ParquetWriter.write gives writeColumn for a flat OPTIONAL column, with our Snappy (the same bytes as the library's, in less time). */
function encoder(c: ParquetColumn, root: SchemaElement, element: SchemaElement): ColumnEncoder {
  return {
    columnName: c.name, element, schemaPath: [root, element], codec: 'SNAPPY', compressors: { SNAPPY: snappyEncode },
    stats: c.statistics, pageSize: PAGE_SIZE, columnIndex: false, offsetIndex: true,
  };
}

/** The footer's key-value metadata: the table's CREATE TABLE, and the values not held (JSON) when there are any. */
function keyValues(table: TableDef, notHeld: NotHeld[]): { key: string; value: string }[] {
  return [
    { key: 'ibd-reader.create-table', value: table.createSql },
    ...(notHeld.length > 0 ? [{ key: 'ibd-reader.values-not-held', value: JSON.stringify(notHeld) }] : []),
  ];
}

/** The writer of the last part of a table, kept for its next (a run is encoded at once, so one at a time): its buffers are not grown again run after run. */
const partWriters = new WeakMap<TableDef, { key: string; rows: ParquetRows }>();

/** A run's rows as row groups of their own, for a file laid out elsewhere (parquet-row-groups.ts): their bytes (no head, no footer) and metadata. */
export function parquetPart(table: TableDef, outputColumns: readonly string[], batch: RowBatch, options: ParquetRowsOptions = {}): { bytes: Uint8Array<ArrayBuffer>; part: ParquetPart } {
  const rows = partWriter(table, outputColumns, options);
  return partEnded(rows, [rows.add(batch)]);
}

/** The writer of a table's next part, restarted (kept from the part before where it has the same columns and options). */
function partWriter(table: TableDef, outputColumns: readonly string[], options: ParquetRowsOptions = {}): ParquetRows {
  const key = JSON.stringify([outputColumns, options]);
  let kept = partWriters.get(table);
  if (kept?.key !== key) {
    kept = { key, rows: new ParquetRows(table, outputColumns, options) };
    partWriters.set(table, kept);
  } else {
    kept.rows.restart();
  }
  return kept.rows;
}

/** A part's bytes and metadata: `parts` (the bytes its rows filled, in order) and its last row group. */
export function partEnded(rows: ParquetRows, parts: Uint8Array<ArrayBuffer>[]): { bytes: Uint8Array<ArrayBuffer>; part: ParquetPart } {
  const bytes = joined([...parts, rows.flush()]).subarray(PARQUET_MAGIC.length);
  return { bytes, part: { ...rows.groups(), size: bytes.length } };
}

/** The end of a file whose head and row groups were written as `groups` lays them out: page indexes, FileMetaData, its length, PAR1. */
export function parquetFooter(table: TableDef, outputColumns: readonly string[], groups: ParquetGroups): Uint8Array<ArrayBuffer> {
  const out = new ChunkWriter(1 << 16);
  const writer = new ParquetWriter({ writer: out, schema: parquetSchema(parquetColumns(table, outputColumns)), createdBy: 'ibd-reader', kvMetadata: keyValues(table, groups.notHeld) });
  // Its head is the file's, written already: the footer goes where the row groups end.
  out.take();
  out.offset = groups.offset;
  writer.row_groups = groups.rowGroups;
  writer.num_rows = BigInt(groups.rows);
  // Each chunk's indexes, in the order of the chunks (writeIndexes records where they land in their chunk).
  const chunks = groups.rowGroups.flatMap((g) => g.columns);
  writer.pendingIndexes = groups.indexes.map((ix, i) => ({ ...ix, chunk: chunks[i] }));
  void writer.finish();
  return out.take();
}

function joined(parts: Uint8Array<ArrayBuffer>[]): Uint8Array<ArrayBuffer> {
  if (parts.length === 1) return parts[0];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
