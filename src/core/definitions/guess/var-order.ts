/**
 * The variable-length fields of a wide table, found without searching their orders: which null bits
 * are theirs comes from the records whose header size is known (var-bits.ts), and checked on every
 * record by the heap; then only the order of the NOT NULL fields among the NULL-able ones is open. The
 * heap cannot tell those orders apart (every order reads the same length bytes, only attributed to
 * other fields), but a field put in the wrong place reads another field's lengths whenever that one is
 * present, so its lengths follow that field's null bit. Every record's lengths are read once; each
 * placement of a field (after i NOT NULL and j NULL-able fields) is priced by how much its lengths
 * follow the null bits, and the cheapest order is a shortest path over (i, j): one structure per set
 * of bits, not one per order that reads the same bytes.
 */
import { isNullBit, validLongLength, type VarSpec } from './record-fields.ts';
import { PAGE_NEW_SUPREMUM_END } from '../../pages/index-page.ts';
import type { SamplePage } from './sample.ts';
import { validate, type Structure } from './structure.ts';
import { varBitSets, type PinnedRec } from './var-bits.ts';

/** Bits the pinned records cannot place (clear in all, or set in all of them): each way is tried, up to this many. */
const MAX_UNPLACED = 6;
/** Records whose lengths price the placements. */
const ORDER_RECORDS = 1500;
/**
 * Welch's t of a field's lengths, split by another field's null bit, below which it is noise: with a
 * few hundred tests per order, chance seldom reaches it, and a field reading another's lengths does.
 */
const NOISE_T = 4;
/** How much cheaper than every other order the one taken must be to be called proven by the lengths. */
const PROVEN = 1;

/** One record's header under a set of bits: which bits are clear (the field present) and its lengths. */
interface Header {
  /** before[j]: how many of the first j bits are clear. */
  before: Int32Array;
  lens: Int32Array;
  long: Uint8Array;
}

/** The lengths of a record with `count` present variable fields (a top-bit byte the first of a 2-byte one), or null. */
function readHeader(b: Uint8Array, o: number, nullBytes: number, bits: readonly number[], notNull: number): Header | null {
  const before = new Int32Array(bits.length + 1);
  bits.forEach((bit, j) => (before[j + 1] = before[j] + (isNullBit(b, o, bit) ? 0 : 1)));
  const count = notNull + before[bits.length];
  const lens = new Int32Array(count);
  const long = new Uint8Array(count);
  let ptr = o - 6 - nullBytes;
  for (let k = 0; k < count; k++) {
    if (ptr < 1) return null;
    const first = b[ptr--];
    if (first & 0x80 && validLongLength(first, b[ptr], b.length)) {
      lens[k] = ((first & 0x3f) << 8) | b[ptr--];
      long[k] = 1;
    } else lens[k] = first;
  }
  return { before, lens, long };
}

/**
 * How much the lengths at `at(h)` (-1: the field is absent there) follow the null bits other than
 * `own`: Welch's t beyond noise, summed over the bits.
 */
function dependence(headers: readonly Header[], bitsClear: readonly Uint8Array[], own: number, at: (h: Header) => number): number {
  const B = bitsClear.length;
  const n = [new Float64Array(B), new Float64Array(B)];
  const sum = [new Float64Array(B), new Float64Array(B)];
  const sq = [new Float64Array(B), new Float64Array(B)];
  headers.forEach((h, r) => {
    const k = at(h);
    if (k < 0) return;
    const x = h.lens[k];
    for (let q = 0; q < B; q++) {
      const c = bitsClear[q][r];
      n[c][q]++;
      sum[c][q] += x;
      sq[c][q] += x * x;
    }
  });
  let cost = 0;
  for (let q = 0; q < B; q++) {
    if (q === own || n[0][q] < 3 || n[1][q] < 3) continue;
    const m = [sum[0][q] / n[0][q], sum[1][q] / n[1][q]];
    const v = [0, 1].map((c) => Math.max(0, sq[c][q] / n[c][q] - m[c] * m[c]) / n[c][q]);
    const t = Math.abs(m[0] - m[1]) / Math.sqrt(v[0] + v[1] + 1e-9);
    cost += Math.max(0, t - NOISE_T);
  }
  return cost;
}

