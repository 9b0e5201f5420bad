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
import { snappyEncode } from '../codecs/snappy-encode.ts';
import type { RowBatch } from '../values/row-batch.ts';
import { batchText, type BatchText } from '../values/batch-strings.ts';
import type { TableDef } from '../schema.ts';
import { cellReader, type CellReader, type CellValue } from './parquet-cells.ts';
import { parquetColumns, parquetSchema, type ParquetColumn } from './parquet-columns.ts';
import { PARQUET_MAGIC, ROWS_NAMED, type NotHeld, type ParquetGroups, type ParquetPart } from './parquet-row-groups.ts';

/** Rows per row group (the last one of a file has fewer). */
export const ROW_GROUP_ROWS = 100_000;
/** A row group is also closed once its cells' text reaches this many bytes (BLOBs, long text). */
export const ROW_GROUP_BYTES = 64 << 20;

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

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const NO_TEXT: BatchText = { str: '', map: null };

export class ParquetRows {
  readonly columns: ParquetColumn[];
  readonly #readers: CellReader[];
  readonly #values: (CellValue | null)[][];
  readonly #notHeld: NotHeld[];
  readonly #out = new ChunkWriter(1 << 16);
  readonly #writer: ParquetWriter;
  readonly #groupRows: number;
  readonly #groupBytes: number;
  /** Whether a column's values are read from the batch's text as a string. */
  readonly #strings: boolean;
  #rows = 0;
  #bytes = 0;
  #written = 0;

  constructor(readonly table: TableDef, outputColumns: readonly string[], options: ParquetRowsOptions = {}) {
    this.columns = parquetColumns(table, outputColumns);
    this.#readers = this.columns.map((c) => cellReader(c.kind, c.scale));
    this.#strings = this.columns.some((c) => c.kind === 'text' || c.kind === 'float' || c.kind === 'double');
    this.#values = this.columns.map(() => []);
    this.#notHeld = this.columns.map((c) => ({ column: c.name, count: 0, rows: [], example: '' }));
    this.#groupRows = options.rowGroupRows ?? ROW_GROUP_ROWS;
    this.#groupBytes = options.rowGroupBytes ?? ROW_GROUP_BYTES;
    // Its pages compressed by snappy-encode.ts: the same bytes as hyparquet-writer's Snappy, in less time.
    this.#writer = new ParquetWriter({ writer: this.#out, schema: parquetSchema(this.columns), createdBy: 'ibd-reader', compressors: { SNAPPY: snappyEncode } });
  }

  /** Takes the batch's rows (copying what it keeps: the batch may be reused); the bytes of the row groups they filled. */
  add(batch: RowBatch): Uint8Array<ArrayBuffer> {
    const parts: Uint8Array<ArrayBuffer>[] = [];
    const { cols, text, cells, nulls } = batch;
    // Text and floats are sliced out of the batch's text decoded at once (batch-strings.ts).
    const bt = this.#strings ? batchText(batch) : NO_TEXT;
    for (let r = 0; r < batch.rows; r++) {
      for (let c = 0; c < cols; c++) {
        const cell = r * cols + c;
        if (nulls[cell]) {
          this.#values[c].push(null);
          continue;
        }
        const start = cells[2 * cell];
        const end = cells[2 * cell + 1];
        // Each cell's own bytes: a column appended to a batch (appendColumn) has its text elsewhere.
        this.#bytes += end - start;
        this.#values[c].push(this.#value(c, text, start, end, bt));
      }
      if (++this.#rows >= this.#groupRows || this.#bytes >= this.#groupBytes) parts.push(this.#writeGroup());
    }
    return joined(parts);
  }

  /** The rows held as a last row group (none without rows), with any bytes not yet handed out. */
  flush(): Uint8Array<ArrayBuffer> {
    return this.#rows > 0 ? this.#writeGroup() : this.#out.take();
  }

  /** The row groups written so far: their metadata, each chunk's page indexes, the rows not held. */
  groups(): ParquetGroups {
    const indexes = this.#writer.pendingIndexes.map(({ columnIndex, offsetIndex }) => ({ columnIndex, offsetIndex }));
    return { rowGroups: this.#writer.row_groups, indexes, rows: this.#written, offset: this.#out.offset, notHeld: this.notHeld() };
  }

  /** The columns some of whose cells were written as nulls, their type being unable to hold them. */
  notHeld(): NotHeld[] {
    return this.#notHeld.filter((n) => n.count > 0);
  }

  #value(c: number, text: Uint8Array, start: number, end: number, bt: BatchText): CellValue | null {
    const v = this.#readers[c](text, start, end, bt);
    if (v !== undefined) return v;
    const note = this.#notHeld[c];
    if (note.count++ === 0) note.example = utf8.decode(text.subarray(start, end));
    if (note.rows.length < ROWS_NAMED) note.rows.push(this.#written + this.#rows);
    return null;
  }

  #writeGroup(): Uint8Array<ArrayBuffer> {
    const columnData = this.columns.map((c, i) => ({ name: c.name, data: this.#values[i], statistics: c.statistics }));
    // One row group of all the rows held (ParquetWriter cuts by rowGroupSize); synchronous: the writer has no async flush.
    void this.#writer.write({ columnData, rowGroupSize: this.#rows });
    for (const v of this.#values) v.length = 0;
    this.#written += this.#rows;
    this.#rows = 0;
    this.#bytes = 0;
    return this.#out.take();
  }
}

/** The footer's key-value metadata: the table's CREATE TABLE, and the values not held (JSON) when there are any. */
function keyValues(table: TableDef, notHeld: NotHeld[]): { key: string; value: string }[] {
  return [
    { key: 'ibd-reader.create-table', value: table.createSql },
    ...(notHeld.length > 0 ? [{ key: 'ibd-reader.values-not-held', value: JSON.stringify(notHeld) }] : []),
  ];
}

/** A run's rows as row groups of their own, for a file laid out elsewhere (parquet-row-groups.ts): their bytes (no head, no footer) and metadata. */
export function parquetPart(table: TableDef, outputColumns: readonly string[], batch: RowBatch, options: ParquetRowsOptions = {}): { bytes: Uint8Array<ArrayBuffer>; part: ParquetPart } {
  const rows = new ParquetRows(table, outputColumns, options);
  const bytes = joined([rows.add(batch), rows.flush()]).subarray(PARQUET_MAGIC.length);
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
