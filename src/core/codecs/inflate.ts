/**
 * A DEFLATE (RFC 1951) and zlib (RFC 1950) decoder, written for InnoDB's uses of zlib:
 *  - ROW_FORMAT=COMPRESSED pages need more than the inflated bytes: the first deflate block holds the
 *    index field descriptions (the engine inflates it with Z_BLOCK) and the page modification log
 *    starts right after the zlib stream, so the caller must learn where each block ended and how many
 *    input bytes the stream took. Stock inflaters (fflate, DecompressionStream) report neither.
 *  - MariaDB PAGE_COMPRESSED, MySQL transparent page compression and compressed BLOB chains are plain
 *    zlib streams of a known output size.
 * Synchronous and allocation-light: output goes into a caller-sized buffer, Huffman codes are decoded
 * through one lookup table per tree (indexed by the next `maxLen` bits of the stream).
 */

export class InflateError extends Error {}

export interface InflateResult {
  /** Bytes written to the output. */
  outLength: number;
  /** Offset in the input just past the stream (past the Adler-32 trailer for zlib). */
  inEnd: number;
  /** Output offset at the end of each deflate block, in order. */
  blockEnds: number[];
}

/** Lengths base / extra bits for length symbols 257..285 (RFC 1951 3.2.5). */
const LEN_BASE = new Uint16Array([3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]);
const LEN_EXTRA = new Uint8Array([0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]);
const DIST_BASE = new Uint16Array([1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]);
const DIST_EXTRA = new Uint8Array([0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]);
/** Order in which code length code lengths are sent (RFC 1951 3.2.7). */
const CL_ORDER = new Uint8Array([16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]);

/** A Huffman decoding table: entry = symbol << 4 | code length, 0 for an unused code. */
interface Huffman {
  table: Int32Array;
  maxLen: number;
}

function reverseBits(code: number, len: number): number {
  let r = 0;
  for (let i = 0; i < len; i++) {
    r = (r << 1) | (code & 1);
    code >>>= 1;
  }
  return r;
}

/** Builds the table of a canonical Huffman code from its code lengths (0 = symbol unused). */
function buildHuffman(lengths: Uint8Array, n: number): Huffman {
  const count = new Uint16Array(16);
  let maxLen = 0;
  for (let i = 0; i < n; i++) {
    count[lengths[i]]++;
    if (lengths[i] > maxLen) maxLen = lengths[i];
  }
  count[0] = 0;
  // Over-subscribed codes are invalid; incomplete ones are allowed (a single distance code is common).
  let left = 1;
  for (let len = 1; len <= 15; len++) {
    left = (left << 1) - count[len];
    if (left < 0) throw new InflateError('invalid Huffman code (over-subscribed)');
  }
  const next = new Uint16Array(16);
  for (let len = 1, code = 0; len <= 15; len++) {
    code = (code + count[len - 1]) << 1;
    next[len] = code;
  }
  const bits = Math.max(1, maxLen);
  const table = new Int32Array(1 << bits);
  for (let sym = 0; sym < n; sym++) {
    const len = lengths[sym];
    if (len === 0) continue;
    // Deflate packs Huffman codes most-significant bit first into a least-significant-first stream,
    // so the table is indexed by the bit-reversed code; every longer index ending in it decodes to it.
    const rev = reverseBits(next[len]++, len);
    for (let j = rev; j < table.length; j += 1 << len) table[j] = (sym << 4) | len;
  }
  return { table, maxLen: bits };
}

let fixedLit: Huffman | null = null;
let fixedDist: Huffman | null = null;

function fixedTables(): [Huffman, Huffman] {
  if (!fixedLit || !fixedDist) {
    const l = new Uint8Array(288);
    l.fill(8, 0, 144);
    l.fill(9, 144, 256);
    l.fill(7, 256, 280);
    l.fill(8, 280, 288);
    fixedLit = buildHuffman(l, 288);
    fixedDist = buildHuffman(new Uint8Array(30).fill(5), 30);
  }
  return [fixedLit, fixedDist];
}

/**
 * Inflates a raw deflate stream from src[start, end) into out[outStart, out.length). Throws
 * InflateError on malformed data, on running out of input, or when the output would not fit.
 */
