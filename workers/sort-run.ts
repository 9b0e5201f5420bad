/**
 * The runs of the external sort (sort-methods.ts): rows' sort keys with their place in the clustered
 * index, sorted and kept compact as Blobs, and their merge.
 *
 * A run is a Blob of records, one per row, in order: [u8 1 | 0 for NULL][u32 key length][key]
 * [i32 leaf][i32 row on the leaf][u32 payload length][payload] (little-endian; the payload is the
 * row's cells for an export, row-payload.ts, else empty). Records compare by NULL first, then the key
 * (a KeyCompare: the column's ORDER BY order, or an index's whole key, sort-methods.ts), then leaf and row: the clustered key's order,
 * which breaks ties as `ORDER BY col, pk` does; all of it reversed for a descending sort (`ORDER BY
 * col DESC, pk DESC`). A `Merger` reads each run 1 MiB at a time, so its memory is a chunk per run,
 * whatever the runs' size, and it can stop and go on from a cursor (each run's offset) in another
 * call. Pure TypeScript over Blob: unit-tested in Node.
 */
import { KeyBuffer } from '../src/core/values/order-key.ts';

/** How two keys of a run compare (`a[ao, ao + al)` and `b[bo, bo + bl)`): a column's order, or an index's whole key. */
export type KeyCompare = (a: Uint8Array, ao: number, al: number, b: Uint8Array, bo: number, bl: number) => number;

const HEAD = 5;
const TAIL = 12;
/** Bytes of a run read at a time in a merge. */
const CHUNK = 1 << 20;

/** A growable byte buffer (keys and payloads of a run). */
export class ByteStore extends KeyBuffer {
  constructor() {
    super(1 << 16);
  }

  push(src: Uint8Array, start = 0, end = src.length): void {
    const at = this.reserve(end - start);
    this.bytes.set(src.subarray(start, end), at);
    this.length += end - start;
  }
}

/** Collects one run's rows and writes them sorted (`finish`). */
export class RunWriter {
  rows = 0;
  /** Keys and payloads, one after another; the current row's payload is being added at the end. */
  readonly data = new ByteStore();
  /** Per row: where its key starts in `data` (-1: NULL), its length, leaf, row, payload start and length. */
  #at: number[] = [];
  #len: number[] = [];
  #leaf: number[] = [];
  #row: number[] = [];
  #pay: number[] = [];
  #payLen: number[] = [];

  constructor(readonly compare: KeyCompare, readonly descending = false) {}

  /** Starts a row (NULL or not): its key is written into `data` next, then `keyDone`, then its payload if any. */
  begin(isNull: boolean, leaf: number, row: number): void {
    this.#close();
    this.#at.push(isNull ? -1 : this.data.length);
    this.#len.push(0);
    this.#leaf.push(leaf);
    this.#row.push(row);
    this.#pay.push(this.data.length);
    this.#payLen.push(-1);
    this.rows++;
  }

