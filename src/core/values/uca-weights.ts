/**
 * The UCA collations' primary weights (`_unicode_ci` of UCA 4.0.0, `_unicode_520_ci` of 5.2.0,
 * MariaDB's `uca1400_ai_ci` of 14.0.0, of utf8mb3, utf8mb4, ucs2, utf16 or utf32 alike; MySQL 8.0's
 * `utf8mb4_0900_ai_ci` of 9.0.0): the weights of a text as the servers compare it at the primary
 * level, written as 16-bit big-endian words for order-key.ts. The data (uca-data.ts, generated from the servers' own weights and DUCET
 * by scripts/make-uca-weights.test.ts) is unpacked the first time a collation is used, into pages
 * of 256 code points (a page of unlisted characters stays null: they weigh the implicit weights of
 * an unassigned code point, FBC0 + (cp >> 15), (cp & 0x7FFF) | 0x8000).
 *
 * A page entry is 0 (implicit), or 1 + (offset << 4 | count) into `weights` (count 0: ignorable),
 * with CONTRACTS set when the character starts a contraction (uca1400 only: the longest one the
 * text continues with is weighed as one). Characters beyond U+FFFF of `_unicode_ci` weigh 0xFFFD,
 * as the data says.
 *
 * uca1400's secondary (accent) and tertiary (case) weights, for its `_as_` and `_cs` collations, are
 * tables of the same kind (uca-levels-data.ts, loadUcaLevels), but a character in no record weighs
 * the level's one `fallback` weight (0x0020, 0x0002) rather than implicit weights. A language's
 * tailoring (uca-tailorings-data.ts, loadUcaTailorings) is the untailored table with the characters
 * it weighs otherwise written over it, and its own contractions instead of the untailored ones.
 */
import type { UcaData } from './uca-data.ts';

export type UcaVersion = 'unicode' | 'unicode520' | 'uca1400' | 'mysql0900';

/** The level of uca1400's weights beyond the primary ones: accents (secondary), case (tertiary). */
export type UcaLevel = 'secondary' | 'tertiary';

let data: Record<UcaVersion, UcaData> | null = null;
let levelData: Record<UcaLevel, UcaData & { fallback: number }> | null = null;
let tailoringData: Record<string, UcaData> | null = null;

/** Loads the weights: a chunk of their own in the page's bundle (only a sort by a UCA collation needs them). */
export async function loadUcaWeights(): Promise<void> {
  data ??= (await import('./uca-data.ts')).UCA_DATA;
}

/** Loads the language tailorings (uca-tailorings-data.ts), a chunk of their own too. */
export async function loadUcaTailorings(): Promise<void> {
  tailoringData ??= (await import('./uca-tailorings-data.ts')).UCA_TAILORINGS;
}

/** Loads uca1400's secondary and tertiary weights (uca-levels-data.ts), a chunk of their own too. */
export async function loadUcaLevels(): Promise<void> {
  levelData ??= (await import('./uca-levels-data.ts')).UCA_LEVELS;
}

/** Where a key's bytes go (order-key.ts's KeySink): `reserve(n)` makes room for n more at `length` and returns it. */
export interface WeightSink {
  bytes: Uint8Array;
  length: number;
  reserve(n: number): number;
}

const CONTRACTS = 1 << 30;
const PAGE = 256;

interface Contraction {
  cps: number[];
  at: number;
  count: number;
}

export interface UcaTable {
  pages: (Uint32Array | null)[];
  weights: Uint16Array;
  /** By first code point: its contractions, longest first. */
  contractions: Map<number, Contraction[]>;
  /** The weight of a space, what PAD SPACE pads with. */
  space: number;
  /** The one weight of a character in no record (a secondary or tertiary level's), or 0: the implicit weights. */
  fallback: number;
}

class VarintReader {
  #p = 0;
  #last = 0;
  constructor(readonly bytes: Uint8Array) {}
  get done(): boolean {
    return this.#p >= this.bytes.length;
  }
  uint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.bytes[this.#p++];
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 128;
    }
  }
  weight(): number {
    const z = this.uint();
    this.#last += z & 1 ? -(z + 1) / 2 : z / 2;
    return this.#last;
  }
}

