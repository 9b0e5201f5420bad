/**
 * Orphan pages (issue 7) against a real MariaDB: a table with a secondary index is exported, then
 * mangled into what a recovery usually starts from — its first pages gone, a copy cut mid-page, the
 * pages somewhere inside a larger image next to another table's — and read without page 0. The page
 * size and the index ids must be what the server says (INNODB_SYS_INDEXES), and every row of every
 * intact leaf page must come back as SELECT shows it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findIndexRoots } from '../src/core/btree/btree.ts';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { ndjsonRows } from '../src/core/writers/output.ts';
import { rawTarget, scanOrphans, type IndexGroup, type OrphanScan } from '../src/core/tablespace/orphan-scan.ts';
import { batchRows } from '../src/core/values/row-batch.ts';
import { bytesSource } from '../src/core/tablespace/source.ts';
import { openTable, type Row, type TableReader } from '../src/core/readers/table-reader.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';
import { rng } from './differential/random-data.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';

const ROOT = join(import.meta.dirname, '..');
const key = (row: Row) => JSON.stringify(row);

/** What the server says about one exported table. */
interface Exported {
  ddl: string;
  bytes: Uint8Array;
  rows: Row[];
  spaceId: number;
  /** Index ids by index name (PRIMARY first). */
  indexIds: Map<string, bigint>;
}

async function exportTable(server: MariadbServer, table: string, rows: number, rowFormat = 'DYNAMIC'): Promise<Exported> {
  await server.exec(`CREATE TABLE ${table} (id INT PRIMARY KEY, name VARCHAR(40), qty INT, note VARCHAR(200), KEY k_qty (qty))
      ROW_FORMAT=${rowFormat} DEFAULT CHARSET=utf8mb4;
    INSERT INTO ${table} SELECT seq, CONCAT('row ', seq), seq % 1000, IF(seq % 10 = 0, NULL, REPEAT('x', seq % 150)) FROM seq_1_to_${rows};`);
  const ddl = (await server.query(`SHOW CREATE TABLE ${table}`)).rows[0][1] as string;
  const ids = await server.query(`SELECT i.NAME, i.INDEX_ID, t.SPACE FROM information_schema.INNODB_SYS_INDEXES i
    JOIN information_schema.INNODB_SYS_TABLES t USING (TABLE_ID) WHERE t.NAME = 'test/${table}' ORDER BY i.INDEX_ID`);
  const bytes = new Uint8Array(readFileSync(await server.exportTable(table)));
  const selected = (await server.query(`SELECT * FROM ${table} ORDER BY id`)).rows;
  return {
    ddl, bytes, rows: selected, spaceId: Number(ids.rows[0][2]),
    indexIds: new Map(ids.rows.map((r) => [r[0] as string, BigInt(r[1] as string)])),
  };
}

async function readAll(reader: TableReader): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const batch of reader.rows()) rows.push(...batch);
  return rows;
}

/** Decodes one group of the image with the table's DDL. */
async function decodeGroup(image: Uint8Array, scan: OrphanScan, group: IndexGroup, ddl: string): Promise<{ rows: Row[]; reader: TableReader }> {
  const reader = await openTable(bytesSource(image, 'image.bin'), parseCreateTables(ddl)[0], {
    raw: rawTarget(scan, group), index: { indexId: group.indexId, rootPage: group.root },
  });
  return { rows: await readAll(reader), reader };
}

/** The groups of the table's space: exactly its indexes, with the server's ids and its row count in each. */
function expectGroups(scan: OrphanScan, t: Exported): IndexGroup {
  const ours = scan.groups.filter((g) => g.spaceId === t.spaceId);
  expect(ours.map((g) => g.indexId)).toEqual([...t.indexIds.values()]);
  const primary = ours.find((g) => g.indexId === t.indexIds.get('PRIMARY'));
  if (!primary) throw new Error('no group for the clustered index');
  return primary;
}

/** Flips bytes in the record area of `count` leaf pages (not the first) of the original file. */
async function damageLeaves(t: Exported, pageSize: number, count: number): Promise<{ bytes: Uint8Array; damaged: Set<number>; rowsOf: Map<number, Row[]> }> {
  const reader = await openTable(bytesSource(t.bytes, 't.ibd'), parseCreateTables(t.ddl)[0]);
  expect(await readAll(reader)).toEqual(t.rows);
  const leaves = await reader.leafPages();
  const rowsOf = new Map<number, Row[]>();
  for (const p of leaves) rowsOf.set(p, batchRows(await reader.decodePages([p])));
  const r = rng(11);
  const damaged = new Set<number>();
  while (damaged.size < count) damaged.add(leaves[1 + Math.floor(r() * (leaves.length - 2))]);
  const bytes = t.bytes.slice();
  for (const p of damaged) for (let i = 0; i < 30; i++) bytes[p * pageSize + 200 + Math.floor(r() * (pageSize - 400))] ^= 0x5a;
  return { bytes, damaged, rowsOf };
}

