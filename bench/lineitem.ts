/**
 * A deterministic TPC-H LINEITEM generator (there is no dbgen on this machine). It follows the value
 * rules of the TPC-H specification (v3, clause 4.2.3) closely enough that the table has the real
 * one's shape and size (~900 MB of .ibd at scale factor 1):
 *
 *  - order keys are sparse like dbgen's: of every 32 consecutive keys only the first 8 are used;
 *  - each order has 1–7 lines (uniform), lines numbered from 1, so rows come out in primary-key order
 *    (l_orderkey, l_linenumber) — the order InnoDB loads fastest;
 *  - part keys are uniform over SF·200,000 parts, the supplier is one of the part's 4 suppliers
 *    (the spec's PS_SUPPKEY formula), the extended price is quantity × the part's retail price;
 *  - dates derive from an order date uniform over 1992-01-01 … 1998-08-02 (ship +1..121 days,
 *    commit +30..90, receipt = ship +1..30), and the return flag and line status from the spec's
 *    "current date" 1995-06-17;
 *  - comments are 10–43 characters cut at a random offset out of a pseudo-text made of the spec's
 *    kind of words, like dbgen's text pool.
 *
 * The numbers come from a small seeded PRNG, so the rows are the same on every machine and every run.
 * Output: tab-separated lines for LOAD DATA (no value contains a tab, newline or backslash).
 */
import { closeSync, openSync, writeSync } from 'node:fs';

/** Rows of the real SF 1 table (dbgen's count). */
export const LINEITEM_SF1_ROWS = 6_001_215;

export const LINEITEM_DDL = `CREATE TABLE lineitem (
  l_orderkey INT NOT NULL,
  l_partkey INT NOT NULL,
  l_suppkey INT NOT NULL,
  l_linenumber INT NOT NULL,
  l_quantity DECIMAL(15,2) NOT NULL,
  l_extendedprice DECIMAL(15,2) NOT NULL,
  l_discount DECIMAL(15,2) NOT NULL,
  l_tax DECIMAL(15,2) NOT NULL,
  l_returnflag CHAR(1) NOT NULL,
  l_linestatus CHAR(1) NOT NULL,
  l_shipdate DATE NOT NULL,
  l_commitdate DATE NOT NULL,
  l_receiptdate DATE NOT NULL,
  l_shipinstruct CHAR(25) NOT NULL,
  l_shipmode CHAR(10) NOT NULL,
  l_comment VARCHAR(44) NOT NULL,
  PRIMARY KEY (l_orderkey, l_linenumber)
) ENGINE=InnoDB`;

