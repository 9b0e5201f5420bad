/**
 * What order-key.ts and uca-order.ts share: how a column's sort keys are written and compared, and
 * the server's max_sort_length.
 */
import type { WeightSink } from './uca-weights.ts';

/**
 * How two keys compare: byte by byte (shorter first), PAD SPACE over bytes, PAD SPACE over 16-bit
 * weights, or PAD SPACE over levels of 16-bit weights, a 0 weight between levels (all of them, or
 * all but the first, which is NO PAD).
 */
export type OrderKind = 'bytes' | 'padded' | 'weights16' | 'levels16' | 'nopadLevels16';

/** Where keys are written: `reserve(n)` makes room for n more bytes at `length` and returns it. */
export type KeySink = WeightSink;

/** A KeySink over one growable buffer, reused from key to key (`length = 0`): no array per value. */
export class KeyBuffer implements KeySink {
  bytes: Uint8Array;
  length = 0;

  constructor(size = 256) {
    this.bytes = new Uint8Array(size);
  }

  reserve(n: number): number {
    if (this.length + n > this.bytes.length) {
      const grown = new Uint8Array(Math.max(2 * this.bytes.length, this.length + n));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    return this.length;
  }
}

export interface ColumnOrder {
  kind: OrderKind;
  /** Appends the key of a value given as its text (as the batch holds it) to `out`. */
  key(text: string, out: KeySink): void;
}

/** The server's max_sort_length, MariaDB's default: how many bytes of a text's sort key it compares. */
export const MAX_SORT_LENGTH = 1024;

/** A key whose bytes beyond MAX_SORT_LENGTH are dropped (a UCA collation's weights, a charset's bytes: one per byte of the text). */
export function firstBytes(key: ColumnOrder['key']): ColumnOrder['key'] {
  return (text, out) => {
    const start = out.length;
    key(text, out);
    if (out.length - start > MAX_SORT_LENGTH) out.length = start + MAX_SORT_LENGTH;
  };
}
