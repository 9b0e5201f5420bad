/**
 * Recovery against a real MariaDB: deleted rows (before and after purge), damaged pages, a zeroed
 * root, and random corruption. Rows are compared with what the server says existed; a recovered row
 * must be one that really existed, and the live set must stay exact.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mariadb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { IbdError } from '../src/core/errors.ts';
import { csvHeader, csvRows } from '../src/core/writers/output.ts';
import { batchRows } from '../src/core/values/row-batch.ts';
import { bytesSource } from '../src/core/tablespace/source.ts';
import { openTable, ROW_STATE_COLUMN, type Row, type RowMode, type TableReader } from '../src/core/readers/table-reader.ts';
import { rng } from './differential/random-data.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';

const key = (row: Row) => JSON.stringify(row);

async function decode(bytes: Uint8Array, ddl: string, mode: RowMode = 'live'): Promise<{ rows: Row[]; reader: TableReader }> {
  const reader = await openTable(bytesSource(bytes, 't.ibd'), parseCreateTables(ddl)[0], { mode });
  const rows: Row[] = [];
  for await (const batch of reader.rows()) rows.push(...batch);
  return { rows, reader };
}

async function fillTable(server: MariadbServer, table: string, rows: number): Promise<string> {
  await server.exec(`CREATE TABLE ${table} (id INT PRIMARY KEY, name VARCHAR(40), qty INT, note TEXT) DEFAULT CHARSET=utf8mb4;
    INSERT INTO ${table} SELECT seq, CONCAT('row ', seq), seq * 3, IF(seq % 10 = 0, NULL, REPEAT('x', seq % 50)) FROM seq_1_to_${rows};`);
  return (await server.query(`SHOW CREATE TABLE ${table}`)).rows[0][1] as string;
}

describe('deleted rows', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('not yet purged: every deleted row comes back, tagged, and the live rows stay exact', async () => {
    const ddl = await fillTable(server, 'kept', 3000);
    const before = (await server.query('SELECT * FROM kept ORDER BY id')).rows;
    // An open read view stops purge, as a long transaction does on a busy server.
    const reader = await createConnection({ socketPath: server.socket, user: 'root', database: 'test' });
    try {
      await reader.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
      await server.exec('DELETE FROM kept WHERE id % 7 = 0 OR id BETWEEN 1000 AND 1100');
      const live = (await server.query('SELECT * FROM kept ORDER BY id')).rows;
      const bytes = readFileSync(await server.exportTable('kept'));
      const liveKeys = new Set(live.map(key));
      const deleted = before.filter((r) => !liveKeys.has(key(r)));

      expect((await decode(bytes, ddl)).rows).toEqual(live);
      const gone = await decode(bytes, ddl, 'deleted');
      expect(gone.reader.columns.at(-1)).toBe(ROW_STATE_COLUMN);
      expect(gone.rows.map((r) => r.slice(0, -1))).toEqual(deleted);
      expect(new Set(gone.rows.map((r) => r.at(-1)))).toEqual(new Set(['delete-marked']));
      const both = await decode(bytes, ddl, 'both');
      expect(both.rows.map((r) => r.slice(0, -1))).toEqual(before);

      // The same from the command line.
      const dir = mkdtempSync(join(tmpdir(), 'ibd-deleted-'));
      writeFileSync(join(dir, 'kept.ibd'), bytes);
      writeFileSync(join(dir, 'kept.sql'), ddl);
      execFileSync(process.execPath, [join(import.meta.dirname, '../scripts/build-cli.mjs')], { cwd: join(import.meta.dirname, '..') });
      const cli = spawnSync(process.execPath, [join(import.meta.dirname, '../dist-cli/ibd-reader.mjs'), join(dir, 'kept.ibd'), '--schema', join(dir, 'kept.sql'), '--rows', 'deleted'], { encoding: 'utf8' });
      rmSync(dir, { recursive: true, force: true });
      expect(cli.status).toBe(0);
      expect(cli.stdout).toBe(csvHeader(gone.reader.columns) + csvRows(gone.rows));
    } finally {
      await reader.end();
    }
  });

  it('after purge: any recovered row is one that really existed; scrubbed records are counted', async () => {
    const ddl = await fillTable(server, 'purged', 3000);
    const before = (await server.query('SELECT * FROM purged ORDER BY id')).rows;
    await server.exec('DELETE FROM purged WHERE id % 5 = 0; SET GLOBAL innodb_max_purge_lag_wait = 0;');
    const live = (await server.query('SELECT * FROM purged ORDER BY id')).rows;
    const bytes = readFileSync(await server.exportTable('purged'));
    const existed = new Set(before.map(key));
    const liveKeys = new Set(live.map(key));

    expect((await decode(bytes, ddl)).rows).toEqual(live);
    const { rows, reader } = await decode(bytes, ddl, 'deleted');
    const recovered = rows.map((r) => r.slice(0, -1));
    for (const r of recovered) {
      expect(existed.has(key(r)), `recovered row ${key(r)} never existed`).toBe(true);
      expect(liveKeys.has(key(r)), `recovered row ${key(r)} is not deleted`).toBe(false);
    }
    for (const r of rows) expect(r.at(-1)).toBe('purged');
    expect(reader.stats.deletedRecovered).toBe(recovered.length);
    // MariaDB zero-fills purged records: each one left in a free list is either read back or counted.
    expect(reader.stats.deletedRecovered + reader.stats.purgedUnreadable).toBeGreaterThan(0);
  });
});

describe('damaged files', () => {
  let server: MariadbServer;
  let ddl: string;
  let original: Uint8Array;
  let expected: Row[];
  const PAGE = 4096;

  beforeAll(async () => {
    server = await startMariadb({ pageSize: PAGE });
    ddl = await fillTable(server, 'victim', 20000);
    expected = (await server.query('SELECT * FROM victim ORDER BY id')).rows;
    original = new Uint8Array(readFileSync(await server.exportTable('victim')));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('flipped bytes in some leaf pages: every row of the other pages, each damaged page reported', async () => {
    const { reader } = await decode(original, ddl);
    const leaves = await reader.leafPages();
    expect(leaves.length).toBeGreaterThan(50);
    const rowsOf = new Map<number, Row[]>();
    for (const p of leaves) rowsOf.set(p, batchRows(await reader.decodePages([p])));
    const r = rng(7);
    const damaged = new Set<number>();
    while (damaged.size < 5) damaged.add(leaves[1 + Math.floor(r() * (leaves.length - 2))]);
    const bytes = original.slice();
    for (const p of damaged) for (let i = 0; i < 40; i++) bytes[p * PAGE + 200 + Math.floor(r() * 3000)] ^= 0x5a;

    const { rows, reader: hurt } = await decode(bytes, ddl);
    const got = new Set(rows.map(key));
    for (const p of leaves) if (!damaged.has(p)) for (const row of rowsOf.get(p) ?? []) expect(got.has(key(row))).toBe(true);
    const reported = new Set(hurt.stats.problems.map((x) => x.page));
    for (const p of damaged) expect(reported.has(p), `page ${p} is not reported`).toBe(true);
    expect(hurt.stats.badChecksums).toBe(damaged.size);
    // Nothing of a damaged page is live: the live output is exactly the other pages' rows.
    expect(rows.length).toBe(leaves.filter((p) => !damaged.has(p)).reduce((n, p) => n + (rowsOf.get(p)?.length ?? 0), 0));
    expect(hurt.stats.damagedPages).toBe(damaged.size);
    expect(hurt.stats.damagedWithheld).toBeGreaterThan(0);
    const all = await decode(bytes, ddl, 'all');
    expect(all.rows.filter((row) => row.at(-1) === 'live').length).toBe(rows.length);
    // `all` also has the damaged pages' records whose (untrusted) delete mark is set.
    expect(all.rows.filter((row) => row.at(-1) === 'damaged').length).toBeGreaterThanOrEqual(hurt.stats.damagedWithheld);
  });

  it('a broken record list: the records past the break are carved from the page body, every one equal to the server\'s row', async () => {
    const { reader } = await decode(original, ddl);
    const leaves = await reader.leafPages();
    const page = leaves[leaves.length >> 1];
    const onPage = batchRows(await reader.decodePages([page]));
    const bytes = original.slice();
    const o = page * PAGE;
    const view = new DataView(bytes.buffer);
    // Walk the COMPACT list (relative next pointers) to its middle record and point it out of the page.
    let rec = 99; // PAGE_NEW_INFIMUM
    for (let i = 0; i <= onPage.length >> 1; i++) rec = (rec + view.getUint16(o + rec - 2)) & (PAGE - 1);
    view.setUint16(o + rec - 2, 0x7ff0);
    const live = await decode(bytes, ddl);
    expect(live.rows.length).toBe(expected.length - onPage.length);
    expect(live.reader.stats.damagedWithheld).toBe(onPage.length);
    expect(live.reader.stats.problems.find((p) => p.page === page && p.record === null)?.message).toMatch(/^the page is damaged \(its checksum does not match\): 64 records read back \(\d+ carved/);
    const damaged = await decode(bytes, ddl, 'damaged');
    expect(onPage.length).toBe(64);
    expect(damaged.rows).toEqual(onPage);
    expect(damaged.reader.stats.carvedRecords).toBeGreaterThan(0);
    expect(damaged.reader.stats.recordsFailed).toBe(0);
    // The count of each mode is what its read returns.
    for (const mode of ['live', 'damaged', 'all'] as const) {
      const r = (await decode(bytes, ddl, mode)).reader;
      const counts = await r.countLeaves(await r.leafPages());
      expect(counts.reduce((a, b) => a + b, 0), mode).toBe(mode === 'live' ? live.rows.length : mode === 'damaged' ? onPage.length : expected.length);
    }
  });

  it('a zeroed root page: the leaves are found by scanning, and every row comes back in order', async () => {
    const { reader } = await decode(original, ddl);
    const bytes = original.slice();
    bytes.fill(0, reader.info.rootPage * PAGE, (reader.info.rootPage + 1) * PAGE);
    // With the root gone the index is not even listed through the INODE page: it is found by its pages.
    const { rows, reader: scanned } = await decode(bytes, ddl);
    expect(scanned.info.leafSource).toBe('scan');
    expect(scanned.info.rootPage).toBe(-1);
    expect(await scanned.firstLeafPage()).toBeNull();
    expect(rows).toEqual(expected);
    expect(scanned.stats.problems[0].message).toMatch(/no B-tree root was found/);
  });

  it('a zeroed level-1 page: scanning brings back every row', async () => {
    const { reader } = await decode(original, ddl);
    expect(reader.info.treeHeight).toBeGreaterThanOrEqual(3);
    // The first screen's shortcut (down the leftmost pointers) lands on the first leaf of the plan.
    expect(await reader.firstLeafPage()).toBe((await reader.leafPages())[0]);
    // Any INDEX page at level 1 (not the root) will do.
    const bytes = original.slice();
    let zeroed = -1;
    for (let p = 3; p < bytes.length / PAGE; p++) {
      const o = p * PAGE;
      const type = (bytes[o + 24] << 8) | bytes[o + 25];
      const level = (bytes[o + 38 + 26] << 8) | bytes[o + 38 + 27];
      if (type === 17855 && level === 1 && p !== reader.info.rootPage) {
        zeroed = p;
        break;
      }
    }
    expect(zeroed).toBeGreaterThan(0);
    bytes.fill(0, zeroed * PAGE, (zeroed + 1) * PAGE);
    const { rows, reader: scanned } = await decode(bytes, ddl);
    // Down the leftmost pointers: the first level-1 page when it is the one zeroed, else a real leaf.
    const first = await scanned.firstLeafPage();
    if (first !== null) expect((await scanned.leafPages())[0]).toBe(first);
    expect(scanned.info.leafSource).toBe('scan');
    expect(rows).toEqual(expected);
    expect(scanned.stats.problems[0].message).toMatch(/scanning the whole file/);
  });

  it('random corruption never hangs or throws anything but a clear IbdError (fuzz, fixed seeds)', async () => {
    const deadline = Date.now() + 20_000;
    for (let seed = 1; seed <= 60 && Date.now() < deadline; seed++) {
      const r = rng(seed);
      const bytes = original.slice();
      const pages = bytes.length / PAGE;
      for (let k = 0; k < 1 + (seed % 8); k++) {
        const p = Math.floor(r() * pages);
        const n = 1 + Math.floor(r() * 64);
        for (let i = 0; i < n; i++) bytes[p * PAGE + Math.floor(r() * PAGE)] = Math.floor(r() * 256);
      }
      try {
        const { reader } = await decode(bytes, ddl, seed % 3 === 0 ? 'both' : 'live');
        expect(reader.stats.rowsDecoded).toBeGreaterThanOrEqual(0);
      } catch (e) {
        expect(e, `seed ${seed}: ${(e as Error).stack}`).toBeInstanceOf(IbdError);
      }
    }
  });
});