describe('orphan pages, 16K full_crc32', () => {
  let server: MariadbServer;
  let t: Exported;
  let other: Exported;
  const PAGE = 16384;

  beforeAll(async () => {
    server = await startMariadb();
    t = await exportTable(server, 'orphan', 12000);
    other = await exportTable(server, 'neighbour', 3000);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('pages 0-3 gone and two leaves damaged: page size guessed, groups listed, every intact leaf row decoded', async () => {
    const { bytes, damaged, rowsOf } = await damageLeaves(t, PAGE, 2);
    const image = bytes.subarray(4 * PAGE);
    const scan = await scanOrphans(bytesSource(image, 'image.bin'));
    expect(scan.layout).toMatchObject({ pageSize: PAGE, gridOffset: 0, fullCrc32: true });
    const primary = expectGroups(scan, t);
    expect(primary.damagedPages).toBe(damaged.size);
    expect(scan.damagedPages).toBe(damaged.size);
    expect(primary.base).toBe(-4 * PAGE);

    const { rows, reader } = await decodeGroup(image, scan, primary, t.ddl);
    const got = new Set(rows.map(key));
    for (const [p, pageRows] of rowsOf) if (!damaged.has(p)) for (const row of pageRows) expect(got.has(key(row)), `row of page ${p}`).toBe(true);
    const reported = new Set(reader.stats.problems.map((x) => x.page));
    for (const p of damaged) expect(reported.has(p), `page ${p} is not reported`).toBe(true);
    expect(reader.stats.badChecksums).toBe(damaged.size);
  });

  it('copies of leaf pages elsewhere (as in a doublewrite buffer) are counted apart, and their rows not returned twice', async () => {
    const reader = await openTable(bytesSource(t.bytes, 't.ibd'), parseCreateTables(t.ddl)[0]);
    const copied = (await reader.leafPages()).slice(5, 15);
    // Pages 0-3 (the clustered root with them) gone, so the leaves are found by scanning.
    const image = new Uint8Array(t.bytes.length - 4 * PAGE + copied.length * PAGE);
    image.set(t.bytes.subarray(4 * PAGE));
    copied.forEach((p, i) => image.set(t.bytes.subarray(p * PAGE, (p + 1) * PAGE), t.bytes.length - 4 * PAGE + i * PAGE));
    const scan = await scanOrphans(bytesSource(image, 'image.bin'));
    const primary = expectGroups(scan, t);
    expect(primary.copiesElsewhere).toBe(copied.length);
    expect(primary.records).toBe(t.rows.length);
    const { rows, reader: scanned } = await decodeGroup(image, scan, primary, t.ddl);
    expect(scanned.info.leafSource).toBe('scan');
    expect(rows).toEqual(t.rows);
  });

  it('a copy cut mid-page in front: the grid offset is found and the B-tree walked in key order', async () => {
    const cut = PAGE + 1536;
    const image = t.bytes.subarray(cut);
    const scan = await scanOrphans(bytesSource(image, 'image.bin'));
    expect(scan.layout).toMatchObject({ pageSize: PAGE, gridOffset: PAGE - 1536, fullCrc32: true });
    const primary = expectGroups(scan, t);
    expect(primary.records).toBe(t.rows.length);
    expect(primary.root).not.toBeNull();
    const { rows, reader } = await decodeGroup(image, scan, primary, t.ddl);
    expect(reader.info.leafSource).toBe('btree');
    expect(rows).toEqual(t.rows);
  });

  it('inside a larger image (1 MB of random bytes, the table, another table): both tables listed and decoded', async () => {
    const junk = randomBytes(1 << 20);
    const image = new Uint8Array(junk.length + t.bytes.length + other.bytes.length);
    image.set(junk, 0);
    image.set(t.bytes, junk.length);
    image.set(other.bytes, junk.length + t.bytes.length);
    const scan = await scanOrphans(bytesSource(image, 'image.bin'));
    expect(scan.layout).toMatchObject({ pageSize: PAGE, fullCrc32: true });
    // Nothing but the two tables' indexes (the server's ids) is taken for an index.
    expect(new Set(scan.groups.map((g) => g.spaceId))).toEqual(new Set([t.spaceId, other.spaceId]));
    let columns: string[] = [];
    for (const table of [t, other]) {
      const primary = expectGroups(scan, table);
      expect(primary.records).toBe(table.rows.length);
      const { rows, reader } = await decodeGroup(image, scan, primary, table.ddl);
      expect(rows).toEqual(table.rows);
      if (table === t) columns = reader.columns;
    }

    // The same from the command line: --list-indexes, then --index-id with the DDL.
    const dir = mkdtempSync(join(tmpdir(), 'ibd-orphan-'));
    try {
      writeFileSync(join(dir, 'image.bin'), image);
      writeFileSync(join(dir, 'orphan.sql'), t.ddl);
      execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
      const cli = join(ROOT, 'dist-cli/ibd-reader.mjs');
      const list = spawnSync(process.execPath, [cli, join(dir, 'image.bin'), '--list-indexes'], { encoding: 'utf8' });
      expect(list.status, list.stderr).toBe(0);
      for (const id of [...t.indexIds.values(), ...other.indexIds.values()]) expect(list.stdout).toMatch(new RegExp(`\\b${id}\\b`));
      const run = spawnSync(process.execPath, [cli, join(dir, 'image.bin'), '--schema', join(dir, 'orphan.sql'), '--index-id', String(t.indexIds.get('PRIMARY')), '--format', 'ndjson', '--json-strings'], { encoding: 'utf8', maxBuffer: 1 << 28 });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe(ndjsonRows(columns, t.rows));
      expect(run.stderr).toMatch(/pages read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each([
  { pageSize: 4096, checksum: 'crc32' as const, rowFormat: 'REDUNDANT' },
  { pageSize: 65536, checksum: 'full_crc32' as const, rowFormat: 'COMPACT' },
])('orphan pages, $pageSize-byte pages ($checksum, $rowFormat)', ({ pageSize, checksum, rowFormat }) => {
  let server: MariadbServer;
  let t: Exported;

  beforeAll(async () => {
    server = await startMariadb({ pageSize, checksum });
    // 4K: enough rows for the CLI to decode with worker threads (256 leaf pages or more).
    t = await exportTable(server, 'sized', pageSize === 4096 ? 20000 : 30000, rowFormat);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('page 0 gone: page size and format guessed, the groups and every row found', async () => {
    const image = t.bytes.subarray(pageSize);
    const scan = await scanOrphans(bytesSource(image, 'image.bin'));
    expect(scan.layout).toMatchObject({ pageSize, gridOffset: 0, fullCrc32: checksum === 'full_crc32' });
    const primary = expectGroups(scan, t);
    expect(primary.compact).toBe(rowFormat !== 'REDUNDANT');
    expect(primary.leafPages).toBeGreaterThan(1);
    expect(primary.records).toBe(t.rows.length);
    const { rows, reader } = await decodeGroup(image, scan, primary, t.ddl);
    expect(rows).toEqual(t.rows);
    if (pageSize !== 4096) return;

    // The command line, with worker threads: each opens the same raw image at the same place.
    expect((await reader.leafPages()).length).toBeGreaterThanOrEqual(256);
    const dir = mkdtempSync(join(tmpdir(), 'ibd-orphan-threads-'));
    try {
      writeFileSync(join(dir, 'image.bin'), image);
      writeFileSync(join(dir, 'sized.sql'), t.ddl);
      execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
      const run = spawnSync(process.execPath, [join(ROOT, 'dist-cli/ibd-reader.mjs'), join(dir, 'image.bin'), '--schema', join(dir, 'sized.sql'),
        '--index-id', String(primary.indexId), '--page-size', String(pageSize), '--threads', '2', '--format', 'ndjson', '--json-strings'], { encoding: 'utf8', maxBuffer: 1 << 28 });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe(ndjsonRows(reader.columns, t.rows));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('orphan scan without a server', () => {
  it('random bytes are not taken for pages', async () => {
    await expect(scanOrphans(bytesSource(new Uint8Array(randomBytes(2 << 20)), 'noise.bin'))).rejects.toThrow(/no InnoDB page found/);
  });

  it('a MySQL 5.7 file without page 0: the groups are the indexes its own B-tree roots name', async () => {
    const bytes = new Uint8Array(readFileSync(join(ROOT, 'test/fixtures/mysql-testsuite/mysql57/pk/tb24_sk.ibd')));
    const roots = await findIndexRoots(await Tablespace.open(bytesSource(bytes, 'tb24_sk.ibd')));
    expect(roots.length).toBeGreaterThan(1);
    const scan = await scanOrphans(bytesSource(bytes.subarray(16384), 'cut.bin'));
    expect(scan.layout).toMatchObject({ pageSize: 16384, gridOffset: 0, fullCrc32: false });
    expect(scan.groups.map((g) => [g.indexId, g.root])).toEqual(roots.map((r) => [r.header.indexId, r.page]));
  });
});
