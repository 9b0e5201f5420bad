/**
 * The password-encrypted key file (file_key_management_filekey), as `openssl enc -aes-256-cbc
 * -md sha1 -k <password>` writes it. The server reads such a file in page-transforms.test.ts;
 * here a wrong password that happens to end in valid padding, which a random salt meets about
 * once in 256 runs.
 */
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadKeyFile } from '../src/core/tablespace/encryption.ts';

const KEYS = '1;a7addd9adea9978fda19f21e6be987880e68ac92632ca052e5bb42b1a506939a\n2;49c16acc2dffe616710c9ba9a10b94944a737de1beccb52dc1560abfdd67388b\n';
const SALT = Buffer.from('0123456789abcdef', 'hex');

/** Key and IV as EVP_BytesToKey makes them with SHA-1 and one round. */
function keyAndIv(password: string): { key: Buffer; iv: Buffer } {
  let material = Buffer.alloc(0);
  for (let d = Buffer.alloc(0); material.length < 48;) {
    d = createHash('sha1').update(Buffer.concat([d, Buffer.from(password), SALT])).digest();
    material = Buffer.concat([material, d]);
  }
  return { key: material.subarray(0, 32), iv: material.subarray(32, 48) };
}

function encrypt(text: string, password: string): Uint8Array {
  const { key, iv } = keyAndIv(password);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return new Uint8Array(Buffer.concat([Buffer.from('Salted__'), SALT, cipher.update(text), cipher.final()]));
}

/** Whether this password decrypts the file to bytes with valid PKCS#7 padding. */
function paddingHolds(file: Uint8Array, password: string): boolean {
  const { key, iv } = keyAndIv(password);
  const decipher = createDecipheriv('aes-256-cbc', key, iv);
  decipher.update(file.subarray(16));
  try {
    decipher.final();
    return true;
  } catch {
    return false;
  }
}

describe('a password-encrypted key file', () => {
  const file = encrypt(KEYS, 'open-sesame');

  it('gives its keys for the right password, and asks for one when none is given', async () => {
    const keys = await loadKeyFile(file, 'open-sesame');
    expect([...keys.keys()]).toEqual([1, 2]);
    expect(Buffer.from(keys.get(2)!).toString('hex')).toBe(KEYS.split('\n')[1].slice(2));
    await expect(loadKeyFile(file)).rejects.toThrow(/give the password/);
  });

  it('says the password is wrong when a wrong one breaks the padding', async () => {
    const wrong = Array.from({ length: 50 }, (_, i) => `wrong-${i}`).find((p) => !paddingHolds(file, p))!;
    await expect(loadKeyFile(file, wrong)).rejects.toThrow(/does not decrypt with this password/);
  });

  it('says the password is wrong when a wrong one ends in valid padding (noise instead of key lines)', async () => {
    const wrong = Array.from({ length: 20_000 }, (_, i) => `wrong-${i}`).find((p) => paddingHolds(file, p));
    expect(wrong).toBeDefined();
    await expect(loadKeyFile(file, wrong)).rejects.toThrow(/does not decrypt with this password/);
  });
});
