/**
 * Collation ids as the servers number them (INFORMATION_SCHEMA.COLLATIONS.ID). A MySQL 8 data
 * dictionary (SDI) and a .frm file name a column's collation by id only; its character set, which
 * decides how the bytes are decoded, follows from it.
 *
 * Ids 1-255 are shared by MySQL and MariaDB (five Croatian collations are spelt differently); above
 * that MySQL 8.0 numbers its utf8mb4_*_0900_* collations 255-323, and MariaDB has its own ranges:
 * 576+ (extra UCA languages), 1024+ (the NO PAD twin of collation id-1024) and 2048+ (uca1400, built
 * as charset × tailoring × accent/case/pad flags). The lists were checked against MariaDB 10.11's
 * INFORMATION_SCHEMA (see test/collations.test.ts) and MySQL 8.0's.
 */

export type ServerFlavor = 'mysql' | 'mariadb';

export interface Collation {
  id: number;
  name: string;
  /** Character set, spelt as normalised in schema.ts ('utf8mb3', never 'utf8'). */
  charset: string;
}

/** The 24 tailorings of the Unicode collations, in id order (utf16 101-124, ucs2 128-151, utf32 160-183, utf8mb3 192-215, utf8mb4 224-247). */
const UCA_LANGUAGES = [
  'unicode', 'icelandic', 'latvian', 'romanian', 'slovenian', 'polish', 'estonian', 'spanish', 'swedish',
  'turkish', 'czech', 'danish', 'lithuanian', 'slovak', 'spanish2', 'roman', 'persian', 'esperanto',
  'hungarian', 'sinhala', 'german2', 'croatian', 'unicode_520', 'vietnamese',
];

/** Ids 1-99 that are not part of a regular block, as id → name (the charset is the name's first part). */
const SINGLE: Record<number, string> = {
  1: 'big5_chinese_ci', 2: 'latin2_czech_cs', 3: 'dec8_swedish_ci', 4: 'cp850_general_ci', 5: 'latin1_german1_ci',
  6: 'hp8_english_ci', 7: 'koi8r_general_ci', 8: 'latin1_swedish_ci', 9: 'latin2_general_ci', 10: 'swe7_swedish_ci',
  11: 'ascii_general_ci', 12: 'ujis_japanese_ci', 13: 'sjis_japanese_ci', 14: 'cp1251_bulgarian_ci', 15: 'latin1_danish_ci',
  16: 'hebrew_general_ci', 18: 'tis620_thai_ci', 19: 'euckr_korean_ci', 20: 'latin7_estonian_cs', 21: 'latin2_hungarian_ci',
  22: 'koi8u_general_ci', 23: 'cp1251_ukrainian_ci', 24: 'gb2312_chinese_ci', 25: 'greek_general_ci', 26: 'cp1250_general_ci',
  27: 'latin2_croatian_ci', 28: 'gbk_chinese_ci', 29: 'cp1257_lithuanian_ci', 30: 'latin5_turkish_ci', 31: 'latin1_german2_ci',
  32: 'armscii8_general_ci', 33: 'utf8mb3_general_ci', 34: 'cp1250_czech_cs', 35: 'ucs2_general_ci', 36: 'cp866_general_ci',
  37: 'keybcs2_general_ci', 38: 'macce_general_ci', 39: 'macroman_general_ci', 40: 'cp852_general_ci', 41: 'latin7_general_ci',
  42: 'latin7_general_cs', 43: 'macce_bin', 44: 'cp1250_croatian_ci', 45: 'utf8mb4_general_ci', 46: 'utf8mb4_bin',
  47: 'latin1_bin', 48: 'latin1_general_ci', 49: 'latin1_general_cs', 50: 'cp1251_bin', 51: 'cp1251_general_ci',
  52: 'cp1251_general_cs', 53: 'macroman_bin', 54: 'utf16_general_ci', 55: 'utf16_bin', 56: 'utf16le_general_ci',
  57: 'cp1256_general_ci', 58: 'cp1257_bin', 59: 'cp1257_general_ci', 60: 'utf32_general_ci', 61: 'utf32_bin',
  62: 'utf16le_bin', 63: 'binary', 64: 'armscii8_bin', 65: 'ascii_bin', 66: 'cp1250_bin', 67: 'cp1256_bin',
  68: 'cp866_bin', 69: 'dec8_bin', 70: 'greek_bin', 71: 'hebrew_bin', 72: 'hp8_bin', 73: 'keybcs2_bin',
  74: 'koi8r_bin', 75: 'koi8u_bin', 77: 'latin2_bin', 78: 'latin5_bin', 79: 'latin7_bin', 80: 'cp850_bin',
  81: 'cp852_bin', 82: 'swe7_bin', 83: 'utf8mb3_bin', 84: 'big5_bin', 85: 'euckr_bin', 86: 'gb2312_bin',
  87: 'gbk_bin', 88: 'sjis_bin', 89: 'tis620_bin', 90: 'ucs2_bin', 91: 'ujis_bin', 92: 'geostd8_general_ci',
  93: 'geostd8_bin', 94: 'latin1_spanish_ci', 95: 'cp932_japanese_ci', 96: 'cp932_bin', 97: 'eucjpms_japanese_ci',
  98: 'eucjpms_bin', 99: 'cp1250_polish_ci', 159: 'ucs2_general_mysql500_ci', 223: 'utf8mb3_general_mysql500_ci',
};

