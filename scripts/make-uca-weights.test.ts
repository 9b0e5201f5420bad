/**
 * Makes src/core/values/uca-data.ts, the primary weights of the UCA collations the sort orders by
 * (src/core/values/uca-weights.ts reads them): `npx vitest run --config scripts/sample.vitest.config.ts
 * scripts/make-uca-weights.test.ts` (not part of `npm test`). Sources, never typed by hand:
 *
 *  - MariaDB's utf8mb4_unicode_ci (UCA 4.0.0), utf8mb4_unicode_520_ci (5.2.0) and
 *    utf8mb4_uca1400_ai_ci (14.0.0): the engine's own WEIGHT_STRING of every code point, asked of a
 *    private server (test/harness/mariadb.ts), and of every contraction of DUCET 14.0.0 (the
 *    multi-code-point lines of its allkeys.txt, `ALLKEYS_1400`), kept where the server weighs the
 *    sequence otherwise than its characters one by one (only uca1400 does);
 *  - MySQL 8.0's utf8mb4_0900_ai_ci (9.0.0): DUCET 9.0.0's allkeys.txt (`ALLKEYS_900`, from
 *    unicode.org/Public/UCA/9.0.0/ or unicode-org/unicodetools data/uca/9.0.0/) read as MySQL's
 *    strings/uca9-dump.cc reads it: no contractions, at most 8 collation elements a character,
 *    Hangul syllables as their jamo, and MySQL's next_implicit() for characters not listed.
 *
 * Its second test writes src/core/values/uca-levels-data.ts: uca1400's secondary and tertiary
 * weights, split out of the server's WEIGHT_STRING of every code point in utf8mb4_uca1400_ai_ci,
 * _as_ci and _as_cs (the levels follow each other with nothing between), and of every contraction
 * of uca-data.ts's uca1400 (all of them, so that each level splits a text into the same pieces); run
 * it alone with `-t levels` (it needs neither DUCET file). Its third (`-t tailorings`) writes
 * src/core/values/uca-tailorings-data.ts: for each language of TAILORED_LANGUAGES, of UCA 4.0.0
 * (utf8mb4_<lang>_ci) and uca1400 (_<lang>_ai_ci), the code points the server weighs otherwise than
 * in the untailored collation, and its contractions: the pairs of ASCII, Latin-1 and Latin Extended-A letters, then
 * those pairs and a third letter, that it weighs otherwise than piece by piece, with uca1400's own.
 *
 * It also writes test/fixtures/uca-0900-order.txt, every 100th line of DUCET 9.0.0's conformance
 * test (CollationTest_NON_IGNORABLE_SHORT.txt, `COLLATION_TEST_900`) whose characters are in no
 * contraction (MySQL skips them): strings in DUCET's order, which test/uca-weights.test.ts checks
 * 0900_ai_ci's primary weights keep.
 *
 * The format (uca-weights.ts decodes it): base64 of varints. Characters: records of [gap from the
 * previous record's end][count][n << 1 | step][n weights], count consecutive code points each
 * weighing n weights, the last one + i for the i-th when step is 1; each weight is written as the
 * zigzag difference from the weight written before it. A code point in no record weighs the
 * implicit weights of an unassigned one: FBC0 + (cp >> 15), (cp & 0x7FFF) | 0x8000. Contractions:
 * [length][code points][n][weights], the same way.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startMariadb, type MariadbServer } from '../test/harness/mariadb.ts';
import { loadUcaWeights, ucaTable } from '../src/core/values/uca-weights.ts';
import { TAILORED_LANGUAGES } from '../src/core/values/uca-order.ts';

const ROOT = join(import.meta.dirname, '..');
const MAX_CP = 0x10ffff;

type Weights = Map<number, number[]>;

class VarintWriter {
  bytes: number[] = [];
  #last = 0;
  uint(v: number): void {
    while (v >= 0x80) {
      this.bytes.push((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    this.bytes.push(v);
  }
  weight(w: number): void {
    const d = w - this.#last;
    this.#last = w;
    this.uint(d >= 0 ? d * 2 : -d * 2 - 1);
  }
}

function implicitWeights(cp: number): number[] {
  return [0xfbc0 + (cp >> 15), (cp & 0x7fff) | 0x8000];
}

const same = (a: number[], b: number[]) => a.length === b.length && a.every((w, i) => w === b[i]);

/** Whether code point cp (of weights w) goes on the run of `prev` (of weights p, `length` long) with `step`. */
function continues(p: number[], w: number[], length: number, step: number): boolean {
  if (p.length !== w.length) return false;
  if (p.length === 0) return true;
  for (let i = 0; i < w.length - 1; i++) if (w[i] !== p[i]) return false;
  return w[w.length - 1] === p[p.length - 1] + step * length;
}

