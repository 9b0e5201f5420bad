/**
 * SQL literal generators for the column types the types-* differential tests cover beyond
 * test/differential/random-data.ts: bits, years, times with sign and hours past 24, enum/set members,
 * raw bytes, text in a given character set, geometries, addresses, UUIDs and JSON documents.
 */
import { withEdges, type Gen } from '../differential/random-data.ts';

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: () => number, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const pad2 = (n: number) => String(n).padStart(2, '0');
const hexByte = (r: () => number) => int(r, 0, 255).toString(16).padStart(2, '0');

export function sqlString(s: string): string {
  return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'";
}

export function bits(n: number): Gen {
  const random: Gen = (r) => "b'" + Array.from({ length: n }, () => (r() < 0.5 ? '0' : '1')).join('') + "'";
  return withEdges(random, ["b'0'", "b'" + '1'.repeat(n) + "'", "b'1'", "b'1" + '0'.repeat(n - 1) + "'"]);
}

export function year(): Gen {
  return withEdges((r) => String(int(r, 1901, 2155)), ['0', '1901', '2155', '2000', '1999']);
}

/** TIME(fsp): the whole -838:59:59..838:59:59 range, fractions included, and the values around zero. */
export function time(fsp: number): Gen {
  const frac = (r: () => number) => (fsp === 0 ? '' : '.' + Array.from({ length: fsp }, () => int(r, 0, 9)).join(''));
  const random: Gen = (r) => {
    const h = r() < 0.5 ? int(r, 0, 23) : int(r, 0, 838);
    return `'${r() < 0.3 ? '-' : ''}${pad2(h)}:${pad2(int(r, 0, 59))}:${pad2(int(r, 0, 59))}${h === 838 ? '' : frac(r)}'`;
  };
  const f = fsp === 0 ? '' : '.' + '0'.repeat(fsp - 1) + '1';
  const nines = fsp === 0 ? '' : '.' + '9'.repeat(fsp);
  return withEdges(random, ["'00:00:00'", "'-00:00:01'", `'-00:00:00${f}'`, `'00:00:00${f}'`, "'838:59:59'", "'-838:59:59'", "'24:00:00'", `'-01:00:00${nines}'`, `'100:00:00${nines}'`]);
}

export function member(values: readonly string[], allowInvalid: boolean): Gen {
  const random: Gen = (r) => sqlString(pick(r, values));
  return withEdges(random, [sqlString(values[0]), sqlString(values[values.length - 1]), ...(allowInvalid ? ["''"] : [])]);
}

export function members(values: readonly string[]): Gen {
  const random: Gen = (r) => sqlString(values.filter(() => r() < 0.2).join(','));
  return withEdges(random, ["''", sqlString(values.join(',')), sqlString(values[values.length - 1])]);
}

/** Raw bytes as X'..' of 0..maxLen bytes (short ones mostly), NULL, empty and full-length ones. */
export function bytes(maxLen: number): Gen {
  const literal = (r: () => number, n: number) => "X'" + Array.from({ length: n }, () => hexByte(r)).join('') + "'";
  return (r) => {
    const x = r();
    if (x < 0.08) return 'NULL';
    if (x < 0.12) return "X''";
    if (x < 0.16) return literal(r, maxLen);
    if (x < 0.2) return pick(r, ["X'00'", "X'20'", "X'" + 'ff'.repeat(Math.min(maxLen, 3)) + "'"]);
    return literal(r, int(r, 0, Math.min(maxLen, 60)));
  };
}

