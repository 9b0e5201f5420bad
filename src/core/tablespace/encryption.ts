/**
 * Encrypted tablespaces.
 *
 * MariaDB (fil0crypt.cc, sql/encryption.cc, mysys_ssl/my_crypt.cc), with the file_key_management
 * plugin's key file (lines `id;hexkey`):
 *  - page 0 carries crypt data after the extent descriptors: magic "s\x0e\x0cREt", scheme type,
 *    IV length (16), the IV, minimum key version, key id, encryption mode;
 *  - each page's key version is at FIL_PAGE_FILE_FLUSH_LSN (26), or at byte 0 in the full_crc32
 *    format; 0 means the page is not encrypted (page 0 and extent descriptor pages never are);
 *  - the page key is AES-ECB(key from the key file, the crypt data IV), 16 bytes; the IV of a page is
 *    its space id, page number (4 bytes each) and LSN (8 bytes), little-endian;
 *  - the cipher is AES-CBC (the plugin's default) or AES-CTR (file_key_management_encryption_algorithm
 *    = aes_ctr): the file does not say which, so an index page is tried with both. CBC data is not a
 *    whole number of blocks: the tail is XORed with AES-ECB(page key, page IV);
 *  - encrypted: bytes 38 .. size-8 (38+4 .. 38+4+payload for page-compressed pages), or in full_crc32
 *    bytes 26 .. stored size-4.
 * MySQL (os0enc.cc), with the keyring_file plugin:
 *  - page 0 carries encryption info after the extent descriptors: magic "lCA"/"lCB"/"lCC", master key
 *    id, server UUID (from "lCB" on), the tablespace key and IV (32 + 32 bytes) encrypted with
 *    AES-256-ECB under the master key `INNODBKey-<uuid>-<id>`, then a CRC-32C of the plain key and IV;
 *  - encrypted pages have type 15 (original type at byte 28), 16 (compressed, then encrypted) or 17
 *    (R-tree); bytes 38 .. end are AES-256-CBC with the tablespace key and the IV's first 16 bytes; when
 *    that is not a whole number of blocks, the last 32 bytes were encrypted a second time, separately.
 *  - the keyring file: "Keyring file version:x.0", then per key five 8-byte little-endian lengths
 *    (entry, id, type, user, key), the strings, the key bytes XORed with "*305=Ljt0*!@$Hnm(*-9-w;:",
 *    padding to 8 bytes; then "EOF" (and a SHA-256 of everything before in version 2.0).
 */
import { AesError, AesKey, AES_BLOCK, decryptCbcPadded, sha1 } from '../codecs/aes.ts';
import { crc32c, verifyPage } from '../pages/checksum.ts';
import { FIL_PAGE_DATA, FIL_PAGE_FILE_FLUSH_LSN, FIL_PAGE_LSN, FIL_PAGE_OFFSET, FIL_PAGE_SPACE_ID, FIL_PAGE_TYPE, PageType, u16, u32 } from '../pages/fil-header.ts';
import type { FspHeader } from '../pages/fsp-header.ts';
import { extentPages } from '../pages/inode.ts';
import { fullCrc32StoredSize } from '../pages/page-compression.ts';
import { verifyZipPage } from '../pages/zip-page.ts';

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

const FSP_HEADER_SIZE = 112;
const XDES_BITMAP = 24;
const MARIADB_MAGIC = [0x73, 0x0e, 0x0c, 0x52, 0x45, 0x74];
const MYSQL_MAGICS = ['lCA', 'lCB', 'lCC'];
const MYSQL_KEY_PREFIX = 'INNODBKey';
const UUID_LEN = 36;
const KEYRING_XOR = '*305=Ljt0*!@$Hnm(*-9-w;:';
/** MariaDB's FIL_PAGE_TYPE_INSTANT: the root page of a table after instant ALTER. */
const MARIADB_INSTANT_ROOT = 18;

/** Bytes of the extent descriptor array on page 0 (what both engines put their metadata after). */
function xdesArrayBytes(logicalPageSize: number, physicalSize: number): number {
  const extent = extentPages(logicalPageSize);
  return (XDES_BITMAP + Math.ceil((extent * 2) / 8)) * (physicalSize / extent);
}

/** Offset of MariaDB's crypt data on page 0 (FSP_HEADER_OFFSET + fsp_header_get_encryption_offset()). */
export function mariadbCryptOffset(logicalPageSize: number, physicalSize: number): number {
  return FIL_PAGE_DATA + FIL_PAGE_DATA + FSP_HEADER_SIZE + xdesArrayBytes(logicalPageSize, physicalSize);
}

