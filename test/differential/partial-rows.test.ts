/**
 * Partial rows (core/readers/partial-rows.ts) through the CLI, against a real MariaDB: a table of
 * three secondary indexes (one composite, one with a prefix part) and 6,000 rows, exported; in a copy
 * one clustered leaf page zeroed and another's body corrupted (a bad checksum). The partial rows' keys
 * must be exactly the keys on those two pages (read from the intact file), their indexed columns
 * what the server's SELECT shows, the others (not indexed, or by a prefix only) the absent mark; no
 * partial row in `--rows live` nor `--rows all`, whose report says `--rows partial` gives them.
 * A partitioned table with a leaf of one partition zeroed: its partial rows come from that
 * partition's own indexes, named by `_partition`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTable } from '../../src/core/readers/table-reader.ts';
import { absentCell } from '../../src/core/readers/partial-rows.ts';
import { cellText } from '../../src/core/values/row-batch.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { exportPartitions } from '../harness/mariadb-partitions.ts';
import { tableDef } from './index-query.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

function cli(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
}

const COLUMNS = ['id', 'a', 'b', 'c', 'note'];

describe('partial rows from the secondary indexes, where clustered leaves are lost', () => {
  let server: MariadbServer;
  let dir: string;
  let damaged: string;
  /** The lost pages, and the ids on them in the intact file. */
  let lost: number[];
  let lostIds: string[];

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    server = await startMariadb();
    dir = mkdtempSync(join(tmpdir(), 'ibd-partial-'));
    await server.exec(`CREATE TABLE pr (id INT NOT NULL PRIMARY KEY, a INT NULL, b VARCHAR(30) CHARACTER SET utf8mb4 NULL, c DATE NULL, note VARCHAR(200) NULL,
        KEY ka (a), KEY kbc (b, c), KEY kn (note(4))) ENGINE=InnoDB;
      INSERT INTO pr SELECT seq * 3, IF(seq % 11 = 0, NULL, seq % 500), CONCAT('name ', seq % 997, ' ü'), '2000-01-01' + INTERVAL seq % 3000 DAY, REPEAT(CHAR(97 + seq % 26), 40 + seq % 100) FROM seq_1_to_6000;`);
    const ibd = await server.exportTable('pr');
    const def = await tableDef(server, 'pr');
    const source = await fileSource(ibd);
    const reader = await openTable(source, def);
    const leaves = await reader.leafPages();
    lost = [leaves[5], leaves[Math.floor(leaves.length / 2)]];
    lostIds = [];
    for (const no of lost) {
      const batch = await reader.decodePages([no]);
      for (let r = 0; r < batch.rows; r++) lostIds.push(cellText(batch, r, 0) ?? '');
    }
    await source.close();
    const bytes = readFileSync(ibd);
    const size = server.pageSize;
    bytes.fill(0, lost[0] * size, (lost[0] + 1) * size);
    for (let i = 400; i < 800; i += 7) bytes[lost[1] * size + i] ^= 0x5a;
    damaged = join(dir, basename(ibd));
    writeFileSync(damaged, bytes);
    copyFileSync(join(dirname(ibd), 'pr.frm'), join(dir, 'pr.frm'));
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('--rows partial: one row per key of the lost pages, its indexed columns as the server shows them', async () => {
    expect(lostIds.length).toBeGreaterThan(20);
    const expected = await server.query(`SELECT id, a, b, c FROM pr WHERE id IN (${lostIds.join(',')}) ORDER BY id`);
    for (const threads of ['1', '2']) {
      const r = cli(damaged, '--rows', 'partial', '--format', 'ndjson', '--json-strings', '--threads', threads);
      expect(r.status, r.stderr).toBe(2);
      const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, string | null>);
      expect(rows.map((o) => Object.keys(o))).toEqual(rows.map(() => COLUMNS));
      expect(rows.map((o) => [o.id, o.a, o.b, o.c])).toEqual(expected.rows);
      expect(new Set(rows.map((o) => o.note))).toEqual(new Set(lost.map((no) => absentCell([no]))));
      expect(r.stderr).toContain(`partial rows ${lostIds.length} (state partial), for the keys of clustered leaf pages ${lost.join(', ')} `);
      expect(r.stderr).toMatch(/`ka` \d+, `kbc` \d+, `kn` \d+/);
    }
  });

  it('--rows live and --rows all have no partial row, and the report says --rows partial gives them', async () => {
    const live = cli(damaged, '--rows', 'live', '--threads', '1');
    const liveLines = live.stdout.trim().split('\n');
    expect(liveLines[0]).toBe(COLUMNS.join(','));
    expect(liveLines.length - 1).toBe(6000 - lostIds.length);
    expect(live.stdout).not.toContain('[absent:');
    expect(live.stderr).not.toContain('partial rows');
    expect(live.stderr).toContain('--rows partial gives the keys and indexed columns of their rows');
    const all = cli(damaged, '--rows', 'all', '--format', 'ndjson', '--json-strings', '--threads', '1');
    const rows = all.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, string | null>);
    expect(rows.filter((o) => o._row_state === 'partial')).toEqual([]);
    const intact = new Set(rows.filter((o) => o._row_state === 'live').map((o) => o.id));
    expect(intact.size).toBe(6000 - lostIds.length);
    // No partial row's key is an intact row's.
    const partial = cli(damaged, '--rows', 'partial', '--format', 'ndjson', '--json-strings', '--threads', '1');
    const ids = partial.stdout.trim().split('\n').map((l) => (JSON.parse(l) as Record<string, string | null>).id);
    expect(ids.filter((id) => intact.has(id))).toEqual([]);
  });

  it('an intact file gives no partial row, and --count refuses --rows partial', async () => {
    const ibd = await server.exportTable('pr');
    const r = cli(ibd, '--rows', 'partial', '--threads', '1');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([COLUMNS.join(',')]);
    const c = cli(damaged, '--rows', 'partial', '--count');
    // A usage error, though only told once the files are sorted (exit status 64, as the others).
    expect(c.status).toBe(64);
    expect(c.stderr).toContain('--rows partial reads the whole table');
  });

  it('a partitioned table: each partition\u2019s partial rows from its own indexes, after its rows, with its name', async () => {
    await server.exec(`CREATE TABLE pp (id INT NOT NULL PRIMARY KEY, a INT NULL, b VARCHAR(30) NULL, note VARCHAR(200) NULL, KEY ka (a), KEY kb (b)) ENGINE=InnoDB
        PARTITION BY HASH (id) PARTITIONS 2;
      INSERT INTO pp SELECT seq, seq % 300, CONCAT('b', seq % 777), REPEAT('x', 50 + seq % 90) FROM seq_1_to_8000;`);
    const folder = await exportPartitions(server, dir, 'pp');
    const file = join(folder, 'pp#P#p1.ibd');
    const source = await fileSource(file);
    const reader = await openTable(source, await tableDef(server, 'pp'));
    const leaf = (await reader.leafPages())[3];
    const ids: string[] = [];
    const batch = await reader.decodePages([leaf]);
    for (let r = 0; r < batch.rows; r++) ids.push(cellText(batch, r, 0) ?? '');
    await source.close();
    const bytes = readFileSync(file);
    bytes.fill(0, leaf * server.pageSize, (leaf + 1) * server.pageSize);
    writeFileSync(file, bytes);
    const ibds = readdirSync(folder).filter((f) => f.endsWith('.ibd')).map((f) => join(folder, f));
    const expected = await server.query(`SELECT id, a, b FROM pp WHERE id IN (${ids.join(',')}) ORDER BY id`);
    expect(expected.rows.length).toBeGreaterThan(20);
    const r = cli(...ibds, '--rows', 'partial', '--partition-column', '--format', 'ndjson', '--json-strings', '--threads', '2');
    expect(r.status, r.stderr).toBe(2);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, string | null>);
    expect(rows.map((o) => [o.id, o.a, o.b])).toEqual(expected.rows);
    expect(new Set(rows.map((o) => `${o.note} ${o._partition}`))).toEqual(new Set([`${absentCell([leaf])} p1`]));
    expect(r.stderr).toContain(`pp#P#p1.ibd: partial rows ${ids.length} (state partial), for the keys of clustered leaf pages ${leaf} `);
    // CSV: the header once, the partial rows after the rows of p0 (none in this mode) and p1.
    const csv = cli(...ibds, '--rows', 'partial', '--threads', '1');
    expect(csv.stdout.trim().split('\n')).toHaveLength(ids.length + 1);
    const live = cli(...ibds, '--rows', 'live', '--threads', '1');
    expect(live.stdout.trim().split('\n')).toHaveLength(8000 - ids.length + 1);
    expect(live.stderr).toContain('pp#P#p1.ibd: of the rows of the lost or damaged leaf pages, --rows partial gives');
  });
});
