/**
 * CRC-32C (Castagnoli), the checksum of full_crc32 and crc32 pages, of redo log blocks and of the
 * doublewrite buffer, in plain JavaScript (the project uses no WebAssembly).
 */

const CRC32C_POLY = 0x82f63b78;

/** Whether 32-bit words read through an Int32Array are little-endian (every host that runs this, in practice). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * The words of the buffer summed last: the redo scan sums a million short mini-transactions of one
 * 4 MiB window in a row, and a view made for each call cost more than the sum (and fed the GC).
 */
let wordsOf: ArrayBufferLike | null = null;
let wordView: Int32Array<ArrayBufferLike> = new Int32Array(0);

/** The buffer's whole 32-bit words, as one view kept from call to call. */
function wordsIn(buffer: ArrayBufferLike, endByte: number): Int32Array {
  if (buffer !== wordsOf || endByte > wordView.length * 4) {
    wordView = new Int32Array(buffer, 0, buffer.byteLength >> 2);
    wordsOf = buffer;
  }
  return wordView;
}

/** From this many bytes on, whole words are read from the buffer: below, the byte loop is as quick. */
const WORDS_FROM = 16;

/**
 * CRC-32C of b[start, end): slicing-by-16 over blocks of four whole words, slicing-by-4 over the
 * words left (its tables are the last four of slicing-by-16's), byte by byte at the ends. The redo
 * scan sums millions of mini-transactions of ~135 bytes: up to 15 bytes a byte at a time after the
 * blocks were a large share of each.
 *
 * The tables are a constant of the function's own scope, not of the module's: a bundler turns a
 * module's top-level `const` into `var` (esbuild does, for the CLI and the library), and V8 can then
 * no longer take the table for a constant in the 16 lookups of a step. The CLI's --count of LINEITEM
 * (909 MB of leaves summed) took 3.6 user-s with the tables at the top level, 2.0 with them here.
 */
export const crc32c = ((): ((b: Uint8Array, start: number, end: number) => number) => {
  /**
   * Slicing-by-16 tables: 16 × 256 entries, table s at s * 256, so the hot loop consumes 16 bytes (four
   * 32-bit words) per step. Int32 entries: the arithmetic stays in int32, no conversions to doubles.
   */
  const T = new Int32Array(16 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ CRC32C_POLY : c >>> 1;
    T[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    for (let s = 1; s < 16; s++) T[s * 256 + n] = (T[(s - 1) * 256 + n] >>> 8) ^ T[T[(s - 1) * 256 + n] & 0xff];
  }
  return (b: Uint8Array, start: number, end: number): number => {
    let crc = -1;
    let i = start;
    if (LITTLE_ENDIAN && end - start >= WORDS_FROM) {
      // Byte by byte up to a 4-byte boundary, then whole words straight from the buffer.
      for (; ((b.byteOffset + i) & 3) !== 0; i++) crc = (crc >>> 8) ^ T[(crc ^ b[i]) & 0xff];
      const words = (end - i) >> 2;
      const first = (b.byteOffset + i) >> 2;
      const w = wordsIn(b.buffer, (first + words) * 4);
      const blocks = first + ((words >> 2) << 2);
      let k = first;
      for (; k < blocks; k += 4) {
        const a = crc ^ w[k];
        const x = w[k + 1];
        const y = w[k + 2];
        const z = w[k + 3];
        crc =
          T[3840 + (a & 0xff)] ^ T[3584 + ((a >>> 8) & 0xff)] ^ T[3328 + ((a >>> 16) & 0xff)] ^ T[3072 + (a >>> 24)] ^
          T[2816 + (x & 0xff)] ^ T[2560 + ((x >>> 8) & 0xff)] ^ T[2304 + ((x >>> 16) & 0xff)] ^ T[2048 + (x >>> 24)] ^
          T[1792 + (y & 0xff)] ^ T[1536 + ((y >>> 8) & 0xff)] ^ T[1280 + ((y >>> 16) & 0xff)] ^ T[1024 + (y >>> 24)] ^
          T[768 + (z & 0xff)] ^ T[512 + ((z >>> 8) & 0xff)] ^ T[256 + ((z >>> 16) & 0xff)] ^ T[z >>> 24];
      }
      for (const last = first + words; k < last; k++) {
        const a = crc ^ w[k];
        crc = T[768 + (a & 0xff)] ^ T[512 + ((a >>> 8) & 0xff)] ^ T[256 + ((a >>> 16) & 0xff)] ^ T[a >>> 24];
      }
      i += words * 4;
    }
    for (; i < end; i++) crc = (crc >>> 8) ^ T[(crc ^ b[i]) & 0xff];
    return (crc ^ -1) >>> 0;
  };
})();
