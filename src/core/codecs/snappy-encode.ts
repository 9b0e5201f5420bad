/**
 * Snappy raw-format encoder (the format snappy.ts decodes), for Parquet's SNAPPY pages. The greedy
 * match search of the reference compressor (snappy.cc: a hash of the next 4 bytes, lookups spaced
 * out further the longer no match is found, each match extended byte by byte), over the whole input
 * with offsets up to 65,535 as hyparquet-writer's compressor does, so its output is the same bytes;
 * but written straight into one buffer of the worst case's size instead of byte by byte through a
 * growing writer, which made Snappy about a third of a Parquet export's time.
 */

const MAX_HASH_BITS = 14;
const MAX_OFFSET = 0xffff;
/** The search stops this close to the end; the rest is one literal. */
const INPUT_MARGIN = 15;

/** Hash tables by size (bits), reused call after call. */
const tables: (Int32Array | undefined)[] = [];

const hash = (w: number, shift: number): number => Math.imul(w, 0x1e35a7bd) >>> shift;

/** The output buffer of `shared` calls, kept from call to call. */
let sharedOut = new Uint8Array(0);

/**
 * The Snappy stream of `input`. With `shared`, it is written into a buffer kept for the next such
 * call (no allocation per page): the view returned is good until then, for a caller that copies it
 * out at once.
 */
export function snappyEncode(input: Uint8Array, shared = false): Uint8Array {
  const n = input.length;
  // The format's worst case (snappy.cc MaxCompressedLength): 32 + n + n / 6.
  const worst = 32 + n + Math.ceil(n / 6);
  if (shared && sharedOut.length < worst) sharedOut = new Uint8Array(Math.max(worst, sharedOut.length * 2));
  const out = shared ? sharedOut : new Uint8Array(worst);
  let op = 0;
  for (let v = n; ; v = Math.floor(v / 128)) {
    if (v < 128) {
      out[op++] = v;
      break;
    }
    out[op++] = (v & 0x7f) | 0x80;
  }
  op = compress(input, out, op);
  return out.subarray(0, op);
}

function compress(input: Uint8Array, out: Uint8Array, op: number): number {
  const n = input.length;
  // Words read whole (one load each, not four bytes put together). Every word read lies within the
  // input: the search stops 15 bytes before its end, and a match is extended by words only while a
  // whole one is left.
  const words = new DataView(input.buffer, input.byteOffset, n);
  let bits = 1;
  while (1 << bits <= n && bits <= MAX_HASH_BITS) bits++;
  bits--;
  const shift = 32 - bits;
  const table = (tables[bits] ??= new Int32Array(1 << bits));
  table.fill(0);
  let nextEmit = 0;
  if (n >= INPUT_MARGIN) {
    const limit = n - INPUT_MARGIN;
    let ip = 1;
    let nextWord = words.getInt32(ip, true);
    for (;;) {
      // Look for a match, each lookup further on the longer none is found (skip >>> 5 bytes); the
      // word hashed for the next lookup is kept to compare with its candidate (a lookup past the
      // limit is not made: the search ends there).
      let skip = 32;
      let nextIp = ip;
      let candidate = 0;
      let word = 0;
      do {
        ip = nextIp;
        word = nextWord;
        nextIp = ip + (skip++ >>> 5);
        if (ip > limit) return literal(input, nextEmit, n, out, op);
        nextWord = nextIp <= limit ? words.getInt32(nextIp, true) : 0;
        const h = hash(word, shift);
        candidate = table[h];
        table[h] = ip;
      } while (ip - candidate > MAX_OFFSET || word !== words.getInt32(candidate, true));
      op = literal(input, nextEmit, ip, out, op);
      // Copies for as long as the bytes right after one match again.
      do {
        const base = ip;
        const matched = matchLength(input, words, ip, candidate);
        ip += matched;
        op = copy(out, op, base - candidate, matched);
        nextEmit = ip;
        if (ip >= limit) return literal(input, nextEmit, n, out, op);
        table[hash(words.getInt32(ip - 1, true), shift)] = ip - 1;
        word = words.getInt32(ip, true);
        const h = hash(word, shift);
        candidate = table[h];
        table[h] = ip;
      } while (ip - candidate <= MAX_OFFSET && word === words.getInt32(candidate, true));
      ip++;
      nextWord = words.getInt32(ip, true);
    }
  }
  return literal(input, nextEmit, n, out, op);
}

/**
 * The length of the match at ip of the bytes at candidate, whose first 4 bytes are known to match:
 * four bytes a step while they all match, then the bytes the first differing word still shares (its
 * lowest zero bytes of the two words' XOR), byte by byte in the last 3.
 */
function matchLength(input: Uint8Array, words: DataView, ip: number, candidate: number): number {
  const n = input.length;
  let matched = 4;
  while (ip + matched + 4 <= n) {
    const x = words.getInt32(ip + matched, true) ^ words.getInt32(candidate + matched, true);
    if (x !== 0) return matched + ((31 - Math.clz32(x & -x)) >>> 3);
    matched += 4;
  }
  while (ip + matched < n && input[ip + matched] === input[candidate + matched]) matched++;
  return matched;
}

/** A literal of input[from, to) (nothing when empty); returns the position after it. */
function literal(input: Uint8Array, from: number, to: number, out: Uint8Array, op: number): number {
  const len = to - from;
  if (len === 0) return op;
  if (len <= 60) out[op++] = (len - 1) << 2;
  else {
    const v = len - 1;
    const bytes = v < 0x100 ? 1 : v < 0x10000 ? 2 : v < 0x1000000 ? 3 : 4;
    out[op++] = (59 + bytes) << 2;
    for (let i = 0; i < bytes; i++) out[op++] = v >>> (8 * i);
  }
  if (len < 16) for (let i = 0; i < len; i++) out[op + i] = input[from + i];
  else out.set(input.subarray(from, to), op);
  return op + len;
}

/** Copies of `len` bytes from `offset` back, in pieces of at most 64; returns the position after them. */
function copy(out: Uint8Array, op: number, offset: number, len: number): number {
  while (len >= 68) {
    op = shortCopy(out, op, offset, 64);
    len -= 64;
  }
  if (len > 64) {
    op = shortCopy(out, op, offset, 60);
    len -= 60;
  }
  return shortCopy(out, op, offset, len);
}

/** One copy element of 4 to 64 bytes: the 2-byte form when it fits, else the 3-byte one. */
function shortCopy(out: Uint8Array, op: number, offset: number, len: number): number {
  if (len < 12 && offset < 2048) {
    out[op++] = 1 + ((len - 4) << 2) + ((offset >>> 8) << 5);
    out[op++] = offset & 0xff;
    return op;
  }
  out[op++] = 2 + ((len - 1) << 2);
  out[op++] = offset & 0xff;
  out[op++] = offset >>> 8;
  return op;
}
