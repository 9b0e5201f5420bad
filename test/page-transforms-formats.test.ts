/**
 * Page transforms no local server can produce, checked against the documented formats:
 *  - the DEFLATE/zlib decoder against node:zlib, the LZ4 block decoder against a small LZ4 encoder;
 *  - MySQL transparent page compression (COMPRESSION='zlib'|'lz4', page type 14) and MySQL
 *    keyring_file encryption (page types 15/16, encryption info on page 0, the keyring file format):
 *    real MySQL 8.0.18 files (test/fixtures/mysql-testsuite) are rewritten page by page the way MySQL writes
 *    them, using node:zlib and node:crypto, and must decode to the same rows as the originals;
 *  - MariaDB PAGE_COMPRESSED pages with LZ4 (both tablespace formats), the error naming the
 *    algorithm of a damaged LZO, LZMA, bzip2 or Snappy stream (their differential tests are in
 *    test/differential/page-compression-algorithms.test.ts), and an unknown algorithm refused.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync, deflateSync, constants as zc } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32c } from '../src/core/pages/checksum.ts';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { mysqlEncryptionOffset, parseMysqlKeyring } from '../src/core/tablespace/encryption.ts';
import { FIL_PAGE_TYPE, PageType, u16 } from '../src/core/pages/fil-header.ts';
import { inflateRaw, inflateZlib } from '../src/core/codecs/inflate.ts';
import { lz4DecodeBlock } from '../src/core/codecs/lz4.ts';
import { decompressFullCrc32, decompressMariadb, PageCompressionError } from '../src/core/pages/page-compression.ts';
import { bytesSource } from '../src/core/tablespace/source.ts';
import { openTable, type OpenOptions, type Row } from '../src/core/readers/table-reader.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures/mysql-testsuite');
const PAGE = 16384;

/** Deterministic test data: text-like runs, repeats and noise. */
function sample(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const r = x >>> 24;
    out[i] = r < 100 && i > 40 ? out[i - 1 - (r % 37)] : r < 180 ? 97 + (r % 26) : r;
  }
  return out;
}

/** A greedy LZ4 block encoder (hash of 4 bytes, last 5 bytes literal), enough to test the decoder. */
function lz4Encode(src: Uint8Array): Uint8Array {
  const out: number[] = [];
  const table = new Map<number, number>();
  let anchor = 0;
  const writeLen = (n: number): void => {
    for (; n >= 255; n -= 255) out.push(255);
    out.push(n);
  };
  const sequence = (litEnd: number, matchLen: number, offset: number): void => {
    const lit = litEnd - anchor;
    const token = (Math.min(lit, 15) << 4) | (matchLen ? Math.min(matchLen - 4, 15) : 0);
    out.push(token);
    if (lit >= 15) writeLen(lit - 15);
    for (let k = anchor; k < litEnd; k++) out.push(src[k]);
    if (!matchLen) return;
    out.push(offset & 0xff, offset >> 8);
    if (matchLen - 4 >= 15) writeLen(matchLen - 4 - 15);
  };
  let i = 0;
  while (i + 12 < src.length) {
    const key = src[i] | (src[i + 1] << 8) | (src[i + 2] << 16) | (src[i + 3] << 24);
    const cand = table.get(key);
    table.set(key, i);
    if (cand !== undefined && i - cand < 65536 && src[cand] === src[i] && src[cand + 1] === src[i + 1] && src[cand + 2] === src[i + 2] && src[cand + 3] === src[i + 3]) {
      let len = 4;
      while (i + len < src.length - 5 && src[cand + len] === src[i + len]) len++;
      sequence(i, len, i - cand);
      i += len;
      anchor = i;
    } else {
      i++;
    }
  }
  sequence(src.length, 0, 0);
  return Uint8Array.from(out);
}

