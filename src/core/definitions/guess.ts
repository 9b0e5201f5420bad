/**
 * "Guess the columns": infer a table definition from the records alone, for an .ibd with no schema
 * source at all. The result is an ordinary TableDef (built through the DDL parser from a generated
 * CREATE TABLE), so the rows decode through openTable() with its heap accounting, and the user can
 * correct any column (name, type text, nullability, key) and decode again with tableFromColumns().
 *
 * REDUNDANT records store every field's end offset: the fields are exact. COMPACT/DYNAMIC records
 * store only a null bitmap and the lengths of variable-size fields, so the structure is searched for:
 * on a page without garbage the records tile the heap back to back, so for records A, B adjacent in
 * the heap, origin(B) − origin(A) = dataLength(A) + extraLength(B), and the first one starts right
 * after the supremum. A hypothesis (null-bitmap bytes, variable-length fields and which null bit and
 * 1-or-2-byte length each has) fixes every record's extra and variable lengths; it is kept only if
 * what is left of every record, its fixed part, is the same size in all of them (less the fixed
 * columns its null bits mark NULL; on pages with garbage, most of them and none smaller). Orders of
 * fields that read the same length bytes are told apart by which one's lengths follow another's null
 * bit, and by where DB_TRX_ID + DB_ROLL_PTR (recognised by their layout) are found, which splits the
 * key from the rest. The fixed bytes are then placed around the variable fields where they line up
 * best across records (least entropy, text fields holding text, NULL-able fields in null-bit order),
 * and each fixed run is cut into columns where the values' numeric ranges are smallest. Types are
 * then guessed from each field's bytes. Full-range random values on both sides of a boundary between
 * two fixed columns carry no sign of it: such a boundary can come out a byte off.
 */
import { findClusteredRoot } from '../btree/btree.ts';
import { parseCreateTables } from './ddl/create-table.ts';
import { IbdError } from '../errors.ts';
import { FIL_PAGE_TYPE, PageType, u16 } from '../pages/fil-header.ts';
import {
  compactInfoBits, compactStatus, freeListOrigins, PAGE_NEW_SUPREMUM_END, readIndexHeader, recordOrigins, redundantInfoBits, REC_INFO_MIN_REC,
} from '../pages/index-page.ts';
import { scanIndexes } from '../btree/page-scan.ts';
import type { TableDef } from '../schema.ts';
import type { Tablespace } from '../tablespace/tablespace.ts';

/** One field of the clustered index record, as observed and guessed. */
export interface GuessedField {
  /** Column name (c1, c2, …) or DB_ROW_ID / DB_TRX_ID / DB_ROLL_PTR. */
  name: string;
  system: boolean;
  /** Part of the clustering key (PRIMARY KEY column, or DB_ROW_ID). */
  key: boolean;
  /** Same length in every record (a fixed-size type), as far as the records show. */
  fixed: boolean;
  minLength: number;
  maxLength: number;
  /** Records where the field is SQL NULL / stored off-page, out of `records`. */
  nulls: number;
  externs: number;
  records: number;
  /** A few distinct values, as hex of their first bytes. */
  samples: string[];
  /** Guessed SQL type ('' for system fields), e.g. `int`, `varchar(40)`, `char(10) character set latin1`. */
  type: string;
  nullable: boolean;
  confidence: 'high' | 'medium' | 'low';
  /** Why this type, in a few words. */
  note: string;
}

/** A user-editable column: what tableFromColumns() turns into a CREATE TABLE. */
export interface ColumnEdit {
  name: string;
  /** SQL type text as in a CREATE TABLE, e.g. `varchar(40)` or `int unsigned`. */
  type: string;
  nullable: boolean;
  /** Part of the PRIMARY KEY (in column order). */
  key: boolean;
}

export interface GuessResult {
  tableName: string;
  rowFormat: 'REDUNDANT' | 'COMPACT' | 'DYNAMIC';
  pagesSampled: number;
  recordsSampled: number;
  /** Every field of the record in physical order, system fields included. */
  fields: GuessedField[];
  /** The table's columns (system fields left out), as the guess proposes them. */
  columns: ColumnEdit[];
  createSql: string;
  /** What could not be settled, for the user to check. */
  notes: string[];
}

/** Leaf pages read for the guess: enough records for statistics, bounded time on huge files. */
const MAX_PAGES = 24;
const MAX_RECORDS = 3000;

interface SamplePage {
  no: number;
  bytes: Uint8Array;
  /** User records, in heap order (ascending origin). */
  origins: number[];
  heapTop: number;
  /** No garbage, no damage, nothing skipped: the records tile the heap exactly. */
  tiled: boolean;
  /**
   * Undamaged, every record an ordinary row, but with garbage (freed records, leftovers of reused
   * ones) somewhere in the heap: adjacent records mostly still tile, and a gap only adds bytes.
   */
  loose: boolean;
  /** The lowest record origin in the free list (Infinity when it is empty). */
  firstFree: number;
}

interface Sample {
  compact: boolean;
  pageSize: number;
  pages: SamplePage[];
}

/** The clustered index's id and format: its root if it can be found, else the lowest index id with leaves. */
async function clusteredIndex(ts: Tablespace, wanted?: bigint): Promise<{ indexId: bigint; compact: boolean; rootLeaf: number }> {
  if (wanted !== undefined) {
    // an index the user chose (from a scan of a raw image): its leaves are found by reading the pages
    const chosen = (await scanIndexes(ts)).find((i) => i.indexId === wanted);
    if (!chosen) throw new IbdError(ts.source.name, `no leaf page of index ${wanted} was found`, null);
    return { indexId: chosen.indexId, compact: chosen.compact, rootLeaf: -1 };
  }
  try {
    const root = await findClusteredRoot(ts);
    return { indexId: root.header.indexId, compact: root.header.compact, rootLeaf: root.header.level === 0 ? root.page : -1 };
  } catch (e) {
    if (!(e instanceof IbdError)) throw e;
    const found = await scanIndexes(ts);
    if (found.length === 0) throw e;
    return { indexId: found[0].indexId, compact: found[0].compact, rootLeaf: -1 };
  }
}

/** Leaf pages of the clustered index, found by reading pages in file order (no key layout is known yet). */
async function samplePages(ts: Tablespace, indexId?: bigint): Promise<Sample> {
  const index = await clusteredIndex(ts, indexId);
  const pages: SamplePage[] = [];
  let records = 0;
  const first = index.rootLeaf >= 0 ? index.rootLeaf : 0;
  const last = index.rootLeaf >= 0 ? index.rootLeaf : ts.pageCount - 1;
  for (let n = first; n <= last; n++) {
    if (pages.length >= MAX_PAGES || records >= MAX_RECORDS) break;
    const page = await ts.page(n).catch(() => null);
    if (page === null || u16(page.bytes, FIL_PAGE_TYPE) !== PageType.INDEX) continue;
    const h = readIndexHeader(page.bytes);
    if (h.indexId !== index.indexId || h.level !== 0 || h.compact !== index.compact) continue;
    const sample = pageRecords(page.no, page.bytes, index.compact);
    if (sample.origins.length === 0) continue;
    pages.push(sample);
    records += sample.origins.length;
  }
  return { compact: index.compact, pageSize: ts.pageSize, pages };
}

