/**
 * The keys a user gives for encrypted tablespaces and logs, and the files they come in:
 *  - MariaDB's file_key_management key file: lines `id;hexkey`, plain or encrypted with a password;
 *  - MySQL's keyring_file: "Keyring file version:x.0", then per key five 8-byte little-endian lengths
 *    (entry, id, type, user, key), the strings, the key bytes XORed with "*305=Ljt0*!@$Hnm(*-9-w;:",
 *    padding to 8 bytes; then "EOF" (and a SHA-256 of everything before in version 2.0).
 */
import { decryptCbcPadded, sha1 } from '../codecs/aes.ts';

/** Keys the user supplies for encrypted tablespaces. */
export interface EncryptionKeys {
  /** MariaDB file_key_management keys: key id → key (16, 24 or 32 bytes); see parseKeyFile(). */
  mariadb?: ReadonlyMap<number, Uint8Array>;
  /** MariaDB cipher, when known (file_key_management_encryption_algorithm); else it is detected. */
  mariadbAlgorithm?: 'aes_cbc' | 'aes_ctr';
  /** MySQL keyring entries: key id (e.g. INNODBKey-<uuid>-1) → key bytes; see parseMysqlKeyring(). */
  mysql?: ReadonlyMap<string, Uint8Array>;
}

/** A key that is missing, wrong or unreadable: the message says which and what to supply. */
export class EncryptionError extends Error {}

const KEYRING_XOR = '*305=Ljt0*!@$Hnm(*-9-w;:';

/** Parses a file_key_management key file: `id;hex` lines, `#` comments. */
export function parseKeyFile(text: string): Map<number, Uint8Array> {
  const keys = new Map<number, Uint8Array>();
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const m = /^(\d+)\s*;\s*([0-9a-fA-F]+)\s*$/.exec(line);
    if (!m) throw new EncryptionError(`key file line ${i + 1} is not "<key id>;<hex key>"`);
    const h = m[2];
    if (h.length !== 32 && h.length !== 48 && h.length !== 64) throw new EncryptionError(`key file line ${i + 1}: key ${m[1]} has ${h.length * 4} bits; keys are 128, 192 or 256 bits`);
    const key = new Uint8Array(h.length / 2);
    for (let k = 0; k < key.length; k++) key[k] = parseInt(h.slice(2 * k, 2 * k + 2), 16);
    keys.set(Number(m[1]), key);
  });
  return keys;
}

/**
 * A key file as the plugin reads it: plain text, or encrypted with a password
 * (file_key_management_filekey: `openssl enc -aes-256-cbc -md sha1 -k <password>`, a "Salted__"
 * header and 8-byte salt, key and IV from EVP_BytesToKey with SHA-1, one round).
 */
export async function loadKeyFile(bytes: Uint8Array, password?: string): Promise<Map<number, Uint8Array>> {
  const salted = bytes.length >= 16 && new TextDecoder('latin1').decode(bytes.subarray(0, 8)) === 'Salted__';
  if (!salted) return parseKeyFile(new TextDecoder().decode(bytes));
  if (password === undefined || password === '') throw new EncryptionError('the key file is encrypted (it starts with "Salted__"): give the password (file_key_management_filekey)');
  const salt = bytes.subarray(8, 16);
  const pw = new TextEncoder().encode(password);
  let material = new Uint8Array(0);
  let prev = new Uint8Array(0);
  while (material.length < 48) {
    const input = new Uint8Array(prev.length + pw.length + salt.length);
    input.set(prev);
    input.set(pw, prev.length);
    input.set(salt, prev.length + pw.length);
    prev = new Uint8Array(await sha1(input));
    const grown = new Uint8Array(material.length + prev.length);
    grown.set(material);
    grown.set(prev, material.length);
    material = grown;
  }
  const wrong = 'the key file does not decrypt with this password';
  let plain: Uint8Array;
  try {
    plain = await decryptCbcPadded(material.subarray(0, 32), material.subarray(32, 48), bytes.subarray(16));
  } catch {
    throw new EncryptionError(wrong);
  }
  // A wrong password still ends in valid padding about once in 256 tries; what it
  // yields is then noise, so anything but key lines means the password is wrong.
  let keys: Map<number, Uint8Array>;
  try {
    keys = parseKeyFile(new TextDecoder().decode(plain));
  } catch {
    throw new EncryptionError(wrong);
  }
  if (keys.size === 0) throw new EncryptionError(wrong);
  return keys;
}

/** Reads a MySQL keyring_file (versions 1.0 and 2.0) into key id → key bytes (de-obfuscated). */
export function parseMysqlKeyring(bytes: Uint8Array): Map<string, Uint8Array> {
  const header = new TextDecoder('latin1').decode(bytes.subarray(0, 24));
  if (!/^Keyring file version:[12]\.0$/.test(header)) throw new EncryptionError('this is not a MySQL keyring_file (it does not start with "Keyring file version:1.0" or "2.0")');
  const keys = new Map<string, Uint8Array>();
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = (o: number): number => {
    const v = dv.getBigUint64(o, true);
    if (v > BigInt(bytes.length)) throw new EncryptionError('the keyring file is damaged (a length runs past its end)');
    return Number(v);
  };
  const text = (o: number, n: number): string => new TextDecoder().decode(bytes.subarray(o, o + n));
  let p = 24;
  for (;;) {
    if (p + 3 <= bytes.length && text(p, 3) === 'EOF') return keys;
    if (p + 40 > bytes.length) throw new EncryptionError('the keyring file is truncated (no EOF marker)');
    const pod = len(p);
    const idLen = len(p + 8);
    const typeLen = len(p + 16);
    const userLen = len(p + 24);
    const keyLen = len(p + 32);
    let q = p + 40;
    if (pod < 40 || p + pod > bytes.length || q + idLen + typeLen + userLen + keyLen > p + pod) throw new EncryptionError('the keyring file is damaged (an entry does not fit)');
    const id = text(q, idLen);
    q += idLen + typeLen + userLen;
    const key = bytes.slice(q, q + keyLen);
    for (let i = 0; i < key.length; i++) key[i] ^= KEYRING_XOR.charCodeAt(i % KEYRING_XOR.length);
    keys.set(id, key);
    p += pod;
  }
}