/**
 * The cheapest order of `notNull` NOT NULL fields among the NULL-able ones of `bits` (in bit order):
 * a shortest path over (NOT NULL fields placed, NULL-able fields placed). Each field takes 2-byte
 * lengths when one of its lengths reads as one. Returns the fields, the price, and how much dearer
 * the next-cheapest order is (0 on a tie, which goes to the NULL-able field first).
 */
function cheapestOrder(headers: readonly Header[], bitsClear: readonly Uint8Array[], notNull: number, M: number): { vars: VarSpec[]; cost: number; margin: number } {
  const W = M + 1;
  const nnIndex = (i: number, j: number) => (h: Header) => i + h.before[j];
  const bitIndex = (i: number, j: number) => (h: Header, r: number) => (bitsClear[j][r] ? i + h.before[j] : -1);
  const best = new Float64Array((notNull + 1) * W).fill(Infinity);
  const viaNotNull = new Uint8Array(best.length);
  // each step's price, kept for the runner-up below
  const stepNotNull = new Float64Array(best.length).fill(Infinity);
  const stepBit = new Float64Array(best.length).fill(Infinity);
  best[0] = 0;
  for (let i = 0; i <= notNull; i++) {
    for (let j = 0; j <= M; j++) {
      const here = best[i * W + j];
      if (here === Infinity) continue;
      if (i < notNull) {
        stepNotNull[i * W + j] = dependence(headers, bitsClear, -1, nnIndex(i, j));
        const c = here + stepNotNull[i * W + j];
        if (c < best[(i + 1) * W + j]) {
          best[(i + 1) * W + j] = c;
          viaNotNull[(i + 1) * W + j] = 1;
        }
      }
      if (j < M) {
        const at = bitIndex(i, j);
        let r = -1;
        stepBit[i * W + j] = dependence(headers, bitsClear, j, (h) => at(h, ++r));
        const c = here + stepBit[i * W + j];
        if (c < best[i * W + j + 1]) {
          best[i * W + j + 1] = c;
          viaNotNull[i * W + j + 1] = 0;
        }
      }
    }
  }
  const steps: boolean[] = [];
  for (let i = notNull, j = M; i > 0 || j > 0;) {
    const nn = viaNotNull[i * W + j] === 1;
    steps.unshift(nn);
    if (nn) i--;
    else j--;
  }
  const bigAt = (i: number, j: number, nn: boolean): boolean => headers.some((h, r) => {
    if (!nn && !bitsClear[j][r]) return false;
    return h.long[i + h.before[j]] === 1;
  });
  let i = 0;
  let j = 0;
  const vars: VarSpec[] = [];
  for (const nn of steps) {
    vars.push({ bit: nn ? -1 : j, big: bigAt(i, j, nn) });
    if (nn) i++;
    else j++;
  }
  return { vars, cost: best[notNull * W + M], margin: runnerUp(best, stepNotNull, stepBit, steps, notNull, M) - best[notNull * W + M] };
}

/**
 * The price of the cheapest order other than the chosen one (`steps`): the best path through each step
 * the chosen order does not take, from its start (`best`, the prices so far) and to the end (priced
 * backwards). Infinity when there is no other order.
 */
function runnerUp(best: Float64Array, stepNotNull: Float64Array, stepBit: Float64Array, steps: readonly boolean[], notNull: number, M: number): number {
  const W = M + 1;
  const rest = new Float64Array(best.length).fill(Infinity);
  rest[notNull * W + M] = 0;
  for (let i = notNull; i >= 0; i--) {
    for (let j = M; j >= 0; j--) {
      if (i < notNull) rest[i * W + j] = Math.min(rest[i * W + j], stepNotNull[i * W + j] + rest[(i + 1) * W + j]);
      if (j < M) rest[i * W + j] = Math.min(rest[i * W + j], stepBit[i * W + j] + rest[i * W + j + 1]);
    }
  }
  const taken = new Set<number>();
  let [ci, cj] = [0, 0];
  for (const nn of steps) {
    taken.add(2 * (ci * W + cj) + (nn ? 1 : 0));
    if (nn) ci++;
    else cj++;
  }
  let second = Infinity;
  for (let i = 0; i <= notNull; i++) {
    for (let j = 0; j <= M; j++) {
      const u = i * W + j;
      if (i < notNull && !taken.has(2 * u + 1)) second = Math.min(second, best[u] + stepNotNull[u] + rest[u + W]);
      if (j < M && !taken.has(2 * u)) second = Math.min(second, best[u] + stepBit[u] + rest[u + 1]);
    }
  }
  return second;
}

