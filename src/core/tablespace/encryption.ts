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
 *    = aes_ctr): the file does not say which, so the first encrypted page whose decryption can be
 *    checked is tried with both (the page's own checksum in the original format, the LSN repeated
 *    at its end in full_crc32), and the one that checks out decides for the tablespace. CBC data is
 *    not a whole number of blocks: the tail is XORed with AES-ECB(page key, page IV);
 *  - encrypted: bytes 38 .. size-8 (38+4 .. 38+4+payload for page-compressed pages), or in full_crc32
 *    bytes 26 .. stored size-4.
 * MySQL (os0enc.cc), with the keyring_file plugin:
 *  - page 0 carries encryption info after the extent descriptors: magic "lCA"/"lCB"/"lCC", master key
 *    id, server UUID (from "lCB" on), the tablespace key and IV (32 + 32 bytes) encrypted with
 *    AES-256-ECB under the master key `INNODBKey-<uuid>-<id>`, then a CRC-32C of the plain key and IV;
 *  - encrypted pages have type 15 (original type at byte 28), 16 (compressed, then encrypted) or 17
 *    (R-tree); bytes 38 .. end are AES-256-CBC with the tablespace key and the IV's first 16 bytes; when
 *    that is not a whole number of blocks, the last 32 bytes were encrypted a second time, separately.
 */
import { AesError, AesKey, AES_BLOCK } from '../codecs/aes.ts';
import { crc32c, MAGIC_NONE, verifyPage } from '../pages/checksum.ts';
import { FIL_PAGE_DATA, FIL_PAGE_FILE_FLUSH_LSN, FIL_PAGE_LSN, FIL_PAGE_OFFSET, FIL_PAGE_SPACE_ID, FIL_PAGE_TYPE, PageType, u16, u32 } from '../pages/fil-header.ts';
import type { FspHeader } from '../pages/fsp-header.ts';
import { extentPages } from '../pages/inode.ts';
import { decompressFullCrc32, decompressMariadb, fullCrc32StoredSize, isFullCrc32Compressed, PageCompressionError } from '../pages/page-compression.ts';
import { verifyZipPage } from '../pages/zip-page.ts';
import { EncryptionError, type EncryptionKeys } from './key-files.ts';
import type { ByteSource } from './source.ts';

export { EncryptionError, loadKeyFile, parseKeyFile, parseMysqlKeyring, type EncryptionKeys } from './key-files.ts';

