/**
 * Pages whose only damage is their checksum. Every leaf page of a real MariaDB table gets a wrong
 * stored checksum (the bytes of the records untouched), so each is read as damaged: its record list
 * still runs from the infimum to the supremum through records that fit, and those records are the
 * page's rows. Carving must not add false records found inside real ones (random binary columns
 * are full of bytes that look like record headers) nor let them push real records out. Judged by
 * the intact file: the damaged rows are exactly its rows, page by page.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { openTable, type Row, type RowMode, type TableReader } from '../../src/core/readers/table-reader.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';

const PAGE = 16384;

async function decode(bytes: Uint8Array, ddl: string, mode: RowMode): Promise<{ rows: Row[]; reader: TableReader }> {
  const reader = await openTable(bytesSource(bytes, 't.ibd'), parseCreateTables(ddl)[0], { mode });
  const rows: Row[] = [];
  for await (const batch of reader.rows()) rows.push(...batch);
  return { rows, reader };
}

describe('a wrong checksum on every leaf page', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb();
  });
  afterAll(async () => {
    await server?.stop();
  });

  for (const format of ['DYNAMIC', 'REDUNDANT']) {
    it(`${format}: the record lists give every row, nothing carved`, async () => {
      const table = `sums_${format.toLowerCase()}`;
      // Random bytes of varying length, updates that move records (garbage in the heap) and
      // deletes that purge leaves in the free lists: the bytes carving has to see through.
      await server.exec(`CREATE TABLE ${table} (id INT PRIMARY KEY, b VARBINARY(300), n SMALLINT, t VARCHAR(40))
          ROW_FORMAT=${format} DEFAULT CHARSET=utf8mb4;
        INSERT INTO ${table} SELECT seq, RANDOM_BYTES(1 + seq % 200), seq % 7000, IF(seq % 9 = 0, NULL, CONCAT('r', seq)) FROM seq_1_to_6000;
        UPDATE ${table} SET b = RANDOM_BYTES(250) WHERE id % 11 = 0;
        DELETE FROM ${table} WHERE id % 13 = 0;
        SET GLOBAL innodb_max_purge_lag_wait = 0;`);
      const ddl = (await server.query(`SHOW CREATE TABLE ${table}`)).rows[0][1] as string;
      const original = new Uint8Array(readFileSync(await server.exportTable(table)));
      const intact = await decode(original, ddl, 'live');
      expect(intact.reader.stats.damagedPages).toBe(0);
      const leaves = await intact.reader.leafPages();
      expect(leaves.length).toBeGreaterThan(40);

      const bytes = original.slice();
      for (const p of leaves) bytes[p * PAGE] ^= 0x01; // FIL_PAGE_SPACE_OR_CHKSUM
      const hurt = await decode(bytes, ddl, 'damaged');
      expect(hurt.reader.stats.damagedPages).toBe(leaves.length);
      expect(hurt.reader.stats.carvedRecords).toBe(0);
      expect(hurt.reader.stats.recordsFailed).toBe(0);
      expect(hurt.rows).toEqual(intact.rows);
    });
  }
});