/** Offset of MySQL's encryption info on page 0. */
export function mysqlEncryptionOffset(logicalPageSize: number, physicalSize: number): number {
  return FIL_PAGE_DATA + FSP_HEADER_SIZE + xdesArrayBytes(logicalPageSize, physicalSize);
}

export interface MariadbCryptData {
  type: number;
  iv: Uint8Array;
  minKeyVersion: number;
  keyId: number;
  /** 0 default, 1 on, 2 off (fil_encryption_t). */
  mode: number;
}

export function readMariadbCryptData(page0: Uint8Array, logicalPageSize: number, physicalSize: number): MariadbCryptData | null {
  const at = mariadbCryptOffset(logicalPageSize, physicalSize);
  if (at + 6 + 2 + 16 + 9 > page0.length) return null;
  for (let i = 0; i < MARIADB_MAGIC.length; i++) if (page0[at + i] !== MARIADB_MAGIC[i]) return null;
  const type = page0[at + 6];
  const ivLen = page0[at + 7];
  if (ivLen !== 16 || type > 1) return null;
  const p = at + 8 + ivLen;
  return { type, iv: page0.slice(at + 8, p), minKeyVersion: u32(page0, p), keyId: u32(page0, p + 4), mode: page0[p + 8] };
}

export interface MysqlEncryptionInfo {
  version: 1 | 2 | 3;
  masterKeyId: number;
  /** Server UUID of the master key (empty for version 1, which names keys by server id). */
  uuid: string;
  /** Tablespace key and IV (32 + 32 bytes), encrypted with the master key. */
  encryptedKeyIv: Uint8Array;
  checksum: number;
}

export function readMysqlEncryptionInfo(page0: Uint8Array, logicalPageSize: number, physicalSize: number): MysqlEncryptionInfo | null {
  let p = mysqlEncryptionOffset(logicalPageSize, physicalSize);
  if (p + 3 + 8 + UUID_LEN + 64 + 4 > page0.length) return null;
  const magic = String.fromCharCode(page0[p], page0[p + 1], page0[p + 2]);
  const v = MYSQL_MAGICS.indexOf(magic);
  if (v < 0) return null;
  const version = (v + 1) as 1 | 2 | 3;
  p += 3;
  const masterKeyId = u32(page0, p);
  p += 4;
  // Versions 1 and 2 may have written the key id as 8 bytes.
  if (version < 3 && u32(page0, p) === 0) p += 4;
  let uuid = '';
  if (version >= 2) {
    uuid = new TextDecoder().decode(page0.subarray(p, p + UUID_LEN)).replace(/\0+$/, '');
    p += UUID_LEN;
  }
  return { version, masterKeyId, uuid, encryptedKeyIv: page0.slice(p, p + 64), checksum: u32(page0, p + 64) };
}

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

/** Decrypts the pages of one encrypted tablespace. */
export interface PageDecryptor {
  /** What the tablespace is encrypted with, for messages and the summary. */
  readonly description: string;
  /** Why its pages cannot be decrypted (a missing or wrong key), or null. */
  readonly problem: string | null;
  /** True when the (physical) page is stored encrypted and must go through decrypt(). */
  isEncrypted(page: Uint8Array): boolean;
  /** The decrypted page (same size); throws EncryptionError when the key does not fit. */
  decrypt(page: Uint8Array, pageNo: number): Promise<Uint8Array>;
}

/**
 * The decryptor a tablespace needs, or null when it is not encrypted. When the keys lack what it
 * needs (or hold a wrong one), the decryptor still tells encrypted pages apart, and its `problem`
 * says which key to give: decrypting then throws EncryptionError with that message.
 */
export async function openDecryptor(page0: Uint8Array, fsp: FspHeader, physicalSize: number, keys: EncryptionKeys | undefined): Promise<PageDecryptor | null> {
  const logical = fsp.flags.pageSize;
  const crypt = readMariadbCryptData(page0, logical, physicalSize);
  if (crypt && crypt.type === 1) {
    const description = `MariaDB encryption, key id ${crypt.keyId}`;
    return locked(description, (p) => mariadbPageEncrypted(p, fsp), () => MariadbDecryptor.create(crypt, fsp, keys));
  }
  if (!fsp.flags.fullCrc32 && fsp.flags.encrypted) {
    const info = readMysqlEncryptionInfo(page0, logical, physicalSize);
    if (!info) return new LockedDecryptor('MySQL encryption', 'the tablespace flags say it is encrypted, but page 0 has no encryption information', mysqlPageEncrypted);
    const description = `MySQL encryption, master key id ${info.masterKeyId}${info.uuid ? ` of server ${info.uuid}` : ''}`;
    return locked(description, mysqlPageEncrypted, () => MysqlDecryptor.create(info, keys));
  }
  return null;
}

