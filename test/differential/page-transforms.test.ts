/**
 * Pages that are not stored as they are read, against a real MariaDB 10.11: ROW_FORMAT=COMPRESSED at
 * every KEY_BLOCK_SIZE (with off-page columns, secondary indexes, deletes and updates, so that pages
 * carry modification logs and ZBLOB chains), PAGE_COMPRESSED=1 (zlib) in both tablespace formats, and
 * file_key_management encryption (alone, with page compression, with ROW_FORMAT=COMPRESSED). Every
 * value is compared with the server's SELECT.
 *
 * Encrypted files are read twice: through openTable with the keys, and (isolating the decryption)
 * through the tablespace's decryptor alone into a plain tablespace file, which the ordinary decoder
 * reads (decompressing it where it is compressed).
 */
import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32c } from '../../src/core/pages/checksum.ts';
import { loadKeyFile, mariadbCryptOffset, openDecryptor, parseKeyFile } from '../../src/core/tablespace/encryption.ts';
import { fullCrc32StoredSize } from '../../src/core/pages/page-compression.ts';
import { zipPageCrc32 } from '../../src/core/pages/zip-page.ts';
import { FIL_PAGE_TYPE, PageType, u16 } from '../../src/core/pages/fil-header.ts';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { openTable, type Row } from '../../src/core/readers/table-reader.ts';
import { Tablespace } from '../../src/core/tablespace/tablespace.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { ndjsonRows } from '../../src/core/writers/output.ts';
import { execFileSync, spawnSync } from 'node:child_process';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
import { decodeFile, expectSameRows, expectServerRows } from './decode.ts';

const KEY_FILE = '1;a7addd9adea9978fda19f21e6be987880e68ac92632ca052e5bb42b1a506939a\n2;49c16acc2dffe616710c9ba9a10b94944a737de1beccb52dc1560abfdd67388b\n# a comment\n3;0123456789abcdef0123456789abcdef\n';
const dir = mkdtempSync(join(tmpdir(), 'ibd-keys-'));
const keyPath = join(dir, 'keys.txt');
writeFileSync(keyPath, KEY_FILE);
const keys = { mariadb: parseKeyFile(KEY_FILE) };
const encryptionArgs = ['--plugin-load-add=file_key_management', `--file-key-management-filename=${keyPath}`];

/**
 * The key file encrypted with a password, as `openssl enc -aes-256-cbc -md sha1 -k <password>` writes
 * it ("Salted__", salt, then AES-256-CBC with key and IV from EVP_BytesToKey over SHA-1): the
 * crc32 server reads its keys from this file, so the server itself vouches for the format.
 */
const FILE_KEY = 'secret-pass'; // no spaces: mariadb-install-db passes options through a shell
const encryptedKeyPath = join(dir, 'keys.enc');
{
  const salt = randomBytes(8);
  let material = Buffer.alloc(0);
  for (let d = Buffer.alloc(0); material.length < 48;) {
    d = createHash('sha1').update(Buffer.concat([d, Buffer.from(FILE_KEY), salt])).digest();
    material = Buffer.concat([material, d]);
  }
  const cipher = createCipheriv('aes-256-cbc', material.subarray(0, 32), material.subarray(32, 48));
  writeFileSync(encryptedKeyPath, Buffer.concat([Buffer.from('Salted__'), salt, cipher.update(KEY_FILE), cipher.final()]));
}
const encryptedKeyArgs = ['--plugin-load-add=file_key_management', `--file-key-management-filename=${encryptedKeyPath}`, `--file-key-management-filekey=${FILE_KEY}`];

/** Rows with NULLs, short and long text (off-page), binary data and a secondary index. */
async function fill(server: MariadbServer, table: string, options: string, rows = 1500): Promise<void> {
  await server.exec(`CREATE TABLE ${table} (id INT PRIMARY KEY, a VARCHAR(100), b MEDIUMTEXT, n INT NULL, bin VARBINARY(64), d DECIMAL(10,2), KEY (a)) ${options}`);
  await server.exec(`INSERT INTO ${table} SELECT seq, CONCAT('row ', seq, IF(seq % 7 = 0, ' 😀é', '')),
      CASE WHEN seq % 97 = 0 THEN REPEAT(SHA2(seq, 256), 300) WHEN seq % 11 = 0 THEN NULL ELSE REPEAT('x', seq % 40) END,
      IF(seq % 3 = 0, NULL, seq * 7), UNHEX(SHA2(seq, 256)), seq / 3 FROM seq_1_to_${rows}`);
  // Changes after the bulk load: compressed pages take them into their modification log.
  await server.exec(`DELETE FROM ${table} WHERE id % 89 = 0; UPDATE ${table} SET a = CONCAT(a, ' upd'), n = NULL WHERE id % 13 = 0;
      UPDATE ${table} SET b = REPEAT('long ', 3000) WHERE id % 250 = 1; INSERT INTO ${table} (id, a) VALUES (${rows + 1}, 'late')`);
}

