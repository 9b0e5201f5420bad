/**
 * The right diagnosis of a damaged or wrong file, against real MariaDB servers (full_crc32, its
 * default; and innodb_checksum_algorithm=crc32 with 4 KB pages, the MySQL-compatible format): tables
 * exported, then damaged as users' copies are — page 0 zeroed, the file cut short — and read by the
 * core and the CLI. The layout, the checksum count, the numbers of the truncation message are judged
 * by the intact file; the rows by the server's SELECT. Also the files that are not InnoDB at all,
 * and a .frm whose name differs in case from the .ibd's.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIL_PAGE_TYPE, PageType } from '../src/core/pages/fil-header.ts';
import { readIndexHeader } from '../src/core/pages/index-page.ts';
import { ndjsonRows } from '../src/core/writers/output.ts';
import { batchRows } from '../src/core/values/row-batch.ts';
import { resolveSchema } from '../src/core/definitions/schema-source.ts';
import type { TableDef } from '../src/core/schema.ts';
import { bytesSource } from '../src/core/tablespace/source.ts';
import { summarize } from '../src/core/readers/summary.ts';
import { inspectPage } from '../src/core/readers/page-inspect.ts';
import { openTable, type Row, type TableReader } from '../src/core/readers/table-reader.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

function cli(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
}

/** A table as the server wrote it: its file, its .frm, its rows as SELECT shows them. */
interface Exported {
  bytes: Uint8Array;
  frm: Uint8Array;
  rows: Row[];
  spaceId: number;
}

async function exportTable(server: MariadbServer, table: string, rows: number): Promise<Exported> {
  await server.exec(`CREATE TABLE ${table} (id INT PRIMARY KEY, name VARCHAR(40), qty INT, note VARCHAR(200), KEY k_qty (qty)) DEFAULT CHARSET=utf8mb4;
    INSERT INTO ${table} SELECT seq, CONCAT('row ', seq), seq % 1000, IF(seq % 10 = 0, NULL, REPEAT('x', seq % 150)) FROM seq_1_to_${rows};`);
  const ibd = await server.exportTable(table);
  const space = await server.query(`SELECT SPACE FROM information_schema.INNODB_SYS_TABLES WHERE NAME = 'test/${table}'`);
  return {
    bytes: new Uint8Array(readFileSync(ibd)),
    frm: new Uint8Array(readFileSync(join(dirname(ibd), `${table}.frm`))),
    rows: (await server.query(`SELECT * FROM ${table} ORDER BY id`)).rows,
    spaceId: Number(space.rows[0][0]),
  };
}

/** The definition from the .frm, as the page and the CLI find it beside the .ibd. */
async function definition(t: Exported, name: string): Promise<TableDef> {
  const resolved = await resolveSchema(bytesSource(t.bytes, `${name}.ibd`), [bytesSource(t.frm, `${name}.frm`)]);
  if (!resolved.table) throw new Error(resolved.error ?? 'no definition');
  return resolved.table;
}

async function readAll(reader: TableReader): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const batch of reader.rows()) rows.push(...batch);
  return rows;
}

