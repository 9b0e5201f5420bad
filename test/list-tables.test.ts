/**
 * `--list-tables` on files of one table (real MySQL 8.0 and 5.7 files of test/fixtures/mysql-testsuite): a MySQL 8
 * file lists the table of its SDI with its clustered index and its exact row count (the same as
 * --count); a file nothing describes lists none and says why. (ibdata1: test/differential/system-tablespace.test.ts.)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_ROOT } from './differential/mysql-fixture-files.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

describe('--list-tables', () => {
  beforeAll(() => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
  });

  it.each(['mysql80/pk/tb24_sk.ibd', 'mysql80/simple/tb01.ibd'])('%s: its SDI table, counted as --count counts it', (rel) => {
    const file = join(FIXTURES_ROOT, rel);
    const listed = run([file, '--list-tables', '--format', 'ndjson']);
    expect(listed.status, listed.stderr).toBe(0);
    const rows = listed.stdout.trim().split('\n').map((l) => JSON.parse(l) as { name: string; rows: number; definition: { source: string }; indexes: { kind: string }[] });
    const count = run([file, '--count']);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: rel.replace(/^.*\/|\.ibd$/g, ''), rows: Number(count.stdout), definition: { source: 'sdi' } });
    expect(rows[0].indexes[0].kind).toBe('clustered');
    expect(run([file, '--list-tables']).stdout).toMatch(new RegExp(`^${rows[0].name}\\.ibd: 1 table\\n`));
  });

  it('a MySQL 5.7 file alone: no table, and why', () => {
    const listed = run([join(FIXTURES_ROOT, 'mysql57/simple/tb01.ibd'), '--list-tables']);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toBe('tb01.ibd: 0 tables (tb01.ibd carries no table definition of its own (it is not a MySQL 8 file), and no .frm or .sql file describing it was given)\n');
  });
});