async function locked(description: string, test: (page: Uint8Array) => boolean, create: () => PageDecryptor | Promise<PageDecryptor>): Promise<PageDecryptor> {
  try {
    return await create();
  } catch (e) {
    if (e instanceof EncryptionError || e instanceof AesError) return new LockedDecryptor(description, e.message, test);
    throw e;
  }
}

/** An encrypted tablespace whose key is missing or wrong: every encrypted page fails with the reason. */
class LockedDecryptor implements PageDecryptor {
  constructor(
    readonly description: string,
    readonly problem: string,
    private readonly test: (page: Uint8Array) => boolean,
  ) {}

  isEncrypted(page: Uint8Array): boolean {
    return this.test(page);
  }

  decrypt(): Promise<Uint8Array> {
    return Promise.reject(new EncryptionError(this.problem));
  }
}

function mariadbPageEncrypted(page: Uint8Array, fsp: FspHeader): boolean {
  const type = u16(page, FIL_PAGE_TYPE);
  // Page 0 and the extent descriptor pages are never encrypted.
  if (type === PageType.FSP_HDR || type === PageType.XDES || u32(page, FIL_PAGE_OFFSET) === 0) return false;
  return (fsp.flags.fullCrc32 ? u32(page, 0) : u32(page, FIL_PAGE_FILE_FLUSH_LSN)) !== 0;
}

function mysqlPageEncrypted(page: Uint8Array): boolean {
  const t = u16(page, FIL_PAGE_TYPE);
  return t === PageType.ENCRYPTED || t === PageType.COMPRESSED_AND_ENCRYPTED || t === PageType.ENCRYPTED_RTREE;
}

class MariadbDecryptor implements PageDecryptor {
  readonly description: string;
  readonly problem = null;
  /** Decided on the first index page, unless the user said. */
  private algorithm: 'aes_cbc' | 'aes_ctr' | null;
  private pageKey: AesKey | null = null;

  private constructor(
    private readonly crypt: MariadbCryptData,
    private readonly fsp: FspHeader,
    private readonly globalKey: Uint8Array,
    algorithm: 'aes_cbc' | 'aes_ctr' | undefined,
  ) {
    this.algorithm = algorithm ?? null;
    this.description = `MariaDB encryption, key id ${crypt.keyId}`;
  }

  static create(crypt: MariadbCryptData, fsp: FspHeader, keys: EncryptionKeys | undefined): MariadbDecryptor {
    const key = keys?.mariadb?.get(crypt.keyId);
    if (!key) {
      const have = keys?.mariadb && keys.mariadb.size > 0 ? ` (the key file given has key id${keys.mariadb.size > 1 ? 's' : ''} ${[...keys.mariadb.keys()].join(', ')})` : '';
      throw new EncryptionError(`the tablespace is encrypted with MariaDB key id ${crypt.keyId}: give the file_key_management key file that holds it${have}`);
    }
    return new MariadbDecryptor(crypt, fsp, key, keys?.mariadbAlgorithm);
  }

  isEncrypted(page: Uint8Array): boolean {
    return mariadbPageEncrypted(page, this.fsp);
  }

  private async key(): Promise<AesKey> {
    if (!this.pageKey) {
      // The page key is the crypt data IV encrypted with the key from the key file.
      const global = await AesKey.import(this.globalKey);
      this.pageKey = await AesKey.import(await global.encryptBlock(this.crypt.iv));
    }
    return this.pageKey;
  }

