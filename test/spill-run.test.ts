/**
 * The held statements of --revert-trx (cli/spill-run.ts): in memory up to the bound, the rest in a
 * temporary file, given back in the order pushed, the file removed.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SpillRun } from '../src/cli/spill-run.ts';

describe('SpillRun', () => {
  it('holds at most its bound, gives back everything in order, and removes its file', async () => {
    const run = new SpillRun(10_000);
    const pushed: string[] = [];
    for (let i = 0; i < 5000; i++) {
      const text = `UPDATE t SET a = '${'é'.repeat(i % 50)}' WHERE id = ${i};\n`;
      pushed.push(text);
      await run.push(text);
    }
    expect(run.maxHeldChars).toBeLessThanOrEqual(10_000);
    expect(run.spilledChars).toBeGreaterThan(pushed.join('').length - 10_000);
    const dir = (run as unknown as { dir: string }).dir;
    expect(existsSync(dir)).toBe(true);
    let out = '';
    await run.drain((t) => void (out += t));
    expect(out).toBe(pushed.join(''));
    expect(existsSync(dir)).toBe(false);
  });

  it('under its bound: no file', async () => {
    const run = new SpillRun(1000);
    await run.push('a;\n');
    let out = '';
    await run.drain((t) => void (out += t));
    expect(out).toBe('a;\n');
    expect(run.spilledChars).toBe(0);
  });
});