describe('inflate and LZ4', () => {
  it.each([
    ['stored', { level: 0 }],
    ['fixed Huffman', { strategy: zc.Z_FIXED }],
    ['dynamic Huffman', { level: 9 }],
    ['run-length', { strategy: zc.Z_RLE }],
  ])('inflates zlib streams like node:zlib (%s)', (_, options) => {
    for (const [n, seed] of [[0, 1], [1, 2], [100, 3], [70000, 4], [16384, 5]]) {
      const data = sample(n, seed);
      const z = deflateSync(data, options);
      const out = new Uint8Array(n);
      const r = inflateZlib(z, 0, z.length, out);
      expect(r.outLength).toBe(n);
      expect(r.inEnd).toBe(z.length);
      expect(Buffer.from(out).equals(Buffer.from(data))).toBe(true);
    }
  });

  it('reports where the stream ends and where each block ends, with bytes after it', () => {
    const data = sample(5000, 9);
    const raw = deflateRawSync(data);
    const withTail = new Uint8Array(raw.length + 7);
    withTail.set(raw);
    withTail.fill(0xaa, raw.length);
    const r = inflateRaw(withTail, 0, withTail.length, new Uint8Array(5000));
    expect(r.inEnd).toBe(raw.length);
    expect(r.blockEnds.at(-1)).toBe(5000);
  });

  it('rejects damaged and truncated streams and a wrong checksum', () => {
    const z = deflateSync(sample(3000, 7));
    expect(() => inflateZlib(z, 0, z.length - 10, new Uint8Array(3000))).toThrow(/truncated/);
    const bad = z.slice();
    bad[bad.length - 1] ^= 1;
    expect(() => inflateZlib(bad, 0, bad.length, new Uint8Array(3000))).toThrow(/checksum/);
    expect(() => inflateZlib(z, 0, z.length, new Uint8Array(2999))).toThrow(/more than the expected/);
  });

  it('decodes LZ4 blocks (literal runs, overlapping matches, long lengths)', () => {
    for (const [n, seed] of [[1, 1], [16, 2], [5000, 3], [16384, 4], [70000, 5]]) {
      const data = sample(n, seed);
      const block = lz4Encode(data);
      const out = new Uint8Array(n);
      expect(lz4DecodeBlock(block, 0, block.length, out)).toBe(n);
      expect(Buffer.from(out).equals(Buffer.from(data))).toBe(true);
    }
    const zeros = new Uint8Array(20000);
    const block = lz4Encode(zeros);
    expect(block.length).toBeLessThan(200);
    expect(lz4DecodeBlock(block, 0, block.length, new Uint8Array(20000))).toBe(20000);
    expect(() => lz4DecodeBlock(block, 0, block.length - 1, new Uint8Array(20000))).toThrow();
  });
});

/** A MySQL 8.0.18 fixture file and its CREATE TABLE. */
function fixture(rel: string): { file: Uint8Array; ddl: string } {
  const file = new Uint8Array(readFileSync(join(FIXTURES, 'mysql80', `${rel}.ibd`)));
  const ddl = readFileSync(join(FIXTURES, 'mysql56', `${rel}.sql`), 'utf8');
  return { file, ddl };
}

async function decodeAll(file: Uint8Array, ddl: string, options: OpenOptions = {}): Promise<{ rows: Row[]; badChecksums: number; problems: unknown[] }> {
  const table = parseCreateTables(ddl)[0];
  const reader = await openTable(bytesSource(file, 'test.ibd'), table, options);
  const rows: Row[] = [];
  for await (const batch of reader.rows()) rows.push(...batch);
  return { rows, badChecksums: reader.stats.badChecksums, problems: reader.stats.problems };
}

/** Pages MySQL compresses and encrypts: all but page 0, extent descriptor pages and never-written pages. */
function transformable(file: Uint8Array, no: number): boolean {
  const page = file.subarray(no * PAGE, (no + 1) * PAGE);
  const type = u16(page, FIL_PAGE_TYPE);
  return no !== 0 && type !== PageType.XDES && type !== PageType.FSP_HDR && !page.every((b) => b === 0);
}

