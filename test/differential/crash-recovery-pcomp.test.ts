/**
 * Issue 37 with PAGE_COMPRESSED tables: the crash-recovery workload (crash-recovery-setup.ts) on
 * page-compressed tables of a MariaDB 10.11 server killed mid-work, a transaction left open on
 * another (t_open, lz4). t_zlib and t_lz4 are full_crc32 files (the algorithm in their space flags), t_old an
 * original-format one (innodb_checksum_algorithm=crc32 when created: each page names its algorithm,
 * lzma here); t_enc and t_old_enc the same two formats encrypted too (ENCRYPTED=YES, key 2 of the
 * file_key_management plugin: compressed, then encrypted); t_late (lz4) is created after the
 * checkpoint, its pages built from the log. t_none is a plain original-format table whose pages in
 * copy A have their checksums replaced by BUF_NO_CHECKSUM_MAGIC, as innodb_checksum_algorithm=none
 * wrote them up to MariaDB 10.5 (10.11 writes none: the pages are otherwise the server's). The log applies to the pages decompressed, as fil_page_decompress gives them to the
 * server's recovery; a second server recovers copy B by itself, and its SELECT is the truth for our
 * rows from copy A. As on disk (--as-on-disk), the rows differ: the log mattered.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isFullCrc32Compressed, isMariadbCompressed } from '../../src/core/pages/page-compression.ts';
import { parseKeyFile } from '../../src/core/tablespace/encryption.ts';
import { Tablespace } from '../../src/core/tablespace/tablespace.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { startMariadb, type MariadbServer, type Session } from '../harness/mariadb.ts';
import { KEY1, KEY2, writeKeyFile } from './crash-encrypted-setup.ts';
import { CHANGE, expectAsServer, flushAll, LOAD, SERVER_ARGS } from './crash-recovery-setup.ts';
import { ndjsonRows } from './undo-setup.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const dir = mkdtempSync(join(tmpdir(), 'ibd-redo-pcomp-'));
const KEY_FILE = writeKeyFile(dir, 'keys.txt', KEY1 + KEY2);
const keys = { mariadb: parseKeyFile(KEY1 + KEY2) };
// A log big enough that no checkpoint is forced during the changes: each table's are in the log only.
const ARGS = [...SERVER_ARGS, '--innodb-log-file-size=256M', '--plugin-load-add=provider_lz4', '--plugin-load-add=provider_lzma', '--plugin-load-add=file_key_management', `--file-key-management-filename=${KEY_FILE}`];
const PCOMP = 'DYNAMIC PAGE_COMPRESSED=1';
const ENCRYPTED = `${PCOMP} ENCRYPTED=YES ENCRYPTION_KEY_ID=2`;
const TABLES = ['t_zlib', 't_lz4', 't_old', 't_enc', 't_old_enc', 't_late', 't_none'] as const;
/** innodb_checksum_algorithm=none's BUF_NO_CHECKSUM_MAGIC, in place of both checksums. */
const MAGIC_NONE = 0xdeadbeef;

/** Writes MAGIC_NONE over both checksums of every written page of an original-format 16K file; how many pages. */
function withoutChecksums(path: string): number {
  const file = readFileSync(path);
  let pages = 0;
  for (let at = 0; at < file.length; at += 16384) {
    if (file.subarray(at, at + 16384).every((b) => b === 0)) continue;
    file.writeUInt32BE(MAGIC_NONE, at);
    file.writeUInt32BE(MAGIC_NONE, at + 16384 - 8);
    pages++;
  }
  writeFileSync(path, file);
  return pages;
}


