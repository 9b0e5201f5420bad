/**
 * The right diagnosis of a damaged file, on the real MySQL 5.6 / 5.7 / 8.0 fixture files
 * (test/fixtures/mysql-testsuite), each judged against the intact file: page 0 zeroed or with
 * a bad checksum (the layout must come from the other pages, only page 0 be bad, every row be the
 * intact file's), space flags that disagree with the pages, and a file cut short (the numbers of the
 * message computed here from the intact file).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crc32c } from '../src/core/pages/checksum.ts';
import { parseCreateTables, pickTable } from '../src/core/definitions/ddl/create-table.ts';
import { resolveSchema } from '../src/core/definitions/schema-source.ts';
import type { TableDef } from '../src/core/schema.ts';
import { bytesSource } from '../src/core/tablespace/source.ts';
import { summarize } from '../src/core/readers/summary.ts';
import { openTable, type Row } from '../src/core/readers/table-reader.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';
import { leafTruncation } from '../src/core/btree/truncation.ts';
import { batchRows } from '../src/core/values/row-batch.ts';

const ROOT = join(import.meta.dirname, 'fixtures/mysql-testsuite');
if (!existsSync(ROOT)) throw new Error(`the MySQL fixtures are missing: expected ${ROOT}`);

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ibd') ? [p] : [];
  });

/** The table definition: the .sql of the mysql56 tree, else (MySQL 8) the file's own SDI. */
async function definition(path: string, bytes: Uint8Array): Promise<TableDef | null> {
  const rel = relative(ROOT, path);
  const sql = join(ROOT, 'mysql56', rel.slice(rel.indexOf('/') + 1).replace(/\.ibd$/, '.sql'));
  if (existsSync(sql)) return pickTable(parseCreateTables(readFileSync(sql, 'utf8')), path) ?? null;
  return (await resolveSchema(bytesSource(bytes, rel), [])).table;
}

async function rowsOf(bytes: Uint8Array, name: string, table: TableDef): Promise<{ rows: Row[]; failed: number }> {
  const reader = await openTable(bytesSource(bytes, name), table);
  const rows: Row[] = [];
  for await (const batch of reader.rows()) rows.push(...batch);
  return { rows, failed: reader.stats.recordsFailed + reader.stats.pagesSkipped };
}

/** Writes a page's crc32 checksum (buf_calc_page_crc32) into its header and trailer. */
function setCrc32(page: Uint8Array): void {
  const crc = (crc32c(page, 4, 26) ^ crc32c(page, 38, page.length - 8)) >>> 0;
  const dv = new DataView(page.buffer, page.byteOffset, page.length);
  dv.setUint32(0, crc);
  dv.setUint32(page.length - 8, crc);
}

describe('page 0 damaged, every fixture file', () => {
  const all = files(ROOT).sort();

  it('zeroed or with a bad checksum: the layout from the other pages, only page 0 bad, the intact rows', async () => {
    expect(all.length).toBeGreaterThan(70);
    let compared = 0;
    for (const path of all) {
      const rel = relative(ROOT, path);
      const intact = new Uint8Array(readFileSync(path));
      const good = await Tablespace.open(bytesSource(intact, rel));
      const zeroed = intact.slice();
      zeroed.fill(0, 0, good.physicalSize);
      const flipped = intact.slice();
      flipped[good.physicalSize - 500] ^= 0x01;
      for (const [bytes, why] of [[zeroed, 'it is all zeros'], [flipped, 'its checksum does not match']] as const) {
        const ts = await Tablespace.open(bytesSource(bytes, rel));
        expect(ts.page0Damaged, rel).toBe(why);
        expect([ts.pageSize, ts.physicalSize, ts.fullCrc32, ts.fsp.spaceId, ts.fsp.flags.sdi], rel).toEqual([good.pageSize, good.physicalSize, good.fullCrc32, good.fsp.spaceId, good.fsp.flags.sdi]);
        expect(ts.headerNote, rel).toBe(`page 0 (the space header) is damaged: ${why}; page size/format taken from the other pages: 16 KB pages, crc32/innodb checksums`);
        const s = await summarize(bytesSource(bytes, rel));
        expect([s.checksums.bad, s.checksums.badPages], rel).toEqual([1, [0]]);
        expect(s.spaceHeader, rel).toBe(ts.headerNote);
      }
      const table = await definition(path, intact);
      if (!table) continue;
      const expected = await rowsOf(intact, rel, table).catch(() => null);
      // What the decoder cannot read yet is its own tests' business.
      if (!expected || expected.failed > 0) continue;
      for (const bytes of [zeroed, flipped]) expect((await rowsOf(bytes, rel, table)).rows, rel).toEqual(expected.rows);
      // The MySQL 8 files' definition comes from their SDI, whose root page 0 no longer names.
      if (rel.startsWith('mysql80/')) expect((await resolveSchema(bytesSource(zeroed, rel), [])).table, rel).toEqual((await resolveSchema(bytesSource(intact, rel), [])).table);
      compared++;
    }
    expect(compared).toBeGreaterThan(40);
  }, 300_000);

  it('the row count says when it may include freed pages, which page 0 alone could rule out', async () => {
    const path = join(ROOT, 'mysql57/deletion/tb13.ibd');
    const intact = new Uint8Array(readFileSync(path));
    const zeroed = intact.slice();
    zeroed.fill(0, 0, 16384);
    const table = (await definition(path, intact)) as TableDef;
    const rows = (await rowsOf(zeroed, 'tb13.ibd', table)).rows.length;
    expect(rows).toBe((await summarize(bytesSource(intact, 'tb13.ibd'))).rows);
    const s = await summarize(bytesSource(zeroed, 'tb13.ibd'));
    expect(s.rows).toBeGreaterThan(rows);
    expect(s.problems).toContain(`page 0: the extent descriptor page is damaged; free pages in pages 0–${intact.length / 16384 - 1} cannot be told apart from used ones, so the row count may include the old rows of freed pages`);
  });
});

