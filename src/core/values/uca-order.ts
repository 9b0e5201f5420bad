/**
 * The order of the UCA collations (weights: uca-weights.ts) as MariaDB 10.11's ORDER BY sorts
 * them, seen on the server (test/differential/sort-collations.test.ts, sort-length.test.ts). The
 * server sorts a column either by packed keys, the values compared whole, level by level (primary,
 * then the accents of uca1400 `_as_`, then the case of `_cs`), or by fixed keys of max_sort_length
 * (1024) bytes, strnxfrm's: each level's weights padded to 8 weights a character of the column, then
 * the next level, so that a column of 32 utf8mb4 characters (256 weights, 512 bytes a level) has
 * no room for its case, and one of more than 64 has none for anything but its first 512 primary
 * weights. It packs them (filesort's try_to_pack_sortkeys) when the column's values fit in 1024
 * bytes and the whole sort key, this column (its bytes, a NULL flag) and the primary key after it,
 * would be at least 133 bytes (128 + a 4-byte length + 1 a packed column).
 */
import type { Column } from '../schema.ts';
import { firstBytes, MAX_SORT_LENGTH, type ColumnOrder, type KeySink } from './sort-key.ts';
import { appendUcaWeights, loadUcaLevels, loadUcaTailorings, loadUcaWeights, ucaLevelTable, ucaTable, ucaTailoredTable, type UcaTable, type UcaVersion } from './uca-weights.ts';

/** The languages whose tailorings are ordered, of UCA 4.0.0 (`utf8mb4_swedish_ci`) and of uca1400 (`utf8mb4_uca1400_swedish_ai_ci`). */
export const TAILORED_LANGUAGES = [
  'swedish', 'german2', 'spanish', 'spanish2', 'danish', 'czech', 'slovak', 'polish', 'turkish', 'hungarian', 'icelandic', 'latvian',
  'romanian', 'slovenian', 'estonian', 'esperanto', 'roman',
];

/**
 * The UCA collations ordered here, by name: `_unicode_ci`, `_unicode_520_ci` and UCA 4.0.0's
 * tailorings (group 1), uca1400 (3), tailored (4) or accent- and case-insensitive or not (6, 7), their
 * NO PAD twins (2, 5), and MySQL's 0900_ai_ci.
 */
const UCA_COLLATION = new RegExp(`^(?:utf8mb[34]|ucs2|utf16|utf32)_(?:(unicode|unicode_520|${TAILORED_LANGUAGES.join('|')})(_nopad)?_ci|(uca1400)(?:_(${TAILORED_LANGUAGES.join('|')}))?(_nopad)?_(ai|as)_(ci|cs))$|^utf8mb4_0900_ai_ci$`);
const UCA_VERSION: Record<string, UcaVersion> = { unicode: 'unicode', unicode_520: 'unicode520' };

/** The most bytes a character takes in each Unicode charset (mbmaxlen). */
const CHAR_BYTES: Record<string, number> = { utf8mb3: 3, utf8mb4: 4, ucs2: 2, utf16: 4, utf32: 4 };
const TEXT_BYTES: Record<string, number> = { tinytext: 255, text: 65535, mediumtext: 16777215, longtext: 4294967295 };
/** The smallest sort key filesort packs: 128 bytes saved, the 4-byte length, 1 a packed column. */
const PACKED_MIN = 128 + 4 + 1;
/** strnxfrm's weights a character (strxfrm_multiply of the UCA collations). */
const WEIGHTS_A_CHAR = 8;

/** How long column `c`'s values can be, in bytes. */
function maxBytes(c: Column): number {
  return TEXT_BYTES[c.type] ?? c.length * (CHAR_BYTES[c.charset] ?? 1);
}

/** Loads the weights a UCA `collation` needs (nothing for another one). */
export async function loadUcaOrder(collation: string): Promise<void> {
  const m = UCA_COLLATION.exec(collation);
  if (!m) return;
  await loadUcaWeights();
  if (m[3] !== undefined && (m[6] === 'as' || m[7] === 'cs')) await loadUcaLevels();
  if ((m[1] !== undefined && !(m[1] in UCA_VERSION)) || m[4] !== undefined) await loadUcaTailorings();
}

/** Whether the server sorts column `c` by packed keys; null when that depends on a primary key of unknown size. */
function packed(c: Column, tieBytes: number | null | 'whole'): boolean | null {
  if (tieBytes === 'whole') return true;
  const bytes = maxBytes(c);
  if (bytes > MAX_SORT_LENGTH) return false;
  const own = bytes + (c.nullable ? 1 : 0);
  if (own >= PACKED_MIN) return true;
  return tieBytes === null ? null : own + tieBytes >= PACKED_MIN;
}

