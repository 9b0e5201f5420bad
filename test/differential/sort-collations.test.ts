/**
 * Sorting by a column in a UCA collation or of type SET, against MariaDB's own `ORDER BY col, id`:
 * 2,000 rows whose text is built to stress the order (accents, case, ligatures, punctuation and the
 * variable-weight characters, CJK of the core block and its extensions, Hangul, emoji and other
 * supplementary characters, ignorables, combining marks, DUCET 14.0.0's contractions, trailing
 * spaces and tabs, empty and NULL) and random strings of any code point (assigned or not), in
 * utf8mb4_unicode_ci, its NO PAD twin, utf8mb3_unicode_ci, utf8mb4_unicode_520_ci,
 * utf8mb4_uca1400_ai_ci and its NO PAD twin, ucs2_unicode_ci, utf16_unicode_ci, utf32_unicode_520_ci,
 * utf16_uca1400_ai_ci (the same weights whatever the Unicode charset); SETs of 3 and of 40 members (the bitmap's high word);
 * geometries of every kind and several SRIDs (the server compares the stored SRID + WKB bytes);
 * JSON, which MariaDB keeps as LONGTEXT in utf8mb4_bin.
 * The table is decoded from its .ibd and sorted the way the page sorts it (TableView.sortBy: runs
 * of one leaf page, merged); the row order must be the server's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { rng } from './random-data.ts';
import { openSortedTable, serverIds, sortedIds, type SortedTable } from './sorted-table.ts';
import { TAILORED_LANGUAGES } from '../../src/core/values/uca-order.ts';

const STRESS = [
  'a', 'A', 'á', 'à', 'â', 'ä', 'å', 'ã', 'aa', 'ab', 'b', 'B', 'c', 'č', 'ch', 'cH', 'Ch', 'd', 'e', 'é', 'e\u0301', 'E\u0301', 'ê',
  'æ', 'Æ', 'ae', 'AE', 'œ', 'oe', 'ﬁ', 'fi', 'ß', 'ss', 'ẞ', 'sz', 'ø', 'o', 'ö', 'ǆ', 'dž', 'Ａ', 'ａ', '①', '1', '²', '2', '10', '9',
  '-', '_', '.', ',', "'", '"', '!', '?', '@', '#', '$', '%', '&', '*', '(', ')', '/', '\\', '-a', 'a-', '_a', 'a_', ' a', 'a b', 'ab ',
  '', ' ', '  ', '\t', 'a\t', 'a ', 'a  ', 'a\u00a0', '\u00a0', '\u200b', 'a\u200b', '\u0000', 'a\u0000', '\u0301', '\u0300a',
  '中', '丁', '一', '龥', '鿕', '鿿', '㐀', '䶵', '𠀀', '𪚖', '𫝀', '𬺰', '﨎', '豈', '가', '각', '힣', 'ᄀ', 'ᅡ', 'ᆨ', 'ㄱ',
  '😀', '😁', '👍', '👍🏽', '🇫🇷', '𐀀', '𝔸', '𝕒', '𖬀', '𗀀', '𛅰', '\u{10ffff}', '\u{e0001}', '\u{fffd}', '\uffff', 'Ω', 'ω', 'Ω', 'α', 'ά',
  'ё', 'е', 'Е', 'й', 'и\u0306', 'Й', 'И\u0306', 'л', 'ا', 'آ', 'ا\u0653', 'ب', 'א', 'ก', 'เก', 'เ', 'ແກ', 'ກ', 'ໂ', 'ྲཱ', 'ྲཱྀ', 'ྲ',
  'L·', 'l·', 'L', 'l', 'ŀ', 'Ŀ', 'l\u0387', 'ᬆ', 'ᬆ', 'ஔ', 'ொ', 'ொ', 'ௌ', 'ാ', 'ൊ', 'ৌ',
];

/** A random string of 0-6 code points from anywhere in Unicode (surrogates left out), some plain ASCII. */
function randomText(r: () => number): string {
  const n = Math.floor(r() * 7);
  let s = '';
  for (let i = 0; i < n; i++) {
    const kind = r();
    let cp = kind < 0.3 ? 0x20 + Math.floor(r() * 95) : kind < 0.6 ? Math.floor(r() * 0x3000) : kind < 0.8 ? Math.floor(r() * 0x10000) : Math.floor(r() * 0x110000);
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0x61;
    s += String.fromCodePoint(cp);
  }
  return s;
}

