/**
 * The COMPACT field layout a placement makes: the fields in record order (key, DB_TRX_ID, DB_ROLL_PTR,
 * the other columns), each fixed run cut into columns, and every null-bitmap bit given to a column,
 * the bits never seen set included.
 */
import { segmentRun } from './fixed-columns.ts';
import { fixedOffset, type Placement } from './fixed-placement.ts';
import type { LayoutField } from './record-fields.ts';
import type { CRec, Structure } from './structure.ts';

/** The bytes of fixed bytes [from, to) of each record (records where they are all present). */
function runValues(recs: readonly CRec[], from: number, to: number, pl: Placement, sizes: ReadonlyMap<number, number>): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const r of recs) {
    if (out.length >= 1500) break;
    const q = fixedOffset(r, from, pl.bounds, pl.nullAt, sizes);
    if (q < 0 || fixedOffset(r, to - 1, pl.bounds, pl.nullAt, sizes) !== q + (to - 1 - from)) continue;
    out.push(r.b.subarray(q, q + (to - from)));
  }
  return out;
}

/** The whole COMPACT layout in record order: key, system fields, then the other columns. */
export function compactLayout(recs: readonly CRec[], s: Structure, pl: Placement): LayoutField[] {
  const F = s.fixedLen;
  const cuts = new Set<number>([0, F, ...pl.bounds]);
  if (pl.sys.t >= 0) [pl.sys.t, pl.sys.t + 13].forEach((c) => cuts.add(c));
  for (const [bit, at] of pl.nullAt) [at, at + (s.fixedBits.get(bit) ?? 0)].forEach((c) => cuts.add(c));
  const sorted = [...cuts].filter((c) => c >= 0 && c <= F).sort((a, b) => a - b);
  const nullStarts = new Map([...pl.nullAt].map(([bit, at]) => [at, bit]));
  const fields: LayoutField[] = [];
  const roleAt = (j: number): LayoutField['role'] => (pl.sys.t >= 0 && j < pl.sys.t ? 'key' : 'column');
  const pushVars = (j: number) => s.vars.forEach((v, k) => {
    if (pl.bounds[k] === j) fields.push({ fixedLen: -1, big: v.big, bit: v.bit, role: k < pl.sys.kv ? 'key' : 'column' });
  });
  for (let i = 0; i < sorted.length; i++) {
    const a = sorted[i];
    pushVars(a);
    if (i + 1 >= sorted.length) break;
    const b = sorted[i + 1];
    if (a === pl.sys.t) {
      fields.push({ fixedLen: 6, big: false, bit: -1, role: 'trx' }, { fixedLen: 7, big: false, bit: -1, role: 'roll' });
    } else if (nullStarts.has(a)) {
      fields.push({ fixedLen: b - a, big: false, bit: nullStarts.get(a) ?? -1, role: 'column' });
    } else {
      const values = runValues(recs, a, b, pl, s.fixedBits);
      for (const len of segmentRun(values, b - a).lens) fields.push({ fixedLen: len, big: false, bit: -1, role: roleAt(a) });
    }
  }
  // Columns NULL in every record: size unknown, so a variable-length column (it takes no bytes when NULL).
  for (const [bit, size] of s.fixedBits) if (size === 0) insertByBit(fields, { fixedLen: -1, big: false, bit, role: 'column' });
  return fields;
}

function insertByBit(fields: LayoutField[], f: LayoutField): void {
  const after = fields.findIndex((g) => g.bit > f.bit);
  if (after < 0) fields.push(f);
  else fields.splice(after, 0, f);
}

/**
 * Every NULL-able column needs its bit: the bitmap has one per NULL-able field, in field order. Fields
 * with a bit seen set keep their place; the bits never seen set go to columns in between (NULL-able
 * columns that were never NULL), and to enough columns after the last for the bitmap to have its size.
 */
export function assignFillerBits(fields: LayoutField[], nullBytes: number, notes: string[]): boolean {
  const FILLER = 1 << 20;
  const before = notes.length;
  const free = (f: LayoutField) => f.role === 'column' && f.bit < 0;
  let next = 0;
  let prev = -1;
  const fill = (from: number, to: number, count: number): number => {
    let done = 0;
    for (let i = from; i < to && done < count; i++) {
      if (free(fields[i])) {
        fields[i].bit = FILLER;
        done++;
      }
    }
    return done;
  };
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (f.bit < 0 || f.bit === FILLER) continue;
    if (f.bit < next) notes.push(`null bit ${f.bit} comes out of order; the NULL columns may be misplaced`);
    else if (fill(prev + 1, i, f.bit - next) < f.bit - next) notes.push(`not enough columns before null bit ${f.bit} for the bits never seen set`);
    next = Math.max(next, f.bit + 1);
    prev = i;
  }
  const min = nullBytes === 0 ? 0 : 8 * (nullBytes - 1) + 1;
  if (next < min && fill(prev + 1, fields.length, min - next) < min - next) notes.push('not enough columns after the last NULL column to fill the null bitmap');
  const complete = notes.length === before;
  const fillers = fields.filter((f) => f.bit === FILLER).length;
  if (fillers > 0) notes.push(`${fillers} null-bitmap bit${fillers === 1 ? ' is' : 's are'} never set in the records read: which columns may be NULL there is a guess (if other pages fail to decode, mark the right ones NULL-able)`);
  // Renumber in field order, the way the bitmap is laid out.
  let bit = 0;
  for (const f of fields) if (f.bit >= 0) f.bit = bit++;
  return complete;
}
