/**
 * disownedLeaves (src/core/btree/leaf-chain.ts) on leaf lists built by hand: which stretches of a
 * scan's leaves a merge took out of the list. The same rule is checked on a real server's file in
 * test/differential/dropped-merged.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { disownedLeaves, type LeafLinks } from '../src/core/btree/leaf-chain.ts';
import { FIL_NULL } from '../src/core/pages/fil-header.ts';

const N = FIL_NULL;

function leaves(...list: [number, number, number, boolean?][]): Map<number, LeafLinks> {
  return new Map(list.map(([no, prev, next, intact]) => [no, { prev, next, intact: intact ?? true }]));
}

describe('disownedLeaves', () => {
  it('an intact list: nothing disowned', () => {
    expect(disownedLeaves(leaves([3, N, 4], [4, 3, 5], [5, 4, N])).size).toBe(0);
  });

  it('a leaf merged away: its neighbours link past it', () => {
    // 3 ↔ 5 now; 4 still links to both.
    const d = disownedLeaves(leaves([3, N, 5], [4, 3, 5], [5, 3, N]));
    expect([...d.keys()]).toEqual([4]);
    expect(d.get(4)).toContain('leaf page 3, whose next page is page 5');
  });

  it('a run of merged leaves whose old images agree with each other: the whole run', () => {
    // Once 2 ↔ 3 ↔ 4 ↔ 5 ↔ 6; now 2 ↔ 6. 3, 4, 5 confirm each other but not their ends.
    const d = disownedLeaves(leaves([2, N, 6], [3, 2, 4], [4, 3, 5], [5, 4, 6], [6, 2, N]));
    expect([...d.keys()].sort()).toEqual([3, 4, 5]);
  });

  it('the first leaves merged away: caught at the end that is still in the list', () => {
    const d = disownedLeaves(leaves([3, N, 4], [4, 3, 7], [7, N, 8], [8, 7, N]));
    expect([...d.keys()].sort()).toEqual([3, 4]);
  });

  it('a missing or damaged neighbour proves nothing', () => {
    // 5 is overwritten (absent); 9's neighbour 10 is damaged, its links no evidence.
    expect(disownedLeaves(leaves([3, N, 4], [4, 3, 5], [6, 5, N])).size).toBe(0);
    expect(disownedLeaves(leaves([8, N, 9], [9, 8, 10], [10, 2, 2, false])).size).toBe(0);
  });

  it('a damaged leaf is never judged (it is read as damaged anyway), and a cycle ends', () => {
    expect(disownedLeaves(leaves([3, 4, 4, false])).size).toBe(0);
    expect(disownedLeaves(leaves([3, 4, 4], [4, 3, 3])).size).toBe(0);
  });
});