export function inflateRaw(src: Uint8Array, start: number, end: number, out: Uint8Array, outStart = 0): InflateResult {
  let pos = start;
  let bitBuf = 0;
  let bitCnt = 0;
  let op = outStart;
  const outEnd = out.length;
  const blockEnds: number[] = [];
  // Bytes past `end` read as zeros so that the bit buffer can always be topped up; reading any of
  // them for real is caught by the `overrun` check below.
  const need = (n: number): void => {
    while (bitCnt < n) {
      bitBuf |= (pos < end ? src[pos] : 0) << bitCnt;
      pos++;
      bitCnt += 8;
    }
  };
  const bits = (n: number): number => {
    need(n);
    const v = bitBuf & ((1 << n) - 1);
    bitBuf >>>= n;
    bitCnt -= n;
    return v;
  };
  const overrun = (): boolean => pos - (bitCnt >> 3) > end;
  const decode = (h: Huffman): number => {
    need(h.maxLen);
    const e = h.table[bitBuf & ((1 << h.maxLen) - 1)];
    const len = e & 15;
    if (len === 0) throw new InflateError('invalid Huffman code in the stream');
    bitBuf >>>= len;
    bitCnt -= len;
    return e >> 4;
  };

  let final = 0;
  while (!final) {
    final = bits(1);
    const type = bits(2);
    if (type === 0) {
      // Stored block: skip to a byte boundary, then LEN and its one's complement.
      bitBuf >>>= bitCnt & 7;
      bitCnt -= bitCnt & 7;
      const len = bits(16);
      const nlen = bits(16);
      if ((len ^ 0xffff) !== nlen) throw new InflateError('stored block length check failed');
      // The bit buffer is empty at a byte boundary here (it held exactly the 4 length bytes).
      pos -= bitCnt >> 3;
      bitBuf = 0;
      bitCnt = 0;
      if (pos + len > end) throw new InflateError('the compressed stream is truncated (stored block)');
      if (op + len > outEnd) throw new InflateError(`the data inflates to more than the expected ${outEnd - outStart} bytes`);
      out.set(src.subarray(pos, pos + len), op);
      pos += len;
      op += len;
    } else if (type === 1 || type === 2) {
      let lit: Huffman;
      let dist: Huffman;
      if (type === 1) {
        [lit, dist] = fixedTables();
      } else {
        const hlit = bits(5) + 257;
        const hdist = bits(5) + 1;
        const hclen = bits(4) + 4;
        const clLens = new Uint8Array(19);
        for (let i = 0; i < hclen; i++) clLens[CL_ORDER[i]] = bits(3);
        const cl = buildHuffman(clLens, 19);
        const lens = new Uint8Array(hlit + hdist);
        for (let i = 0; i < hlit + hdist;) {
          const sym = decode(cl);
          if (sym < 16) {
            lens[i++] = sym;
            continue;
          }
          let repeat: number;
          let value = 0;
          if (sym === 16) {
            if (i === 0) throw new InflateError('a code length repeat has nothing to repeat');
            value = lens[i - 1];
            repeat = 3 + bits(2);
          } else if (sym === 17) {
            repeat = 3 + bits(3);
          } else {
            repeat = 11 + bits(7);
          }
          if (i + repeat > hlit + hdist) throw new InflateError('code lengths overflow the alphabet');
          lens.fill(value, i, i + repeat);
          i += repeat;
        }
        if (lens[256] === 0) throw new InflateError('the block has no end-of-block code');
        lit = buildHuffman(lens.subarray(0, hlit), hlit);
        dist = buildHuffman(lens.subarray(hlit), hdist);
      }
      for (;;) {
        const sym = decode(lit);
        if (sym < 256) {
          if (op >= outEnd) throw new InflateError(`the data inflates to more than the expected ${outEnd - outStart} bytes`);
          out[op++] = sym;
        } else if (sym === 256) {
          break;
        } else {
          const li = sym - 257;
          if (li >= 29) throw new InflateError('invalid length symbol');
          const len = LEN_BASE[li] + bits(LEN_EXTRA[li]);
          const di = decode(dist);
          if (di >= 30) throw new InflateError('invalid distance symbol');
          const d = DIST_BASE[di] + bits(DIST_EXTRA[di]);
          if (d > op - outStart) throw new InflateError('a back-reference points before the start of the data');
          if (op + len > outEnd) throw new InflateError(`the data inflates to more than the expected ${outEnd - outStart} bytes`);
          // Byte by byte: the source may overlap the bytes being written (run-length copies).
          for (let k = 0; k < len; k++, op++) out[op] = out[op - d];
        }
        if (overrun()) throw new InflateError('the compressed stream is truncated');
      }
    } else {
      throw new InflateError('invalid deflate block type 3');
    }
    if (overrun()) throw new InflateError('the compressed stream is truncated');
    blockEnds.push(op);
  }
  // Unused whole bytes in the bit buffer were read ahead: give them back.
  return { outLength: op - outStart, inEnd: pos - (bitCnt >> 3), blockEnds };
}

export function adler32(b: Uint8Array, start: number, end: number, initial = 1): number {
  let s1 = initial & 0xffff;
  let s2 = initial >>> 16;
  for (let i = start; i < end;) {
    // 3800 bytes keep s2 below 2^31 before the modulo.
    const stop = Math.min(end, i + 3800);
    for (; i < stop; i++) {
      s1 += b[i];
      s2 += s1;
    }
    s1 %= 65521;
    s2 %= 65521;
  }
  return ((s2 << 16) | s1) >>> 0;
}

/**
 * Inflates a zlib stream (2-byte header, deflate data, big-endian Adler-32 of the output) from
 * src[start, end) into `out`. The checksum is verified: a mismatch means damaged data.
 */
export function inflateZlib(src: Uint8Array, start: number, end: number, out: Uint8Array, outStart = 0): InflateResult {
  if (end - start < 6) throw new InflateError('the zlib stream is too short');
  const cmf = src[start];
  const flg = src[start + 1];
  if ((cmf & 15) !== 8 || ((cmf << 8) | flg) % 31 !== 0) throw new InflateError('not a zlib stream (bad header)');
  if (flg & 0x20) throw new InflateError('zlib streams with a preset dictionary are not supported');
  const r = inflateRaw(src, start + 2, end, out, outStart);
  if (r.inEnd + 4 > end) throw new InflateError('the zlib stream is truncated (no checksum)');
  const stored = ((src[r.inEnd] << 24) | (src[r.inEnd + 1] << 16) | (src[r.inEnd + 2] << 8) | src[r.inEnd + 3]) >>> 0;
  if (stored !== adler32(out, outStart, outStart + r.outLength)) throw new InflateError('the zlib checksum does not match (damaged data)');
  return { ...r, inEnd: r.inEnd + 4 };
}
