/**
 * Which null bits are the variable-length fields' own, told by the records whose header size is known
 * (a page's first record, right after the supremum): its length bytes read as one length per present
 * field (1 byte, or 2 when the first has its top bit set), so a header holds as many lengths as there
 * are NOT NULL variable fields plus NULL-able ones whose bit is clear. Every such record is one
 * equation on the bits; two dozen of them leave few sets of bits (on random NULL patterns, one), and a
 * field order then only has to interleave the NOT NULL fields with those bits, in bit order.
 */
import { isNullBit, validLongLength } from './record-fields.ts';

/** A record whose header size is known: its bytes, origin and header (extra) bytes. */
export interface PinnedRec {
  b: Uint8Array;
  o: number;
  extra: number;
}

/** NOT NULL variable fields (never-NULL NULL-able ones read alike) and the NULL-able ones' bits. */
export interface VarBits {
  notNull: number;
  bits: number[];
}

/** Bits the sets are searched over at most: each half of them is enumerated (2^18 subsets). */
const MAX_BITS = 36;
/** Bit sets kept: more means the records do not tell, and the plain search is left to it. */
const MAX_SETS = 4;

/**
 * How many lengths the header's length bytes hold, a byte with its top bit set read as the first of a
 * 2-byte length (as InnoDB writes lengths of 128 bytes or more of a column that may exceed 255 bytes).
 * Null when the bytes do not end on a whole length. (A column of at most 255 bytes has a 1-byte length
 * of 128..255 instead: then no set fits, and the caller searches without one.)
 */
function lengthCount(r: PinnedRec, nullBytes: number): number | null {
  const n = r.extra - 5 - nullBytes;
  const top = r.o - 6 - nullBytes;
  let count = 0;
  let used = 0;
  while (used < n) {
    const first = r.b[top - used];
    used += first & 0x80 && used + 2 <= n && validLongLength(first, r.b[top - used - 1], r.b.length) ? 2 : 1;
    count++;
  }
  return used === n ? count : null;
}

/**
 * The lengths every subset of `bits` adds to each record, subset m (a mask) at m × records: one flat
 * array (2^18 subsets of two dozen records take 6 MB, not a quarter of a million small arrays).
 */
function subsets(clear: readonly (readonly number[])[], records: number): Uint8Array {
  const out = new Uint8Array((1 << clear.length) * records);
  clear.forEach((c, k) => {
    const n = 1 << k;
    for (let j = 0; j < n; j++) for (let i = 0; i < records; i++) out[(n + j) * records + i] = out[j * records + i] + c[i];
  });
  return out;
}

/** The counts relative to the first record's: two halves match when their sums differ from the wanted counts by one NOT NULL count in every record. */
function keyOf(v: ArrayLike<number>, from: number, records: number): string {
  const codes = new Array<number>(records - 1);
  for (let i = 1; i < records; i++) codes[i - 1] = (v[from + i] - v[from]) & 0xffff;
  // one flat string (built by += it would be a rope of as many pieces, ~30 bytes each, for each subset)
  return String.fromCharCode(...codes);
}

/**
 * The sets of variable fields' null bits (among those seen set) and NOT NULL counts that give every
 * pinned record as many lengths as its header holds, met in the middle: the subsets of each half of
 * the bits, matched on the records' counts (up to the NOT NULL fields, which add one to every record).
 * Null when the records do not narrow it down (too many bits or too many sets), so the caller searches
 * without it.
 */
export function varBitSets(pinned: readonly PinnedRec[], nullBytes: number, seen: readonly number[]): VarBits[] | null {
  if (pinned.length === 0 || seen.length > MAX_BITS) return null;
  const counts = pinned.map((r) => lengthCount(r, nullBytes));
  if (counts.some((c) => c === null)) return null;
  const want = counts as number[];
  // clear[k][i]: bit seen[k] is clear in pinned record i (the field is present there)
  const clear = seen.map((bit) => pinned.map((r) => (isNullBit(r.b, r.o, bit) ? 0 : 1)));
  const half = Math.ceil(seen.length / 2);
  const R = pinned.length;
  const first = subsets(clear.slice(0, half), R);
  const second = subsets(clear.slice(half), R);
  const byKey = new Map<string, number[]>();
  for (let j = 0; j * R < first.length; j++) {
    const key = keyOf(first, j * R, R);
    const list = byKey.get(key);
    if (list) list.push(j);
    else byKey.set(key, [j]);
  }
  const sets: VarBits[] = [];
  const need = new Int32Array(R);
  for (let m = 0; m * R < second.length; m++) {
    for (let i = 0; i < R; i++) need[i] = want[i] - second[m * R + i];
    for (const j of byKey.get(keyOf(need, 0, R)) ?? []) {
      const notNull = need[0] - first[j * R];
      if (notNull < 0) continue;
      const bits = seen.filter((_, k) => (k < half ? j & (1 << k) : m & (1 << (k - half))));
      sets.push({ notNull, bits });
      if (sets.length > MAX_SETS) return null;
    }
  }
  return sets.length > 0 ? sets : null;
}
