/**
 * AES-128 on one block at a time, synchronously (FIPS-197, with the usual 32-bit round tables).
 * Web Crypto (aes.ts) is asynchronous: one call costs far more than a block, which a page can bear
 * but not an encrypted redo log, whose every mini-transaction is a few blocks under its own IV.
 * The tables are computed from the field GF(2^8) at load, not written out.
 */

const SBOX = new Uint8Array(256);
const INV_SBOX = new Uint8Array(256);
// Signed 32-bit words throughout: the JIT keeps them as small integers, where unsigned ones above 2^31 would be doubles.
const TE = [new Int32Array(256), new Int32Array(256), new Int32Array(256), new Int32Array(256)];
const TD = [new Int32Array(256), new Int32Array(256), new Int32Array(256), new Int32Array(256)];

/** Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1. */
function mul(a: number, b: number): number {
  let p = 0;
  for (; b; b >>= 1) {
    if (b & 1) p ^= a;
    a = (a << 1) ^ (a & 0x80 ? 0x11b : 0);
  }
  return p;
}

const ror8 = (w: number) => (w >>> 8) | (w << 24);

(function tables() {
  // The S-box: the multiplicative inverse (0 for 0), then the affine map.
  for (let x = 0; x < 256; x++) {
    let inv = 0;
    for (let y = 1; x !== 0 && y < 256; y++) {
      if (mul(x, y) === 1) {
        inv = y;
        break;
      }
    }
    let s = inv;
    for (let r = 1; r <= 4; r++) s ^= ((inv << r) | (inv >>> (8 - r))) & 0xff;
    s ^= 0x63;
    SBOX[x] = s;
    INV_SBOX[s] = x;
  }
  for (let x = 0; x < 256; x++) {
    const s = SBOX[x];
    const i = INV_SBOX[x];
    TE[0][x] = (mul(s, 2) << 24) | (s << 16) | (s << 8) | mul(s, 3);
    TD[0][x] = (mul(i, 14) << 24) | (mul(i, 9) << 16) | (mul(i, 13) << 8) | mul(i, 11);
    for (let k = 1; k < 4; k++) {
      TE[k][x] = ror8(TE[k - 1][x]);
      TD[k][x] = ror8(TD[k - 1][x]);
    }
  }
})();

const ROUNDS = 10;

const word = (b: Uint8Array, at: number) => (b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3];
const sub = (w: number) => (SBOX[w >>> 24] << 24) | (SBOX[(w >>> 16) & 0xff] << 16) | (SBOX[(w >>> 8) & 0xff] << 8) | SBOX[w & 0xff];

/** The last round's word: each byte through the (inverse) S-box, from the four words the shift takes it from. */
function lastRound(box: Uint8Array, a: number, b: number, c: number, d: number, key: number): number {
  return ((box[a >>> 24] << 24) | (box[(b >>> 16) & 0xff] << 16) | (box[(c >>> 8) & 0xff] << 8) | box[d & 0xff]) ^ key;
}

function put(b: Uint8Array, at: number, w: number): void {
  b[at] = w >>> 24;
  b[at + 1] = (w >>> 16) & 0xff;
  b[at + 2] = (w >>> 8) & 0xff;
  b[at + 3] = w & 0xff;
}

/** An AES-128 key, expanded for encryption and for decryption (the equivalent inverse cipher). */
export class Aes128 {
  private readonly enc = new Int32Array(4 * (ROUNDS + 1));
  private readonly dec = new Int32Array(4 * (ROUNDS + 1));

  constructor(key: Uint8Array) {
    if (key.length !== 16) throw new Error(`an AES-128 key is 16 bytes, this one is ${key.length}`);
    const w = this.enc;
    for (let i = 0; i < 4; i++) w[i] = word(key, 4 * i);
    for (let i = 4, rcon = 1; i < w.length; i++) {
      let t = w[i - 1];
      if (i % 4 === 0) {
        t = sub((t << 8) | (t >>> 24)) ^ (rcon << 24);
        rcon = mul(rcon, 2);
      }
      w[i] = w[i - 4] ^ t;
    }
    // Decryption uses the round keys backwards, InvMixColumns applied to the inner ones.
    for (let r = 0; r <= ROUNDS; r++) {
      for (let c = 0; c < 4; c++) {
        const k = w[4 * (ROUNDS - r) + c];
        this.dec[4 * r + c] = r === 0 || r === ROUNDS ? k : TD[0][SBOX[k >>> 24]] ^ TD[1][SBOX[(k >>> 16) & 0xff]] ^ TD[2][SBOX[(k >>> 8) & 0xff]] ^ TD[3][SBOX[k & 0xff]];
      }
    }
  }

