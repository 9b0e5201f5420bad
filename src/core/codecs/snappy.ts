/**
 * Snappy raw-format decoder (snappy_compress / snappy_uncompress, as MariaDB writes PAGE_COMPRESSED
 * pages with innodb_compression_algorithm=snappy). The stream starts with the uncompressed length
 * as a little-endian base-128 varint, then elements whose tag's low 2 bits say:
 *   0  literal: length (tag >> 2) + 1, or for 60-63 the next 1-4 bytes (little-endian) + 1
 *   1  copy: length ((tag >> 2) & 7) + 4, offset ((tag >> 5) << 8) | next byte
 *   2  copy: length (tag >> 2) + 1, 2-byte little-endian offset
 *   3  copy: length (tag >> 2) + 1, 4-byte little-endian offset
 * Bounded: damaged data throws; nothing is read past `end` or written past the output buffer.
 * (snappyjs decodes into a buffer it allocates from the stream's own length, lets reads past the
 * input end through as `undefined` and drops writes past the output, so it does not say when a
 * stream is damaged; this decoder is as small and does.)
 */

export class SnappyError extends Error {}

/**
 * Decodes the Snappy stream src[start, end) into out; returns the number of bytes written. The
 * stream's recorded length must be out.length and the stream must end exactly at `end`.
 */
export function snappyDecode(src: Uint8Array, start: number, end: number, out: Uint8Array): number {
  let ip = start;
  const outEnd = out.length;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (ip >= end) throw new SnappyError('the Snappy stream is truncated (length)');
    if (shift > 28) throw new SnappyError('the Snappy stream has an impossible length');
    const b = src[ip++];
    length += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  if (length !== outEnd) throw new SnappyError(`the Snappy stream records ${length} bytes, expected ${outEnd}`);
  let op = 0;
  while (ip < end) {
    const tag = src[ip++];
    const kind = tag & 3;
    if (kind === 0) {
      let len = (tag >>> 2) + 1;
      if (len > 60) {
        const n = len - 60;
        if (ip + n > end) throw new SnappyError('the Snappy stream is truncated (literal length)');
        len = 0;
        for (let k = n - 1; k >= 0; k--) len = len * 256 + src[ip + k];
        len += 1;
        ip += n;
      }
      if (len > end - ip) throw new SnappyError('the Snappy stream is truncated (literal)');
      if (len > outEnd - op) throw new SnappyError(`the Snappy data decodes to more than the expected ${outEnd} bytes`);
      out.set(src.subarray(ip, ip + len), op);
      ip += len;
      op += len;
      continue;
    }
    let len: number;
    let offset: number;
    if (kind === 1) {
      if (ip + 1 > end) throw new SnappyError('the Snappy stream is truncated (copy)');
      len = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | src[ip];
      ip += 1;
    } else if (kind === 2) {
      if (ip + 2 > end) throw new SnappyError('the Snappy stream is truncated (copy)');
      len = (tag >>> 2) + 1;
      offset = src[ip] | (src[ip + 1] << 8);
      ip += 2;
    } else {
      if (ip + 4 > end) throw new SnappyError('the Snappy stream is truncated (copy)');
      len = (tag >>> 2) + 1;
      offset = (src[ip] | (src[ip + 1] << 8) | (src[ip + 2] << 16) | (src[ip + 3] << 24)) >>> 0;
      ip += 4;
    }
    if (offset === 0 || offset > op) throw new SnappyError('a Snappy copy points before the start of the data');
    if (len > outEnd - op) throw new SnappyError(`the Snappy data decodes to more than the expected ${outEnd} bytes`);
    // Byte by byte: an offset shorter than the length repeats the bytes just written.
    for (let k = 0; k < len; k++, op++) out[op] = out[op - offset];
  }
  return op;
}
