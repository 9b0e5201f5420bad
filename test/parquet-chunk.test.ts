/**
 * The column chunks written by parquet-chunk.ts (integers, DECIMALs up to 15 digits, DATEs, text)
 * against hyparquet-writer's own: the same rows written by ParquetRows and by the library's
 * ParquetWriter fed the cells' values as parquet-cells.ts reads them must be the same bytes, file
 * for file: dictionaries kept and refused, pages cut, nulls, values not held, statistics, non-ASCII text.
 */
import { describe, expect, it } from 'vitest';
import { ParquetWriter } from 'hyparquet-writer/src/parquet-writer.js';
import { ByteWriter } from 'hyparquet-writer/src/bytewriter.js';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import type { RowBatch } from '../src/core/values/row-batch.ts';
import { batchOf, joined } from './text-batches.ts';
import { batchText } from '../src/core/values/batch-strings.ts';
import { snappyEncode } from '../src/core/codecs/snappy-encode.ts';
import { parquetColumns, parquetSchema } from '../src/core/writers/parquet-columns.ts';
import { cellReader } from '../src/core/writers/parquet-cells.ts';
import { parquetFooter, ParquetRows } from '../src/core/writers/parquet-rows.ts';
import type { NotHeld } from '../src/core/writers/parquet-row-groups.ts';

const DDL = `CREATE TABLE t (
  id INT, iu INT UNSIGNED, small TINYINT, d5 DECIMAL(5,2), d15 DECIMAL(15,2), d18 DECIMAL(18,4), dt DATE,
  flag CHAR(1), mode VARCHAR(10), note VARCHAR(60), word VARCHAR(20), f DOUBLE, empty VARCHAR(5)
)`;
const table = parseCreateTables(DDL)[0];
const names = table.columns.map((c) => c.name);

/** A small seeded PRNG (xorshift32). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x1_0000_0000;
  };
}

const WORDS = ['ä', 'packages', 'Zürich', '😀 emoji', 'ﬀ', 'x', '', 'sly', 'dolphins', '中文'];

function rowsOf(count: number, seed: number): (string | null)[][] {
  const r = rng(seed);
  const pick = <T>(a: T[]) => a[Math.floor(r() * a.length)];
  const text = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const rows: (string | null)[][] = [];
  for (let i = 0; i < count; i++) {
    const nul = r() < 0.05;
    rows.push([
      String(i * 7 - 1000),
      String(Math.floor(r() * 4294967296)),
      nul ? null : String(Math.floor(r() * 256) - 128),
      `${Math.floor(r() * 2000) - 1000}.${Math.floor(r() * 90) + 10}`,
      `${Math.floor(r() * 1e12)}.0${Math.floor(r() * 10)}`,
      `${Math.floor(r() * 1e13)}.1234`,
      r() < 0.01 ? '0000-00-00' : `19${90 + Math.floor(r() * 10)}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}`,
      pick(['A', 'N', 'R']),
      nul ? null : pick(['REG AIR', 'AIR', 'RAIL', 'ÜBER', '𝄞 MAIL']),
      text(1 + Math.floor(r() * 9)),
      pick(WORDS) + String(Math.floor(r() * 3000)),
      String(r() * 100),
      null,
    ]);
  }
  return rows;
}

/** The file hyparquet-writer writes alone for the same cells, row groups cut every `groupRows`, with the footer's note of `notHeld`. */
function libraryFile(batches: RowBatch[], groupRows: number, notHeld: NotHeld[]): Uint8Array {
  const columns = parquetColumns(table, names);
  const readers = columns.map((c) => cellReader(c.kind, c.scale));
  const values: unknown[][] = columns.map(() => []);
  for (const batch of batches) {
    const bt = batchText(batch);
    for (let r = 0; r < batch.rows; r++) {
      for (let c = 0; c < batch.cols; c++) {
        const cell = r * batch.cols + c;
        values[c].push(batch.nulls[cell] ? null : readers[c](batch.text, batch.cells[2 * cell], batch.cells[2 * cell + 1], bt) ?? null);
      }
    }
  }
  const out = new ByteWriter();
  const writer = new ParquetWriter({ writer: out, schema: parquetSchema(columns), createdBy: 'ibd-reader', compressors: { SNAPPY: snappyEncode }, kvMetadata: [
    { key: 'ibd-reader.create-table', value: table.createSql },
    ...(notHeld.length > 0 ? [{ key: 'ibd-reader.values-not-held', value: JSON.stringify(notHeld) }] : []),
  ] });
  void writer.write({ columnData: columns.map((c, i) => ({ name: c.name, data: values[i], statistics: c.statistics })), rowGroupSize: groupRows });
  void writer.finish();
  return out.getBytes().slice();
}

describe('parquet chunks written without hyparquet-writer', () => {
  it('are the bytes hyparquet-writer writes for the same cells', () => {
    // 2 batches, 3 row groups: pages of text cut at 1 MiB, a dictionary kept (flag, mode) and refused (note, id).
    const rows = rowsOf(130_000, 7);
    const batches = [batchOf(rows.slice(0, 70_000)), batchOf(rows.slice(70_000))];
    const w = new ParquetRows(table, names, { rowGroupRows: 60_000 });
    const ours = joined([...batches.map((b) => w.add(b)), w.flush(), parquetFooter(table, names, w.groups())]);
    // The values not held (zero dates) are nulls in both; ours also counts them.
    expect(w.notHeld().map((n) => n.column)).toEqual(['dt']);
    expect(w.groups().indexes.some((ix) => (ix.offsetIndex?.page_locations.length ?? 0) > 1)).toBe(true);
    const theirs = libraryFile(batches, 60_000, w.notHeld());
    expect(ours.length).toBe(theirs.length);
    expect(Buffer.from(ours).equals(Buffer.from(theirs))).toBe(true);
  });

  it('agree on a few rows and on a single row', () => {
    for (const count of [1, 9, 1000]) {
      const batch = batchOf(rowsOf(count, count));
      const w = new ParquetRows(table, names);
      const ours = joined([w.add(batch), w.flush(), parquetFooter(table, names, w.groups())]);
      expect(Buffer.from(ours).equals(Buffer.from(libraryFile([batch], 100_000, w.notHeld())))).toBe(true);
    }
  });
});