/** `fallback`: the weights of a code point in no record (the implicit ones, or a level's one weight). */
function encodeChars(weights: (cp: number) => number[], fallback: (cp: number) => number[] = implicitWeights): string {
  const out = new VarintWriter();
  let end = 0;
  for (let cp = 0; cp <= MAX_CP; ) {
    if ((cp >= 0xd800 && cp <= 0xdfff) || same(weights(cp), fallback(cp))) {
      cp++;
      continue;
    }
    const first = weights(cp);
    const next = cp < MAX_CP ? weights(cp + 1) : [];
    const step = continues(first, next, 1, 1) ? 1 : 0;
    let count = 1;
    while (cp + count <= MAX_CP && !(cp + count >= 0xd800 && cp + count <= 0xdfff) && continues(first, weights(cp + count), count, step)) count++;
    out.uint(cp - end);
    out.uint(count);
    out.uint((first.length << 1) | step);
    for (const w of first) out.weight(w);
    cp += count;
    end = cp;
  }
  return Buffer.from(out.bytes).toString('base64');
}

function encodeContractions(contractions: Map<string, number[]>): string {
  const out = new VarintWriter();
  for (const [seq, w] of contractions) {
    const cps = seq.split(' ').map((h) => parseInt(h, 16));
    out.uint(cps.length);
    for (const cp of cps) out.uint(cp);
    out.uint(w.length);
    for (const x of w) out.weight(x);
  }
  return Buffer.from(out.bytes).toString('base64');
}

const hexWeights = (hex: string) => Array.from({ length: hex.length / 4 }, (_, i) => parseInt(hex.slice(4 * i, 4 * i + 4), 16));
const utf32 = (cps: string) => cps.split(' ').map((h) => h.padStart(8, '0')).join('');

/** The multi-code-point lines of an allkeys.txt, as "0418 0306". */
function allkeysContractions(text: string): string[] {
  return [...text.matchAll(/^([0-9A-F]{4,6}(?: [0-9A-F]{4,6})+)\s*;/gm)].map((m) => m[1]);
}

async function serverWeights(db: MariadbServer, collation: string): Promise<Weights> {
  const { rows } = await db.query(`SELECT seq, HEX(WEIGHT_STRING(CONVERT(CHAR(seq USING utf32) USING utf8mb4) COLLATE ${collation}))
    FROM seq_0_to_1114111 WHERE seq < 55296 OR seq > 57343`);
  return new Map(rows.map((r) => [Number(r[0]), hexWeights(String(r[1]))]));
}

async function serverContractions(db: MariadbServer, collation: string, chars: Weights, candidates: string[]): Promise<Map<string, number[]>> {
  const sql = candidates.map((c) => `SELECT '${c}', HEX(WEIGHT_STRING(CONVERT(_utf32 X'${utf32(c)}' USING utf8mb4) COLLATE ${collation}))`).join(' UNION ALL ');
  const found = new Map<string, number[]>();
  for (const r of (await db.query(sql)).rows) {
    const seq = String(r[0]);
    const w = hexWeights(String(r[1]));
    if (!same(w, seq.split(' ').flatMap((h) => chars.get(parseInt(h, 16)) ?? []))) found.set(seq, w);
  }
  return found;
}

/** DUCET lines of one code point: its collation elements' [primary, secondary, tertiary]. */
function allkeysChars(text: string): Map<number, number[][]> {
  const out = new Map<number, number[][]>();
  for (const m of text.matchAll(/^([0-9A-F]{4,6})\s*;\s*((?:\[[.*][0-9A-F.]+\])+)/gm)) {
    out.set(parseInt(m[1], 16), [...m[2].matchAll(/\[[.*]([0-9A-F.]+)\]/g)].map((e) => e[1].split('.').map((x) => parseInt(x, 16))));
  }
  return out;
}

