/**
 * .xz decoder for one page: what MariaDB writes into PAGE_COMPRESSED pages with
 * innodb_compression_algorithm=lzma (lzma_easy_buffer_encode(level, LZMA_CHECK_NONE): one .xz stream
 * holding one block whose only filter is LZMA2) and reads back with lzma_stream_buffer_decode.
 *
 * Container (xz-file-format 1.1): stream header (magic FD 37 7A 58 5A 00, 2 flag bytes naming the
 * check, CRC32), blocks (header: size byte × 4, flags, optional sizes, filter flags, padding, CRC32;
 * then the LZMA2 data, zero padding to a multiple of 4, the check), then the index and the stream
 * footer. LZMA2 is a run of chunks: 0x00 ends, 0x01/0x02 an uncompressed chunk (with / without a
 * dictionary reset), 0x80-0xFF an LZMA chunk (bits 5-6: reset nothing / state / state and
 * properties / everything; 21 bits of uncompressed size - 1, 16 bits of compressed size - 1, a
 * properties byte when they are reset), each LZMA chunk with its own range coder.
 *
 * Written for pages (no pure-JS .xz decoder on npm fits: the maintained ones are WebAssembly or
 * native): the whole output is the dictionary, decoding is bounded by the output buffer and the
 * input range, and damaged data throws. Checks (CRC32/CRC64/SHA-256) are skipped, not verified, and
 * the index is not read: the decoded length must be the page size, which the caller checks.
 */

export class XzError extends Error {}

const MAGIC = [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00];
/** Check size in bytes by check id (xz-file-format 2.1.1.2). */
function checkSize(id: number): number {
  if (id === 0) return 0;
  if (id <= 3) return 4;
  if (id <= 6) return 8;
  if (id <= 9) return 16;
  if (id <= 12) return 32;
  return 64;
}

/**
 * Decodes the .xz stream src[start, end) into out; returns the number of bytes written. Bytes after
 * the stream's last block (its index, footer and any padding) are not looked at.
 */
export function xzDecode(src: Uint8Array, start: number, end: number, out: Uint8Array): number {
  let ip = start;
  if (end - start < 12) throw new XzError('the .xz stream is truncated (header)');
  for (let i = 0; i < 6; i++) if (src[ip + i] !== MAGIC[i]) throw new XzError('the data is not an .xz stream (bad magic)');
  if (src[ip + 6] !== 0 || src[ip + 7] > 15) throw new XzError('the .xz stream header has unsupported flags');
  const check = checkSize(src[ip + 7]);
  ip += 12;
  const decoder = new Lzma2Decoder(src, out);
  for (;;) {
    if (ip >= end) throw new XzError('the .xz stream is truncated (block header)');
    const headerSize = src[ip];
    if (headerSize === 0) break; // the index: no more blocks
    const blockStart = ip;
    const headerEnd = ip + (headerSize + 1) * 4;
    if (headerEnd > end) throw new XzError('the .xz stream is truncated (block header)');
    const flags = src[ip + 1];
    ip += 2;
    if (flags & 0x3c) throw new XzError('the .xz block header has unsupported flags');
    const vli = (): number => {
      let v = 0;
      for (let shift = 0; ; shift += 7) {
        if (ip >= headerEnd - 4 || shift > 49) throw new XzError('the .xz block header is damaged');
        const b = src[ip++];
        v += (b & 0x7f) * 2 ** shift;
        if (b < 0x80) return v;
      }
    };
    if (flags & 0x40) vli(); // compressed size
    if (flags & 0x80) vli(); // uncompressed size
    const filters = (flags & 3) + 1;
    if (filters !== 1) throw new XzError(`the .xz block uses ${filters} filters (only a lone LZMA2 is supported)`);
    const id = vli();
    const propsSize = vli();
    if (id !== 0x21) throw new XzError(`the .xz block uses filter 0x${id.toString(16)} (only LZMA2 is supported)`);
    if (propsSize !== 1 || ip + 1 > headerEnd - 4) throw new XzError('the .xz block has damaged LZMA2 properties');
    if (src[ip++] > 40) throw new XzError('the .xz block has an impossible LZMA2 dictionary size');
    while (ip < headerEnd - 4) if (src[ip++] !== 0) throw new XzError('the .xz block header padding is not zero');
    ip = headerEnd; // past the header's CRC32
    ip = decoder.decode(ip, end);
    while ((ip - blockStart) & 3) {
      if (ip >= end || src[ip] !== 0) throw new XzError('the .xz block padding is missing or not zero');
      ip++;
    }
    ip += check;
    if (ip > end) throw new XzError('the .xz stream is truncated (check)');
  }
  return decoder.pos;
}

