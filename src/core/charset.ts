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

const decoders = new Map<string, TextDecoder>();

/** One shared TextDecoder per encoding, or null when the charset has none. */
export function decoderFor(charset: string): TextDecoder | null {
  const label = charsetInfo(charset).label;
  if (label === null) return null;
  let d = decoders.get(label);
  if (!d) {
    d = new TextDecoder(label);
    decoders.set(label, d);
  }
  return d;
}
