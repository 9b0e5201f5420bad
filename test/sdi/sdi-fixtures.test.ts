/**
 * The data dictionary inside real MySQL 8.0.18 files (test/fixtures/mysql-testsuite/mysql80):
 * for every file, the table definition read from its SDI must decode exactly the rows the definition
 * parsed from the table's .sql decodes (that one is checked against MariaDB by
 * test/differential/mysql-fixtures.test.ts), its columns must be the .sql's, and the CREATE TABLE text
 * rebuilt from the SDI must parse back to the same definition.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { basename, join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { crc32c } from '../../src/core/pages/checksum.ts';
import { parseCreateTables, pickTable } from '../../src/core/definitions/ddl/create-table.ts';
import type { Column, TableDef } from '../../src/core/schema.ts';
import { resolveSchema } from '../../src/core/definitions/schema-source.ts';
import { readSdi, readSdiRecords, readSdiTables, SdiError } from '../../src/core/definitions/sdi/index.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { openTable, type Row } from '../../src/core/readers/table-reader.ts';
import { Tablespace } from '../../src/core/tablespace/tablespace.ts';
import { expectSameRows } from '../differential/decode.ts';

const ROOT = join(import.meta.dirname, '../fixtures/mysql-testsuite');
if (!existsSync(ROOT)) throw new Error(`the MySQL fixtures are missing: expected ${ROOT}`);

function ibdFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return ibdFiles(p);
    return p.endsWith('.ibd') ? [p] : [];
  });
}

const cases = ibdFiles(join(ROOT, 'mysql80')).sort().map((ibd) => {
  const rel = relative(join(ROOT, 'mysql80'), ibd).replace(/\.ibd$/, '');
  return { rel, ibd, sql: join(ROOT, 'mysql56', `${rel}.sql`) };
});

async function tablespace(bytes: Uint8Array, name: string): Promise<Tablespace> {
  return Tablespace.open(bytesSource(bytes, name));
}

async function decode(bytes: Uint8Array, name: string, table: TableDef): Promise<{ columns: string[]; rows: Row[]; problems: unknown[] }> {
  const reader = await openTable(bytesSource(bytes, name), table);
  const rows: Row[] = [];
  for await (const batch of reader.rows()) rows.push(...batch);
  return { columns: reader.columns, rows, problems: reader.stats.problems };
}

/**
 * What decides how a column is stored and shown. The server keeps BOOL as TINYINT(1) and YEAR as
 * YEAR(4), so a .sql saying BOOLEAN or YEAR means those.
 */
function shape(c: Column) {
  const bool = c.type === 'bool';
  return {
    name: c.name, type: bool ? 'tinyint' : c.type, unsigned: c.unsigned, nullable: c.nullable,
    length: bool ? 1 : c.type === 'year' && c.length === 0 ? 4 : c.length,
    precision: c.precision, scale: c.scale, fsp: c.fsp, values: c.values, generated: c.generated,
  };
}

/** The whole definition but the text it came from and the row format (a CREATE TABLE states it only when chosen). */
function model(t: TableDef) {
  return { name: t.name, columns: t.columns, indexes: t.indexes, charset: t.charset };
}