  async decrypt(page: Uint8Array, pageNo: number): Promise<Uint8Array> {
    const keyVersion = this.fsp.flags.fullCrc32 ? u32(page, 0) : u32(page, FIL_PAGE_FILE_FLUSH_LSN);
    if (keyVersion !== 1) {
      // file_key_management has only version 1 of each key.
      throw new EncryptionError(`the page is encrypted with version ${keyVersion} of key ${this.crypt.keyId}; the key file gives version 1 only (file_key_management has no key rotation)`);
    }
    let start: number;
    let end: number;
    let keepTrailer = 0;
    if (this.fsp.flags.fullCrc32) {
      const size = fullCrc32StoredSize(page);
      if (size === null) throw new EncryptionError('the encrypted page records an impossible size');
      start = FIL_PAGE_FILE_FLUSH_LSN;
      end = size - 4;
    } else if (u16(page, FIL_PAGE_TYPE) === PageType.PAGE_COMPRESSED_ENCRYPTED) {
      start = FIL_PAGE_DATA + 4;
      end = start + u16(page, FIL_PAGE_DATA);
      if (end > page.length) throw new EncryptionError('the encrypted page records an impossible payload size');
    } else {
      start = FIL_PAGE_DATA;
      end = page.length - 8;
      keepTrailer = 8;
    }
    const space = this.fsp.flags.fullCrc32 ? this.fsp.spaceId : u32(page, FIL_PAGE_SPACE_ID);
    const iv = new Uint8Array(16);
    const dv = new DataView(iv.buffer);
    dv.setUint32(0, space, true);
    dv.setUint32(4, u32(page, FIL_PAGE_OFFSET), true);
    // The LSN, little-endian: low word first.
    dv.setUint32(8, u32(page, FIL_PAGE_LSN + 4), true);
    dv.setUint32(12, u32(page, FIL_PAGE_LSN), true);
    const key = await this.key();
    const data = page.subarray(start, end);
    const tryWith = async (algo: 'aes_cbc' | 'aes_ctr'): Promise<Uint8Array> => {
      const out = new Uint8Array(page.length);
      out.set(page.subarray(0, start));
      out.set(algo === 'aes_ctr' ? await key.ctr(data, iv) : await cbcNoPadMariadb(key, iv, data), start);
      if (keepTrailer) out.set(page.subarray(page.length - keepTrailer), page.length - keepTrailer);
      return out;
    };
    if (this.algorithm) return tryWith(this.algorithm);
    // Which cipher the server used is not recorded: find out on the first page that can tell.
    const cbc = await tryWith('aes_cbc');
    if (!this.canCheck(cbc)) return cbc;
    if (this.looksDecrypted(cbc)) {
      this.algorithm = 'aes_cbc';
      return cbc;
    }
    const ctr = await tryWith('aes_ctr');
    if (this.looksDecrypted(ctr)) {
      this.algorithm = 'aes_ctr';
      return ctr;
    }
    throw new EncryptionError(`page ${pageNo} does not decrypt with key ${this.crypt.keyId} from the key file given: it is the wrong key, or the page is damaged`);
  }

  /**
   * Pages that reveal a wrong key: in the original format every page (the plaintext keeps the
   * checksum computed before encryption), in full_crc32 index pages (their infimum record).
   */
  private canCheck(page: Uint8Array): boolean {
    const type = u16(page, FIL_PAGE_TYPE);
    if (!this.fsp.flags.fullCrc32) return type !== PageType.PAGE_COMPRESSED_ENCRYPTED;
    return type === PageType.INDEX || type === PageType.RTREE || type === MARIADB_INSTANT_ROOT;
  }

  private looksDecrypted(page: Uint8Array): boolean {
    if (!this.fsp.flags.fullCrc32) {
      // Bytes 26-37 (key version, post-encryption checksum) are left out of every checksum.
      const r = this.fsp.flags.zipSize ? verifyZipPage(page) : verifyPage(page, false);
      return r === 'crc32' || r === 'innodb' || r === 'none';
    }
    const text = (o: number, s: string): boolean => [...s].every((c, i) => page[o + i] === c.charCodeAt(0));
    // COMPACT or REDUNDANT infimum, or the zeroed infimum of a root after instant DROP COLUMN.
    return text(99, 'infimum') || text(101, 'infimum') || page.subarray(99, 107).every((b) => b === 0);
  }
}

/** MariaDB's unpadded CBC: whole blocks in CBC, the remaining bytes XORed with AES(key, IV). */
async function cbcNoPadMariadb(key: AesKey, iv: Uint8Array, data: Uint8Array): Promise<Uint8Array> {
  const whole = data.length - (data.length % AES_BLOCK);
  const out = new Uint8Array(data.length);
  out.set(await key.decryptCbc(data.subarray(0, whole), iv));
  if (whole < data.length) {
    const mask = await key.encryptBlock(iv);
    for (let i = whole; i < data.length; i++) out[i] = data[i] ^ mask[i - whole];
  }
  return out;
}

class MysqlDecryptor implements PageDecryptor {
  readonly description: string;
  readonly problem = null;

  private constructor(
    private readonly key: AesKey,
    private readonly iv: Uint8Array,
    masterKeyName: string,
  ) {
    this.description = `MySQL encryption, master key ${masterKeyName}`;
  }

