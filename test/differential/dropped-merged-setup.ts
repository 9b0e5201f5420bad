/**
 * The dropped table the dropped-merged tests read (the CLI's, test/differential/dropped-merged.test.ts,
 * and the page's, test/browser/dropped-rootless.test.ts): MariaDB with --innodb-file-per-table=OFF,
 * 40,000 rows whose middle is mostly deleted and purged (their leaves merged: a freed leaf keeps an
 * old copy of its records), the server's last SELECT taken, the table dropped, a slow shutdown (its
 * dictionary rows purged too); and the leaf pages of its index in the file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIL_PAGE_OFFSET, FIL_PAGE_TYPE, PageType, u16, u32, u64 } from '../../src/core/pages/fil-header.ts';
import { verifyPage } from '../../src/core/pages/checksum.ts';
import { PAGE_HEADER, PAGE_INDEX_ID, PAGE_LEVEL, PAGE_N_RECS } from '../../src/core/pages/index-page.ts';
import type { Row } from '../../src/core/readers/table-reader.ts';
import { startMariadb } from '../harness/mariadb.ts';
import { flushAll } from './system-tablespace-setup.ts';

export const PAGE = 16384;

export interface MergedDrop {
  /** The server's last SELECT before the DROP, in key order. */
  columns: string[];
  rows: Row[];
  /** Its SHOW CREATE TABLE (with the character set the server gave the column). */
  ddl: string;
  indexId: bigint;
  rootPage: number;
  /** ibdata1 after the slow shutdown. */
  ibdata1: Buffer;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function mergedAndDropped(): Promise<MergedDrop> {
  const server = await startMariadb({ extraArgs: ['--innodb-file-per-table=OFF'] });
  try {
    await server.exec(`CREATE DATABASE shop; USE shop;
      CREATE TABLE merged (id INT NOT NULL PRIMARY KEY, label VARCHAR(200) NOT NULL) ENGINE=InnoDB ROW_FORMAT=DYNAMIC;
      INSERT INTO merged SELECT seq, CONCAT('row ', seq, ' ', REPEAT('x', 140)) FROM seq_1_to_40000;`);
    const ix = await server.query(`SELECT i.INDEX_ID, i.PAGE_NO FROM information_schema.INNODB_SYS_INDEXES i
      JOIN information_schema.INNODB_SYS_TABLES t USING (TABLE_ID) WHERE t.NAME = 'shop/merged' AND i.NAME = 'PRIMARY'`);
    // The full leaves reach the disk; then most rows of the middle go, and purge merges their leaves.
    await flushAll(server);
    await server.exec('DELETE FROM merged WHERE id BETWEEN 10000 AND 30000 AND id % 25 <> 0', 'shop');
    for (let i = 0; i < 600; i++) {
      if (/History list length 0\b/.test(String((await server.query('SHOW ENGINE INNODB STATUS')).rows[0][2]))) break;
      await sleep(100);
    }
    const { columns, rows } = await server.query('SELECT id, label FROM merged ORDER BY id', 'shop');
    const ddl = String((await server.query('SHOW CREATE TABLE merged', 'shop')).rows[0][1]);
    await flushAll(server);
    await server.exec('DROP TABLE merged', 'shop');
    await server.slowShutdown();
    return { columns, rows, ddl, indexId: BigInt(ix.rows[0][0] as string), rootPage: Number(ix.rows[0][1]), ibdata1: readFileSync(join(server.datadir, 'ibdata1')) };
  } finally {
    await server.stop();
  }
}

/** Leaf pages of index `indexId` in the file, intact ones only, with their record counts. */
export function leavesInFile(bytes: Uint8Array, indexId: bigint): Map<number, number> {
  const leaves = new Map<number, number>();
  for (let n = 0; n * PAGE < bytes.length; n++) {
    const p = bytes.subarray(n * PAGE, (n + 1) * PAGE);
    if (u16(p, FIL_PAGE_TYPE) !== PageType.INDEX || u32(p, FIL_PAGE_OFFSET) !== n || verifyPage(p, true) === 'bad') continue;
    if (u64(p, PAGE_HEADER + PAGE_INDEX_ID) === indexId && u16(p, PAGE_HEADER + PAGE_LEVEL) === 0) leaves.set(n, u16(p, PAGE_HEADER + PAGE_N_RECS));
  }
  return leaves;
}

/** Records on the index's leaves in the file that are not the table's rows: the old copies merges freed. */
export function staleRecords(drop: MergedDrop): number {
  return [...leavesInFile(drop.ibdata1, drop.indexId).values()].reduce((a, b) => a + b, 0) - drop.rows.length;
}
