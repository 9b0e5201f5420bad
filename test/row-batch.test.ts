/**
 * The byte fast path must say exactly what the string path says: byte writers vs renderers for every
 * column kind they cover, and the byte CSV writer vs papaparse (csvRows) on awkward values.
 */
import { describe, expect, it } from 'vitest';
import { columnStorage } from '../src/core/values/column-storage.ts';
import { csvBytes } from '../src/core/writers/csv-bytes.ts';
import { csvRows } from '../src/core/writers/output.ts';
import { BatchBuilder, batchRows } from '../src/core/values/row-batch.ts';
import type { Column } from '../src/core/schema.ts';
import { writerFor } from '../src/core/values/text-writers.ts';
import { quoteCheckOf } from '../src/core/values/writer-traits.ts';

const column = (type: Column['type'], extra: Partial<Column> = {}): Column => ({
  name: 'c', type, unsigned: false, zerofill: false, nullable: true, length: 10, precision: 0, scale: 0, fsp: 0,
  charset: 'binary', collation: '', values: [], generated: null, invisible: false, defaultSql: null, comment: '', legacyTemporal: false, ...extra,
});

function randomBytes(seed: number, n: number, ascii: boolean): Uint8Array {
  let x = seed;
  return Uint8Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) >>> 0;
    const v = x >>> 24;
    return ascii ? 32 + (v % 95) : v;
  });
}

describe('byte writers write what the renderers render', () => {
  const cases: [string, Column, boolean][] = [
    ['TINYINT', column('tinyint'), false], ['TINYINT UNSIGNED', column('tinyint', { unsigned: true }), false],
    ['SMALLINT', column('smallint'), false], ['MEDIUMINT UNSIGNED', column('mediumint', { unsigned: true }), false],
    ['INT', column('int'), false], ['INT UNSIGNED', column('int', { unsigned: true }), false],
    ['VARCHAR utf8mb4 (ASCII)', column('varchar', { charset: 'utf8mb4' }), true],
    ['VARCHAR utf8mb4 (any bytes)', column('varchar', { charset: 'utf8mb4' }), false],
    ['CHAR utf8mb3', column('char', { charset: 'utf8mb3' }), true],
    ['VARCHAR latin1', column('varchar', { charset: 'latin1' }), false],
    ['CHAR latin1', column('char', { charset: 'latin1' }), false],
    ['VARCHAR cp1251', column('varchar', { charset: 'cp1251' }), false],
    ['VARBINARY', column('varbinary'), false],
    ['DECIMAL(20,6)', column('decimal', { precision: 20, scale: 6 }), false],
    ['DATETIME(3)', column('datetime', { fsp: 3 }), false],
    ['DATETIME', column('datetime'), false],
    ['DATETIME(6)', column('datetime', { fsp: 6 }), false],
    ['DATETIME(1)', column('datetime', { fsp: 1 }), false],
    ['DATE', column('date'), false],
    ['DECIMAL(65,30)', column('decimal', { precision: 65, scale: 30 }), false],
    ['DECIMAL(10,0)', column('decimal', { precision: 10, scale: 0 }), false],
    ['DECIMAL(5,5)', column('decimal', { precision: 5, scale: 5 }), false],
    // Common shapes: a leading and one full integer group (LINEITEM's DECIMAL(15,2)), one full group,
    // a leading group only, an 8-digit fraction, a leading group of 7 digits before a full one.
    ['DECIMAL(15,2)', column('decimal', { precision: 15, scale: 2 }), false],
    ['DECIMAL(9,0)', column('decimal', { precision: 9, scale: 0 }), false],
    ['DECIMAL(4,2)', column('decimal', { precision: 4, scale: 2 }), false],
    ['DECIMAL(17,8)', column('decimal', { precision: 17, scale: 8 }), false],
    ['DECIMAL(16,0)', column('decimal', { precision: 16, scale: 0 }), false],
  ];
  it.each(cases)('%s', (_name, c, ascii) => {
    const storage = columnStorage(c, false);
    const write = writerFor(c, storage.render);
    const decoder = new TextDecoder();
    for (let seed = 1; seed < 300; seed++) {
      const len = storage.fixedLen || seed % 40;
      const bytes = randomBytes(seed, len, ascii);
      if (c.type === 'char') bytes.fill(32, Math.floor(len / 2));
      const out = new BatchBuilder(1);
      // Start near the end of the buffer, so the writer has to grow it mid-value.
      const start = out.text.length - (seed % 7);
      out.reserve(start - out.pos + 1);
      out.pos = start;
      write(bytes, 0, len, out);
      expect(decoder.decode(out.text.subarray(start, out.pos))).toBe(storage.render(bytes, 0, len));
    }
  });
});

