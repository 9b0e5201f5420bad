import { describe, expect, it } from 'vitest';
import { decodeInParallel, splitRuns, type RunDecoder } from '../src/core/readers/parallel.ts';
import type { RowBatch } from '../src/core/values/row-batch.ts';
import { emptyStats } from '../src/core/readers/table-reader.ts';

const stats = emptyStats();
const batchOf = (pages: number[]): RowBatch => ({ rows: pages.length, cols: 1, text: new Uint8Array(Uint8Array.from(pages)), cells: new Uint32Array(0), nulls: new Uint8Array(0) });

/** A fake worker that finishes runs after a delay depending on their content, so completion order is scrambled. */
function fakeDecoder(log: { inFlight: number; max: number; firsts: number[] }, fail?: number): RunDecoder {
  return {
    async decode(pages, first) {
      log.inFlight++;
      log.max = Math.max(log.max, log.inFlight);
      if (first) log.firsts.push(pages[0]);
      await new Promise((r) => setTimeout(r, (pages[0] * 7) % 13));
      log.inFlight--;
      if (pages.includes(fail ?? -1)) throw new Error(`page ${fail} is broken`);
      return { batch: batchOf(pages), stats };
    },
  };
}

describe('decodeInParallel', () => {
  const leaves = Array.from({ length: 100 }, (_, i) => 1000 + i);

  it('yields runs in key order whatever order they finish in, with bounded work in flight', async () => {
    const log = { inFlight: 0, max: 0, firsts: [] as number[] };
    const seen: number[] = [];
    for await (const r of decodeInParallel(leaves, [fakeDecoder(log), fakeDecoder(log), fakeDecoder(log)], { runPages: 7 })) seen.push(...r.batch.text);
    expect(seen).toEqual(leaves.map((p) => p & 0xff));
    expect(log.max).toBeLessThanOrEqual(6);
    expect(log.firsts).toEqual([1000]); // only the very first run may judge the table definition
  });

  it('reports a failing run when its turn comes, after the runs before it', async () => {
    const log = { inFlight: 0, max: 0, firsts: [] as number[] };
    const seen: number[] = [];
    const run = async () => {
      for await (const r of decodeInParallel(leaves, [fakeDecoder(log, 1050), fakeDecoder(log, 1050)], { runPages: 10 })) seen.push(r.batch.rows);
    };
    await expect(run()).rejects.toThrow('page 1050 is broken');
    expect(seen).toEqual([10, 10, 10, 10, 10]);
  });

  it('stops when aborted', async () => {
    const log = { inFlight: 0, max: 0, firsts: [] as number[] };
    const controller = new AbortController();
    let runs = 0;
    const run = async () => {
      for await (const _ of decodeInParallel(leaves, [fakeDecoder(log)], { runPages: 10, signal: controller.signal })) if (++runs === 2) controller.abort();
    };
    await expect(run()).rejects.toThrow();
    expect(runs).toBe(2);
  });

  it('splits runs of consecutive leaves', () => {
    expect(splitRuns([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});