/**
 * A UCA collation's order, or null for another collation. The weights are 16 bits each. Packed (or
 * one level of a column longer than 1024 bytes: its first 512 weights): PAD SPACE levels as
 * general_ci's keys, each level's weights shifted so that the space's is 0x20 (weights below the
 * space's, such as the tab's, stay above 0), a 0 weight between levels; NO PAD ones the same but
 * for the primary level, unshifted and compared without padding (one level of them: as bytes).
 * Fixed keys of more than one level: the server's own (fixedKey). `tieBytes` 'whole': the values
 * compared whole, level by level, as an index orders its keys (as packed ones).
 */
export function ucaOrder(c: Column, collation: string, tieBytes: number | null | 'whole'): ColumnOrder | { why: string } | null {
  const m = UCA_COLLATION.exec(collation);
  if (!m) return null;
  // a language's tailoring, of the primary weights only
  const language = m[1] !== undefined && !(m[1] in UCA_VERSION) ? m[1] : m[4];
  if (m[4] !== undefined && (m[6] === 'as' || m[7] === 'cs')) return null;
  const version = m[1] ? (UCA_VERSION[m[1]] ?? 'unicode') : m[3] ? 'uca1400' : 'mysql0900';
  const padded = version !== 'mysql0900' && (m[2] ?? m[5]) === undefined;
  const levels = [language === undefined ? ucaTable(version) : ucaTailoredTable(version === 'uca1400' ? 'uca1400' : 'unicode', language)];
  if (m[6] === 'as') levels.push(ucaLevelTable('secondary'));
  if (m[7] === 'cs') levels.push(ucaLevelTable('tertiary'));
  // MySQL 8 compares a NO PAD collation's whole key, max_sort_length aside (8.0.20 on): 0900 is MySQL's only.
  const whole = version === 'mysql0900' || packed(c, tieBytes);
  if (whole === null && levels.length > 1) return { why: `\`${c.name}\` is ordered by ${collation}, whose order in a sort by it and the primary key depends on the size of that key, which is not known here` };
  if (whole !== true && levels.length > 1) {
    if (!padded) return { why: `\`${c.name}\` is ordered by ${collation} and sorted by the server's fixed keys, whose NO PAD padding is not modelled` };
    return { kind: 'bytes', key: fixedKey(levels, WEIGHTS_A_CHAR * (maxBytes(c) / (CHAR_BYTES[c.charset] ?? 1))) };
  }
  // NO PAD compares the primary level alone without padding (strnncollsp_nopad_multilevel): the others still pad
  const shifts = levels.map((t, k) => (padded || k > 0 ? t.space - 0x20 : 0));
  const key = (text: string, out: KeySink) => {
    for (let k = 0; k < levels.length; k++) {
      if (k > 0) {
        const p = out.reserve(2);
        out.bytes[p] = out.bytes[p + 1] = 0;
        out.length = p + 2;
      }
      appendUcaWeights(levels[k], text, shifts[k], out);
    }
  };
  const kind = levels.length > 1 ? (padded ? 'levels16' : 'nopadLevels16') : padded ? 'weights16' : 'bytes';
  return { kind, key: whole === true ? key : firstBytes(key) };
}

/**
 * The server's fixed sort key of a PAD SPACE collation (strnxfrm_multilevel): each level's weights,
 * at most `n`, padded to `n` with the level's space weight; MAX_SORT_LENGTH bytes in all.
 */
function fixedKey(levels: readonly UcaTable[], n: number): ColumnOrder['key'] {
  return (text, out) => {
    const start = out.length;
    for (const level of levels) {
      if (out.length - start >= MAX_SORT_LENGTH) break;
      const from = out.length;
      appendUcaWeights(level, text, 0, out);
      if (out.length - from > 2 * n) out.length = from + 2 * n;
      const pad = n - (out.length - from) / 2;
      let p = out.reserve(2 * pad);
      for (let i = 0; i < pad; i++) {
        out.bytes[p++] = level.space >> 8;
        out.bytes[p++] = level.space & 0xff;
      }
      out.length = p;
    }
    if (out.length - start > MAX_SORT_LENGTH) out.length = start + MAX_SORT_LENGTH;
  };
}

/**
 * Compares 'levels16' keys, PAD SPACE level by level: within a level, the side whose level has ended
 * weighs a space (0x20) until the other's ends too; with `nopadFirst`, the first level is NO PAD.
 */
export function compareLevels(nopadFirst: boolean, a: Uint8Array, ao: number, al: number, b: Uint8Array, bo: number, bl: number): number {
  let i = 0;
  let j = 0;
  let first = nopadFirst;
  while (i + 1 < al || j + 1 < bl) {
    const x = i + 1 < al ? (a[ao + i] << 8) | a[ao + i + 1] : 0;
    const y = j + 1 < bl ? (b[bo + j] << 8) | b[bo + j + 1] : 0;
    if (x === 0 && y === 0) {
      i += 2;
      j += 2;
      first = false;
      continue;
    }
    if (first && (x === 0 || y === 0)) return x === 0 ? -1 : 1;
    const d = (x === 0 ? 0x20 : x) - (y === 0 ? 0x20 : y);
    if (d !== 0) return d;
    if (x !== 0) i += 2;
    if (y !== 0) j += 2;
  }
  return 0;
}
