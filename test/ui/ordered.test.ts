import { describe, expect, it } from 'vitest';
import { runBounds, runOrdered } from '../../src/ui/ordered.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('runOrdered: concurrent jobs, results in order', () => {
  it('hands results over strictly in order, whatever order they finish in', async () => {
    const seen: number[] = [];
    await runOrdered(20, async (i) => {
      await sleep((i * 7919) % 13);
      return i * 10;
    }, (r, i) => {
      expect(r).toBe(i * 10);
      seen.push(i);
    }, { ahead: 4 });
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('keeps at most `ahead` jobs started beyond the one consumed (memory stays flat)', async () => {
    let running = 0;
    let most = 0;
    let started = 0;
    let consumed = 0;
    await runOrdered(50, async () => {
      started++;
      running++;
      most = Math.max(most, running);
      await sleep(1);
      running--;
      return 0;
    }, async () => {
      consumed++;
      // A slow consumer (a disk): the jobs must not run far ahead of it.
      expect(started - consumed).toBeLessThan(3);
      await sleep(2);
    }, { ahead: 3 });
    expect(most).toBeLessThanOrEqual(3);
  });

  it('reports a failed job at its turn, after the results before it', async () => {
    const seen: number[] = [];
    const run = runOrdered(5, async (i) => {
      if (i === 2) throw new Error('page 2 is damaged');
      await sleep(5);
      return i;
    }, (r) => void seen.push(r), { ahead: 5 });
    await expect(run).rejects.toThrow('page 2 is damaged');
    expect(seen).toEqual([0, 1]);
  });

  it('stops when aborted', async () => {
    const c = new AbortController();
    const seen: number[] = [];
    const run = runOrdered(100, async (i) => i, (r) => {
      seen.push(r);
      if (r === 3) c.abort();
    }, { ahead: 2, signal: c.signal });
    await expect(run).rejects.toThrow();
    expect(seen).toEqual([0, 1, 2, 3]);
  });

  it('cuts runs: a short first one, then full ones', () => {
    expect(runBounds(10, 4)).toEqual([[0, 4], [4, 8], [8, 10]]);
    expect(runBounds(10, 4, 1)).toEqual([[0, 1], [1, 5], [5, 9], [9, 10]]);
    expect(runBounds(0, 4)).toEqual([]);
  });
});