describe('SDI of the MySQL 8.0.18 fixture files', () => {
  it('covers every mysql80 fixture', () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
    for (const c of cases) expect(existsSync(c.sql), `${c.sql} exists`).toBe(true);
  });

  it.each(cases)('$rel', async ({ rel, ibd, sql }) => {
    const bytes = readFileSync(ibd);
    const name = basename(ibd);
    const sdi = await readSdi(await tablespace(bytes, name));
    expect(sdi).not.toBeNull();
    expect(sdi!.errors).toEqual([]);
    expect(sdi!.tables).toHaveLength(1);
    const fromSdi = sdi!.tables[0];
    expect(sdi!.tablespace).toBe(`${fromSdi.schema}/${basename(rel)}`);
    expect(fromSdi.mysqlVersion).toBe(80018);
    expect(fromSdi.warnings).toEqual([]);
    // the dictionary's clustered index is the B-tree the reader finds on its own
    const reader = await openTable(bytesSource(bytes, name), fromSdi.table);
    expect(fromSdi.clusteredIndex).toEqual({ rootPage: reader.info.rootPage, indexId: reader.info.indexId });

    const fromSql = pickTable(parseCreateTables(readFileSync(sql, 'utf8')), name);
    if (!fromSql) throw new Error(`${sql} has no CREATE TABLE for ${name}`);
    expect(fromSdi.table.name).toBe(fromSql.name);
    expect(fromSdi.table.columns.map(shape)).toEqual(fromSql.columns.map(shape));
    expect(fromSdi.table.rowFormat).toBe('DYNAMIC');

    // the rebuilt CREATE TABLE says what the model says
    const reparsed = parseCreateTables(fromSdi.table.createSql);
    expect(reparsed).toHaveLength(1);
    expect(model(reparsed[0])).toEqual(model(fromSdi.table));

    const viaSql = await decode(bytes, name, fromSql);
    const viaSdi = await decode(bytes, name, fromSdi.table);
    expect(viaSdi.columns).toEqual(viaSql.columns);
    expect(viaSdi.rows.length).toBeGreaterThan(0);
    expectSameRows(viaSdi.rows, viaSql.rows, `mysql80/${rel} (SDI vs .sql)`, viaSdi.columns);
    expect(viaSdi.problems).toEqual([]);
  });
});

describe('files without SDI', () => {
  it.each(['mysql56/simple/tb01.ibd', 'mysql57/simple/tb01.ibd', 'mysql57/column/enum/tb25.ibd'])('%s has none', async (rel) => {
    const ts = await tablespace(readFileSync(join(ROOT, rel)), basename(rel));
    expect(await readSdi(ts)).toBeNull();
    expect(await readSdiTables(ts)).toEqual([]);
  });
});

describe('damaged SDI', () => {
  const original = readFileSync(join(ROOT, 'mysql80/simple/tb01.ibd'));

  it('an SDI root pointer outside the file is an SdiError', async () => {
    const bytes = new Uint8Array(original);
    // page 0 keeps version and root page at 10505 for 16 KB pages; its checksum made right again,
    // else page 0 is damaged and the SDI root is looked for among the pages instead
    new DataView(bytes.buffer).setUint32(10505 + 4, 999999);
    setCrc32(bytes.subarray(0, 16384));
    const ts = await tablespace(bytes, 'tb01.ibd');
    expect(ts.page0Damaged).toBeNull();
    await expect(readSdi(ts)).rejects.toThrow(SdiError);
    const resolved = await resolveSchema(bytesSource(bytes, 'tb01.ibd'), []);
    expect(resolved.error).toBe('tb01.ibd is a MySQL 8 file, but its data dictionary (SDI) could not be read (the SDI root page number on page 0 (999999) is outside the file), and no .frm or .sql file describing it was given');
  });

  it('page 0 zeroed: the SDI root is found among the first pages, and the table read from it', async () => {
    const bytes = new Uint8Array(original);
    bytes.fill(0, 0, 16384);
    const ts = await tablespace(bytes, 'tb01.ibd');
    expect(ts.page0Damaged).toBe('it is all zeros');
    expect(ts.fsp.flags.sdi).toBe(true);
    const intact = await readSdi(await tablespace(new Uint8Array(original), 'tb01.ibd'));
    expect(await readSdi(ts)).toEqual(intact);
  });

  it('damaged compressed data is an SdiError, not a wrong table', async () => {
    const bytes = new Uint8Array(original);
    const root = new DataView(bytes.buffer).getUint32(10505 + 4);
    const page = bytes.subarray(root * 16384, (root + 1) * 16384);
    // scramble the middle of every record's zlib stream on the page
    for (let i = 400; i < 1200; i++) page[i] ^= 0x5a;
    await expect(readSdi(await tablespace(bytes, 'tb01.ibd'))).rejects.toThrow(SdiError);
  });
});

