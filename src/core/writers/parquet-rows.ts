/**
 * A Parquet file of a table's rows, written as the rows come: RowBatches are read into typed column
 * values (parquet-columns.ts, parquet-cells.ts) until a row group is full (ROW_GROUP_ROWS rows, or
 * ROW_GROUP_BYTES of cell text for wide rows), which is then encoded by hyparquet-writer's
 * ParquetWriter and handed out as bytes. Memory is one row group's values and its encoded bytes,
 * never the table. The bytes of add() and finish(), in order, are the file.
 *
 * Cells their column's type cannot hold (zero dates, unreadable values: see parquet-cells.ts) are
 * written as nulls and counted by column, with the first rows they are in (numbered from 0 in the
 * file's order); notHeld() gives them to the caller to say, and the file's footer carries them too
 * (key-value metadata `ibd-reader.values-not-held`, JSON), beside the table's CREATE TABLE.
 */
import { ParquetWriter } from 'hyparquet-writer/src/parquet-writer.js';
import { ByteWriter } from 'hyparquet-writer/src/bytewriter.js';
import type { RowBatch } from '../values/row-batch.ts';
import { batchText, type BatchText } from '../values/batch-strings.ts';
import type { TableDef } from '../schema.ts';
import { cellReader, type CellReader, type CellValue } from './parquet-cells.ts';
import { parquetColumns, parquetSchema, type ParquetColumn } from './parquet-columns.ts';

/** Rows per row group (the last one of a file has fewer). */
export const ROW_GROUP_ROWS = 100_000;
/** A row group is also closed once its cells' text reaches this many bytes (BLOBs, long text). */
export const ROW_GROUP_BYTES = 64 << 20;
/** Rows named per column in the notes of values not held. */
const ROWS_NAMED = 10;

/** The cells of a column its Parquet type could not hold, written as nulls. */
export interface NotHeld {
  column: string;
  count: number;
  /** The first rows (numbered from 0) holding one. */
  rows: number[];
  /** The first cell's text. */
  example: string;
}

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
    this.#writer = new ParquetWriter({ writer: this.#out, schema: parquetSchema(this.columns), createdBy: 'ibd-reader' });
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
        this.#values[c].push(nulls[cell] ? null : this.#value(c, text, cells[2 * cell], cells[2 * cell + 1], bt));
      }
      this.#bytes += cols === 0 ? 0 : cells[2 * (r * cols + cols - 1) + 1] - cells[2 * r * cols];
      if (++this.#rows >= this.#groupRows || this.#bytes >= this.#groupBytes) parts.push(this.#writeGroup());
    }
    return joined(parts);
  }

  /** The last row group and the footer: the end of the file. */
  finish(): Uint8Array<ArrayBuffer> {
    const parts = this.#rows > 0 ? [this.#writeGroup()] : [];
    const notHeld = this.notHeld();
    this.#writer.kvMetadata = [
      { key: 'ibd-reader.create-table', value: this.table.createSql },
      ...(notHeld.length > 0 ? [{ key: 'ibd-reader.values-not-held', value: JSON.stringify(notHeld) }] : []),
    ];
    void this.#writer.finish();
    parts.push(this.#out.take());
    return joined(parts);
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

/** A note of values not held, for a warning: the column, how many, the first one and its rows. */
export function describeNotHeld(n: NotHeld): string {
  const rows = `${n.count === 1 ? 'row' : 'rows'} ${n.rows.join(', ')}${n.count > n.rows.length ? ', …' : ''}`;
  return `column \`${n.column}\`: ${n.count} ${n.count === 1 ? 'value' : 'values'} its Parquet type cannot hold, written as null (${JSON.stringify(n.example)}; ${rows}, counted from 0)`;
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