/** MySQL's next_implicit() (strings/ctype-uca.cc) for UCA 9.0.0: the primaries of a character DUCET does not list. */
function mysql900Implicit(cp: number): number[] {
  if (cp >= 0x17000 && cp <= 0x18aff) return [0xfb00, (cp - 0x17000) | 0x8000];
  const extension = (cp >= 0x3400 && cp <= 0x4db5) || (cp >= 0x20000 && cp <= 0x2a6d6) || (cp >= 0x2a700 && cp <= 0x2b734)
    || (cp >= 0x2b740 && cp <= 0x2b81d) || (cp >= 0x2b820 && cp <= 0x2cea1);
  const core = (cp >= 0x4e00 && cp <= 0x9fd5) || (cp >= 0xfa0e && cp <= 0xfa29);
  return [(extension ? 0xfb80 : core ? 0xfb40 : 0xfbc0) + (cp >> 15), (cp & 0x7fff) | 0x8000];
}

/** A Hangul syllable's jamo (MySQL's my_decompose_hangul_syllable, AC00-D7AF), or null. */
function hangulJamo(cp: number): number[] | null {
  if (cp < 0xac00 || cp > 0xd7af) return null;
  const s = cp - 0xac00;
  const t = s % 28;
  const jamo = [0x1100 + Math.floor(s / 588), 0x1161 + Math.floor((s % 588) / 28)];
  return t ? [...jamo, 0x11a7 + t] : jamo;
}

function mysql900Weights(allkeys: string): (cp: number) => number[] {
  const ducet = allkeysChars(allkeys);
  const primaries = (ces: number[][]) => ces.slice(0, 8).map((e) => e[0]).filter((p) => p !== 0);
  return (cp) => {
    const ces = ducet.get(cp);
    if (ces) return primaries(ces);
    const jamo = hangulJamo(cp);
    // a jamo's first collation element, as my_put_jamo_weights takes it
    if (jamo) return jamo.map((j) => ducet.get(j)![0][0]).filter((p) => p !== 0);
    return mysql900Implicit(cp);
  };
}

function readAllkeys(variable: string, version: string): string {
  const path = process.env[variable];
  if (!path) throw new Error(`Set ${variable} to the path of DUCET ${version}'s allkeys.txt`);
  const text = readFileSync(path, 'utf8');
  expect(text).toContain(`@version ${version}`);
  return text;
}

/** Every 100th line of the conformance test that no contraction's character is in. */
function conformanceSample(allkeys900: string): string {
  const path = process.env.COLLATION_TEST_900;
  if (!path) throw new Error('Set COLLATION_TEST_900 to the path of UCA 9.0.0\'s CollationTest_NON_IGNORABLE_SHORT.txt');
  const inContraction = new Set(allkeysContractions(allkeys900).flatMap((c) => c.split(' ')));
  const lines = readFileSync(path, 'utf8').split('\n').filter((l) => /^[0-9A-F]/.test(l)).map((l) => l.split(';')[0].trim());
  expect(lines.length).toBeGreaterThan(100_000);
  const kept = lines.filter((l) => !l.split(' ').some((cp) => inContraction.has(cp)));
  return `${kept.filter((_, i) => i % 100 === 0).join('\n')}\n`;
}

it('writes src/core/values/uca-data.ts and test/fixtures/uca-0900-order.txt', async () => {
  const allkeys900 = readAllkeys('ALLKEYS_900', '9.0.0');
  writeFileSync(join(ROOT, 'test/fixtures/uca-0900-order.txt'), conformanceSample(allkeys900));
  const candidates = allkeysContractions(readAllkeys('ALLKEYS_1400', '14.0.0'));
  const db = await startMariadb({ pageSize: 4096 });
  const entries: string[] = [];
  try {
    for (const [name, collation] of [['unicode', 'utf8mb4_unicode_ci'], ['unicode520', 'utf8mb4_unicode_520_ci'], ['uca1400', 'utf8mb4_uca1400_ai_ci']]) {
      const chars = await serverWeights(db, collation);
      const contractions = await serverContractions(db, collation, chars, candidates);
      entries.push(`  ${name}: { source: '${collation} of MariaDB ${(await db.query('SELECT VERSION()')).rows[0][0]}', chars: '${encodeChars((cp) => chars.get(cp)!)}', contractions: '${encodeContractions(contractions)}' },`);
    }
  } finally {
    await db.stop();
  }
  entries.push(`  mysql0900: { source: 'DUCET 9.0.0 allkeys.txt as MySQL 8.0 reads it', chars: '${encodeChars(mysql900Weights(allkeys900))}', contractions: '' },`);
  writeFileSync(join(ROOT, 'src/core/values/uca-data.ts'), `/**
 * GENERATED by scripts/make-uca-weights.test.ts (see there for the sources and the format): the
 * primary weights of the UCA collations, read by uca-weights.ts. Do not edit.
 */
export interface UcaData {
  source: string;
  chars: string;
  contractions: string;
}

export const UCA_DATA: Record<'unicode' | 'unicode520' | 'uca1400' | 'mysql0900', UcaData> = {
${entries.join('\n')}
};
`);
}, 600_000);

