/**
 * MySQL 8.0 instant ADD/DROP COLUMN, from the documented record format (no MySQL server here):
 * records are written by hand the way MySQL lays them out and decoded with the layout built from
 * SDI-style column metadata.
 *  - 8.0.29+ row versions: info bit 0x40 and a version byte after the header; a record holds the
 *    fields added at or before its version and not dropped at or before it, in physical order.
 *  - 8.0.12-8.0.28: info bit 0x80 and the record's field count after the header; records without it
 *    hold the fields that existed before the first instant ADD (table se_private_data instant_col).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clusteredLayout, type ClusteredLayout } from '../src/core/records/clustered-index.ts';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { ddlInstantLayout, mysqlInstantLayout, type MysqlInstantColumn } from '../src/core/records/instant-mysql.ts';
import { mysqlInstantTable } from '../src/core/definitions/sdi/sdi-instant.ts';
import { decodeCompact, fieldColumns, type ExternField, type RecordSink } from '../src/core/records/record.ts';
import { BatchBuilder, batchRows } from '../src/core/values/row-batch.ts';
import { readSdiRecords } from '../src/core/btree/sdi-pages.ts';
import type { DdTable } from '../src/core/definitions/sdi/sdi-table.ts';
import { bytesSource } from '../src/core/tablespace/source.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';
import { writerFor } from '../src/core/values/text-writers.ts';
import { fastWriteOf } from '../src/core/values/writer-traits.ts';

const int4 = (v: number): Uint8Array => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, (v ^ 0x80000000) >>> 0);
  return b;
};
const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/**
 * Writes a COMPACT leaf record at `origin`: `extra` bytes right before the 5-byte header (version or
 * field count), then the null bitmap and the lengths of the stored fields, then their data.
 */
function putRecord(page: Uint8Array, origin: number, layout: ClusteredLayout, stored: number[], values: (Uint8Array | null)[], info: number, extra: number[]): void {
  page[origin - 5] = info | 1;
  page[origin - 4] = 0;
  page[origin - 3] = 2 << 3; // heap number 2, ordinary record
  let p = origin - 6;
  for (const b of extra) page[p--] = b;
  const nullable = stored.filter((i) => layout.fields[i].nullable).length;
  const nullBytes = (nullable + 7) >> 3;
  let nullPtr = p;
  let bit = 1;
  let lenPtr = p - nullBytes;
  let data = origin;
  stored.forEach((i, k) => {
    const f = layout.fields[i];
    const v = values[k];
    if (f.nullable) {
      if (v === null) page[nullPtr] |= bit;
      bit <<= 1;
      if (bit === 0x100) { bit = 1; nullPtr--; }
      if (v === null) return;
    }
    if (v === null) throw new Error('NULL in a NOT NULL field');
    if (f.fixedLen === 0) {
      if (v.length > 127) throw new Error('long values are not needed here');
      page[lenPtr--] = v.length;
    }
    page.set(v, data);
    data += v.length;
  });
}

function decode(layout: ClusteredLayout, page: Uint8Array, origins: number[]): (string | null)[][] {
  const out = new BatchBuilder(layout.columns.length, 8);
  const writers = layout.fields.map((f) => writerFor(f.out >= 0 ? layout.columns[f.out] : null, f.render));
  const sink: RecordSink = { out, base: 0, writers, fast: writers.map(fastWriteOf), ...fieldColumns(layout.fields) };
  const externs: ExternField[] = [];
  for (const origin of origins) {
    sink.base = out.startRow();
    decodeCompact(page, origin, layout, sink, externs, true);
  }
  return batchRows(out.take());
}

const trx = new Uint8Array(6);
const roll = new Uint8Array(7).fill(1);

describe('MySQL 8.0.29+ row versions', () => {
  // ADD c (version 1), DROP a (version 2), ADD d FIRST (version 3): d is logically first, physically last.
  const ddl = 'CREATE TABLE t (d VARCHAR(5) DEFAULT \'dd\', id INT NOT NULL, b VARCHAR(10) NULL, c INT NULL DEFAULT 7, PRIMARY KEY (id))';
  const base = clusteredLayout(parseCreateTables(ddl)[0], false);
  const se = (o: Record<string, string | number>): Map<string, string> => new Map(Object.entries(o).map(([k, v]) => [k, String(v)]));
  const aColumn = parseCreateTables('CREATE TABLE x (a INT NOT NULL)')[0].columns[0];
  const columns: MysqlInstantColumn[] = [
    { name: 'd', nullable: true, se: se({ version_added: 3, physical_pos: 6, default: hex(text('dd')) }) },
    { name: 'id', nullable: false, se: se({ physical_pos: 0 }) },
    { name: 'b', nullable: true, se: se({ physical_pos: 4 }) },
    { name: 'c', nullable: true, se: se({ version_added: 1, physical_pos: 5, default: hex(int4(7)) }) },
    { name: '!hidden!_dropped_v2_p3_a', nullable: false, se: se({ version_dropped: 2, physical_pos: 3 }), column: aColumn },
  ];
  const layout = mysqlInstantLayout(base, { instantCols: null, columns })!;

  it('puts the fields in physical order, the dropped column included', () => {
    expect(layout.fields.map((f) => f.name)).toEqual(['id', 'DB_TRX_ID', 'DB_ROLL_PTR', '!hidden!_dropped_v2_p3_a', 'b', 'c', 'd']);
    expect(layout.fields[3].out).toBe(-1);
  });

  it('decodes records of every version, with defaults for the fields they lack', () => {
    const page = new Uint8Array(16384);
    // fields: 0 id, 1 trx, 2 roll, 3 a (dropped in v2), 4 b, 5 c (added v1), 6 d (added v3)
    putRecord(page, 1000, layout, [0, 1, 2, 3, 4], [int4(1), trx, roll, int4(100), text('bee')], 0, []);
    putRecord(page, 2000, layout, [0, 1, 2, 3, 4, 5], [int4(2), trx, roll, int4(200), null, null], 0x40, [1]);
    putRecord(page, 3000, layout, [0, 1, 2, 4, 5], [int4(3), trx, roll, text('x'), int4(33)], 0x40, [2]);
    putRecord(page, 4000, layout, [0, 1, 2, 4, 5, 6], [int4(4), trx, roll, null, int4(44), text('d4')], 0x40, [3]);
    expect(decode(layout, page, [1000, 2000, 3000, 4000])).toEqual([
      ['dd', '1', 'bee', '7'],
      ['dd', '2', null, null],
      ['dd', '3', 'x', '33'],
      ['d4', '4', null, '44'],
    ]);
  });
});

