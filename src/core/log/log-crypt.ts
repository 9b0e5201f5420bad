/**
 * An encrypted MariaDB redo log (innodb_encrypt_log=ON; log0crypt.cc log_crypt_read_header,
 * log_decrypt_mtr). After the header block's creator string (offset 48) the server writes the key
 * id (always 1), the key version, a random 16-byte message and a 4-byte nonce; the log's own key is
 * that message encrypted (AES-ECB) with that version of key 1 from the key management plugin
 * (file_key_management's key file): 16 bytes, so the log is AES-128 whatever the key file's size.
 *
 * FORMAT_ENC_11 (the format word 0xf09f979d, from MariaDB 10.11.x and 11.x on): in each
 * mini-transaction, the bytes after each record's type-and-length bytes (page identifiers
 * included) form one stream, encrypted with the plugin's cipher under the IV made of the 8-byte
 * nonce written after the termination byte, then the first record's type and length bytes
 * (zero-padded). The cipher is file_key_management's AES-CBC without padding (whole blocks chained,
 * the tail XORed with AES(key, IV)) or AES-CTR, which the log does not record: the first
 * mini-transactions tell, as only the right one decrypts them into well-formed records. The CRC-32C
 * covers the encrypted bytes and the nonce, so it is checked before decryption. Decrypted with the
 * synchronous AES-128 (codecs/aes128.ts): a log has far more mini-transactions than a call to Web
 * Crypto could bear each.
 */
import { AesError, AesKey } from '../codecs/aes.ts';
import { Aes128 } from '../codecs/aes128.ts';
import { u32 } from '../pages/fil-header.ts';
import type { EncryptionKeys } from '../tablespace/encryption.ts';
import { FILE_CHECKPOINT, FREE_PAGE, INIT_PAGE, MEMMOVE, MEMSET, MtrRecords, recordBodyAt, recordEnd, RESERVED, varint, varintLength, WRITE } from './mtr-records.ts';

/** The encryption information's place in the header block (LOG_HEADER_CREATOR_END). */
export const CRYPT_INFO = 48;
/** The key id a redo log is always encrypted with (LOG_DEFAULT_ENCRYPTION_KEY). */
const LOG_KEY_ID = 1;
/** A mini-transaction's trailer in an encrypted log: termination byte, nonce, CRC-32C. */
export const ENCRYPTED_TRAILER = 1 + 8 + 4;

type Cipher = 'aes_cbc' | 'aes_ctr';

/** Decrypts the mini-transactions of one FORMAT_ENC_11 log. */
export class LogCrypt {
  /** Unknown until a mini-transaction decrypts well-formed with only one of them. */
  private cipher: Cipher | null;
  private readonly walk = new MtrRecords(new Uint8Array(0));

  private constructor(
    private readonly key: Aes128,
    cipher: Cipher | undefined,
  ) {
    this.cipher = cipher ?? null;
  }

  /**
   * The decryption of the log whose header block is `head`, with the user's keys; or why it cannot
   * be decrypted (no key file, no key 1 in it, a key version file_key_management does not have).
   */
  static async open(head: Uint8Array, keys: EncryptionKeys | undefined): Promise<LogCrypt | string> {
    const keyId = u32(head, CRYPT_INFO);
    const version = u32(head, CRYPT_INFO + 4);
    if (keyId !== LOG_KEY_ID) return `its header names encryption key ${keyId}, not key ${LOG_KEY_ID} as MariaDB writes`;
    const key = keys?.mariadb?.get(LOG_KEY_ID);
    if (key === undefined) {
      const given = keys?.mariadb ? ` (the key file given has no key ${LOG_KEY_ID})` : ' (give the file_key_management key file with --key-file)';
      return `it is encrypted (innodb_encrypt_log) with key ${LOG_KEY_ID} of the key management plugin${given}`;
    }
    if (version !== 1) return `it is encrypted with version ${version} of key ${LOG_KEY_ID}; the key file gives version 1 only (file_key_management has no key rotation)`;
    try {
      const global = await AesKey.import(key);
      const own = await global.encryptBlock(head.subarray(CRYPT_INFO + 8, CRYPT_INFO + 24));
      return new LogCrypt(new Aes128(own), keys?.mariadbAlgorithm);
    } catch (e) {
      if (e instanceof AesError) return `its key cannot be used: ${e.message}`;
      throw e;
    }
  }

  /**
   * Decrypts in place the records of one mini-transaction (up to its termination byte), whose
   * nonce is `nonce`: false when they do not decrypt into well-formed records (a wrong key).
   */
  decryptMtr(records: Uint8Array, nonce: Uint8Array): boolean {
    const iv = new Uint8Array(16);
    for (let i = 0; i < 8; i++) iv[i] = nonce[i];
    let total = 0;
    for (let at = 0; at < records.length; ) {
      const end = recordEnd(records, at);
      if (end < 0 || end > records.length) return false;
      const p = recordBodyAt(records, at);
      if (at === 0) for (let i = 0; i < p; i++) iv[8 + i] = records[i];
      total += end - p;
      at = end;
    }
    const data = new Uint8Array(total);
    bodies(records, data, false);
    const plain = this.decrypt(records, data, iv);
    if (plain === null) return false;
    bodies(records, plain, true);
    return true;
  }

