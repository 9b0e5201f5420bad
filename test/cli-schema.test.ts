/**
 * The command-line tool without a typed CREATE TABLE: a MySQL 8 .ibd alone (its data dictionary), a
 * MariaDB .ibd with its .frm beside it or given with --schema, and --print-ddl. The CLI is bundled
 * into a temporary folder of its own (not dist-cli, which other tests build at the same time).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvHeader, csvRows } from '../src/core/writers/output.ts';
import { readSdi } from '../src/core/definitions/sdi/index.ts';
import { bytesSource } from '../src/core/tablespace/source.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';

const ROOT = join(import.meta.dirname, '..');
const FIXTURES = join(ROOT, 'test/fixtures/mysql-testsuite');

describe('ibd-reader CLI: table definitions from the .ibd or the .frm', () => {
  let dir: string;
  let cli: string;
  let server: MariadbServer;
  let mariadbIbd: string;
  let expectedCsv: string;
  let showCreate: string;

  const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args, '--threads', '1'], { encoding: 'utf8', maxBuffer: 1 << 28 });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ibd-cli-schema-'));
    cli = join(dir, 'ibd-reader.mjs');
    const common = { bundle: true, platform: 'node', target: 'node20', format: 'esm', logLevel: 'warning' } as const;
    await build({ ...common, entryPoints: [join(ROOT, 'src/cli.ts')], outfile: cli });
    await build({ ...common, entryPoints: [join(ROOT, 'src/node/decode-worker.ts')], outfile: join(dir, 'decode-worker.mjs') });

    server = await startMariadb();
    await server.exec(`CREATE TABLE people (id INT PRIMARY KEY, name VARCHAR(40) CHARACTER SET latin1 NOT NULL DEFAULT '',
      born DATE, score DECIMAL(6,2) DEFAULT 1.00, tags SET('a','b','c'), note TEXT) DEFAULT CHARSET=utf8mb4;
      INSERT INTO people SELECT seq, CONCAT('person ', seq), '2000-01-01' + INTERVAL seq DAY, seq / 7, IF(seq % 3, 'a,c', ''), IF(seq % 4, REPEAT('é', seq % 9), NULL) FROM seq_1_to_3000;`);
    const rows = await server.query('SELECT * FROM people ORDER BY id');
    expectedCsv = csvHeader(rows.columns) + csvRows(rows.rows);
    showCreate = (await server.query('SHOW CREATE TABLE people')).rows[0][1] as string;
    const exported = await server.exportTable('people');
    mariadbIbd = join(dir, 'people.ibd');
    copyFileSync(exported, mariadbIbd);
    copyFileSync(exported.replace(/\.ibd$/, '.frm'), join(dir, 'people.frm'));
    copyFileSync(exported.replace(/\.ibd$/, '.frm'), join(dir, 'elsewhere.frm'));
    copyFileSync(exported, join(dir, 'lonely.ibd'));
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a MySQL 8 .ibd alone decodes as with its .sql', () => {
    const ibd = join(FIXTURES, 'mysql80/nullcolumn/tb12.ibd');
    const alone = run(ibd);
    expect(alone.stderr).toMatch(/tb12\.ibd: \d+ rows from 1 leaf pages/);
    expect(alone.status).toBe(0);
    const withSql = run(ibd, '--schema', join(FIXTURES, 'mysql56/nullcolumn/tb12.sql'));
    expect(withSql.status).toBe(0);
    expect(alone.stdout).toBe(withSql.stdout);
    expect(alone.stdout.split('\n').length).toBeGreaterThan(3);
  });

  it('--print-ddl prints the CREATE TABLE rebuilt from the data dictionary', async () => {
    const ibd = join(FIXTURES, 'mysql80/column/enum/tb25.ibd');
    const sdi = await readSdi(await Tablespace.open(bytesSource(readFileSync(ibd), 'tb25.ibd')));
    const printed = run(ibd, '--print-ddl');
    expect(printed.status).toBe(0);
    expect(printed.stdout).toBe(`${sdi!.tables[0].table.createSql};\n`);
  });

  it('a --schema that disagrees with the data dictionary is warned about', () => {
    const sql = join(dir, 'short.sql');
    writeFileSync(sql, 'CREATE TABLE tb12 (id INT PRIMARY KEY, a BIGINT) DEFAULT CHARSET=utf8mb4;');
    const result = run(join(FIXTURES, 'mysql80/nullcolumn/tb12.ibd'), '--schema', sql);
    expect(result.stderr).toContain("warning: the file's own data dictionary (tb12.ibd) gives `tb12` 7 stored columns, the CREATE TABLE (short.sql) 2; using the CREATE TABLE\n");
    expect(result.status).toBe(1);
  });

  it('a MariaDB .ibd with its .frm beside it needs no --schema', () => {
    const result = run(mariadbIbd);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(expectedCsv);
  });

  it('--schema takes a .frm, and --print-ddl gives SHOW CREATE TABLE', () => {
    const result = run(join(dir, 'lonely.ibd'), '--schema', join(dir, 'elsewhere.frm'), '--table', 'elsewhere');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(expectedCsv);
    const ddl = run(mariadbIbd, '--print-ddl');
    expect(ddl.stdout).toBe(`${showCreate};\n`);
  });

  it('a MySQL 5.7 .ibd alone: the error says what to give', () => {
    const result = run(join(FIXTURES, 'mysql57/simple/tb01.ibd'));
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('ibd-reader: tb01.ibd carries no table definition of its own (it is not a MySQL 8 file), and no .frm or .sql file describing it was given; give the table definition with --schema FILE.sql (or FILE.frm)\n');
  });
});
