/**
 * The search for the COMPACT record structures that account for the sample: null-bitmap sizes and
 * variable-field hypotheses tried depth first, pinned by the header sizes of the first records on
 * tiled pages and checked against the heap; the simplest that fit are kept, then the field orders that
 * read the same length bytes are ranked by how little one field's lengths follow another's null bit.
 */
import { PAGE_NEW_SUPREMUM_END } from '../../pages/index-page.ts';
import { isNullBit, parseVars, validLongLength, type Parsed, type VarSpec } from './record-fields.ts';
import type { Sample, SamplePage } from './sample.ts';
import { validate, type Structure } from './structure.ts';
import { orderedStructures } from './var-order.ts';

/**
 * How many search nodes the whole search may cost, shared by the null-bitmap sizes tried (each an
 * equal share of what the smaller ones left): the search is pruned hard, but on a wide table (dozens of
 * NULL-able and variable-length columns) the prunes leave too many orders, and this bounds the time
 * (seconds) before it says so.
 */
const SEARCH_BUDGET = 200_000;
/** Records followed through the search besides the pinned ones, to see which lengths take 2 bytes. */
const SEARCH_TRACKED = 200;
/** Records per page of the quick check a hypothesis must pass before the full one. */
const QUICK_RECORDS = 24;

interface SearchRec {
  b: Uint8Array;
  o: number;
  /** Known extra bytes (a page's first record, right after the supremum), or -1. */
  extra: number;
}

/** The search nodes left for one null-bitmap size. */
interface Budget {
  left: number;
}

/**
 * Depth-first search over the variable-length fields, one at a time: NOT NULL or on one of the null
 * bits seen set (in increasing order), with a 1- or 2-byte length. The first record of every tiled page
 * has a known header size, which bounds how many length bytes the fields may take; a sample of other
 * records shows whether a field's length ever takes 2 bytes.
 */
function searchVars(recs: readonly SearchRec[], pages: readonly SamplePage[], nullBytes: number, seenBits: readonly number[], budget: Budget): Structure[] {
  const found: Structure[] = [];
  // the first records of each page, where the last one's end is not known (heapTop -1)
  const quick = pages.map((p) => (p.origins.length > QUICK_RECORDS ? { ...p, origins: p.origins.slice(0, QUICK_RECORDS), heapTop: -1 } : p));
  const step = (vars: VarSpec[], ptrs: Int32Array, lastBit: number): void => {
    if (--budget.left < 0 || found.length >= 256) return;
    if (recs.every((r, i) => r.extra < 0 || r.o - (ptrs[i] + 1) === r.extra)) {
      // most hypotheses fail on a few records: try those before every page
      const s = validate(quick, nullBytes, vars) && validate(pages, nullBytes, vars);
      if (s) found.push(s);
    }
    if (vars.length >= 200) return;
    const bitChoices = [-1, ...seenBits.filter((b) => b > lastBit)];
    const prev = vars.length > 0 ? vars[vars.length - 1] : null;
    for (const bit of bitChoices) {
      for (const big of [false, true]) {
        // A NULL-able field right after a NOT NULL one with the same length width reads the same bytes as
        // the two swapped: search only one order (NULL-able first); variants() brings the others back.
        if (bit >= 0 && prev !== null && prev.bit < 0 && prev.big === big) continue;
        const next = advance(recs, ptrs, bit, big);
        if (next === null) continue;
        if (big && !next.sawLong) continue; // a 2-byte length nobody uses is the same hypothesis as a 1-byte one
        step([...vars, { bit, big }], next.ptrs, bit >= 0 ? bit : lastBit);
      }
    }
  };
  step([], Int32Array.from(recs, (r) => r.o - 6 - nullBytes), -1);
  return found;
}

/** The records' length pointers after one more field; null when a pinned record would overrun its header. */
function advance(recs: readonly SearchRec[], ptrs: Int32Array, bit: number, big: boolean): { ptrs: Int32Array; sawLong: boolean } | null {
  const next = new Int32Array(ptrs);
  let sawLong = false;
  for (let i = 0; i < recs.length; i++) {
    const r = recs[i];
    if (bit >= 0 && isNullBit(r.b, r.o, bit)) continue;
    if (next[i] < 0) return null;
    const first = r.b[next[i]--];
    if (big && first & 0x80) {
      if (!validLongLength(first, r.b[next[i]], r.b.length)) return null;
      sawLong = true;
      next[i]--;
    }
    if (r.extra >= 0 && r.o - (next[i] + 1) > r.extra) return null;
  }
  return { ptrs: next, sawLong };
}

