/**
 * Decoded rows in a compact, transferable form: every cell's text (UTF-8, exactly what the server's
 * SELECT shows) lives in one byte buffer, addressed by a start/end pair per cell, with a NULL flag per
 * cell. A page's rows become one batch: no object or string per cell, and the three buffers can be
 * handed from a worker to the page without copying.
 */
import { cleanEdges, needsQuotes } from './csv-quoting.ts';

export interface RowBatch {
  rows: number;
  cols: number;
  /** UTF-8 text of all cells. */
  text: Uint8Array<ArrayBuffer>;
  /** [start, end) of cell (r * cols + c) in `text`, at index 2 * cell. */
  cells: Uint32Array<ArrayBuffer>;
  /** 1 where the cell is SQL NULL. */
  nulls: Uint8Array<ArrayBuffer>;
  /**
   * From `separated` builders: [start, end) of row r's CSV line in `text` at index 2 * r, or -1 where
   * the row's text is not its line (see BatchBuilder); csvBytes() copies such lines as they are.
   * A line's values that need quotes have them in the text, just outside their cells.
   */
  lines?: Int32Array<ArrayBuffer>;
  /**
   * Cells (r * cols + c) whose value is not the one on disk: of a row's earlier version (trx/row-vers.ts,
   * a read "before transaction N"); absent when there is none.
   */
  changed?: Int32Array<ArrayBuffer>;
}

/** The buffers to transfer (not copy) when a batch crosses to another thread. */
export function batchBuffers(batch: RowBatch): ArrayBuffer[] {
  const buffers = [batch.text.buffer, batch.cells.buffer, batch.nulls.buffer];
  if (batch.lines) buffers.push(batch.lines.buffer);
  if (batch.changed) buffers.push(batch.changed.buffer);
  return buffers;
}

/**
 * How a separated builder learns whether a column's values may need quotes in CSV (quoteChecks): by
 * looking at every byte of the value; never (digits, signs, points: numbers, hex); or from the
 * writer, which sets BatchBuilder.special while it copies the value (its ends are checked here).
 */
export const QUOTE_SCAN = 0;
export const QUOTE_NEVER = 1;
export const QUOTE_REPORTED = 2;

/** What `separated` builders write after each cell: CSV's comma. */
const SEPARATOR = 44;
const NEWLINE = 10;
/** What a `separated` builder writes for a NULL cell, before its comma: the CSV marker `\N`. */
const BACKSLASH = 92;
const N = 78;
const QUOTE = 34;

/**
 * How a value at t[start, end), just written into a row that is still its CSV line, joins the line:
 * 0 as it is (no quotes needed), 1 between quotes put in place (quoteInPlace), -1 not at all (it
 * needs quotes and holds a quote, which CSV doubles: the row must go cell by cell). `check` is one of
 * QUOTE_* (QUOTE_REPORTED with nothing reported: only its ends can call for quotes); `quote` whether
 * the value holds a quote, -1 when not known.
 */
export function lineQuoting(t: Uint8Array, start: number, end: number, check: number, single: boolean, quote: number): number {
  if (check === QUOTE_NEVER) return 0;
  if (check === QUOTE_SCAN ? !needsQuotes(t, start, end, single) : cleanEdges(t, start, end, single)) return 0;
  if (quote === -1) {
    quote = 0;
    for (let i = start; i < end && quote === 0; i++) if (t[i] === QUOTE) quote = 1;
  }
  return quote === 1 ? -1 : 1;
}

/** Puts t[start, end) between quotes, moving it one byte on: t has room for the two quotes. */
export function quoteInPlace(t: Uint8Array, start: number, end: number): void {
  t.copyWithin(start + 1, start, end);
  t[start] = QUOTE;
  t[end + 1] = QUOTE;
}

/**
 * Appends rows cell by cell; grows its buffers as needed.
 *
 * `separated` (for CSV exports): a comma follows each cell's text in the buffer, outside the cell, and
 * `\N` stands in the text for a NULL set with setNull(). A row whose cells all come in column order,
 * each just after the previous one's comma, then already reads as its CSV line once a value that needs
 * quotes gets them around it (in place, outside its cell: its cell stays the value): endRow() turns its
 * last comma into the line end and records the line in `lines`, and csvBytes() copies such lines as
 * they are. Any other row (a value stored off-page and written later, cells out of order, a value
 * that needs quotes and holds a quote itself, which CSV doubles) is left to csvBytes() to write cell
 * by cell.
 */
