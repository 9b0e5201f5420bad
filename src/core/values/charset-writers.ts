/**
 * The writers of CHAR, VARCHAR and TEXT: UTF-8 values copied as they are once found well-formed
 * (noting on the way whether they may need quotes in CSV), single-byte charsets (latin1, cp1250, …)
 * through a table of each byte's UTF-8. CHAR's pad spaces are trimmed, as the server shows them.
 * UTF-8 has fast kinds: record.ts's line writer calls putUtf8 itself.
 */
import { dataView, textView } from './byte-views.ts';
import { charsetInfo, decoderFor } from './charset.ts';
import type { Render } from './render.ts';
import { QUOTE_REPORTED } from './row-batch.ts';
import { appendString, described, encoder, fastKind, FAST_CHAR, FAST_VARCHAR, type Write } from './writer-traits.ts';

const QUOTE = 34;

/** Per byte: 1 for those that may call for quotes in CSV (0xEF starts a byte-order mark), 2 from 0x80 up. */
const BYTE_CLASS = new Uint8Array(256);
BYTE_CLASS.fill(2, 0x80);
for (const b of [44, 34, 10, 13]) BYTE_CLASS[b] = 1;

/** CHAR values lose their trailing pad spaces, as the server shows them. */
function trimmedLength(b: Uint8Array, o: number, len: number): number {
  const view = dataView(b);
  while (len >= 4 && view.getInt32(o + len - 4) === 0x20202020) len -= 4;
  while (len > 0 && b[o + len - 1] === 0x20) len--;
  return len;
}

/**
 * UTF-8 values at least this long are copied with TypedArray.set (memcpy); shorter ones four bytes a
 * step, which costs less than making the subarray that set() needs.
 */
const LONG = 64;

/**
 * Whether b[i, end) is well-formed UTF-8 (Unicode table 3-7: no overlong forms, no surrogates, nothing
 * above U+10FFFF), exactly the input TextDecoder passes through unchanged: its decoded text encodes
 * back to the same bytes.
 */
function wellFormedUtf8(b: Uint8Array, i: number, end: number): boolean {
  while (i < end) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f;
    } else return false;
    if (i + n >= end) return false; // cut short
    const c1 = b[i + 1];
    if (c1 < lo || c1 > hi) return false;
    for (let k = 2; k <= n; k++) {
      const ck = b[i + k];
      if (ck < 0x80 || ck > 0xbf) return false;
    }
    i += n + 1;
  }
  return true;
}

/**
 * What putUtf8() saw in the value it copied: a byte that may call for quotes in CSV (`special`, see
 * BatchBuilder.special), and among those a quote itself (which CSV doubles).
 */
export const utf8Copy = { special: false, quote: false };

/**
 * UTF-8 text at o is already in output form: copied to p as is (CHAR's pad spaces trimmed) when it
 * is well-formed (checked here, ASCII fastest), saying in utf8Copy whether a byte may call for quotes
 * and whether one is a quote. Returns the position after it, or -1 when it is not well-formed: the caller then goes
 * through the renderer, so invalid byte sequences become U+FFFD exactly as the string path shows
 * them. Room for `len` bytes must have been reserved.
 */