// LZMA constants.
const STATES = 12;
const POS_STATES_MAX = 16;
const LEN_LOW = 8;
const LEN_MID = 8;
const LEN_HIGH = 256;
const END_POS_MODEL = 14;
const FULL_DISTANCES = 128;
const ALIGN_BITS = 4;
const MATCH_MIN = 2;

/** One length coder's probabilities: choice, choice2, low[16][8], mid[16][8], high[256]. */
const LEN_CHOICE = 0;
const LEN_CHOICE2 = 1;
const LEN_LOW_OFF = 2;
const LEN_MID_OFF = LEN_LOW_OFF + POS_STATES_MAX * LEN_LOW;
const LEN_HIGH_OFF = LEN_MID_OFF + POS_STATES_MAX * LEN_MID;
const LEN_SIZE = LEN_HIGH_OFF + LEN_HIGH;

// Offsets into the one probability array.
const IS_MATCH = 0;
const IS_REP = IS_MATCH + STATES * POS_STATES_MAX;
const IS_REP0 = IS_REP + STATES;
const IS_REP1 = IS_REP0 + STATES;
const IS_REP2 = IS_REP1 + STATES;
const IS_REP0_LONG = IS_REP2 + STATES;
const DIST_SLOT = IS_REP0_LONG + STATES * POS_STATES_MAX;
const DIST_SPECIAL = DIST_SLOT + 4 * 64;
const DIST_ALIGN = DIST_SPECIAL + FULL_DISTANCES - END_POS_MODEL;
const MATCH_LEN = DIST_ALIGN + (1 << ALIGN_BITS);
const REP_LEN = MATCH_LEN + LEN_SIZE;
const LITERAL = REP_LEN + LEN_SIZE;
/** lc + lp is at most 4 in LZMA2. */
const PROBS_SIZE = LITERAL + 0x300 * 16;

class Lzma2Decoder {
  /** Bytes written to out so far. */
  pos = 0;
  /** Where the dictionary starts (its last reset): matches may not reach before it. */
  private dictStart = 0;
  private needDictReset = true;
  private needProps = true;
  private lc = 0;
  private lp = 0;
  private pb = 0;
  private state = 0;
  private rep0 = 0;
  private rep1 = 0;
  private rep2 = 0;
  private rep3 = 0;
  private readonly probs = new Uint16Array(PROBS_SIZE);
  // Range coder.
  private range = 0;
  private code = 0;
  private ip = 0;
  private inEnd = 0;

  constructor(
    private readonly src: Uint8Array,
    private readonly out: Uint8Array,
  ) {}

  /** Decodes LZMA2 chunks from src[ip, end) up to the end marker; returns the offset past it. */
  decode(ip: number, end: number): number {
    const src = this.src;
    for (;;) {
      if (ip >= end) throw new XzError('the LZMA2 data is truncated');
      const control = src[ip++];
      if (control === 0) return ip;
      if (control === 1 || control === 2) {
        if (control === 1) this.resetDict();
        else if (this.needDictReset) throw new XzError('the LZMA2 data does not start with a dictionary reset');
        if (ip + 2 > end) throw new XzError('the LZMA2 data is truncated');
        const size = ((src[ip] << 8) | src[ip + 1]) + 1;
        ip += 2;
        if (ip + size > end) throw new XzError('the LZMA2 data is truncated (uncompressed chunk)');
        if (this.pos + size > this.out.length) throw new XzError(`the LZMA2 data decodes to more than the expected ${this.out.length} bytes`);
        this.out.set(src.subarray(ip, ip + size), this.pos);
        this.pos += size;
        ip += size;
        continue;
      }
      if (control < 0x80) throw new XzError(`the LZMA2 data has an invalid chunk type 0x${control.toString(16)}`);
      if (ip + 4 > end) throw new XzError('the LZMA2 data is truncated');
      const unpacked = ((control & 0x1f) << 16) + ((src[ip] << 8) | src[ip + 1]) + 1;
      const packed = ((src[ip + 2] << 8) | src[ip + 3]) + 1;
      ip += 4;
      const reset = (control >>> 5) & 3;
      if (reset === 3) this.resetDict();
      else if (this.needDictReset) throw new XzError('the LZMA2 data does not start with a dictionary reset');
      if (reset >= 2) {
        if (ip >= end) throw new XzError('the LZMA2 data is truncated');
        this.setProps(src[ip++]);
      } else if (this.needProps) {
        throw new XzError('the LZMA2 chunk has no LZMA properties');
      }
      if (reset >= 1) this.resetState();
      if (ip + packed > end) throw new XzError('the LZMA2 data is truncated (LZMA chunk)');
      if (this.pos + unpacked > this.out.length) throw new XzError(`the LZMA2 data decodes to more than the expected ${this.out.length} bytes`);
      this.decodeChunk(ip, ip + packed, this.pos + unpacked);
      ip += packed;
    }
  }

