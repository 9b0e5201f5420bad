/**
 * Value checks (value-check.ts) of character columns: the bytes are well formed in the column's
 * charset, as the server takes them (ctype-*.c in MySQL/MariaDB strings/; what MariaDB 10.11 stores
 * was tried byte by byte), and their length fits the column.
 *
 * Well formed means: UTF-8 sequences of at most 3 (utf8mb3) or 4 (utf8mb4) bytes, neither overlong
 * nor above U+10FFFF (encoded surrogates pass: the server stores them); utf16 with its surrogates in
 * pairs; utf32 code points up to U+10FFFF; ucs2 any pair of bytes; the CJK charsets' lead bytes each
 * with its trail bytes in range. Single-byte charsets take every byte (ascii too: the server stores
 * bytes above 0x7F in an ascii column as they are).
 */
import { asciiCompatible as charsetAsciiCompatible, charsetInfo } from './charset.ts';
import { SINGLE_BYTE_CHARSETS } from './charset-tables.ts';
import type { ValueCheck } from './inline-check.ts';

const invalidAt = (charset: string, at: number): string => `invalid ${charset} at byte ${at}`;

/**
 * Bytes of the UTF-8 sequence starting at b[i] (≥ 0x80) as my_mb_wc_utf8mb3/4 accept it, or 0:
 * no C0/C1 lead, no overlong 3- or 4-byte form, nothing above U+10FFFF.
 */
function utf8Sequence(b: Uint8Array, i: number, end: number, maxBytes: number): number {
  const c = b[i];
  if (c < 0xc2) return 0;
  if (c < 0xe0) return i + 1 < end && (b[i + 1] & 0xc0) === 0x80 ? 2 : 0;
  const c1 = b[i + 1];
  if (c < 0xf0) {
    return i + 2 < end && (c1 & 0xc0) === 0x80 && (b[i + 2] & 0xc0) === 0x80 && (c >= 0xe1 || c1 >= 0xa0) ? 3 : 0;
  }
  if (maxBytes < 4 || c > 0xf4 || i + 3 >= end) return 0;
  const continued = (c1 & 0xc0) === 0x80 && (b[i + 2] & 0xc0) === 0x80 && (b[i + 3] & 0xc0) === 0x80;
  return continued && (c >= 0xf1 || c1 >= 0x90) && (c < 0xf4 || c1 < 0x90) ? 4 : 0;
}

/** UTF-8 text: 7-bit runs are skipped 8 bytes at a time; sequences are read from the first byte ≥ 0x80. */
function utf8Check(charset: string, maxBytes: number): ValueCheck {
  return (b, o, len) => {
    const end = o + len;
    let i = o;
    while (i + 8 <= end && ((b[i] | b[i + 1] | b[i + 2] | b[i + 3] | b[i + 4] | b[i + 5] | b[i + 6] | b[i + 7]) & 0x80) === 0) i += 8;
    while (i < end) {
      if (b[i] < 0x80) {
        i++;
        continue;
      }
      const n = utf8Sequence(b, i, end, maxBytes);
      if (n === 0) return invalidAt(charset, i - o);
      i += n;
    }
    return null;
  };
}

/** UTF-16 (big- or little-endian): every high surrogate followed by a low one, no low one alone. */
function utf16Check(charset: string, little: boolean): ValueCheck {
  const hi = little ? 1 : 0;
  return (b, o, len) => {
    if (len & 1) return `${len} bytes, not whole ${charset} code units`;
    for (let i = o; i < o + len; i += 2) {
      const top = b[i + hi] & 0xfc;
      if (top === 0xdc) return invalidAt(charset, i - o);
      if (top !== 0xd8) continue;
      if (i + 2 >= o + len || (b[i + 2 + hi] & 0xfc) !== 0xdc) return invalidAt(charset, i - o);
      i += 2;
    }
    return null;
  };
}

const checkUtf32: ValueCheck = (b, o, len) => {
  if (len & 3) return `${len} bytes, not whole utf32 code points`;
  for (let i = o; i < o + len; i += 4) if (b[i] !== 0 || b[i + 1] > 0x10) return invalidAt('utf32', i - o);
  return null;
};

const checkUcs2: ValueCheck = (_b, _o, len) => (len & 1 ? `${len} bytes, not whole ucs2 characters` : null);

/**
 * Bytes of the CJK character at b[i] (≥ 0x80) when its lead and trail bytes are in range, else 0
 * (ismbchar_* and the single-byte ranges of ctype-big5/gbk/gb2312/sjis/cp932/ujis/eucjpms/euckr/
 * gb18030).
 */
type CjkLength = (b: Uint8Array, i: number, end: number) => number;

const inRange = (c: number, lo: number, hi: number): boolean => c >= lo && c <= hi;
const big5Trail = (c: number): boolean => inRange(c, 0x40, 0x7e) || inRange(c, 0xa1, 0xfe);
const gbkTrail = (c: number): boolean => inRange(c, 0x40, 0x7e) || inRange(c, 0x80, 0xfe);
const eucTrail = (c: number): boolean => inRange(c, 0xa1, 0xfe);
const euckrTrail = (c: number): boolean => inRange(c, 0x41, 0x5a) || inRange(c, 0x61, 0x7a) || inRange(c, 0x81, 0xfe);
const sjisTrail = (c: number): boolean => inRange(c, 0x40, 0x7e) || inRange(c, 0x80, 0xfc);
const digit = (c: number): boolean => inRange(c, 0x30, 0x39);