// The writers put digits down four at a time: every digit count, at both ends, and signs.
describe('byte writers at digit-count boundaries', () => {
  const decoder = new TextDecoder();
  const written = (c: Column, bytes: Uint8Array): string => {
    const out = new BatchBuilder(1);
    writerFor(c, columnStorage(c, false).render)(bytes, 0, bytes.length, out);
    return decoder.decode(out.text.subarray(0, out.pos));
  };
  const edges = [0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 99999, 100000, 999999, 1000000, 9999999, 10000000, 99999999, 100000000, 999999999, 1000000000, 2147483647];
  const ints: [string, number, boolean][] = [['tinyint', 1, false], ['smallint', 2, true], ['mediumint', 3, false], ['int', 4, false], ['int', 4, true]];
  it.each(ints)('%s (%i bytes, unsigned %s)', (type, size, unsigned) => {
    const max = 2 ** (8 * size - (unsigned ? 0 : 1));
    const values = [...edges, max - 1].flatMap((v) => (unsigned ? [v] : [v, -v, -v - 1])).filter((v) => (unsigned ? v < max : v >= -max && v < max));
    for (const v of values) {
      // Big-endian, signed types with the sign bit flipped (as stored).
      const stored = unsigned ? v : v + max;
      const bytes = Uint8Array.from({ length: size }, (_, i) => Math.floor(stored / 2 ** (8 * (size - 1 - i))) & 0xff);
      expect(written(column(type as Column['type'], { unsigned }), bytes), `${v}`).toBe(String(v));
    }
  });

  it('DECIMAL(15,2): a leading group of 4 digits, a full one of 9, 2 in the fraction', () => {
    const c = column('decimal', { precision: 15, scale: 2 });
    for (const whole of edges.filter((v) => v < 1e9).concat([1e9, 1e9 + 1, 9999 * 1e9 + 999999999, 12 * 1e9 + 3456])) {
      for (const cents of [0, 1, 9, 10, 99]) {
        for (const negative of whole === 0 && cents === 0 ? [false] : [false, true]) {
          const lead = Math.floor(whole / 1e9);
          const full = whole % 1e9;
          const bytes = Uint8Array.of(0x80 | (lead >> 8), lead & 0xff, full >>> 24, (full >> 16) & 0xff, (full >> 8) & 0xff, full & 0xff, cents);
          // Negative values are stored inverted, the flipped top bit included.
          if (negative) bytes.forEach((b, i) => (bytes[i] = ~b & 0xff));
          const text = `${negative ? '-' : ''}${whole}.${String(cents).padStart(2, '0')}`;
          expect(written(c, bytes), text).toBe(text);
        }
      }
    }
  });
});

describe('byte CSV equals papaparse CSV', () => {
  const values = ['', 'plain', 'a,b', 'say "hi"', 'line\nbreak', 'cr\rhere', ' lead', 'trail ', '\\N', '\\Nx', '\uFEFFbom', 'é€😀', '0x00FF', null];
  it.each([1, 2, 3])('%i column(s)', (cols) => {
    const out = new BatchBuilder(cols);
    const rows: (string | null)[][] = [];
    for (let i = 0; i < values.length * cols; i += cols) {
      const base = out.startRow();
      const row: (string | null)[] = [];
      for (let c = 0; c < cols; c++) {
        const v = values[(i + c * 5) % values.length];
        if (v !== null) out.setString(base + c, v);
        row.push(v);
      }
      rows.push(row);
    }
    const batch = out.take();
    expect(batchRows(batch)).toEqual(rows);
    expect(new TextDecoder().decode(csvBytes(batch))).toBe(csvRows(rows));
  });

  // Separated builders (a comma after each cell): cells written in column order are copied as one
  // stretch; written in another order (a record's key columns first), or beside NULLs and values
  // that need quotes, they must still come out as papaparse writes them.
  const orders: [string, (cols: number) => number[]][] = [
    ['column order', (cols) => [...Array(cols).keys()]],
    ['reversed', (cols) => [...Array(cols).keys()].reverse()],
    ['last column first', (cols) => [cols - 1, ...Array(cols - 1).keys()]],
  ];
  it.each(orders.flatMap(([name, order]) => [1, 2, 3, 5].map((cols) => [name, cols, order] as const)))('separated, written in %s, %i column(s)', (_name, cols, order) => {
    const out = new BatchBuilder(cols, 4, 1 << 16, true);
    const rows: (string | null)[][] = [];
    const all = [...values, ',', '', 'x', 'a b'];
    for (let i = 0; i < all.length * 3; i++) {
      const base = out.startRow();
      const row: (string | null)[] = Array.from({ length: cols }, (_, c) => all[(i * 7 + c * (i % 4)) % all.length] ?? null);
      // Mostly plain rows (stretches), every third one from the tricky values.
      if (i % 3 !== 0) for (let c = 0; c < cols; c++) if (row[c] !== null) row[c] = `v${i}.${c}`;
      for (const c of order(cols)) {
        const v = row[c];
        if (v !== null) out.setString(base + c, v);
      }
      rows.push(row);
    }
    const batch = out.take();
    expect(batchRows(batch)).toEqual(rows);
    expect(new TextDecoder().decode(csvBytes(batch))).toBe(csvRows(rows));
  });

  it('separated builders leave room for the comma after a value that filled the buffer', () => {
    const out = new BatchBuilder(2, 1, 1, true);
    const long = 'y'.repeat(out.text.length - 1);
    const base = out.startRow();
    out.setString(base, long);
    out.setString(base + 1, '');
    const batch = out.take();
    expect(batchRows(batch)).toEqual([[long, '']]);
    expect(new TextDecoder().decode(csvBytes(batch))).toBe(csvRows([[long, '']]));
  });
});

