/**
 * Rows of several B-trees of one index merged into the index's order: a partitioned table's
 * partitions each hold their own tree of every index, so the table's index order is a k-way merge of
 * the partitions' (each already in its order). Rows compare as InnoDB orders the index's records:
 * key part by key part (a secondary index's columns, then the clustered key's), NULL first, each by
 * its column's collation-aware order (order-key.ts, compared whole as an index compares them, not
 * cut at max_sort_length as an ORDER BY is), a descending part reversed; equal keys (only rows of a
 * mode with deleted ones can tie) keep the inputs' order. One batch per input is held, and the
 * batch being filled: memory is bounded whatever the partitions' size.
 */
import type { KeyColumn } from '../records/clustered-index.ts';
import { gatherRows, type RowPick } from '../values/batch-edit.ts';
import { compareOrderKeys, KeyBuffer, loadColumnOrder, type ColumnOrder, type KeySink, type OrderKind } from '../values/order-key.ts';
import { cellText, type RowBatch } from '../values/row-batch.ts';

interface MergePart {
  /** The output column the part's value is in. */
  out: number;
  kind: OrderKind;
  key: ColumnOrder['key'];
  descending: boolean;
}

/** How rows are put in an index's order: its parts, each with the order of its column's values. */
export interface MergeKey {
  parts: readonly MergePart[];
}

/** The merge key of an index whose key parts are `keyParts`, or why its rows cannot be merged in its order. */
export async function mergeKey(keyParts: readonly KeyColumn[], spatial: boolean): Promise<MergeKey | { why: string }> {
  if (spatial) return { why: 'an R-tree (SPATIAL index) orders its records by their rectangles within each tree, not by one order across trees' };
  if (keyParts.length === 0) return { why: 'the rows are clustered on a hidden DB_ROW_ID, which is not decoded' };
  const parts: MergePart[] = [];
  for (const k of keyParts) {
    const order = await loadColumnOrder(k.column, { whole: true });
    if ('why' in order) return order;
    parts.push({ out: k.out, kind: order.kind, key: order.key, descending: k.descending });
  }
  return { parts };
}

/**
 * Writes the merge key of row `row` of `batch` into `out`: part after part, a NULL as the byte 0, a
 * value as the byte 1, its key's length (u32, little-endian) and the key. Self-delimiting, so that
 * keys can be stored one after another (a sort's runs, workers/sort-run.ts) and compared part by
 * part (`compareMergeKeys`), each by its own column's order and direction.
 */
export function writeMergeKey(key: MergeKey, batch: RowBatch, row: number, out: KeySink): void {
  for (const p of key.parts) {
    const text = cellText(batch, row, p.out);
    const at = out.reserve(text === null ? 1 : 5);
    out.bytes[at] = text === null ? 0 : 1;
    out.length = at + (text === null ? 1 : 5);
    if (text === null) continue;
    p.key(text, out);
    const n = out.length - at - 5;
    out.bytes[at + 1] = n & 0xff;
    out.bytes[at + 2] = (n >>> 8) & 0xff;
    out.bytes[at + 3] = (n >>> 16) & 0xff;
    out.bytes[at + 4] = n >>> 24;
  }
}

function lengthAt(b: Uint8Array, i: number): number {
  return (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;
}

/** The order of two keys writeMergeKey wrote (at `a[ao]`, `b[bo]`; each holds its parts' lengths): the index's order of its records. */
export function compareMergeKeys(key: MergeKey, a: Uint8Array, ao: number, b: Uint8Array, bo: number): number {
  let i = ao;
  let j = bo;
  for (const p of key.parts) {
    const an = a[i] === 0;
    const bn = b[j] === 0;
    let c: number;
    if (an || bn) {
      c = Number(bn) - Number(an);
      i += an ? 1 : 5 + lengthAt(a, i + 1);
      j += bn ? 1 : 5 + lengthAt(b, j + 1);
    } else {
      const na = lengthAt(a, i + 1);
      const nb = lengthAt(b, j + 1);
      c = compareOrderKeys(p.kind, a, i + 5, na, b, j + 5, nb);
      i += 5 + na;
      j += 5 + nb;
    }
    if (c !== 0) return p.descending ? -c : c;
  }
  return 0;
}

/** An input's current row, and its key (writeMergeKey's). */
class Cursor {
  readonly keys = new KeyBuffer();
  batch: RowBatch | null = null;
  row = 0;

  constructor(readonly rank: number, readonly input: AsyncIterator<RowBatch>, private readonly key: MergeKey) {}

  /** Moves to the next row; false at the input's end. */
  async next(): Promise<boolean> {
    this.row++;
    while (this.batch === null || this.row >= this.batch.rows) {
      const got = await this.input.next();
      if (got.done === true) {
        this.batch = null;
        return false;
      }
      this.batch = got.value;
      this.row = 0;
    }
    this.keys.length = 0;
    writeMergeKey(this.key, this.batch, this.row, this.keys);
    return true;
  }
}

function compareCursors(key: MergeKey, a: Cursor, b: Cursor): number {
  return compareMergeKeys(key, a.keys.bytes, 0, b.keys.bytes, 0) || a.rank - b.rank;
}

/** A binary min-heap of the cursors, by their rows' keys. */
class CursorHeap {
  readonly items: Cursor[] = [];

  constructor(private readonly key: MergeKey) {}

  private less(i: number, j: number): boolean {
    return compareCursors(this.key, this.items[i], this.items[j]) < 0;
  }

  private swap(i: number, j: number): void {
    [this.items[i], this.items[j]] = [this.items[j], this.items[i]];
  }

  push(c: Cursor): void {
    let i = this.items.push(c) - 1;
    while (i > 0 && this.less(i, (i - 1) >> 1)) {
      this.swap(i, (i - 1) >> 1);
      i = (i - 1) >> 1;
    }
  }

  /** Puts the top back in its place after its row changed (or removes it, at its end). */
  settle(ended: boolean): void {
    const last = this.items.pop() as Cursor;
    if (ended && this.items.length === 0) return;
    if (!ended) this.items.push(last);
    else this.items[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const m = l + 1 < this.items.length && this.less(l + 1, l) ? l + 1 : l;
      if (l >= this.items.length || !this.less(m, i)) return;
      this.swap(i, m);
      i = m;
    }
  }
}

/**
 * The rows of `inputs` (batches of the same columns, each input in the order of `key`), merged into
 * that order, in batches of `batchRows`. The inputs are closed at the end, or when the caller stops.
 */
export async function* mergeInKeyOrder(inputs: readonly AsyncIterable<RowBatch>[], key: MergeKey, batchRows = 5000): AsyncGenerator<RowBatch> {
  const cursors = inputs.map((input, rank) => new Cursor(rank, input[Symbol.asyncIterator](), key));
  try {
    const heap = new CursorHeap(key);
    for (const c of cursors) if (await c.next()) heap.push(c);
    let picks: RowPick[] = [];
    let cols = 0;
    while (heap.items.length > 0) {
      const top = heap.items[0];
      const batch = top.batch as RowBatch;
      cols = batch.cols;
      picks.push({ batch, row: top.row });
      heap.settle(!(await top.next()));
      if (picks.length >= batchRows) {
        yield gatherRows(picks, cols);
        picks = [];
      }
    }
    if (picks.length > 0) yield gatherRows(picks, cols);
  } finally {
    await Promise.all(cursors.map((c) => c.input.return?.()));
  }
}
