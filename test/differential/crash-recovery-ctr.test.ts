/**
 * Issue 37 with an encrypted datadir whose key plugin encrypts with AES-CTR
 * (file_key_management_encryption_algorithm=aes_ctr, MariaDB 10.11): the crash-recovery workload
 * (crash-recovery-setup.ts) killed with a transaction left open, innodb_encrypt_log=ON and
 * innodb_encrypt_tables=ON. The log does not say its cipher: the first mini-transaction only one
 * cipher decrypts well-formed decides (log-crypt.ts). Nor do the tablespaces: the first encrypted page
 * whose decryption checks out (in full_crc32 the LSN the page repeats at its end) decides for the
 * file, whatever page is read first (a BLOB page, a page the log rebuilt plain). A second server
 * recovers copy B by itself; our rows from copy A, through the library and the CLI, equal its SELECT.
 * Then the recovered server, intact, AES-CTR too: BLOB-heavy tables of each row format, exported,
 * read through the CLI, in both tablespace formats (full_crc32 and the original one).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanRedoLog } from '../../src/core/log/redo-scan.ts';
import { parseKeyFile } from '../../src/core/tablespace/encryption.ts';
import { Tablespace } from '../../src/core/tablespace/tablespace.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { crashMidWork, expectAsServer, flushAll, SERVER_ARGS, TABLES, type Crashed } from './crash-recovery-setup.ts';
import { ndjsonRows } from './undo-setup.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

const KEYS = '1;5c4b1ff1a0a1e2d9f7b0c3a4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708\n2;0123456789abcdef0123456789abcdef\n';
const dir = mkdtempSync(join(tmpdir(), 'ibd-redo-ctr-'));
const KEY_FILE = join(dir, 'keys.txt');
writeFileSync(KEY_FILE, KEYS);
const keys = { mariadb: parseKeyFile(KEYS) };
const ENCRYPTION = [
  '--plugin-load-add=file_key_management', `--file-key-management-filename=${KEY_FILE}`, '--file-key-management-encryption-algorithm=aes_ctr',
  '--innodb-encrypt-log=ON', '--innodb-encrypt-tables=ON', '--innodb-default-encryption-key-id=2',
];

let crashed: Crashed;
let copyA: string;
let recovered: MariadbServer;

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
  crashed = await crashMidWork(true, true, ENCRYPTION);
  copyA = crashed.server.copyDatadir();
  recovered = await startMariadb({ datadir: crashed.server.copyDatadir(), extraArgs: [...SERVER_ARGS, ...ENCRYPTION] });
}, 300_000);

afterAll(async () => {
  await recovered?.stop();
  await crashed?.server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('an AES-CTR encrypted datadir killed mid-work, its encrypted log applied', () => {
  it('has an encrypted log whose records decrypt (with CTR: the key plugin was set so)', async () => {
    const log = await fileSource(join(copyA, 'ib_logfile0'));
    try {
      const scan = await scanRedoLog(log, null, undefined, keys);
      expect([scan.header.encryption, scan.unappliable]).toEqual(['stream', null]);
      expect(scan.recordCount).toBeGreaterThan(10_000);
      expect(scan.files.filter((f) => f.op === 'create').map((f) => f.name)).toContain('./test/t_new.ibd');
    } finally {
      await log.close();
    }
    expect((await recovered.query("SHOW GLOBAL VARIABLES LIKE 'file_key_management_encryption_algorithm'")).rows[0][1]).toMatch(/^aes_ctr$/i);
  }, 120_000);

  for (const table of TABLES) {
    it(`reads ${table} as the server's own recovery leaves it, every row`, () => expectAsServer(recovered, copyA, table, keys), 180_000);
  }
  it('CLI: t_open, the transaction open at the crash rolled back, every row', async () => {
    const open = cli(join(copyA, 'test', 't_open.ibd'), '--format', 'ndjson', '--json-strings', '--key-file', KEY_FILE);
    expect(open.status, open.stderr).toBe(0);
    expect(ndjsonRows(open.stdout, ['id', 'k', 's', 'b'])).toEqual((await recovered.query('SELECT id, k, s, b FROM t_open ORDER BY id')).rows);
    expect(open.stderr).toMatch(/was active at the crash: rolled back, \d+ rows changed/);
  }, 300_000);
});

describe('an intact AES-CTR encrypted datadir, BLOB-heavy tables', () => {
  // A page-compressed table's pages tell the cipher once decompressed (each may be compressed).
  // The original tablespace format too (innodb_checksum_algorithm=crc32 when the table is created):
  // the key version and checksum in bytes 26-33, the page's own checksum that of its plaintext.
  const CASES = [['dynamic', 'ROW_FORMAT=DYNAMIC'], ['compact', 'ROW_FORMAT=COMPACT'], ['redundant', 'ROW_FORMAT=REDUNDANT'], ['compressed', 'PAGE_COMPRESSED=1']].flatMap(([name, options]) => [
    [name, options, 'full_crc32'], [`${name}_crc32`, options, 'crc32'],
  ]).concat([['zip_crc32', 'ROW_FORMAT=COMPRESSED', 'crc32']]);
  for (const [name, options, checksum] of CASES) {
    it(`CLI: ${options} (${checksum}), BLOBs of one page and of many, every row`, async () => {
      const table = `blobs_${name}`;
      await recovered.exec(`SET GLOBAL innodb_checksum_algorithm = ${checksum}; CREATE TABLE ${table} (id INT PRIMARY KEY, t MEDIUMTEXT, u TEXT NULL) ${options}; SET GLOBAL innodb_checksum_algorithm = full_crc32;
        INSERT INTO ${table} SELECT seq, REPEAT(SHA2(seq, 256), 1 + (seq * 37) % 2000), IF(seq % 3 = 0, NULL, REPEAT(CHAR(97 + seq % 26), 700 + seq)) FROM seq_1_to_400;
        UPDATE ${table} SET t = REPEAT('ctr', 9000) WHERE id % 17 = 0; DELETE FROM ${table} WHERE id % 23 = 0`);
      await flushAll(recovered);
      const ibd = await recovered.exportTable(table);
      const raw = await fileSource(ibd);
      try {
        const ts = await Tablespace.open(raw, { keys });
        expect([ts.fullCrc32, ts.encryption]).toEqual([checksum === 'full_crc32', 'MariaDB encryption, key id 2']);
      } finally {
        await raw.close();
      }
      const out = cli(ibd, '--format', 'ndjson', '--json-strings', '--key-file', KEY_FILE);
      expect(out.status, out.stderr).toBe(0);
      const expected = (await recovered.query(`SELECT id, t, u FROM ${table} ORDER BY id`)).rows;
      expect(expected.length).toBe(383);
      expect(ndjsonRows(out.stdout, ['id', 't', 'u'])).toEqual(expected);
    }, 180_000);
  }
});