/** The structure of one set of bits, its fields in the cheapest order; null when the heap refuses the set. */
function orderedStructure(pages: readonly SamplePage[], nullBytes: number, bits: readonly number[], notNull: number): { s: Structure; cost: number } | null {
  // any order reads the same length bytes: the heap checks the set in one
  const plain: VarSpec[] = [...Array.from({ length: notNull }, () => ({ bit: -1, big: true })), ...bits.map((bit) => ({ bit, big: true }))];
  if (validate(pages, nullBytes, plain) === null) return null;
  const headers: Header[] = [];
  const records: { b: Uint8Array; o: number }[] = [];
  for (const p of pages) for (const o of p.origins) {
    if (headers.length >= ORDER_RECORDS) break;
    const h = readHeader(p.bytes, o, nullBytes, bits, notNull);
    if (h === null) return null;
    headers.push(h);
    records.push({ b: p.bytes, o });
  }
  const bitsClear = bits.map((bit) => Uint8Array.from(records, (r) => (isNullBit(r.b, r.o, bit) ? 0 : 1)));
  const order = cheapestOrder(headers, bitsClear, notNull, bits.length);
  const vars = order.vars.map((v) => (v.bit < 0 ? v : { ...v, bit: bits[v.bit] }));
  const s = validate(pages, nullBytes, vars);
  // another order priced within a field's noise: the lengths do not prove the one taken (NULL-able fields first on a tie)
  return s && { s: order.margin < PROVEN ? { ...s, orderUnproven: true } : s, cost: order.cost };
}

/** Every subset of `xs`, as arrays. */
function subsetsOf(xs: readonly number[]): number[][] {
  let out: number[][] = [[]];
  for (const x of xs) out = [...out, ...out.map((s) => [...s, x])];
  return out;
}

/**
 * The structures of one null-bitmap size whose variable fields' bits the pinned records tell (the
 * cheapest order of each), the cheapest first; empty when they do not tell.
 */
export function orderedStructures(pages: readonly SamplePage[], nullBytes: number, seen: readonly number[], always: ReadonlySet<number>): Structure[] {
  const pinned: PinnedRec[] = pages.filter((p) => p.tiled).map((p) => ({ b: p.bytes, o: p.origins[0], extra: p.origins[0] - PAGE_NEW_SUPREMUM_END }));
  if (pinned.length === 0) return [];
  const open = seen.filter((b) => !always.has(b));
  const placed = (bit: number, set: boolean) => pinned.every((r) => isNullBit(r.b, r.o, bit) === set);
  const asNotNull = open.filter((b) => placed(b, false));
  const asAbsent = open.filter((b) => placed(b, true));
  const unplaced = [...asNotNull, ...asAbsent];
  if (unplaced.length > MAX_UNPLACED) return [];
  const sets = varBitSets(pinned, nullBytes, open.filter((b) => !unplaced.includes(b)));
  if (sets === null) return [];
  const found: { s: Structure; cost: number }[] = [];
  for (const set of sets) {
    for (const extra of subsetsOf(unplaced)) {
      // a bit clear in every pinned record counted there as a NOT NULL field
      const notNull = set.notNull - extra.filter((b) => asNotNull.includes(b)).length;
      if (notNull < 0) continue;
      const got = orderedStructure(pages, nullBytes, [...set.bits, ...extra].sort((a, b) => a - b), notNull);
      if (got !== null) found.push(got);
    }
  }
  return found.sort((a, b) => a.cost - b.cost).map((x) => x.s);
}
