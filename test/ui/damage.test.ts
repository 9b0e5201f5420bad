import { describe, expect, it } from 'vitest';
import { emptyStats } from '../../src/core/readers/decode-stats.ts';
import type { RowBatch } from '../../src/core/values/row-batch.ts';
import { packRows } from '../../src/core/values/batch-edit.ts';
import type { DamagedLeaf } from '../../workers/viewer-api.ts';
import {
  damagedRowsOf, damageReport, DamageTally, exportMode, MAX_LISTED, pageList, readProblems, reasonOf, withDamaged, withoutDamaged,
} from '../../src/ui/recovery/damage.ts';
import { findOrderedKey, type KeyPages } from '../../src/ui/search/key-search.ts';
import { RowMap } from '../../src/ui/grid/row-map.ts';
import { keyComparer } from '../../src/ui/search/search.ts';

const LINE = 'the page is damaged (its record list is broken: a record pointer points outside the page (offset 0)): 83 records read back (53 carved from the page body past the broken list), of state damaged; 83 withheld from this output (--rows damaged or all shows them); 29 records unreadable';
const FILE = { fileSize: 11 * 16384, pageSize: 16384, pageCount: 11 };

function hurt(at: number, over: Partial<DamagedLeaf> = {}): DamagedLeaf {
  return { at, rows: 0, withheld: 10, lost: 2, carved: 1, reason: LINE, ...over };
}

describe('DamageTally: what the count found damaged, leaf by leaf', () => {
  it('adds the runs up in key order, flags the damaged and the unreadable leaves', () => {
    const t = new DamageTally(Int32Array.from([6, 7, 8, 9, 40, 41]), 11);
    t.add(0, { counts: Int32Array.from([57, 0, 113]), damaged: [hurt(1, { withheld: 83, lost: 29 })] });
    expect(t.figures).toMatchObject({ counted: 3, leaves: 6, damagedPages: 1, withheld: 83, lost: 29, skipped: 0, damagedList: [7] });
    const before = t.figures;
    t.add(3, { counts: Int32Array.from([18, -1, -1]), damaged: [hurt(0)] });
    // A new object for the page's state; the first stays as it was.
    expect(before.damagedPages).toBe(1);
    expect(t.figures).toMatchObject({ counted: 6, damagedPages: 2, withheld: 93, lost: 31, skipped: 2, pastEnd: 2, damagedList: [7, 9], skippedList: [40, 41] });
    expect([0, 1, 2, 3, 4].map((l) => t.damaged(l))).toEqual([false, true, false, true, false]);
    expect([...t.damagedLeaves()]).toEqual([1, 3]);
    expect(t.reason(7)).toBe(LINE);
    expect(t.rowNote(1)).toBe('From damaged page 7 (its record list is broken: a record pointer points outside the page (offset 0)): each value passed its type\'s checks, but nothing vouches for the row');
  });

  it('names at most MAX_LISTED pages, and counts them all', () => {
    const n = MAX_LISTED + 5;
    const t = new DamageTally(Int32Array.from({ length: n }, (_, i) => 100 + i), 100 + n);
    t.add(0, { counts: new Int32Array(n), damaged: Array.from({ length: n }, (_, i) => hurt(i)) });
    expect(t.figures.damagedPages).toBe(n);
    expect(t.figures.damagedList).toHaveLength(MAX_LISTED);
    expect(t.reason(100 + n - 1)).toBeNull();
    expect(t.rowNote(n - 1)).toBe(`From damaged page ${100 + n - 1}: each value passed its type's checks, but nothing vouches for the row`);
  });
});

