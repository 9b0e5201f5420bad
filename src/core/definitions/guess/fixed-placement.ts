/**
 * Placing the fixed bytes of a COMPACT structure among its fields: where each variable-length field
 * sits between them and where each NULL-able fixed column starts, chosen where the fixed bytes line up
 * best across records (least entropy, text fields holding text, NULL-able fields in null-bit order).
 */
import { entropy, rangeBits, SEGMENT_BITS, segmentRun } from './fixed-columns.ts';
import { varOffset, type CRec, type Structure } from './structure.ts';
import { afterSystem, type SystemAt } from './system-columns.ts';
import { isUtf8Text } from './type-guess.ts';

/** Where each variable field sits: before fixed byte `bounds[k]` (0..fixedLen). */
export interface Placement {
  sys: SystemAt;
  bounds: number[];
  /** NULL-able fixed columns: bit → first fixed byte. */
  nullAt: Map<number, number>;
}

/** Offset in record r of fixed byte j, or -1 when j belongs to a fixed column that is NULL there. */
export function fixedOffset(r: CRec, j: number, bounds: readonly number[], nullAt: ReadonlyMap<number, number>, sizes: ReadonlyMap<number, number>): number {
  let q = r.o + j;
  for (let k = 0; k < bounds.length; k++) if (bounds[k] <= j) q += r.lens[k];
  for (const bit of r.nullBits) {
    const at = nullAt.get(bit);
    const size = sizes.get(bit) ?? 0;
    if (at === undefined) continue;
    if (j >= at && j < at + size) return -1;
    if (at + size <= j) q -= size;
  }
  return q;
}

/** Records with no NULL fixed column enough to place the fields by (else null-placement.ts places them). */
export const COMPLETE_RECORDS = 20;

/**
 * Variable fields go where the fixed bytes line up best: misplacing one shifts the bytes after it by a
 * different amount in each record, mixing unrelated bytes in one position. Dynamic programming over the
 * fixed bytes, using records where no fixed column is NULL.
 */
export function placeVars(recs: readonly CRec[], s: Structure, sys: SystemAt): number[] {
  const V = s.vars.length;
  const F = s.fixedLen;
  const complete = recs.filter((r) => r.nullBits.size === 0);
  // records with a NULL fixed column read some bytes off; use them only when there is little else
  const sample = (complete.length >= COMPLETE_RECORDS ? complete : recs).slice(0, 1500);
  // cost[k][j]: entropy of fixed byte j when k variable fields precede it
  const cost: number[][] = [];
  const counts = new Uint32Array(256);
  for (let k = 0; k <= V; k++) {
    const row: number[] = [];
    for (let j = 0; j < F; j++) {
      counts.fill(0);
      for (const r of sample) counts[r.b[varOffset(r, k, j)]]++;
      row.push(entropy(counts, sample.length));
    }
    cost.push(row);
  }
  const varCost = s.vars.map((_, k) => Array.from({ length: F + 1 }, (_, j) => contentCost(sample, k, j)));
  return cheapestPlacement(s, sys, { byte: (j, k) => cost[k][j], field: (j, k) => varCost[k][j] }).bounds;
}

/** A move of the placement search: a fixed byte, a variable field, or a whole NULL-able fixed column. */
const enum Move { Byte = 1, Var = 2, NullFixed = 3 }

/**
 * What the placement search prices, in state (k variable fields, m NULL-able fixed columns placed):
 * fixed byte j (`bit`: the NULL-able fixed column it belongs to, -1 none), and variable field k put
 * before fixed byte j.
 */
export interface PlacementCosts {
  byte(j: number, k: number, m: number, bit: number): number;
  field(j: number, k: number, m: number): number;
}

/**
 * Dynamic programming over the fixed bytes: state (fixed bytes laid out, variable fields placed,
 * NULL-able fixed columns placed), the cheapest path by `costs`. NULL-able fields, variable or fixed,
 * must come in the order of their null bits, and the key's variable fields before the system
 * columns, the others after. Returns where each variable field and NULL-able fixed column lies.
 */
