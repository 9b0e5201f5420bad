/**
 * Character set names as MySQL/MariaDB know them, and the little the DDL parser needs to know about
 * them: how a collation name implies its character set, and how many bytes a character can take
 * (which decides the real type behind TEXT(M)).
 */

/** Maximum bytes per character of every character set the servers ship. */
const MAX_BYTES_PER_CHAR = new Map<string, number>(Object.entries({
  armscii8: 1, ascii: 1, big5: 2, binary: 1, cp1250: 1, cp1251: 1, cp1256: 1, cp1257: 1, cp850: 1,
  cp852: 1, cp866: 1, cp932: 2, dec8: 1, eucjpms: 3, euckr: 2, gb18030: 4, gb2312: 2, gbk: 2,
  geostd8: 1, greek: 1, hebrew: 1, hp8: 1, keybcs2: 1, koi8r: 1, koi8u: 1, latin1: 1, latin2: 1,
  latin5: 1, latin7: 1, macce: 1, macroman: 1, sjis: 2, swe7: 1, tis620: 1, ucs2: 2, ujis: 3,
  utf16: 4, utf16le: 4, utf32: 4, utf8mb3: 3, utf8mb4: 4,
}));

/** Lower-cases a character set name and resolves the alias `utf8` (which means utf8mb3 on every version we read). */
export function normaliseCharset(name: string): string {
  const lower = name.toLowerCase();
  return lower === 'utf8' ? 'utf8mb3' : lower;
}

/** Lower-cases a collation name and spells `utf8_*` as `utf8mb3_*`, like MariaDB 10.6+ and MySQL 8.0.30+ do. */
export function normaliseCollation(name: string): string {
  const lower = name.toLowerCase();
  return lower.startsWith('utf8_') ? `utf8mb3${lower.slice(4)}` : lower;
}

/**
 * The character set a collation belongs to, or '' when the name does not start with a known one
 * (e.g. MariaDB's charset-less `uca1400_ai_ci`, which takes the charset from its context).
 */
export function charsetOfCollation(collation: string): string {
  const name = collation.toLowerCase();
  if (name === 'binary') return 'binary';
  const charset = normaliseCharset(name.slice(0, name.indexOf('_')));
  return MAX_BYTES_PER_CHAR.has(charset) ? charset : '';
}

/** Maximum bytes per character; 1 for names we do not know (only TEXT(M) sizing depends on it). */
export function maxBytesPerChar(charset: string): number {
  return MAX_BYTES_PER_CHAR.get(charset) ?? 1;
}
