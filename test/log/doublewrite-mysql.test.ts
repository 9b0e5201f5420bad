/**
 * A crashed MySQL datadir whose log this reader does not apply: a page of a table torn by the crash
 * is read from the doublewrite buffer's intact copy (MySQL 8.0.20+'s `#ib_16384_0.dblwr` files, laid
 * out as buf0dblwr.cc writes them: page-size slots one after another), as MySQL's recovery restores
 * it before applying its log; the log still not applied, rows may be stale, exit 2. No MySQL server
 * runs here: the table is a real MySQL 8.0 file (test/fixtures/mysql-testsuite, whose rows the
 * fixture tests prove equal to MySQL's), torn here; the log is built from its documented layout
 * (redo-log-builder.ts). The rows read are those of the intact file.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagesReplaced, recoveryAmiss, recoveryLines } from '../../src/core/log/redo-recovery.ts';
import { put32 } from './redo-log-builder.ts';
import { openInnodb } from '../../src/lib/node.ts';
import { dblwrFile, FIXTURE, halfZeroed, intact, LEAF, LEAF_LSN, PAGE, pageOf, resealCrc32, tornDatadir, tornDatadir57, withPage } from './mysql-torn-datadir.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

/** The table's rows as text, and what the read says of the log. */
async function read(ibd: string) {
  const file = await openInnodb(ibd);
  try {
    const table = await file.table();
    const rows: unknown[] = [];
    for await (const row of table.rows()) rows.push(row);
    return { rows, recovery: file.recovery };
  } finally {
    await file.close();
  }
}

