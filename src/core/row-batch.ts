/**
 * Decoded rows in a compact, transferable form: every cell's text (UTF-8, exactly what the server's
 * SELECT shows) lives in one byte buffer, addressed by a start/end pair per cell, with a NULL flag per
 * cell. A page's rows become one batch: no object or string per cell, and the three buffers can be
 * handed from a worker to the page without copying.
 */

export interface RowBatch {
  rows: number;
  cols: number;
  /** UTF-8 text of all cells. */
  text: Uint8Array<ArrayBuffer>;
  /** [start, end) of cell (r * cols + c) in `text`, at index 2 * cell. */
  cells: Uint32Array<ArrayBuffer>;
  /** 1 where the cell is SQL NULL. */
  nulls: Uint8Array<ArrayBuffer>;
}

/** The buffers to transfer (not copy) when a batch crosses to another thread. */
export function batchBuffers(batch: RowBatch): ArrayBuffer[] {
  return [batch.text.buffer, batch.cells.buffer, batch.nulls.buffer];
}

/** What `separated` builders write after each cell: CSV's comma. */
const SEPARATOR = 44;

/**
 * Appends rows cell by cell; grows its buffers as needed.
 *
 * `separated` (for CSV exports): a comma follows each cell's text in the buffer, outside the cell. A
 * record's fields are written one after the other, so the cells of a row that come in column order
 * then already read as a CSV line, and csvBytes() copies them as one stretch instead of cell by cell.
 */
export class BatchBuilder {
  text: Uint8Array;
  pos = 0;
  cells: Uint32Array;
  nulls: Uint8Array;
  rows = 0;

  /** `expectedBytes`: text to make room for up front, so that a big batch is not grown (copied) step by step. */
  constructor(readonly cols: number, expectedRows = 64, expectedBytes = 1 << 16, readonly separated = false) {
    this.text = new Uint8Array(Math.max(1 << 16, expectedBytes));
    this.cells = new Uint32Array(2 * cols * expectedRows);
    this.nulls = new Uint8Array(cols * expectedRows);
  }

  /** Makes room for `n` more text bytes (and the separator's, when `separated`). */
  reserve(n: number): void {
    if (this.separated) n++;
    if (this.pos + n <= this.text.length) return;
    const grown = new Uint8Array(Math.max(this.text.length * 2, this.pos + n));
    grown.set(this.text.subarray(0, this.pos));
    this.text = grown;
  }

  /** Starts a row whose cells are all NULL until set; returns the index of its first cell. */
  startRow(): number {
    const base = this.rows * this.cols;
    if (base + this.cols > this.nulls.length) {
      const cells = new Uint32Array(Math.max(this.cells.length * 2, 2 * (base + this.cols)));
      cells.set(this.cells);
      this.cells = cells;
      const nulls = new Uint8Array(Math.max(this.nulls.length * 2, base + this.cols));
      nulls.set(this.nulls);
      this.nulls = nulls;
    }
    // A loop, not fill(): rows are a few cells wide, and this runs once per row.
    const nulls = this.nulls;
    for (let i = base; i < base + this.cols; i++) nulls[i] = 1;
    this.rows++;
    return base;
  }

  /** The builder's state, to roll back to when a record or a page turns out to be undecodable. */
  mark(): { rows: number; pos: number } {
    return { rows: this.rows, pos: this.pos };
  }

  rollback(mark: { rows: number; pos: number }): void {
    this.rows = mark.rows;
    this.pos = mark.pos;
  }

  /** Empties the builder, keeping its buffers. */
  clear(): void {
    this.rows = 0;
    this.pos = 0;
  }

  setCell(cell: number, start: number, end: number): void {
    this.cells[2 * cell] = start;
    this.cells[2 * cell + 1] = end;
    this.nulls[cell] = 0;
    if (this.separated && end === this.pos) {
      // Writers reserve their bytes plus the spare one; an empty value may not have reserved at all.
      if (this.pos === this.text.length) this.reserve(0);
      this.text[this.pos++] = SEPARATOR;
    }
  }

  /** Appends a JS string as UTF-8 and makes it the cell's value. */
  setString(cell: number, value: string): void {
    this.reserve(value.length * 3);
    const start = this.pos;
    this.pos += encoder.encodeInto(value, this.text.subarray(this.pos)).written;
    this.setCell(cell, start, this.pos);
  }

  /** The finished batch, trimmed to size (copies, so the builder can be reused). */
  take(): RowBatch {
    const batch: RowBatch = {
      rows: this.rows,
      cols: this.cols,
      text: this.text.slice(0, this.pos),
      cells: this.cells.slice(0, 2 * this.rows * this.cols),
      nulls: this.nulls.slice(0, this.rows * this.cols),
    };
    this.rows = 0;
    this.pos = 0;
    return batch;
  }
}

/** `a` cut to `n` elements: the array itself (a view) when it is at least 3/4 full, else a trimmed copy. */
function trimmed<T extends Uint8Array<ArrayBuffer> | Uint32Array<ArrayBuffer>>(a: T, n: number): T {
  return (4 * n >= 3 * a.length ? a.subarray(0, n) : a.slice(0, n)) as T;
}

/**
 * The finished batch of a builder that will not be used again: its buffers are handed over as they
 * are where they are mostly full (no copy; at most a third of such a buffer is slack), trimmed copies
 * where they are not.
 */
export function releaseBatch(b: BatchBuilder): RowBatch {
  const batch: RowBatch = {
    rows: b.rows,
    cols: b.cols,
    text: trimmed(b.text as Uint8Array<ArrayBuffer>, b.pos),
    cells: trimmed(b.cells as Uint32Array<ArrayBuffer>, 2 * b.rows * b.cols),
    nulls: trimmed(b.nulls as Uint8Array<ArrayBuffer>, b.rows * b.cols),
  };
  b.text = new Uint8Array(0);
  b.cells = new Uint32Array(0);
  b.nulls = new Uint8Array(0);
  b.rows = 0;
  b.pos = 0;
  return batch;
}

/** The builder's rows as a batch that shares its buffers (valid until the builder is written again). */
export function batchView(b: BatchBuilder): RowBatch {
  return {
    rows: b.rows,
    cols: b.cols,
    text: b.text.subarray(0, b.pos) as Uint8Array<ArrayBuffer>,
    cells: b.cells.subarray(0, 2 * b.rows * b.cols) as Uint32Array<ArrayBuffer>,
    nulls: b.nulls.subarray(0, b.rows * b.cols) as Uint8Array<ArrayBuffer>,
  };
}

const encoder = new TextEncoder();
// ignoreBOM: a value that starts with U+FEFF keeps it (by default TextDecoder would drop it).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** One cell as a string, or null for SQL NULL. */
export function cellText(batch: RowBatch, row: number, col: number): string | null {
  const cell = row * batch.cols + col;
  if (batch.nulls[cell]) return null;
  return decoder.decode(batch.text.subarray(batch.cells[2 * cell], batch.cells[2 * cell + 1]));
}

/** Every row as an array of strings (NULL as null): for the grid's visible rows and for tests. */
export function batchRows(batch: RowBatch): (string | null)[][] {
  const out: (string | null)[][] = [];
  for (let r = 0; r < batch.rows; r++) {
    const row: (string | null)[] = [];
    for (let c = 0; c < batch.cols; c++) row.push(cellText(batch, r, c));
    out.push(row);
  }
  return out;
}