let dir: string;
beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
  dir = mkdtempSync(join(tmpdir(), 'ibd-diagnosis-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (name → bytes) into a fresh folder of `dir`; returns the folder. */
function folder(name: string, files: Record<string, Uint8Array>): string {
  const at = join(dir, name);
  mkdirSync(at, { recursive: true });
  for (const [file, bytes] of Object.entries(files)) writeFileSync(join(at, file), bytes);
  return at;
}

describe.each([
  { checksum: 'full_crc32' as const, pageSize: 16384, rows: 20000, format: '16 KB pages, full_crc32 checksums' },
  { checksum: 'crc32' as const, pageSize: 4096, rows: 12000, format: '4 KB pages, crc32/innodb checksums' },
])('MariaDB, $checksum, $pageSize-byte pages', ({ checksum, pageSize, rows, format }) => {
  let server: MariadbServer;
  let t: Exported;
  const name = `t_${checksum}`;

  beforeAll(async () => {
    server = await startMariadb({ checksum, pageSize });
    t = await exportTable(server, name, rows);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('page 0 zeroed: page size and format from the other pages, only page 0 bad, every row the server\'s', async () => {
    const zeroed = t.bytes.slice();
    zeroed.fill(0, 0, pageSize);
    const table = await definition(t, name);
    const intact = await readAll(await openTable(bytesSource(t.bytes, `${name}.ibd`), table));
    expect(intact).toEqual(t.rows);

    const ts = await Tablespace.open(bytesSource(zeroed, `${name}.ibd`));
    expect([ts.pageSize, ts.fullCrc32, ts.fsp.spaceId, ts.page0Damaged]).toEqual([pageSize, checksum === 'full_crc32', t.spaceId, 'it is all zeros']);
    const s = await summarize(bytesSource(zeroed, `${name}.ibd`));
    expect([s.pageSize, s.checksumFormat, s.spaceId]).toEqual([pageSize, checksum === 'full_crc32' ? 'full_crc32' : 'mysql', t.spaceId]);
    expect([s.checksums.bad, s.checksums.badPages, s.checksums.checked]).toEqual([1, [0], t.bytes.length / pageSize]);
    expect(s.spaceHeader).toBe(`page 0 (the space header) is damaged: it is all zeros; page size/format taken from the other pages: ${format}`);
    // Page 0 is bad for being all zeros, not for a checksum mismatch: the page's summary and inspector say which.
    expect(s.page0Damaged).toBe(true);
    const inspected = await inspectPage(bytesSource(zeroed, `${name}.ibd`), 0);
    expect(inspected.checksum?.damaged).toBe('page 0 (the space header) is damaged: it is all zeros');
    expect(inspected.problems[0].message).toBe('page 0 (the space header) is damaged: it is all zeros');
    expect(inspected.problems.map((p) => p.message).join('\n')).not.toMatch(/checksum/);
    expect((await inspectPage(bytesSource(t.bytes, `${name}.ibd`), 0)).checksum?.damaged).toBeNull();
    // No page of a freshly filled table was freed: the count is exact, page 0's descriptors or not.
    expect(s.rows).toBe(t.rows.length);
    expect(s.indexes.map((i) => i.leafRecords)).toEqual([t.rows.length, t.rows.length]);
    expect(await readAll(await openTable(bytesSource(zeroed, `${name}.ibd`), table))).toEqual(t.rows);

    // The CLI, with the .frm beside the file as the server keeps it.
    const at = folder(`zeroed-${checksum}`, { [`${name}.ibd`]: zeroed, [`${name}.frm`]: t.frm });
    const run = cli(join(at, `${name}.ibd`), '--format', 'ndjson', '--json-strings');
    // Every row comes back, but the file is damaged: exit status 2.
    expect(run.status, run.stderr).toBe(2);
    // The first warning (after the line naming the definition used: the .frm beside it).
    expect(run.stderr.split('\n').find((l) => l.startsWith('warning: '))).toBe(`warning: ${name}.ibd: page 0 (the space header) is damaged: it is all zeros; page size/format taken from the other pages: ${format}`);
    expect(run.stderr).toMatch(new RegExp(`${rows} rows from \\d+ leaf pages \\(${pageSize / 1024} KB pages, DYNAMIC, ${checksum === 'full_crc32' ? 'full_crc32' : 'mysql'} checksums\\); 0 undecodable records, 0 skipped pages, 0 bad checksums`));
    expect(run.stdout === ndjsonRows(Object.keys(JSON.parse(run.stdout.slice(0, run.stdout.indexOf('\n'))) as object), t.rows)).toBe(true);
  });

  it('cut short: where, how many pages and leaf pages are missing, about how many rows; the rest all there', async () => {
    const table = await definition(t, name);
    const whole = await openTable(bytesSource(t.bytes, `${name}.ibd`), table);
    const leaves = await whole.leafPages();
    // Cut after the last non-leaf page of the clustered index (its B-tree stays walkable), with
    // half a page more.
    const clustered = readIndexHeader(t.bytes.subarray(3 * pageSize, 4 * pageSize)).indexId;
    let lastNode = 3;
    for (let no = 3; no < t.bytes.length / pageSize; no++) {
      const page = t.bytes.subarray(no * pageSize, (no + 1) * pageSize);
      const h = readIndexHeader(page);
      if (new DataView(page.buffer, page.byteOffset).getUint16(FIL_PAGE_TYPE) === PageType.INDEX && h.indexId === clustered && h.level > 0) lastNode = no;
    }
    const cutAt = Math.max(lastNode + 1, Math.floor(leaves.length / 2));
    const lost = leaves.filter((p) => p >= cutAt);
    const kept = leaves.filter((p) => p < cutAt);
    expect(whole.info.treeHeight).toBeGreaterThanOrEqual(2);
    expect(lost.length).toBeGreaterThan(0);
    const spaceSize = new DataView(t.bytes.buffer, t.bytes.byteOffset).getUint32(38 + 8);
    const keptRows = (await Promise.all(kept.map(async (p) => batchRows(await whole.decodePages([p]))))).flat();
    const lostRows = t.rows.length - keptRows.length;
    const cut = t.bytes.subarray(0, cutAt * pageSize + pageSize / 2);

    const s = await summarize(bytesSource(cut, `${name}.ibd`));
    expect(s.truncation).toMatchObject({ cutAt, partialBytes: pageSize / 2, spaceSize, missingPages: spaceSize - cutAt, missingLeaves: lost.length });
    expect(Math.abs(s.truncation!.estimatedRows! - lostRows)).toBeLessThan(lostRows * 0.2);
    expect(s.rows).toBe(keptRows.length);

    const at = folder(`cut-${checksum}`, { [`${name}.ibd`]: cut, [`${name}.frm`]: t.frm });
    const run = cli(join(at, `${name}.ibd`), '--format', 'ndjson', '--json-strings');
    expect(run.status).toBe(2);
    const said = new RegExp(`^warning: ${name}\\.ibd: the file is cut at page ${cutAt} \\(the file ends ${(pageSize / 2).toLocaleString('en-US')} bytes into it\\): ${(spaceSize - cutAt).toLocaleString('en-US')} pages missing past the end \\(the space header says ${spaceSize.toLocaleString('en-US')} pages\\); the B-tree expects ${lost.length.toLocaleString('en-US')} leaf pages there \\(about ([\\d,]+) rows, estimated from the intact leaf pages' average\\)$`, 'm');
    const estimate = Number(said.exec(run.stderr)?.[1].replace(/,/g, ''));
    expect(Math.abs(estimate - lostRows)).toBeLessThan(lostRows * 0.2);
    // Said before the page-by-page warnings, and the report does not call the read complete.
    expect(run.stderr.indexOf('the file is cut at')).toBeLessThan(run.stderr.indexOf('past the end of the file'));
    expect(run.stderr).toContain(`; INCOMPLETE: ${lost.length} of ${leaves.length} leaf pages could not be read\n`);
    const columns = Object.keys(JSON.parse(run.stdout.slice(0, run.stdout.indexOf('\n'))) as object);
    expect(run.stdout === ndjsonRows(columns, keptRows)).toBe(true);
  });

  if (checksum !== 'full_crc32') return;

  it.each([
    { options: 'ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8', physical: 8192, fullCrc32: false, format: '8 KB compressed pages (ROW_FORMAT=COMPRESSED, 16 KB uncompressed)' },
    { options: 'PAGE_COMPRESSED=1', physical: 16384, fullCrc32: true, format: '16 KB pages, full_crc32 checksums, page-compressed with zlib' },
  ])('page 0 zeroed, $options: that layout from the other pages, the server\'s rows', async ({ options, physical, fullCrc32, format }) => {
    const table = options.startsWith('ROW') ? 'zipped' : 'pcomp';
    await server.exec(`CREATE TABLE ${table} (id INT PRIMARY KEY, name VARCHAR(40), note VARCHAR(200)) ${options};
      INSERT INTO ${table} SELECT seq, CONCAT('row ', seq), REPEAT(CHAR(65 + seq % 26), seq % 200) FROM seq_1_to_5000;`);
    const ibd = await server.exportTable(table);
    const bytes = new Uint8Array(readFileSync(ibd));
    bytes.fill(0, 0, physical);
    const expected = (await server.query(`SELECT * FROM ${table} ORDER BY id`)).rows;
    const ts = await Tablespace.open(bytesSource(bytes, `${table}.ibd`));
    expect([ts.pageSize, ts.physicalSize, ts.fullCrc32]).toEqual([16384, physical, fullCrc32]);
    expect(ts.headerNote).toBe(`page 0 (the space header) is damaged: it is all zeros; page size/format taken from the other pages: ${format}`);
    const s = await summarize(bytesSource(bytes, `${table}.ibd`));
    expect([s.checksums.bad, s.checksums.badPages, s.rows]).toEqual([1, [0], 5000]);
    const frm = bytesSource(new Uint8Array(readFileSync(join(dirname(ibd), `${table}.frm`))), `${table}.frm`);
    const def = (await resolveSchema(bytesSource(bytes, `${table}.ibd`), [frm])).table as TableDef;
    expect(await readAll(await openTable(bytesSource(bytes, `${table}.ibd`), def))).toEqual(expected);
  });

  it('the CLI finds VIEWERS.frm beside viewers.ibd', () => {
    const at = folder('case', { 'viewers.ibd': t.bytes, 'VIEWERS.frm': t.frm });
    const run = cli(join(at, 'viewers.ibd'), '--format', 'ndjson', '--json-strings');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.split('\n').length - 1).toBe(t.rows.length);
    const columns = Object.keys(JSON.parse(run.stdout.slice(0, run.stdout.indexOf('\n'))) as object);
    expect(run.stdout === ndjsonRows(columns, t.rows)).toBe(true);
  });

  it('a file that is not InnoDB is said to be so first, with what it looks like, and exit status 1', () => {
    const cases: [string, Uint8Array, string][] = [
      ['empty.ibd', new Uint8Array(0), 'an empty file (0 bytes)'],
      ['notes.ibd', new TextEncoder().encode('These are the notes of the migration.\n'.repeat(300)), 'text (ASCII)'],
      [`${name}.ibd`, zipSync({ [`${name}.ibd`]: t.bytes }), 'a zip archive'],
      [`${name}.ibd`, new Uint8Array(gzipSync(t.bytes)), 'a gzip-compressed file'],
      [`${name}.ibd`, t.frm, 'a MySQL/MariaDB .frm file (a table definition, not its rows)'],
    ];
    for (const [file, bytes, kind] of cases) {
      // The real .frm beside it too: the definition is there, the table file is not.
      const at = folder(`not-innodb-${kind.replace(/\W+/g, '-')}`, { [file]: bytes, [file.replace(/\.ibd$/, '.frm')]: t.frm });
      for (const extra of [[], ['--count'], ['--print-ddl']]) {
        const run = cli(join(at, file), ...extra);
        expect(run.status, `${kind} ${extra.join(' ')}: ${run.stderr}`).toBe(1);
        expect(run.stderr).toBe(`ibd-reader: ${file} is not an InnoDB tablespace: it looks like ${kind}\n`);
      }
    }
    // A copy cut in front still holds InnoDB pages: a raw image, listed and decoded as one.
    const at = folder('raw', { 'image.bin': t.bytes.subarray(4 * 16384) });
    copyFileSync(join(at, 'image.bin'), join(at, 'image.ibd'));
    const listed = cli(join(at, 'image.ibd'), '--list-indexes');
    expect(listed.status, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^image\.ibd: 16 KB pages from byte 0, full_crc32 checksums/);
    const plain = cli(join(at, 'image.ibd'));
    expect(plain.status).toBe(1);
    expect(plain.stderr).toMatch(/^ibd-reader: image\.ibd, page 0: page 0 is no FSP header \(its page type is INDEX, not FSP_HDR\), and the InnoDB pages in the file are not where their page numbers put them: it is a raw image/);
  });
});
