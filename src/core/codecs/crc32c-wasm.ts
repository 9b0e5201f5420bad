/**
 * CRC-32C's slicing-by-16 loop as a WebAssembly function, assembled here from its instructions (no
 * binary blob): in WebAssembly the 16 table lookups per step cost no bounds checks and the words come
 * straight from memory, about 3× the JavaScript loop (~0.7 GB/s per core), which made the checksum
 * of every page most of a row count's work. crc32c.ts falls back to JavaScript where WebAssembly is
 * missing or refused (a Content-Security-Policy without 'wasm-unsafe-eval').
 *
 * Memory: the 16 tables of 256 little-endian words from byte 0 (table s at s × 1024), then the bytes
 * to checksum from DATA on; the caller copies them there, CHUNK bytes at most per call.
 */

/** Where the bytes to checksum go in the module's memory (after the 16 KiB of tables). */
export const DATA = 16 * 1024;
/** The most bytes one call takes (a 64 KiB page, the largest, in one call). */
export const CHUNK = 64 * 1024;
/** 64 KiB WebAssembly pages: the tables and one chunk. */
const MEMORY_PAGES = 2;

// The instructions used (WebAssembly core specification, 5.4 Instructions).
const BLOCK = 0x02;
const LOOP = 0x03;
const VOID = 0x40;
const BR = 0x0c;
const BR_IF = 0x0d;
const END = 0x0b;
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const I32_LOAD = 0x28;
const I32_LOAD8_U = 0x2d;
const I32_CONST = 0x41;
const I32_EQZ = 0x45;
const I32_LT_U = 0x49;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_AND = 0x71;
const I32_XOR = 0x73;
const I32_SHL = 0x74;
const I32_SHR_U = 0x76;
const I32 = 0x7f;

/** Unsigned LEB128 (also right for the non-negative i32.const values used here below 2^6). */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 of an i32 constant. */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

// Locals: the parameters (pointer, length, running crc), then the four words of a step.
const P = 0;
const N = 1;
const C = 2;
const WORDS = [3, 4, 5, 6];

/**
 * The table entry of byte `b` (0 lowest) of local `w`, from table `table`: the byte's offset in
 * that table (byte × 4) is computed with one shift and one mask, the table's start is the load's
 * constant offset.
 */
function lookup(w: number, b: number, table: number): number[] {
  const shift = 8 * b - 2;
  const index = shift < 0 ? [LOCAL_GET, w, I32_CONST, ...sleb(2), I32_SHL] : [LOCAL_GET, w, I32_CONST, ...sleb(shift), I32_SHR_U];
  return [...index, I32_CONST, ...sleb(0x3fc), I32_AND, I32_LOAD, 2, ...leb(table * 1024)];
}

/** crc(p, n, c): c (the running, inverted CRC) carried over n bytes at p; returns it. */
function body(): number[] {
  const step: number[] = [];
  // The four words of 16 bytes, the first xored with the running crc.
  for (let k = 0; k < 4; k++) {
    step.push(LOCAL_GET, P, I32_LOAD, 2, ...leb(4 * k));
    if (k === 0) step.push(LOCAL_GET, C, I32_XOR);
    step.push(LOCAL_SET, WORDS[k]);
  }
  // Byte b of word k comes 4k + b bytes into the step: table 15 - (4k + b).
  for (let k = 0; k < 4; k++) {
    for (let b = 0; b < 4; b++) {
      step.push(...lookup(WORDS[k], b, 15 - (4 * k + b)));
      if (k + b > 0) step.push(I32_XOR);
    }
  }
  step.push(LOCAL_SET, C);
  step.push(LOCAL_GET, P, I32_CONST, ...sleb(16), I32_ADD, LOCAL_SET, P);
  step.push(LOCAL_GET, N, I32_CONST, ...sleb(16), I32_SUB, LOCAL_SET, N);
  const wide = [
    BLOCK, VOID, LOOP, VOID,
    LOCAL_GET, N, I32_CONST, ...sleb(16), I32_LT_U, BR_IF, 1,
    ...step,
    BR, 0, END, END,
  ];
  // The last bytes one at a time: c = (c >>> 8) ^ T0[(c ^ byte) & 0xff].
  const narrow = [
    BLOCK, VOID, LOOP, VOID,
    LOCAL_GET, N, I32_EQZ, BR_IF, 1,
    LOCAL_GET, C, I32_CONST, ...sleb(8), I32_SHR_U,
    LOCAL_GET, C, LOCAL_GET, P, I32_LOAD8_U, 0, 0, I32_XOR, I32_CONST, ...sleb(2), I32_SHL, I32_CONST, ...sleb(0x3fc), I32_AND, I32_LOAD, 2, 0,
    I32_XOR, LOCAL_SET, C,
    LOCAL_GET, P, I32_CONST, ...sleb(1), I32_ADD, LOCAL_SET, P,
    LOCAL_GET, N, I32_CONST, ...sleb(1), I32_SUB, LOCAL_SET, N,
    BR, 0, END, END,
  ];
  return [1, 4, I32, ...wide, ...narrow, LOCAL_GET, C, END];
}

function section(id: number, content: number[]): number[] {
  return [id, ...leb(content.length), ...content];
}

const name = (s: string): number[] => [s.length, ...Array.from(s, (ch) => ch.charCodeAt(0))];

/** The module: one function `crc` and its memory `mem`, both exported. */
export function crc32cModuleBytes(): Uint8Array<ArrayBuffer> {
  const code = body();
  const bytes = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, [1, 0x60, 3, I32, I32, I32, 1, I32]), // type 0: (i32, i32, i32) -> i32
    ...section(3, [1, 0]), // function 0 has type 0
    ...section(5, [1, 0, MEMORY_PAGES]), // one memory, MEMORY_PAGES pages at least
    ...section(7, [2, ...name('crc'), 0x00, 0, ...name('mem'), 0x02, 0]),
    ...section(10, [1, ...leb(code.length), ...code]),
  ];
  return new Uint8Array(bytes);
}
