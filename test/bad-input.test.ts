/**
 * Bad input must give a clear message naming the file, the page and what was expected, never a hang or
 * an unexpected exception; whatever is readable is still returned, and what is not is counted.
 */
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { IbdError, NotInnodbError } from '../src/core/errors.ts';
import { bytesSource } from '../src/core/tablespace/source.ts';
import { openTable, type Row, type TableReader } from '../src/core/readers/table-reader.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures/mysql-testsuite');
const IBD = readFileSync(join(FIXTURES, 'mysql57/deletion/tb13.ibd'));
const DDL = readFileSync(join(FIXTURES, 'mysql56/deletion/tb13.sql'), 'utf8');
const TABLE = parseCreateTables(DDL)[0];

async function readAll(reader: TableReader): Promise<Row[]> {
  const rows: Row[] = [];
  for await (const batch of reader.rows()) rows.push(...batch);
  return rows;
}

function isSubsequence(part: Row[], whole: Row[]): boolean {
  let j = 0;
  for (const row of part) {
    const key = JSON.stringify(row);
    while (j < whole.length && JSON.stringify(whole[j]) !== key) j++;
    if (j++ >= whole.length) return false;
  }
  return true;
}

async function openError(bytes: Uint8Array, name: string, ddl = TABLE): Promise<IbdError> {
  const error = await openTable(bytesSource(bytes, name), ddl).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(IbdError);
  return error as IbdError;
}

describe('files that are not InnoDB tablespaces: said first, with what they look like', () => {
  const notInnodb = async (bytes: Uint8Array, name: string): Promise<string> => {
    const error = await openError(bytes, name);
    expect(error).toBeInstanceOf(NotInnodbError);
    return error.message;
  };
  it('an empty file', async () => {
    expect(await notInnodb(new Uint8Array(0), 'empty.ibd')).toBe('empty.ibd is not an InnoDB tablespace: it looks like an empty file (0 bytes)');
  });
  it('random bytes', async () => {
    const bytes = new Uint8Array(65536).map((_, i) => (i * 2654435761) >>> 24);
    expect(await notInnodb(bytes, 'noise.ibd')).toBe('noise.ibd is not an InnoDB tablespace: it looks like binary data of no kind recognised');
  });
  it('a PNG image', async () => {
    const png = new Uint8Array(20000);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(await notInnodb(png, 'photo.png')).toBe('photo.png is not an InnoDB tablespace: it looks like a PNG image');
  });
  it('an SQL dump and other text', async () => {
    const dump = new TextEncoder().encode(DDL.repeat(50));
    expect(await notInnodb(dump, 'dump.ibd')).toBe('dump.ibd is not an InnoDB tablespace: it looks like an SQL script or dump (text)');
    const text = new TextEncoder().encode('Grüße aus dem Rechenzentrum\n'.repeat(100));
    expect(await notInnodb(text, 'notes.ibd')).toBe('notes.ibd is not an InnoDB tablespace: it looks like text (UTF-8)');
    expect(await notInnodb(new TextEncoder().encode('hello\n'), 'tiny.ibd')).toBe('tiny.ibd is not an InnoDB tablespace: it looks like text (ASCII), 6 bytes: shorter than any InnoDB page');
  });
  it('the table file inside an archive: zip, gzip', async () => {
    expect(await notInnodb(zipSync({ 'tb13.ibd': IBD }), 'tb13.ibd')).toBe('tb13.ibd is not an InnoDB tablespace: it looks like a zip archive');
    expect(await notInnodb(new Uint8Array(gzipSync(IBD)), 'tb13.ibd')).toBe('tb13.ibd is not an InnoDB tablespace: it looks like a gzip-compressed file');
  });
  it('a file of zeros', async () => {
    expect(await notInnodb(new Uint8Array(5 * 16384), 'zeros.ibd')).toBe('zeros.ibd is not an InnoDB tablespace: it looks like all zero bytes');
  });
  it('InnoDB pages that are not where a tablespace has them (a copy cut in front) are a raw image, not "not InnoDB"', async () => {
    const error = await openError(IBD.subarray(3 * 16384), 'cut.ibd');
    expect(error).not.toBeInstanceOf(NotInnodbError);
    expect(error.message).toMatch(/^cut\.ibd, page 0: page 0 is no FSP header \(its page type is INDEX, not FSP_HDR\), and the InnoDB pages in the file are not where their page numbers put them: it is a raw image/);
  });
});

describe('a truncated file', () => {
  const full = async () => readAll(await openTable(bytesSource(IBD, 'tb13.ibd'), TABLE));

  it('keeps the rows of the leaf pages that are there and reports each missing one', async () => {
    const all = await full();
    expect(all.length).toBeGreaterThan(1000);
    for (const pages of [IBD.length / 16384 - 1, Math.floor(IBD.length / 16384 / 2), 6]) {
      for (const extra of [0, 5000]) {
        const cut = IBD.subarray(0, pages * 16384 + extra);
        const reader = await openTable(bytesSource(cut, 'tb13.ibd'), TABLE).catch((e: unknown) => e);
        if (reader instanceof IbdError) {
          // The root or an inner page is gone: nothing can be walked, and the message says which.
          expect(reader.message).toMatch(/^tb13\.ibd, page \d+: /);
          continue;
        }
        const rows = await readAll(reader as TableReader);
        const { stats } = reader as TableReader;
        // What was read are real rows, in order; each missing leaf page is reported.
        expect(isSubsequence(rows, all)).toBe(true);
        const missing = (await (reader as TableReader).leafPages()).filter((p) => p >= pages).length;
        expect(stats.pagesSkipped).toBe(missing);
        expect(stats.problems.filter((p) => /past the end of the file/.test(p.message))).toHaveLength(missing);
        if (missing > 0) expect(rows.length).toBeLessThan(all.length);
      }
    }
  });

  it('a file shorter than one page', async () => {
    expect((await openError(IBD.subarray(0, 10000), 'tb13.ibd')).message).toMatch(/^tb13\.ibd, page 0: the file is 10000 bytes long/);
  });
});

describe('a table definition that does not match the file', () => {
  const variant = (from: string, to: string) => parseCreateTables(DDL.replace(from, to))[0];

  it.each([
    ['a column too few', '`c` varchar(1024)', '-- '],
    ['a column too many', '`c` varchar(1024)', '`extra` INT NOT NULL, `c` varchar(1024)'],
    ['a wrong type', '`a` bigint(20) NOT NULL', '`a` int(11) NOT NULL'],
  ])('%s: a clear error naming the page', async (_what, from, to) => {
    const table = variant(from, to);
    const reader = await openTable(bytesSource(IBD, 'tb13.ibd'), table);
    const error = await readAll(reader).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(IbdError);
    expect((error as IbdError).message).toMatch(/^tb13\.ibd, page \d+: the table definition does not match the records/);
  });
});
