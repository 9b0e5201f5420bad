/**
 * Placing the fields of a COMPACT structure when few records have no NULL fixed column (a wide table
 * with many NULL-able fixed columns): then the bytes of the others cannot be read without knowing
 * where those columns are, so the variable fields and the NULL-able fixed columns are placed together.
 * Dynamic programming over (fixed bytes laid out, variable fields placed, NULL-able fixed columns
 * placed), as in fixed-placement.ts, but every step reads each record where it really is in that
 * state: after the lengths of the variable fields placed, less the sizes of the placed fixed columns
 * that are NULL in it. NULL-able fields, variable or fixed, come in the order of their null bits.
 */
import { entropy } from './fixed-columns.ts';
import { cheapestPlacement, NOT_TEXT_BITS, type Placement } from './fixed-placement.ts';
import type { CRec, Structure } from './structure.ts';
import type { SystemAt } from './system-columns.ts';
import { isUtf8Text } from './type-guess.ts';

/** Records the placement reads: the search visits every reachable state once, reading each of them. */
const PLACEMENT_RECORDS = 400;
/** States the placement may take (memory and time): past it, null, and the fields are placed the plain way. */
const MAX_STATES = 1_000_000;

/** Per record: the lengths of the first k variable fields, and the sizes of the first m NULL-able fixed columns NULL in it. */
interface Shifts {
  r: CRec;
  vars: Int32Array;
  nulls: Int32Array;
}

export function placeTogether(recs: readonly CRec[], s: Structure, sys: SystemAt): Placement | null {
  const V = s.vars.length;
  const F = s.fixedLen;
  const nulls = [...s.fixedBits].filter(([, size]) => size > 0).sort((x, y) => x[0] - y[0]);
  const M = nulls.length;
  if ((F + 1) * (V + 1) * (M + 1) > MAX_STATES) return null;
  const sample: Shifts[] = recs.slice(0, PLACEMENT_RECORDS).map((r) => {
    const vars = new Int32Array(V + 1);
    for (let k = 0; k < V; k++) vars[k + 1] = vars[k] + r.lens[k];
    const ns = new Int32Array(M + 1);
    for (let m = 0; m < M; m++) ns[m + 1] = ns[m] + (r.nullBits.has(nulls[m][0]) ? nulls[m][1] : 0);
    return { r, vars, nulls: ns };
  });
  const R = sample.length;
  const counts = new Uint32Array(256);
  /** Entropy of fixed byte j in state (k, m), over the records where its NULL-able column `skip` (if any) is present, weighted by their share. */
  const byteCost = (j: number, k: number, m: number, skip: number): number => {
    counts.fill(0);
    let n = 0;
    for (const x of sample) {
      if (skip >= 0 && x.r.nullBits.has(skip)) continue;
      counts[x.r.b[x.r.o + j + x.vars[k] - x.nulls[m]]]++;
      n++;
    }
    return R === 0 ? 0 : (entropy(counts, n) * n) / R;
  };
  const varCost = (j: number, k: number, m: number): number => {
    let bad = 0;
    for (const x of sample) {
      if (x.r.externs[k]) continue;
      const q = x.r.o + j + x.vars[k] - x.nulls[m];
      if (!isUtf8Text(x.r.b.subarray(q, q + x.r.lens[k]))) bad += NOT_TEXT_BITS + 8 * x.r.lens[k];
    }
    return R === 0 ? 0 : bad / R;
  };
  return { sys, ...cheapestPlacement(s, sys, { byte: byteCost, field: varCost }) };
}
