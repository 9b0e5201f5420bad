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

/** Every subset of `bits` (as a mask) with the lengths it adds to each record, in one pass per subset. */
function subsets(clear: readonly (readonly number[])[], records: number): { mask: number; adds: Uint8Array }[] {
  const out = [{ mask: 0, adds: new Uint8Array(records) }];
  clear.forEach((c, k) => {
    const n = out.length;
    for (let j = 0; j < n; j++) {
      const adds = out[j].adds.slice();
      for (let i = 0; i < records; i++) adds[i] += c[i];
      out.push({ mask: out[j].mask | (1 << k), adds });
    }
  });
  return out;
}

/** The counts relative to the first record's: two halves match when their sums differ from the wanted counts by one NOT NULL count in every record. */
const keyOf = (v: ArrayLike<number>): string => {
  let key = '';
  for (let i = 1; i < v.length; i++) key += String.fromCharCode((v[i] - v[0]) & 0xffff);
  return key;
};

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
  const first = subsets(clear.slice(0, half), pinned.length);
  const second = subsets(clear.slice(half), pinned.length);
  const byKey = new Map<string, number[]>();
  first.forEach((s, j) => {
    const key = keyOf(s.adds);
    const list = byKey.get(key);
    if (list) list.push(j);
    else byKey.set(key, [j]);
  });
  const sets: VarBits[] = [];
  const need = new Int32Array(pinned.length);
  for (const s of second) {
    for (let i = 0; i < need.length; i++) need[i] = want[i] - s.adds[i];
    for (const j of byKey.get(keyOf(need)) ?? []) {
      const a = first[j];
      const notNull = need[0] - a.adds[0];
      if (notNull < 0) continue;
      const bits = seen.filter((_, k) => (k < half ? a.mask & (1 << k) : s.mask & (1 << (k - half))));
      sets.push({ notNull, bits });
      if (sets.length > MAX_SETS) return null;
    }
  }
  return sets.length > 0 ? sets : null;
}