export class BatchBuilder {
  text: Uint8Array;
  pos = 0;
  cells: Uint32Array;
  nulls: Uint8Array;
  /** `separated`: see RowBatch.lines. */
  lines: Int32Array;
  rows = 0;
  /**
   * `separated`: how to tell whether each column's values may need quotes in CSV (one of QUOTE_* per
   * column, from the writer of the row's cells); without it, every value is checked as it is set.
   */
  quoteChecks: Uint8Array | null = null;
  /** Set by writers that report bytes calling for quotes (QUOTE_REPORTED) while they copy a value. */
  special = false;
  /**
   * `separated`, and its batch only ever read by csvBytes(): a page's rows may then be written as
   * lines alone (readers/leaf-csv.ts), their cells and NULL flags left unset.
   */
  linesOnly = false;
  /** RowBatch.changed as it is built: none in most batches, so a list. */
  readonly changed: number[] = [];
  /** The current row's first cell, the cell expected next, and where its text must start to keep the row a line. */
  #rowBase = 0;
  #nextCell = 0;
  #nextPos = 0;
  #lineStart = 0;
  #line = false;

  /**
   * `expectedBytes`: text to make room for up front, so that a big batch is not grown (copied) step by
   * step; no more than that, as the room is zeroed (a builder of 64 KB for each of 50,000 one-row
   * tables: a tenth of `DIR -o`'s time).
   */
  constructor(readonly cols: number, expectedRows = 64, expectedBytes = 1 << 16, readonly separated = false) {
    this.text = new Uint8Array(Math.max(1 << 12, expectedBytes));
    this.cells = new Uint32Array(2 * cols * expectedRows);
    this.nulls = new Uint8Array(cols * expectedRows);
    this.lines = new Int32Array(separated ? 2 * expectedRows : 0);
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
    if (this.separated) this.startLine(base);
    this.rows++;
    return base;
  }

  private startLine(base: number): void {
    const r = this.rows;
    if (2 * r + 2 > this.lines.length) {
      const lines = new Int32Array(Math.max(this.lines.length * 2, 2 * r + 2));
      lines.set(this.lines);
      this.lines = lines;
    }
    this.lines[2 * r] = -1;
    this.#rowBase = base;
    this.#nextCell = base;
    this.#nextPos = this.pos;
    this.#lineStart = this.pos;
    this.#line = true;
  }