/** A text's weights in uca1400's ai_ci, as_ci and as_cs: its primary weights, then its secondary ones, then its tertiary ones, with nothing between. */
const LEVEL_COLLATIONS = ['utf8mb4_uca1400_ai_ci', 'utf8mb4_uca1400_as_ci', 'utf8mb4_uca1400_as_cs'];

/** The secondary and tertiary weights of texts, split out of their ai_ci, as_ci and as_cs weight strings. */
function splitLevels(hex: string[]): [number[], number[]] {
  const [w1, w2, w3] = hex.map(hexWeights);
  expect(w2.slice(0, w1.length)).toEqual(w1);
  expect(w3.slice(0, w2.length)).toEqual(w2);
  return [w2.slice(w1.length), w3.slice(w2.length)];
}

const weightSql = (text: string) => LEVEL_COLLATIONS.map((c) => `HEX(WEIGHT_STRING(${text} COLLATE ${c}))`).join(', ');

it('writes src/core/values/uca-levels-data.ts', async () => {
  await loadUcaWeights();
  const contractions = [...ucaTable('uca1400').contractions.values()].flat().map((c) => c.cps);
  const db = await startMariadb({ pageSize: 4096 });
  const levels: [Weights, Weights] = [new Map(), new Map()];
  const contracted: [Map<string, number[]>, Map<string, number[]>] = [new Map(), new Map()];
  let version: unknown;
  try {
    version = (await db.query('SELECT VERSION()')).rows[0][0];
    const { rows } = await db.query(`SELECT seq, ${weightSql('CONVERT(CHAR(seq USING utf32) USING utf8mb4)')} FROM seq_0_to_1114111 WHERE seq < 55296 OR seq > 57343`);
    for (const r of rows) splitLevels(r.slice(1).map(String)).forEach((w, k) => levels[k].set(Number(r[0]), w));
    const hexCps = contractions.map((cps) => cps.map((cp) => cp.toString(16).toUpperCase()).join(' '));
    const sql = hexCps.map((seq) => `SELECT '${seq}', ${weightSql(`CONVERT(_utf32 X'${utf32(seq)}' USING utf8mb4)`)}`).join(' UNION ALL ');
    // every contraction of the primary level, so that each level splits a text into the same pieces
    for (const r of (await db.query(sql)).rows) splitLevels(r.slice(1).map(String)).forEach((w, k) => contracted[k].set(String(r[0]), w));
  } finally {
    await db.stop();
  }
  // the one weight of most characters, unassigned ones too: 0x0020 on the secondary level, 0x0002 on the tertiary one
  const entries = levels.map((chars, k) => {
    const fallback = [[0x20], [0x02]][k];
    return `  ${['secondary', 'tertiary'][k]}: { source: '${LEVEL_COLLATIONS[k + 1]} of MariaDB ${version}', fallback: ${fallback[0]}, chars: '${encodeChars((cp) => chars.get(cp)!, () => fallback)}', contractions: '${encodeContractions(contracted[k])}' },`;
  });
  writeFileSync(join(ROOT, 'src/core/values/uca-levels-data.ts'), `/**
 * GENERATED by scripts/make-uca-weights.test.ts (see there for the sources and the format): the
 * secondary and tertiary weights of MariaDB's uca1400 collations, read by uca-weights.ts. Do not edit.
 */
import type { UcaData } from './uca-data.ts';

export const UCA_LEVELS: Record<'secondary' | 'tertiary', UcaData & { fallback: number }> = {
${entries.join('\n')}
};
`);
}, 600_000);

const FAMILIES: [string, string, (language: string) => string][] = [
  ['unicode', 'utf8mb4_unicode_ci', (l) => `utf8mb4_${l}_ci`],
  ['uca1400', 'utf8mb4_uca1400_ai_ci', (l) => `utf8mb4_uca1400_${l}_ai_ci`],
];
/** A code point in no tailoring record weighs as in the untailored collation. */
const UNTAILORED = [-1];
const letterSql = (col: string) => `CONVERT(CHAR(${col} USING utf32) USING utf8mb4)`;