function pageRecords(no: number, bytes: Uint8Array, compact: boolean): SamplePage {
  const h = readIndexHeader(bytes);
  const listed: number[] = [];
  const damage = recordOrigins(bytes, compact, listed);
  // Records that are not ordinary rows (MariaDB's instant-ALTER metadata record, node pointers) are left out.
  const origins = listed.filter((o) => compact
    ? compactStatus(bytes, o) === 0 && (compactInfoBits(bytes, o) & REC_INFO_MIN_REC) === 0
    : (redundantInfoBits(bytes, o) & REC_INFO_MIN_REC) === 0);
  origins.sort((a, b) => a - b);
  const intact = damage === null && origins.length === listed.length;
  const free: number[] = [];
  if (compact) freeListOrigins(bytes, compact, free);
  return { no, bytes, origins, heapTop: h.heapTop, tiled: intact && h.garbage === 0, loose: intact && h.garbage > 0, firstFree: Math.min(Infinity, ...free) };
}

// ---------------------------------------------------------------------------------------------
// Records cut into fields: what the type guesses work from.

/** One field of one record: where its bytes are, or that it is NULL / stored off-page. */
interface Span {
  at: number;
  len: number;
  isNull: boolean;
  extern: boolean;
}

interface RecordFields {
  bytes: Uint8Array;
  spans: Span[];
}

/** REDUNDANT: the end offsets give every field exactly (1-byte offsets when the record is short). */
function redundantSpans(b: Uint8Array, o: number): Span[] {
  const n = (u16(b, o - 4) >> 1) & 0x3ff;
  const short = (b[o - 3] & 1) !== 0;
  const spans: Span[] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const v = short ? b[o - 7 - i] : u16(b, o - 8 - 2 * i);
    const end = short ? v & 0x7f : v & 0x3fff;
    const isNull = short ? (v & 0x80) !== 0 : (v & 0x8000) !== 0;
    spans.push({ at: o + start, len: Math.max(0, end - start), isNull, extern: !short && (v & 0x4000) !== 0 });
    start = Math.max(start, end);
  }
  return spans;
}

/** A field of the inferred COMPACT layout. */
interface LayoutField {
  /** Bytes for fixed fields; -1 for variable-length ones. */
  fixedLen: number;
  big: boolean;
  /** Null-bitmap bit, or -1 for NOT NULL fields. */
  bit: number;
  role: 'key' | 'row_id' | 'trx' | 'roll' | 'column';
}

/** COMPACT: decodeCompact()'s walk over an inferred layout. Null when the record runs off the page. */
function compactSpans(b: Uint8Array, o: number, fields: readonly LayoutField[], nullBytes: number): Span[] | null {
  let lenPtr = o - 6 - nullBytes;
  let p = o;
  const spans: Span[] = [];
  for (const f of fields) {
    if (f.bit >= 0 && (b[o - 6 - (f.bit >> 3)] & (1 << (f.bit & 7))) !== 0) {
      spans.push({ at: p, len: 0, isNull: true, extern: false });
      continue;
    }
    let len = f.fixedLen;
    let extern = false;
    if (len < 0) {
      len = b[lenPtr--];
      if (f.big && len & 0x80) {
        extern = (len & 0x40) !== 0;
        len = ((len & 0x3f) << 8) | b[lenPtr--];
      }
    }
    if (p + len > b.length - 8 || lenPtr < 0) return null;
    spans.push({ at: p, len, isNull: false, extern });
    p += len;
  }
  return spans;
}

// ---------------------------------------------------------------------------------------------
// COMPACT structure search.

interface VarSpec {
  bit: number;
  big: boolean;
}

interface Structure {
  nullBytes: number;
  vars: VarSpec[];
  /** Fixed bytes of a record in which no fixed column is NULL. */
  fixedLen: number;
  /** Null bits of fixed-size columns, with each column's size. */
  fixedBits: Map<number, number>;
}

const isNullBit = (b: Uint8Array, o: number, bit: number): boolean => (b[o - 6 - (bit >> 3)] & (1 << (bit & 7))) !== 0;

/** Per record, under a hypothesis: its extra (header) bytes, variable lengths and extern flags. */
interface Parsed {
  extra: number;
  lens: number[];
  externs: boolean[];
}

function parseVars(b: Uint8Array, o: number, nullBytes: number, vars: readonly VarSpec[]): Parsed | null {
  let ptr = o - 6 - nullBytes;
  const lens: number[] = [];
  const externs: boolean[] = [];
  for (const v of vars) {
    if (v.bit >= 0 && isNullBit(b, o, v.bit)) {
      lens.push(0);
      externs.push(false);
      continue;
    }
    if (ptr < 0) return null;
    let len = b[ptr--];
    let ext = false;
    if (v.big && len & 0x80) {
      ext = (len & 0x40) !== 0;
      len = ((len & 0x3f) << 8) | b[ptr--];
    }
    lens.push(len);
    externs.push(ext);
  }
  return { extra: o - (ptr + 1), lens, externs };
}

/** The null bits set in a record that are not variable fields' bits: NULL fixed-size columns. */
function fixedNullBits(b: Uint8Array, o: number, nullBytes: number, varBits: ReadonlySet<number>): number[] {
  const bits: number[] = [];
  for (let bit = 0; bit < nullBytes * 8; bit++) if (!varBits.has(bit) && isNullBit(b, o, bit)) bits.push(bit);
  return bits;
}

/**
 * Checks a hypothesis against the heap: each record's data length follows from where the next record's
 * header starts; less its variable lengths, it must be one fixed size, minus the sizes of the fixed
 * columns it has NULL. On tiled pages that holds for every record; on pages with garbage a gap between
 * two records only makes the size look larger, so there most records must agree and none be smaller.
 * Returns the sizes, or null when the records disagree.
 */
function validate(pages: readonly SamplePage[], nullBytes: number, vars: readonly VarSpec[]): Structure | null {
  const varBits = new Set(vars.filter((v) => v.bit >= 0).map((v) => v.bit));
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
  for (let progress = true; progress;) {
    progress = false;
    for (const g of groups) {
      const unknown = g.bits.filter((b) => !sizes.has(b));
      if (unknown.length !== 1) continue;
      const known = g.bits.reduce((s, b) => s + (sizes.get(b) ?? 0), 0);
      const size = base.d - g.d - known;
      if (size <= 0) return null;
      sizes.set(unknown[0], size);
      progress = true;
    }
  }
  for (const g of groups) {
    if (g.bits.some((b) => !sizes.has(b))) return null;
    const lost = g.bits.reduce((s, b) => s + (sizes.get(b) ?? 0), 0);
    if (base.d - lost !== g.d) return null;
  }
  const fixedLen = base.d + base.bits.reduce((s, b) => s + (sizes.get(b) ?? 0), 0);
  return { nullBytes, vars: [...vars], fixedLen, fixedBits: sizes };
}

/** How many search nodes one null-bitmap size may cost: the search is pruned hard, this is a backstop. */
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

/**
 * Depth-first search over the variable-length fields, one at a time: NOT NULL or on one of the null
 * bits seen set (in increasing order), with a 1- or 2-byte length. The first record of every tiled page
 * has a known header size, which bounds how many length bytes the fields may take; a sample of other
 * records shows whether a field's length ever takes 2 bytes.
 */
