/**
 * MySQL/MariaDB character sets: the most bytes one character takes (decides how InnoDB lays out
 * CHAR and how wide a VARCHAR length field is), and how text in it is decoded: single-byte charsets
 * by the server's own tables, UTF-32 by hand, the others by TextDecoder.
 */
import { SINGLE_BYTE_CHARSETS } from './charset-tables.ts';
import { isMultibyteCjk, multibyteDecoder } from './multibyte.ts';

interface CharsetInfo {
  mbmaxlen: number;
  mbminlen: number;
  /** TextDecoder label; null when the browser has no decoder for it. */
  label: string | null;
}

/** Multi-byte charsets (every single-byte one has a table in charset-tables.ts). */
const CHARSETS: Record<string, CharsetInfo> = {
  binary: { mbmaxlen: 1, mbminlen: 1, label: null },
  utf8mb3: { mbmaxlen: 3, mbminlen: 1, label: 'utf-8' },
  utf8mb4: { mbmaxlen: 4, mbminlen: 1, label: 'utf-8' },
  ucs2: { mbmaxlen: 2, mbminlen: 2, label: 'utf-16be' },
  utf16: { mbmaxlen: 4, mbminlen: 2, label: 'utf-16be' },
  utf16le: { mbmaxlen: 4, mbminlen: 2, label: 'utf-16le' },
  utf32: { mbmaxlen: 4, mbminlen: 4, label: null },
  big5: { mbmaxlen: 2, mbminlen: 1, label: 'big5' },
  gbk: { mbmaxlen: 2, mbminlen: 1, label: 'gbk' },
  gb2312: { mbmaxlen: 2, mbminlen: 1, label: 'gbk' },
  gb18030: { mbmaxlen: 4, mbminlen: 1, label: 'gb18030' },
  sjis: { mbmaxlen: 2, mbminlen: 1, label: 'shift_jis' },
  cp932: { mbmaxlen: 2, mbminlen: 1, label: 'shift_jis' },
  ujis: { mbmaxlen: 3, mbminlen: 1, label: 'euc-jp' },
  eucjpms: { mbmaxlen: 3, mbminlen: 1, label: 'euc-jp' },
  euckr: { mbmaxlen: 2, mbminlen: 1, label: 'euc-kr' },
};

/** Single-byte charsets, and unknown ones (whose values are shown as hex). */
const UNKNOWN: CharsetInfo = { mbmaxlen: 1, mbminlen: 1, label: null };

export function charsetInfo(name: string): CharsetInfo {
  return CHARSETS[name] ?? UNKNOWN;
}

/** Decodes b[o, o+len) to a string. */
export type Decode = (b: Uint8Array, o: number, len: number) => string;

const utf16 = new TextDecoder('utf-16le', { ignoreBOM: true });

/** Builds the string of code units in `units[0, n)`: short ones directly, long ones in one decode. */
function fromUnits(units: Uint16Array, n: number): string {
  if (n <= 64) {
    let s = '';
    for (let i = 0; i < n; i++) s += String.fromCharCode(units[i]);
    return s;
  }
  return utf16.decode(units.subarray(0, n));
}

let scratch = new Uint16Array(1024);
function scratchFor(n: number): Uint16Array {
  if (scratch.length < n) scratch = new Uint16Array(Math.max(n, scratch.length * 2));
  return scratch;
}

/**
 * Single-byte charsets by table, the server's own mapping (charset-tables.ts): TextDecoder has no
 * decoder for several of them (dec8, cp850, swe7, ...) and differs from the server on others (Node's
 * 'windows-1252' is ISO-8859-1, MySQL's ascii shows bytes above 0x7F as '?').
 */
function tableDecoder(chars: string): Decode {
  const map = new Uint16Array(256);
  const offset = 256 - chars.length;
  for (let i = 0; i < 256; i++) map[i] = i < offset ? i : chars.charCodeAt(i - offset);
  return (b, o, len) => {
    const units = scratchFor(len);
    for (let i = 0; i < len; i++) units[i] = map[b[o + i]];
    return fromUnits(units, len);
  };
}

/** UTF-32 (big-endian, as MySQL stores it), which TextDecoder does not know; bad code points become '?'. */
const decodeUtf32: Decode = (b, o, len) => {
  const units = scratchFor(len >> 1);
  let n = 0;
  for (let i = o; i + 3 < o + len; i += 4) {
    const cp = ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;
    if (cp < 0x10000 && (cp < 0xd800 || cp > 0xdfff)) units[n++] = cp;
    else if (cp >= 0x10000 && cp <= 0x10ffff) {
      units[n++] = 0xd800 + ((cp - 0x10000) >> 10);
      units[n++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
    } else units[n++] = 0x3f;
  }
  return fromUnits(units, n);
};

const decoders = new Map<string, Decode>([['utf32', decodeUtf32]]);

/** One shared decoder per charset, or null when the charset has none (its values show as hex). */
export function decoderFor(charset: string): Decode | null {
  let d = decoders.get(charset);
  if (d) return d;
  const table = SINGLE_BYTE_CHARSETS[charset];
  const label = charsetInfo(charset).label;
  if (table !== undefined) d = tableDecoder(table);
  else if (label !== null && isMultibyteCjk(charset)) d = multibyteDecoder(charset, label);
  else if (label !== null) {
    const td = new TextDecoder(label, { ignoreBOM: true });
    d = (b, o, len) => td.decode(b.subarray(o, o + len));
  } else return null;
  decoders.set(charset, d);
  return d;
}

/** Charsets whose bytes below 0x80 are ASCII characters one byte each (so 7-bit text can be copied as is). */
export function asciiCompatible(charset: string): boolean {
  const info = charsetInfo(charset);
  return info.mbminlen === 1 && charset !== 'swe7';
}