/** Writes a 16 KB page's crc32 checksum (buf_calc_page_crc32) into its header and trailer. */
function setCrc32(page: Uint8Array): void {
  const crc = (crc32c(page, 4, 26) ^ crc32c(page, 38, page.length - 8)) >>> 0;
  const dv = new DataView(page.buffer, page.byteOffset, page.length);
  dv.setUint32(0, crc);
  dv.setUint32(page.length - 8, crc);
}

/**
 * Puts one more SDI record on a 16 KB SDI leaf page, right after its first record: the record
 * header, the JSON deflated with zlib, the page's heap top moved. (The page checksum goes stale;
 * the SDI reader, like the server's SDI tools, reads the records anyway.)
 */
function addSdiRecord(file: Uint8Array, pageNo: number, type: number, id: bigint, json: string): void {
  const P = 16384;
  const page = file.subarray(pageNo * P, (pageNo + 1) * P);
  const dv = new DataView(page.buffer, page.byteOffset, P);
  const data = deflateSync(Buffer.from(json));
  const heapTop = dv.getUint16(38 + 2);
  const nHeap = dv.getUint16(38 + 4) & 0x7fff;
  // 2 length bytes (a long field), no null bitmap, the 5-byte header
  const origin = heapTop + 2 + 5;
  const first = (99 + dv.getInt16(99 - 2)) & (P - 1);
  const after = (first + dv.getInt16(first - 2)) & (P - 1);
  page[origin - 6] = 0x80 | (data.length >> 8);
  page[origin - 7] = data.length & 0xff;
  page[origin - 5] = 0;
  dv.setUint16(origin - 4, nHeap << 3);
  dv.setInt16(origin - 2, after - origin);
  dv.setInt16(first - 2, origin - first);
  dv.setUint32(origin, type);
  dv.setBigUint64(origin + 4, id);
  page.fill(0, origin + 12, origin + 25); // DB_TRX_ID, DB_ROLL_PTR
  dv.setUint32(origin + 25, Buffer.byteLength(json));
  dv.setUint32(origin + 29, data.length);
  page.set(data, origin + 33);
  dv.setUint16(38 + 2, origin + 33 + data.length);
  dv.setUint16(38 + 4, (dv.getUint16(38 + 4) & 0x8000) | (nHeap + 1));
}

describe('a tablespace holding several tables', () => {
  // tb01's file with tb02's dictionary entry added: what a general tablespace's SDI looks like
  const bytes = new Uint8Array(readFileSync(join(ROOT, 'mysql80/simple/tb01.ibd')));
  beforeAll(async () => {
    const tb02 = await readSdiRecords(await tablespace(readFileSync(join(ROOT, 'mysql80/column/int/tb02.ibd')), 'tb02.ibd'));
    const root = new DataView(bytes.buffer).getUint32(10505 + 4);
    addSdiRecord(bytes, root, 1, 400n, tb02!.find((r) => r.type === 1)!.json);
  });

  it('returns every table', async () => {
    const sdi = await readSdi(await tablespace(bytes, 'ts1.ibd'));
    expect(sdi!.errors).toEqual([]);
    expect(sdi!.tables.map((t) => t.table.name)).toEqual(['tb01', 'tb02']);
    expect(sdi!.tables[1].table.columns).toHaveLength(11);
  });

  it('the table named like the file is chosen, the others offered', async () => {
    const named = await resolveSchema(bytesSource(bytes, 'tb01.ibd'), []);
    expect(named.table?.name).toBe('tb01');
    expect(named.candidates.map((c) => c.table.name)).toEqual(['tb01', 'tb02']);
    const general = await resolveSchema(bytesSource(bytes, 'ts1.ibd'), []);
    expect(general.table).toBeNull();
    expect(general.candidates.map((c) => c.table.name)).toEqual(['tb01', 'tb02']);
    expect(general.error).toBe('none of the table definitions given (`tb01`, `tb02`) is named like ts1.ibd; choose one');
  });
});