export function cheapestPlacement(s: Structure, sys: SystemAt, costs: PlacementCosts): Omit<Placement, 'sys'> {
  const V = s.vars.length;
  const F = s.fixedLen;
  const nulls = [...s.fixedBits].filter(([, size]) => size > 0).sort((x, y) => x[0] - y[0]);
  const M = nulls.length;
  const at = (j: number, k: number, m: number) => (j * (V + 1) + k) * (M + 1) + m;
  const best = new Float64Array((F + 1) * (V + 1) * (M + 1)).fill(Infinity);
  const move = new Uint8Array(best.length);
  const nonKeyStart = afterSystem(sys);
  const varOk = (k: number, m: number, j: number): boolean => {
    if (sys.t >= 0 && (k < sys.kv ? j > sys.t : j < nonKeyStart)) return false;
    const bit = s.vars[k].bit;
    return bit < 0 || nulls.filter(([b]) => b < bit).length === m;
  };
  const nullOk = (m: number, k: number, j: number): boolean => {
    const bit = nulls[m][0];
    return j >= nonKeyStart && j + nulls[m][1] <= F && s.vars.every((v, i) => v.bit < 0 || (v.bit < bit ? i < k : i >= k));
  };
  const relax = (to: number, c: number, how: Move) => {
    if (c < best[to]) {
      best[to] = c;
      move[to] = how;
    }
  };
  best[at(0, 0, 0)] = 0;
  for (let j = 0; j <= F; j++) {
    for (let k = 0; k <= V; k++) {
      for (let m = 0; m <= M; m++) {
        const here = best[at(j, k, m)];
        if (here === Infinity) continue;
        if (k < V && varOk(k, m, j)) relax(at(j, k + 1, m), here + costs.field(j, k, m), Move.Var);
        if (m < M && nullOk(m, k, j)) {
          let c = here;
          for (let i = j; i < j + nulls[m][1]; i++) c += costs.byte(i, k, m, nulls[m][0]);
          relax(at(j + nulls[m][1], k, m + 1), c, Move.NullFixed);
        }
        if (j < F) relax(at(j + 1, k, m), here + costs.byte(j, k, m, -1), Move.Byte);
      }
    }
  }
  const bounds = new Array<number>(V).fill(F);
  const nullAt = new Map<number, number>();
  for (let j = F, k = V, m = M; j > 0 || k > 0 || m > 0;) {
    const how = move[at(j, k, m)];
    if (how === Move.Var) bounds[--k] = j;
    else if (how === Move.NullFixed) {
      j -= nulls[--m][1];
      nullAt.set(nulls[m][0], j);
    } else if (how === Move.Byte) j--;
    else break; // unreachable state: keep the defaults
  }
  return { bounds, nullAt };
}

/** Weight of a variable field's content that is not text, against the entropy of the fixed bytes. */
export const NOT_TEXT_BITS = 16;

/**
 * What it costs to put variable field k before fixed byte j: the share of records whose value then
 * would not be text. Random fixed bytes (hashes, counters' low bytes) read the same wherever they are,
 * but a text column placed a few bytes off takes in binary bytes.
 */
function contentCost(sample: readonly CRec[], k: number, j: number): number {
  if (sample.length === 0) return 0;
  let bad = 0;
  for (const r of sample) {
    if (r.externs[k]) continue;
    const q = varOffset(r, k, j);
    if (!isUtf8Text(r.b.subarray(q, q + r.lens[k]))) bad++;
  }
  return (NOT_TEXT_BITS * bad) / sample.length;
}

/**
 * Bits the fixed bytes [start, end) need with a NULL-able column at [at, at+size): the column's range,
 * and the rest cut into columns as segmentRun() would, never across a variable field or another placed
 * NULL-able column. Always the same bytes, whatever `at`: where the column lines up with the values'
 * own columns, fewer bits. (`values`: each record's fixed bytes from `start`, from records with no
 * NULL fixed column, whose bytes do not move with the placement.)
 */
