/**
 * A dropped table whose B-tree had merged pages before the drop, read back from the freed extents
 * of ibdata1 (MariaDB, --innodb-file-per-table=OFF). A merge frees the emptied leaf but leaves its
 * old image on disk (its records an old copy of rows that live on, or were deleted): once the table
 * is dropped every page of it is free, so only the leaf list tells the freed leaf from the others
 * (src/core/btree/leaf-chain.ts).
 *
 * Which leaves are stale is computed from the file itself: every leaf page of the index minus those
 * the B-tree (from its root) reaches. With the root overwritten (zeroed in a copy), the leaves can
 * only be found by scanning: the live rows must still be exactly the server's last SELECT, and the
 * stale leaves' records come back only as rows of state `damaged`, counted.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIL_PAGE_OFFSET, FIL_PAGE_TYPE, PageType, u16, u32, u64 } from '../../src/core/pages/fil-header.ts';
import { verifyPage } from '../../src/core/pages/checksum.ts';
import { PAGE_HEADER, PAGE_INDEX_ID, PAGE_LEVEL, PAGE_N_RECS } from '../../src/core/pages/index-page.ts';
import type { Row } from '../../src/core/readers/table-reader.ts';
import { startMariadb } from '../harness/mariadb.ts';
import { flushAll } from './system-tablespace-setup.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
const PAGE = 16384;

const DDL = 'CREATE TABLE merged (id INT NOT NULL PRIMARY KEY, label VARCHAR(200) NOT NULL) ENGINE=InnoDB ROW_FORMAT=DYNAMIC';

let dir: string;
let rows: Row[];
let indexId: bigint;
let rootPage: number;

const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Every ['id', 'label'] row of NDJSON output, and the `_row_state` of each. */
function read(text: string): { rows: Row[]; states: string[] } {
  const lines = text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, string | null>);
  return { rows: lines.map((o) => [o.id, o.label]), states: lines.map((o) => o._row_state ?? 'live') };
}

/** Leaf pages of the index in the file, intact ones only, with their record counts. */
function leavesInFile(bytes: Uint8Array): Map<number, number> {
  const leaves = new Map<number, number>();
  for (let n = 0; n * PAGE < bytes.length; n++) {
    const p = bytes.subarray(n * PAGE, (n + 1) * PAGE);
    if (u16(p, FIL_PAGE_TYPE) !== PageType.INDEX || u32(p, FIL_PAGE_OFFSET) !== n || verifyPage(p, true) === 'bad') continue;
    if (u64(p, PAGE_HEADER + PAGE_INDEX_ID) === indexId && u16(p, PAGE_HEADER + PAGE_LEVEL) === 0) leaves.set(n, u16(p, PAGE_HEADER + PAGE_N_RECS));
  }
  return leaves;
}

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
  dir = mkdtempSync(join(tmpdir(), 'ibd-merged-'));
  const server = await startMariadb({ extraArgs: ['--innodb-file-per-table=OFF'] });
  try {
    await server.exec(`CREATE DATABASE shop; USE shop; ${DDL}; INSERT INTO merged SELECT seq, CONCAT('row ', seq, ' ', REPEAT('x', 140)) FROM seq_1_to_40000;`);
    const ix = await server.query(`SELECT i.INDEX_ID, i.PAGE_NO FROM information_schema.INNODB_SYS_INDEXES i
      JOIN information_schema.INNODB_SYS_TABLES t USING (TABLE_ID) WHERE t.NAME = 'shop/merged' AND i.NAME = 'PRIMARY'`);
    indexId = BigInt(ix.rows[0][0] as string);
    rootPage = Number(ix.rows[0][1]);
    // The full leaves reach the disk; then most rows of the middle go, and purge merges their leaves.
    await flushAll(server);
    await server.exec('DELETE FROM merged WHERE id BETWEEN 10000 AND 30000 AND id % 25 <> 0', 'shop');
    for (let i = 0; i < 600; i++) {
      const status = String((await server.query('SHOW ENGINE INNODB STATUS')).rows[0][2]);
      if (/History list length 0\b/.test(status)) break;
      await sleep(100);
    }
    rows = (await server.query('SELECT id, label FROM merged ORDER BY id', 'shop')).rows;
    // The server's CREATE TABLE, with the character set it gave the column (its length bytes depend on it).
    writeFileSync(join(dir, 'merged.sql'), `${String((await server.query('SHOW CREATE TABLE merged', 'shop')).rows[0][1])};`);
    await flushAll(server);
    await server.exec('DROP TABLE merged', 'shop');
    await server.slowShutdown();
    writeFileSync(join(dir, 'ibdata1'), readFileSync(join(server.datadir, 'ibdata1')));
  } finally {
    await server.stop();
  }
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a dropped table whose leaves were merged before the drop', () => {
  it('read from its root: the B-tree reaches only the current leaves, the rows are the server\'s', () => {
    const run = cli([join(dir, 'ibdata1'), '--schema', join(dir, 'merged.sql'), '--index-id', String(indexId), '--format', 'ndjson']);
    expect(run.status, run.stderr).toBe(0);
    expect(read(run.stdout).rows).toEqual(rows);
  });

  it('its root overwritten: the leaves a merge freed are told apart by the leaf list, their records only rows of state damaged', () => {
    const bytes = readFileSync(join(dir, 'ibdata1'));
    const all = leavesInFile(bytes);
    const inFile = [...all.values()].reduce((a, b) => a + b, 0);
    // The file's leaves hold more records than the table had: the current leaves hold its rows (purge
    // is done), the others, which a merge freed, old copies.
    const stale = inFile - rows.length;
    expect(stale).toBeGreaterThan(0);

    bytes.fill(0, rootPage * PAGE, (rootPage + 1) * PAGE);
    const zeroed = join(dir, 'zeroed-ibdata1');
    writeFileSync(zeroed, bytes);
    for (const threads of ['1', '2']) {
      const live = cli([zeroed, '--schema', join(dir, 'merged.sql'), '--index-id', String(indexId), '--format', 'ndjson', '--threads', threads]);
      expect(live.status, live.stderr).toBe(2);
      expect(live.stderr).toContain('out of its index\'s leaf list');
      const got = read(live.stdout).rows;
      expect(got.map((r) => JSON.stringify(r)).sort()).toEqual(rows.map((r) => JSON.stringify(r)).sort());

      const everything = read(cli([zeroed, '--schema', join(dir, 'merged.sql'), '--index-id', String(indexId), '--format', 'ndjson', '--rows', 'all', '--threads', threads]).stdout);
      const damaged = everything.states.filter((s) => s === 'damaged').length;
      // Every old copy is back, of state damaged: the freed pages are intact, their lists read whole.
      expect(damaged).toBe(stale);

      const count = cli([zeroed, '--schema', join(dir, 'merged.sql'), '--index-id', String(indexId), '--count', '--threads', threads]);
      expect(count.stdout.trim().split('\n')[0], count.stderr).toBe(String(rows.length));
    }
  });
});
