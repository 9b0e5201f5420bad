/**
 * A field's SQL type guessed from its bytes: fixed-size ones as dates, datetimes, integers (sign bit
 * flipped), DECIMAL's packed digits, TIMESTAMP, DOUBLE, CHAR or BINARY; variable-length ones as
 * VARCHAR / CHAR / TEXT or their binary kinds, sized so the length bytes match the records.
 */

export type Confidence = 'high' | 'medium' | 'low';

export interface TypeGuess {
  type: string;
  confidence: Confidence;
  note: string;
}

/** Bytes [from, to) of v read as a big-endian unsigned number. */
export const beUint = (v: Uint8Array, from = 0, to = v.length): number => {
  let x = 0;
  for (let i = from; i < to; i++) x = x * 256 + v[i];
  return x;
};

function validYmd(y: number, m: number, d: number): boolean {
  return y >= 1000 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= 31;
}

/** Zero dates are valid too, but only values with a real date in them are evidence (any non-zero packed value, for DECIMAL too). */
export const realDate = (v: Uint8Array): boolean => v.some((c, i) => (i === 0 ? c !== 0x80 : c !== 0));

function isDate(v: Uint8Array): boolean {
  const x = beUint(v) ^ 0x800000;
  return x === 0 || validYmd(x >> 9, (x >> 5) & 15, x & 31);
}

export function isDatetime(v: Uint8Array): boolean {
  const x = beUint(v, 0, 5) - 0x8000000000;
  const frac = beUint(v, 5);
  if (x === 0) return frac === 0;
  const ymd = Math.floor(x / 131072);
  const hms = x % 131072;
  const ym = ymd >> 5;
  if (!validYmd(Math.floor(ym / 13), ym % 13, ymd & 31) || hms >> 12 > 23 || ((hms >> 6) & 63) > 59 || (hms & 63) > 59) return false;
  return frac < [1, 100, 10000, 1000000][v.length - 5];
}

/** Seconds since the epoch between 1990 and 2038 (or the zero TIMESTAMP). */
function isTimestamp(v: Uint8Array): boolean {
  const x = beUint(v, 0, 4);
  return x === 0 || (x >= 631152000 && x < 2147483648);
}

/** Magnitude of the values read as signed (sign bit flipped) and as unsigned integers. */
function intMagnitudes(values: readonly Uint8Array[], len: number): { signed: number; unsigned: number } {
  let signed = 0;
  let unsigned = 0;
  const half = 2 ** (len * 8 - 1);
  for (const v of values) {
    const x = len <= 6 ? beUint(v) : beUint(v, 0, 6) * 65536 + beUint(v, 6);
    signed = Math.max(signed, Math.abs(x - half));
    unsigned = Math.max(unsigned, x);
  }
  return { signed, unsigned };
}

const INT_NAMES: Record<number, string> = { 1: 'tinyint', 2: 'smallint', 3: 'mediumint', 4: 'int', 8: 'bigint' };

function intGuess(values: readonly Uint8Array[], len: number): TypeGuess {
  const m = intMagnitudes(values, len);
  const name = INT_NAMES[len];
  if (m.unsigned < m.signed) return { type: `${name} unsigned`, confidence: 'medium', note: `${len}-byte integer; the values are smaller read as unsigned` };
  const small = m.signed < 2 ** (len * 8 - 4);
  return { type: name, confidence: small ? 'high' : 'medium', note: `${len}-byte integer with the sign bit flipped${small ? ', small values' : ''}` };
}

/** A little-endian IEEE double of an everyday magnitude. */
function plausibleDouble(v: Uint8Array): boolean {
  const x = new DataView(v.buffer, v.byteOffset, 8).getFloat64(0, true);
  return x === 0 || (Number.isFinite(x) && Math.abs(x) > 1e-12 && Math.abs(x) < 1e18);
}

const DIG2BYTES = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];

/** Byte groups of DECIMAL(intg + scale, scale), each with the largest value it may hold. */
function decimalGroups(intg: number, scale: number): { bytes: number; limit: number }[] {
  const groups: { bytes: number; limit: number }[] = [];
  if (intg % 9) groups.push({ bytes: DIG2BYTES[intg % 9], limit: 10 ** (intg % 9) });
  for (let i = 0; i < Math.floor(intg / 9) + Math.floor(scale / 9); i++) groups.push({ bytes: 4, limit: 1e9 });
  if (scale % 9) groups.push({ bytes: DIG2BYTES[scale % 9], limit: 10 ** (scale % 9) });
  return groups;
}