/** Characters each character set can hold, beyond ASCII: what real text in it would contain. */
export const CHARSET_POOLS: Record<string, string> = {
  latin1: 'éèàçÉÀüöß€£¥©®±µ¿¡ñÑ', ascii: '', binary: '',
  latin2: 'ąćęłńóśźżĄĆĘŁŃÓŚŹŻčďěňřšťůžČŘŠŽ', latin5: 'çğıİöşüÇĞÖŞÜ', latin7: 'ąčęėįšųūžĄČĘĖĮŠŲŪŽ',
  cp1250: 'ąćęłńóśźżčďěňřšťůž€„”', cp1251: 'абвгдежзийклмнопрстуфхцчшщъыьэюяЁё€', cp1256: 'ابتثجحخدذرزسشصضطظعغفقكلمنهوي€',
  cp1257: 'ąčęėįšųūž€', cp850: 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒ', cp852: 'ÇüéâäůćçłëŐőîŹÄĆÉĹĺôöĽľŚś',
  cp866: 'АБВГДЕЖЗабвгдеж░▒▓│┤', dec8: '¡¢£¤¥§¨©ª«°±²³µ¶·¹º»¼½¿ÀÁÂÃÄÅÆÇ', hp8: 'ÀÂÈÊËÎÏ´ˋˆ¨˜ÙÛ₤¯Ýý°Ççñ¡¿',
  swe7: 'ÄÖÅÜäöåü', keybcs2: 'ČüéďäĎŤčěĚĹÍľĺÄÁÉžŽôöÓůÚýÖÜŠĽÝŘť', macce: 'ÄĀāÉĄÖÜáąČäčĆćéŹźĎíďĒēĖóėôöõú',
  macroman: 'ÄÅÇÉÑÖÜáàâäãåçéèêëíìîïñóòôöõúùûü†°¢£§•¶ß®©™´¨≠ÆØ∞±≤≥¥µ∂∑∏π∫ªºΩæø¿¡¬√ƒ≈∆«»…',
  greek: 'αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔΩάέή', hebrew: 'אבגדהוזחטיכלמנסעפצקרשת', koi8r: 'абвгдежзийАБВГДЁё═║',
  koi8u: 'абвгґєіїҐЄІЇ', tis620: 'กขฃคฅฆงจฉชซฌญฎฏ', armscii8: 'ԱԲԳԴԵԶԷԸաբգդեզէը', geostd8: 'აბგდევზთიკლმნოპჟრ',
  big5: '中文字繁體臺灣資料庫測試', gbk: '中文字简体数据库测试繁體', gb2312: '中文字简体数据库测试', gb18030: '中文字简体数据库测试繁體😀',
  sjis: '日本語のテキストカタカナ漢字ｱｲｳ', cp932: '日本語のテキストカタカナ漢字ｱｲｳ①②', ujis: '日本語のテキストカタカナ漢字ｱｲｳ',
  eucjpms: '日本語のテキストカタカナ漢字ｱｲｳ①②', euckr: '한국어데이터베이스테스트漢字',
  utf8mb3: 'éß€ΩЖשم中文字日本ㅎ', utf8mb4: 'éß€ΩЖשم中文字日本ㅎ😀🎉𝄞', ucs2: 'éß€ΩЖשم中文字日本ㅎ',
  utf16: 'éß€ΩЖשم中文字日本ㅎ😀🎉𝄞', utf16le: 'éß€ΩЖשم中文字日本ㅎ😀🎉𝄞', utf32: 'éß€ΩЖשم中文字日本ㅎ😀🎉𝄞',
};

const ASCII = 'abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 \'"\\%_,;';

/** Text of up to `maxChars` characters from the charset's pool, with the empty and space-padded edges. */
export function charsetText(charset: string, maxChars: number): Gen {
  const pool = [...ASCII, ...(CHARSET_POOLS[charset] ?? '')];
  const build = (r: () => number, n: number) => Array.from({ length: n }, () => pick(r, pool)).join('');
  const random: Gen = (r) => sqlString(build(r, int(r, 0, maxChars)));
  const full: Gen = (r) => sqlString(build(r, maxChars));
  return (r) => {
    const x = r();
    if (x < 0.04) return "''";
    if (x < 0.08) return sqlString(' a  '.slice(0, maxChars));
    if (x < 0.12) return full(r);
    return withEdges(random, [])(r);
  };
}

export function inet4(): Gen {
  const random: Gen = (r) => `'${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 0, 255)}'`;
  return withEdges(random, ["'0.0.0.0'", "'255.255.255.255'", "'127.0.0.1'", "'10.0.0.1'"]);
}

export function inet6(): Gen {
  const group = (r: () => number) => (r() < 0.3 ? '0' : int(r, 0, 0xffff).toString(16));
  const random: Gen = (r) => {
    const groups = Array.from({ length: 8 }, () => group(r));
    if (r() < 0.3) return `'::ffff:${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 0, 255)}'`;
    return `'${groups.join(':')}'`;
  };
  return withEdges(random, ["'::'", "'::1'", "'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'", "'fe80::1'", "'2001:db8::'", "'::1.2.3.4'", "'1::'", "'1:0:0:2:0:0:0:3'"]);
}