/** Null bits set in any sampled record, below `nullBytes` × 8. */
function seenNullBits(pages: readonly SamplePage[], nullBytes: number): { seen: number[]; always: Set<number> } {
  const seen: number[] = [];
  const always = new Set<number>();
  for (let bit = 0; bit < nullBytes * 8; bit++) {
    let any = false;
    let all = true;
    for (const p of pages) for (const o of p.origins) {
      if (isNullBit(p.bytes, o, bit)) any = true;
      else all = false;
    }
    if (any) seen.push(bit);
    if (any && all) always.add(bit);
  }
  return { seen, always };
}

/**
 * Simplest first: no variable field empty in every record (a null bitmap of zeros, read as lengths,
 * looks like that), no bit set in every record, fewest NULL-able fixed columns, smallest bitmap, fewest fields.
 */
function simplicity(s: Structure, always: Set<number>, recs: readonly SearchRec[]): number[] {
  const lens = recs.map((r) => parseVars(r.b, r.o, s.nullBytes, s.vars)?.lens ?? []);
  const empty = s.vars.filter((_, k) => lens.every((l) => !l[k])).length;
  const alwaysUsed = [...always].filter((b) => s.fixedBits.has(b) || s.vars.some((v) => v.bit === b)).length;
  return [empty, alwaysUsed, s.fixedBits.size, s.nullBytes, s.vars.length];
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/**
 * The record structures (null bitmap, variable fields, fixed sizes) that account for a COMPACT sample
 * equally well, the likeliest first.
 */
export function findStructures(sample: Sample): Structure[] {
  const tiled = sample.pages.filter((p) => p.tiled || p.loose);
  // A page's first record starts right after the supremum when nothing was freed below it.
  const pinnable = tiled.some((p) => p.tiled) ? tiled.filter((p) => p.tiled) : tiled.filter((p) => p.origins[0] < p.firstFree);
  if (pinnable.length === 0) throw new Error('every sampled page is damaged or has freed records below its first one, so the record structure cannot be worked out from the heap');
  const recs: SearchRec[] = pinnable.map((p) => ({ b: p.bytes, o: p.origins[0], extra: p.origins[0] - PAGE_NEW_SUPREMUM_END }));
  const maxNull = Math.min(8, Math.min(...recs.map((r) => r.extra)) - 5);
  const others = tiled.flatMap((p) => p.origins.slice(pinnable.includes(p) ? 1 : 0).map((o) => ({ b: p.bytes, o, extra: -1 })));
  const stride = Math.max(1, Math.floor(others.length / SEARCH_TRACKED));
  recs.push(...others.filter((_, i) => i % stride === 0));
  // Clean first (no field always empty, no bit always set); the rest of the simplicity key is weighed
  // with the dependence below: a null bit read as a variable field's (rather than a fixed column's) can
  // balance the heap too when a later field happens to be one length, but then shifts the lengths of the
  // fields after it whenever it is set, which the dependence sees.
  let best: { s: Structure; key: number[] }[] = [];
  let cut = false;
  let spare = SEARCH_BUDGET;
  for (let nullBytes = 0; nullBytes <= maxNull; nullBytes++) {
    // a larger bitmap only wins over a clean answer (nothing always empty or always NULL): stop at the first
    if (best.length > 0 && best[0].key[0] === 0 && best[0].key[1] === 0) break;
    const { seen, always } = seenNullBits(tiled, nullBytes);
    // an equal share of what is left: what a size did not need goes to the larger ones
    const share = Math.floor(spare / (maxNull + 1 - nullBytes));
    const budget: Budget = { left: share };
    const found = searchVars(recs, tiled, nullBytes, seen, budget);
    cut ||= budget.left < 0;
    spare -= share - Math.max(0, budget.left);
    for (const s of found) {
      const key = simplicity(s, always, recs);
      const order = best.length === 0 ? -1 : compareKeys(key.slice(0, 2), best[0].key.slice(0, 2));
      if (order < 0) best = [{ s, key }];
      else if (order === 0) best.push({ s, key });
    }
  }
  if (best.length === 0 && cut) {
    // too many orders to search: the bits the pinned records tell, each set in its cheapest order
    for (let nullBytes = 0; nullBytes <= maxNull; nullBytes++) {
      const { seen, always } = seenNullBits(tiled, nullBytes);
      const ordered = orderedStructures(tiled, nullBytes, seen, always);
      if (ordered.length > 0) return ordered;
    }
    throw new Error(SEARCH_CUT);
  }
  if (best.length === 0) throw new Error('no arrangement of null bitmap and variable-length fields accounts for the records on the sampled pages');
  const sampleRecs = recs.filter((r) => r.extra < 0).slice(0, 1000);
  const all = best.flatMap((b) => variants(b.s.vars).map((vars) => ({ s: { ...b.s, vars }, key: b.key })));
  const ranked = all.map((x) => ({ ...x, d: dependence(sampleRecs, x.s) }));
  const byKey = (x: (typeof ranked)[number], y: (typeof ranked)[number]): number => compareKeys(x.key, y.key);
  // a dependence of a standard deviation or more is a sign, not noise: it outranks simplicity
  return ranked.sort((x, y) => Math.floor(x.d) - Math.floor(y.d) || byKey(x, y) || x.d - y.d).map((x) => x.s);
}

/**
 * The search was cut, not exhausted: an arrangement may well account for the records, it was not
 * found in time. Said as such (not as "none fits").
 */
const SEARCH_CUT = `the record structure was not found within the search's bound (${SEARCH_BUDGET.toLocaleString('en-US')} hypotheses): `
  + 'the table has more NULL-able and variable-length columns than the search can sort out from the records alone '
  + '(the field orders left to try grow with them); give its CREATE TABLE';

/** Orders of the variable fields that read the same length bytes: NULL-able and NOT NULL neighbours of one width swapped. */
function variants(vars: readonly VarSpec[]): VarSpec[][] {
  const key = (v: readonly VarSpec[]) => v.map((x) => `${x.bit}${x.big ? 'b' : ''}`).join(',');
  // The other extreme, every NOT NULL field as far forward as it goes (where a key of variable-length
  // fields is), is listed up front: the enumeration below may stop before reaching it.
  const forward = [...vars];
  for (let moved = true; moved;) {
    moved = false;
    for (let i = 0; i + 1 < forward.length; i++) {
      const [a, b] = [forward[i], forward[i + 1]];
      if (a.bit >= 0 && b.bit < 0 && a.big === b.big) {
        [forward[i], forward[i + 1]] = [b, a];
        moved = true;
      }
    }
  }
  const seen = new Map<string, VarSpec[]>([[key(vars), [...vars]], [key(forward), forward]]);
  const queue = [[...vars]];
  while (queue.length > 0 && seen.size < 512) {
    const v = queue.shift() as VarSpec[];
    for (let i = 0; i + 1 < v.length; i++) {
      const [a, b] = [v[i], v[i + 1]];
      if (a.big !== b.big || (a.bit < 0) === (b.bit < 0)) continue;
      const w = [...v];
      [w[i], w[i + 1]] = [b, a];
      if (!seen.has(key(w))) {
        seen.set(key(w), w);
        queue.push(w);
      }
    }
  }
  return [...seen.values()];
}

/**
 * How much the variable fields' lengths depend on the other fields' null bits. The heap accounting
 * cannot tell a NOT NULL field followed by a NULL-able one from the reverse order (the same length
 * bytes, attributed the other way), but then one field holds the other's values whenever that one is
 * not NULL, and its lengths follow that null bit. Sums, over field and bit, the difference of mean
 * lengths with the bit set and clear, in standard deviations.
 */
function dependence(recs: readonly SearchRec[], s: Structure): number {
  const parsed = recs.map((r) => ({ r, p: parseVars(r.b, r.o, s.nullBytes, s.vars) })).filter((x) => x.p !== null) as { r: SearchRec; p: Parsed }[];
  let total = 0;
  s.vars.forEach((_, k) => {
    for (const other of s.vars) {
      if (other.bit < 0 || other === s.vars[k]) continue;
      const set: number[] = [];
      const clear: number[] = [];
      for (const { r, p } of parsed) {
        if (s.vars[k].bit >= 0 && isNullBit(r.b, r.o, s.vars[k].bit)) continue;
        (isNullBit(r.b, r.o, other.bit) ? set : clear).push(p.lens[k]);
      }
      if (set.length < 3 || clear.length < 3) continue;
      const all = [...set, ...clear];
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const m = mean(all);
      const sd = Math.sqrt(mean(all.map((x) => (x - m) ** 2))) + 1;
      total += Math.abs(mean(set) - mean(clear)) / sd;
    }
  });
  return total;
}
