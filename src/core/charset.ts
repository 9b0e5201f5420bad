/**
 * MySQL/MariaDB character sets: the most bytes one character takes (decides how InnoDB lays out
 * CHAR and how wide a VARCHAR length field is), and the WHATWG encoding label TextDecoder knows it by.
 */

interface CharsetInfo {
  mbmaxlen: number;
  mbminlen: number;
  /** TextDecoder label; null when the browser has no decoder for it. */
  label: string | null;
}

const CHARSETS: Record<string, CharsetInfo> = {
  binary: { mbmaxlen: 1, mbminlen: 1, label: null },
  // MySQL's latin1 is really Windows-1252, which is what the WHATWG 'latin1' label means too.
  latin1: { mbmaxlen: 1, mbminlen: 1, label: 'windows-1252' },
  ascii: { mbmaxlen: 1, mbminlen: 1, label: 'windows-1252' },
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
  cp1250: { mbmaxlen: 1, mbminlen: 1, label: 'windows-1250' },
  cp1251: { mbmaxlen: 1, mbminlen: 1, label: 'windows-1251' },
  cp1256: { mbmaxlen: 1, mbminlen: 1, label: 'windows-1256' },
  cp1257: { mbmaxlen: 1, mbminlen: 1, label: 'windows-1257' },
  latin2: { mbmaxlen: 1, mbminlen: 1, label: 'iso-8859-2' },
  latin5: { mbmaxlen: 1, mbminlen: 1, label: 'windows-1254' },
  latin7: { mbmaxlen: 1, mbminlen: 1, label: 'iso-8859-13' },
  greek: { mbmaxlen: 1, mbminlen: 1, label: 'iso-8859-7' },
  hebrew: { mbmaxlen: 1, mbminlen: 1, label: 'iso-8859-8' },
  koi8r: { mbmaxlen: 1, mbminlen: 1, label: 'koi8-r' },
  koi8u: { mbmaxlen: 1, mbminlen: 1, label: 'koi8-u' },
  cp866: { mbmaxlen: 1, mbminlen: 1, label: 'ibm866' },
  tis620: { mbmaxlen: 1, mbminlen: 1, label: 'windows-874' },
  macroman: { mbmaxlen: 1, mbminlen: 1, label: 'macintosh' },
};

/** Unknown charsets are treated as single-byte; their values are shown as hex. */
const UNKNOWN: CharsetInfo = { mbmaxlen: 1, mbminlen: 1, label: null };

export function charsetInfo(name: string): CharsetInfo {
  return CHARSETS[name] ?? UNKNOWN;
}

/** Decodes b[o, o+len) to a string. */
export type Decode = (b: Uint8Array, o: number, len: number) => string;

/** Windows-1252's 0x80-0x9F; the five holes map to the C1 controls, as both MySQL and WHATWG do. */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];
const CP1252 = new Uint16Array(256).map((_, i) => (i >= 0x80 && i < 0xa0 ? CP1252_HIGH[i - 0x80] : i));
const utf16 = new TextDecoder('utf-16le');

/**
 * MySQL's latin1 is Windows-1252. Decoded by table rather than TextDecoder: Node's 'windows-1252'
 * decoder is really ISO-8859-1 (0x80 comes out as U+0080, not €).
 */
const decodeCp1252: Decode = (b, o, len) => {
  const units = new Uint16Array(len);
  for (let i = 0; i < len; i++) units[i] = CP1252[b[o + i]];
  return utf16.decode(units);
};

const decoders = new Map<string, Decode>([['windows-1252', decodeCp1252]]);

/** One shared decoder per encoding, or null when the charset has none (its values show as hex). */
export function decoderFor(charset: string): Decode | null {
  const label = charsetInfo(charset).label;
  if (label === null) return null;
  let d = decoders.get(label);
  if (!d) {
    const td = new TextDecoder(label);
    d = (b, o, len) => td.decode(b.subarray(o, o + len));
    decoders.set(label, d);
  }
  return d;
}