/** Geometries of every kind, in a few SRIDs (under 1 KB: MariaDB compares only max_sort_length bytes of a sort key). */
function randomGeometry(r: () => number): string {
  const pick = <T,>(a: readonly T[]) => a[Math.floor(r() * a.length)];
  const c = () => pick(['0', '1', '-1', '2', '0.5', '-0.5', '256', '-0', '1e-300', '1e300', '123.456', '-98765.4321']);
  const pt = () => `${c()} ${c()}`;
  const pts = (min: number) => Array.from({ length: min + Math.floor(r() * 3) }, pt).join(',');
  const ring = () => {
    const p = pt();
    return `(${p},${pts(2)},${p})`;
  };
  const kinds = [
    () => `POINT(${pt()})`, () => `LINESTRING(${pts(2)})`, () => `POLYGON(${ring()}${r() < 0.3 ? `,${ring()}` : ''})`,
    () => `MULTIPOINT(${pts(1)})`, () => `MULTILINESTRING((${pts(2)}),(${pts(2)}))`, () => `MULTIPOLYGON((${ring()}),(${ring()}))`,
    () => (r() < 0.3 ? 'GEOMETRYCOLLECTION EMPTY' : `GEOMETRYCOLLECTION(POINT(${pt()}),LINESTRING(${pts(2)}))`),
  ];
  return `ST_GeomFromText('${pick(kinds)()}', ${pick([0, 0, 4326, 3857, 1, 65536])})`;
}

const JSON_TEXTS = ['{"a":1}', '{"a": 1}', '{"b":[]}', '[1,2]', '[]', '{}', '"x"', '"X"', 'null', 'true', 'false', '1.5', '10', '2', '{"é":"ü"}', ' {"a":1}'];

const COLUMNS = ['uc', 'ucnp', 'u3', 'u520', 'u14', 'u14np', 'w2', 'w16', 'w32', 'w16x', 's3', 's40', 'g', 'j'];
const SET40 = Array.from({ length: 40 }, (_, i) => `m${i}`);

function hexText(s: string): string {
  return `CONVERT(X'${Buffer.from(s, 'utf8').toString('hex')}' USING utf8mb4)`;
}

function setValue(members: readonly string[], r: () => number): string {
  return `'${members.filter(() => r() < 0.25).join(',')}'`;
}

function rowValues(id: number, r: () => number): string {
  const pick = () => (r() < 0.5 ? STRESS[Math.floor(r() * STRESS.length)] + (r() < 0.2 ? STRESS[Math.floor(r() * STRESS.length)] : '') : randomText(r));
  const text = (bmp: boolean) => {
    if (r() < 0.05) return 'NULL';
    const s = pick();
    return hexText(bmp ? Array.from(s, (c) => (c.codePointAt(0)! > 0xffff ? '?' : c)).join('') : s);
  };
  const set = (members: readonly string[]) => (r() < 0.05 ? 'NULL' : setValue(members, r));
  const geometry = r() < 0.05 ? 'NULL' : randomGeometry(r);
  const json = r() < 0.05 ? 'NULL' : `'${JSON_TEXTS[Math.floor(r() * JSON_TEXTS.length)]}'`;
  const texts = [text(false), text(false), text(true), text(false), text(false), text(false), text(true), text(false), text(false), text(false)];
  return `(${id}, ${texts.join(', ')}, ${set(['x', 'y', 'z'])}, ${set(SET40)}, ${geometry}, ${json})`;
}