function searchVars(recs: readonly SearchRec[], pages: readonly SamplePage[], nullBytes: number, seenBits: readonly number[]): Structure[] {
  const found: Structure[] = [];
  let budget = SEARCH_BUDGET;
  // the first records of each page, where the last one's end is not known (heapTop -1)
  const quick = pages.map((p) => (p.origins.length > QUICK_RECORDS ? { ...p, origins: p.origins.slice(0, QUICK_RECORDS), heapTop: -1 } : p));
  const step = (vars: VarSpec[], ptrs: Int32Array, lastBit: number): void => {
    if (--budget < 0 || found.length >= 256) return;
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

/**
 * A 2-byte length as InnoDB writes it: only for 128 bytes or more (shorter ones take 1 byte), at most
 * what fits in a page, and for an off-page value (0x40) the 20-byte pointer, after a 768-byte prefix in COMPACT.
 */
function validLongLength(first: number, second: number, pageSize: number): boolean {
  const len = ((first & 0x3f) << 8) | second;
  if (first & 0x40) return len === 20 || len === 788;
  return len >= 128 && len <= pageSize / 2;
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
function findStructures(sample: Sample): Structure[] {
  const tiled = sample.pages.filter((p) => p.tiled || p.loose);
  // A page's first record starts right after the supremum when nothing was freed below it.
  const pinnable = tiled.some((p) => p.tiled) ? tiled.filter((p) => p.tiled) : tiled.filter((p) => p.origins[0] < p.firstFree);
  if (pinnable.length === 0) throw new Error('every sampled page is damaged or has freed records below its first one, so the record structure cannot be worked out from the heap');
  const recs: SearchRec[] = pinnable.map((p) => ({ b: p.bytes, o: p.origins[0], extra: p.origins[0] - PAGE_NEW_SUPREMUM_END }));
  const maxNull = Math.min(8, Math.min(...recs.map((r) => r.extra)) - 5);
  const others = tiled.flatMap((p) => p.origins.slice(pinnable.includes(p) ? 1 : 0).map((o) => ({ b: p.bytes, o, extra: -1 })));
  const stride = Math.max(1, Math.floor(others.length / SEARCH_TRACKED));
  recs.push(...others.filter((_, i) => i % stride === 0));
  let best: { s: Structure; key: number[] }[] = [];
  for (let nullBytes = 0; nullBytes <= maxNull; nullBytes++) {
    // a larger bitmap only wins over a clean answer (nothing always empty or always NULL): stop at the first
    if (best.length > 0 && best[0].key[0] === 0 && best[0].key[1] === 0) break;
    const { seen, always } = seenNullBits(tiled, nullBytes);
    for (const s of searchVars(recs, tiled, nullBytes, seen)) {
      const key = simplicity(s, always, recs);
      const order = best.length === 0 ? -1 : compareKeys(key, best[0].key);
      if (order < 0) best = [{ s, key }];
      else if (order === 0) best.push({ s, key });
    }
  }
  if (best.length === 0) throw new Error('no arrangement of null bitmap and variable-length fields accounts for the records on the sampled pages');
  const sampleRecs = recs.filter((r) => r.extra < 0).slice(0, 1000);
  const all = best.flatMap((b) => variants(b.s.vars).map((vars) => ({ ...b.s, vars })));
  return all.map((s) => ({ s, d: dependence(sampleRecs, s) })).sort((x, y) => x.d - y.d).map((x) => x.s);
}

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

// ---------------------------------------------------------------------------------------------
// Placing the fixed bytes: system columns, variable fields, NULL-able fixed columns.

/** Per record of the structure: where it is, its variable lengths and which fixed columns are NULL. */
interface CRec {
  b: Uint8Array;
  o: number;
  lens: number[];
  externs: boolean[];
  nullBits: Set<number>;
}

function compactRecords(pages: readonly SamplePage[], s: Structure): CRec[] {
  const varBits = new Set(s.vars.filter((v) => v.bit >= 0).map((v) => v.bit));
  const out: CRec[] = [];
  for (const page of pages) for (const o of page.origins) {
    const p = parseVars(page.bytes, o, s.nullBytes, s.vars);
    if (p !== null) out.push({ b: page.bytes, o, lens: p.lens, externs: p.externs, nullBits: new Set(fixedNullBits(page.bytes, o, s.nullBytes, varBits)) });
  }
  return out;
}

/** DB_TRX_ID + DB_ROLL_PTR at q: a trx id below 2^32, and an undo pointer (or MariaDB's reset value after purge). */
function looksLikeSystem(b: Uint8Array, q: number, pageSize: number): boolean {
  if (q + 13 > b.length - 8) return false;
  if (b[q] !== 0 || b[q + 1] !== 0) return false;
  const trxZero = b[q + 2] === 0 && b[q + 3] === 0 && b[q + 4] === 0 && b[q + 5] === 0;
  const r = q + 6;
  const rollReset = b[r] === 0x80 && b[r + 1] === 0 && b[r + 2] === 0 && b[r + 3] === 0 && b[r + 4] === 0 && b[r + 5] === 0 && b[r + 6] === 0;
  if (trxZero) return rollReset;
  if (rollReset) return false;
  // rollback segment id 1..127 (insert flag in the top bit), undo page number below 2^24, offset within a page
  const offset = (b[r + 5] << 8) | b[r + 6];
  return (b[r] & 0x7f) !== 0 && b[r + 1] === 0 && offset >= 38 && offset < pageSize;
}

/** Where the 13 system bytes start: fixed offset t, after the first kv variable fields. */
interface SystemAt {
  t: number;
  kv: number;
  score: number;
}

function findSystem(recs: readonly CRec[], s: Structure, pageSize: number): SystemAt {
  // Key fields are NOT NULL, so only leading NOT NULL variable fields can be part of the key.
  let leading = 0;
  while (leading < s.vars.length && s.vars[leading].bit < 0) leading++;
  let best: SystemAt = { t: -1, kv: 0, score: 0 };
  // NULL-able columns all come after the system columns, so NULL ones do not move them
  const sample = recs.slice(0, 1000);
  for (let kv = 0; kv <= leading; kv++) {
    for (let t = 0; t + 13 <= s.fixedLen; t++) {
      let ok = 0;
      for (const r of sample) {
        let q = r.o + t;
        for (let k = 0; k < kv; k++) q += r.lens[k];
        if (looksLikeSystem(r.b, q, pageSize)) ok++;
      }
      const score = sample.length > 0 ? ok / sample.length : 0;
      if (score > best.score) best = { t, kv, score };
    }
  }
  return best;
}

/** Where each variable field sits: before fixed byte `bounds[k]` (0..fixedLen). */
interface Placement {
  sys: SystemAt;
  bounds: number[];
  /** NULL-able fixed columns: bit → first fixed byte. */
  nullAt: Map<number, number>;
}

/** Offset in record r of fixed byte j, or -1 when j belongs to a fixed column that is NULL there. */
function fixedOffset(r: CRec, j: number, bounds: readonly number[], nullAt: ReadonlyMap<number, number>, sizes: ReadonlyMap<number, number>): number {
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

/** Shannon entropy (bits) of byte values. */
function entropy(counts: Uint32Array, n: number): number {
  if (n === 0) return 0;
  let h = 0;
  for (const c of counts) if (c > 0) h -= (c / n) * Math.log2(c / n);
  return h;
}

/**
 * Variable fields go where the fixed bytes line up best: misplacing one shifts the bytes after it by a
 * different amount in each record, mixing unrelated bytes in one position. Dynamic programming over the
 * fixed bytes, using records where no fixed column is NULL.
 */
function placeVars(recs: readonly CRec[], s: Structure, sys: SystemAt): number[] {
  const V = s.vars.length;
  const F = s.fixedLen;
  const complete = recs.filter((r) => r.nullBits.size === 0);
  // records with a NULL fixed column read some bytes off; use them only when there is little else
  const sample = (complete.length >= 20 ? complete : recs).slice(0, 1500);
  // cost[k][j]: entropy of fixed byte j when k variable fields precede it
  const cost: number[][] = [];
  const counts = new Uint32Array(256);
  for (let k = 0; k <= V; k++) {
    const row: number[] = [];
    for (let j = 0; j < F; j++) {
      counts.fill(0);
      for (const r of sample) {
        let q = r.o + j;
        for (let i = 0; i < k; i++) q += r.lens[i];
        counts[r.b[q]]++;
      }
      row.push(entropy(counts, sample.length));
    }
    cost.push(row);
  }
  const varCost = s.vars.map((_, k) => Array.from({ length: F + 1 }, (_, j) => contentCost(sample, k, j)));
  return cheapestPlacement(s, sys, cost, varCost);
}

/** A move of the placement search: a fixed byte, a variable field, or a whole NULL-able fixed column. */
const enum Move { Byte = 1, Var = 2, NullFixed = 3 }

/**
 * Dynamic programming over the fixed bytes: state (fixed bytes laid out, variable fields placed,
 * NULL-able fixed columns placed). NULL-able fields, variable or fixed, must come in the order of
 * their null bits, and the key's variable fields before the system columns, the others after.
 */
function cheapestPlacement(s: Structure, sys: SystemAt, cost: number[][], varCost: number[][]): number[] {
  const V = s.vars.length;
  const F = s.fixedLen;
  const nulls = [...s.fixedBits].filter(([, size]) => size > 0).sort((x, y) => x[0] - y[0]);
  const M = nulls.length;
  const at = (j: number, k: number, m: number) => (j * (V + 1) + k) * (M + 1) + m;
  const best = new Float64Array((F + 1) * (V + 1) * (M + 1)).fill(Infinity);
  const move = new Uint8Array(best.length);
  const nonKeyStart = sys.t >= 0 ? sys.t + 13 : 0;
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
        if (k < V && varOk(k, m, j)) relax(at(j, k + 1, m), here + varCost[k][j], Move.Var);
        if (m < M && nullOk(m, k, j)) {
          let c = here;
          for (let i = j; i < j + nulls[m][1]; i++) c += cost[k][i];
          relax(at(j + nulls[m][1], k, m + 1), c, Move.NullFixed);
        }
        if (j < F) relax(at(j + 1, k, m), here + cost[k][j], Move.Byte);
      }
    }
  }
  const bounds = new Array<number>(V).fill(F);
  let j = F;
  let k = V;
  let m = M;
  while (j > 0 || k > 0 || m > 0) {
    const how = move[at(j, k, m)];
    if (how === Move.Var) bounds[--k] = j;
    else if (how === Move.NullFixed) j -= nulls[--m][1];
    else if (how === Move.Byte) j--;
    else break; // unreachable state: keep the defaults
  }
  return bounds;
}

/** Weight of a variable field's content that is not text, against the entropy of the fixed bytes. */
const NOT_TEXT_BITS = 16;

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
    let q = r.o + j;
    for (let i = 0; i < k; i++) q += r.lens[i];
    if (!isUtf8Text(r.b.subarray(q, q + r.lens[k]))) bad++;
  }
  return (NOT_TEXT_BITS * bad) / sample.length;
}