it('writes src/core/values/uca-tailorings-data.ts', async () => {
  await loadUcaWeights();
  const baseContractions = [...ucaTable('uca1400').contractions.values()].flat().map((c) => c.cps.map((cp) => cp.toString(16).toUpperCase()).join(' '));
  const db = await startMariadb({ pageSize: 4096 });
  const entries: string[] = [];
  try {
    const version = (await db.query('SELECT VERSION()')).rows[0][0];
    // the candidates of contractions: pairs of ASCII, Latin-1 and Latin Extended-A letters, then the pairs found and a third letter
    const letters = [...Array(0x180).keys()].filter((cp) => (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || (cp >= 0xc0 && cp !== 0xd7 && cp !== 0xf7));
    await db.query(`CREATE TABLE test.letters (cp INT PRIMARY KEY) ENGINE=InnoDB`);
    await db.query(`INSERT INTO test.letters VALUES ${letters.map((cp) => `(${cp})`).join(',')}`);
    for (const [family, base, name] of FAMILIES) {
      for (const language of TAILORED_LANGUAGES) {
        const coll = name(language);
        const ws = (sql: string) => `WEIGHT_STRING(${sql} COLLATE ${coll})`;
        const { rows } = await db.query(`SELECT seq, HEX(${ws(letterSql('seq'))}) FROM seq_0_to_1114111
          WHERE (seq < 55296 OR seq > 57343) AND ${ws(letterSql('seq'))} <> WEIGHT_STRING(${letterSql('seq')} COLLATE ${base})`);
        const chars: Weights = new Map(rows.map((r) => [Number(r[0]), hexWeights(String(r[1]))]));
        expect([...chars.keys()].every((cp) => cp < 0x10000)).toBe(true);
        const pair = `CONCAT(${letterSql('a.cp')}, ${letterSql('b.cp')})`;
        const pairs = (await db.query(`SELECT a.cp, b.cp FROM test.letters a, test.letters b
          WHERE ${ws(pair)} <> CONCAT(${ws(letterSql('a.cp'))}, ${ws(letterSql('b.cp'))})`)).rows.map((r) => [Number(r[0]), Number(r[1])]);
        const triples: number[][] = [];
        for (const [x, y] of pairs) {
          const xy = `CONCAT(CHAR(${x} USING utf32), CHAR(${y} USING utf32))`;
          const found = await db.query(`SELECT c.cp FROM test.letters c WHERE ${ws(`CONVERT(CONCAT(${xy}, CHAR(c.cp USING utf32)) USING utf8mb4)`)} <> CONCAT(${ws(`CONVERT(${xy} USING utf8mb4)`)}, ${ws(letterSql('c.cp'))})`);
          for (const r of found.rows) triples.push([x, y, Number(r[0])]);
        }
        const hex = (cps: number[]) => cps.map((cp) => cp.toString(16).toUpperCase()).join(' ');
        const candidates = [...(family === 'uca1400' ? baseContractions : []), ...pairs.map(hex), ...triples.map(hex)];
        const sql = candidates.map((c) => `SELECT '${c}', HEX(${ws(`CONVERT(_utf32 X'${utf32(c)}' USING utf8mb4)`)})`).join(' UNION ALL ');
        const contractions = new Map<string, number[]>(candidates.length ? (await db.query(sql)).rows.map((r) => [String(r[0]), hexWeights(String(r[1]))]) : []);
        entries.push(`  '${family}:${language}': { source: '${coll} of MariaDB ${version}', chars: '${encodeChars((cp) => chars.get(cp) ?? UNTAILORED, () => UNTAILORED)}', contractions: '${encodeContractions(contractions)}' },`);
      }
    }
  } finally {
    await db.stop();
  }
  writeFileSync(join(ROOT, 'src/core/values/uca-tailorings-data.ts'), `/**
 * GENERATED by scripts/make-uca-weights.test.ts (see there for the sources and the format): the
 * language tailorings of the UCA collations, the characters whose primary weights differ from the
 * untailored collation's and every contraction, read by uca-weights.ts. Do not edit.
 */
import type { UcaData } from './uca-data.ts';

export const UCA_TAILORINGS: Record<string, UcaData> = {
${entries.join('\n')}
};
`);
}, 900_000);
