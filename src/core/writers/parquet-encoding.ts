/**
 * The byte encodings of Parquet pages that parquet-chunk.ts writes: PLAIN values and the RLE /
 * bit-packed hybrid (definition levels, dictionary indexes), into a reused buffer that grows by
 * doubling, checked once per value or group rather than per byte.
 *
 * The hybrid makes the choices hyparquet-writer's encoder makes (encoding.js), so that a column
 * chunk written here is the same bytes as one written by the library: from each position, a run of
 * 8 or more equal values is an RLE run; otherwise the next 8 values join a bit-packed run (the last
 * group padded with zeros), flushed when an RLE run comes or the values end.
 */

/** A growing byte buffer, reused page after page (`length = 0`). */
export class PageBytes {
  bytes = new Uint8Array(1 << 16);
  length = 0;
  #view = new DataView(this.bytes.buffer);

  /** Room for `n` more bytes. */
  room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
    this.#view = new DataView(grown.buffer);
  }

  /** The bytes written (a view: valid until the next write). */
  view(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  varint(v: number): void {
    this.room(5);
    while (v > 0x7f) {
      this.bytes[this.length++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.bytes[this.length++] = v;
  }

  int32(v: number): void {
    this.room(4);
    this.#view.setInt32(this.length, v, true);
    this.length += 4;
  }

  /** A whole number of at most 53 bits as a little-endian INT64. */
  int64(v: number): void {
    this.room(8);
    if (v >= -0x8000_0000 && v < 0x8000_0000) {
      // Most values: the low word is the value, the high one its sign (no division).
      this.#view.setInt32(this.length, v, true);
      this.#view.setInt32(this.length + 4, v < 0 ? -1 : 0, true);
      this.length += 8;
      return;
    }
    const low = v % 0x1_0000_0000;
    this.#view.setInt32(this.length, low, true);
    this.#view.setInt32(this.length + 4, (v - low) / 0x1_0000_0000 - (low < 0 ? 1 : 0), true);
    this.length += 8;
  }

  /** A BYTE_ARRAY value in PLAIN: its length, then src[start, end) (`words`: a view of src). */
  byteArray(src: Uint8Array, words: DataView, start: number, end: number): void {
    const length = end - start;
    this.room(4 + length);
    const view = this.#view;
    view.setUint32(this.length, length, true);
    const at = this.length + 4;
    // Short values four bytes a step: a subarray to copy from would be an object per value.
    if (length < 64) {
      let k = 0;
      for (; k + 4 <= length; k += 4) view.setInt32(at + k, words.getInt32(start + k, true), true);
      for (; k < length; k++) this.bytes[at + k] = src[start + k];
    } else this.bytes.set(src.subarray(start, end), at);
    this.length = at + length;
  }
}

/** The bits needed for values up to `max` (0 for 0), as hyparquet-writer's ceil(log2(max + 1)). */
export function bitWidth(max: number): number {
  return max === 0 ? 0 : 32 - Math.clz32(max);
}

/**
 * values[from, n) (whole numbers below 2^bits) in the RLE / bit-packed hybrid at the end of `out`
 * (no length prefix); the bytes written.
 */
export function writeHybrid(out: PageBytes, values: Int32Array, from: number, n: number, bits: number): number {
  const begin = out.length;
  let packedStart = from;
  let packedGroups = 0;
  let i = from;
  while (i < n) {
    const v = values[i];
    let run = 1;
    while (i + run < n && values[i + run] === v) run++;
    if (run >= 8) {
      if (packedGroups > 0) writePacked(out, values, n, packedStart, packedGroups, bits);
      packedGroups = 0;
      out.varint(run * 2);
      out.room(4);
      for (let shift = 0; shift < bits; shift += 8) out.bytes[out.length++] = (v >>> shift) & 0xff;
      i += run;
    } else {
      if (packedGroups === 0) packedStart = i;
      packedGroups++;
      i += 8;
    }
  }
  if (packedGroups > 0) writePacked(out, values, n, packedStart, packedGroups, bits);
  return out.length - begin;
}

/** `groups` groups of 8 values from values[start] (zeros past n), bit-packed LSB first after their header. */
function writePacked(out: PageBytes, values: Int32Array, n: number, start: number, groups: number, bits: number): void {
  out.varint(groups * 2 + 1);
  if (bits === 0) return;
  out.room(groups * bits + 1);
  const bytes = out.bytes;
  let at = out.length;
  const mask = (1 << bits) - 1;
  let acc = 0;
  let used = 0;
  const end = start + groups * 8;
  for (let i = start; i < end; i++) {
    // With bits ≤ 24 and fewer than 8 bits pending, acc never overflows its 32 bits.
    acc |= (i < n ? values[i] & mask : 0) << used;
    used += bits;
    while (used >= 8) {
      bytes[at++] = acc & 0xff;
      acc >>>= 8;
      used -= 8;
    }
  }
  if (used > 0) bytes[at++] = acc & 0xff;
  out.length = at;
}