/** MySQL-only ids below 256. */
const MYSQL_SINGLE: Record<number, string> = {
  76: 'utf8mb3_tolower_ci', 248: 'gb18030_chinese_ci', 249: 'gb18030_bin', 250: 'gb18030_unicode_520_ci',
};

/** The five blocks of Unicode collations below 256: first id and charset. */
const UCA_BLOCKS: [number, string][] = [[101, 'utf16'], [128, 'ucs2'], [160, 'utf32'], [192, 'utf8mb3'], [224, 'utf8mb4']];

/**
 * MySQL 8.0's utf8mb4 UCA 9.0.0 collations: languages of ids 255-277 (ai_ci) and 278-300 (as_cs);
 * '' is a gap in the numbering.
 */
const MYSQL_0900_LANGUAGES = [
  '', 'de_pb', 'is', 'lv', 'ro', 'sl', 'pl', 'et', 'es', 'sv', 'tr', 'cs', 'da', 'lt', 'sk', 'es_trad', 'la',
  '-', 'eo', 'hu', 'hr', '-', 'vi',
];
/** MySQL 8.0 ids 303-323. */
const MYSQL_0900_LATER: Record<number, string> = {
  303: 'ja_0900_as_cs', 304: 'ja_0900_as_cs_ks', 305: '0900_as_ci', 306: 'ru_0900_ai_ci', 307: 'ru_0900_as_cs',
  308: 'zh_0900_as_cs', 309: '0900_bin', 310: 'nb_0900_ai_ci', 311: 'nb_0900_as_cs', 312: 'nn_0900_ai_ci',
  313: 'nn_0900_as_cs', 314: 'sr_latn_0900_ai_ci', 315: 'sr_latn_0900_as_cs', 316: 'bs_0900_ai_ci',
  317: 'bs_0900_as_cs', 318: 'bg_0900_ai_ci', 319: 'bg_0900_as_cs', 320: 'gl_0900_ai_ci', 321: 'gl_0900_as_cs',
  322: 'mn_cyrl_0900_ai_ci', 323: 'mn_cyrl_0900_as_cs',
};

/** MariaDB: charsets of the 576+ and 2048+ blocks, one block of 32 (576+) or 256 (2048+) ids each. */
const MARIADB_UNICODE_CHARSETS = ['utf8mb3', 'utf8mb4', 'ucs2', 'utf16', 'utf32'];
/** MariaDB 576-578 (utf8mb3), 608-610 (utf8mb4), 640-642 (ucs2), 672-674 (utf16), 736-738 (utf32). */
const MARIADB_EXTRA_BLOCKS: [number, string][] = [[576, 'utf8mb3'], [608, 'utf8mb4'], [640, 'ucs2'], [672, 'utf16'], [736, 'utf32']];
const MARIADB_EXTRA_NAMES = ['croatian_ci', 'myanmar_ci', 'thai_520_w2'];
/** uca1400 tailorings by number ('' = none, '-' = unused number). */
const UCA1400_TAILORINGS = [
  '', 'icelandic', 'latvian', 'romanian', 'slovenian', 'polish', 'estonian', 'spanish', 'swedish', 'turkish',
  'czech', 'danish', 'lithuanian', 'slovak', 'spanish2', 'roman', 'persian', 'esperanto', 'hungarian', 'sinhala',
  'german2', '-', '-', 'vietnamese', 'croatian',
];

