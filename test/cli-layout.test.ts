/**
 * One layout per file, whichever command reads it (issue 41: a MySQL 8 file whose page 0 claims 8 KB
 * compressed pages while its pages are 16 KB ones was read by the rows and the page map in one layout
 * and by --list-indexes in another; a ROW_FORMAT=COMPRESSED file was "no InnoDB page found" for
 * --list-indexes while --page-map listed its valid pages). The CLI (dist-cli, built here) on:
 *  - a MySQL 8 fixture whose page 0 flags are rewritten to ZIP_SSIZE = 8 KB, its checksum made right:
 *    rows, the SDI's CREATE TABLE, the index list and the page map equal the intact file's, and each
 *    command says the flags disagree with the pages;
 *  - a ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8 table written by MariaDB: --list-indexes finds the
 *    trees --page-map shows, with the server's row count.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32c } from '../src/core/pages/checksum.ts';
import { startMariadb } from './harness/mariadb.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
const FIXTURE = join(ROOT, 'test/fixtures/mysql-testsuite/mysql80/pk/tb24_sk.ibd');

function cli(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
}

/** The index list's rows (space, index, pages, leaf, non-leaf, levels, records, format, root). */
const indexRows = (text: string) => text.trimEnd().split('\n').slice(2).map((l) => l.split(/\s+/).slice(0, 9));

describe('one layout for every command', () => {
  let dir: string;
  beforeAll(() => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    dir = mkdtempSync(join(tmpdir(), 'cli-layout-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a MySQL 8 file whose page 0 claims 8 KB compressed pages: rows, SDI, index list and page map as the intact file', () => {
    const intact = join(dir, 'tb24_sk.ibd');
    copyFileSync(FIXTURE, intact);
    const bytes = new Uint8Array(readFileSync(FIXTURE));
    const dv = new DataView(bytes.buffer, bytes.byteOffset);
    dv.setUint32(38 + 16, (dv.getUint32(38 + 16) & ~0x1e) | (4 << 1));
    const crc = (crc32c(bytes, 4, 26) ^ crc32c(bytes, 38, 16384 - 8)) >>> 0;
    dv.setUint32(0, crc);
    dv.setUint32(16384 - 8, crc);
    const claimed = join(dir, 'claimed', 'tb24_sk.ibd');
    execFileSync('mkdir', ['-p', join(dir, 'claimed')]);
    writeFileSync(claimed, bytes);

    const disagree = /the space flags on page 0 \(0x[0-9a-f]+\) say 8 KB compressed pages \(ROW_FORMAT=COMPRESSED, 16 KB uncompressed\), but the pages are 16 KB pages/;
    for (const args of [[], ['--print-ddl'], ['--page-map', '--format', 'ndjson'], ['--count']]) {
      const want = cli(intact, ...args);
      const got = cli(claimed, ...args);
      expect([got.status, want.status], args.join(' ')).toEqual([0, 0]);
      expect(got.stdout, args.join(' ')).toBe(want.stdout);
      expect(got.stderr, args.join(' ')).toMatch(disagree);
    }
    expect(cli(intact).stdout.split('\n').length).toBe(4002);
    const want = cli(intact, '--list-indexes');
    const got = cli(claimed, '--list-indexes');
    expect(got.status).toBe(0);
    expect(got.stdout.split('\n')[0]).toMatch(/^tb24_sk\.ibd: 16 KB pages from byte 0, crc32\/innodb checksums, as the file opens; 46 pages read, 45 valid/);
    expect(indexRows(got.stdout)).toEqual(indexRows(want.stdout));
    expect(indexRows(got.stdout).map((r) => r[6])).toEqual(['4000', '4000']);
  });

  it('a ROW_FORMAT=COMPRESSED file: --list-indexes finds the trees --page-map shows, with the server\'s row count', async () => {
    const db = await startMariadb({ checksum: 'crc32', extraArgs: ['--innodb-read-only-compressed=OFF'] });
    let ibd: string;
    let rows: number;
    try {
      await db.exec(`CREATE TABLE zip8 (id INT PRIMARY KEY, h CHAR(32), KEY kh (h)) ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8;
        INSERT INTO zip8 SELECT seq, MD5(seq) FROM seq_1_to_3000;`);
      rows = Number((await db.query('SELECT COUNT(*) FROM zip8')).rows[0][0]);
      ibd = join(dir, 'zip8.ibd');
      copyFileSync(await db.exportTable('zip8'), ibd);
    } finally {
      await db.stop();
    }
    const listed = cli(ibd, '--list-indexes');
    expect(listed.stderr).toBe('');
    expect(listed.status).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(/^zip8\.ibd: 8 KB compressed pages \(ROW_FORMAT=COMPRESSED\) from byte 0, crc32\/innodb checksums, as the file opens; /);
    const map = cli(ibd, '--page-map', '--format', 'ndjson');
    expect(map.status).toBe(0);
    const entries = map.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { state: string; typeName: string; indexId: string | null; level: number | null; records: number | null });
    const index = entries.filter((e) => e.typeName === 'INDEX' && e.state === 'valid');
    const trees = indexRows(listed.stdout);
    expect(trees.map((r) => r[1]).sort()).toEqual([...new Set(index.map((e) => e.indexId))].sort());
    for (const [, id, pages, , , , records] of trees) {
      expect(Number(pages), id).toBe(index.filter((e) => e.indexId === id).length);
      expect(Number(records), id).toBe(rows);
    }
  }, 120_000);
});