/** Small, fast, seeded PRNG (a 32-bit xorshift-multiply mix of a Weyl sequence). */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** Uniform 32-bit unsigned integer. */
  next(): number {
    this.#state = (this.#state + 0x9e3779b9) >>> 0;
    let z = this.#state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** Uniform integer in [lo, hi] (the modulo bias is far below anything a benchmark could notice). */
  int(lo: number, hi: number): number {
    return lo + (this.next() % (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[this.next() % items.length];
  }
}

// Word classes of the spec's text grammar (clause 4.2.2.10), enough of each for varied text.
const NOUNS = ['packages', 'requests', 'accounts', 'deposits', 'foxes', 'ideas', 'theodolites', 'pinto beans', 'instructions', 'dependencies', 'excuses', 'platelets', 'asymptotes', 'courts', 'dolphins', 'multipliers', 'sauternes', 'warthogs', 'frets', 'dinos', 'attainments', 'somas', 'Tiresias', 'patterns', 'forges', 'braids', 'frays', 'warhorses', 'dugouts', 'notornis', 'epitaphs', 'pearls', 'tithes', 'waters', 'orbits', 'gifts', 'sheaves', 'depths', 'sentiments', 'decoys', 'realms', 'pains', 'grouches', 'escapades', 'hockey players'];
const VERBS = ['sleep', 'wake', 'are', 'cajole', 'haggle', 'nag', 'use', 'boost', 'affix', 'detect', 'integrate', 'maintain', 'nod', 'was', 'lose', 'sublate', 'solve', 'thrash', 'promise', 'engage', 'hinder', 'print', 'x-ray', 'breach', 'eat', 'grow', 'impress', 'mold', 'poach', 'serve', 'run', 'dazzle', 'snooze', 'doze', 'unwind', 'kindle', 'play', 'hang', 'believe', 'doubt'];
const ADJECTIVES = ['furious', 'sly', 'careful', 'blithe', 'quick', 'fluffy', 'slow', 'quiet', 'ruthless', 'thin', 'close', 'dogged', 'daring', 'brave', 'stealthy', 'permanent', 'enticing', 'idle', 'busy', 'regular', 'final', 'ironic', 'even', 'bold', 'silent', 'special', 'pending', 'unusual', 'express'];
const ADVERBS = ['sometimes', 'always', 'never', 'furiously', 'slyly', 'carefully', 'blithely', 'quickly', 'fluffily', 'slowly', 'quietly', 'ruthlessly', 'thinly', 'closely', 'doggedly', 'daringly', 'bravely', 'stealthily', 'permanently', 'enticingly', 'idly', 'busily', 'regularly', 'finally', 'ironically', 'evenly', 'boldly', 'silently'];
const PREPOSITIONS = ['about', 'above', 'according to', 'across', 'after', 'against', 'along', 'alongside of', 'among', 'around', 'at', 'atop', 'before', 'behind', 'beneath', 'beside', 'besides', 'between', 'beyond', 'by', 'despite', 'during', 'except', 'for', 'from', 'in place of', 'inside', 'instead of', 'into', 'near', 'of', 'on', 'outside', 'over', 'past', 'since', 'through', 'throughout', 'to', 'toward', 'under', 'until', 'up', 'upon', 'without', 'with', 'within'];
const TERMINATORS = ['.', ';', ':', '?', '!', '--'];

const SHIP_INSTRUCT = ['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'];
const SHIP_MODES = ['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'];

/** dbgen's text pool is 300 MB; 1 MiB of the same kind of sentences is plenty for 10–43-char cuts. */
const TEXT_POOL_CHARS = 1 << 20;

function textPool(rng: Rng): string {
  const parts: string[] = [];
  let length = 0;
  while (length < TEXT_POOL_CHARS) {
    // noun phrase, verb phrase, optional prepositional phrase, terminator
    const words: string[] = [];
    if (rng.int(0, 1) === 1) words.push(rng.pick(ADJECTIVES));
    words.push(rng.pick(NOUNS), rng.pick(VERBS));
    if (rng.int(0, 2) > 0) words.push(rng.pick(ADVERBS));
    if (rng.int(0, 1) === 1) words.push(rng.pick(PREPOSITIONS), 'the', rng.pick(ADJECTIVES), rng.pick(NOUNS));
    const sentence = words.join(' ') + rng.pick(TERMINATORS) + ' ';
    parts.push(sentence);
    length += sentence.length;
  }
  return parts.join('');
}

const DAY_MS = 86_400_000;
const START_DATE = Date.UTC(1992, 0, 1);
/** ENDDATE (1998-12-31) − 151 days: the last order date. */
const LAST_ORDER_DAY = (Date.UTC(1998, 11, 31) - START_DATE) / DAY_MS - 151;
/** The spec's CURRENTDATE, 1995-06-17, which splits shipped/open lines and returned/not. */
const CURRENT_DAY = (Date.UTC(1995, 5, 17) - START_DATE) / DAY_MS;

/** 'YYYY-MM-DD' for every day a lineitem date can fall on (order day + at most 121 + 30). */
function dateTable(): string[] {
  const out: string[] = [];
  for (let d = 0; d <= LAST_ORDER_DAY + 121 + 30; d++) out.push(new Date(START_DATE + d * DAY_MS).toISOString().slice(0, 10));
  return out;
}

/** Cents as a DECIMAL(15,2) literal. */
function money(cents: number): string {
  const frac = cents % 100;
  return `${(cents - frac) / 100}.${frac < 10 ? '0' : ''}${frac}`;
}

/** dbgen's sparse order keys: index i (1-based) keeps its low 3 bits and spreads the rest by 32. */
export function sparseOrderKey(i: number): number {
  return (Math.floor(i / 8) * 32) + (i % 8);
}

export interface GenerateResult {
  rows: number;
  orders: number;
  bytes: number;
}

/**
 * Writes `rows` LINEITEM rows as TSV to `path`, in primary-key order. Scale factor (parts,
 * suppliers) follows the row count, so a 10% table is TPC-H SF 0.1.
 */
export function writeLineitemTsv(path: string, rows: number, seed = 20240601): GenerateResult {
  const rng = new Rng(seed);
  const pool = textPool(rng);
  const dates = dateTable();
  const sf = rows / LINEITEM_SF1_ROWS;
  const parts = Math.max(1, Math.round(sf * 200_000));
  const suppliers = Math.max(4, Math.round(sf * 10_000));
  const quantities = Array.from({ length: 51 }, (_, q) => `${q}.00`);
  const smallDecimals = Array.from({ length: 11 }, (_, d) => `0.${d < 10 ? '0' : ''}${d}`);

  const fd = openSync(path, 'w');
  let written = 0;
  let orders = 0;
  let bytes = 0;
  let chunk = '';
  try {
    while (written < rows) {
      orders++;
      const orderKey = sparseOrderKey(orders);
      const orderDay = rng.int(0, LAST_ORDER_DAY);
      const lines = Math.min(rng.int(1, 7), rows - written);
      for (let line = 1; line <= lines; line++) {
        const partKey = rng.int(1, parts);
        const supplierIndex = rng.int(0, 3);
        const suppKey = ((partKey + supplierIndex * (Math.floor(suppliers / 4) + Math.floor((partKey - 1) / suppliers))) % suppliers) + 1;
        const quantity = rng.int(1, 50);
        const retailCents = 90_000 + (Math.floor(partKey / 10) % 20_001) + 100 * (partKey % 1000);
        const shipDay = orderDay + rng.int(1, 121);
        const commitDay = orderDay + rng.int(30, 90);
        const receiptDay = shipDay + rng.int(1, 30);
        const returnFlag = receiptDay <= CURRENT_DAY ? (rng.int(0, 1) === 0 ? 'R' : 'A') : 'N';
        const lineStatus = shipDay > CURRENT_DAY ? 'O' : 'F';
        const commentLength = rng.int(10, 43);
        const commentAt = rng.int(0, pool.length - commentLength);
        chunk +=
          `${orderKey}\t${partKey}\t${suppKey}\t${line}\t${quantities[quantity]}\t${money(quantity * retailCents)}\t` +
          `${smallDecimals[rng.int(0, 10)]}\t${smallDecimals[rng.int(0, 8)]}\t${returnFlag}\t${lineStatus}\t` +
          `${dates[shipDay]}\t${dates[commitDay]}\t${dates[receiptDay]}\t${rng.pick(SHIP_INSTRUCT)}\t${rng.pick(SHIP_MODES)}\t` +
          `${pool.substr(commentAt, commentLength)}\n`;
      }
      written += lines;
      // Write in ~1 MB pieces: one big string per row costs a syscall each, one huge string costs RAM.
      if (chunk.length >= 1 << 20) {
        bytes += writeSync(fd, chunk);
        chunk = '';
      }
    }
    if (chunk.length > 0) bytes += writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return { rows: written, orders, bytes };
}