/** A two-byte character: lead in [lo, hi] and `trail` accepting the next byte. */
const pair = (b: Uint8Array, i: number, end: number, lo: number, hi: number, trail: (c: number) => boolean): number =>
  inRange(b[i], lo, hi) && i + 1 < end && trail(b[i + 1]) ? 2 : 0;

const big5: CjkLength = (b, i, end) => pair(b, i, end, 0xa1, 0xf9, big5Trail);
const gbk: CjkLength = (b, i, end) => pair(b, i, end, 0x81, 0xfe, gbkTrail);
const gb2312: CjkLength = (b, i, end) => pair(b, i, end, 0xa1, 0xf7, eucTrail);
const euckr: CjkLength = (b, i, end) => pair(b, i, end, 0x81, 0xfe, euckrTrail);
/** Shift JIS: half-width katakana alone, or a lead with its trail. */
const sjis: CjkLength = (b, i, end) => (inRange(b[i], 0xa1, 0xdf) ? 1 : inRange(b[i], 0x81, 0x9f) ? pair(b, i, end, 0x81, 0x9f, sjisTrail) : pair(b, i, end, 0xe0, 0xfc, sjisTrail));
/** EUC-JP: 0x8E + half-width katakana, 0x8F + two JIS X 0212 bytes, or two JIS X 0208 bytes. */
const eucJp: CjkLength = (b, i, end) => {
  const c = b[i];
  if (c === 0x8e) return i + 1 < end && inRange(b[i + 1], 0xa1, 0xdf) ? 2 : 0;
  if (c === 0x8f) return i + 2 < end && eucTrail(b[i + 1]) && eucTrail(b[i + 2]) ? 3 : 0;
  return pair(b, i, end, 0xa1, 0xfe, eucTrail);
};
/** GB18030: a GBK-like pair, or four bytes lead, digit, lead, digit. */
const gb18030: CjkLength = (b, i, end) => {
  if (!inRange(b[i], 0x81, 0xfe) || i + 1 >= end) return 0;
  if (!digit(b[i + 1])) return gbkTrail(b[i + 1]) ? 2 : 0;
  return i + 3 < end && inRange(b[i + 2], 0x81, 0xfe) && digit(b[i + 3]) ? 4 : 0;
};

const CJK = new Map<string, CjkLength>([
  ['big5', big5], ['gbk', gbk], ['gb2312', gb2312], ['euckr', euckr], ['sjis', sjis], ['cp932', sjis],
  ['ujis', eucJp], ['eucjpms', eucJp], ['gb18030', gb18030],
]);

function cjkCheck(charset: string, length: CjkLength): ValueCheck {
  return (b, o, len) => {
    const end = o + len;
    for (let i = o; i < end; ) {
      if (b[i] < 0x80) {
        i++;
        continue;
      }
      const n = length(b, i, end);
      if (n === 0) return invalidAt(charset, i - o);
      i += n;
    }
    return null;
  };
}

/** The page isAscii() last read, and a DataView of it (made once per page). */
let viewed: Uint8Array | null = null;
let view: DataView = new DataView(new ArrayBuffer(0));

/** Whether b[o, o+len) is 7-bit, 4 bytes a read (the common case of text, for the decoder's inline test). */
export function isAscii(b: Uint8Array, o: number, len: number): boolean {
  if (b !== viewed) {
    view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    viewed = b;
  }
  const end = o + len;
  let i = o;
  let any = 0;
  for (; i + 4 <= end; i += 4) any |= view.getInt32(i, true);
  for (; i < end; i++) any |= b[i];
  return (any & 0x80808080) === 0;
}

/** Whether 7-bit text is valid text of the charset (its bytes below 0x80 are characters one byte each). */
export function asciiCompatible(charset: string): boolean {
  return charsetAsciiCompatible(charset) && charset !== 'binary';
}

/** Whether the bytes of a charset are known here (else its columns are not checked at all). */
export function knownCharset(charset: string): boolean {
  return charset === 'binary' || charset === 'utf32' || charsetInfo(charset).label !== null || SINGLE_BYTE_CHARSETS[charset] !== undefined;
}

/** The well-formedness check of text in `charset`, or null when every byte string is text in it. */
export function charsetCheck(charset: string): ValueCheck | null {
  switch (charset) {
    case 'utf8mb3': return utf8Check(charset, 3);
    case 'utf8mb4': return utf8Check(charset, 4);
    case 'utf16': return utf16Check(charset, false);
    case 'utf16le': return utf16Check(charset, true);
    case 'utf32': return checkUtf32;
    case 'ucs2': return checkUcs2;
  }
  const cjk = CJK.get(charset);
  return cjk === undefined ? null : cjkCheck(charset, cjk);
}

/**
 * Text of `charset` between `min` and `max` bytes long (`what` names the limit in the reason):
 * the length first, then the bytes.
 */
export function textCheck(charset: string, min: number, max: number, what: string): ValueCheck {
  const bytes = charsetCheck(charset);
  return (b, o, len) => {
    if (len > max) return `${len} bytes, more than the ${max} of ${what}`;
    if (len < min) return `${len} bytes, fewer than the ${min} of ${what}`;
    return bytes === null ? null : bytes(b, o, len);
  };
}
