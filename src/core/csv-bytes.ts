/**
 * CSV straight from a RowBatch's bytes: the export fast path. The output is byte for byte what
 * `csvRows()` (papaparse, src/core/output.ts) writes for the same rows — RFC 4180 quoting, `\n` line
 * ends, NULL as an unquoted `\N`, a literal `\N` quoted — and a test holds the two together; this one
 * never builds a string per cell.
 */
import type { RowBatch } from './row-batch.ts';

const COMMA = 44;
const QUOTE = 34;
const NEWLINE = 10;
const CR = 13;
const SPACE = 32;
const BACKSLASH = 92;
const N = 78;

/**
 * Whether papaparse would quote this value: separators, quotes, line breaks, a byte-order mark
 * (EF BB BF), edge spaces, and (our rule) a literal `\N` or, with one column, an empty value.
 */
function needsQuotes(t: Uint8Array, start: number, end: number, singleColumn: boolean): boolean {
  if (end === start) return singleColumn;
  if (t[start] === SPACE || t[end - 1] === SPACE) return true;
  if (end - start === 2 && t[start] === BACKSLASH && t[start + 1] === N) return true;
  for (let i = start; i < end; i++) {
    const c = t[i];
    // One comparison rules out most bytes: all the special ones are below 0x2D or are 0xEF.
    if (c > COMMA && c !== 0xef) continue;
    if (c === COMMA || c === QUOTE || c === NEWLINE || c === CR) return true;
    if (c === 0xef && t[i + 1] === 0xbb && t[i + 2] === 0xbf && i + 2 < end) return true;
  }
  return false;
}

/** Bytes that call for quotes wherever they are in a value: separator, quote, line breaks, and 0xEF (a byte-order mark starts with it). */
const SPECIAL = new Uint8Array(256);
for (const b of [COMMA, QUOTE, NEWLINE, CR, 0xef]) SPECIAL[b] = 1;

/**
 * Cells at least this long are checked 4 bytes at a time and copied with TypedArray.set (memcpy);
 * shorter ones byte by byte, which costs less than making the subarray that set() needs.
 */
const LONG = 64;

/**
 * Whether t[start, end) (at least 4 bytes) surely needs no quotes: no byte below '-' (which covers
 * separators, quotes, line breaks and spaces), none from 0x80 up (a byte-order mark starts with 0xEF),
 * and no space at either end. Four bytes per step; false only means "look byte by byte".
 */
function plain(t: Uint8Array, v: DataView, start: number, end: number): boolean {
  let i = start;
  for (; i + 4 <= end; i += 4) {
    const w = v.getInt32(i, true);
    // Some byte below 0x2D (the borrow trick for "has a byte less than n"), or some byte ≥ 0x80.
    if ((((w - 0x2d2d2d2d) & ~w) | w) & 0x80808080) return false;
  }
  for (; i < end; i++) if (t[i] < 0x2d || t[i] >= 0x80) return false;
  return true;
}

/** Room for `need` more bytes at p: a bigger copy of `out` when it lacks it. */
function grown(out: Uint8Array<ArrayBuffer>, p: number, need: number): Uint8Array<ArrayBuffer> {
  if (p + need <= out.length) return out;
  const bigger = new Uint8Array(Math.max(out.length * 2, p + need));
  bigger.set(out.subarray(0, p));
  return bigger;
}

/**
 * The batch's rows as CSV lines (each ending in `\n`), UTF-8. `reuse`: a buffer to write into when it
 * is large enough (the result is then a view of it), so a caller formatting run after run does not
 * allocate (and page-fault) a fresh buffer each time.
 */
export function csvBytes(batch: RowBatch, reuse?: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const { text, cells, nulls, cols, rows } = batch;
  const single = cols === 1;
  const view = new DataView(text.buffer, text.byteOffset, text.byteLength);
  // Unquoted, every cell takes its text and one separator (`\N` takes 2 bytes and a separator), so
  // the text's size plus 3 bytes a cell is room enough when cells do not share text (as BatchBuilder
  // writes them); cells that need quotes, or share text, grow the buffer as they come.
  const room = text.length + 3 * rows * cols + 64;
  let out = reuse && reuse.length >= room ? reuse : new Uint8Array(room);
  let p = 0;
  let cell = 0;
  for (let r = 0; r < rows; r++) {
    // Every cell is followed by a comma; the row's last one becomes the line end.
    for (let c = 0; c < cols; c++, cell++) {
      if (nulls[cell]) {
        if (p + 3 > out.length) out = grown(out, p, 3);
        out[p++] = BACKSLASH;
        out[p++] = N;
        out[p++] = COMMA;
        continue;
      }
      const start = cells[2 * cell];
      const end = cells[2 * cell + 1];
      if (p + (end - start) + 3 > out.length) out = grown(out, p, end - start + 3);
      if (end - start >= LONG && plain(text, view, start, end)) {
        out.set(text.subarray(start, end), p);
        p += end - start;
        out[p++] = COMMA;
        continue;
      }
      // Copy while looking for a byte that may call for quotes wherever it is.
      let i = start;
      let q = p;
      for (; i < end; i++) {
        const ch = text[i];
        if (SPECIAL[ch] !== 0) break;
        out[q++] = ch;
      }
      if (i === end) {
        // Then only the ends matter: edge spaces, an empty value, a literal `\N`.
        const len = end - start;
        if (len === 0 ? !single : text[start] !== SPACE && text[end - 1] !== SPACE && !(len === 2 && text[start] === BACKSLASH && text[start + 1] === N)) {
          out[q++] = COMMA;
          p = q;
          continue;
        }
      }
      if (!needsQuotes(text, start, end, single)) {
        for (; i < end; i++) out[q++] = text[i];
        out[q++] = COMMA;
        p = q;
        continue;
      }
      // Quoted: two quotes more, and every quote inside doubled.
      let quotes = 0;
      for (let k = start; k < end; k++) if (text[k] === QUOTE) quotes++;
      if (p + (end - start) + quotes + 3 > out.length) out = grown(out, p, end - start + quotes + 3);
      out[p++] = QUOTE;
      for (let k = start; k < end; k++) {
        const ch = text[k];
        if (ch === QUOTE) out[p++] = QUOTE;
        out[p++] = ch;
      }
      out[p++] = QUOTE;
      out[p++] = COMMA;
    }
    if (cols > 0) out[p - 1] = NEWLINE;
    else {
      if (p + 1 > out.length) out = grown(out, p, 1);
      out[p++] = NEWLINE;
    }
  }
  return out.subarray(0, p);
}