/** Rewrites a page as MySQL's os0file.cc does for COMPRESSION='zlib' (1) or 'lz4' (2). */
function mysqlCompress(page: Uint8Array, algorithm: 1 | 2, version = 1): Uint8Array {
  const data = page.subarray(38);
  const z = algorithm === 1 ? new Uint8Array(deflateSync(data)) : lz4Encode(data);
  const out = new Uint8Array(page.length);
  out.set(page.subarray(0, 38));
  const dv = new DataView(out.buffer);
  dv.setUint16(FIL_PAGE_TYPE, PageType.COMPRESSED);
  out[26] = version;
  out[27] = algorithm;
  dv.setUint16(28, u16(page, FIL_PAGE_TYPE));
  dv.setUint16(30, page.length - 38);
  dv.setUint16(32, z.length);
  out.set(z, 38);
  return out;
}

/** AES-256-CBC without padding (whole blocks), as my_aes_encrypt(..., my_aes_256_cbc, iv, false). */
function cbc(key: Uint8Array, iv: Uint8Array, data: Uint8Array): Uint8Array {
  const c = createCipheriv('aes-256-cbc', key, iv.subarray(0, 16));
  c.setAutoPadding(false);
  return new Uint8Array(Buffer.concat([c.update(data), c.final()]));
}

/** Encrypts a page as os0enc.cc Encryption::encrypt_low does. */
function mysqlEncrypt(page: Uint8Array, key: Uint8Array, iv: Uint8Array): Uint8Array {
  const type = u16(page, FIL_PAGE_TYPE);
  let len = page.length;
  if (type === PageType.COMPRESSED) len = Math.max(u16(page, 32) + 38, 38 + 32);
  const dataLen = len - 38;
  const main = dataLen - (dataLen % 16);
  const out = page.slice();
  out.set(cbc(key, iv, page.subarray(38, 38 + main)), 38);
  if (main !== dataLen) {
    // The tail: the last 32 bytes (some already encrypted) are encrypted once more.
    const at = 38 + dataLen - 32;
    out.set(cbc(key, iv, out.subarray(at, at + 32)), at);
  }
  const dv = new DataView(out.buffer);
  if (type === PageType.COMPRESSED) dv.setUint16(FIL_PAGE_TYPE, PageType.COMPRESSED_AND_ENCRYPTED);
  else {
    dv.setUint16(FIL_PAGE_TYPE, PageType.ENCRYPTED);
    dv.setUint16(28, type);
  }
  return out;
}

/** Page 0 checksum (CRC-32C) after changing it. */
function resealCrc32(page: Uint8Array): void {
  const crc = (crc32c(page, 4, 26) ^ crc32c(page, 38, page.length - 8)) >>> 0;
  const dv = new DataView(page.buffer, page.byteOffset, page.length);
  dv.setUint32(0, crc);
  dv.setUint32(page.length - 8, crc);
}

/** A keyring_file (version 2.0) holding these keys, obfuscated as the plugin stores them. */
function keyringFile(keys: Record<string, Uint8Array>): Uint8Array {
  const parts: Buffer[] = [Buffer.from('Keyring file version:2.0')];
  const xor = '*305=Ljt0*!@$Hnm(*-9-w;:';
  for (const [id, key] of Object.entries(keys)) {
    const fields = [Buffer.from(id), Buffer.from('AES'), Buffer.from(''), Buffer.from(key.map((b, i) => b ^ xor.charCodeAt(i % xor.length)))];
    const body = 40 + fields.reduce((n, f) => n + f.length, 0);
    const pod = body + ((8 - (body % 8)) % 8);
    const entry = Buffer.alloc(pod);
    [pod, fields[0].length, fields[1].length, fields[2].length, fields[3].length].forEach((v, i) => entry.writeBigUInt64LE(BigInt(v), 8 * i));
    Buffer.concat(fields).copy(entry, 40);
    parts.push(entry);
  }
  parts.push(Buffer.from('EOF'), randomBytes(32)); // the SHA-256 is not checked by the reader
  return new Uint8Array(Buffer.concat(parts));
}

