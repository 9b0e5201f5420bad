/**
 * A COMPACT record structure: null-bitmap size, the variable-length fields (null bit, length width)
 * and the fixed bytes left over. The heap accounts for a hypothesis or not: on a page without garbage
 * the records tile the heap back to back, so the fixed part of every record must come out one size,
 * less the fixed columns its null bits mark NULL. Also the sampled records read under a structure.
 */
import { PAGE_NEW_SUPREMUM_END } from '../../pages/index-page.ts';
import { fixedNullBits, parseVars, varNullBits, type Parsed, type VarSpec } from './record-fields.ts';
import type { SamplePage } from './sample.ts';

export interface Structure {
  nullBytes: number;
  vars: VarSpec[];
  /** Fixed bytes of a record in which no fixed column is NULL. */
  fixedLen: number;
  /** Null bits of fixed-size columns, with each column's size. */
  fixedBits: Map<number, number>;
  /** Set when the variable fields' order was taken among others the records price the same (var-order.ts). */
  orderUnproven?: boolean;
}

/**
 * Checks a hypothesis against the heap: each record's data length follows from where the next record's
 * header starts; less its variable lengths, it must be one fixed size, minus the sizes of the fixed
 * columns it has NULL. On tiled pages that holds for every record; on pages with garbage a gap between
 * two records only makes the size look larger, so there most records must agree and none be smaller.
 * Returns the sizes, or null when the records disagree.
 */
export function validate(pages: readonly SamplePage[], nullBytes: number, vars: readonly VarSpec[]): Structure | null {
  const varBits = varNullBits(vars);
  const exact = new Map<string, { bits: number[]; d: number }>();
  const loose = new Map<string, { bits: number[]; ds: number[] }>();
  for (const page of pages) {
    const parsed = page.origins.map((o) => parseVars(page.bytes, o, nullBytes, vars));
    if (parsed.some((p) => p === null)) return null;
    const ps = parsed as Parsed[];
    if (page.tiled && page.origins[0] - ps[0].extra !== PAGE_NEW_SUPREMUM_END) return null;
    for (let i = 0; i < ps.length; i++) {
      const o = page.origins[i];
      // where the last record ends is known only on a tiled page seen whole (heapTop -1: cut short for a quick check)
      if (i + 1 === ps.length && (page.heapTop < 0 || !page.tiled)) break;
      const end = i + 1 < ps.length ? page.origins[i + 1] - ps[i + 1].extra : page.heapTop;
      const d = end - o - ps[i].lens.reduce((s, l) => s + l, 0);
      if (d < 0) return null;
      const bits = fixedNullBits(page.bytes, o, nullBytes, varBits);
      const key = bits.join(',');
      if (page.tiled) {
        const g = exact.get(key);
        if (g === undefined) exact.set(key, { bits, d });
        else if (g.d !== d) return null;
      } else {
        const g = loose.get(key);
        if (g === undefined) loose.set(key, { bits, ds: [d] });
        else g.ds.push(d);
      }
    }
  }
  for (const [key, g] of loose) {
    const d = exact.get(key)?.d ?? Math.min(...g.ds);
    const agree = g.ds.filter((x) => x === d).length;
    if (g.ds.some((x) => x < d) || (g.ds.length >= 5 && agree < 0.6 * g.ds.length)) return null;
    if (!exact.has(key)) exact.set(key, { bits: g.bits, d });
  }
  return solveFixedBits([...exact.values()], nullBytes, vars);
}

/** Sizes of the fixed columns behind null bits, from the fixed size of each group of records. */
function solveFixedBits(groups: { bits: number[]; d: number }[], nullBytes: number, vars: readonly VarSpec[]): Structure | null {
  if (groups.length === 0) return null;
  groups.sort((a, b) => a.bits.length - b.bits.length);
  const base = groups[0];
  // Bits set in the base group belong to columns that are NULL in every record seen: size unknown, taken as 0.
  const sizes = new Map<number, number>(base.bits.map((b) => [b, 0]));
  const sizeOf = (bits: readonly number[]): number => bits.reduce((s, b) => s + (sizes.get(b) ?? 0), 0);
  for (let progress = true; progress;) {
    progress = false;
    for (const g of groups) {
      const unknown = g.bits.filter((b) => !sizes.has(b));
      if (unknown.length !== 1) continue;
      const size = base.d - g.d - sizeOf(g.bits);
      if (size <= 0) return null;
      sizes.set(unknown[0], size);
      progress = true;
    }
  }
  for (const g of groups) {
    if (g.bits.some((b) => !sizes.has(b))) return null;
    if (base.d - sizeOf(g.bits) !== g.d) return null;
  }
  const fixedLen = base.d + sizeOf(base.bits);
  return { nullBytes, vars: [...vars], fixedLen, fixedBits: sizes };
}

/** Per record of the structure: where it is, its variable lengths and which fixed columns are NULL. */
export interface CRec {
  b: Uint8Array;
  o: number;
  lens: number[];
  externs: boolean[];
  nullBits: Set<number>;
}

export function compactRecords(pages: readonly SamplePage[], s: Structure): CRec[] {
  const varBits = varNullBits(s.vars);
  const out: CRec[] = [];
  for (const page of pages) for (const o of page.origins) {
    const p = parseVars(page.bytes, o, s.nullBytes, s.vars);
    if (p !== null) out.push({ b: page.bytes, o, lens: p.lens, externs: p.externs, nullBits: new Set(fixedNullBits(page.bytes, o, s.nullBytes, varBits)) });
  }
  return out;
}

/** Offset in record r of fixed byte j when the first k variable fields come before it. */
export function varOffset(r: CRec, k: number, j: number): number {
  let q = r.o + j;
  for (let i = 0; i < k; i++) q += r.lens[i];
  return q;
}