  private resetDict(): void {
    this.dictStart = this.pos;
    this.needDictReset = false;
  }

  private setProps(props: number): void {
    if (props >= 9 * 5 * 5) throw new XzError('the LZMA2 chunk has invalid LZMA properties');
    this.lc = props % 9;
    props = Math.floor(props / 9);
    this.lp = props % 5;
    this.pb = Math.floor(props / 5);
    if (this.lc + this.lp > 4) throw new XzError('the LZMA2 chunk has invalid LZMA properties (lc + lp > 4)');
    this.needProps = false;
  }

  private resetState(): void {
    this.state = 0;
    this.rep0 = this.rep1 = this.rep2 = this.rep3 = 0;
    this.probs.fill(1024);
  }

  // ---- range coder
  private rcInit(): void {
    if (this.ip + 5 > this.inEnd || this.src[this.ip] !== 0) throw new XzError('the LZMA chunk has a damaged range coder start');
    this.code = ((this.src[this.ip + 1] << 24) | (this.src[this.ip + 2] << 16) | (this.src[this.ip + 3] << 8) | this.src[this.ip + 4]) >>> 0;
    this.range = 0xffffffff;
    this.ip += 5;
    if (this.code === this.range) throw new XzError('the LZMA chunk has a damaged range coder start');
  }

  private normalize(): void {
    if (this.range < 0x1000000) {
      if (this.ip >= this.inEnd) throw new XzError('the LZMA chunk is truncated');
      this.range = (this.range << 8) >>> 0;
      this.code = ((this.code << 8) | this.src[this.ip++]) >>> 0;
    }
  }

  private bit(i: number): number {
    const p = this.probs[i];
    const bound = (this.range >>> 11) * p;
    let b: number;
    if (this.code < bound) {
      this.range = bound;
      this.probs[i] = p + ((2048 - p) >>> 5);
      b = 0;
    } else {
      this.range -= bound;
      this.code -= bound;
      this.probs[i] = p - (p >>> 5);
      b = 1;
    }
    this.normalize();
    return b;
  }

  private bitTree(base: number, bits: number): number {
    let m = 1;
    for (let i = 0; i < bits; i++) m = (m << 1) | this.bit(base + m);
    return m - (1 << bits);
  }

  private bitTreeReverse(base: number, bits: number): number {
    let m = 1;
    let sym = 0;
    for (let i = 0; i < bits; i++) {
      const b = this.bit(base + m);
      m = (m << 1) | b;
      sym |= b << i;
    }
    return sym;
  }

  private direct(bits: number): number {
    let v = 0;
    for (let i = 0; i < bits; i++) {
      this.range >>>= 1;
      let b = 0;
      if (this.code >= this.range) {
        this.code -= this.range;
        b = 1;
      }
      v = v * 2 + b;
      this.normalize();
    }
    return v;
  }

  private length(base: number, posState: number): number {
    if (!this.bit(base + LEN_CHOICE)) return MATCH_MIN + this.bitTree(base + LEN_LOW_OFF + posState * LEN_LOW, 3);
    if (!this.bit(base + LEN_CHOICE2)) return MATCH_MIN + LEN_LOW + this.bitTree(base + LEN_MID_OFF + posState * LEN_MID, 3);
    return MATCH_MIN + LEN_LOW + LEN_MID + this.bitTree(base + LEN_HIGH_OFF, 8);
  }