/** Puts each NULL-able fixed column where the records with it NULL line up best with the others. */
/** The run of fixed bytes around [at, at+size): up to the nearest variable field or placed NULL-able column. */
function runAround(at: number, size: number, start: number, end: number, bounds: readonly number[], nullAt: ReadonlyMap<number, number>, sizes: ReadonlyMap<number, number>): { from: number; to: number } {
  const cuts = [...bounds, ...[...nullAt].flatMap(([bit, p]) => [p, p + (sizes.get(bit) ?? 0)])];
  return {
    from: Math.max(start, ...cuts.filter((c) => c <= at)),
    to: Math.min(end, ...cuts.filter((c) => c >= at + size)),
  };
}

/**
 * Bits the values of a run need with a NULL-able column at [at, at+size) and the rest cut into columns
 * as segmentRun() would. Byte by byte, the records where the column is present read the same wherever
 * it is put; taken as numbers, its bytes and its neighbours' tell where it starts.
 */
function runBits(values: readonly Uint8Array[], at: number, size: number, len: number): number {
  return segmentRun(values, at).bits + rangeBits(values, at, size) + SEGMENT_BITS + segmentRun(values, len - at - size, at + size).bits;
}

function placeNullFixed(recs: readonly CRec[], s: Structure, sys: SystemAt, bounds: readonly number[]): Map<number, number> {
  const nullAt = new Map<number, number>();
  const sizes = s.fixedBits;
  const start = sys.t >= 0 ? sys.t + 13 : 0;
  let from = start;
  for (const bit of [...sizes.keys()].sort((a, b) => a - b)) {
    const size = sizes.get(bit) ?? 0;
    if (size === 0) continue;
    const lo = Math.max(from, ...s.vars.map((v, k) => (v.bit >= 0 && v.bit < bit ? bounds[k] : 0)));
    const hiVars = s.vars.map((v, k) => (v.bit > bit ? bounds[k] : s.fixedLen));
    const hi = Math.min(s.fixedLen, ...hiVars) - size;
    const placed = new Set([...nullAt.keys(), bit]);
    const sample = recs.filter((r) => [...r.nullBits].every((b) => placed.has(b))).slice(0, 800);
    let bestAt = lo;
    let bestCost = Infinity;
    for (let at = lo; at <= hi; at++) {
      if (bounds.some((b) => b > at && b < at + size)) continue;
      const trial = new Map(nullAt).set(bit, at);
      // Byte by byte, records where the column is present read the same wherever it is put: its values
      // as a number (sign byte first) tell where it starts.
      const run = runAround(at, size, start, s.fixedLen, bounds, nullAt, sizes);
      const values: Uint8Array[] = [];
      for (const r of sample) {
        const q = r.nullBits.has(bit) ? -1 : fixedOffset(r, run.from, bounds, trial, sizes);
        if (q >= 0) values.push(r.b.subarray(q, q + run.to - run.from));
      }
      const c = placementCost(sample, start, s.fixedLen, bounds, trial, sizes) + values.length * runBits(values, at - run.from, size, run.to - run.from);
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

// ---------------------------------------------------------------------------------------------
// Cutting a run of fixed bytes into columns.

/** Cost of a new column: splitting must save more than this many bits of value range. */
const SEGMENT_BITS = 4;

/** Bits spanned by the values of bytes [a, a+len) read big-endian: log2 of (max − min + 1). */
function rangeBits(values: readonly Uint8Array[], a: number, len: number): number {
  let common = 0;
  while (common < len && values.every((v) => v[a + common] === values[0][a + common])) common++;
  if (common === len) return 0;
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    let x = 0;
    for (let i = a + common; i < a + len; i++) x = x * 256 + v[i];
    if (x < min) min = x;
    if (x > max) max = x;
  }
  return Math.log2(max - min + 1);
}

/** Bytes printable as ASCII text in every record. */
function printable(values: readonly Uint8Array[], j: number): boolean {
  return values.every((v) => v[j] >= 0x20 && v[j] < 0x7f);
}

/** Running sums of the per-byte entropy of bytes [from, from+len): text costs what its characters vary. */
function entropySums(values: readonly Uint8Array[], from: number, len: number): number[] {
  const counts = new Uint32Array(256);
  const sums = [0];
  for (let j = from; j < from + len; j++) {
    counts.fill(0);
    for (const v of values) counts[v[j]]++;
    sums.push(sums[sums.length - 1] + entropy(counts, values.length));
  }
  return sums;
}

/**
 * Column lengths for bytes [from, from+len) of a run of fixed bytes: numbers of 1..8 bytes, or printable
 * text of any length, chosen so that the values need the fewest bits (a column's range, plus
 * SEGMENT_BITS per column). Returns the lengths and those bits.
 */
function segmentRun(values: readonly Uint8Array[], len: number, from = 0): { lens: number[]; bits: number } {
  if (len <= 0) return { lens: [], bits: 0 };
  const best = new Array<number>(len + 1).fill(Infinity);
  const cut = new Array<number>(len + 1).fill(0);
  best[0] = 0;
  const textEnd = new Array<number>(len + 1).fill(0);
  for (let j = len - 1; j >= 0; j--) textEnd[j] = printable(values, from + j) ? Math.max(j + 1, textEnd[j + 1]) : j;
  const text = entropySums(values, from, len);
  for (let a = 0; a < len; a++) {
    if (best[a] === Infinity) continue;
    for (let l = 1; l <= Math.min(8, len - a); l++) relax(best, cut, a, l, best[a] + rangeBits(values, from + a, l) + SEGMENT_BITS);
    for (let l = 3; a + l <= textEnd[a]; l++) relax(best, cut, a, l, best[a] + text[a + l] - text[a] + SEGMENT_BITS);
  }
  const lens: number[] = [];
  for (let j = len; j > 0; j -= cut[j]) lens.unshift(cut[j]);
  return { lens, bits: best[len] };
}

function relax(best: number[], cut: number[], a: number, l: number, c: number): void {
  if (c < best[a + l]) {
    best[a + l] = c;
    cut[a + l] = l;
  }
}

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
function compactLayout(recs: readonly CRec[], s: Structure, pl: Placement): LayoutField[] {
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
function assignFillerBits(fields: LayoutField[], nullBytes: number, notes: string[]): boolean {
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

// ---------------------------------------------------------------------------------------------
// Types.

interface TypeGuess {
  type: string;
  confidence: GuessedField['confidence'];
  note: string;
}

const beUint = (v: Uint8Array, from = 0, to = v.length): number => {
  let x = 0;
  for (let i = from; i < to; i++) x = x * 256 + v[i];
  return x;
};

function validYmd(y: number, m: number, d: number): boolean {
  return y >= 1000 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= 31;
}

/** Zero dates are valid too, but only values with a real date in them are evidence. */
const realDate = (v: Uint8Array): boolean => v.some((c, i) => (i === 0 ? c !== 0x80 : c !== 0));

function isDate(v: Uint8Array): boolean {
  const x = beUint(v) ^ 0x800000;
  return x === 0 || validYmd(x >> 9, (x >> 5) & 15, x & 31);
}

function isDatetime(v: Uint8Array): boolean {
  const x = beUint(v, 0, 5) - 0x8000000000;
  const frac = beUint(v, 5);
  if (x === 0) return frac === 0;
  const ymd = Math.floor(x / 131072);
  const hms = x % 131072;
  const ym = ymd >> 5;
  if (!validYmd(Math.floor(ym / 13), ym % 13, ymd & 31) || hms >> 12 > 23 || ((hms >> 6) & 63) > 59 || (hms & 63) > 59) return false;
  return frac < [1, 100, 10000, 1000000][v.length - 5];
}

/** Seconds since the epoch between 1990 and 2038 (or the zero TIMESTAMP). */
function isTimestamp(v: Uint8Array): boolean {
  const x = beUint(v, 0, 4);
  return x === 0 || (x >= 631152000 && x < 2147483648);
}

/** Magnitude of the values read as signed (sign bit flipped) and as unsigned integers. */
function intMagnitudes(values: readonly Uint8Array[], len: number): { signed: number; unsigned: number } {
  let signed = 0;
  let unsigned = 0;
  const half = 2 ** (len * 8 - 1);
  for (const v of values) {
    const x = len <= 6 ? beUint(v) : beUint(v, 0, 6) * 65536 + beUint(v, 6);
    signed = Math.max(signed, Math.abs(x - half));
    unsigned = Math.max(unsigned, x);
  }
  return { signed, unsigned };
}

const INT_NAMES: Record<number, string> = { 1: 'tinyint', 2: 'smallint', 3: 'mediumint', 4: 'int', 8: 'bigint' };

function intGuess(values: readonly Uint8Array[], len: number): TypeGuess {
  const m = intMagnitudes(values, len);
  const name = INT_NAMES[len];
  if (m.unsigned < m.signed) return { type: `${name} unsigned`, confidence: 'medium', note: `${len}-byte integer; the values are smaller read as unsigned` };
  const small = m.signed < 2 ** (len * 8 - 4);
  return { type: name, confidence: small ? 'high' : 'medium', note: `${len}-byte integer with the sign bit flipped${small ? ', small values' : ''}` };
}

/** A little-endian IEEE double of an everyday magnitude. */
function plausibleDouble(v: Uint8Array): boolean {
  const x = new DataView(v.buffer, v.byteOffset, 8).getFloat64(0, true);
  return x === 0 || (Number.isFinite(x) && Math.abs(x) > 1e-12 && Math.abs(x) < 1e18);
}

const DIG2BYTES = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];

/** Byte groups of DECIMAL(intg + scale, scale), each with the largest value it may hold. */
function decimalGroups(intg: number, scale: number): { bytes: number; limit: number }[] {
  const groups: { bytes: number; limit: number }[] = [];
  if (intg % 9) groups.push({ bytes: DIG2BYTES[intg % 9], limit: 10 ** (intg % 9) });
  for (let i = 0; i < Math.floor(intg / 9) + Math.floor(scale / 9); i++) groups.push({ bytes: 4, limit: 1e9 });
  if (scale % 9) groups.push({ bytes: DIG2BYTES[scale % 9], limit: 10 ** (scale % 9) });
  return groups;
}

/**
 * The largest value of each digit group over the values, read in DECIMAL's packed format (top bit
 * flipped, negatives inverted), or null when one does not fit its group.
 */
function decimalMaxima(values: readonly Uint8Array[], groups: readonly { bytes: number; limit: number }[]): number[] | null {
  const max = groups.map(() => 0);
  for (const v of values) {
    const mask = v[0] & 0x80 ? 0 : 0xff;
    let p = 0;
    for (let k = 0; k < groups.length; k++) {
      let x = 0;
      for (let i = 0; i < groups[k].bytes; i++, p++) x = x * 256 + ((v[p] ^ mask ^ (p === 0 ? 0x80 : 0)) & 0xff);
      if (x >= groups[k].limit) return null;
      max[k] = Math.max(max[k], x);
    }
  }
  return max;
}

/**
 * DECIMAL(M,D) whose packed size is `len` and whose digit groups hold every value. Several layouts
 * often do; the one whose groups the values fill best wins (least unused range, in bits), which picks
 * both where the fraction starts and the natural precision.
 */
function decimalGuess(values: readonly Uint8Array[], len: number): TypeGuess | null {
  if (!values.some((v) => v[0] !== 0x80)) return null;
  let best: { intg: number; scale: number; slack: number } | null = null;
  for (let intg = 0; intg <= 65; intg++) {
    for (let scale = 0; scale <= 30 && intg + scale <= 65; scale++) {
      const groups = decimalGroups(intg, scale);
      if (groups.reduce((n, g) => n + g.bytes, 0) !== len) continue;
      const max = decimalMaxima(values, groups);
      if (max === null) continue;
      const slack = groups.reduce((sum, g, k) => sum + Math.log2(g.limit / (max[k] + 1)), 0);
      if (best === null || slack < best.slack - 1e-9) best = { intg, scale, slack };
    }
  }
  return best && { type: `decimal(${best.intg + best.scale},${best.scale})`, confidence: 'low', note: 'every value fits the packed DECIMAL format' };
}

function fixedGuess(values: readonly Uint8Array[], len: number): TypeGuess {
  if (values.length === 0) return { type: `binary(${len})`, confidence: 'low', note: 'no value seen' };
  if (len === 3 && values.every(isDate) && values.some(realDate)) return { type: 'date', confidence: 'high', note: 'every value is a valid date' };
  if (len >= 5 && len <= 8 && values.every(isDatetime) && values.some(realDate)) {
    // 1-3 fraction bytes hold two digits each: odd precisions store a multiple of 10
    const tens = values.every((v) => beUint(v, 5) % 10 === 0);
    const fsp = len === 5 ? 0 : 2 * (len - 5) - (tens ? 1 : 0);
    return { type: fsp ? `datetime(${fsp})` : 'datetime', confidence: 'high', note: 'every value is a valid date and time' };
  }
  if (values.every((v) => v.every((c) => c >= 0x20 && c < 0x7f)) && values.some((v) => v.some((c) => /[A-Za-z]/.test(String.fromCharCode(c))))) {
    return { type: `char(${len}) character set latin1`, confidence: 'medium', note: 'printable text of a fixed size' };
  }
  const int = INT_NAMES[len] ? intGuess(values, len) : null;
  if (int?.confidence === 'high') return int;
  const decimal = len >= 2 ? decimalGuess(values, len) : null;
  if (decimal) return decimal;
  if (int) {
    const g = int;
    if (len === 4 && values.every(isTimestamp)) return { type: 'timestamp', confidence: 'medium', note: 'every value is a plausible TIMESTAMP (seconds since 1970)' };
    if (len === 8 && values.every(plausibleDouble)) return { type: 'double', confidence: 'low', note: 'not a small integer; every value reads as an ordinary DOUBLE' };
    return g;
  }
  return { type: `binary(${len})`, confidence: 'low', note: 'no recognisable layout; shown as hex' };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Valid UTF-8 without control characters other than tab, newline and carriage return. */
function isUtf8Text(v: Uint8Array): boolean {
  for (const c of v) if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  try {
    utf8.decode(v);
    return true;
  } catch {
    return false;
  }
}

/** A length rounded up to a customary column size. */
function roundLength(n: number): number {
  for (const r of [10, 20, 32, 50, 64, 100, 128, 200, 255, 500, 1000, 2000, 4000, 8000, 16000]) if (n <= r) return r;
  return 16383;
}

/**
 * A variable-length column. In COMPACT, whether the column's length may take 2 bytes must match
 * the records (`big`), and a 1-byte length of 128..255 needs a type of at most 255 bytes.
 */
function varGuess(values: readonly Uint8Array[], externs: number, maxLen: number, redundant: boolean, big: boolean): TypeGuess {
  const text = values.every(isUtf8Text);
  const longOneByte = !redundant && !big && maxLen >= 128;
  if (externs > 0 || (big && maxLen > 1000)) {
    return text ? { type: 'text', confidence: 'medium', note: 'long UTF-8 text (stored off-page or over 1000 bytes)' } : { type: 'blob', confidence: 'medium', note: 'long binary values' };
  }
  if (!text) {
    if (longOneByte) return { type: 'varbinary(255)', confidence: 'low', note: 'binary values; 1-byte lengths up to 255' };
    const n = roundLength(maxLen);
    return { type: `varbinary(${big ? Math.max(n, 256) : n})`, confidence: 'low', note: 'binary values, shown as hex' };
  }
  const padded = charPadding(values);
  if (padded > 0 && !longOneByte && (!big || padded * 4 > 255)) return { type: `char(${padded})`, confidence: 'medium', note: `UTF-8 text, every value at least ${padded} bytes, space-padded` };
  if (longOneByte) {
    const ascii = values.every((v) => v.every((c) => c < 0x80));
    return ascii ? { type: 'varchar(255) character set latin1', confidence: 'medium', note: 'ASCII text; 1-byte lengths up to 255' } : { type: 'varchar(85) character set utf8mb3', confidence: 'medium', note: 'UTF-8 text; 1-byte lengths up to 255' };
  }
  // utf8mb4 takes up to 4 bytes a character: from 64 characters on, the length may take 2 bytes.
  const chars = roundLength(maxLen);
  return { type: `varchar(${big ? Math.max(chars, 64) : chars})`, confidence: 'medium', note: 'UTF-8 text' };
}

/**
 * CHAR(n) in a multi-byte charset is stored in COMPACT with at least n bytes, short values padded
 * with spaces: most values are exactly n bytes and many of them end in a space. Returns n, or 0.
 */
function charPadding(values: readonly Uint8Array[]): number {
  if (values.length < 4) return 0;
  const min = Math.min(...values.map((v) => v.length));
  if (min === 0) return 0;
  const atMin = values.filter((v) => v.length === min);
  const padded = atMin.filter((v) => v[min - 1] === 0x20).length;
  return atMin.length >= values.length / 2 && padded >= Math.max(2, atMin.length / 10) ? min : 0;
}

// ---------------------------------------------------------------------------------------------
// Putting it together.

interface FieldSlot {
  role: LayoutField['role'];
  fixedLen: number;
  big: boolean;
  bit: number;
}

function hex(v: Uint8Array, max = 24): string {
  let s = '';
  for (let i = 0; i < Math.min(v.length, max); i++) s += v[i].toString(16).padStart(2, '0').toUpperCase();
  return v.length > max ? `${s}…` : s;
}

function describeField(slot: FieldSlot, spans: readonly (Span | undefined)[], records: readonly RecordFields[], name: string, redundant: boolean): GuessedField {
  const values: Uint8Array[] = [];
  let nulls = 0;
  let externs = 0;
  let min = Infinity;
  let max = 0;
  spans.forEach((sp, i) => {
    if (sp === undefined) return;
    if (sp.isNull) { nulls++; return; }
    if (sp.extern) externs++;
    min = Math.min(min, sp.len);
    max = Math.max(max, sp.len);
    if (!sp.extern) values.push(records[i].bytes.subarray(sp.at, sp.at + sp.len));
  });
  const system = slot.role === 'trx' || slot.role === 'roll' || slot.role === 'row_id';
  const fixed = slot.fixedLen >= 0;
  let g: TypeGuess;
  if (system) g = { type: '', confidence: 'high', note: `${name}, written by InnoDB` };
  else if (fixed) g = redundant ? redundantFixed(values, slot.fixedLen) : fixedGuess(values, slot.fixedLen);
  else g = varGuess(values, externs, max, redundant, slot.big);
  const distinct = [...new Set(values.map((v) => hex(v)))].slice(0, 5);
  return {
    name, system, key: slot.role === 'key' || slot.role === 'row_id', fixed,
    minLength: min === Infinity ? 0 : min, maxLength: max, nulls, externs, records: records.length,
    samples: distinct, type: g.type, nullable: slot.bit >= 0 || (redundant && nulls > 0), confidence: g.confidence, note: g.note,
  };
}

/** REDUNDANT stores CHAR padded to its full size in every charset: printable fixed text is CHAR. */
function redundantFixed(values: readonly Uint8Array[], len: number): TypeGuess {
  // CHAR in a multi-byte charset takes n × its widest character: text with UTF-8 in it is CHAR(len/4) or CHAR(len/3)
  const utf8 = values.some((v) => v.some((c) => c >= 0x80)) && values.every(isUtf8Text);
  if (utf8 && len % 4 === 0) return { type: `char(${len / 4})`, confidence: 'medium', note: 'UTF-8 text of a fixed size, space-padded' };
  if (utf8 && len % 3 === 0) return { type: `char(${len / 3}) character set utf8mb3`, confidence: 'medium', note: 'UTF-8 text of a fixed size, space-padded' };
  return fixedGuess(values, len);
}

/** REDUNDANT: field count and lengths are exact; DB_TRX_ID + DB_ROLL_PTR are the first 6- and 7-byte pair that looks like them. */
function redundantSlots(records: readonly RecordFields[], pageSize: number): { slots: FieldSlot[]; notes: string[] } {
  const counts = new Map<number, number>();
  for (const r of records) counts.set(r.spans.length, (counts.get(r.spans.length) ?? 0) + 1);
  const n = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const notes = counts.size > 1 ? ['records have different field counts (an instant ADD COLUMN?); the most common count is used'] : [];
  const same = records.filter((r) => r.spans.length === n);
  let sys = -1;
  let bestOk = 0;
  for (let i = 0; i + 1 < n; i++) {
    const ok = same.filter((r) => r.spans[i].len === 6 && r.spans[i + 1].len === 7 && looksLikeSystem(r.bytes, r.spans[i].at, pageSize)).length;
    if (ok > bestOk) [sys, bestOk] = [i, ok];
    if (ok >= same.length * 0.9) break; // the first pair that fits: the key comes before it
  }
  if (sys < 0) throw new Error('no DB_TRX_ID/DB_ROLL_PTR pair was recognised in the records, so the key cannot be told from the other columns');
  if (bestOk < same.length * 0.9) notes.push(`DB_TRX_ID/DB_ROLL_PTR only recognised in ${Math.round((100 * bestOk) / same.length)}% of the records: the key columns are uncertain`);
  const rowId = sys === 1 && same.every((r) => r.spans[0].len === 6 && r.bytes[r.spans[0].at] < 0x80);
  const slots = Array.from({ length: n }, (_, i): FieldSlot => {
    // NULL values and off-page ones say nothing about a fixed size
    const lens = same.filter((r) => !r.spans[i].isNull).map((r) => r.spans[i].len);
    const fixedLen = lens.length > 0 && lens.every((l) => l === lens[0]) && same.every((r) => !r.spans[i].extern) ? lens[0] : -1;
    const role: LayoutField['role'] = i === sys ? 'trx' : i === sys + 1 ? 'roll' : i < sys ? (rowId ? 'row_id' : 'key') : 'column';
    return { role, fixedLen, big: false, bit: -1 };
  });
  return { slots, notes };
}

function buildResult(tableName: string, rowFormat: GuessResult['rowFormat'], pages: number, slots: readonly FieldSlot[], records: readonly RecordFields[], notes: string[]): GuessResult {
  const redundant = rowFormat === 'REDUNDANT';
  let c = 0;
  const fields = slots.map((slot, i) => {
    const name = slot.role === 'trx' ? 'DB_TRX_ID' : slot.role === 'roll' ? 'DB_ROLL_PTR' : slot.role === 'row_id' ? 'DB_ROW_ID' : `c${++c}`;
    return describeField(slot, records.map((r) => r.spans[i]), records, name, redundant);
  });
  const columns: ColumnEdit[] = fields.filter((f) => !f.system).map((f) => ({ name: f.name, type: f.type, nullable: f.nullable && !f.key, key: f.key }));
  const createSql = createTableSql(tableName, columns, rowFormat);
  return { tableName, rowFormat, pagesSampled: pages, recordsSampled: records.length, fields, columns, createSql, notes };
}

function compactGuess(sample: Sample, tableName: string, rowFormat: GuessResult['rowFormat']): GuessResult {
  const candidates = findStructures(sample);
  const { s: first, sys } = withSystemColumns(candidates, sample);
  // every clustered record has them: without them the layout cannot be what openTable() reads
  if (sys.t < 0) throw new Error('no DB_TRX_ID/DB_ROLL_PTR pair was recognised in the records, so the key cannot be told from the other columns');
  const { s, layout, notes } = completeLayout([first, ...candidates.filter((c) => c !== first && leadingKey(c) === leadingKey(first))], sys, sample);
  if (sys.score < 0.9) notes.unshift(`DB_TRX_ID/DB_ROLL_PTR only recognised in ${Math.round(sys.score * 100)}% of the records: the key columns are uncertain`);
  const records: RecordFields[] = [];
  for (const page of sample.pages) for (const o of page.origins) {
    const spans = compactSpans(page.bytes, o, layout, s.nullBytes);
    if (spans !== null) records.push({ bytes: page.bytes, spans });
  }
  return buildResult(tableName, offPageFormat(records) ?? rowFormat, sample.pages.length, layout, records, notes);
}

/** Structures tried for a layout whose null bits all find a column. */
const LAYOUT_TRIES = 16;

/**
 * The field layout of the likeliest structure whose null bits all find a column (with few records,
 * several field orders fit the heap, and only some leave room for the bits never seen set), else of
 * the likeliest one.
 */
function completeLayout(structures: readonly Structure[], sys: SystemAt, sample: Sample): { s: Structure; layout: LayoutField[]; notes: string[] } {
  let fallback: { s: Structure; layout: LayoutField[]; notes: string[] } | null = null;
  for (const s of structures.slice(0, LAYOUT_TRIES)) {
    const recs = compactRecords(sample.pages, s);
    const bounds = placeVars(recs, s, sys);
    const nullAt = placeNullFixed(recs, s, sys, bounds);
    const layout = compactLayout(recs, s, { sys, bounds, nullAt });
    markRowId(layout, recs);
    const notes: string[] = [];
    const complete = assignFillerBits(layout, s.nullBytes, notes);
    if (complete) return { s, layout, notes };
    fallback ??= { s, layout, notes };
  }
  if (fallback === null) throw new Error('no record structure was found');
  return fallback;
}

/** Structures with the same NOT NULL variable fields in front find the system columns in the same place. */
function leadingKey(s: Structure): string {
  let leading = 0;
  while (leading < s.vars.length && s.vars[leading].bit < 0) leading++;
  return `${s.nullBytes}:${s.vars.slice(0, leading).map((v) => (v.big ? 'b' : 's')).join('')}`;
}

/** COMPACT keeps a 768-byte prefix of an off-page value in the record, DYNAMIC only the 20-byte pointer. */
function offPageFormat(records: readonly RecordFields[]): GuessResult['rowFormat'] | null {
  for (const r of records) for (const sp of r.spans) if (sp.extern) return sp.len > EXTERN_REF ? 'COMPACT' : 'DYNAMIC';
  return null;
}

const EXTERN_REF = 20;

/** Distinct leading fields whose system columns are looked for: at most this many (likeliest first). */
const SYSTEM_TRIES = 64;

/**
 * The structure to build on: of those the heap accepts, the one whose DB_TRX_ID/DB_ROLL_PTR are found
 * in the most records, the likeliest of those. With few records the field order is least certain, and a
 * key of variable-length fields puts the system columns where only the right order finds them.
 */
function withSystemColumns(candidates: readonly Structure[], sample: Sample): { s: Structure; sys: SystemAt } {
  let best: { s: Structure; sys: SystemAt } | null = null;
  const seen = new Set<string>();
  for (const s of candidates) {
    // only the NOT NULL fields in front can be key fields: structures that share them find the same
    const key = leadingKey(s);
    if (seen.has(key)) continue;
    if (seen.size >= SYSTEM_TRIES) break;
    seen.add(key);
    const sys = findSystem(compactRecords(sample.pages, s), s, sample.pageSize);
    if (best === null || sys.score > best.sys.score + 1e-9) best = { s, sys };
  }
  if (best === null) throw new Error('no record structure was found');
  return best;
}

/** A key of one 6-byte field whose values are small and distinct: InnoDB's own DB_ROW_ID (no key). */
function markRowId(layout: LayoutField[], recs: readonly CRec[]): void {
  const keys = layout.filter((f) => f.role === 'key');
  if (keys.length !== 1 || keys[0].fixedLen !== 6 || layout[0] !== keys[0]) return;
  if (recs.every((r) => r.b[r.o] < 0x80)) keys[0].role = 'row_id';
}

/** Without off-page values to tell: DYNAMIC when the space flags say so, or for MariaDB's full_crc32 files, where it is the default. */
function compactRowFormat(ts: Tablespace): GuessResult['rowFormat'] {
  return ts.fsp.flags.atomicBlobs || ts.fsp.flags.fullCrc32 ? 'DYNAMIC' : 'COMPACT';
}

/**
 * Guesses the columns of the table in `ts` from its records alone: its clustered index, or index
 * `indexId` when given (one chosen from a scan of a raw image).
 */
export async function guessColumns(ts: Tablespace, tableName: string, indexId?: bigint): Promise<GuessResult> {
  const sample = await samplePages(ts, indexId);
  if (sample.pages.length === 0) throw new IbdError(ts.source.name, 'no leaf page with records was found: there are no rows to guess the columns from');
  try {
    if (sample.compact) return compactGuess(sample, tableName, compactRowFormat(ts));
    const records = sample.pages.flatMap((p) => p.origins.map((o) => ({ bytes: p.bytes, spans: redundantSpans(p.bytes, o) })));
    const { slots, notes } = redundantSlots(records, sample.pageSize);
    return buildResult(tableName, 'REDUNDANT', sample.pages.length, slots, records, notes);
  } catch (e) {
    if (e instanceof IbdError) throw e;
    throw new IbdError(ts.source.name, `the columns could not be guessed: ${(e as Error).message}`);
  }
}

const quoteName = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

/** The CREATE TABLE for a column list: what the DDL parser turns into a TableDef. */
export function createTableSql(tableName: string, columns: readonly ColumnEdit[], rowFormat: GuessResult['rowFormat']): string {
  const lines = columns.map((c) => `  ${quoteName(c.name)} ${c.type.trim()}${c.nullable && !c.key ? ' NULL' : ' NOT NULL'}`);
  const key = columns.filter((c) => c.key);
  if (key.length > 0) lines.push(`  PRIMARY KEY (${key.map((c) => quoteName(c.name)).join(', ')})`);
  return `CREATE TABLE ${quoteName(tableName)} (\n${lines.join(',\n')}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=${rowFormat}`;
}

/** A TableDef from a (user-edited) column list, through the DDL parser, so types are checked as usual. */
export function tableFromColumns(tableName: string, columns: readonly ColumnEdit[], rowFormat: GuessResult['rowFormat']): TableDef {
  if (columns.length === 0) throw new Error('the table needs at least one column');
  for (const c of columns) {
    if (c.name.trim() === '') throw new Error('a column has no name');
    if (/[;`]|--|\/\*/.test(c.type)) throw new Error(`column ${c.name}: the type '${c.type}' is not a column type`);
  }
  const tables = parseCreateTables(createTableSql(tableName, columns, rowFormat));
  if (tables.length !== 1) throw new Error('the column list does not make one CREATE TABLE');
  return tables[0];
}

/** The guessed table, ready for openTable(). */
export function guessedTable(guess: GuessResult): TableDef {
  return tableFromColumns(guess.tableName, guess.columns, guess.rowFormat);
}

/** A plain-text report of the guess: one line per field (for the command line). */
export function formatGuess(guess: GuessResult): string {
  const lines = [`guessed from ${guess.recordsSampled} records on ${guess.pagesSampled} leaf pages (${guess.rowFormat}):`];
  for (const f of guess.fields) {
    const len = f.minLength === f.maxLength ? `${f.maxLength}` : `${f.minLength}..${f.maxLength}`;
    const extra = [f.nulls > 0 ? `${f.nulls} NULL` : '', f.externs > 0 ? `${f.externs} off-page` : ''].filter(Boolean).join(', ');
    lines.push(`  ${f.name.padEnd(12)} ${(f.key ? 'key ' : '    ')}${len.padStart(9)} bytes  ${(f.type || '(system)').padEnd(34)} ${f.confidence.padEnd(6)} ${f.note}${extra ? `; ${extra}` : ''}; e.g. ${f.samples.slice(0, 3).join(' ')}`);
  }
  for (const n of guess.notes) lines.push(`  note: ${n}`);
  return lines.join('\n');
}