  /**
   * Ends the row started last. For `separated` builders, a row that reads as its CSV line gets its
   * line end and is recorded in `lines`.
   */
  endRow(): void {
    if (!this.separated || !this.#line || this.#nextCell !== this.#rowBase + this.cols || this.cols === 0) return;
    const r = this.rows - 1;
    this.text[this.pos - 1] = NEWLINE;
    this.lines[2 * r] = this.#lineStart;
    this.lines[2 * r + 1] = this.pos;
    this.#line = false;
  }

  /**
   * Whether the row started last is still to be written and can be written as its CSV line in one
   * go (record.ts writeLine): a separated builder, no cell of the row written yet.
   */
  lineAhead(): boolean {
    return this.#line && this.pos === this.#lineStart && this.#nextCell === this.#rowBase;
  }

  /**
   * The current row's cells have been written from the row's start, each followed by its comma and
   * quoted in place where needed (record.ts writeLine). When `whole`, they read as the row's CSV
   * line, recorded as such; else csvBytes() writes the row cell by cell.
   */
  lineWritten(whole: boolean): void {
    this.#line = false;
    if (!whole || this.cols === 0) return;
    const r = this.rows - 1;
    this.text[this.pos - 1] = NEWLINE;
    this.lines[2 * r] = this.#lineStart;
    this.lines[2 * r + 1] = this.pos;
  }

  /** `lines` with room for `n` more rows (the rows of a linesOnly builder written as lines alone). */
  linesFor(n: number): Int32Array {
    const need = 2 * (this.rows + n);
    if (need > this.lines.length) {
      const lines = new Int32Array(Math.max(this.lines.length * 2, need));
      lines.set(this.lines);
      this.lines = lines;
    }
    return this.lines;
  }

  /**
   * A NULL cell (cells start out NULL: only `separated` builders write anything, the `\N` marker of a
   * row that is still its CSV line).
   */
  setNull(cell: number): void {
    if (!this.#line) return;
    if (cell !== this.#nextCell) {
      this.#line = false;
      return;
    }
    this.reserve(2);
    this.text[this.pos++] = BACKSLASH;
    this.text[this.pos++] = N;
    this.text[this.pos++] = SEPARATOR;
    this.#nextCell = cell + 1;
    this.#nextPos = this.pos;
  }

  /** The builder's state, to roll back to when a record or a page turns out to be undecodable. */
  mark(): { rows: number; pos: number } {
    return { rows: this.rows, pos: this.pos };
  }

  rollback(mark: { rows: number; pos: number }): void {
    while (this.changed.length > 0 && this.changed[this.changed.length - 1] >= mark.rows * this.cols) this.changed.pop();
    this.rows = mark.rows;
    this.pos = mark.pos;
    this.#line = false;
  }

  /** Empties the builder, keeping its buffers. */
  clear(): void {
    this.changed.length = 0;
    this.rows = 0;
    this.pos = 0;
    this.#line = false;
  }

  setCell(cell: number, start: number, end: number): void {
    // A value quoted in place moved one byte on, behind its opening quote.
    const shift = this.separated && this.separate(cell, start, end) ? 1 : 0;
    this.cells[2 * cell] = start + shift;
    this.cells[2 * cell + 1] = end + shift;
    this.nulls[cell] = 0;
  }

  /**
   * The comma after a cell just written, and whether its row still reads as its CSV line. Returns
   * true when the value, which needs quotes, got them in place.
   */
  private separate(cell: number, start: number, end: number): boolean {
    const special = this.special;
    this.special = false;
    if (end !== this.pos) {
      this.#line = false;
      return false;
    }
    const quoted = this.#line && this.quoteInLine(cell, start, end, special);
    // Writers reserve their bytes plus the spare one; an empty value may not have reserved at all.
    if (this.pos === this.text.length) this.reserve(0);
    this.text[this.pos++] = SEPARATOR;
    this.#nextCell = cell + 1;
    this.#nextPos = this.pos;
    return quoted;
  }

  /**
   * Keeps the current line CSV as the value just written at its end joins it: quotes it in place when
   * it needs them, or gives up the line (the row goes cell by cell) when the cell is out of place or
   * the value holds a quote (CSV would double it: the text would no longer be the value). Returns
   * whether it quoted the value.
   */
  private quoteInLine(cell: number, start: number, end: number, special: boolean): boolean {
    if (cell !== this.#nextCell || start !== this.#nextPos) {
      this.#line = false;
      return false;
    }
    const check = this.quoteChecks === null ? QUOTE_SCAN : this.quoteChecks[cell - this.#rowBase];
    const quoting = lineQuoting(this.text, start, end, special && check !== QUOTE_NEVER ? QUOTE_SCAN : check, this.cols === 1, -1);
    if (quoting === 0) return false;
    if (quoting < 0) {
      this.#line = false;
      return false;
    }
    this.reserve(2);
    quoteInPlace(this.text, start, end);
    this.pos = end + 2;
    return true;
  }

  /** Marks the cell of the last row ended as not the value on disk (RowBatch.changed). */
  markChanged(col: number): void {
    this.changed.push((this.rows - 1) * this.cols + col);
  }

  /** Appends a JS string as UTF-8 and makes it the cell's value. */
  setString(cell: number, value: string): void {
    // Not looked at: it may need quotes whatever its column.
    this.special = true;
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
    if (this.separated) batch.lines = this.lines.slice(0, 2 * this.rows);
    if (this.changed.length > 0) batch.changed = Int32Array.from(this.changed);
    this.clear();
    return batch;
  }
}

/** `a` cut to `n` elements: the array itself (a view) when it is at least 3/4 full, else a trimmed copy. */
function trimmed<T extends Uint8Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Int32Array<ArrayBuffer>>(a: T, n: number): T {
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
  if (b.separated) batch.lines = trimmed(b.lines as Int32Array<ArrayBuffer>, 2 * b.rows);
  if (b.changed.length > 0) batch.changed = Int32Array.from(b.changed);
  b.text = new Uint8Array(0);
  b.cells = new Uint32Array(0);
  b.nulls = new Uint8Array(0);
  b.lines = new Int32Array(0);
  b.clear();
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
    ...(b.separated ? { lines: b.lines.subarray(0, 2 * b.rows) as Int32Array<ArrayBuffer> } : {}),
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
