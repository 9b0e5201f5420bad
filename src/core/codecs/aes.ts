/**
 * The AES operations InnoDB encryption needs, built on Web Crypto (crypto.subtle: browsers and
 * Node 20). Web Crypto only offers padded CBC, CTR and GCM, so:
 *  - one ECB block is a CBC encryption of that block with a zero IV (the first output block);
 *  - CBC decryption without padding appends a forged final block that decrypts to a full block of
 *    PKCS#7 padding (16 × 0x10), which Web Crypto then strips.
 * Chrome refuses 192-bit AES keys; such a key gives a clear error there (Node accepts it).
 */

export class AesError extends Error {}

export const AES_BLOCK = 16;

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new AesError('this environment has no Web Crypto (crypto.subtle), which decryption needs; in a browser it requires a secure context (https or localhost)');
  return s;
}

/** Copies into a fresh ArrayBuffer-backed array (Web Crypto rejects views of shared or larger buffers in some engines). */
function own(b: Uint8Array): Uint8Array<ArrayBuffer> {
  const c = new Uint8Array(b.length);
  c.set(b);
  return c;
}

export class AesKey {
  private constructor(
    readonly length: number,
    private readonly cbc: CryptoKey,
    private readonly ctrKey: CryptoKey,
  ) {}

  static async import(raw: Uint8Array): Promise<AesKey> {
    if (raw.length !== 16 && raw.length !== 24 && raw.length !== 32) throw new AesError(`an AES key is 16, 24 or 32 bytes, this one is ${raw.length}`);
    try {
      const bytes = own(raw);
      const cbc = await subtle().importKey('raw', bytes, { name: 'AES-CBC' }, false, ['encrypt', 'decrypt']);
      const ctr = await subtle().importKey('raw', bytes, { name: 'AES-CTR' }, false, ['encrypt', 'decrypt']);
      return new AesKey(raw.length, cbc, ctr);
    } catch (e) {
      if (e instanceof AesError) throw e;
      throw new AesError(`this environment cannot use a ${raw.length * 8}-bit AES key (${(e as Error).message})`);
    }
  }

  /** AES encryption of one 16-byte block (ECB). */
  async encryptBlock(block: Uint8Array): Promise<Uint8Array> {
    const out = await subtle().encrypt({ name: 'AES-CBC', iv: new Uint8Array(AES_BLOCK) }, this.cbc, own(block.subarray(0, AES_BLOCK)));
    return new Uint8Array(out, 0, AES_BLOCK);
  }

  /** ECB encryption of whole blocks (each block independently). */
  async encryptEcb(data: Uint8Array): Promise<Uint8Array> {
    if (data.length % AES_BLOCK) throw new AesError('ECB data must be whole 16-byte blocks');
    const out = new Uint8Array(data.length);
    for (let i = 0; i < data.length; i += AES_BLOCK) out.set(await this.encryptBlock(data.subarray(i, i + AES_BLOCK)), i);
    return out;
  }

  /** ECB decryption of whole blocks: each block is a one-block CBC decryption with a zero IV. */
  async decryptEcb(data: Uint8Array): Promise<Uint8Array> {
    if (data.length % AES_BLOCK) throw new AesError('ECB data must be whole 16-byte blocks');
    const out = new Uint8Array(data.length);
    const zero = new Uint8Array(AES_BLOCK);
    for (let i = 0; i < data.length; i += AES_BLOCK) out.set(await this.decryptCbc(data.subarray(i, i + AES_BLOCK), zero), i);
    return out;
  }

  /** CBC decryption of whole blocks, without padding. */
  async decryptCbc(data: Uint8Array, iv: Uint8Array): Promise<Uint8Array> {
    if (data.length % AES_BLOCK) throw new AesError('CBC data must be whole 16-byte blocks');
    if (data.length === 0) return new Uint8Array(0);
    const last = data.subarray(data.length - AES_BLOCK);
    // E(last ⊕ padding): decrypting it after `last` yields the padding block, which is then removed.
    const pad = new Uint8Array(AES_BLOCK).fill(AES_BLOCK);
    const forged = await subtle().encrypt({ name: 'AES-CBC', iv: own(last) }, this.cbc, pad);
    const input = new Uint8Array(data.length + AES_BLOCK);
    input.set(data);
    input.set(new Uint8Array(forged, 0, AES_BLOCK), data.length);
    try {
      return new Uint8Array(await subtle().decrypt({ name: 'AES-CBC', iv: own(iv.subarray(0, AES_BLOCK)) }, this.cbc, input));
    } catch (e) {
      throw new AesError(`AES-CBC decryption failed: ${(e as Error).message}`);
    }
  }

  /** CTR mode with a 128-bit big-endian counter starting at `counter` (OpenSSL's EVP_aes_*_ctr). */
  async ctr(data: Uint8Array, counter: Uint8Array): Promise<Uint8Array> {
    return new Uint8Array(await subtle().encrypt({ name: 'AES-CTR', counter: own(counter.subarray(0, AES_BLOCK)), length: 128 }, this.ctrKey, own(data)));
  }
}

export async function sha1(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest('SHA-1', own(data)));
}

export async function sha256(data: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await subtle().digest('SHA-256', own(data)));
}

/** Padded (PKCS#7) AES-CBC decryption, as `openssl enc -d` does. */
export async function decryptCbcPadded(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const k = await subtle().importKey('raw', own(key), { name: 'AES-CBC' }, false, ['decrypt']);
  return new Uint8Array(await subtle().decrypt({ name: 'AES-CBC', iv: own(iv) }, k, own(data)));
}