/**
 * Decrypts every page of `ibd` as stored (page compression and ROW_FORMAT=COMPRESSED stay) into a
 * plain tablespace file: key versions cleared, crypt data removed from page 0, checksums recomputed.
 */
async function plainCopy(ibd: string, out: string): Promise<void> {
  const file = new Uint8Array(readFileSync(ibd));
  const ts = await Tablespace.open(bytesSource(file, ibd), { keys });
  expect(ts.encryption).toMatch(/^MariaDB encryption, key id \d/);
  const size = ts.physicalSize;
  const decryptor = await openDecryptor(bytesSource(file, ibd), ts.fsp, size, keys);
  if (!decryptor) throw new Error('no decryptor');
  const image = file.slice();
  for (let no = 0; no < ts.pageCount; no++) {
    const page = image.subarray(no * size, (no + 1) * size);
    if (page.every((b) => b === 0)) continue;
    if (decryptor.isEncrypted(page)) page.set(await decryptor.decrypt(page, no));
    else if (no === 0) page.fill(0, mariadbCryptOffset(ts.pageSize, size), mariadbCryptOffset(ts.pageSize, size) + 6); // the crypt data's magic
    const dv = new DataView(page.buffer, page.byteOffset, size);
    if (ts.fullCrc32) {
      dv.setUint32(0, 0);
      const stored = fullCrc32StoredSize(page)!;
      dv.setUint32(stored - 4, crc32c(page, 0, stored - 4));
    } else {
      dv.setUint32(26, 0);
      dv.setUint32(30, 0);
      if (ts.fsp.flags.zipSize) dv.setUint32(0, zipPageCrc32(page));
      else if (u16(page, FIL_PAGE_TYPE) !== PageType.PAGE_COMPRESSED_ENCRYPTED) {
        const crc = (crc32c(page, 4, 26) ^ crc32c(page, 38, size - 8)) >>> 0;
        dv.setUint32(0, crc);
        dv.setUint32(size - 8, crc);
      }
    }
  }
  writeFileSync(out, image);
}

