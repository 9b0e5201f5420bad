/**
 * The summary of ROW_FORMAT=COMPRESSED tables (issue 8): their extent descriptor pages come every
 * KEY_BLOCK_SIZE pages, not every logical page size, so a file past the first descriptor group must
 * still tell free pages (which keep stale records after a delete and purge) from used ones. Page and
 * row counts are compared with the server's file and COUNT(*).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { bytesSource } from '../src/core/tablespace/source.ts';
import { summarize } from '../src/core/readers/summary.ts';
import { openTable } from '../src/core/readers/table-reader.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';

describe('summary of ROW_FORMAT=COMPRESSED tables (16K pages)', () => {
  let db: MariadbServer;
  beforeAll(async () => {
    db = await startMariadb({ checksum: 'crc32', extraArgs: ['--innodb-read-only-compressed=OFF'] });
  });
  afterAll(async () => {
    await db?.stop();
  });

  it.each([
    // KEY_BLOCK_SIZE=4: 4096 pages (16 MB) per descriptor group; incompressible rows fill more than one.
    { kbs: 4, rows: 24_000 },
    { kbs: 8, rows: 6_000 },
  ])('KEY_BLOCK_SIZE=$kbs: page count and row count after deletes and purge', async ({ kbs, rows }) => {
    const table = `zip${kbs}`;
    await db.exec(`CREATE TABLE ${table} (id INT PRIMARY KEY, h CHAR(32), r VARBINARY(800), KEY kh (h)) ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=${kbs};
      INSERT INTO ${table} SELECT seq, MD5(seq), RANDOM_BYTES(800) FROM seq_1_to_${rows};
      DELETE FROM ${table} WHERE id % 3 = 0 OR id BETWEEN ${Math.floor(rows * 0.6)} AND ${Math.floor(rows * 0.8)};
      SET GLOBAL innodb_max_purge_lag_wait = 0;`);
    const ddl = (await db.query(`SHOW CREATE TABLE ${table}`)).rows[0][1] as string;
    const expected = Number((await db.query(`SELECT COUNT(*) FROM ${table}`)).rows[0][0]);
    const bytes = new Uint8Array(readFileSync(await db.exportTable(table)));
    if (kbs === 4) expect(bytes.length / (kbs * 1024)).toBeGreaterThan(kbs * 1024);

    const s = await summarize(bytesSource(bytes, `${table}.ibd`));
    expect(s.pageSize).toBe(16384);
    expect(s.rowFormat).toBe('COMPRESSED');
    expect(s.pageCount).toBe(bytes.length / (kbs * 1024));
    expect(s.checksums.checked).toBe(s.pageCount);
    expect(s.checksums.bad).toBe(0);
    expect(s.problems).toEqual([]);
    expect(s.rows).toBe(expected);
    expect(s.indexes[0].leafRecords).toBe(expected + s.deletedRecords);

    const reader = await openTable(bytesSource(bytes, `${table}.ibd`), parseCreateTables(ddl)[0]);
    let decoded = 0;
    for await (const batch of reader.rows()) decoded += batch.length;
    expect(decoded).toBe(expected);
  }, 600_000);
});