describe('MySQL transparent page compression (from the documented format)', () => {
  it.each([
    ['simple/tb01', 1],
    ['pk/tb24', 1],
    ['column/char/tb04utf8mb4', 2],
    ['pk/tb21', 2],
  ] as const)('%s, every page compressed with algorithm %i, decodes to the same rows', async (rel, algorithm) => {
    const { file, ddl } = fixture(rel);
    const original = await decodeAll(file, ddl);
    const compressed = file.slice();
    let n = 0;
    for (let no = 0; no < file.length / PAGE; no++) {
      if (!transformable(file, no)) continue;
      compressed.set(mysqlCompress(file.subarray(no * PAGE, (no + 1) * PAGE), algorithm), no * PAGE);
      n++;
    }
    expect(n).toBeGreaterThan(2);
    const decoded = await decodeAll(compressed, ddl);
    expect(decoded.rows).toEqual(original.rows);
    expect(decoded.badChecksums).toBe(0);
    expect(decoded.problems).toEqual([]);
    expect(original.rows.length).toBeGreaterThan(0);
  });
});

describe('MySQL keyring_file encryption (from the documented format)', () => {
  const uuid = '8a1b7f0e-3c2d-11ef-9a4b-0242ac120002';
  const keyName = `INNODBKey-${uuid}-1`;
  const master = new Uint8Array(randomBytes(32));
  const tsKey = new Uint8Array(randomBytes(32));
  const tsIv = new Uint8Array(randomBytes(32));

  /** The fixture encrypted with tsKey/tsIv, page 0 carrying the encryption info under `master`. */
  function encrypted(rel: string, compressToo: boolean): Uint8Array {
    const { file } = fixture(rel);
    const out = file.slice();
    for (let no = 0; no < file.length / PAGE; no++) {
      if (!transformable(file, no)) continue;
      let page = file.subarray(no * PAGE, (no + 1) * PAGE);
      if (compressToo && no % 2 === 1) page = mysqlCompress(page, 1, 2);
      out.set(mysqlEncrypt(page, tsKey, tsIv), no * PAGE);
    }
    const page0 = out.subarray(0, PAGE);
    const dv = new DataView(page0.buffer, page0.byteOffset, PAGE);
    dv.setUint32(38 + 16, dv.getUint32(38 + 16) | (1 << 13)); // FSP_FLAGS encryption bit
    const info = new Uint8Array(3 + 4 + 36 + 64 + 4);
    info.set(Buffer.from('lCC'));
    new DataView(info.buffer).setUint32(3, 1);
    info.set(Buffer.from(uuid), 7);
    const keyIv = new Uint8Array(64);
    keyIv.set(tsKey);
    keyIv.set(tsIv, 32);
    const ecb = createCipheriv('aes-256-ecb', master, null);
    ecb.setAutoPadding(false);
    info.set(Buffer.concat([ecb.update(keyIv), ecb.final()]), 43);
    new DataView(info.buffer).setUint32(107, crc32c(keyIv, 0, 64));
    page0.set(info, mysqlEncryptionOffset(PAGE, PAGE));
    resealCrc32(page0);
    return out;
  }

  it('reads the keyring file format', () => {
    const keys = parseMysqlKeyring(keyringFile({ [keyName]: master, other: new Uint8Array(16).fill(7) }));
    expect([...keys.keys()]).toEqual([keyName, 'other']);
    expect(Buffer.from(keys.get(keyName)!).equals(Buffer.from(master))).toBe(true);
    expect(() => parseMysqlKeyring(new Uint8Array(100))).toThrow(/not a MySQL keyring_file/);
  });

  it.each([
    ['simple/tb01', false],
    ['pk/tb24', true],
    ['column/char/tb04utf8mb4', true],
  ] as const)('%s (compressed too: %s) decodes to the same rows with the keyring', async (rel, compressToo) => {
    const { file, ddl } = fixture(rel);
    const original = await decodeAll(file, ddl);
    const enc = encrypted(rel, compressToo);
    const keys = { mysql: parseMysqlKeyring(keyringFile({ [keyName]: master })) };
    const decoded = await decodeAll(enc, ddl, { keys });
    expect(decoded.rows).toEqual(original.rows);
    expect(decoded.problems).toEqual([]);
    expect(decoded.badChecksums).toBe(0);
  });

  it('names the missing master key, and says when the keyring holds another one', async () => {
    const { ddl } = fixture('simple/tb01');
    const enc = encrypted('simple/tb01', false);
    const ts = await Tablespace.open(bytesSource(enc, 'enc.ibd'));
    expect(ts.encryption).toBe(`MySQL encryption, master key id 1 of server ${uuid}`);
    expect(ts.encryptionProblem).toMatch(`encrypted with MySQL master key ${keyName}: give the keyring_file`);
    await expect(decodeAll(enc, ddl)).rejects.toThrow(`encrypted with MySQL master key ${keyName}: give the keyring_file`);
    const wrong = { mysql: new Map([[keyName, new Uint8Array(32).fill(1)]]) };
    await expect(decodeAll(enc, ddl, { keys: wrong })).rejects.toThrow(/does not decrypt the tablespace key/);
  });
});

