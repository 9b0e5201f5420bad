/**
 * LZ4 block format decoder (the format of LZ4_compress_default, as written into pages by MySQL's
 * transparent page compression and MariaDB's PAGE_COMPRESSED with innodb_compression_algorithm=lz4).
 * A block is a run of sequences: a token (high nibble literal count, low nibble match length - 4,
 * 15 meaning "more length bytes follow, each added, until one is not 255"), the literals, then a
 * 2-byte little-endian match offset. The last sequence has literals only.
 */

export class Lz4Error extends Error {}

/**
 * Decodes src[start, end) into out[0, out.length); returns the number of bytes written. The block
 * must end exactly at `end` (trailing bytes mean a wrong length or damaged data).
 */
export function lz4DecodeBlock(src: Uint8Array, start: number, end: number, out: Uint8Array): number {
  let ip = start;
  let op = 0;
  const outEnd = out.length;
  const readLength = (n: number): number => {
    if (n !== 15) return n;
    for (;;) {
      if (ip >= end) throw new Lz4Error('the LZ4 block is truncated (length)');
      const b = src[ip++];
      n += b;
      if (b !== 255) return n;
    }
  };
  while (ip < end) {
    const token = src[ip++];
    const literals = readLength(token >>> 4);
    if (ip + literals > end) throw new Lz4Error('the LZ4 block is truncated (literals)');
    if (op + literals > outEnd) throw new Lz4Error(`the LZ4 data decodes to more than the expected ${outEnd} bytes`);
    out.set(src.subarray(ip, ip + literals), op);
    ip += literals;
    op += literals;
    if (ip === end) break; // the last sequence carries literals only
    if (ip + 2 > end) throw new Lz4Error('the LZ4 block is truncated (offset)');
    const offset = src[ip] | (src[ip + 1] << 8);
    ip += 2;
    if (offset === 0 || offset > op) throw new Lz4Error('an LZ4 match points before the start of the data');
    const len = readLength(token & 15) + 4;
    if (op + len > outEnd) throw new Lz4Error(`the LZ4 data decodes to more than the expected ${outEnd} bytes`);
    // Byte by byte: an offset shorter than the length repeats the bytes just written.
    for (let k = 0; k < len; k++, op++) out[op] = out[op - offset];
  }
  return op;
}
