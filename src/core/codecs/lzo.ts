/**
 * LZO1X decoder: the format of lzo1x_1_15_compress (and every other LZO1X compressor), which MariaDB
 * writes into PAGE_COMPRESSED pages with innodb_compression_algorithm=lzo and reads back with
 * lzo1x_decompress_safe. Like that function, every read and write is bounds-checked: damaged data
 * throws, it never reads past `end` or writes past the output buffer.
 *
 * The stream is a run of instructions; the low 2 bits of the last distance byte of a match (or of an
 * M1/M2 token) give 0-3 literals copied before the next instruction. Tokens (t = first byte):
 *   0-15   after a match: M1, a 2-byte match at distance 1 + (t >> 2) + (next << 2) (3 bytes at
 *          2049 + … right after a literal run); otherwise a literal run of t + 3 bytes (t = 0: 15 +
 *          the extension bytes: each 0 adds 255, the first non-zero one ends it)
 *   16-31  M4: length (t & 7) + 2 (0: 7 + extension + 2), distance 16384 + ((t & 8) << 11) + 14
 *          bits; distance 16384 exactly ends the stream (the 0x11 0x00 0x00 trailer)
 *   32-63  M3: length (t & 31) + 2 (0: 31 + extension + 2), distance 1 + 14 bits (little-endian,
 *          the 2 low bits being the trailing literal count)
 *   64-255 M2: length (t >> 5) + 1, distance 1 + ((t >> 2) & 7) + (next << 3)
 * A first byte above 17 is a literal run of (byte - 17) bytes.
 */

export class LzoError extends Error {}

/**
 * Decodes the LZO1X stream src[start, end) into out; returns the number of bytes written. The stream
 * must end with its end-of-stream marker exactly at `end`.
 */
export function lzo1xDecode(src: Uint8Array, start: number, end: number, out: Uint8Array): number {
  let ip = start;
  let op = 0;
  const outEnd = out.length;
  const next = (): number => {
    if (ip >= end) throw new LzoError('the LZO stream is truncated');
    return src[ip++];
  };
  /** A length extension: zero bytes add 255 each, then the first non-zero byte is added to `base`. */
  const extension = (base: number): number => {
    let n = base;
    for (;;) {
      const b = next();
      if (b !== 0) return n + b;
      n += 255;
      if (n > outEnd) throw new LzoError('an LZO length runs past the end of the page');
    }
  };
  const literals = (n: number): void => {
    if (ip + n > end) throw new LzoError('the LZO stream is truncated (literals)');
    if (op + n > outEnd) throw new LzoError(`the LZO data decodes to more than the expected ${outEnd} bytes`);
    out.set(src.subarray(ip, ip + n), op);
    ip += n;
    op += n;
  };
  const copyMatch = (distance: number, len: number): void => {
    if (distance > op) throw new LzoError('an LZO match points before the start of the data');
    if (op + len > outEnd) throw new LzoError(`the LZO data decodes to more than the expected ${outEnd} bytes`);
    // Byte by byte: a distance shorter than the length repeats the bytes just written.
    for (let k = 0; k < len; k++, op++) out[op] = out[op - distance];
  };

  // Whether the previous instruction was a literal run (then a token below 16 is a 3-byte match).
  let afterLiterals: boolean;
  let t = next();
  if (t > 17) {
    t -= 17;
    literals(t);
    // 1-3 literals act as the trailing literals of a match; 4 or more as a literal run.
    afterLiterals = t >= 4;
    t = next();
  } else if (t < 16) {
    literals(t === 0 ? extension(15) + 3 : t + 3);
    afterLiterals = true;
    t = next();
  } else {
    afterLiterals = false;
  }

  for (;;) {
    // Here t is the token of a match (or, after a match with no trailing literals, possibly a literal run).
    let trailing: number;
    if (t >= 64) {
      const d = next();
      copyMatch(1 + ((t >>> 2) & 7) + (d << 3), (t >>> 5) + 1);
      trailing = t & 3;
    } else if (t >= 32) {
      let len = t & 31;
      if (len === 0) len = extension(31);
      const d0 = next();
      const d1 = next();
      copyMatch(1 + (d0 >>> 2) + (d1 << 6), len + 2);
      trailing = d0 & 3;
    } else if (t >= 16) {
      let len = t & 7;
      if (len === 0) len = extension(7);
      const d0 = next();
      const d1 = next();
      const distance = ((t & 8) << 11) + (d0 >>> 2) + (d1 << 6);
      if (distance === 0) {
        if (ip !== end) throw new LzoError(`the LZO stream ends ${end - ip} bytes before the recorded length`);
        return op;
      }
      copyMatch(distance + 0x4000, len + 2);
      trailing = d0 & 3;
    } else if (afterLiterals) {
      // Right after a literal run: a 3-byte match at distance 2049 + ….
      const d = next();
      copyMatch(1 + 0x800 + (t >>> 2) + (d << 2), 3);
      trailing = t & 3;
    } else {
      const d = next();
      copyMatch(1 + (t >>> 2) + (d << 2), 2);
      trailing = t & 3;
    }
    if (trailing) {
      literals(trailing);
      afterLiterals = false;
      t = next();
    } else {
      t = next();
      if (t < 16) {
        literals(t === 0 ? extension(15) + 3 : t + 3);
        afterLiterals = true;
        t = next();
      } else {
        afterLiterals = false;
      }
    }
  }
}