describe('page transforms against MariaDB 10.11', () => {
  let crc32: MariadbServer;
  let full: MariadbServer;
  beforeAll(async () => {
    [crc32, full] = await Promise.all([
      startMariadb({ checksum: 'crc32', extraArgs: ['--innodb-read-only-compressed=OFF', ...encryptedKeyArgs] }),
      startMariadb({ checksum: 'full_crc32', extraArgs: encryptionArgs }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([crc32?.stop(), full?.stop()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the password-encrypted key file the crc32 server uses', async () => {
    const fromEncrypted = await loadKeyFile(new Uint8Array(readFileSync(encryptedKeyPath)), FILE_KEY);
    expect([...fromEncrypted]).toEqual([...keys.mariadb]);
    await expect(loadKeyFile(new Uint8Array(readFileSync(encryptedKeyPath)))).rejects.toThrow(/give the password/);
    await expect(loadKeyFile(new Uint8Array(readFileSync(encryptedKeyPath)), 'wrong')).rejects.toThrow(/does not decrypt with this password/);
    expect((await crc32.query("SHOW VARIABLES LIKE 'file_key_management_filekey'")).rows.length).toBe(1);
  });

  it.each([1, 2, 4, 8, 16])('ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=%i', async (kbs) => {
    const table = `zip${kbs}`;
    await fill(crc32, table, `ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=${kbs}`);
    const { reader } = await expectServerRows(crc32, table, 'id');
    expect(reader.stats.badChecksums).toBe(0);
    const file = readFileSync(await crc32.exportTable(table));
    const types = new Set<number>();
    for (let o = 0; o < file.length; o += kbs * 1024) types.add(u16(file, o + FIL_PAGE_TYPE));
    expect(types.has(PageType.ZBLOB), 'off-page values in ZBLOB chains').toBe(true);
  });

  it('ROW_FORMAT=COMPRESSED, the same table REDUNDANT-free and with a hidden row id', async () => {
    await crc32.exec(`CREATE TABLE zip_nokey (a INT, b VARCHAR(20), c TEXT) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=4;
      INSERT INTO zip_nokey SELECT seq % 10, CONCAT('v', seq), IF(seq % 5 = 0, NULL, REPEAT('c', seq)) FROM seq_1_to_800`);
    await expectServerRows(crc32, 'zip_nokey', null);
  });

  it('PAGE_COMPRESSED=1 (zlib), original tablespace format', async () => {
    await fill(crc32, 'pc_crc32', 'PAGE_COMPRESSED=1');
    const file = readFileSync(await crc32.exportTable('pc_crc32'));
    expect(file.indexOf(Buffer.from([0x86, 0x32])) >= 0).toBe(true); // type 34354 pages exist
    await expectServerRows(crc32, 'pc_crc32', 'id');
  });

  it('PAGE_COMPRESSED=1 (zlib), full_crc32 format, level 9', async () => {
    await fill(full, 'pc_full', 'PAGE_COMPRESSED=1 PAGE_COMPRESSION_LEVEL=9');
    const { reader } = await expectServerRows(full, 'pc_full', 'id');
    expect(reader.stats.badChecksums).toBe(0);
  });

  const encrypted: [string, () => MariadbServer, string][] = [
    ['original format', () => crc32, 'ENCRYPTED=YES ENCRYPTION_KEY_ID=2'],
    ['original format, ROW_FORMAT=COMPRESSED', () => crc32, 'ENCRYPTED=YES ENCRYPTION_KEY_ID=3 ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8'],
    ['original format, PAGE_COMPRESSED', () => crc32, 'ENCRYPTED=YES PAGE_COMPRESSED=1'],
    ['full_crc32', () => full, 'ENCRYPTED=YES ENCRYPTION_KEY_ID=2'],
    ['full_crc32, PAGE_COMPRESSED', () => full, 'ENCRYPTED=YES PAGE_COMPRESSED=1'],
  ];
  it.each(encrypted)('file_key_management encryption, %s', async (what, server, options) => {
    const srv = server();
    const table = `enc_${what.replace(/\W+/g, '_')}`;
    await fill(srv, table, options, 600);
    const ddl = (await srv.query(`SHOW CREATE TABLE \`${table}\``)).rows[0][1] as string;
    const expected = await srv.query(`SELECT * FROM \`${table}\` ORDER BY id`);
    const ibd = await srv.exportTable(table);
    // Without the key the table cannot be read, and the message names the key.
    const noKey = await openTable(bytesSource(new Uint8Array(readFileSync(ibd)), 'e.ibd'), parseCreateTables(ddl)[0]).catch((e: Error) => e);
    expect(String(noKey)).toMatch(/encrypted with MariaDB key id \d: give the file_key_management key file/);
    const plain = join(dir, `${table}.ibd`);
    await plainCopy(ibd, plain);
    const { rows, reader } = await decodeFile(plain, ddl);
    expectSameRows(rows, expected.rows, table, expected.columns);
    expect(reader.stats.problems).toEqual([]);
    // And straight from the encrypted file, with the keys given to openTable.
    const direct = await openTable(bytesSource(new Uint8Array(readFileSync(ibd)), ibd), parseCreateTables(ddl)[0], { keys });
    const directRows: Row[] = [];
    for await (const batch of direct.rows()) directRows.push(...batch);
    expectSameRows(directRows, expected.rows, `${table} (openTable with keys)`, expected.columns);
    expect(direct.stats.problems).toEqual([]);
    // And from the command line, with the key file.
    const sql = join(dir, `${table}.sql`);
    writeFileSync(sql, ddl);
    const cli = spawnSync(process.execPath, [CLI, ibd, '--schema', sql, '--key-file', keyPath, '--format', 'ndjson', '--json-strings'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    expect(cli.stderr).toMatch(/ 0 undecodable records, 0 skipped pages, 0 bad checksums/);
    expect(cli.stdout).toBe(ndjsonRows(expected.columns, expected.rows));
  });

  it('a wrong key is reported as such', async () => {
    await full.exec('CREATE TABLE enc_wrong (id INT PRIMARY KEY, v VARCHAR(20)) ENCRYPTED=YES ENCRYPTION_KEY_ID=2; INSERT INTO enc_wrong VALUES (1, "a"), (2, "b")');
    const ibd = new Uint8Array(readFileSync(await full.exportTable('enc_wrong')));
    const wrong = { mariadb: parseKeyFile('2;00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff') };
    const ts = await Tablespace.open(bytesSource(ibd, 'enc_wrong.ibd'), { keys: wrong });
    let message = '';
    for (let no = 1; no < ts.pageCount && !message; no++) {
      await ts.page(no).catch((e: Error) => (message = e.message));
    }
    expect(message).toMatch(/does not decrypt with key 2 .*wrong key/);
  });
});