  /** The key of the row begun is written: what follows in `data` is its payload. */
  keyDone(): void {
    const last = this.rows - 1;
    if (this.#at[last] >= 0) this.#len[last] = this.data.length - this.#at[last];
    this.#pay[last] = this.data.length;
  }

  /** Ends the payload of the last row added. */
  #close(): void {
    const last = this.rows - 1;
    if (last >= 0 && this.#payLen[last] < 0) this.#payLen[last] = this.data.length - this.#pay[last];
  }

  /** The rows sorted, as a Blob of records. */
  finish(): Blob {
    this.#close();
    // Locals, not fields, in the comparator: it runs ~n log n times.
    const keys = this.data.bytes;
    const { compare } = this;
    const at = this.#at;
    const len = this.#len;
    const leaf = this.#leaf;
    const row = this.#row;
    const sign = this.descending ? -1 : 1;
    const order = Array.from({ length: this.rows }, (_, i) => i).sort((i, j) => {
      const a = at[i];
      const b = at[j];
      let c = 0;
      if ((a < 0) !== (b < 0)) c = a < 0 ? -1 : 1;
      else if (a >= 0) c = compare(keys, a, len[i], keys, b, len[j]);
      return sign * (c || leaf[i] - leaf[j] || row[i] - row[j]);
    });
    const out = new Uint8Array(this.rows * (HEAD + TAIL) + this.data.length);
    const view = new DataView(out.buffer);
    let p = 0;
    for (const i of order) {
      const n = len[i];
      const payLen = this.#payLen[i];
      out[p] = at[i] < 0 ? 0 : 1;
      view.setUint32(p + 1, n, true);
      if (n > 0) out.set(keys.subarray(at[i], at[i] + n), p + HEAD);
      p += HEAD + n;
      view.setInt32(p, leaf[i], true);
      view.setInt32(p + 4, row[i], true);
      view.setUint32(p + 8, payLen, true);
      if (payLen > 0) out.set(keys.subarray(this.#pay[i], this.#pay[i] + payLen), p + TAIL);
      p += TAIL + payLen;
    }
    return new Blob([out]);
  }
}

/** Reads a run's records one after another, a chunk at a time, from a byte offset. */
export class RunReader {
  readonly #blob: Blob;
  /** Offset in the run of the first byte not read yet, and of buf[0]. */
  #read: number;
  #base: number;
  #buf = new Uint8Array(0);
  #view = new DataView(this.#buf.buffer);
  #next = 0;
  /** The current record: NULL or not, where its key and payload are in `buf`, its leaf and row. */
  isNull = false;
  keyAt = 0;
  keyLen = 0;
  leaf = 0;
  row = 0;
  payAt = 0;
  payLen = 0;
  /** Offset in the run of the current record. */
  at = 0;

  constructor(blob: Blob, from = 0) {
    this.#blob = blob;
    this.#read = from;
    this.#base = from;
  }

  get buf(): Uint8Array {
    return this.#buf;
  }

  /** Moves to the next record if it is in the chunk read; false when a read is needed (`fill`). */
  step(): boolean {
    const p = this.#next;
    const b = this.#buf;
    if (p + HEAD > b.length) return false;
    const len = this.#view.getUint32(p + 1, true);
    const tail = p + HEAD + len;
    if (tail + TAIL > b.length) return false;
    const payLen = this.#view.getUint32(tail + 8, true);
    if (tail + TAIL + payLen > b.length) return false;
    this.at = this.#base + p;
    this.isNull = b[p] === 0;
    this.keyAt = p + HEAD;
    this.keyLen = len;
    this.leaf = this.#view.getInt32(tail, true);
    this.row = this.#view.getInt32(tail + 4, true);
    this.payAt = tail + TAIL;
    this.payLen = payLen;
    this.#next = tail + TAIL + payLen;
    return true;
  }

  /** Reads on until the next record is whole, and moves to it; false at the end of the run. */
  async fill(): Promise<boolean> {
    while (this.#read < this.#blob.size) {
      const rest = this.#buf.subarray(this.#next);
      const chunk = new Uint8Array(await this.#blob.slice(this.#read, this.#read + CHUNK).arrayBuffer());
      const joined = new Uint8Array(rest.length + chunk.length);
      joined.set(rest);
      joined.set(chunk, rest.length);
      this.#base = this.#read - rest.length;
      this.#read += chunk.length;
      this.#buf = joined;
      this.#view = new DataView(joined.buffer);
      this.#next = 0;
      if (this.step()) return true;
    }
    return false;
  }
}

/** The order of two readers' current records (as RunWriter sorts). */
function compareRecords(compare: KeyCompare, a: RunReader, b: RunReader): number {
  let c = 0;
  if (a.isNull !== b.isNull) c = a.isNull ? -1 : 1;
  else if (!a.isNull) c = compare(a.buf, a.keyAt, a.keyLen, b.buf, b.keyAt, b.keyLen);
  return c || a.leaf - b.leaf || a.row - b.row;
}

/** Merges sorted runs, record by record (a binary heap of the runs' current records). */
export class Merger {
  readonly #heap: RunReader[] = [];
  readonly #less: (i: number, j: number) => boolean;
  readonly #runs: readonly Blob[];
  readonly #readers: RunReader[];
  readonly #from: Float64Array;
  #started = false;
  #taken: RunReader | null = null;

  /** `cursor`: each run's offset to go on from (Merger.cursor of an earlier merge), else the starts. */
  constructor(runs: readonly Blob[], compare: KeyCompare, descending: boolean, cursor?: ArrayLike<number>) {
    this.#runs = runs;
    this.#from = Float64Array.from(runs, (_, i) => cursor?.[i] ?? 0);
    this.#readers = runs.map((blob, i) => new RunReader(blob, this.#from[i]));
    const sign = descending ? -1 : 1;
    this.#less = (i, j) => sign * compareRecords(compare, this.#heap[i], this.#heap[j]) < 0;
  }

  /** The next record in order (its reader, valid until the next call), or null at the end. */
  async next(): Promise<RunReader | null> {
    if (!this.#started) {
      this.#started = true;
      for (const r of this.#readers) if (await r.fill()) this.#heap.push(r);
      for (let i = (this.#heap.length >> 1) - 1; i >= 0; i--) this.#sift(i);
    } else if (this.#taken) {
      // Most records are in the chunk read: no await for them.
      if (!this.#taken.step() && !(await this.#taken.fill())) {
        const last = this.#heap.pop() as RunReader;
        if (this.#heap.length > 0 && last !== this.#taken) this.#heap[0] = last;
      }
      if (this.#heap.length > 0) this.#sift(0);
    }
    this.#taken = this.#heap[0] ?? null;
    return this.#taken;
  }

  /** Where each run goes on from after the records taken so far (the one last taken included). */
  cursor(): Float64Array {
    if (!this.#started) return this.#from.slice();
    return Float64Array.from(this.#readers, (r, i) => {
      if (!this.#heap.includes(r)) return this.#runs[i].size;
      return r === this.#taken ? r.at + recordLength(r) : r.at;
    });
  }

  #sift(from: number): void {
    const heap = this.#heap;
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && this.#less(l, m)) m = l;
      if (r < heap.length && this.#less(r, m)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  }
}

function recordLength(r: RunReader): number {
  return HEAD + r.keyLen + TAIL + r.payLen;
}

/**
 * Merges sorted runs into the rows' numbers in order (`starts[leaf] + row`: RowMap.starts, final
 * once every leaf was decoded); `total`: the rows the runs hold.
 */
export async function mergeRuns(runs: readonly Blob[], compare: KeyCompare, starts: Float64Array, total: number): Promise<Float64Array> {
  const merger = new Merger(runs, compare, false);
  const out = new Float64Array(total);
  let n = 0;
  for (let r = await merger.next(); r; r = await merger.next()) {
    if (n === total) throw new Error(`The sorted runs hold more rows than the ${total} sorted.`);
    out[n++] = starts[r.leaf] + r.row;
  }
  if (n !== total) throw new Error(`The sorted runs hold ${n} rows, not the ${total} sorted.`);
  return out;
}