describe("a torn page of a crashed MySQL datadir, from MySQL 8.0.20+'s doublewrite files", () => {
  let dir: string;
  let expected: unknown[];

  const datadir = (name: string, table: Uint8Array, dblwr: Record<string, Uint8Array>) => tornDatadir(join(dir, name), table, dblwr);
  const cli = (ibd: string) => spawnSync(process.execPath, [CLI, '--format', 'csv', ibd], { encoding: 'utf8' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dblwr-mysql-'));
    execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
    mkdirSync(join(dir, 'intact/db'), { recursive: true });
    copyFileSync(FIXTURE, join(dir, 'intact/db/tb01.ibd'));
    expected = (await read(join(dir, 'intact/db/tb01.ibd'))).rows;
    expect(expected.length).toBe(10);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a leaf half zeroed is read as its copy among other pages: the rows of the intact file, said, still exit 2', async () => {
    // Slot 0 never written; slot 1 another page of the table; slot 2 the leaf; slot 3 a page of another tablespace.
    const other = pageOf(intact, 3);
    const foreign = pageOf(intact, 2);
    put32(foreign, 34, 99);
    const ibd = datadir('half', withPage(LEAF, halfZeroed()), { '#ib_16384_0.dblwr': dblwrFile(8, [[1, other], [2, pageOf(intact, LEAF)], [3, foreign]]), '#ib_16384_1.dblwr': dblwrFile(4, []) });
    const got = await read(ibd);
    expect(got.rows).toEqual(expected);
    expect(got.recovery?.doublewrite).toEqual({ pages: [LEAF], from: '#ib_16384_0.dblwr, #ib_16384_1.dblwr' });
    expect(recoveryAmiss(got.recovery!)).toBe(true);
    // The file is read otherwise than on disk: worker threads are served from this source, or not used.
    expect(pagesReplaced(got.recovery)).toBe(true);
    const lines = recoveryLines('tb01.ibd', got.recovery!).join('\n');
    expect(lines).toContain('tb01.ibd: 1 pages restored from #ib_16384_0.dblwr, #ib_16384_1.dblwr (torn by the crash');
    expect(lines).toMatch(/the log is not applied: a MySQL 8.0.30\+ redo log is not applied/);
    const r = cli(ibd);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('1 pages restored from #ib_16384_0.dblwr');
    expect(r.stdout).toBe(cli(join(dir, 'intact/db/tb01.ibd')).stdout);
  });

  it('a leaf all zeros: restored the same; --as-on-disk reads it as it is', async () => {
    const ibd = datadir('zeros', withPage(LEAF, new Uint8Array(PAGE)), { '#ib_16384_0.dblwr': dblwrFile(4, [[0, pageOf(intact, LEAF)]]) });
    const got = await read(ibd);
    expect(got.rows).toEqual(expected);
    expect(got.recovery?.doublewrite?.pages).toEqual([LEAF]);
    const onDisk = spawnSync(process.execPath, [CLI, '--format', 'csv', '--as-on-disk', ibd], { encoding: 'utf8' });
    expect(onDisk.stderr).not.toContain('restored from');
    expect(onDisk.stdout).not.toBe(cli(join(dir, 'intact/db/tb01.ibd')).stdout);
  });

  it('of several copies the newest is taken; none older than the torn page\'s own header says, nor one that fails its checksum', async () => {
    // The copy on disk is the newest; an older one (LSN lowered, checksum made again) sits in another file.
    const older = pageOf(intact, LEAF);
    put32(older, 20, LEAF_LSN - 5);
    resealCrc32(older);
    const got = await read(datadir('newest', withPage(LEAF, halfZeroed()), { '#ib_16384_0.dblwr': dblwrFile(2, [[0, older]]), '#ib_16384_1.dblwr': dblwrFile(2, [[1, pageOf(intact, LEAF)]]) }));
    expect(got.rows).toEqual(expected);
    // The torn page's header (its first half, written) says a newer LSN than the only copy: not that write's copy.
    const newerHeader = halfZeroed();
    put32(newerHeader, 20, LEAF_LSN + 10);
    const stale = await read(datadir('older', withPage(LEAF, newerHeader), { '#ib_16384_0.dblwr': dblwrFile(2, [[0, pageOf(intact, LEAF)]]) }));
    expect(stale.recovery?.doublewrite).toBeUndefined();
    expect(stale.rows).not.toEqual(expected);
    expect(pagesReplaced(stale.recovery)).toBe(false);
    // A copy torn itself is no copy.
    const tornCopy = pageOf(intact, LEAF);
    tornCopy.fill(0x5a, PAGE - 100, PAGE - 8);
    const none = await read(datadir('torncopy', withPage(LEAF, halfZeroed()), { '#ib_16384_0.dblwr': dblwrFile(2, [[0, tornCopy]]) }));
    expect(none.recovery?.doublewrite).toBeUndefined();
  });

  it('a torn page 0 too: its space id and size from the other pages, its copy first, then the leaf', async () => {
    // Page 0 written again after the checkpoint (its LSN within the log's range), torn half way.
    const page0 = pageOf(intact, 0);
    put32(page0, 20, LEAF_LSN - 1);
    resealCrc32(page0);
    const table = withPage(LEAF, halfZeroed());
    table.set(page0.subarray(0, PAGE / 2), 0);
    table.fill(0, PAGE / 2, PAGE);
    const got = await read(datadir('page0', table, { '#ib_16384_0.dblwr': dblwrFile(4, [[0, pageOf(intact, LEAF)], [3, page0]]) }));
    expect(got.recovery?.doublewrite?.pages).toEqual([0, LEAF]);
    expect(got.rows).toEqual(expected);
  });

  it("a copy outside the log's checkpoint..end is not used", async () => {
    const late = pageOf(intact, LEAF);
    put32(late, 20, LEAF_LSN + 100000);
    resealCrc32(late);
    const got = await read(datadir('late', withPage(LEAF, halfZeroed()), { '#ib_16384_0.dblwr': dblwrFile(2, [[0, late]]) }));
    expect(got.recovery?.doublewrite).toBeUndefined();
  });

  // (28 leaves are fewer than the pool's PARALLEL_MIN_PAGES: the threads' reads are covered by pagesReplaced above)
  it('a table of 28 leaves, --threads 2 and DIR -o: the rows of the intact file', () => {
    const fixture = new Uint8Array(readFileSync(FIXTURE.replace('simple/tb01', 'pk/tb24')));
    const leaf = pageOf(fixture, 15);
    const torn = fixture.slice();
    torn.fill(0, 15 * PAGE + PAGE / 2, 16 * PAGE);
    const lsn = new DataView(leaf.buffer).getUint32(20);
    const ibd = tornDatadir(join(dir, 'tb24'), torn, { '#ib_16384_0.dblwr': dblwrFile(2, [[1, leaf]]) }, 'tb24', lsn);
    mkdirSync(join(dir, 'tb24-intact/db'), { recursive: true });
    writeFileSync(join(dir, 'tb24-intact/db/tb24.ibd'), fixture);
    const threads = (file: string) => spawnSync(process.execPath, [CLI, '--format', 'csv', '--threads', '2', file], { encoding: 'utf8' });
    const want = threads(join(dir, 'tb24-intact/db/tb24.ibd'));
    expect(want.stdout.split('\n').length).toBeGreaterThan(3000);
    const r = threads(ibd);
    expect(r.stderr).toContain('1 pages restored from #ib_16384_0.dblwr');
    expect(r.stdout).toBe(want.stdout);
    const out = join(dir, 'tb24-out');
    expect(spawnSync(process.execPath, [CLI, '--threads', '2', join(dir, 'tb24'), '-o', out], { encoding: 'utf8' }).status).toBe(2);
    expect(readFileSync(join(out, 'db/tb24.csv'), 'utf8')).toBe(want.stdout);
  });

  it("MySQL 5.7 (ib_logfile0, ib_logfile1): ibdata1's doublewrite blocks restore the torn leaf", async () => {
    const ibd = tornDatadir57(join(dir, 'm57'), withPage(LEAF, halfZeroed()), [[0, pageOf(intact, 3)], [5, pageOf(intact, LEAF)]]);
    const got = await read(ibd);
    expect(got.rows).toEqual(expected);
    expect(got.recovery?.bounds?.format).toBe('MySQL 5.7');
    expect(got.recovery?.doublewrite).toEqual({ pages: [LEAF], from: 'ibdata1' });
    const r = cli(ibd);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('tb01.ibd: 1 pages restored from ibdata1 (torn by the crash');
    expect(r.stdout).toBe(cli(join(dir, 'intact/db/tb01.ibd')).stdout);
  });
});
