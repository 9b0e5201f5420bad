/**
 * The runs of the external sort (sort-methods.ts): rows' sort keys with their place in the clustered
 * index, sorted and kept compact as Blobs, and their merge.
 *
 * A run is a Blob of records, one per row, in order: [u8 1 | 0 for NULL][u32 key length][key]
 * [i32 leaf][i32 row on the leaf] (little-endian). Records compare by NULL first, then the key
 * (compareOrderKeys, the column's ORDER BY order), then leaf and row: the clustered key's order,
 * which breaks ties as `ORDER BY col, pk` does. `mergeRuns` reads each run 1 MiB at a time, so its
 * memory is a chunk per run plus the 8-byte row numbers it returns, whatever the runs' size.
 * Pure TypeScript over Blob: unit-tested in Node.
 */
import { compareOrderKeys, type OrderKind } from '../src/core/values/order-key.ts';

const HEAD = 5;
const TAIL = 8;
/** Bytes of a run read at a time in a merge. */
const CHUNK = 1 << 20;

/** Collects one run's rows and writes them sorted (`finish`). */
export class RunWriter {
  rows = 0;
  #keys = new Uint8Array(1 << 16);
  #keyBytes = 0;
  /** Per row: where its key starts in #keys (-1: NULL), its length, leaf and row. */
  #at: number[] = [];
  #len: number[] = [];
  #leaf: number[] = [];
  #row: number[] = [];

  constructor(readonly kind: OrderKind) {}

  add(key: Uint8Array | null, leaf: number, row: number): void {
    if (key) {
      if (this.#keyBytes + key.length > this.#keys.length) {
        const grown = new Uint8Array(Math.max(this.#keys.length * 2, this.#keyBytes + key.length));
        grown.set(this.#keys.subarray(0, this.#keyBytes));
        this.#keys = grown;
      }
      this.#keys.set(key, this.#keyBytes);
    }
    this.#at.push(key ? this.#keyBytes : -1);
    this.#len.push(key ? key.length : 0);
    this.#keyBytes += key ? key.length : 0;
    this.#leaf.push(leaf);
    this.#row.push(row);
    this.rows++;
  }

  #compare(i: number, j: number): number {
    const a = this.#at[i];
    const b = this.#at[j];
    if ((a < 0) !== (b < 0)) return a < 0 ? -1 : 1;
    if (a >= 0) {
      const c = compareOrderKeys(this.kind, this.#keys, a, this.#len[i], this.#keys, b, this.#len[j]);
      if (c !== 0) return c;
    }
    return this.#leaf[i] - this.#leaf[j] || this.#row[i] - this.#row[j];
  }

  /** The rows sorted, as a Blob of records. */
  finish(): Blob {
    const order = Array.from({ length: this.rows }, (_, i) => i).sort((i, j) => this.#compare(i, j));
    const out = new Uint8Array(this.rows * (HEAD + TAIL) + this.#keyBytes);
    const view = new DataView(out.buffer);
    let p = 0;
    for (const i of order) {
      const len = this.#len[i];
      out[p] = this.#at[i] < 0 ? 0 : 1;
      view.setUint32(p + 1, len, true);
      if (len > 0) out.set(this.#keys.subarray(this.#at[i], this.#at[i] + len), p + HEAD);
      view.setInt32(p + HEAD + len, this.#leaf[i], true);
      view.setInt32(p + HEAD + len + 4, this.#row[i], true);
      p += HEAD + len + TAIL;
    }
    return new Blob([out]);
  }
}

/** Reads a run's records one after another, a chunk at a time. */
export class RunReader {
  readonly #blob: Blob;
  #read = 0;
  #buf = new Uint8Array(0);
  #view = new DataView(this.#buf.buffer);
  #next = 0;
  /** The current record: NULL or not, where its key is in `buf`, its leaf and row. */
  isNull = false;
  keyAt = 0;
  keyLen = 0;
  leaf = 0;
  row = 0;

  constructor(blob: Blob) {
    this.#blob = blob;
  }

  get buf(): Uint8Array {
    return this.#buf;
  }

  /** Moves to the next record if it is in the chunk read; false when a read is needed (`fill`). */
  step(): boolean {
    const p = this.#next;
    if (p + HEAD > this.#buf.length) return false;
    const len = this.#view.getUint32(p + 1, true);
    if (p + HEAD + len + TAIL > this.#buf.length) return false;
    this.isNull = this.#buf[p] === 0;
    this.keyAt = p + HEAD;
    this.keyLen = len;
    this.leaf = this.#view.getInt32(p + HEAD + len, true);
    this.row = this.#view.getInt32(p + HEAD + len + 4, true);
    this.#next = p + HEAD + len + TAIL;
    return true;
  }

  /** Reads on until the next record is whole, and moves to it; false at the end of the run. */
  async fill(): Promise<boolean> {
    while (this.#read < this.#blob.size) {
      const rest = this.#buf.subarray(this.#next);
      const chunk = new Uint8Array(await this.#blob.slice(this.#read, this.#read + CHUNK).arrayBuffer());
      this.#read += chunk.length;
      const joined = new Uint8Array(rest.length + chunk.length);
      joined.set(rest);
      joined.set(chunk, rest.length);
      this.#buf = joined;
      this.#view = new DataView(joined.buffer);
      this.#next = 0;
      if (this.step()) return true;
    }
    return false;
  }

  /** Moves to the next record, reading if needed; false at the end. */
  async advance(): Promise<boolean> {
    return this.step() || this.fill();
  }
}

/** The order of two readers' current records (as RunWriter sorts). */
export function compareRecords(kind: OrderKind, a: RunReader, b: RunReader): number {
  if (a.isNull !== b.isNull) return a.isNull ? -1 : 1;
  if (!a.isNull) {
    const c = compareOrderKeys(kind, a.buf, a.keyAt, a.keyLen, b.buf, b.keyAt, b.keyLen);
    if (c !== 0) return c;
  }
  return a.leaf - b.leaf || a.row - b.row;
}

/**
 * Merges sorted runs into the rows' numbers in order (`starts[leaf] + row`: RowMap.starts, final
 * once every leaf was decoded). A binary heap of the runs' current records.
 */
export async function mergeRuns(runs: readonly Blob[], kind: OrderKind, starts: Float64Array, total: number): Promise<Float64Array> {
  const heap: RunReader[] = [];
  for (const blob of runs) {
    const reader = new RunReader(blob);
    if (await reader.advance()) heap.push(reader);
  }
  const less = (i: number, j: number) => compareRecords(kind, heap[i], heap[j]) < 0;
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i, less);
  const out = new Float64Array(total);
  let n = 0;
  while (heap.length > 0) {
    const top = heap[0];
    if (n === total) throw new Error(`The sorted runs hold more rows than the ${total} sorted.`);
    out[n++] = starts[top.leaf] + top.row;
    // Most records are in the chunk read: no await for them.
    if (!top.step() && !(await top.fill())) {
      const last = heap.pop() as RunReader;
      if (heap.length === 0) break;
      heap[0] = last;
    }
    siftDown(heap, 0, less);
  }
  if (n !== total) throw new Error(`The sorted runs hold ${n} rows, not the ${total} sorted.`);
  return out;
}

function siftDown(heap: RunReader[], from: number, less: (i: number, j: number) => boolean): void {
  let i = from;
  for (;;) {
    const l = 2 * i + 1;
    const r = l + 1;
    let m = i;
    if (l < heap.length && less(l, m)) m = l;
    if (r < heap.length && less(r, m)) m = r;
    if (m === i) return;
    [heap[i], heap[m]] = [heap[m], heap[i]];
    i = m;
  }
}
