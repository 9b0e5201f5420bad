/**
 * The synchronous AES-128 the encrypted redo log is decrypted with (src/core/codecs/aes128.ts):
 * FIPS-197's example, and random blocks against Web Crypto (the platform's AES).
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AesKey } from '../../src/core/codecs/aes.ts';
import { Aes128 } from '../../src/core/codecs/aes128.ts';

const hex = (s: string) => Uint8Array.from(Buffer.from(s, 'hex'));

describe('Aes128', () => {
  it('encrypts and decrypts FIPS-197 appendix C.1', () => {
    const aes = new Aes128(hex('000102030405060708090a0b0c0d0e0f'));
    const block = hex('00112233445566778899aabbccddeeff');
    const out = new Uint8Array(16);
    aes.encryptBlock(block, 0, out, 0);
    expect(Buffer.from(out).toString('hex')).toBe('69c4e0d86a7b0430d8cd b780 70b4c55a'.replace(/ /g, ''));
    aes.decryptBlock(out, 0, out, 0);
    expect(out).toEqual(block);
  });

  it('agrees with Web Crypto on random keys and blocks, at any offset', async () => {
    for (let n = 0; n < 20; n++) {
      const key = Uint8Array.from(randomBytes(16));
      const block = Uint8Array.from(randomBytes(16));
      const expected = await (await AesKey.import(key)).encryptBlock(block);
      const buf = new Uint8Array(40);
      buf.set(block, 7);
      const aes = new Aes128(key);
      aes.encryptBlock(buf, 7, buf, 20);
      expect(buf.subarray(20, 36)).toEqual(expected);
      aes.decryptBlock(buf, 20, buf, 3);
      expect(buf.subarray(3, 19)).toEqual(block);
    }
  });
});