/** UUIDs of every version and variant (MariaDB reorders only some of them in storage). */
export function uuid(): Gen {
  const hex = (r: () => number, n: number) => Array.from({ length: n }, () => int(r, 0, 15).toString(16)).join('');
  const random: Gen = (r) => {
    const version = pick(r, ['1', '2', '3', '4', '5', '6', '7', '0', 'f', hex(r, 1)]);
    const variant = pick(r, ['8', '9', 'a', 'b', '0', '7', 'c', 'f', hex(r, 1)]);
    return `'${hex(r, 8)}-${hex(r, 4)}-${version}${hex(r, 3)}-${variant}${hex(r, 3)}-${hex(r, 12)}'`;
  };
  return withEdges(random, ["'00000000-0000-0000-0000-000000000000'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'", "'123e4567-e89b-12d3-a456-426614174000'", 'UUID()']);
}

/** Geometry of the given type as ST_GeomFromText(WKT, srid). */
export function geometry(kind: string): Gen {
  const coord = (r: () => number) => (r() < 0.5 ? String(int(r, -1000, 1000)) : ((r() * 2 - 1) * 1e6).toFixed(int(r, 0, 8)));
  const pt = (r: () => number) => `${coord(r)} ${coord(r)}`;
  const line = (r: () => number) => Array.from({ length: int(r, 2, 6) }, () => pt(r)).join(',');
  const ring = (r: () => number) => {
    const x = int(r, -100, 100);
    const y = int(r, -100, 100);
    const d = int(r, 1, 50);
    return `(${x} ${y},${x + d} ${y},${x + d} ${y + d},${x} ${y + d},${x} ${y})`;
  };
  const wkt: Record<string, (r: () => number) => string> = {
    point: (r) => `POINT(${pt(r)})`,
    linestring: (r) => `LINESTRING(${line(r)})`,
    polygon: (r) => `POLYGON(${ring(r)})`,
    multipoint: (r) => `MULTIPOINT(${Array.from({ length: int(r, 1, 4) }, () => pt(r)).join(',')})`,
    multilinestring: (r) => `MULTILINESTRING((${line(r)}),(${line(r)}))`,
    multipolygon: (r) => `MULTIPOLYGON((${ring(r)}),(${ring(r)}))`,
    geometrycollection: (r) => `GEOMETRYCOLLECTION(${wkt.point(r)},${wkt.linestring(r)})`,
  };
  const kinds = Object.keys(wkt);
  return withEdges((r) => {
    const k = kind === 'geometry' ? pick(r, kinds) : kind;
    return `ST_GeomFromText('${wkt[k](r)}', ${pick(r, [0, 0, 4326, 3857])})`;
  }, []);
}

/** JSON documents as text (MariaDB keeps them as written). */
export function json(): Gen {
  const value = (r: () => number, depth: number): string => {
    const x = r();
    if (depth > 2 || x < 0.4) return pick(r, ['1', '-2.5', '1e300', 'true', 'false', 'null', '"a\\"b"', '"é😀"', '""', String(int(r, -1e9, 1e9))]);
    if (x < 0.7) return `[${Array.from({ length: int(r, 0, 4) }, () => value(r, depth + 1)).join(', ')}]`;
    return `{${Array.from({ length: int(r, 0, 4) }, (_, i) => `"k${i}": ${value(r, depth + 1)}`).join(',')}}`;
  };
  return withEdges((r) => sqlString(value(r, 0)), ["'{}'", "'[]'", "'\"\"'", "'0'"]);
}

/** Dates with zero parts, which only non-strict sql_mode lets in. */
export function zeroDate(): Gen {
  return withEdges((r) => `'${int(r, 1000, 9999)}-${pad2(int(r, 1, 12))}-${pad2(int(r, 1, 28))}'`, ["'0000-00-00'", "'2024-00-00'", "'2024-05-00'", "'0000-01-01'", "'0001-01-01'"]);
}

export function zeroDatetime(fsp: number): Gen {
  const f = fsp === 0 ? '' : '.' + '5'.repeat(fsp);
  return withEdges((r) => `'${int(r, 1000, 9999)}-${pad2(int(r, 1, 12))}-${pad2(int(r, 1, 28))} ${pad2(int(r, 0, 23))}:${pad2(int(r, 0, 59))}:${pad2(int(r, 0, 59))}${f}'`, [`'0000-00-00 00:00:00'`, `'2024-00-00 10:00:00${f}'`, `'0000-00-00 00:00:00${f}'`, `'0001-01-01 00:00:00'`, `'9999-12-31 23:59:59${f}'`]);
}
