/**
 * CSV straight from a RowBatch's bytes: the export fast path. The output is byte for byte what
 * `csvRows()` (papaparse, src/core/writers/output.ts) writes for the same rows — RFC 4180 quoting, `\n` line
 * ends, NULL as an unquoted `\N`, a literal `\N` quoted — and a test holds the two together; this one
 * never builds a string per cell.
 */
import { cleanEdges, needsQuotes } from '../values/csv-quoting.ts';
import type { RowBatch } from '../values/row-batch.ts';

const COMMA = 44;
const QUOTE = 34;
const NEWLINE = 10;
const CR = 13;
const BACKSLASH = 92;
const N = 78;

/** Bytes that call for quotes wherever they are in a value: separator, quote, line breaks, and 0xEF (a byte-order mark starts with it). */
const SPECIAL = new Uint8Array(256);
for (const b of [COMMA, QUOTE, NEWLINE, CR, 0xef]) SPECIAL[b] = 1;

/** Room for `need` more bytes at p: a bigger copy of `out` when it lacks it. */
function grown(out: Uint8Array<ArrayBuffer>, p: number, need: number): Uint8Array<ArrayBuffer> {
  if (p + need <= out.length) return out;
  const bigger = new Uint8Array(Math.max(out.length * 2, p + need));
  bigger.set(out.subarray(0, p));
  return bigger;
}

/**
 * Stretches at least this long whose long cells are plain() are checked cell by cell and copied with
 * TypedArray.set (memcpy); others are checked while copied byte by byte, which costs less than making
 * the subarray that set() needs, or than checking text that is not plain twice.
 */
const LONG = 64;

/**
 * Whether t[start, end) (at least 4 bytes) surely needs no quotes: no byte below '-' (which covers
 * separators, quotes, line breaks and spaces), none from 0x80 up (a byte-order mark starts with 0xEF).
 * Four bytes per step; false only means "look byte by byte".
 */
function plain(v: DataView, start: number, end: number): boolean {
  let i = start;
  for (; i + 4 <= end; i += 4) {
    const w = v.getInt32(i, true);
    // Some byte below 0x2D (the borrow trick for "has a byte less than n"), or some byte ≥ 0x80.
    if ((((w - 0x2d2d2d2d) & ~w) | w) & 0x80808080) return false;
  }
  for (; i < end; i++) if (v.getUint8(i) < 0x2d || v.getUint8(i) >= 0x80) return false;
  return true;
}

/**
 * Whether cells [first, last) surely hold no byte that may call for quotes (their ends are checked
 * apart), checking their long cells four bytes at a time first. False also when a long cell is not
 * plain(): the caller then copies byte by byte, which checks each byte as it goes anyway.
 */
function plainCells(t: Uint8Array, v: DataView, cells: Uint32Array, first: number, last: number): boolean {
  for (let c = first; c < last; c++) {
    const start = cells[2 * c];
    const end = cells[2 * c + 1];
    if (end - start >= 16 && !plain(v, start, end)) return false;
  }
  for (let c = first; c < last; c++) {
    const start = cells[2 * c];
    const end = cells[2 * c + 1];
    if (end - start < 16) for (let i = start; i < end; i++) if (SPECIAL[t[i]] !== 0) return false;
  }
  return true;
}

/**
 * The batch's rows as CSV lines (each ending in `\n`), UTF-8, written at `at` of `reuse` after the
 * bytes it holds before `at` (kept, also when a bigger buffer has to be made): the result is the
 * view of the buffer from 0 to the end of these lines. Reusing a buffer large enough, a caller
 * formatting batch after batch does not allocate (and page-fault) a fresh one each time.
 *
 * Rows a `separated` BatchBuilder recorded as their CSV lines (RowBatch.lines) are copied as they
 * are, consecutive ones in one copy (their values already quoted where they need it). Other rows go
 * cell by cell, in stretches: where the next cell of the row starts just after this one's end and a
 * comma, the text from the first cell's start to the last one's end already reads as CSV, and is
 * copied in one loop that also counts the bytes that may call for quotes. When that count is more
 * than the commas between the cells (or a cell's ends need quotes), the stretch is written again
 * cell by cell, quoting where papaparse would.
 */
