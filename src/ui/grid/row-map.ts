/**
 * Row numbers ↔ leaf pages. The leaves of the clustered index, in key order, each with its number of
 * rows: row r lies on the leaf whose range [start, start + count) holds it. Counts arrive in key
 * order from the counting pass (`setCounts`), so the rows known so far are always a prefix of the
 * table; a page's decode gives its true count (`setDecoded`), which wins over the counted one (a
 * damaged page, purged records in the deleted modes): the starts after it shift, so the grid shows
 * neither holes nor duplicates. Memory: two numbers per leaf page, whatever the row count.
 * No DOM: unit-tested in Node.
 */
export class RowMap {
  readonly leaves: Int32Array;
  /** Rows on each leaf (valid for the first `known`). */
  readonly counts: Int32Array;
  /** 1 where the count came from decoding the page (final). */
  readonly decoded: Uint8Array;
  /** start[i]: first row of leaf i; start[known] is the row count so far. */
  readonly starts: Float64Array;
  /** Leaves counted (a prefix). */
  known = 0;
  /** Counts set beyond `known` (out of order), waiting for the gap to fill. */
  #ahead: Uint8Array;
  /** Bumps whenever row numbers change (a count arrived or was corrected). */
  version = 0;

  constructor(leaves: Int32Array) {
    this.leaves = leaves;
    this.counts = new Int32Array(leaves.length);
    this.decoded = new Uint8Array(leaves.length);
    this.starts = new Float64Array(leaves.length + 1);
    this.#ahead = new Uint8Array(leaves.length);
  }

  /** Rows known so far. */
  get rows(): number {
    return this.starts[this.known];
  }

  get complete(): boolean {
    return this.known === this.leaves.length;
  }

  /**
   * Counts of leaves [from, from + counts.length), from the counting pass. An UNCOUNTED leaf
   * (damaged, or not one of the table's) holds no rows until its decode says otherwise.
   */
  setCounts(from: number, counts: ArrayLike<number>): void {
    for (let i = 0; i < counts.length; i++) {
      const leaf = from + i;
      if (this.decoded[leaf]) continue;
      this.counts[leaf] = Math.max(0, counts[i]);
      this.#ahead[leaf] = 1;
    }
    this.#advance(from);
  }

  /** The true count of a leaf, from decoding it. Returns true when row numbers changed. */
  setDecoded(leaf: number, rows: number): boolean {
    const wasKnown = leaf < this.known || this.#ahead[leaf] === 1;
    const changed = !wasKnown || this.counts[leaf] !== rows;
    this.decoded[leaf] = 1;
    this.counts[leaf] = rows;
    this.#ahead[leaf] = 1;
    if (!changed) return false;
    this.#advance(leaf);
    return true;
  }

  /** Recomputes starts from leaf `from` and moves `known` over the counts that are in. */
  #advance(from: number): void {
    const n = this.leaves.length;
    while (this.known < n && this.#ahead[this.known] === 1) this.known++;
    const at = Math.min(from, this.known);
    for (let i = at; i < this.known; i++) this.starts[i + 1] = this.starts[i] + this.counts[i];
    this.version++;
  }

  /** First row of leaf `leaf` (leaf < known). */
  start(leaf: number): number {
    return this.starts[leaf];
  }

  /** The leaf holding row `row` (0 ≤ row < rows); -1 outside. Skips empty leaves. */
  leafOf(row: number): number {
    if (row < 0 || row >= this.rows) return -1;
    let lo = 0;
    let hi = this.known - 1;
    // The last leaf whose start ≤ row; empty leaves share their start with the next one.
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= row) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
