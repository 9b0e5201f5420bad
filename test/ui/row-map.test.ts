import { describe, expect, it } from 'vitest';
import { RowMap } from '../../src/ui/grid/row-map.ts';

const map = (n: number) => new RowMap(Int32Array.from({ length: n }, (_, i) => 100 + i));

describe('RowMap: row numbers ↔ leaf pages', () => {
  it('numbers rows through prefix sums as counts arrive in key order', () => {
    const m = map(4);
    expect(m.rows).toBe(0);
    m.setCounts(0, [3, 2]);
    expect(m.known).toBe(2);
    expect(m.rows).toBe(5);
    expect([0, 2, 3, 4].map((r) => m.leafOf(r))).toEqual([0, 0, 1, 1]);
    expect(m.leafOf(5)).toBe(-1);
    m.setCounts(2, [4, 1]);
    expect(m.complete).toBe(true);
    expect(m.rows).toBe(10);
    expect(m.start(3)).toBe(9);
    expect(m.leafOf(9)).toBe(3);
  });

  it('waits for a gap: counts after it only show once it is filled', () => {
    const m = map(3);
    m.setCounts(1, [5, 5]);
    expect(m.known).toBe(0);
    expect(m.rows).toBe(0);
    m.setCounts(0, [2]);
    expect(m.known).toBe(3);
    expect(m.rows).toBe(12);
  });

  it('skips empty leaves', () => {
    const m = map(4);
    m.setCounts(0, [2, 0, 0, 3]);
    expect([0, 1, 2, 3, 4].map((r) => m.leafOf(r))).toEqual([0, 0, 3, 3, 3]);
    const trailing = map(2);
    trailing.setCounts(0, [3, 0]);
    expect(trailing.leafOf(2)).toBe(0);
  });

  it('corrects the numbering when a page decodes to another count: no holes, no duplicates', () => {
    const m = map(3);
    m.setCounts(0, [3, 3, 3]);
    const before = m.version;
    // Page 1 turned out damaged: 1 row instead of 3. Rows after it move up.
    expect(m.setDecoded(1, 1)).toBe(true);
    expect(m.version).toBeGreaterThan(before);
    expect(m.rows).toBe(7);
    expect([2, 3, 4, 6].map((r) => m.leafOf(r))).toEqual([0, 1, 2, 2]);
    expect(m.start(2)).toBe(4);
    // Same count again: nothing changes.
    expect(m.setDecoded(1, 1)).toBe(false);
    // Purged rows found in the deleted modes: more rows than counted.
    m.setDecoded(2, 5);
    expect(m.rows).toBe(9);
  });

  it('keeps a decoded count over a later counted one', () => {
    const m = map(2);
    m.setDecoded(0, 4);
    expect(m.known).toBe(1);
    m.setCounts(0, [9, 2]);
    expect(m.counts[0]).toBe(4);
    expect(m.rows).toBe(6);
  });

  it('memory is per page, whatever the rows: ten million rows over 100,000 pages', () => {
    const m = map(100_000);
    m.setCounts(0, new Int32Array(100_000).fill(100));
    expect(m.rows).toBe(10_000_000);
    expect(m.leafOf(9_999_999)).toBe(99_999);
    expect(m.leafOf(1234567)).toBe(12345);
  });
});
