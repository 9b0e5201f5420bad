/**
 * Which cell values CSV must quote, by the rules papaparse follows (and ours for NULL): the batch
 * builder decides per line whether a row can be copied as it is, and csvBytes() per cell.
 */
const COMMA = 44;
const QUOTE = 34;
const NEWLINE = 10;
const CR = 13;
const SPACE = 32;
const BACKSLASH = 92;
const N = 78;

/** Whether a cell's ends allow it unquoted: no space at either end, not a literal `\N`, not empty in a single-column table. */
export function cleanEdges(t: Uint8Array, start: number, end: number, single: boolean): boolean {
  const len = end - start;
  if (len === 0) return !single;
  return t[start] !== SPACE && t[end - 1] !== SPACE && !(len === 2 && t[start] === BACKSLASH && t[start + 1] === N);
}

/**
 * Whether papaparse would quote this value: separators, quotes, line breaks, a byte-order mark
 * (EF BB BF), edge spaces, and (our rule) a literal `\N` or, with one column, an empty value.
 */
export function needsQuotes(t: Uint8Array, start: number, end: number, singleColumn: boolean): boolean {
  if (!cleanEdges(t, start, end, singleColumn)) return true;
  for (let i = start; i < end; i++) {
    const c = t[i];
    // One comparison rules out most bytes: all the special ones are below 0x2D or are 0xEF.
    if (c > COMMA && c !== 0xef) continue;
    if (c === COMMA || c === QUOTE || c === NEWLINE || c === CR) return true;
    if (c === 0xef && t[i + 1] === 0xbb && t[i + 2] === 0xbf && i + 2 < end) return true;
  }
  return false;
}