let server: MariadbServer;
let session: Session;
let copyA: string;
let recovered: MariadbServer;
let nonePages = 0;

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
  server = await startMariadb({ extraArgs: ARGS });
  await server.exec(`SET GLOBAL innodb_compression_algorithm = zlib; ${LOAD('t_zlib', PCOMP)}
    ${LOAD('t_enc', ENCRYPTED)}
    SET GLOBAL innodb_compression_algorithm = lz4; ${LOAD('t_lz4', PCOMP)} ${LOAD('t_open', PCOMP, 1000)}
    SET GLOBAL innodb_checksum_algorithm = crc32; SET GLOBAL innodb_compression_algorithm = lzma; ${LOAD('t_old', PCOMP)} ${LOAD('t_old_enc', ENCRYPTED)} ${LOAD('t_none', 'DYNAMIC')}
    SET GLOBAL innodb_checksum_algorithm = full_crc32;`);
  await flushAll(server);
  // t_late is created after the checkpoint: its pages are built by the log (INIT_PAGE), beyond the file's end.
  await server.exec(`${TABLES.filter((t) => t !== 't_late').map(CHANGE).join('')} SET GLOBAL innodb_compression_algorithm = lz4; ${LOAD('t_late', PCOMP, 2000)}`);
  session = await server.openSession();
  await session.exec("BEGIN; DELETE FROM t_open WHERE id < 300; UPDATE t_open SET s = 'uncommitted', k = -k WHERE id > 700");
  // Another connection's commit writes the log buffer out with the open transaction's changes.
  await server.exec('CREATE TABLE t_sync (id INT PRIMARY KEY); INSERT INTO t_sync VALUES (1)');
  await server.crash();
  copyA = server.copyDatadir();
  nonePages = withoutChecksums(join(copyA, 'test', 't_none.ibd'));
  recovered = await startMariadb({ datadir: server.copyDatadir(), extraArgs: ARGS });
}, 600_000);

afterAll(async () => {
  await recovered?.stop();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('page-compressed tables of a datadir killed mid-work, rolled forward', () => {
  it('has page-compressed files in both formats, with compressed pages', async () => {
    const formats: [string, boolean, number, number, string | null][] = [];
    for (const table of TABLES) {
      if (table === 't_late' || table === 't_none') continue;
      const raw = await fileSource(join(copyA, 'test', `${table}.ibd`));
      try {
        const ts = await Tablespace.open(raw, { keys });
        let compressed = 0;
        for (let no = 1; no < ts.pageCount; no++) {
          const page = await raw.read(no * ts.physicalSize, ts.physicalSize);
          if (ts.fullCrc32 ? isFullCrc32Compressed(page) : isMariadbCompressed(page)) compressed++;
        }
        formats.push([table, ts.fullCrc32, ts.fsp.flags.pageCompression, Math.sign(compressed), ts.encryption]);
      } finally {
        await raw.close();
      }
    }
    // full_crc32: the algorithm in the flags (1 zlib, 2 lz4); the original format: a flag, the algorithm in each page.
    const key2 = 'MariaDB encryption, key id 2';
    expect(formats).toEqual([['t_zlib', true, 1, 1, null], ['t_lz4', true, 2, 1, null], ['t_old', false, 1, 1, null], ['t_enc', true, 1, 1, key2], ['t_old_enc', false, 1, 1, key2]]);
    expect(recovered.errorLog()).toMatch(/crash recovery/i);
    expect(nonePages).toBeGreaterThan(50);
  }, 120_000);

  for (const table of TABLES) {
    it(`reads ${table} as the server's own recovery leaves it, every row`, () => expectAsServer(recovered, copyA, table, keys), 180_000);
  }

  it('CLI: rolls forward (exit 0, the rows the server gives); as on disk the rows differ (exit 2)', async () => {
    for (const table of TABLES) {
      const ibd = join(copyA, 'test', `${table}.ibd`);
      const expected = (await recovered.query(`SELECT id, k, s FROM ${table} ORDER BY id`)).rows;
      const rolled = cli(ibd, '--format', 'ndjson', '--json-strings', '--key-file', KEY_FILE);
      expect(rolled.status, rolled.stderr).toBe(0);
      expect(rolled.stderr).toMatch(/rolled forward from the checkpoint: \d+ log records applied/);
      expect(ndjsonRows(rolled.stdout, ['id', 'k', 's']), table).toEqual(expected);
      const onDisk = cli(ibd, '--format', 'ndjson', '--json-strings', '--as-on-disk', '--key-file', KEY_FILE);
      // t_late's file is all zeros on disk (its pages only in the log): not a tablespace as it is.
      expect(onDisk.status, onDisk.stderr).toBe(table === 't_late' ? 1 : 2);
      expect(ndjsonRows(onDisk.stdout, ['id', 'k', 's']), table).not.toEqual(expected);
    }
  }, 300_000);

  it('CLI: the open transaction on t_open (lz4) is rolled back over its rolled-forward pages', async () => {
    const open = cli(join(copyA, 'test', 't_open.ibd'), '--format', 'ndjson', '--json-strings');
    expect(open.status, open.stderr).toBe(0);
    expect(open.stderr).toMatch(/was active at the crash: rolled back, \d+ rows changed/);
    expect(ndjsonRows(open.stdout, ['id', 'k', 's'])).toEqual((await recovered.query('SELECT id, k, s FROM t_open ORDER BY id')).rows);
  }, 300_000);
});
