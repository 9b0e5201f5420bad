/**
 * bzip2 decoder for one page: what MariaDB writes into PAGE_COMPRESSED pages with
 * innodb_compression_algorithm=bzip2 (BZ2_bzBuffToBuffCompress with blockSize100k = 1) and reads
 * back with BZ2_bzBuffToBuffDecompress.
 *
 * Stream: "BZh" + level digit; blocks, each: 48-bit magic 0x314159265359, CRC, randomised bit,
 * 24-bit BWT origin pointer, the map of bytes used, 2-6 Huffman tables chosen per 50 symbols by
 * MTF-coded selectors, then the symbols (RUNA/RUNB bijective run lengths of the MTF front, MTF
 * positions, end of block); the block is undone by MTF, the inverse Burrows-Wheeler transform and
 * the initial run-length stage (4 equal bytes + a count byte); the stream ends with 48-bit magic
 * 0x177245385090 and the combined CRC. Bits are read most significant first.
 *
 * Written for pages (the pure-JS bzip2 decoders on npm either need Node's Buffer or are
 * unmaintained forks): decoding is bounded by the output buffer and the input range, block and
 * stream CRCs are verified, and damaged data throws.
 */

export class Bzip2Error extends Error {}

/** CRC-32 as bzip2 computes it (polynomial 0x04C11DB7, most significant bit first). */
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    t[i] = c >>> 0;
  }
  return t;
})();

const MAX_GROUPS = 6;
const MAX_CODE_LEN = 20;
const GROUP_SIZE = 50;

interface HuffmanTable {
  /** For each code length: the first canonical code of that length, count, and offset in `symbols`. */
  first: Int32Array;
  count: Int32Array;
  offset: Int32Array;
  symbols: Uint16Array;
  minLen: number;
}

/**
 * Decodes the bzip2 stream src[start, end) into out; returns the number of bytes written. Bytes
 * after the end-of-stream marker are not looked at (as BZ2_bzBuffToBuffDecompress).
 */