/**
 * The largest value of each digit group over the values, read in DECIMAL's packed format (top bit
 * flipped, negatives inverted), or null when one does not fit its group.
 */
function decimalMaxima(values: readonly Uint8Array[], groups: readonly { bytes: number; limit: number }[]): number[] | null {
  const max = groups.map(() => 0);
  for (const v of values) {
    const mask = v[0] & 0x80 ? 0 : 0xff;
    let p = 0;
    for (let k = 0; k < groups.length; k++) {
      let x = 0;
      for (let i = 0; i < groups[k].bytes; i++, p++) x = x * 256 + ((v[p] ^ mask ^ (p === 0 ? 0x80 : 0)) & 0xff);
      if (x >= groups[k].limit) return null;
      max[k] = Math.max(max[k], x);
    }
  }
  return max;
}

/**
 * DECIMAL(M,D) whose packed size is `len` and whose digit groups hold every value. Several layouts
 * often do; the one whose digit groups describe the values in the fewest bits wins (where the fraction
 * starts), then the one they fill best (the natural precision).
 */
function decimalGuess(values: readonly Uint8Array[], len: number): TypeGuess | null {
  // values that are all zero (0x80 then zeros) fit any layout: no evidence; a sign byte always 0x80 is (small values)
  if (!values.some(realDate)) return null;
  let best: { intg: number; scale: number; bits: number; slack: number } | null = null;
  for (let intg = 0; intg <= 65; intg++) {
    for (let scale = 0; scale <= 30 && intg + scale <= 65; scale++) {
      const groups = decimalGroups(intg, scale);
      if (groups.reduce((n, g) => n + g.bytes, 0) !== len) continue;
      const max = decimalMaxima(values, groups);
      if (max === null) continue;
      // The bits the values take with their digits cut into these groups: a cut where the data has one
      // (a fraction byte never over 99) makes the ranges small; one that is not there (small money read
      // as DECIMAL(9,8)) leaves a group spanning a wide range. Then the least unused range.
      const bits = max.reduce((sum, m) => sum + Math.log2(m + 1), 0);
      const slack = groups.reduce((sum, g, k) => sum + Math.log2(g.limit / (max[k] + 1)), 0);
      if (best === null || bits < best.bits - 1e-9 || (bits < best.bits + 1e-9 && slack < best.slack - 1e-9)) best = { intg, scale, bits, slack };
    }
  }
  return best && { type: `decimal(${best.intg + best.scale},${best.scale})`, confidence: 'low', note: 'every value fits the packed DECIMAL format' };
}

export function fixedGuess(values: readonly Uint8Array[], len: number): TypeGuess {
  if (values.length === 0) return { type: `binary(${len})`, confidence: 'low', note: 'no value seen' };
  if (len === 3 && values.every(isDate) && values.some(realDate)) return { type: 'date', confidence: 'high', note: 'every value is a valid date' };
  if (len >= 5 && len <= 8 && values.every(isDatetime) && values.some(realDate)) {
    // 1-3 fraction bytes hold two digits each: odd precisions store a multiple of 10
    const tens = values.every((v) => beUint(v, 5) % 10 === 0);
    const fsp = len === 5 ? 0 : 2 * (len - 5) - (tens ? 1 : 0);
    return { type: fsp ? `datetime(${fsp})` : 'datetime', confidence: 'high', note: 'every value is a valid date and time' };
  }
  if (values.every((v) => v.every((c) => c >= 0x20 && c < 0x7f)) && values.some((v) => v.some((c) => /[A-Za-z]/.test(String.fromCharCode(c))))) {
    return { type: `char(${len}) character set latin1`, confidence: 'medium', note: 'printable text of a fixed size' };
  }
  const int = INT_NAMES[len] ? intGuess(values, len) : null;
  if (int?.confidence === 'high') return int;
  const decimal = len >= 2 ? decimalGuess(values, len) : null;
  if (decimal) return decimal;
  if (int) {
    if (len === 4 && values.every(isTimestamp)) return { type: 'timestamp', confidence: 'medium', note: 'every value is a plausible TIMESTAMP (seconds since 1970)' };
    if (len === 8 && values.every(plausibleDouble)) return { type: 'double', confidence: 'low', note: 'not a small integer; every value reads as an ordinary DOUBLE' };
    return int;
  }
  return { type: `binary(${len})`, confidence: 'low', note: 'no recognisable layout; shown as hex' };
}