  /** Encrypts the block src[from, from + 16) into dst[to, to + 16) (they may be the same). */
  encryptBlock(src: Uint8Array, from: number, dst: Uint8Array, to: number): void {
    const k = this.enc;
    const t0 = TE[0], t1 = TE[1], t2 = TE[2], t3 = TE[3];
    let s0 = word(src, from) ^ k[0];
    let s1 = word(src, from + 4) ^ k[1];
    let s2 = word(src, from + 8) ^ k[2];
    let s3 = word(src, from + 12) ^ k[3];
    for (let r = 1; r < ROUNDS; r++) {
      const a = t0[s0 >>> 24] ^ t1[(s1 >>> 16) & 0xff] ^ t2[(s2 >>> 8) & 0xff] ^ t3[s3 & 0xff] ^ k[4 * r];
      const b = t0[s1 >>> 24] ^ t1[(s2 >>> 16) & 0xff] ^ t2[(s3 >>> 8) & 0xff] ^ t3[s0 & 0xff] ^ k[4 * r + 1];
      const c = t0[s2 >>> 24] ^ t1[(s3 >>> 16) & 0xff] ^ t2[(s0 >>> 8) & 0xff] ^ t3[s1 & 0xff] ^ k[4 * r + 2];
      const d = t0[s3 >>> 24] ^ t1[(s0 >>> 16) & 0xff] ^ t2[(s1 >>> 8) & 0xff] ^ t3[s2 & 0xff] ^ k[4 * r + 3];
      s0 = a;
      s1 = b;
      s2 = c;
      s3 = d;
    }
    const f = 4 * ROUNDS;
    put(dst, to, lastRound(SBOX, s0, s1, s2, s3, k[f]));
    put(dst, to + 4, lastRound(SBOX, s1, s2, s3, s0, k[f + 1]));
    put(dst, to + 8, lastRound(SBOX, s2, s3, s0, s1, k[f + 2]));
    put(dst, to + 12, lastRound(SBOX, s3, s0, s1, s2, k[f + 3]));
  }

  /** Decrypts the block src[from, from + 16) into dst[to, to + 16) (they may be the same). */
  decryptBlock(src: Uint8Array, from: number, dst: Uint8Array, to: number): void {
    const k = this.dec;
    const t0 = TD[0], t1 = TD[1], t2 = TD[2], t3 = TD[3];
    let s0 = word(src, from) ^ k[0];
    let s1 = word(src, from + 4) ^ k[1];
    let s2 = word(src, from + 8) ^ k[2];
    let s3 = word(src, from + 12) ^ k[3];
    for (let r = 1; r < ROUNDS; r++) {
      const a = t0[s0 >>> 24] ^ t1[(s3 >>> 16) & 0xff] ^ t2[(s2 >>> 8) & 0xff] ^ t3[s1 & 0xff] ^ k[4 * r];
      const b = t0[s1 >>> 24] ^ t1[(s0 >>> 16) & 0xff] ^ t2[(s3 >>> 8) & 0xff] ^ t3[s2 & 0xff] ^ k[4 * r + 1];
      const c = t0[s2 >>> 24] ^ t1[(s1 >>> 16) & 0xff] ^ t2[(s0 >>> 8) & 0xff] ^ t3[s3 & 0xff] ^ k[4 * r + 2];
      const d = t0[s3 >>> 24] ^ t1[(s2 >>> 16) & 0xff] ^ t2[(s1 >>> 8) & 0xff] ^ t3[s0 & 0xff] ^ k[4 * r + 3];
      s0 = a;
      s1 = b;
      s2 = c;
      s3 = d;
    }
    const f = 4 * ROUNDS;
    put(dst, to, lastRound(INV_SBOX, s0, s3, s2, s1, k[f]));
    put(dst, to + 4, lastRound(INV_SBOX, s1, s0, s3, s2, k[f + 1]));
    put(dst, to + 8, lastRound(INV_SBOX, s2, s1, s0, s3, k[f + 2]));
    put(dst, to + 12, lastRound(INV_SBOX, s3, s2, s1, s0, k[f + 3]));
  }
}
