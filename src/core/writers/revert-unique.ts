/**
 * Which reverted UPDATEs of a UNIQUE secondary key's columns may run as UPDATEs (revert-run.ts). A
 * row N changed from key value b to a is put back to b by `UPDATE … WHERE key` when no row still
 * holds b as that UPDATE runs: before N only this row held b, so only a row N gave b to (its value
 * after N) can, or a row a later transaction changed (its statement commented out: its newest
 * value). Every such value is noted (`hold`), and a row whose value to put back is among them is
 * deleted with the DELETEs and inserted with the INSERTs instead (`collides`: two rows swapping a
 * value, one taking another's), as before. Values are compared as the index compares them: each
 * column's sort key under its collation (order-key.ts), cut to its first level and without trailing
 * pad weights, which only makes more values equal (a false collision costs a DELETE and an INSERT,
 * never a duplicate-key error); a prefix part, or a collation not modelled here, always collides.
 * NULLs never collide. Held as 32-bit hashes: 4 bytes a row N changed so, equal hashes count as a
 * collision.
 */
import type { Column, TableDef } from '../schema.ts';
import { KeyBuffer, loadColumnOrder, type ColumnOrder } from '../values/order-key.ts';

/** A UNIQUE secondary key: its columns (indexes into the revert's columns) and their orders, null where one always collides. */
interface UniqueKey {
  at: number[];
  orders: (ColumnOrder | null)[];
}

/** A value that always collides (its order is not modelled). */
const ALWAYS = -1;

export class UniqueValues {
  private readonly keys: UniqueKey[];
  private held = new Uint32Array(1024);
  private count = 0;
  private sorted = true;
  private readonly buffer = new KeyBuffer();
  private always = false;

  private constructor(keys: UniqueKey[]) {
    this.keys = keys;
  }

  /** The UNIQUE secondary keys of `definition`, over the revert's `columns` (a UCA collation's weights loaded first). */
  static async open(definition: TableDef, columns: readonly string[]): Promise<UniqueValues> {
    const at = (name: string) => columns.findIndex((c) => c.toLowerCase() === name.toLowerCase());
    const byName = new Map(definition.columns.map((c) => [c.name.toLowerCase(), c]));
    const keys: UniqueKey[] = [];
    for (const i of definition.indexes.filter((x) => x.kind === 'unique')) {
      const orders: (ColumnOrder | null)[] = [];
      for (const c of i.columns) orders.push(await orderOf(byName.get(c.name.toLowerCase()), c.prefix));
      keys.push({ at: i.columns.map((c) => at(c.name)), orders });
    }
    return new UniqueValues(keys);
  }

  /** The hashes of the keys whose values differ between `a` and `b` (their values in `a`), ALWAYS for one not modelled. */
  changed(a: readonly (string | null)[], b: readonly (string | null)[]): number[] {
    const out: number[] = [];
    for (const k of this.keys) {
      if (k.at.every((i) => i >= 0 && a[i] === b[i])) continue;
      const h = this.hash(k, a);
      if (h !== null) out.push(h);
    }
    return out;
  }

  /** The hashes of every key's value in `row` (a row left as it is: its statement commented out). */
  all(row: readonly (string | null)[]): number[] {
    return this.keys.flatMap((k) => {
      const h = this.hash(k, row);
      return h === null ? [] : [h];
    });
  }

  /** Notes values rows hold as the UPDATEs run. */
  hold(hashes: readonly number[]): void {
    for (const h of hashes) {
      if (h === ALWAYS) {
        this.always = true;
        continue;
      }
      if (this.count === this.held.length) {
        const grown = new Uint32Array(this.held.length * 2);
        grown.set(this.held);
        this.held = grown;
      }
      this.held[this.count++] = h;
      this.sorted = false;
    }
  }

  /** Whether a value to put back may still be held by another row. */
  collides(hashes: readonly number[]): boolean {
    if (!this.sorted) {
      this.held = this.held.slice(0, this.count).sort();
      this.sorted = true;
    }
    return hashes.some((h) => h === ALWAYS || this.always || binaryHas(this.held, this.count, h));
  }

  /** The key's value in `row` hashed (FNV-1a over each column's sort key), null when a column is NULL. */
  private hash(k: UniqueKey, row: readonly (string | null)[]): number | null {
    let h = 0x811c9dc5;
    for (let j = 0; j < k.at.length; j++) {
      const i = k.at[j];
      const order = k.orders[j];
      if (i < 0 || order === null) return ALWAYS;
      const v = row[i];
      if (v === null) return null;
      this.buffer.length = 0;
      order.key(v, this.buffer);
      const end = cut(order.kind, this.buffer.bytes, this.buffer.length);
      for (let p = 0; p < end; p++) h = Math.imul(h ^ this.buffer.bytes[p], 0x01000193);
      h = Math.imul(h ^ 0xff, 0x01000193) ^ end;
    }
    return h >>> 0;
  }
}

/** A column's order as the index compares it, or null (a prefix part, an order not modelled here). */
async function orderOf(c: Column | undefined, prefix: number): Promise<ColumnOrder | null> {
  if (c === undefined || prefix > 0) return null;
  const order = await loadColumnOrder(c, { whole: true });
  return 'why' in order ? null : order;
}

/** The end of the key's part compared here: its first level, without trailing pad weights. */
function cut(kind: ColumnOrder['kind'], b: Uint8Array, length: number): number {
  let end = length;
  if (kind === 'levels16' || kind === 'nopadLevels16') {
    for (let p = 0; p + 1 < length; p += 2) {
      if (b[p] === 0 && b[p + 1] === 0) {
        end = p;
        break;
      }
    }
  }
  if (kind === 'padded') while (end > 0 && b[end - 1] === 0x20) end--;
  if (kind === 'weights16' || kind === 'levels16') while (end > 1 && b[end - 2] === 0 && b[end - 1] === 0x20) end -= 2;
  return end;
}

function binaryHas(a: Uint32Array, n: number, h: number): boolean {
  let lo = 0;
  let hi = n - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] === h) return true;
    if (a[mid] < h) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