describe('MariaDB PAGE_COMPRESSED algorithms a local server lacks', () => {
  const { file } = fixture('simple/emp');
  const original = file.slice(3 * PAGE, 4 * PAGE);

  /** A full_crc32 page-compressed page (fil_page_compress_for_full_crc32). */
  function fullCrc32Page(algo: number, payload: Uint8Array): Uint8Array {
    const lengthByte = algo === 2 || algo === 3 || algo === 6;
    const actual = 26 + payload.length;
    const size = (actual + (lengthByte ? 1 : 0) + 4 + 255) & ~255;
    const page = new Uint8Array(PAGE);
    page.set(original.subarray(0, 26));
    page[FIL_PAGE_TYPE] = 0x80;
    page[FIL_PAGE_TYPE + 1] = size >> 8;
    page.set(payload, 26);
    if (lengthByte) page[size - 5] = (actual + 5) & 0xff;
    new DataView(page.buffer).setUint32(size - 4, crc32c(page, 0, size - 4));
    return page;
  }

  /** An original-format page-compressed page (type 34354). */
  function originalPage(algo: number, payload: Uint8Array): Uint8Array {
    const page = new Uint8Array(PAGE);
    page.set(original.subarray(0, 38));
    const dv = new DataView(page.buffer);
    dv.setUint32(0, 0xdeadbeef);
    dv.setUint16(FIL_PAGE_TYPE, PageType.PAGE_COMPRESSED);
    dv.setUint32(26, 0);
    dv.setUint32(30, algo);
    dv.setUint16(38, payload.length);
    page.set(payload, 40);
    return page;
  }

  it('decompresses LZ4 pages in both formats, and zlib ones', () => {
    const lz4 = lz4Encode(original);
    expect(Buffer.from(decompressFullCrc32(fullCrc32Page(2, lz4), 2)).equals(Buffer.from(original))).toBe(true);
    expect(Buffer.from(decompressMariadb(originalPage(2, lz4))).equals(Buffer.from(original))).toBe(true);
    const z = new Uint8Array(deflateSync(original));
    expect(Buffer.from(decompressFullCrc32(fullCrc32Page(1, z), 1)).equals(Buffer.from(original))).toBe(true);
    expect(Buffer.from(decompressMariadb(originalPage(1, z))).equals(Buffer.from(original))).toBe(true);
  });

  it.each([[3, 'lzo'], [4, 'lzma'], [5, 'bzip2'], [6, 'snappy']])('names algorithm %i (%s) when its stream is damaged', (algo, name) => {
    // 300 bytes of 0x01 are no valid stream of any of them
    const payload = new Uint8Array(300).fill(1);
    expect(() => decompressMariadb(originalPage(algo, payload))).toThrow(PageCompressionError);
    expect(() => decompressMariadb(originalPage(algo, payload))).toThrow(`the ${name}-compressed page does not decompress`);
  });

  it('refuses a full_crc32 file whose space flags name an unknown algorithm', async () => {
    const page0 = new Uint8Array(PAGE);
    const dv = new DataView(page0.buffer);
    dv.setUint32(34, 77);
    dv.setUint32(38, 77);
    dv.setUint32(38 + 16, 5 | 0x10 | (7 << 5));
    dv.setUint16(FIL_PAGE_TYPE, PageType.FSP_HDR);
    await expect(Tablespace.open(bytesSource(page0, 'lz.ibd'))).rejects.toThrow('unknown algorithm 7');
  });
});