const FSP_HEADER_SIZE = 112;
const XDES_BITMAP = 24;
const MARIADB_MAGIC = [0x73, 0x0e, 0x0c, 0x52, 0x45, 0x74];
const MYSQL_MAGICS = ['lCA', 'lCB', 'lCC'];
const MYSQL_KEY_PREFIX = 'INNODBKey';
const UUID_LEN = 36;
/** FIL_PAGE_FCRC32_END_LSN: where a full_crc32 page repeats its LSN's low word, from the end. */
const FIL_PAGE_FCRC32_END_LSN = 8;

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
export async function openDecryptor(source: ByteSource, fsp: FspHeader, physicalSize: number, keys: EncryptionKeys | undefined): Promise<PageDecryptor | null> {
  const logical = fsp.flags.pageSize;
  const page0 = await source.read(0, physicalSize);
  const crypt = readMariadbCryptData(page0, logical, physicalSize);
  if (crypt && crypt.type === 1) {
    const description = `MariaDB encryption, key id ${crypt.keyId}`;
    return locked(description, (p) => mariadbPageEncrypted(p, fsp), () => MariadbDecryptor.create(crypt, fsp, source, physicalSize, keys));
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

type Cipher = 'aes_cbc' | 'aes_ctr';
const CIPHERS: readonly Cipher[] = ['aes_cbc', 'aes_ctr'];
const CIPHER_LIST = 'AES-CBC or AES-CTR';
/** Pages that decrypt with neither cipher before the key is called wrong (one may be damaged). */
const WRONG_KEY_PAGES = 3;

class MariadbDecryptor implements PageDecryptor {
  readonly description: string;
  readonly problem = null;
  /** The key plugin's cipher, as the user said or as the first page that can tell showed. */
  private cipher: Cipher | null;
  /** The cipher found in the file's pages, or why it cannot be: sought once, when a page cannot tell. */
  private fileCipher: Promise<Cipher | number[] | null> | null = null;
  private pageKey: AesKey | null = null;

  private constructor(
    private readonly crypt: MariadbCryptData,
    private readonly fsp: FspHeader,
    private readonly globalKey: Uint8Array,
    private readonly source: ByteSource,
    private readonly physicalSize: number,
    algorithm: Cipher | undefined,
  ) {
    this.cipher = algorithm ?? null;
    this.description = `MariaDB encryption, key id ${crypt.keyId}`;
  }

  static create(crypt: MariadbCryptData, fsp: FspHeader, source: ByteSource, physicalSize: number, keys: EncryptionKeys | undefined): MariadbDecryptor {
    const key = keys?.mariadb?.get(crypt.keyId);
    if (!key) {
      const have = keys?.mariadb && keys.mariadb.size > 0 ? ` (the key file given has key id${keys.mariadb.size > 1 ? 's' : ''} ${[...keys.mariadb.keys()].join(', ')})` : '';
      throw new EncryptionError(`the tablespace is encrypted with MariaDB key id ${crypt.keyId}: give the file_key_management key file that holds it${have}`);
    }
    return new MariadbDecryptor(crypt, fsp, key, source, physicalSize, keys?.mariadbAlgorithm);
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
    if (this.cipher) return this.run(this.cipher, page);
    // Which cipher the key plugin used is not recorded: this page tells, or the file's first that can.
    const told = await this.tell(page);
    if (told !== null && told !== 'neither') {
      this.cipher = told.cipher;
      return told.plain;
    }
    const found = await (this.fileCipher ??= this.cipherOfFile());
    if (found === null) {
      throw new EncryptionError(`page ${pageNo} is not decrypted: which cipher the key plugin used (file_key_management_encryption_algorithm: ${CIPHER_LIST}) cannot be told, no encrypted page of the file decrypts to one that can be checked`);
    }
    if (Array.isArray(found)) {
      const pages = `page${found.length > 1 ? 's' : ''} ${found.join(', ')} check${found.length > 1 ? '' : 's'} out with neither ${CIPHER_LIST.replace(' or ', ' nor ')}`;
      throw new EncryptionError(`page ${pageNo} does not decrypt with key ${this.crypt.keyId} from the key file given (${pages}): it is the wrong key, or the file is damaged`);
    }
    this.cipher = found;
    return this.run(found, page);
  }

  /** `page` decrypted with `cipher` (fil_space_decrypt). */
  private async run(cipher: Cipher, page: Uint8Array): Promise<Uint8Array> {
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
    const out = new Uint8Array(page.length);
    out.set(page.subarray(0, start));
    out.set(cipher === 'aes_ctr' ? await key.ctr(data, iv) : await cbcNoPadMariadb(key, iv, data), start);
    if (keepTrailer) out.set(page.subarray(page.length - keepTrailer), page.length - keepTrailer);
    return out;
  }

  /**
   * The cipher under which `page` decrypts to a page that checks out, with that decryption;
   * 'neither' (a wrong key or a damaged page); null when the page cannot tell.
   */
  private async tell(page: Uint8Array): Promise<{ cipher: Cipher; plain: Uint8Array } | 'neither' | null> {
    if (!this.canCheck(page)) return null;
    for (const cipher of CIPHERS) {
      const plain = await this.run(cipher, page);
      if (this.checksOut(plain)) return { cipher, plain };
    }
    return 'neither';
  }

  /**
   * The cipher the file's first encrypted page that can tell shows; else the pages that check out
   * with neither (the key is wrong), or null when no encrypted page can be checked.
   */
  private async cipherOfFile(): Promise<Cipher | number[] | null> {
    const neither: number[] = [];
    const pages = Math.floor(this.source.size / this.physicalSize);
    for (let no = 1; no < pages && neither.length < WRONG_KEY_PAGES; no++) {
      const page = await this.source.read(no * this.physicalSize, this.physicalSize);
      if (!this.isEncrypted(page) || u32(page, this.fsp.flags.fullCrc32 ? 0 : FIL_PAGE_FILE_FLUSH_LSN) !== 1) continue;
      const told = await this.tell(page);
      if (told === 'neither') neither.push(no);
      else if (told !== null) return told.cipher;
    }
    return neither.length > 0 ? neither : null;
  }

  /**
   * Pages whose decryption can be checked: in the original format every page with a checksum (the
   * plaintext keeps the one computed before encryption; innodb_checksum_algorithm=none writes
   * BUF_NO_CHECKSUM_MAGIC instead), in full_crc32 every page (the low 32 bits of its LSN, repeated
   * before the checksum, were encrypted); a page-compressed page in both, once decompressed (the
   * page image is compressed whole, its FIL header with its number and LSN too).
   */
  private canCheck(page: Uint8Array): boolean {
    if (this.fsp.flags.fullCrc32) return fullCrc32StoredSize(page) !== null;
    return u16(page, FIL_PAGE_TYPE) === PageType.PAGE_COMPRESSED_ENCRYPTED || u32(page, 0) !== MAGIC_NONE;
  }

  private checksOut(page: Uint8Array): boolean {
    if (this.fsp.flags.fullCrc32 ? isFullCrc32Compressed(page) : u16(page, FIL_PAGE_TYPE) === PageType.PAGE_COMPRESSED_ENCRYPTED) {
      let image: Uint8Array;
      try {
        image = this.fsp.flags.fullCrc32 ? decompressFullCrc32(page, this.fsp.flags.pageCompression) : decompressMariadb(page);
      } catch (e) {
        if (e instanceof PageCompressionError) return false;
        throw e;
      }
      return [FIL_PAGE_OFFSET, FIL_PAGE_LSN, FIL_PAGE_LSN + 4].every((at) => u32(image, at) === u32(page, at));
    }
    if (this.fsp.flags.fullCrc32) {
      // FIL_PAGE_FCRC32_END_LSN: the LSN's low word, 8 bytes before the end (buf_page_is_corrupted).
      return u32(page, page.length - FIL_PAGE_FCRC32_END_LSN) === u32(page, FIL_PAGE_LSN + 4);
    }
    // Bytes 26-37 (key version, post-encryption checksum) are left out of every checksum.
    const r = this.fsp.flags.zipSize ? verifyZipPage(page) : verifyPage(page, false);
    return r === 'crc32' || r === 'innodb';
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
