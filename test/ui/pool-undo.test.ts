/**
 * The page's worker pool (src/ui/pool.ts) with a table shown as before transaction N: it is open in
 * one worker only, which runs all its tasks (each worker opening it would keep its own copy of the
 * undo pages); a table without undo versions is opened by every worker its tasks run in.
 */
import { describe, expect, it, vi } from 'vitest';
import type { OpenedView, ViewSpec } from '../../workers/viewer-api.ts';

/** Each fake worker: how many times it opened a view. */
const opens: number[] = [];

vi.mock('../../workers/decoder-connection.ts', () => ({
  connectDecoder: () => {
    const id = opens.length;
    opens.push(0);
    return {
      api: { openView: () => { opens[id]++; return Promise.resolve({} as OpenedView); } },
      terminate: () => undefined,
    };
  },
}));

const { WorkerPool } = await import('../../src/ui/pool.ts');

/** Runs `n` tasks of the pool's table at once, each a moment long; the workers they ran in. */
async function runTasks(pool: InstanceType<typeof WorkerPool>, gen: number, n: number): Promise<number[]> {
  const tasks = Array.from({ length: n }, () => pool.run(async (_api, member) => {
    await new Promise((r) => setTimeout(r, 5));
    return member;
  }, 'low', gen));
  return Promise.all(tasks);
}

const spec = (undo: boolean) => ({ name: 't.ibd', ...(undo ? { undo: { files: {}, beforeTrx: 7 } } : {}) }) as unknown as ViewSpec;

describe('WorkerPool and undo versions', () => {
  it('a table as before transaction N: every task in one worker, opened once', async () => {
    opens.length = 0;
    const pool = new WorkerPool(4, 2);
    const gen = pool.setSpec(spec(true));
    pool.openEverywhere();
    expect(new Set(await runTasks(pool, gen, 12))).toEqual(new Set([0]));
    expect(opens.reduce((a, b) => a + b, 0)).toBe(1);
  });

  it('adopted from the worker that opened it: that one runs its tasks', async () => {
    opens.length = 0;
    const pool = new WorkerPool(4, 2);
    pool.warm();
    const gen = pool.adopt(2, spec(true), {} as OpenedView, {} as never);
    expect(new Set(await runTasks(pool, gen, 12))).toEqual(new Set([2]));
    expect(opens.reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('a table as it is: its tasks spread over the workers, each opening it', async () => {
    opens.length = 0;
    const pool = new WorkerPool(4, 2);
    const gen = pool.setSpec(spec(false));
    expect(new Set(await runTasks(pool, gen, 12)).size).toBe(4);
    expect(opens.reduce((a, b) => a + b, 0)).toBe(4);
  });
});