function charsetOfName(name: string): string {
  if (name === 'binary') return 'binary';
  return name.startsWith('utf16le_') ? 'utf16le' : name.slice(0, name.indexOf('_'));
}

function baseName(id: number, flavor: ServerFlavor): string | null {
  if (flavor === 'mysql' && MYSQL_SINGLE[id] !== undefined) return MYSQL_SINGLE[id];
  if (SINGLE[id] !== undefined) return SINGLE[id];
  for (const [first, charset] of UCA_BLOCKS) {
    const language = UCA_LANGUAGES[id - first];
    if (id < first || language === undefined) continue;
    // MariaDB kept MySQL 5.6.1's Croatian rules under a name that says so
    const spelt = language === 'croatian' && flavor === 'mariadb' ? 'croatian_mysql561' : language;
    return `${charset}_${spelt}_ci`;
  }
  return null;
}

function mysqlName(id: number): string | null {
  const base = baseName(id, 'mysql');
  if (base !== null) return base;
  if (id >= 255 && id <= 300) {
    const i = (id - 255) % 23;
    const language = MYSQL_0900_LANGUAGES[i];
    if (language === '-') return null;
    return `utf8mb4_${language ? `${language}_` : ''}0900_${id < 278 ? 'ai_ci' : 'as_cs'}`;
  }
  const later = MYSQL_0900_LATER[id];
  return later === undefined ? null : `utf8mb4_${later}`;
}

function mariadbName(id: number): string | null {
  if (id < 256) return baseName(id, 'mariadb');
  if (id < 1024) {
    for (const [first, charset] of MARIADB_EXTRA_BLOCKS) {
      const suffix = MARIADB_EXTRA_NAMES[id - first];
      if (id >= first && suffix !== undefined) return `${charset}_${suffix}`;
    }
    return null;
  }
  if (id < 2048) {
    // the NO PAD variant of collation id-1024
    const base = baseName(id - 1024, 'mariadb');
    if (base === null || base === 'binary') return null;
    return base.endsWith('_bin') ? `${base.slice(0, -4)}_nopad_bin` : base.endsWith('_ci') ? `${base.slice(0, -3)}_nopad_ci` : null;
  }
  const charset = MARIADB_UNICODE_CHARSETS[(id - 2048) >> 8];
  const tailoring = UCA1400_TAILORINGS[((id - 2048) & 255) >> 3];
  if (charset === undefined || tailoring === undefined || tailoring === '-') return null;
  const flags = id & 7;
  return `${charset}_uca1400${tailoring ? `_${tailoring}` : ''}${flags & 4 ? '_nopad' : ''}_${flags & 2 ? 'as' : 'ai'}_${flags & 1 ? 'cs' : 'ci'}`;
}

/** The collation with this id on this kind of server, or null when the id is unknown. */
export function collationById(id: number, flavor: ServerFlavor): Collation | null {
  const name = flavor === 'mysql' ? mysqlName(id) : mariadbName(id);
  return name === null ? null : { id, name, charset: charsetOfName(name) };
}

/** Each character set's default collation (SHOW CHARACTER SET), where it is not `<charset>_general_ci`. */
const DEFAULTS: Record<string, string> = {
  big5: 'big5_chinese_ci', dec8: 'dec8_swedish_ci', hp8: 'hp8_english_ci', latin1: 'latin1_swedish_ci',
  swe7: 'swe7_swedish_ci', ujis: 'ujis_japanese_ci', sjis: 'sjis_japanese_ci', tis620: 'tis620_thai_ci',
  euckr: 'euckr_korean_ci', gb2312: 'gb2312_chinese_ci', gbk: 'gbk_chinese_ci', latin5: 'latin5_turkish_ci',
  binary: 'binary', cp932: 'cp932_japanese_ci', eucjpms: 'eucjpms_japanese_ci', gb18030: 'gb18030_chinese_ci',
  cp1257: 'cp1257_general_ci', latin7: 'latin7_general_ci',
};

/** The collation a character set gets when none is named (MySQL 8.0 made utf8mb4_0900_ai_ci utf8mb4's). */
export function defaultCollation(charset: string, flavor: ServerFlavor, mysqlVersion = 80000): string {
  if (charset === 'utf8mb4' && flavor === 'mysql' && mysqlVersion >= 80000) return 'utf8mb4_0900_ai_ci';
  return DEFAULTS[charset] ?? `${charset}_general_ci`;
}