describe('sorting by a UCA-collated, SET, geometry or JSON column, as MariaDB orders it', () => {
  let server: MariadbServer;
  let t: SortedTable;
  const serverOrder = new Map<string, number[]>();

  beforeAll(async () => {
    server = await startMariadb({ pageSize: 4096 });
    await server.query(`CREATE TABLE t (
      id INT PRIMARY KEY,
      uc VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci,
      ucnp VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_nopad_ci,
      u3 VARCHAR(40) CHARACTER SET utf8mb3 COLLATE utf8mb3_unicode_ci,
      u520 VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci,
      u14 VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_ai_ci,
      u14np VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_nopad_ai_ci,
      w2 VARCHAR(40) CHARACTER SET ucs2 COLLATE ucs2_unicode_ci,
      w16 VARCHAR(40) CHARACTER SET utf16 COLLATE utf16_unicode_ci,
      w32 VARCHAR(40) CHARACTER SET utf32 COLLATE utf32_unicode_520_ci,
      w16x VARCHAR(40) CHARACTER SET utf16 COLLATE utf16_uca1400_ai_ci,
      s3 SET('x','y','z'),
      s40 SET(${SET40.map((m) => `'${m}'`).join(',')}),
      g GEOMETRY,
      j JSON
    ) ENGINE=InnoDB`);
    const r = rng(11);
    const rows = Array.from({ length: 2000 }, (_, i) => rowValues(i * 7 + 3, r));
    await server.query(`INSERT INTO t VALUES ${rows.join(',\n')}`);
    for (const col of COLUMNS) serverOrder.set(col, await serverIds(server, `SELECT id FROM t ORDER BY \`${col}\`, id`));
    t = await openSortedTable(server);
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('spans many leaf pages', () => {
    expect(t.view.map.rows).toBe(2000);
    expect(t.view.map.leaves.length).toBeGreaterThan(20);
  });

  it('has JSON as MariaDB stores it: LONGTEXT in utf8mb4_bin', () => {
    expect(t.table.columns.find((c) => c.name === 'j')).toMatchObject({ type: 'longtext', charset: 'utf8mb4', collation: 'utf8mb4_bin' });
  });

  it.each(COLUMNS)('ORDER BY %s, id', async (col) => {
    expect(await sortedIds(t, col)).toEqual(serverOrder.get(col));
  });
});

/** A server whose table t has `columns`, filled with `rows`, each column's ORDER BY (both ways) as the server gives it, and t's export opened to sort. */
interface ColumnsSorted {
  server: MariadbServer;
  t: SortedTable;
  serverOrder: Map<string, number[]>;
}

async function sortedColumns(columns: readonly [string, string][], rows: readonly string[]): Promise<ColumnsSorted> {
  const server = await startMariadb({ pageSize: 16384 });
  await server.query(`CREATE TABLE t (id INT PRIMARY KEY, ${columns.map(([c, type]) => `${c} ${type}`).join(', ')}) ENGINE=InnoDB`);
  await server.query(`INSERT INTO t VALUES ${rows.join(',\n')}`);
  const serverOrder = new Map<string, number[]>();
  for (const [col] of columns) {
    serverOrder.set(col, await serverIds(server, `SELECT id FROM t ORDER BY \`${col}\`, id`));
    serverOrder.set(`${col} desc`, await serverIds(server, `SELECT id FROM t ORDER BY \`${col}\` DESC, id DESC`));
  }
  return { server, t: await openSortedTable(server), serverOrder };
}

/** Each of `columns` sorted here as the server orders it, ascending and, read backwards, descending. */
function itSortsEachAsTheServer(columns: readonly [string, string][], sorted: () => ColumnsSorted): void {
  it.each(columns.map(([c]) => c))('ORDER BY %s, id, ascending and, read backwards, descending (DESC, id DESC)', async (col) => {
    const { t, serverOrder } = sorted();
    const ids = await sortedIds(t, col);
    expect(ids).toEqual(serverOrder.get(col));
    expect(ids.reverse()).toEqual(serverOrder.get(`${col} desc`));
  });
}

/** Texts that tie at the primary level and differ in their accents, their case or both. */
const LEVEL_TIES = [
  'cote', 'coté', 'côte', 'côté', 'COTE', 'Cote', 'cotE', 'CÔTÉ', 'Côte', 'resume', 'résumé', 'Resume', 'RÉSUMÉ', 'a', 'A', 'á', 'Á', 'à', 'ä',
  'Ä', 'å', 'Å', 'a\u0301', 'A\u0301', 'a\u0301\u0300', 'ǅ', 'Ǆ', 'ǆ', 'dž', 'DŽ', 'Dž', 'ß', 'ẞ', 'ss', 'SS', 'Ss', 'sS', 'æ', 'Æ', 'ae', 'AE',
  'ı', 'i', 'I', 'İ', 'ﬁ', 'fi', 'FI', 'ⓐ', 'Ⓐ', 'ａ', 'Ａ', '①', '1', '¹', '₁', 'ª', 'ᵃ', 'ä ', 'a ', 'A ', 'a\t', 'A\t', ' ', '', 'ア', 'ｱ', 'あ',
];

/** The uca1400 collations with accents or case, PAD SPACE and NO PAD, short (compared whole) and long (by their first primary weights). */
const LEVEL_COLUMNS: [string, string][] = [
  ['asci', 'VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_as_ci'],
  ['aics', 'VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_ai_cs'],
  ['ascs', 'VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_as_cs'],
  ['npascs', 'VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_nopad_as_cs'],
  ['npaics', 'VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_nopad_ai_cs'],
  ['w16ascs', 'VARCHAR(40) CHARACTER SET utf16 COLLATE utf16_uca1400_as_cs'],
  ['u3ascs', 'VARCHAR(40) CHARACTER SET utf8mb3 COLLATE utf8mb3_uca1400_as_cs'],
  ['tascs', 'TINYTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_as_cs'],
  ['longascs', 'VARCHAR(300) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_as_cs'],
];

describe('sorting by a uca1400 column with accents or case, as MariaDB orders it', () => {
  let sorted: ColumnsSorted;

  beforeAll(async () => {
    const r = rng(23);
    const pick = () => {
      const from = r() < 0.6 ? LEVEL_TIES : STRESS;
      const s = from[Math.floor(r() * from.length)];
      return r() < 0.3 ? s + LEVEL_TIES[Math.floor(r() * LEVEL_TIES.length)] : r() < 0.1 ? randomText(r) : s;
    };
    const rows = Array.from({ length: 2000 }, (_, i) => {
      const texts = LEVEL_COLUMNS.map(([c]) => {
        if (r() < 0.05) return 'NULL';
        const s = pick();
        return hexText(c === 'u3ascs' ? Array.from(s, (ch) => (ch.codePointAt(0)! > 0xffff ? '?' : ch)).join('') : s);
      });
      return `(${i * 5 + 1}, ${texts.join(', ')})`;
    });
    sorted = await sortedColumns(LEVEL_COLUMNS, rows);
  }, 240_000);
  afterAll(async () => {
    await sorted?.server.stop();
  });

  it('has values the server tells apart only by their accents or case', () => {
    const { serverOrder } = sorted;
    const ascs = serverOrder.get('ascs')!;
    const ai = serverOrder.get('longascs')!;
    expect(ascs).not.toEqual(serverOrder.get('asci'));
    expect(ascs).not.toEqual(serverOrder.get('aics'));
    expect(ai).not.toEqual(ascs);
  });

  itSortsEachAsTheServer(LEVEL_COLUMNS, () => sorted);
});

/**
 * The letters the tailorings move: Swedish/Danish å ä ö æ ø aa, German ß ä ö ü, Spanish ñ ch ll, Czech/Slovak ch ř č, Polish ą ł ś,
 * Turkish ı İ ş ğ, Hungarian cs dz dzs gy ly ny sz ty zs, Icelandic ð þ, Latvian ā ģ ķ ļ ņ, Romanian ă â î ș ț, Estonian õ š ž,
 * Esperanto ĉ ĝ ĥ ĵ ŝ ŭ, Latin (roman) i j u v.
 */
const TAILORED_LETTERS = [
  'a', 'A', 'å', 'Å', 'ä', 'Ä', 'æ', 'Æ', 'ö', 'Ö', 'ø', 'Ø', 'aa', 'Aa', 'AA', 'aA', 'ü', 'Ü', 'y', 'z', 'Z', 'þ', 'ð', 'd', 'ß', 'ss', 's', 'st',
  'ñ', 'Ñ', 'n', 'nz', 'o', 'c', 'C', 'ch', 'Ch', 'CH', 'cH', 'ci', 'cz', 'h', 'hz', 'i', 'l', 'll', 'Ll', 'LL', 'lz', 'm', 'ř', 'r', 'rz', 'č', 'š', 'ž',
  'ě', 'ů', 'ď', 'ť', 'ň', 'ą', 'ę', 'ł', 'ń', 'ś', 'ź', 'ż', 'ó', 'e', 'ı', 'I', 'İ', 'ş', 'ç', 'ğ', 'g', 'cs', 'Cs', 'dz', 'dzs', 'Dzs', 'gy', 'ly',
  'ny', 'sz', 'ty', 'zs', 'ő', 'ű', 'u', 'v', 'w', 'x', 'ŀ', 'ǆ', ' ', '', 'ā', 'ē', 'ģ', 'ī', 'ķ', 'ļ', 'ņ', 'ū', 'ă', 'â', 'î', 'ș', 'ț', 'ţ', 'õ',
  'ĉ', 'ĝ', 'ĥ', 'ĵ', 'ŝ', 'ŭ', 'j', 'J', 'k', 'q', 't', 'dž', 'lj', 'nj', 'đ', 'ć',
];

const TAILORED_COLUMNS: [string, string][] = [
  ...TAILORED_LANGUAGES.flatMap((l): [string, string][] => [
    [`${l}40`, `VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_${l}_ci`],
    [`${l}14`, `VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_${l}_ai_ci`],
  ]),
  ['sw16', 'VARCHAR(40) CHARACTER SET utf16 COLLATE utf16_swedish_ci'],
  ['es2np', 'VARCHAR(40) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_spanish2_nopad_ai_ci'],
];

describe('sorting by a column in a language\'s tailoring, as MariaDB orders it', () => {
  let sorted: ColumnsSorted;

  beforeAll(async () => {
    const r = rng(31);
    const letter = () => TAILORED_LETTERS[Math.floor(r() * TAILORED_LETTERS.length)];
    const rows = Array.from({ length: 1500 }, (_, i) => {
      const texts = TAILORED_COLUMNS.map(() => {
        if (r() < 0.05) return 'NULL';
        const n = 1 + Math.floor(r() * 3);
        let s = '';
        for (let k = 0; k < n; k++) s += r() < 0.1 ? STRESS[Math.floor(r() * STRESS.length)] : letter();
        return hexText(s);
      });
      return `(${i * 3 + 2}, ${texts.join(', ')})`;
    });
    sorted = await sortedColumns(TAILORED_COLUMNS, rows);
  }, 240_000);
  afterAll(async () => {
    await sorted?.server.stop();
  });

  it('has values each tailoring orders otherwise than the untailored collation', async () => {
    for (const [col] of TAILORED_COLUMNS.slice(0, 2 * TAILORED_LANGUAGES.length)) {
      const base = col.endsWith('14') ? 'utf8mb4_uca1400_ai_ci' : 'utf8mb4_unicode_ci';
      expect(await serverIds(sorted.server, `SELECT id FROM t ORDER BY \`${col}\` COLLATE ${base}, id`), col).not.toEqual(sorted.serverOrder.get(col));
    }
  });

  itSortsEachAsTheServer(TAILORED_COLUMNS, () => sorted);
});