  static async create(info: MysqlEncryptionInfo, keys: EncryptionKeys | undefined): Promise<MysqlDecryptor> {
    const candidates = info.uuid ? [`${MYSQL_KEY_PREFIX}-${info.uuid}-${info.masterKeyId}`] : [];
    let name = candidates[0] ?? `${MYSQL_KEY_PREFIX}-<server id>-${info.masterKeyId}`;
    let master = candidates.length ? keys?.mysql?.get(candidates[0]) : undefined;
    if (!master && !info.uuid && keys?.mysql) {
      // Version 1 (MySQL 5.7.11) names the key by server id, which the file does not record.
      for (const [id, k] of keys.mysql) {
        if (new RegExp(`^${MYSQL_KEY_PREFIX}-\\d+-${info.masterKeyId}$`).test(id)) {
          master = k;
          name = id;
        }
      }
    }
    if (!master) {
      throw new EncryptionError(`the tablespace is encrypted with MySQL master key ${name}: give the keyring_file that holds it${keys?.mysql?.size ? ` (the keyring given has ${[...keys.mysql.keys()].join(', ')})` : ''}`);
    }
    if (master.length !== 32) throw new EncryptionError(`keyring entry ${name} is ${master.length} bytes; InnoDB master keys are 32 bytes`);
    const masterKey = await AesKey.import(master);
    const plain = await masterKey.decryptEcb(info.encryptedKeyIv);
    if (crc32c(plain, 0, 64) !== info.checksum) {
      throw new EncryptionError(`keyring entry ${name} does not decrypt the tablespace key (checksum mismatch): the keyring belongs to another server or was changed`);
    }
    return new MysqlDecryptor(await AesKey.import(plain.subarray(0, 32)), plain.slice(32, 48), name);
  }

  isEncrypted(page: Uint8Array): boolean {
    return mysqlPageEncrypted(page);
  }

  async decrypt(page: Uint8Array): Promise<Uint8Array> {
    const type = u16(page, FIL_PAGE_TYPE);
    let len = page.length;
    if (type === PageType.COMPRESSED_AND_ENCRYPTED) {
      // Only the compressed bytes were encrypted (version 2: at least two AES blocks of them).
      const z = u16(page, FIL_PAGE_FILE_FLUSH_LSN + 6) + FIL_PAGE_DATA;
      if (z > page.length) throw new EncryptionError('the encrypted compressed page records an impossible size');
      if (page[FIL_PAGE_FILE_FLUSH_LSN] === 1) {
        // Version 1 rounded up to the file system block size, which the file does not record: the
        // encrypted bytes end where the zero padding starts (checked in 512-byte steps).
        len = page.length;
        while (len - 512 >= z && page.subarray(len - 512, len).every((b) => b === 0)) len -= 512;
      } else {
        len = Math.max(z, FIL_PAGE_DATA + 2 * AES_BLOCK);
      }
    }
    const dataLen = len - FIL_PAGE_DATA;
    const main = dataLen - (dataLen % AES_BLOCK);
    const work = page.slice(FIL_PAGE_DATA, len);
    if (main !== dataLen) {
      // The last two blocks were encrypted again on their own: undo that first.
      const tail = await this.key.decryptCbc(work.subarray(dataLen - 2 * AES_BLOCK), this.iv);
      work.set(tail, dataLen - 2 * AES_BLOCK);
    }
    const out = page.slice();
    out.set(await this.key.decryptCbc(work.subarray(0, main), this.iv), FIL_PAGE_DATA);
    out.set(work.subarray(main), FIL_PAGE_DATA + main);
    if (type === PageType.ENCRYPTED) {
      out[FIL_PAGE_TYPE] = page[FIL_PAGE_FILE_FLUSH_LSN + 2];
      out[FIL_PAGE_TYPE + 1] = page[FIL_PAGE_FILE_FLUSH_LSN + 3];
      out[FIL_PAGE_FILE_FLUSH_LSN + 2] = 0;
      out[FIL_PAGE_FILE_FLUSH_LSN + 3] = 0;
    } else if (type === PageType.ENCRYPTED_RTREE) {
      out[FIL_PAGE_TYPE] = PageType.RTREE >> 8;
      out[FIL_PAGE_TYPE + 1] = PageType.RTREE & 0xff;
    } else {
      out[FIL_PAGE_TYPE] = 0;
      out[FIL_PAGE_TYPE + 1] = PageType.COMPRESSED;
    }
    return out;
  }
}