  /** One LZMA chunk: src[ip, inEnd) decodes to out[pos, outEnd) exactly. */
  private decodeChunk(ip: number, inEnd: number, outEnd: number): void {
    this.ip = ip;
    this.inEnd = inEnd;
    this.rcInit();
    const out = this.out;
    const pbMask = (1 << this.pb) - 1;
    const lpMask = (1 << this.lp) - 1;
    const lc = this.lc;
    let pos = this.pos;
    let state = this.state;
    while (pos < outEnd) {
      const posState = pos & pbMask;
      if (!this.bit(IS_MATCH + state * POS_STATES_MAX + posState)) {
        const prev = pos > this.dictStart ? out[pos - 1] : 0;
        const base = LITERAL + 0x300 * (((pos & lpMask) << lc) + (prev >>> (8 - lc)));
        let sym = 1;
        if (state < 7) {
          while (sym < 0x100) sym = (sym << 1) | this.bit(base + sym);
        } else {
          if (this.rep0 >= pos - this.dictStart) throw new XzError('an LZMA match points before the start of the data');
          let matchByte = out[pos - this.rep0 - 1];
          while (sym < 0x100) {
            const matchBit = (matchByte >>> 7) & 1;
            matchByte <<= 1;
            const b = this.bit(base + 0x100 + (matchBit << 8) + sym);
            sym = (sym << 1) | b;
            if (matchBit !== b) {
              while (sym < 0x100) sym = (sym << 1) | this.bit(base + sym);
              break;
            }
          }
        }
        out[pos++] = sym & 0xff;
        state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
        continue;
      }
      let len: number;
      if (!this.bit(IS_REP + state)) {
        // A new match.
        len = this.length(MATCH_LEN, posState);
        const lenState = Math.min(len - MATCH_MIN, 3);
        const slot = this.bitTree(DIST_SLOT + lenState * 64, 6);
        let dist: number;
        if (slot < 4) {
          dist = slot;
        } else {
          const directBits = (slot >>> 1) - 1;
          dist = (2 | (slot & 1)) * 2 ** directBits;
          if (slot < END_POS_MODEL) {
            dist += this.bitTreeReverse(DIST_SPECIAL + dist - slot - 1, directBits);
          } else {
            dist += this.direct(directBits - ALIGN_BITS) * (1 << ALIGN_BITS);
            dist += this.bitTreeReverse(DIST_ALIGN - 1, ALIGN_BITS);
          }
        }
        if (dist === 0xffffffff) throw new XzError('the LZMA chunk has an end marker (not allowed in LZMA2)');
        this.rep3 = this.rep2;
        this.rep2 = this.rep1;
        this.rep1 = this.rep0;
        this.rep0 = dist;
        state = state < 7 ? 7 : 10;
      } else if (!this.bit(IS_REP0 + state)) {
        if (!this.bit(IS_REP0_LONG + state * POS_STATES_MAX + posState)) {
          // Short rep: one byte at rep0.
          if (this.rep0 >= pos - this.dictStart) throw new XzError('an LZMA match points before the start of the data');
          state = state < 7 ? 9 : 11;
          out[pos] = out[pos - this.rep0 - 1];
          pos++;
          continue;
        }
        len = this.length(REP_LEN, posState);
        state = state < 7 ? 8 : 11;
      } else {
        let dist: number;
        if (!this.bit(IS_REP1 + state)) {
          dist = this.rep1;
        } else {
          if (!this.bit(IS_REP2 + state)) {
            dist = this.rep2;
          } else {
            dist = this.rep3;
            this.rep3 = this.rep2;
          }
          this.rep2 = this.rep1;
        }
        this.rep1 = this.rep0;
        this.rep0 = dist;
        len = this.length(REP_LEN, posState);
        state = state < 7 ? 8 : 11;
      }
      const distance = this.rep0 + 1;
      if (distance > pos - this.dictStart) throw new XzError('an LZMA match points before the start of the data');
      if (len > outEnd - pos) throw new XzError('an LZMA match runs past the end of its chunk');
      for (let k = 0; k < len; k++, pos++) out[pos] = out[pos - distance];
    }
    this.pos = pos;
    this.state = state;
    if (this.code !== 0) throw new XzError('the LZMA chunk does not end where its size says (range coder not finished)');
    if (this.ip !== inEnd) throw new XzError(`the LZMA chunk ends ${inEnd - this.ip} bytes before its recorded size`);
  }
}