export function bzip2Decode(src: Uint8Array, start: number, end: number, out: Uint8Array): number {
  let ip = start;
  let bitBuf = 0;
  let bitCount = 0;
  /** The next n bits (n <= 16: the buffer then stays below 2^24, a small integer for the engine). */
  const bits = (n: number): number => {
    while (bitCount < n) {
      if (ip >= end) throw new Bzip2Error('the bzip2 stream is truncated');
      bitBuf = ((bitBuf << 8) | src[ip++]) & 0xffffff;
      bitCount += 8;
    }
    bitCount -= n;
    return (bitBuf >>> bitCount) & ((1 << n) - 1);
  };
  const bit = (): number => bits(1);

  if (bits(8) !== 0x42 || bits(8) !== 0x5a || bits(8) !== 0x68) throw new Bzip2Error('the data is not a bzip2 stream (bad magic)');
  const level = bits(8) - 0x30;
  if (level < 1 || level > 9) throw new Bzip2Error('the bzip2 stream has an invalid block size');
  const maxBlock = level * 100000;

  let op = 0;
  let combinedCrc = 0;
  const mtf = new Uint8Array(256);
  const symToByte = new Uint8Array(256);
  for (;;) {
    const magicHi = (bits(16) << 8) | bits(8);
    const magicLo = (bits(16) << 8) | bits(8);
    const crc = ((bits(16) << 16) | bits(16)) >>> 0;
    if (magicHi === 0x177245 && magicLo === 0x385090) {
      if (crc !== combinedCrc) throw new Bzip2Error('the bzip2 stream CRC does not match');
      return op;
    }
    if (magicHi !== 0x314159 || magicLo !== 0x265359) throw new Bzip2Error('the bzip2 stream has a damaged block header');
    if (bit()) throw new Bzip2Error('the bzip2 block is randomised (an obsolete format)');
    const origPtr = (bits(16) << 8) | bits(8);

    // The bytes used in the block.
    const used16 = bits(16);
    let nInUse = 0;
    for (let i = 0; i < 16; i++) {
      if (!(used16 & (0x8000 >>> i))) continue;
      const used = bits(16);
      for (let j = 0; j < 16; j++) if (used & (0x8000 >>> j)) symToByte[nInUse++] = i * 16 + j;
    }
    if (nInUse === 0) throw new Bzip2Error('the bzip2 block uses no bytes');
    const alphaSize = nInUse + 2;
    const eob = nInUse + 1;

    const nGroups = bits(3);
    if (nGroups < 2 || nGroups > MAX_GROUPS) throw new Bzip2Error('the bzip2 block has an invalid number of Huffman tables');
    const nSelectors = bits(15);
    if (nSelectors < 1) throw new Bzip2Error('the bzip2 block has no selectors');
    const selectorMtf = [0, 1, 2, 3, 4, 5];
    const selectors = new Uint8Array(nSelectors);
    for (let i = 0; i < nSelectors; i++) {
      let j = 0;
      while (bit()) if (++j >= nGroups) throw new Bzip2Error('the bzip2 block has an invalid selector');
      const v = selectorMtf[j];
      for (; j > 0; j--) selectorMtf[j] = selectorMtf[j - 1];
      selectorMtf[0] = v;
      selectors[i] = v;
    }

    const tables: HuffmanTable[] = [];
    const lengths = new Uint8Array(alphaSize);
    for (let g = 0; g < nGroups; g++) {
      let len = bits(5);
      for (let s = 0; s < alphaSize; s++) {
        for (;;) {
          if (len < 1 || len > MAX_CODE_LEN) throw new Bzip2Error('the bzip2 block has an invalid Huffman code length');
          if (!bit()) break;
          len += bit() ? -1 : 1;
        }
        lengths[s] = len;
      }
      tables.push(huffmanTable(lengths, alphaSize));
    }

    // The symbols, MTF and run lengths undone into the block's bytes (before the inverse BWT).
    const cap = Math.min(maxBlock, out.length - op + ((out.length - op) >>> 2) + 1);
    const block = new Uint8Array(cap);
    let n = 0;
    for (let i = 0; i < 256; i++) mtf[i] = i;
    let run = 0;
    let runWeight = 1;
    let groupLeft = 0;
    let selector = 0;
    let table = tables[0];
    for (;;) {
      if (groupLeft === 0) {
        if (selector >= nSelectors) throw new Bzip2Error('the bzip2 block runs past its selectors');
        table = tables[selectors[selector++]];
        groupLeft = GROUP_SIZE;
      }
      groupLeft--;
      // Canonical Huffman decoding, one bit at a time.
      let code = bits(table.minLen);
      let len = table.minLen;
      let sym: number;
      for (;;) {
        const k = code - table.first[len];
        if (k >= 0 && k < table.count[len]) {
          sym = table.symbols[table.offset[len] + k];
          break;
        }
        if (++len > MAX_CODE_LEN) throw new Bzip2Error('the bzip2 block has an invalid Huffman code');
        code = (code << 1) | bit();
      }
      if (sym <= 1) {
        // RUNA (0) adds the weight, RUNB (1) twice the weight; the weight doubles.
        run += runWeight << sym;
        runWeight <<= 1;
        if (run > cap) throw new Bzip2Error(`the bzip2 data decodes to more than the expected ${out.length} bytes`);
        continue;
      }
      if (run > 0) {
        if (n + run > cap) throw new Bzip2Error(`the bzip2 data decodes to more than the expected ${out.length} bytes`);
        block.fill(symToByte[mtf[0]], n, n + run);
        n += run;
        run = 0;
        runWeight = 1;
      }
      if (sym === eob) break;
      // MTF position sym - 1 moves to the front.
      let p = sym - 1;
      const v = mtf[p];
      if (p > 16) mtf.copyWithin(1, 0, p);
      else for (; p > 0; p--) mtf[p] = mtf[p - 1];
      mtf[0] = v;
      if (n >= cap) throw new Bzip2Error(`the bzip2 data decodes to more than the expected ${out.length} bytes`);
      block[n++] = symToByte[v];
    }
    if (origPtr >= n) throw new Bzip2Error('the bzip2 block has an invalid origin pointer');

    // Inverse BWT: tt[i] is the position following i in the original order.
    const counts = new Int32Array(256);
    for (let i = 0; i < n; i++) counts[block[i]]++;
    for (let i = 0, sum = 0; i < 256; i++) {
      const c = counts[i];
      counts[i] = sum;
      sum += c;
    }
    const tt = new Uint32Array(n);
    for (let i = 0; i < n; i++) tt[counts[block[i]]++] = i;

    // Undo the initial run-length stage while walking the BWT chain.
    let blockCrc = 0xffffffff;
    let pos = tt[origPtr];
    let last = -1;
    let same = 0;
    for (let i = 0; i < n; i++) {
      const b = block[pos];
      pos = tt[pos];
      if (same === 4) {
        if (op + b > out.length) throw new Bzip2Error(`the bzip2 data decodes to more than the expected ${out.length} bytes`);
        for (let k = 0; k < b; k++) {
          out[op++] = last;
          blockCrc = ((blockCrc << 8) ^ CRC_TABLE[(blockCrc >>> 24) ^ last]) >>> 0;
        }
        same = 0;
        last = -1;
        continue;
      }
      if (b === last) same++;
      else {
        last = b;
        same = 1;
      }
      if (op >= out.length) throw new Bzip2Error(`the bzip2 data decodes to more than the expected ${out.length} bytes`);
      out[op++] = b;
      blockCrc = ((blockCrc << 8) ^ CRC_TABLE[(blockCrc >>> 24) ^ b]) >>> 0;
    }
    blockCrc = ~blockCrc >>> 0;
    if (blockCrc !== crc) throw new Bzip2Error('the bzip2 block CRC does not match');
    combinedCrc = (((combinedCrc << 1) | (combinedCrc >>> 31)) ^ blockCrc) >>> 0;
  }
}

/** Canonical Huffman decoding tables from code lengths (symbols ordered by length, then value). */
function huffmanTable(lengths: Uint8Array, alphaSize: number): HuffmanTable {
  const count = new Int32Array(MAX_CODE_LEN + 2);
  let minLen = MAX_CODE_LEN;
  for (let s = 0; s < alphaSize; s++) {
    count[lengths[s]]++;
    if (lengths[s] < minLen) minLen = lengths[s];
  }
  const first = new Int32Array(MAX_CODE_LEN + 2);
  const offset = new Int32Array(MAX_CODE_LEN + 2);
  for (let len = 1, code = 0, off = 0; len <= MAX_CODE_LEN; len++) {
    first[len] = code;
    offset[len] = off;
    code = (code + count[len]) << 1;
    off += count[len];
  }
  const symbols = new Uint16Array(alphaSize);
  const fill = offset.slice();
  for (let s = 0; s < alphaSize; s++) symbols[fill[lengths[s]]++] = s;
  return { first, count, offset, symbols, minLen };
}