function base64Bytes(text: string): Uint8Array {
  const raw = atob(text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** A growable list of weights. */
class WeightList {
  words = new Uint16Array(1 << 16);
  length = 0;
  push(w: number): void {
    if (this.length === this.words.length) {
      const grown = new Uint16Array(this.length * 2);
      grown.set(this.words);
      this.words = grown;
    }
    this.words[this.length++] = w;
  }
}

function pageOf(pages: (Uint32Array | null)[], cp: number): Uint32Array {
  return (pages[cp >> 8] ??= new Uint32Array(PAGE));
}

/** Unpacks the character records (see scripts/make-uca-weights.test.ts). */
function readChars(reader: VarintReader, pages: (Uint32Array | null)[], list: WeightList): void {
  let cp = 0;
  while (!reader.done) {
    cp += reader.uint();
    const count = reader.uint();
    const shape = reader.uint();
    const n = shape >> 1;
    const first = Array.from({ length: n }, () => reader.weight());
    const shared = shape & 1 ? -1 : list.length;
    if (shared >= 0) for (const w of first) list.push(w);
    let whole: Uint32Array | null = null;
    for (let i = 0; i < count; i++, cp++) {
      let at = shared;
      if (at < 0) {
        at = list.length;
        for (let k = 0; k < n; k++) list.push(k === n - 1 ? first[k] + i : first[k]);
      }
      const entry = 1 + ((at << 4) | n);
      // a page of one repeated entry (the 0xFFFD beyond the BMP of _unicode_ci) is shared
      if (shared >= 0 && (cp & 255) === 0 && count - i >= PAGE) {
        whole ??= new Uint32Array(PAGE).fill(entry);
        pages[cp >> 8] = whole;
        i += PAGE - 1;
        cp += PAGE - 1;
        continue;
      }
      pageOf(pages, cp)[cp & 255] = entry;
    }
  }
}

function readContractions(reader: VarintReader, table: UcaTable, list: WeightList): void {
  while (!reader.done) {
    const cps = Array.from({ length: reader.uint() }, () => reader.uint());
    const count = reader.uint();
    const at = list.length;
    for (let k = 0; k < count; k++) list.push(reader.weight());
    const page = pageOf(table.pages, cps[0]);
    if (page[cps[0] & 255] === 0) page[cps[0] & 255] = defaultEntry(table, cps[0], list);
    page[cps[0] & 255] |= CONTRACTS;
    const known = table.contractions.get(cps[0]) ?? [];
    known.push({ cps, at, count });
    known.sort((a, b) => b.cps.length - a.cps.length);
    table.contractions.set(cps[0], known);
  }
}

/** The entry of a character in no record that starts a contraction: the weights it has alone. */
function defaultEntry(table: UcaTable, cp: number, list: WeightList): number {
  const at = list.length;
  if (table.fallback !== 0) {
    list.push(table.fallback);
    return 1 + ((at << 4) | 1);
  }
  list.push(0xfbc0 + (cp >> 15));
  list.push((cp & 0x7fff) | 0x8000);
  return 1 + ((at << 4) | 2);
}

const tables = new Map<string, UcaTable>();

/** A table of `source`'s weights; of a `tailoring`, its characters over the source's and its contractions instead. */
function unpack(source: UcaData, fallback: number, tailoring?: UcaData): UcaTable {
  const list = new WeightList();
  const table: UcaTable = { pages: new Array<Uint32Array | null>(0x110000 / PAGE).fill(null), weights: list.words, contractions: new Map(), space: 0, fallback };
  readChars(new VarintReader(base64Bytes(source.chars)), table.pages, list);
  // the tailored characters are all in the BMP, whose pages readChars never shares
  if (tailoring) readChars(new VarintReader(base64Bytes(tailoring.chars)), table.pages, list);
  readContractions(new VarintReader(base64Bytes((tailoring ?? source).contractions)), table, list);
  table.weights = list.words;
  const space = table.pages[0]?.[0x20] ?? 0;
  table.space = space === 0 ? fallback : table.weights[(space - 1) >> 4];
  return table;
}

/** The unpacked weights of a UCA version (unpacked once; loadUcaWeights first). */
export function ucaTable(version: UcaVersion): UcaTable {
  let table = tables.get(version);
  if (table) return table;
  if (!data) throw new Error('the UCA weights are not loaded (loadUcaWeights)');
  table = unpack(data[version], 0);
  tables.set(version, table);
  return table;
}

/** The primary weights of a language's tailoring of a UCA version (unpacked once; loadUcaWeights and loadUcaTailorings first). */
export function ucaTailoredTable(version: 'unicode' | 'uca1400', language: string): UcaTable {
  const name = `${version}:${language}`;
  let table = tables.get(name);
  if (table) return table;
  if (!data || !tailoringData) throw new Error('the UCA tailorings are not loaded (loadUcaTailorings)');
  table = unpack(data[version], 0, tailoringData[name]);
  tables.set(name, table);
  return table;
}

/** uca1400's weights of one level beyond the primary (unpacked once; loadUcaLevels first). */
export function ucaLevelTable(level: UcaLevel): UcaTable {
  let table = tables.get(level);
  if (table) return table;
  if (!levelData) throw new Error('the UCA levels are not loaded (loadUcaLevels)');
  table = unpack(levelData[level], levelData[level].fallback);
  tables.set(level, table);
  return table;
}

/** Code point at text[i] (a lone surrogate as itself). */
function codePointAt(text: string, i: number): number {
  const u = text.charCodeAt(i);
  if (u >= 0xd800 && u <= 0xdbff && i + 1 < text.length) {
    const v = text.charCodeAt(i + 1);
    if (v >= 0xdc00 && v <= 0xdfff) return 0x10000 + ((u - 0xd800) << 10) + (v - 0xdc00);
  }
  return u;
}

/** How many UTF-16 units of text from `i` the contraction's code points are, or 0 if the text does not go on with them. */
function matchLength(text: string, i: number, cps: number[]): number {
  let at = i;
  for (const cp of cps) {
    if (at >= text.length || codePointAt(text, at) !== cp) return 0;
    at += cp > 0xffff ? 2 : 1;
  }
  return at - i;
}

/**
 * Appends the primary weights of `text` to `out`, each minus `shift` (order-key.ts shifts PAD SPACE
 * keys so that the space weighs 0x20, as general_ci's keys do).
 */
export function appendUcaWeights(table: UcaTable, text: string, shift: number, out: WeightSink): void {
  const { pages, weights } = table;
  for (let i = 0; i < text.length; ) {
    const cp = codePointAt(text, i);
    const units = cp > 0xffff ? 2 : 1;
    let entry = pages[cp >> 8]?.[cp & 255] ?? 0;
    let used = units;
    if (entry & CONTRACTS) {
      entry &= ~CONTRACTS;
      for (const c of table.contractions.get(cp)!) {
        const n = matchLength(text, i, c.cps);
        if (n > 0) {
          entry = 1 + ((c.at << 4) | c.count);
          used = n;
          break;
        }
      }
    }
    i += used;
    let p = out.reserve(entry === 0 ? 4 : ((entry - 1) & 15) * 2);
    const b = out.bytes;
    if (entry === 0 && table.fallback !== 0) {
      const w = table.fallback - shift;
      b[p++] = w >> 8;
      b[p++] = w & 0xff;
    } else if (entry === 0) {
      const hi = 0xfbc0 + (cp >> 15) - shift;
      const lo = ((cp & 0x7fff) | 0x8000) - shift;
      b[p++] = hi >> 8;
      b[p++] = hi & 0xff;
      b[p++] = lo >> 8;
      b[p++] = lo & 0xff;
    } else {
      const at = (entry - 1) >> 4;
      const end = at + ((entry - 1) & 15);
      for (let k = at; k < end; k++) {
        const w = weights[k] - shift;
        b[p++] = w >> 8;
        b[p++] = w & 0xff;
      }
    }
    out.length = p;
  }
}