/**
 * Valid UTF-8 (what a fatal TextDecoder accepts: no overlong forms, no surrogates, nothing past
 * U+10FFFF) without control characters other than tab, newline and carriage return. Checked byte by
 * byte: the placement searches ask it of thousands of candidate slices, most of them not text.
 */
export function isUtf8Text(v: Uint8Array): boolean {
  for (let i = 0; i < v.length;) {
    const c = v[i++];
    if (c < 0x80) {
      if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
      continue;
    }
    let more: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) more = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      more = 2;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      more = 3;
      if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f;
    } else return false;
    if (i + more > v.length || v[i] < lo || v[i] > hi) return false;
    for (let k = 1; k < more; k++) if (v[i + k] < 0x80 || v[i + k] > 0xbf) return false;
    i += more;
  }
  return true;
}

/** A length rounded up to a customary column size. */
function roundLength(n: number): number {
  for (const r of [10, 20, 32, 50, 64, 100, 128, 200, 255, 500, 1000, 2000, 4000, 8000, 16000]) if (n <= r) return r;
  return 16383;
}

/**
 * A variable-length column. In COMPACT, whether the column's length may take 2 bytes must match
 * the records (`big`), and a 1-byte length of 128..255 needs a type of at most 255 bytes.
 */
export function varGuess(values: readonly Uint8Array[], externs: number, maxLen: number, redundant: boolean, big: boolean): TypeGuess {
  const text = values.every(isUtf8Text);
  const longOneByte = !redundant && !big && maxLen >= 128;
  if (externs > 0 || (big && maxLen > 1000)) {
    return text ? { type: 'text', confidence: 'medium', note: 'long UTF-8 text (stored off-page or over 1000 bytes)' } : { type: 'blob', confidence: 'medium', note: 'long binary values' };
  }
  if (!text) {
    if (longOneByte) return { type: 'varbinary(255)', confidence: 'low', note: 'binary values; 1-byte lengths up to 255' };
    const n = roundLength(maxLen);
    return { type: `varbinary(${big ? Math.max(n, 256) : n})`, confidence: 'low', note: 'binary values, shown as hex' };
  }
  const padded = charPadding(values);
  if (padded > 0 && !longOneByte && (!big || padded * 4 > 255)) return { type: `char(${padded})`, confidence: 'medium', note: `UTF-8 text, every value at least ${padded} bytes, space-padded` };
  if (longOneByte) {
    const ascii = values.every((v) => v.every((c) => c < 0x80));
    return ascii ? { type: 'varchar(255) character set latin1', confidence: 'medium', note: 'ASCII text; 1-byte lengths up to 255' } : { type: 'varchar(85) character set utf8mb3', confidence: 'medium', note: 'UTF-8 text; 1-byte lengths up to 255' };
  }
  // utf8mb4 takes up to 4 bytes a character: from 64 characters on, the length may take 2 bytes.
  const chars = roundLength(maxLen);
  return { type: `varchar(${big ? Math.max(chars, 64) : chars})`, confidence: 'medium', note: 'UTF-8 text' };
}

/**
 * CHAR(n) in a multi-byte charset is stored in COMPACT with at least n bytes, short values padded
 * with spaces: most values are exactly n bytes and many of them end in a space. Returns n, or 0.
 */
function charPadding(values: readonly Uint8Array[]): number {
  if (values.length < 4) return 0;
  const min = Math.min(...values.map((v) => v.length));
  if (min === 0) return 0;
  const atMin = values.filter((v) => v.length === min);
  const padded = atMin.filter((v) => v[min - 1] === 0x20).length;
  return atMin.length >= values.length / 2 && padded >= Math.max(2, atMin.length / 10) ? min : 0;
}

/** REDUNDANT stores CHAR padded to its full size in every charset: printable fixed text is CHAR. */
export function redundantFixed(values: readonly Uint8Array[], len: number): TypeGuess {
  // CHAR in a multi-byte charset takes n × its widest character: text with UTF-8 in it is CHAR(len/4) or CHAR(len/3)
  const utf8 = values.some((v) => v.some((c) => c >= 0x80)) && values.every(isUtf8Text);
  if (utf8 && len % 4 === 0) return { type: `char(${len / 4})`, confidence: 'medium', note: 'UTF-8 text of a fixed size, space-padded' };
  if (utf8 && len % 3 === 0) return { type: `char(${len / 3}) character set utf8mb3`, confidence: 'medium', note: 'UTF-8 text of a fixed size, space-padded' };
  return fixedGuess(values, len);
}