describe('space flags that disagree with the pages', () => {
  const path = join(ROOT, 'mysql80/pk/tb24_sk.ibd');
  const intact = new Uint8Array(readFileSync(path));
  /** The flags of page 0 rewritten to say 8 KB compressed pages (KEY_BLOCK_SIZE=8) of 16 KB. */
  const claimed = (recompute: boolean) => {
    const bytes = intact.slice();
    const dv = new DataView(bytes.buffer);
    dv.setUint32(38 + 16, (dv.getUint32(38 + 16) & ~0x1e) | (4 << 1));
    if (recompute) setCrc32(bytes.subarray(0, 16384));
    return bytes;
  };

  it('read by the page size the pages show, the disagreement reported; the rows are the intact ones', async () => {
    const table = (await definition(path, intact)) as TableDef;
    const expected = (await rowsOf(intact, 'tb24_sk.ibd', table)).rows;
    const good = await Tablespace.open(bytesSource(intact, 'tb24_sk.ibd'));
    const checked = await Tablespace.open(bytesSource(claimed(true), 'tb24_sk.ibd'));
    expect([checked.pageSize, checked.physicalSize, checked.page0Damaged]).toEqual([16384, 16384, null]);
    expect(checked.flagsDisagree).toBe(`the space flags on page 0 (0x${(good.fsp.flags.raw & ~0x1e | 8).toString(16)}) say 8 KB compressed pages (ROW_FORMAT=COMPRESSED, 16 KB uncompressed), but the pages are 16 KB pages, crc32/innodb checksums: the file is read as its pages show`);
    // Page 0 is sound: its space size still counts.
    expect(checked.fsp.size).toBe(good.fsp.size);
    const unchecked = await Tablespace.open(bytesSource(claimed(false), 'tb24_sk.ibd'));
    expect(unchecked.page0Damaged).toBe('its checksum does not match, and its space flags say 8 KB compressed pages (ROW_FORMAT=COMPRESSED, 16 KB uncompressed), which the other pages are not');
    // Page 0 checks out as the 16 KB page it is once its checksum is made right; not before.
    for (const [bytes, bad] of [[claimed(true), 0], [claimed(false), 1]] as const) {
      expect((await rowsOf(bytes, 'tb24_sk.ibd', table)).rows).toEqual(expected);
      expect((await summarize(bytesSource(bytes, 'tb24_sk.ibd'))).checksums.bad).toBe(bad);
    }
  });
});

describe('a truncated file: mysql80/pk/tb24_sk.ibd cut to 400,000 bytes', () => {
  const path = join(ROOT, 'mysql80/pk/tb24_sk.ibd');
  const intact = new Uint8Array(readFileSync(path));
  const cut = intact.subarray(0, 400_000);
  const CUT_AT = Math.floor(400_000 / 16384);

  it('the summary and leafTruncation say where it is cut, what is missing, and about how many rows', async () => {
    const table = (await definition(path, intact)) as TableDef;
    const whole = await openTable(bytesSource(intact, 'tb24_sk.ibd'), table);
    const leaves = await whole.leafPages();
    const lost = leaves.filter((p) => p >= CUT_AT);
    const kept = leaves.filter((p) => p < CUT_AT);
    expect(lost.length).toBeGreaterThan(0);
    const spaceSize = new DataView(intact.buffer, intact.byteOffset).getUint32(38 + 8);
    const lostRows = (await Promise.all(lost.map(async (p) => batchRows(await whole.decodePages([p]))))).flat().length;
    const keptRows = (await Promise.all(kept.map(async (p) => batchRows(await whole.decodePages([p]))))).flat();

    const s = await summarize(bytesSource(cut, 'tb24_sk.ibd'));
    const t = s.truncation;
    expect(t).toMatchObject({ cutAt: CUT_AT, partialBytes: 400_000 - CUT_AT * 16384, spaceSize, missingPages: spaceSize - CUT_AT, missingLeaves: lost.length });
    expect(t!.message).toMatch(new RegExp(`^the file is cut at page ${CUT_AT} \\(the file ends 6,784 bytes into it\\): ${spaceSize - CUT_AT} pages missing past the end \\(the space header says ${spaceSize} pages\\); the B-tree expects ${lost.length} leaf pages there \\(about [\\d,]+ rows, estimated from the intact leaf pages' average\\)$`));
    // An estimate, from the pages that are there.
    expect(Math.abs(t!.estimatedRows! - lostRows)).toBeLessThan(lostRows * 0.25);
    expect(s.rows).toBe(keptRows.length);

    const reader = await openTable(bytesSource(cut, 'tb24_sk.ibd'), table);
    const fromLeaves = await leafTruncation(await Tablespace.open(bytesSource(cut, 'tb24_sk.ibd')), await reader.leafPages());
    expect(fromLeaves).toMatchObject({ cutAt: CUT_AT, spaceSize, missingPages: spaceSize - CUT_AT, missingLeaves: lost.length });
    // Every row of the leaf pages that are there.
    const rows: Row[] = [];
    for await (const batch of reader.rows()) rows.push(...batch);
    expect(rows).toEqual(keptRows);
    expect(reader.stats.pagesSkipped).toBe(lost.length);
  });

  it('an intact file is not called truncated', async () => {
    expect((await summarize(bytesSource(intact, 'tb24_sk.ibd'))).truncation).toBeNull();
  });
});