function regionBits(values: readonly Uint8Array[], at: number, size: number, start: number, end: number, bounds: readonly number[], nullAt: ReadonlyMap<number, number>, sizes: ReadonlyMap<number, number>): number {
  const cuts = new Set([start, end, at, at + size, ...bounds, ...[...nullAt].flatMap(([bit, p]) => [p, p + (sizes.get(bit) ?? 0)])]);
  const edges = [...cuts].filter((c) => c >= start && c <= end).sort((a, b) => a - b);
  let bits = 0;
  for (let i = 0; i + 1 < edges.length; i++) {
    const [a, b] = [edges[i], edges[i + 1]];
    bits += a === at && b === at + size ? rangeBits(values, a - start, size) + SEGMENT_BITS : segmentRun(values, b - a, a - start).bits;
  }
  return bits;
}

/** Puts each NULL-able fixed column where the records with it NULL line up best with the others. */
export function placeNullFixed(recs: readonly CRec[], s: Structure, sys: SystemAt, bounds: readonly number[]): Map<number, number> {
  const nullAt = new Map<number, number>();
  const sizes = s.fixedBits;
  const start = afterSystem(sys);
  let from = start;
  for (const bit of [...sizes.keys()].sort((a, b) => a - b)) {
    const size = sizes.get(bit) ?? 0;
    if (size === 0) continue;
    const lo = Math.max(from, ...s.vars.map((v, k) => (v.bit >= 0 && v.bit < bit ? bounds[k] : 0)));
    const hiVars = s.vars.map((v, k) => (v.bit > bit ? bounds[k] : s.fixedLen));
    const hi = Math.min(s.fixedLen, ...hiVars) - size;
    const placed = new Set([...nullAt.keys(), bit]);
    const sample = recs.filter((r) => [...r.nullBits].every((b) => placed.has(b))).slice(0, 800);
    const complete = sample.filter((r) => r.nullBits.size === 0).map((r) => fixedBytes(r, start, s.fixedLen, bounds));
    let bestAt = lo;
    let bestCost = Infinity;
    for (let at = lo; at <= hi; at++) {
      if (bounds.some((b) => b > at && b < at + size)) continue;
      const trial = new Map(nullAt).set(bit, at);
      // Byte by byte, records where the column is present read the same wherever it is put: its values
      // as a number (sign byte first) tell where it starts; the records with it NULL, where the rest lines up.
      const c = placementCost(sample, start, s.fixedLen, bounds, trial, sizes) + complete.length * regionBits(complete, at, size, start, s.fixedLen, bounds, nullAt, sizes);
      if (c < bestCost) {
        bestCost = c;
        bestAt = at;
      }
    }
    nullAt.set(bit, bestAt);
    from = bestAt + size;
  }
  return nullAt;
}

/** A record's fixed bytes [from, to), read around its variable fields (a record with no NULL fixed column). */
function fixedBytes(r: CRec, from: number, to: number, bounds: readonly number[]): Uint8Array {
  const out = new Uint8Array(to - from);
  for (let j = from; j < to; j++) out[j - from] = r.b[fixedOffset(r, j, bounds, EMPTY, EMPTY)];
  return out;
}

const EMPTY: ReadonlyMap<number, number> = new Map();

function placementCost(sample: readonly CRec[], from: number, to: number, bounds: readonly number[], nullAt: ReadonlyMap<number, number>, sizes: ReadonlyMap<number, number>): number {
  const counts = new Uint32Array(256);
  let total = 0;
  for (let j = from; j < to; j++) {
    counts.fill(0);
    let n = 0;
    for (const r of sample) {
      const q = fixedOffset(r, j, bounds, nullAt, sizes);
      if (q < 0) continue;
      counts[r.b[q]]++;
      n++;
    }
    total += entropy(counts, n) * n;
  }
  return total;
}
