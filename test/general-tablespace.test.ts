/**
 * Files holding several tables (issue 4). No general tablespace or mysql.ibd is among the fixtures
 * and MariaDB has no general tablespaces, so the two halves are checked separately with real files:
 *  - the SDI of a real MySQL 8.0 file gives each table's clustered index (root page, index id), and
 *    decoding that index (OpenOptions.index) gives the table's rows;
 *  - a real multi-table file, MariaDB's system tablespace ibdata1 with tables created under
 *    innodb_file_per_table=OFF: each table decodes from its root page and index id (as the server's
 *    INNODB_SYS_INDEXES gives them), through openTable and the CLI's --index-id, and the orphan scan
 *    lists every table's indexes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { scanOrphans } from '../src/core/tablespace/orphan-scan.ts';
import { csvHeader, csvRows } from '../src/core/writers/output.ts';
import { resolveSchema } from '../src/core/definitions/schema-source.ts';
import { readSdi, readSdiRecords, type SdiContents } from '../src/core/definitions/sdi/index.ts';
import { sdiIndexOf } from '../src/core/readers/recovery-target.ts';
import { bytesSource } from '../src/core/tablespace/source.ts';
import { openTable, type OpenOptions, type Row } from '../src/core/readers/table-reader.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';

const ROOT = join(import.meta.dirname, '..');
const FIXTURES = join(ROOT, 'test/fixtures/mysql-testsuite');

async function rowsOf(bytes: Uint8Array, ddlOrTable: string | Parameters<typeof openTable>[1], options: OpenOptions = {}): Promise<Row[]> {
  const table = typeof ddlOrTable === 'string' ? parseCreateTables(ddlOrTable)[0] : ddlOrTable;
  const reader = await openTable(bytesSource(bytes, 'file.ibd'), table, options);
  const rows: Row[] = [];
  for await (const batch of reader.rows()) rows.push(...batch);
  return rows;
}

describe('a table chosen by its SDI entry (MySQL 8.0 file)', () => {
  it('the SDI names the clustered index; decoding it gives the table, and the scan finds every index of the SDI', async () => {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, 'mysql80/pk/tb24_sk.ibd')));
    const resolved = await resolveSchema(bytesSource(bytes, 'tb24_sk.ibd'), []);
    const candidate = resolved.candidates[0];
    expect(candidate.clusteredIndex).toBeTruthy();
    const index = candidate.clusteredIndex!;
    // The dictionary's own list of the table's indexes (se_private_data id=...).
    const records = await readSdiRecords(await Tablespace.open(bytesSource(bytes, 'tb24_sk.ibd')));
    const table = records?.map((r) => JSON.parse(r.json) as { dd_object_type: string; dd_object: { indexes: { se_private_data: string }[] } })
      .find((d) => d.dd_object_type === 'Table');
    const ids = table?.dd_object.indexes.map((i) => BigInt(/(?:^|;)id=(\d+)/.exec(i.se_private_data)?.[1] ?? '-1')) ?? [];
    expect(ids.length).toBeGreaterThan(1);
    expect(ids[0]).toBe(index.indexId);

    const chosen = await rowsOf(bytes, candidate.table, { index });
    expect(chosen).toEqual(await rowsOf(bytes, candidate.table));
    expect(chosen.length).toBeGreaterThan(0);

    const scan = await scanOrphans(bytesSource(bytes, 'tb24_sk.ibd'));
    for (const id of ids) expect(scan.groups.some((g) => g.indexId === id), `index ${id}`).toBe(true);
    expect(scan.groups.find((g) => g.indexId === index.indexId)?.root).toBe(index.rootPage);
  });
});

describe('--table in a file with several tables\' SDI', () => {
  it('picks the named table\'s clustered index (two real MySQL 8.0 SDI tables, as a general tablespace lists them)', async () => {
    const files = ['mysql80/pk/tb24_sk.ibd', 'mysql80/simple/tb01.ibd'].map((rel) => new Uint8Array(readFileSync(join(FIXTURES, rel))));
    const contents = await Promise.all(files.map(async (b) => (await readSdi(await Tablespace.open(bytesSource(b, 'x.ibd'))))!));
    const both: SdiContents = { tables: contents.flatMap((c) => c.tables), errors: [], tablespace: 'db/general' };
    for (const [i, c] of contents.entries()) {
      const own = c.tables[0];
      // A one-table SDI needs no choice; in a shared one, the table named gets its own root and id.
      expect(sdiIndexOf(c, own.table.name)).toEqual({});
      const picked = sdiIndexOf(both, own.table.name.toUpperCase());
      expect(picked.index).toEqual(own.clusteredIndex);
      expect(await rowsOf(files[i], own.table, picked)).toEqual(await rowsOf(files[i], own.table));
    }
    expect(sdiIndexOf(both, 'no_such_table')).toEqual({});
  });
});

describe('several tables in one file (MariaDB ibdata1)', () => {
  let server: MariadbServer;
  let ibdata: Uint8Array;
  const tables: { name: string; ddl: string; rows: Row[]; indexes: { name: string; id: bigint; root: number }[] }[] = [];

  beforeAll(async () => {
    server = await startMariadb();
    await server.exec(`SET GLOBAL innodb_file_per_table = OFF;
      CREATE TABLE first_t (id INT PRIMARY KEY, label VARCHAR(30), KEY k_label (label)) ENGINE=InnoDB;
      INSERT INTO first_t SELECT seq, CONCAT('first ', seq) FROM seq_1_to_3000;
      CREATE TABLE second_t (code CHAR(8) PRIMARY KEY, amount DECIMAL(10,2), note TEXT) ENGINE=InnoDB;
      INSERT INTO second_t SELECT LPAD(seq, 8, '0'), seq / 7, IF(seq % 3 = 0, NULL, REPEAT('n', seq % 90)) FROM seq_1_to_2000;`);
    for (const name of ['first_t', 'second_t']) {
      const ddl = (await server.query(`SHOW CREATE TABLE ${name}`)).rows[0][1] as string;
      const rows = (await server.query(`SELECT * FROM ${name} ORDER BY 1`)).rows;
      const ix = await server.query(`SELECT i.NAME, i.INDEX_ID, i.PAGE_NO, t.SPACE FROM information_schema.INNODB_SYS_INDEXES i
        JOIN information_schema.INNODB_SYS_TABLES t USING (TABLE_ID) WHERE t.NAME = 'test/${name}' ORDER BY i.INDEX_ID`);
      expect(ix.rows.every((r) => r[3] === '0')).toBe(true); // in the system tablespace
      tables.push({ name, ddl, rows, indexes: ix.rows.map((r) => ({ name: r[0] as string, id: BigInt(r[1] as string), root: Number(r[2]) })) });
    }
    // Every change on disk before the copy: flush all dirty pages, and wait until none are left.
    await server.exec('SET GLOBAL innodb_max_dirty_pages_pct_lwm = 0; SET GLOBAL innodb_max_dirty_pages_pct = 0;');
    for (let i = 0; i < 300; i++) {
      const dirty = Number((await server.query("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'")).rows[0][1]);
      if (dirty === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const dir = mkdtempSync(join(tmpdir(), 'ibd-ibdata-'));
    copyFileSync(join(server.datadir, 'ibdata1'), join(dir, 'ibdata1'));
    ibdata = new Uint8Array(readFileSync(join(dir, 'ibdata1')));
    rmSync(dir, { recursive: true, force: true });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('each table decodes from its root page and index id', async () => {
    for (const t of tables) {
      const primary = t.indexes[0];
      expect(await rowsOf(ibdata, t.ddl, { index: { indexId: primary.id, rootPage: primary.root } })).toEqual(t.rows);
      // The index id alone is enough: the root is found through the INODE pages.
      expect(await rowsOf(ibdata, t.ddl, { index: { indexId: primary.id } })).toEqual(t.rows);
    }
  });

  it('the orphan scan lists every table index of the file, with its root', async () => {
    const scan = await scanOrphans(bytesSource(ibdata, 'ibdata1'));
    expect(scan.layout.pageSize).toBe(16384);
    for (const t of tables) {
      for (const ix of t.indexes) {
        const g = scan.groups.find((x) => x.spaceId === 0 && x.indexId === ix.id);
        expect(g, `${t.name}.${ix.name}`).toBeDefined();
        expect(g?.root).toBe(ix.root);
        expect(g?.records).toBe(t.rows.length);
      }
    }
  });

  it('the CLI decodes a table of it with --index-id', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ibd-ibdata-cli-'));
    try {
      const t = tables[1];
      writeFileSync(join(dir, 'ibdata1'), ibdata);
      writeFileSync(join(dir, 'second_t.sql'), t.ddl);
      execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
      const run = spawnSync(process.execPath, [join(ROOT, 'dist-cli/ibd-reader.mjs'), join(dir, 'ibdata1'), '--schema', join(dir, 'second_t.sql'), '--index-id', String(t.indexes[0].id)], { encoding: 'utf8', maxBuffer: 1 << 28 });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe(csvHeader(['code', 'amount', 'note']) + csvRows(t.rows));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