describe('the damage texts', () => {
  it('takes the reason out of the decoder\'s line about the page', () => {
    expect(reasonOf(LINE)).toBe('its record list is broken: a record pointer points outside the page (offset 0)');
    expect(reasonOf('something else')).toBe('something else');
    expect(reasonOf(null)).toBeNull();
  });

  it('lists pages', () => {
    expect(pageList([7], 1)).toBe('page 7');
    expect(pageList([7, 9], 2)).toBe('pages 7 and 9');
    expect(pageList([1, 2, 3, 4, 5, 6, 7, 8], 8)).toBe('pages 1, 2, 3, 4, 5 and 3 more');
    expect(pageList([1, 2, 3, 4, 5], 1200)).toBe('pages 1, 2, 3, 4, 5 and 1,195 more');
  });

  it('says what is withheld, shown, lost or unreadable, and offers the rows of damaged pages', () => {
    const t = new DamageTally(Int32Array.from([6, 7, 8, 9]), 11);
    t.add(0, { counts: Int32Array.from([57, 0, 113, 18]), damaged: [hurt(1, { withheld: 83, lost: 29 })] });
    const live = damageReport(t.figures, 'live', FILE, 0)!;
    expect(live.headline).toBe('83 rows withheld from a damaged page · 29 records unreadable');
    expect(live.lines[0]).toMatch(/^83 rows from a damaged page \(page 7\) are withheld: the page fails its checksum or a structural check/);
    expect(live.offer).toBe('show');

    const all = new DamageTally(Int32Array.from([6, 7, 8, 9]), 11);
    all.add(0, { counts: Int32Array.from([57, 83, 113, 18]), damaged: [hurt(1, { rows: 83, withheld: 0, lost: 29 })] });
    const shown = damageReport(all.figures, 'all', FILE, 4)!;
    expect(shown.headline).toBe('83 rows from a damaged page · 33 records unreadable');
    expect(shown.lines[0]).toMatch(/marked ⚠ in the row gutter and tagged damaged in _row_state/);
    expect(shown.lines[1]).toBe('4 records of intact pages could not be decoded (see the recovery report).');
    expect(shown.offer).toBe('hide');
    expect(damageReport(all.figures, 'damaged', FILE, 0)!.offer).toBeNull();
  });

  it('says nothing of an intact table, and names a truncated file', () => {
    const t = new DamageTally(Int32Array.from([6, 7, 8, 9]), 8);
    t.add(0, { counts: Int32Array.from([57, 112]), damaged: [] });
    expect(damageReport(t.figures, 'live', FILE, 0)).toBeNull();
    t.add(2, { counts: Int32Array.from([-1, -1]), damaged: [] });
    const r = damageReport(t.figures, 'live', { fileSize: 8 * 16384 + 5000, pageSize: 16384, pageCount: 8 }, 0)!;
    expect(r.headline).toBe('2 leaf pages unreadable · the file is truncated');
    expect(r.lines).toEqual([
      "2 leaf pages (pages 8 and 9) could not be read: their rows are missing and cannot be counted (of those past the file's end, the summary estimates the rows from the intact leaf pages' average).",
      'The file is truncated (136,072 bytes: 8 whole pages and 5,000 bytes of page 8), and 2 leaf pages of the table lie past its end.',
    ]);
    expect(r.offer).toBeNull();
  });

  it('says how far the count got while it runs', () => {
    const t = new DamageTally(Int32Array.from([6, 7, 8, 9]), 11);
    t.add(0, { counts: Int32Array.from([57, 0]), damaged: [hurt(1)] });
    expect(damageReport(t.figures, 'live', FILE, 0)!.lines.at(-1)).toBe('So far: 2 of 4 leaf pages counted.');
  });

  it('maps row modes with and without the rows of damaged pages (exports, the banner\'s offer)', () => {
    expect((['live', 'deleted', 'both', 'damaged', 'all'] as const).map(withDamaged)).toEqual(['all', 'all', 'all', 'damaged', 'all']);
    expect((['live', 'deleted', 'both', 'damaged', 'all'] as const).map(withoutDamaged)).toEqual(['live', 'deleted', 'both', null, 'both']);
    expect(exportMode('live', false)).toBe('live');
    expect(exportMode('live', true)).toBe('all');
    expect(exportMode('all', false)).toBe('both');
    expect(exportMode('damaged', false)).toBe('damaged');
    const f = { ...new DamageTally(new Int32Array(0), 0).figures, damagedRows: 5, withheld: 7 };
    expect(damagedRowsOf(f, 'all')).toBe(5);
    expect(damagedRowsOf(f, 'live')).toBe(7);
  });

  it('says what a whole read left out (Export all tables)', () => {
    expect(readProblems(emptyStats())).toBeNull();
    expect(readProblems({ ...emptyStats(), damagedPages: 1, damagedWithheld: 83, recordsFailed: 29, pagesSkipped: 2 }))
      .toBe('1 damaged page (failing the checksum or a structural check): 83 rows from it withheld; 29 records unreadable; 2 pages skipped');
  });
});

describe('Go to key over damaged pages (key-search.ts)', () => {
  const cmp = keyComparer({ name: 'id', sqlType: 'int', numeric: true, binary: false, nullable: false })!;

  /** Leaves with these ids (leaf i is page 10 + i), the damaged ones flagged. */
  function pages(ids: number[][], damaged: number[]): KeyPages & { decoded: number[] } {
    const leaves = Int32Array.from(ids, (_, i) => 10 + i);
    const map = new RowMap(leaves);
    map.setCounts(0, ids.map((r) => r.length));
    const damage = new DamageTally(leaves, 100);
    damage.add(0, { counts: Int32Array.from(ids, (r) => r.length), damaged: damaged.map((at) => hurt(at, { rows: ids[at].length })) });
    const batches: RowBatch[] = ids.map((r) => packRows(r.map((id) => [String(id)]), 1));
    const decoded: number[] = [];
    return { map, damage, decoded, page: (leaf) => Promise.resolve((decoded.push(leaf), batches[leaf])) };
  }

  it('finds keys on intact pages by binary search, and on a damaged page (not in key order) row by row', async () => {
    const p = pages([[1, 2, 3], [4, 9, 0, 5], [10, 11], [12, 13]], [1]);
    expect(await findOrderedKey(p, 0, '11', cmp)).toEqual({ row: 8, damagedPage: null });
    expect(await findOrderedKey(p, 0, '0', cmp)).toEqual({ row: 5, damagedPage: null });
    expect(await findOrderedKey(p, 0, '9', cmp)).toEqual({ row: 4, damagedPage: null });
    expect(await findOrderedKey(p, 0, '13', cmp)).toEqual({ row: 10, damagedPage: null });
  });

  it('names the damaged page a key would be on, when no row has it', async () => {
    // Live mode: the damaged leaf holds no row (withheld).
    const p = pages([[1, 2, 3], [], [10, 11], [12, 13]], [1]);
    expect(await findOrderedKey(p, 0, '7', cmp)).toEqual({ row: -1, damagedPage: 11 });
    expect(await findOrderedKey(p, 0, '99', cmp)).toEqual({ row: -1, damagedPage: null });
    expect(await findOrderedKey(p, 0, '2', cmp)).toEqual({ row: 1, damagedPage: null });
    // The damaged leaf with no rows is never decoded.
    expect(p.decoded).not.toContain(1);
  });

  it('searches a table whose every leaf is damaged', async () => {
    const p = pages([[5, 3], [8, 1]], [0, 1]);
    expect(await findOrderedKey(p, 0, '1', cmp)).toEqual({ row: 3, damagedPage: null });
    expect(await findOrderedKey(p, 0, '4', cmp)).toEqual({ row: -1, damagedPage: 10 });
  });
});
