/**
 * The kinds of column chunk written by parquet-chunk.ts rather than by hyparquet-writer: numbers
 * (INT32 whole numbers, DATE days, DECIMALs of up to 15 digits) held as doubles, and UTF-8 text held
 * as its bytes; each parses its cells from a RowBatch's text and answers the chunk writer's
 * questions (hash, equality, estimated bytes, PLAIN bytes, extremes) about them.
 */
import { grown, ChunkColumn, noteNotHeld, utf8 } from './parquet-chunk.ts';
import type { PageBytes } from './parquet-encoding.ts';
import type { NotHeld } from './parquet-row-groups.ts';
import { civilDays, unscaled } from './parquet-cells.ts';
import type { ParquetColumn } from './parquet-columns.ts';
import type { RowBatch } from '../values/row-batch.ts';

/** Digits a double holds exactly: the widest DECIMAL taken here. */
const EXACT_DIGITS = 15;

/** INT32 whole numbers, DATE days, DECIMALs of up to 15 digits (INT32 or INT64), held as doubles. */
export class NumberColumn extends ChunkColumn {
  #values = new Float64Array(1024);
  readonly #kind: 'int32' | 'date' | 'decimal';

  constructor(column: ParquetColumn) {
    super(column, column.element.type === 'INT64' ? 8 : 4);
    this.#kind = column.kind as 'int32' | 'date' | 'decimal';
  }