export function csvBytes(batch: RowBatch, reuse?: Uint8Array<ArrayBuffer>, at = 0): Uint8Array<ArrayBuffer> {
  const { text, cells, nulls, cols, rows, lines } = batch;
  const single = cols === 1;
  const view = new DataView(text.buffer, text.byteOffset, text.byteLength);
  // Unquoted, every cell takes its text and one separator (`\N` takes 2 bytes and a separator), so
  // the text's size plus 3 bytes a cell is room enough when cells do not share text (as BatchBuilder
  // writes them); cells that need quotes, or share text, grow the buffer as they come.
  const room = at + text.length + 3 * rows * cols + 64;
  let out = reuse && reuse.length >= room ? reuse : reuse ? grown(reuse, at, room - at) : new Uint8Array(room);
  let p = at;
  for (let r = 0; r < rows; r++) {
    if (lines !== undefined && lines[2 * r] >= 0) {
      // Rows that are already their CSV lines, one after the other in the text: one copy.
      const start = lines[2 * r];
      let end = lines[2 * r + 1];
      while (r + 1 < rows && lines[2 * r + 2] === end) end = lines[2 * ++r + 1];
      if (p + (end - start) > out.length) out = grown(out, p, end - start);
      out.set(text.subarray(start, end), p);
      p += end - start;
      continue;
    }
    // Every cell is followed by a comma; the row's last one becomes the line end.
    let cell = r * cols;
    const rowEnd = cell + cols;
    while (cell < rowEnd) {
      if (nulls[cell]) {
        if (p + 3 > out.length) out = grown(out, p, 3);
        out[p++] = BACKSLASH;
        out[p++] = N;
        out[p++] = COMMA;
        cell++;
        continue;
      }
      const first = cell;
      const start = cells[2 * cell];
      let end = cells[2 * cell + 1];
      let edges = cleanEdges(text, start, end, single);
      cell++;
      while (cell < rowEnd && nulls[cell] === 0 && cells[2 * cell] === end + 1 && text[end] === COMMA) {
        const next = end + 1;
        end = cells[2 * cell + 1];
        edges = edges && cleanEdges(text, next, end, single);
        cell++;
      }
      if (p + (end - start) + 1 > out.length) out = grown(out, p, end - start + 1);
      if (edges && end - start >= LONG && plainCells(text, view, cells, first, cell)) {
        // Long and surely clean: one copy.
        out.set(text.subarray(start, end), p);
        p += end - start;
        out[p++] = COMMA;
        continue;
      }
      if (edges) {
        // Copied while counting the bytes that may call for quotes (the commas between cells count);
        // four bytes a step, as V8 does not unroll loops.
        let specials = 0;
        let q = p;
        let i = start;
        for (; i + 4 <= end; i += 4, q += 4) {
          const a = text[i];
          const b = text[i + 1];
          const c = text[i + 2];
          const d = text[i + 3];
          specials += SPECIAL[a] + SPECIAL[b] + SPECIAL[c] + SPECIAL[d];
          out[q] = a;
          out[q + 1] = b;
          out[q + 2] = c;
          out[q + 3] = d;
        }
        for (; i < end; i++) {
          const ch = text[i];
          specials += SPECIAL[ch];
          out[q++] = ch;
        }
        if (specials === cell - first - 1) {
          out[q++] = COMMA;
          p = q;
          continue;
        }
      }
      for (let c = first; c < cell; c++) {
        const from = cells[2 * c];
        const to = cells[2 * c + 1];
        let q = quotedCell(out, p, text, from, to, single);
        if (q < 0) {
          // No room: grow for the worst case (every byte a doubled quote) and write it again.
          out = grown(out, p, 2 * (to - from) + 3);
          q = quotedCell(out, p, text, from, to, single);
        }
        p = q;
      }
    }
    if (cols > 0) out[p - 1] = NEWLINE;
    else {
      if (p + 1 > out.length) out = grown(out, p, 1);
      out[p++] = NEWLINE;
    }
  }
  return out.subarray(0, p);
}

/**
 * One cell followed by a comma: quoted (every quote inside doubled) when papaparse would quote it,
 * else as it is. Returns the position after it, or -1 when `out` lacks the room.
 */
function quotedCell(out: Uint8Array, p: number, t: Uint8Array, start: number, end: number, single: boolean): number {
  if (!needsQuotes(t, start, end, single)) {
    if (p + (end - start) + 1 > out.length) return -1;
    for (let i = start; i < end; i++) out[p++] = t[i];
    out[p++] = COMMA;
    return p;
  }
  let quotes = 0;
  for (let k = start; k < end; k++) if (t[k] === QUOTE) quotes++;
  if (p + (end - start) + quotes + 3 > out.length) return -1;
  out[p++] = QUOTE;
  for (let k = start; k < end; k++) {
    const ch = t[k];
    if (ch === QUOTE) out[p++] = QUOTE;
    out[p++] = ch;
  }
  out[p++] = QUOTE;
  out[p++] = COMMA;
  return p;
}
