/**
 * A Parquet file of parts encoded apart (parquetPart), laid out in order (ParquetLayout) and ended
 * with the footer of the layout (parquetFooter), as the page's export does over several workers: the
 * file is byte for byte the one a single ParquetRows writes with row groups cut at the same rows
 * (offsets, page indexes of chunks of several pages, statistics), reads back with hyparquet in order,
 * and the values not held are numbered from the file's first row.
 */
import { describe, expect, it } from 'vitest';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { BatchBuilder, releaseBatch, type RowBatch } from '../src/core/values/row-batch.ts';
import { joined } from './text-batches.ts';
import { PARQUET_MAGIC, ParquetLayout } from '../src/core/writers/parquet-row-groups.ts';
import { parquetFooter, parquetPart, ParquetRows } from '../src/core/writers/parquet-rows.ts';

const table = parseCreateTables('CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(60), d DATE, amount DECIMAL(12,2))')[0];
const COLUMNS = ['id', 'name', 'd', 'amount', '_row_state'];

function batchOf(from: number, to: number): RowBatch {
  const b = new BatchBuilder(COLUMNS.length);
  for (let id = from; id < to; id++) {
    const base = b.startRow();
    b.setString(base, String(id));
    // Long enough that a chunk has more than one page (page indexes written).
    if (id % 7 === 0) b.setNull(base + 1);
    else b.setString(base + 1, `name ${id} ${'é'.repeat(20)} ${id * 7919}`);
    b.setString(base + 2, id % 5000 === 1 ? '0000-00-00' : `20${String(10 + (id % 20))}-0${1 + (id % 9)}-1${id % 10}`);
    b.setString(base + 3, `${(id % 100000) - 500}.${String(id % 100).padStart(2, '0')}`);
    b.setString(base + 4, id % 1000 === 3 ? 'damaged' : 'live');
    b.endRow();
  }
  return releaseBatch(b);
}

const CUTS = [0, 30_000, 55_000, 90_000];

describe('a Parquet file of parts encoded apart', () => {
  const layout = new ParquetLayout();
  const parts: Uint8Array[] = [PARQUET_MAGIC];
  for (let i = 0; i + 1 < CUTS.length; i++) {
    const { bytes, part } = parquetPart(table, COLUMNS, batchOf(CUTS[i], CUTS[i + 1]));
    // As a worker hands it over: the metadata cloned apart from the bytes.
    layout.place(structuredClone(part));
    parts.push(bytes);
  }
  parts.push(parquetFooter(table, COLUMNS, structuredClone(layout.groups())));
  const file = joined(parts).buffer;

  it('is the file one writer makes with row groups cut at the same rows', () => {
    const one = new ParquetRows(table, COLUMNS, { rowGroupRows: 1 << 30 });
    const whole: Uint8Array[] = [];
    for (let i = 0; i + 1 < CUTS.length; i++) {
      whole.push(one.add(batchOf(CUTS[i], CUTS[i + 1])), one.flush());
    }
    whole.push(parquetFooter(table, COLUMNS, one.groups()));
    const meta = parquetMetadata(file);
    expect(meta.row_groups.map((g) => Number(g.num_rows))).toEqual([30_000, 25_000, 35_000]);
    expect(meta.row_groups.some((g) => g.columns.some((c) => c.offset_index_offset !== undefined))).toBe(true);
    const expected = joined(whole).buffer;
    expect(file.byteLength).toBe(expected.byteLength);
    // (Buffer's compare: toEqual on megabytes takes long.)
    expect(Buffer.from(file).equals(Buffer.from(expected))).toBe(true);
  });

  it('reads back in order, the values not held numbered from the file\'s first row', async () => {
    const rows = await parquetReadObjects({ file });
    expect(rows.length).toBe(90_000);
    expect(rows.every((r, i) => r.id === i)).toBe(true);
    expect([rows[77].name, rows[78].name]).toEqual([null, `name 78 ${'é'.repeat(20)} ${78 * 7919}`]);
    expect(rows[60_003]._row_state).toBe('damaged');
    const rowsNotHeld = Array.from({ length: 18 }, (_, k) => 5000 * k + 1);
    expect(layout.notHeld()).toEqual([{ column: 'd', count: 18, rows: rowsNotHeld.slice(0, 10), example: '0000-00-00' }]);
    expect(rowsNotHeld.every((r) => rows[r].d === null)).toBe(true);
    const footer = parquetMetadata(file).key_value_metadata ?? [];
    expect(JSON.parse(footer.find((k) => k.key === 'ibd-reader.values-not-held')?.value ?? '[]')).toEqual(layout.notHeld());
  });
});