describe('MySQL 8.0.12-8.0.28 instant ADD COLUMN', () => {
  const ddl = "CREATE TABLE t2 (id INT NOT NULL PRIMARY KEY, a INT NULL, c INT NULL DEFAULT '5', e VARCHAR(8) NOT NULL DEFAULT 'it''s')";
  const base = clusteredLayout(parseCreateTables(ddl)[0], false);

  it('records without the instant bit hold the original fields; the others say how many they hold', () => {
    const columns: MysqlInstantColumn[] = [
      { name: 'id', nullable: false, se: new Map() },
      { name: 'a', nullable: true, se: new Map() },
      { name: 'c', nullable: true, se: new Map([['default', hex(int4(5))]]) },
      { name: 'e', nullable: false, se: new Map([['default', hex(text("it's"))]]) },
    ];
    const layout = mysqlInstantLayout(base, { instantCols: 2, columns })!;
    const page = new Uint8Array(16384);
    putRecord(page, 1000, layout, [0, 1, 2, 3], [int4(1), trx, roll, null], 0, []);
    putRecord(page, 2000, layout, [0, 1, 2, 3, 4], [int4(2), trx, roll, int4(2), null], 0x80, [5]);
    putRecord(page, 3000, layout, [0, 1, 2, 3, 4, 5], [int4(3), trx, roll, null, int4(30), text('e3')], 0x80, [6]);
    expect(decode(layout, page, [1000, 2000, 3000])).toEqual([
      ['1', null, '5', "it's"],
      ['2', '2', null, "it's"],
      ['3', null, '30', 'e3'],
    ]);
  });

  it('with only the CREATE TABLE, the DEFAULT clause stands in for the missing values', () => {
    const layout = ddlInstantLayout(base, 4);
    const page = new Uint8Array(16384);
    putRecord(page, 1000, layout, [0, 1, 2, 3], [int4(1), trx, roll, int4(-1)], 0, []);
    putRecord(page, 2000, layout, [0, 1, 2, 3, 4, 5], [int4(2), trx, roll, null, null, text('x')], 0x80, [6]);
    expect(decode(layout, page, [1000, 2000])).toEqual([
      ['1', '-1', '5', "it's"],
      ['2', null, null, 'x'],
    ]);
  });
});

describe('instant metadata from an SDI table object', () => {
  it('reads versions, defaults and dropped columns (a real 8.0.18 SDI with instant metadata added)', async () => {
    const file = new Uint8Array(readFileSync(join(import.meta.dirname, 'fixtures/mysql-testsuite/mysql80/simple/tb01.ibd')));
    const records = await readSdiRecords(await Tablespace.open(bytesSource(file, 'tb01.ibd')));
    const doc = records!.map((r) => JSON.parse(r.json) as { dd_object_type: string; dd_object: DdTable }).find((d) => d.dd_object_type === 'Table')!;
    const dd = doc.dd_object;
    const b = dd.columns.find((c) => c.name === 'b')!;
    const a = dd.columns.find((c) => c.name === 'a')!;
    // As if `a` had been dropped in version 1 and `b` added in version 1 with a default.
    dd.columns = dd.columns.map((c) => {
      if (c === a) return { ...c, name: '!hidden!_dropped_v1_p3_a', hidden: 2, se_private_data: 'physical_pos=3;version_dropped=1;' };
      if (c === b) return { ...c, se_private_data: `default=${hex(text('AAAA'))};physical_pos=4;version_added=1;` };
      return c;
    });
    const table = mysqlInstantTable(dd);
    expect(table.instantCols).toBeNull();
    const dropped = table.columns.find((c) => c.name === '!hidden!_dropped_v1_p3_a')!;
    expect(dropped.column?.type).toBe('bigint');
    expect(table.columns.find((c) => c.name === 'b')!.se.get('version_added')).toBe('1');
    expect(table.columns.map((c) => c.name)).not.toContain('DB_TRX_ID');
  });
});
