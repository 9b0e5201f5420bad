/**
 * The CLI's first contact (issue 41): a folder or a missing file said plainly, a reader that stops
 * early (`| head`) ends it quietly, --version, and FILE.sql beside FILE.ibd used as the page uses it
 * (a .frm beside wins), the definition used named on stderr.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvHeader, csvRows } from '../src/core/writers/output.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
const SAMPLE = join(ROOT, 'public/sample');
const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

describe('the CLI on what a DBA types first', () => {
  let dir: string;
  beforeAll(() => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    dir = mkdtempSync(join(tmpdir(), 'ibd-cli-usage-'));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('--before-trx through a secondary index is a usage error (64), not today\'s entries under the old name', () => {
    const run = cli([join(SAMPLE, 'employees.ibd'), '--before-trx', '5', '--index', 'PRIMARY']);
    expect(run.status).toBe(64);
    expect(run.stderr).toContain('--before-trx N rebuilds the table from its clustered index');
    expect(run.stdout).toBe('');
  });

  it('a folder without -o OUTDIR is a usage error (64) that says what to give', () => {
    const run = cli([SAMPLE]);
    expect(run.status).toBe(64);
    expect(run.stderr).toContain("a folder's tables are written into a folder: name it with -o OUTDIR (or list them with --list-tables)");
  });

  it('a missing file, given or named by an option, is "no such file" (exit 1), not ENOENT', () => {
    const missing = join(dir, 'nothere.ibd');
    const run = cli([missing]);
    expect(run.stderr).toBe(`ibd-reader: no such file: ${missing}\n`);
    expect(run.status).toBe(1);
    const schema = join(dir, 'nothere.sql');
    const bySchema = cli([join(SAMPLE, 'employees.ibd'), '--schema', schema]);
    expect(bySchema.stderr).toBe(`ibd-reader: no such file: ${schema}\n`);
    expect(bySchema.status).toBe(1);
  });

  it('--version prints the version of package.json', () => {
    const run = cli(['--version']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`ibd-reader ${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`);
  });

  it('a reader that stops early (| head -1) ends it quietly, as SIGPIPE ends a Unix tool (141)', async () => {
    // tb24: half a megabyte of rows, more than a pipe holds, so the CLI is still writing when the reader goes.
    const fixtures = join(ROOT, 'test/fixtures/mysql-testsuite');
    const child = spawn(process.execPath, [CLI, join(fixtures, 'mysql56/pk/tb24.ibd'), '--schema', join(fixtures, 'mysql56/pk/tb24.sql'), '--format', 'ndjson']);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const first = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString())));
    child.stdout.destroy();
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(first).toMatch(/^\{"/);
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
    expect(status).toBe(141);
  });

  it('npx ibd-reader public/sample/employees.ibd works out of the box: employees.sql beside it is the definition, and stderr says so', () => {
    const run = cli([join(SAMPLE, 'employees.ibd')]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(readFileSync(join(ROOT, 'test/fixtures/sample-employees.csv'), 'utf8'));
    expect(run.stderr).toMatch(/^employees\.ibd: table definition: the CREATE TABLE \(employees\.sql\)$/m);
  });

  describe('with a .frm and a .sql beside the .ibd', () => {
    let server: MariadbServer;
    beforeAll(async () => {
      server = await startMariadb();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('the .frm wins, the .sql that disagrees is named, and the rows are the server\'s', async () => {
      await server.exec(`CREATE TABLE drift (id INT PRIMARY KEY, name VARCHAR(20), n BIGINT) DEFAULT CHARSET=utf8mb4;
        INSERT INTO drift VALUES (1, 'one', -5), (2, NULL, 9007199254740993), (3, 'trois', NULL);`);
      const expected = await server.query('SELECT * FROM drift ORDER BY id');
      const ibd = await server.exportTable('drift');
      const table = join(dir, 'drift');
      copyFileSync(ibd, `${table}.ibd`);
      copyFileSync(ibd.replace(/\.ibd$/, '.frm'), `${table}.frm`);
      // An older definition lying beside: one column fewer.
      writeFileSync(`${table}.sql`, 'CREATE TABLE drift (id INT PRIMARY KEY, name VARCHAR(20)) DEFAULT CHARSET=utf8mb4;\n');
      const run = cli([`${table}.ibd`]);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe(csvHeader(expected.columns) + csvRows(expected.rows));
      expect(run.stderr).toMatch(/^drift\.ibd: table definition: the \.frm \(drift\.frm\)$/m);
      expect(run.stderr).toMatch(/the CREATE TABLE \(drift\.sql\) gives `drift` \d+ stored columns, the \.frm \(drift\.frm\) \d+; using the \.frm/);
    });
  });
});