  /** Room for `n` cells: the values' array, written past those held by parquet-leaf.ts. */
  valuesFor(n: number): Float64Array {
    this.hold(n);
    if (this.#values.length < n) {
      const values = new Float64Array(Math.max(n, this.#values.length * 2));
      values.set(this.#values);
      this.#values = values;
    }
    return this.#values;
  }

  protected carryValues(from: number, count: number): void {
    this.#values.copyWithin(0, from, from + count);
  }

  take(batch: RowBatch, c: number, r0: number, r1: number, firstRow: number, note: NotHeld): void {
    const { cols, text, cells, nulls } = batch;
    const n = this.n + r1 - r0;
    const values = this.valuesFor(n);
    const levels = this.levels;
    const kind = this.#kind;
    const scale = this.column.scale;
    let at = this.n;
    for (let r = r0; r < r1; r++, at++) {
      const cell = r * cols + c;
      if (nulls[cell]) {
        levels[at] = 0;
        continue;
      }
      const s = cells[2 * cell];
      const e = cells[2 * cell + 1];
      const v = kind === 'date' ? (e - s === 10 ? civilDays(text, s) : undefined) : unscaled(text, s, e, scale, false) as number | undefined;
      if (v === undefined) {
        levels[at] = 0;
        noteNotHeld(note, text, s, e, firstRow + r - r0);
        continue;
      }
      levels[at] = 1;
      values[at] = v;
    }
    this.n = n;
  }

  protected hash(i: number): number {
    return numberHash(this.#values[i]);
  }

  protected indexAll(): boolean {
    const values = this.#values;
    const { levels, indexes, slots, entries } = this;
    const mask = slots.length - 1;
    let prev = NaN;
    let prevEntry = 0;
    for (let i = 0; i < this.n; i++) {
      if (levels[i] === 0) continue;
      const v = values[i];
      if (v !== prev) {
        let h = numberHash(v) & mask;
        for (;;) {
          const e = slots[h] - 1;
          if (e < 0) {
            slots[h] = this.size + 1;
            if (!this.admit(i)) return false;
            prevEntry = this.size - 1;
            break;
          }
          if (values[entries[e]] === v) {
            prevEntry = e;
            break;
          }
          h = (h + 1) & mask;
        }
        prev = v;
      }
      indexes[i] = prevEntry;
    }
    return true;
  }

  protected same(i: number, j: number): boolean {
    return this.#values[i] === this.#values[j];
  }

  protected dictionaryBytes(): number {
    return this.physicalBytes;
  }

  protected allDictionaryBytes(values: number): number {
    return values * this.physicalBytes;
  }

  protected plainBytes(): number {
    return this.physicalBytes;
  }

  protected plainBytesFrom(from: number): number {
    return (this.n - from) * this.physicalBytes;
  }

  protected plain(out: PageBytes, i: number): void {
    if (this.physicalBytes === 8) out.int64(this.#values[i]);
    else out.int32(this.#values[i]);
  }

  protected extremes(cells: Int32Array | null, count: number): [number, number] {
    const values = this.#values;
    const levels = this.levels;
    let min = -1;
    let max = -1;
    for (let c = 0; c < count; c++) {
      const i = cells === null ? c : cells[c];
      if (levels[i] === 0) continue;
      if (min < 0) {
        min = i;
        max = i;
      } else if (values[i] < values[min]) min = i;
      else if (values[i] > values[max]) max = i;
    }
    return [min, max];
  }

  protected statistic(i: number, isMin: boolean): number | bigint {
    const v = this.#values[i];
    if (this.#kind === 'decimal') return BigInt(v);
    // As hyparquet-writer's statistics: a zero minimum is -0.
    return v === 0 && isMin ? -0 : v;
  }
}

/** UTF-8 text, held as its bytes. */
export class TextColumn extends ChunkColumn {
  #bytes = new Uint8Array(1 << 16);
  /** A view of #bytes, read and written by words. */
  words = new DataView(this.#bytes.buffer);
  /** Where each cell's bytes end (a cell begins where the one before ends). */
  #ends = new Int32Array(1024);

  constructor(column: ParquetColumn) {
    super(column, 0);
  }

  /** Room for `n` cells: where each one's bytes end, written past those held by parquet-leaf.ts. */
  endsFor(n: number): Int32Array {
    this.hold(n);
    this.#ends = grown(this.#ends, n);
    return this.#ends;
  }

  /** The bytes of the cells held, with room for `more` after them (in a new array when it grows). */
  bytesFor(more: number): Uint8Array {
    const used = this.#used();
    const need = used + more;
    if (need > this.#bytes.length) {
      let size = this.#bytes.length * 2;
      while (size < need) size *= 2;
      const bytes = new Uint8Array(size);
      bytes.set(this.#bytes.subarray(0, used));
      this.#bytes = bytes;
      this.words = new DataView(bytes.buffer);
    }
    return this.#bytes;
  }

  #used(): number {
    return this.n === 0 ? 0 : this.#ends[this.n - 1];
  }

  protected carryValues(from: number, count: number): void {
    const base = this.#start(from);
    this.#bytes.copyWithin(0, base, this.#ends[from + count - 1]);
    for (let i = 0; i < count; i++) this.#ends[i] = this.#ends[from + i] - base;
  }

  take(batch: RowBatch, c: number, r0: number, r1: number): void {
    const { cols, cells, nulls } = batch;
    const n = this.n + r1 - r0;
    this.endsFor(n);
    let used = this.#used();
    let need = 0;
    for (let r = r0; r < r1; r++) {
      const cell = r * cols + c;
      if (!nulls[cell]) need += cells[2 * cell + 1] - cells[2 * cell];
    }
    const bytes = this.bytesFor(need);
    const text = batch.text;
    let at = this.n;
    for (let r = r0; r < r1; r++, at++) {
      const cell = r * cols + c;
      if (nulls[cell]) {
        this.levels[at] = 0;
      } else {
        const s = cells[2 * cell];
        const e = cells[2 * cell + 1];
        this.levels[at] = 1;
        // Byte by byte: values are short, and a subarray per cell would be an object per cell.
        for (let k = s; k < e; k++) bytes[used++] = text[k];
      }
      this.#ends[at] = used;
    }
    this.n = n;
  }

  #start(i: number): number {
    return i === 0 ? 0 : this.#ends[i - 1];
  }

  protected hash(i: number): number {
    return textHash(this.#bytes, this.#start(i), this.#ends[i]);
  }

  protected same(i: number, j: number): boolean {
    return sameBytes(this.#bytes, this.#start(i), this.#ends[i], this.#start(j), this.#ends[j]);
  }

  protected indexAll(): boolean {
    const bytes = this.#bytes;
    const ends = this.#ends;
    const { levels, indexes, slots, entries } = this;
    const mask = slots.length - 1;
    let prevStart = 0;
    let prevEnd = -1;
    let prevEntry = 0;
    for (let i = 0, start = 0; i < this.n; start = ends[i++]) {
      if (levels[i] === 0) continue;
      const end = ends[i];
      if (!sameBytes(bytes, start, end, prevStart, prevEnd)) {
        let h = textHash(bytes, start, end) & mask;
        for (;;) {
          const e = slots[h] - 1;
          if (e < 0) {
            slots[h] = this.size + 1;
            if (!this.admit(i)) return false;
            prevEntry = this.size - 1;
            break;
          }
          const cell = entries[e];
          if (sameBytes(bytes, start, end, cell === 0 ? 0 : ends[cell - 1], ends[cell])) {
            prevEntry = e;
            break;
          }
          h = (h + 1) & mask;
        }
        prevStart = start;
        prevEnd = end;
      }
      indexes[i] = prevEntry;
    }
    return true;
  }

  /** The value's length as a JS string (UTF-16 units), which is what hyparquet-writer counts for strings. */
  protected dictionaryBytes(i: number): number {
    let units = 0;
    for (let k = this.#start(i), end = this.#ends[i]; k < end; k++) {
      const b = this.#bytes[k];
      if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
    }
    return units;
  }

  /** Over all the bytes held at once (a null has none): one pass, no call per cell. */
  protected allDictionaryBytes(): number {
    const end = this.#used();
    // ASCII (looked at four bytes a step) has a unit per byte.
    let high = 0;
    let k = 0;
    for (; k + 4 <= end; k += 4) high |= this.words.getInt32(k, true);
    for (; k < end; k++) high |= this.#bytes[k];
    if ((high & 0x80808080) === 0) return end;
    let units = 0;
    const bytes = this.#bytes;
    for (let k = 0; k < end; k++) {
      const b = bytes[k];
      if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
    }
    return units;
  }

  protected plainBytes(i: number): number {
    return this.#ends[i] - this.#start(i);
  }

  protected plainBytesFrom(from: number): number {
    return this.#used() - this.#start(from);
  }

  protected plain(out: PageBytes, i: number): void {
    out.byteArray(this.#bytes, this.words, this.#start(i), this.#ends[i]);
  }

  protected extremes(cells: Int32Array | null, count: number): [number, number] {
    let min = -1;
    let max = -1;
    for (let c = 0; c < count; c++) {
      const i = cells === null ? c : cells[c];
      if (this.levels[i] === 0) continue;
      if (min < 0 || this.#compare(i, min) < 0) min = i;
      if (max < 0 || this.#compare(i, max) > 0) max = i;
    }
    return [min, max];
  }

  /** UTF-8 bytes in unsigned order: code point order, as hyparquet-writer compares strings. */
  #compare(i: number, j: number): number {
    const a = this.#start(i);
    const b = this.#start(j);
    const la = this.#ends[i] - a;
    const lb = this.#ends[j] - b;
    for (let k = 0, n = Math.min(la, lb); k < n; k++) {
      const d = this.#bytes[a + k] - this.#bytes[b + k];
      if (d !== 0) return d;
    }
    return la - lb;
  }

  protected statistic(i: number): string {
    return utf8.decode(this.#bytes.subarray(this.#start(i), this.#ends[i]));
  }
}

/** A hash of a whole number held as a double (its low and high 32 bits mixed). */
function numberHash(v: number): number {
  return Math.imul((v | 0) ^ ((v / 0x1_0000_0000) | 0), 0x9e3779b1) >>> 7;
}

/** FNV-1a over bytes[start, end). */
function textHash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let k = start; k < end; k++) h = Math.imul(h ^ bytes[k], 0x01000193);
  return h >>> 0;
}

/** Whether bytes[a, aEnd) and bytes[b, bEnd) are the same bytes. */
function sameBytes(bytes: Uint8Array, a: number, aEnd: number, b: number, bEnd: number): boolean {
  const length = aEnd - a;
  if (bEnd - b !== length) return false;
  for (let k = 0; k < length; k++) if (bytes[a + k] !== bytes[b + k]) return false;
  return true;
}

/** The chunk writer of a column of a kind written here, or null for one left to hyparquet-writer. */
export function chunkColumn(column: ParquetColumn): ChunkColumn | null {
  const { kind, element } = column;
  if (kind === 'text') return new TextColumn(column);
  if (kind === 'int32' || kind === 'date') return new NumberColumn(column);
  if (kind === 'decimal' && (element.type === 'INT32' || element.type === 'INT64') && (element.precision ?? 0) <= EXACT_DIGITS) return new NumberColumn(column);
  return null;
}
