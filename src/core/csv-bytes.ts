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

/** The batch's rows as CSV lines (each ending in `\n`), UTF-8. */
export function csvBytes(batch: RowBatch): Uint8Array {
  const { text, cells, nulls, cols } = batch;
  // Worst case: every byte a quote (doubled) plus quotes, commas and `\N`s.
  const out = new Uint8Array(text.length * 2 + batch.rows * (cols * 4 + 1));
  let p = 0;
  let cell = 0;
  for (let r = 0; r < batch.rows; r++) {
    for (let c = 0; c < cols; c++, cell++) {
      if (c > 0) out[p++] = COMMA;
      if (nulls[cell]) {
        out[p++] = BACKSLASH;
        out[p++] = N;
        continue;
      }
      const start = cells[2 * cell];
      const end = cells[2 * cell + 1];
      if (needsQuotes(text, start, end, cols === 1)) {
        out[p++] = QUOTE;
        for (let i = start; i < end; i++) {
          if (text[i] === QUOTE) out[p++] = QUOTE;
          out[p++] = text[i];
        }
        out[p++] = QUOTE;
      } else {
        for (let i = start; i < end; i++) out[p++] = text[i];
      }
    }
    out[p++] = NEWLINE;
  }
  return out.subarray(0, p);
}
