/**
 * A search key compared with an index record's key, as InnoDB compares a tuple with a record
 * (rem0cmp.cc cmp_dtuple_rec): field by field in index order, each in its own order (key-values.ts),
 * reversed for a DESC part; SQL NULL before every value; a key of fewer fields than the index compares
 * on those fields only (equal when they are). What a B-tree search needs, at every level.
 */
import type { KeyPart } from '../values/key-values.ts';
import { compareStored } from '../values/key-values.ts';
import type { ClusteredLayout } from './clustered-index.ts';
import { keySpans, NULL_SPAN } from './key-fields.ts';

/** The first `values.length` key fields' stored values, each of a part whose order is known. */
export interface SearchKey {
  parts: readonly KeyPart[];
  values: readonly Uint8Array[];
}

let spans = new Int32Array(32);

/** Negative, zero or positive as the record at `origin` (a node pointer unless `leaf`) sorts before, with or after `key`. */
export function compareRecordKey(page: Uint8Array, origin: number, layout: ClusteredLayout, compact: boolean, leaf: boolean, key: SearchKey): number {
  const n = key.values.length;
  if (spans.length < 2 * n) spans = new Int32Array(2 * n);
  keySpans(page, origin, layout, compact, leaf, n, spans);
  for (let i = 0; i < n; i++) {
    const part = key.parts[i];
    const value = key.values[i];
    const at = spans[2 * i];
    const c = at === NULL_SPAN ? -1 : compareStored(part.order ?? 'bytes', page, at, spans[2 * i + 1], value, 0, value.length);
    if (c !== 0) return part.descending ? -c : c;
  }
  return 0;
}

/** The same order between two stored values of a key part (a NULL value is null). */
export function comparePart(part: KeyPart, a: Uint8Array | null, b: Uint8Array): number {
  const c = a === null ? -1 : compareStored(part.order ?? 'bytes', a, 0, a.length, b, 0, b.length);
  return part.descending ? -c : c;
}