// Separated builders record rows written whole, in column order, as their CSV lines (RowBatch.lines),
// quoting in place the values that need it, found from the writers' reports or by looking at the bytes:
// whatever the values, csvBytes() must still write what papaparse writes.
describe('CSV lines of separated builders', () => {
  const enc = new TextEncoder();
  const tricky = ['plain', 'a,b', 'say "hi"', 'line\nbreak', 'cr\rhere', ' lead', 'trail ', '\\N', '\\Nx', '', '\uFEFFbom', 'é€😀', 'x'.repeat(70), `${'y'.repeat(70)},z`, ` ${'w'.repeat(80)}`];
  const text = (charset: string) => ({ col: column('varchar', { charset }), bytes: (i: number) => enc.encode(tricky[i % tricky.length]) });
  const kinds = {
    int: { col: column('int'), bytes: (i: number) => Uint8Array.of(0x80 ^ (i & 1 ? 0xff : 0), 0, i, 7) },
    utf8: text('utf8mb4'),
    latin1: { col: column('varchar', { charset: 'latin1' }), bytes: (i: number) => Uint8Array.from(tricky[i % tricky.length].slice(0, 20), (ch) => ch.charCodeAt(0) & 0xff) },
    decimal: { col: column('decimal', { precision: 10, scale: 2 }), bytes: (i: number) => Uint8Array.of(0x80, 0, i, 1, i & 0x3f) },
    date: { col: column('date'), bytes: (i: number) => Uint8Array.of(0x8f, 0xc0 | (i & 0x1f), 0x21) },
  };
  type Kind = keyof typeof kinds;
  const tables: [string, Kind[]][] = [
    ['int, utf8, decimal, date, latin1', ['int', 'utf8', 'decimal', 'date', 'latin1']],
    ['utf8 alone', ['utf8']],
    ['int alone', ['int']],
    ['utf8, utf8', ['utf8', 'utf8']],
  ];

  it.each(tables)('%s', (_name, cols) => {
    const specs = cols.map((k) => ({ ...kinds[k], storage: columnStorage(kinds[k].col, false) }));
    const writers = specs.map((s) => writerFor(s.col, s.storage.render));
    const out = new BatchBuilder(cols.length, 4, 1 << 16, true);
    out.quoteChecks = Uint8Array.from(writers, quoteCheckOf);
    const rows: (string | null)[][] = [];
    for (let i = 0; i < 120; i++) {
      const base = out.startRow();
      const row: (string | null)[] = [];
      specs.forEach((s, c) => {
        // Some NULLs, in every position.
        if ((i + c) % 9 === 4) {
          out.setNull(base + c);
          row.push(null);
          return;
        }
        const b = s.bytes(i + c);
        const start = out.pos;
        writers[c](b, 0, b.length, out);
        out.setCell(base + c, start, out.pos);
        row.push(s.storage.render(b, 0, b.length));
      });
      out.endRow();
      rows.push(row);
    }
    const batch = out.take();
    expect(batchRows(batch)).toEqual(rows);
    // Every row was written whole and in order, so each is a line (values that need quotes quoted in
    // place), except those with a value that holds a quote (CSV doubles it: its cell could not stay the value).
    const lines = batch.lines!;
    rows.forEach((row, r) => expect(lines[2 * r] >= 0, `row ${r}`).toBe(!row.some((v) => v?.includes('"'))));
    expect(new TextDecoder().decode(csvBytes(batch))).toBe(csvRows(rows));
  });

  it('rows left unfinished or written out of order are not lines, and still come out right', () => {
    const out = new BatchBuilder(3, 4, 1 << 16, true);
    const rows: (string | null)[][] = [];
    for (let i = 0; i < 30; i++) {
      const base = out.startRow();
      const row = [`a${i}`, i % 4 === 0 ? null : `b,${i}`, `c${i}`];
      // Every third row: the middle cell last (as a value stored off-page is), others in order.
      const order = i % 3 === 0 ? [0, 2, 1] : [0, 1, 2];
      for (const c of order) {
        const v = row[c];
        if (v === null) out.setNull(base + c);
        else out.setString(base + c, v);
      }
      if (i % 5 !== 0) out.endRow();
      rows.push(row);
    }
    const batch = out.take();
    const lines = batch.lines!;
    rows.forEach((_, r) => expect(lines[2 * r] >= 0, `row ${r}`).toBe(r % 3 !== 0 && r % 5 !== 0));
    expect(new TextDecoder().decode(csvBytes(batch))).toBe(csvRows(rows));
  });
});