export function putUtf8(t: Uint8Array, p: number, b: Uint8Array, o: number, len: number, padded: boolean): number {
  if (padded) len = trimmedLength(b, o, len);
  // Looked at four bytes a step for quotes and other bytes that call for quotes (their words' top
  // bits gathered in `dq` and `quotes`) and bytes that are not ASCII (top bits in `high`); copied
  // along the way, or with one TypedArray.set (memcpy) when long.
  const long = len >= LONG;
  const from = dataView(b);
  const to = textView(t);
  let dq = 0;
  let quotes = 0;
  let high = 0;
  let i = 0;
  for (; i + 4 <= len; i += 4) {
    const w = from.getInt32(o + i, true);
    if (!long) to.setInt32(p + i, w, true);
    high |= w;
    dq |= zeroByte(w ^ 0x22222222);
    quotes |= zeroByte(w ^ 0x2c2c2c2c) | zeroByte(w ^ 0x0a0a0a0a) | zeroByte(w ^ 0x0d0d0d0d);
  }
  for (; i < len; i++) {
    const c = b[o + i];
    high |= c;
    if (c === QUOTE) dq = 0x80;
    else if (BYTE_CLASS[c] === 1) quotes = 0x80;
    t[p + i] = c;
  }
  const quote = (dq & 0x80808080) !== 0;
  utf8Copy.quote = quote;
  if ((high & 0x80808080) !== 0) {
    // Not ASCII: a byte-order mark may need quotes, and the text must be well-formed.
    if (!wellFormedUtf8(b, o, o + len)) return -1;
    utf8Copy.special = true;
  } else utf8Copy.special = quote || (quotes & 0x80808080) !== 0;
  if (long) t.set(b.subarray(o, o + len - (len & 3)), p);
  return p + len;
}

/**
 * UTF-8 text at o copied to p as it is (CHAR's pad spaces trimmed) when it is well-formed, as
 * putUtf8 copies it (four bytes a step) but with no look for what calls for quotes: for a caller that
 * copies into several arrays in turn (Parquet's text chunks) and keeps a view of each (`to`, of t),
 * for which putUtf8's view of its target would be made anew each time. Returns the position after
 * it, or -1 when it is not well-formed.
 */
export function copyUtf8(t: Uint8Array, to: DataView, p: number, b: Uint8Array, o: number, len: number, padded: boolean): number {
  if (padded) len = trimmedLength(b, o, len);
  const from = dataView(b);
  let high = 0;
  let i = 0;
  for (; i + 4 <= len; i += 4) {
    const w = from.getInt32(o + i, true);
    high |= w;
    to.setInt32(p + i, w, true);
  }
  for (; i < len; i++) {
    const c = b[o + i];
    high |= c;
    t[p + i] = c;
  }
  return (high & 0x80808080) !== 0 && !wellFormedUtf8(b, o, o + len) ? -1 : p + len;
}

/** Not 0 exactly when the 32-bit word has a zero byte (the classic borrow trick). */
function zeroByte(x: number): number {
  return (x - 0x01010101) & ~x & 0x80808080;
}

export function utf8Writer(padded: boolean, render: Render): Write {
  const write: Write = (b, o, len, out) => {
    out.reserve(len);
    const p = putUtf8(out.text, out.pos, b, o, len, padded);
    if (p < 0) {
      out.special = true;
      appendString(out, render(b, o, len));
      return;
    }
    out.special = utf8Copy.special;
    out.pos = p;
  };
  return described(write, QUOTE_REPORTED, fastKind(padded ? FAST_CHAR : FAST_VARCHAR));
}

const singleByteTables = new Map<string, Uint8Array[]>();

/**
 * For a single-byte charset (latin1 = Windows-1252, cp1250, koi8r, …): the UTF-8 bytes of each of the
 * 256 byte values, taken from the charset's own decoder so both paths agree.
 */
export function singleByteTable(charset: string): Uint8Array[] | null {
  const decode = decoderFor(charset);
  if (decode === null || charsetInfo(charset).mbmaxlen !== 1) return null;
  let table = singleByteTables.get(charset);
  if (!table) {
    const one = new Uint8Array(1);
    table = Array.from({ length: 256 }, (_, i) => {
      one[0] = i;
      return encoder.encode(decode(one, 0, 1));
    });
    singleByteTables.set(charset, table);
  }
  return table;
}

export function singleByteWriter(table: Uint8Array[], padded: boolean): Write {
  return (b, o, len, out) => {
    if (padded) len = trimmedLength(b, o, len);
    out.reserve(3 * len);
    const t = out.text;
    let p = out.pos;
    for (let i = o; i < o + len; i++) {
      const u = table[b[i]];
      if (u.length === 1) t[p++] = u[0];
      else for (let k = 0; k < u.length; k++) t[p++] = u[k];
    }
    out.pos = p;
  };
}
