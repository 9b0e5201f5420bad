/**
 * src/core/readers/summary.ts: the per-file summary (checksums, index heights, exact row count from the leaf
 * pages) must agree with what the server says (COUNT(*)) and with what the decoder returns, also
 * after deletes, when freed pages keep stale records and delete-marked records wait for purge.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables, pickTable } from '../src/core/definitions/ddl/create-table.ts';
import { readIndexHeader } from '../src/core/pages/index-page.ts';
import { bytesSource } from '../src/core/tablespace/source.ts';
import { fileSource } from '../src/node/file-source.ts';
import { quickSummary, summarize, type TablespaceSummary } from '../src/core/readers/summary.ts';
import { openTable } from '../src/core/readers/table-reader.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';

async function summaryOf(path: string): Promise<TablespaceSummary> {
  return summarize(bytesSource(new Uint8Array(readFileSync(path)), path.slice(path.lastIndexOf('/') + 1)));
}

async function count(db: MariadbServer, table: string): Promise<number> {
  return Number((await db.query(`SELECT COUNT(*) FROM ${table}`)).rows[0][0]);
}

describe.each([
  { pageSize: 16384, checksum: 'full_crc32' as const },
  { pageSize: 4096, checksum: 'crc32' as const },
])('summary of MariaDB tables ($pageSize bytes, $checksum)', ({ pageSize, checksum }) => {
  let db: MariadbServer;
  beforeAll(async () => {
    db = await startMariadb({ pageSize, checksum });
  });
  afterAll(async () => {
    await db?.stop();
  });

  it('counts rows, indexes and heights of a fresh table', async () => {
    await db.exec(`CREATE TABLE fresh (id INT PRIMARY KEY, a VARCHAR(40), b INT, KEY kb (b), UNIQUE KEY ua (a)) ENGINE=InnoDB;
      INSERT INTO fresh SELECT seq, CONCAT('value ', seq), seq % 100 FROM seq_1_to_30000;`);
    const s = await summaryOf(await db.exportTable('fresh'));
    expect(s.complete).toBe(true);
    expect(s.rows).toBe(30000);
    expect(s.deletedRecords).toBe(0);
    expect(s.pageSize).toBe(pageSize);
    expect(s.checksumFormat).toBe(checksum === 'full_crc32' ? 'full_crc32' : 'mysql');
    expect(s.checksums.checked).toBe(s.pageCount);
    expect(s.checksums.bad).toBe(0);
    expect(s.indexes).toHaveLength(3);
    expect(s.indexes[0].clustered).toBe(true);
    for (const index of s.indexes) {
      expect(index.leafRecords).toBe(30000);
      expect(index.height).toBeGreaterThanOrEqual(2);
      expect(index.pages).toBeGreaterThan(index.leafPages);
    }
    if (checksum === 'full_crc32') expect(s.serverHints.join(' ')).toMatch(/MariaDB 10\.5/);
    expect(s.rowFormat).toMatch(/DYNAMIC/);
  });

  // With 4K pages a descriptor group is 16 MB: a file extended past one before its free limit gets
  // there has a group whose descriptor page InnoDB has not written yet (zeros): not damage.
  it.runIf(pageSize === 4096)('a descriptor group past the free limit is free, not a damaged descriptor page', async () => {
    await db.exec(`CREATE TABLE grown (a INT NOT NULL, b DATE NOT NULL, c VARCHAR(40), d INT, e VARCHAR(20),
        PRIMARY KEY (a, b), UNIQUE KEY uc (c), KEY kd (d), KEY ke (e(3)), KEY kde (d, e)) ENGINE=InnoDB;
      INSERT INTO grown SELECT seq DIV 3, DATE_ADD('2001-01-01', INTERVAL (seq * 7) % 3000 DAY), IF(seq % 11 = 0, NULL, CONCAT('c', seq * 7919 % 100003)),
        IF(seq % 13 = 0, NULL, seq % 97), CONCAT(ELT(1 + seq % 4, 'ab', 'Ab', 'abc', 'x'), seq % 50) FROM seq_1_to_60000;`);
    const path = await db.exportTable('grown');
    const bytes = readFileSync(path);
    const page0 = new DataView(bytes.buffer, bytes.byteOffset, pageSize);
    const freeLimit = page0.getUint32(38 + 12); // FSP_HEADER + FSP_FREE_LIMIT
    // The case itself: pages past the group's start, the free limit before it, its first page zeros.
    expect(bytes.length / pageSize).toBeGreaterThan(pageSize);
    expect(freeLimit).toBeLessThanOrEqual(pageSize);
    expect(bytes.subarray(pageSize * pageSize, pageSize * (pageSize + 1)).every((b) => b === 0)).toBe(true);
    const s = await summaryOf(path);
    expect(s.problems).toEqual([]);
    expect(s.rows).toBe(await count(db, 'grown'));
    expect(s.freePages).toBeGreaterThanOrEqual(bytes.length / pageSize - freeLimit);
  });

  it('reads the file in chunks into reused buffers: the same summary, two at once, and after a stop', async () => {
    await db.exec(`CREATE TABLE chunked (id INT PRIMARY KEY, a VARCHAR(60), KEY ka (a)) ENGINE=InnoDB;
      INSERT INTO chunked SELECT seq, CONCAT('chunked value ', seq) FROM seq_1_to_20000;`);
    const path = await db.exportTable('chunked');
    const whole = await summaryOf(path);
    // The server counts the rows; the chunked reads below must agree with the whole-file summary.
    expect(whole.rows).toBe(await count(db, 'chunked'));
    // A file source reads into the worker's reused buffers, moving each (as a Blob's BYOB read does):
    // a page looked at after its buffer went back would read as empty. Chunks of 3 pages, and of 1.
    const opened = await Promise.all([fileSource(path), fileSource(path)]);
    try {
      const [a, b] = await Promise.all([
        summarize(opened[0], { chunkBytes: 3 * pageSize }),
        summarize(opened[1], { chunkBytes: pageSize }),
      ]);
      expect(a).toEqual(whole);
      expect(b).toEqual(whole);
      // Stopped mid-file (at its first progress report after page 0), then read again with the same buffers.
      const controller = new AbortController();
      const stopped = summarize(opened[0], { chunkBytes: 3 * pageSize, signal: controller.signal, progressPages: 16, onProgress: (p) => { if (p.pagesScanned > 0) controller.abort(new Error('stop')); } });
      await expect(stopped).rejects.toThrow('stop');
      expect(await summarize(opened[0], { chunkBytes: 2 * pageSize })).toEqual(whole);
    } finally {
      await Promise.all(opened.map((f) => f.close()));
    }
  });

  it('counts only live rows after deletes, purge and page merges', async () => {
    await db.exec(`CREATE TABLE churn (id INT PRIMARY KEY, pad VARCHAR(200)) ENGINE=InnoDB;
      INSERT INTO churn SELECT seq, REPEAT('p', 150) FROM seq_1_to_40000;
      FLUSH TABLES churn FOR EXPORT; UNLOCK TABLES;
      DELETE FROM churn WHERE id % 10 <> 0 AND id > 5000;
      DELETE FROM churn WHERE id BETWEEN 20000 AND 30000;
      SET GLOBAL innodb_max_purge_lag_wait = 0;`);
    const expected = await count(db, 'churn');
    const path = await db.exportTable('churn');
    const s = await summaryOf(path);
    expect(s.rows).toBe(expected);
    // The rows were on disk before the deletes (the flush above), so the merged-away leaf pages still
    // hold their old records; only the extent descriptors say they are free. Summing every leaf page
    // of the file would count them.
    const bytes = readFileSync(path);
    let stale = 0;
    for (let p = 0; p < s.pageCount; p++) {
      const page = bytes.subarray(p * pageSize, (p + 1) * pageSize);
      if (readIndexHeader(page).level === 0 && page.readUInt16BE(24) === 17855) stale += readIndexHeader(page).nRecs;
    }
    expect(stale).toBeGreaterThan(expected * 2);
  });

  it('counts delete-marked records apart from rows', async () => {
    await db.exec(`CREATE TABLE marked (id INT PRIMARY KEY, v INT) ENGINE=InnoDB;
      INSERT INTO marked SELECT seq, seq FROM seq_1_to_2000;`);
    // A transaction left open keeps purge from removing the delete-marked records.
    const conn = await import('mariadb').then((m) => m.createConnection({ socketPath: db.socket, user: 'root', database: 'test' }));
    try {
      await conn.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
      await conn.query('SELECT COUNT(*) FROM marked');
      await db.exec('DELETE FROM marked WHERE id <= 500');
      const s = await summaryOf(await db.exportTable('marked'));
      expect(s.rows).toBe(1500);
      expect(s.deletedRecords).toBe(500);
      expect(s.indexes[0].leafRecords).toBe(2000);
    } finally {
      await conn.end();
    }
  });

  it('reports bad checksums with their page numbers', async () => {
    await db.exec(`CREATE TABLE dmg (id INT PRIMARY KEY, v VARCHAR(100)) ENGINE=InnoDB;
      INSERT INTO dmg SELECT seq, REPEAT('v', 90) FROM seq_1_to_3000;`);
    const bytes = new Uint8Array(readFileSync(await db.exportTable('dmg')));
    const victim = 5;
    bytes[victim * pageSize + 200] ^= 0xff;
    const s = await summarize(bytesSource(bytes, 'dmg.ibd'));
    expect(s.checksums.bad).toBe(1);
    expect(s.checksums.badPages).toEqual([victim]);
  });

  it('counts the rows of compressed tables and of a table altered instantly', async () => {
    await db.exec(`CREATE TABLE pc (id INT PRIMARY KEY, v VARCHAR(200)) ENGINE=InnoDB PAGE_COMPRESSED=1;
      INSERT INTO pc SELECT seq, REPEAT(CHAR(65 + seq % 26), 150) FROM seq_1_to_5000;
      CREATE TABLE inst (id INT PRIMARY KEY, a INT) ENGINE=InnoDB;
      INSERT INTO inst SELECT seq, seq FROM seq_1_to_20;
      ALTER TABLE inst ADD COLUMN b INT NOT NULL DEFAULT 7, ALGORITHM=INSTANT;
      INSERT INTO inst (id, a) VALUES (21, 21);`);
    const tables = ['pc', 'inst'];
    if (checksum === 'crc32') {
      // ROW_FORMAT=COMPRESSED needs the MySQL-compatible layout (not full_crc32).
      await db.exec(`CREATE TABLE zc (id INT PRIMARY KEY, v VARCHAR(200)) ENGINE=InnoDB ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=${pageSize >= 8192 ? 8 : 4};
        INSERT INTO zc SELECT seq, REPEAT(CHAR(65 + seq % 26), 150) FROM seq_1_to_5000;`);
      tables.push('zc');
    }
    for (const table of tables) {
      const s = await summaryOf(await db.exportTable(table));
      expect(s.rows, table).toBe(await count(db, table));
      expect(s.checksums.bad, table).toBe(0);
      expect(s.checksums.checked, table).toBe(s.pageCount);
      expect(s.problems, table).toEqual([]);
    }
  });

  it('gives the quick summary (roots and heights) without scanning', async () => {
    await db.exec(`CREATE TABLE q (id BIGINT PRIMARY KEY) ENGINE=InnoDB; INSERT INTO q SELECT seq FROM seq_1_to_10;`);
    const s = await quickSummary(bytesSource(new Uint8Array(readFileSync(await db.exportTable('q'))), 'q.ibd'));
    expect(s.complete).toBe(false);
    expect(s.rows).toBeNull();
    expect(s.indexes).toHaveLength(1);
    expect(s.indexes[0].height).toBe(1);
  });
});

describe('summary of the MySQL 5.6 / 5.7 / 8.0 fixture files', () => {
  const ROOT = join(import.meta.dirname, 'fixtures/mysql-testsuite');
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ibd') ? [p] : [];
    });
  // the fixtures are part of the repository: missing ones fail, never skip
  const all = existsSync(ROOT) ? files(ROOT) : [];

  it('counts the rows the decoder returns, and sees SDI in the 8.0 files', async () => {
    expect(all.length, `no MySQL fixture .ibd files under ${ROOT}`).toBeGreaterThan(0);
    let compared = 0;
    for (const path of all) {
      const rel = relative(ROOT, path);
      const version = rel.split('/')[0];
      const sqlPath = join(ROOT, 'mysql56', rel.slice(version.length + 1).replace(/\.ibd$/, '.sql'));
      const s = await summaryOf(path);
      expect(s.complete, rel).toBe(true);
      expect(s.checksums.bad, rel).toBe(0);
      expect(s.sdi, rel).toBe(version === 'mysql80');
      if (version === 'mysql80') expect(s.serverHints.join(' '), rel).toMatch(/MySQL 8/);
      if (!existsSync(sqlPath)) continue;
      const table = pickTable(parseCreateTables(readFileSync(sqlPath, 'utf8')), path);
      if (!table) continue;
      let decoded = 0;
      try {
        const reader = await openTable(bytesSource(new Uint8Array(readFileSync(path)), rel), table);
        for await (const batch of reader.rows()) decoded += batch.length;
        if (reader.stats.recordsFailed > 0 || reader.stats.pagesSkipped > 0) continue;
      } catch {
        continue; // what the decoder cannot read yet is its own tests' business
      }
      expect(s.rows, rel).toBe(decoded);
      compared++;
    }
    expect(compared).toBeGreaterThan(40);
  }, 300_000);
});