  /**
   * Decrypts in place every mini-transaction of `bytes`, which begins where one begins and ends at
   * or after the end of the last one needed (a part of one left at the end stays as it is).
   */
  decryptMtrs(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length && bytes[at] > 1; ) {
      let end = at;
      while (end >= 0 && end < bytes.length && bytes[end] > 1) end = recordEnd(bytes, end);
      if (end < 0 || end + ENCRYPTED_TRAILER > bytes.length) return;
      this.decryptMtr(bytes.subarray(at, end), bytes.subarray(end + 1, end + 9));
      at = end + ENCRYPTED_TRAILER;
    }
  }

  /**
   * `data` decrypted with the cipher, found out on the first mini-transaction only one of them makes
   * well-formed; null where it makes no well-formed records. Every mini-transaction is checked, not
   * only the first: a wrong key can make one short mini-transaction look well-formed by chance.
   */
  private decrypt(records: Uint8Array, data: Uint8Array, iv: Uint8Array): Uint8Array | null {
    if (this.cipher !== null) {
      const plain = this.run(this.cipher, data, iv);
      return this.wellFormed(records, plain) ? plain : null;
    }
    const cbc = this.run('aes_cbc', data, iv);
    const ctr = this.run('aes_ctr', data, iv);
    const cbcFits = this.wellFormed(records, cbc);
    const ctrFits = this.wellFormed(records, ctr);
    if (cbcFits !== ctrFits) this.cipher = cbcFits ? 'aes_cbc' : 'aes_ctr';
    return cbcFits ? cbc : ctrFits ? ctr : null;
  }

  private run(cipher: Cipher, data: Uint8Array, iv: Uint8Array): Uint8Array {
    return cipher === 'aes_cbc' ? this.cbc(data, iv) : this.ctr(data, iv);
  }

  /** MariaDB's unpadded CBC (my_crypt.cc MyCTX_nopad): whole blocks chained, the tail XORed with AES(key, IV). */
  private cbc(data: Uint8Array, iv: Uint8Array): Uint8Array {
    const out = new Uint8Array(data.length);
    const whole = data.length - (data.length % 16);
    for (let at = 0; at < whole; at += 16) {
      this.key.decryptBlock(data, at, out, at);
      const prev = at === 0 ? iv : data;
      const from = at === 0 ? 0 : at - 16;
      for (let i = 0; i < 16; i++) out[at + i] ^= prev[from + i];
    }
    if (whole < data.length) {
      const mask = new Uint8Array(16);
      this.key.encryptBlock(iv, 0, mask, 0);
      for (let i = whole; i < data.length; i++) out[i] = data[i] ^ mask[i - whole];
    }
    return out;
  }

  /** CTR with a 128-bit big-endian counter from the IV (OpenSSL's). */
  private ctr(data: Uint8Array, iv: Uint8Array): Uint8Array {
    const out = new Uint8Array(data.length);
    const counter = iv.slice(0, 16);
    const stream = new Uint8Array(16);
    for (let at = 0; at < data.length; at += 16) {
      this.key.encryptBlock(counter, 0, stream, 0);
      for (let i = 0; i < 16 && at + i < data.length; i++) out[at + i] = data[at + i] ^ stream[i];
      for (let i = 15; i >= 0 && ++counter[i] === 256; i--) counter[i] = 0;
    }
    return out;
  }

  /** Whether the records with their bodies replaced by `plain` parse as the server's recovery would accept them. */
  private wellFormed(records: Uint8Array, plain: Uint8Array): boolean {
    const trial = records.slice();
    bodies(trial, plain, true);
    const walk = this.walk.reset(trial);
    while (walk.next()) if (!recordFits(walk)) return false;
    return !walk.malformed && walk.at === trial.length;
  }
}

/** Copies the records' bodies (what follows each one's type-and-length bytes) into `data`, one after another, or back from it (`back`). */
function bodies(records: Uint8Array, data: Uint8Array, back: boolean): void {
  for (let at = 0, o = 0; at < records.length; ) {
    const p = recordBodyAt(records, at);
    const end = recordEnd(records, at);
    if (back) for (let i = p; i < end; i++) records[i] = data[o++];
    else for (let i = p; i < end; i++) data[o++] = records[i];
    at = end;
  }
}

/** A decrypted record as the server's parser checks it: file records name .ibd files or the checkpoint; page records' bodies fit their types. */
function recordFits(walk: MtrRecords): boolean {
  const body = walk.records.subarray(walk.bodyAt, walk.bodyAt + walk.bodyLength);
  if (walk.isFile) {
    if (walk.pageNo !== 0) return false;
    if (walk.type === FILE_CHECKPOINT) return walk.spaceId === 0 && (body.length === 8 || body.every((b) => b === 0));
    const text = new TextDecoder('latin1').decode(body);
    // file-per-table and general tablespaces (.ibd), undo tablespaces (undo001 …)
    return walk.spaceId !== 0 && text.split('\0').every((name) => /\.ibd$|(^|\/)undo\d{3}$/.test(name));
  }
  switch (walk.type) {
    case FREE_PAGE:
    case INIT_PAGE:
      return body.length === 0;
    case RESERVED:
      return false;
    case WRITE:
    case MEMSET:
    case MEMMOVE:
      return body.length > 0 && varintLength(body[0]) <= 3 && varint(body, 0) < 65536;
    default:
      return body.length > 0;
  }
}
