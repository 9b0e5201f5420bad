/**
 * putDecimal (the CSV writers' DECIMAL text) against decimalRenderer (the string path) on every
 * shape from DECIMAL(1,0) to DECIMAL(30,10), with values made of random bytes: ordinary ones and
 * damaged ones (groups above 999,999,999), positive and negative.
 */
import { describe, expect, it } from 'vitest';
import { decimalRenderer, decimalSize } from '../../src/core/values/decimal.ts';
import { decimalPlan, putDecimal } from '../../src/core/values/digit-text.ts';

/** A seeded xorshift: the same bytes on every run. */
function bytesFrom(seed: number): (n: number) => Uint8Array {
  let s = seed >>> 0 || 1;
  return (n) => {
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      b[i] = s & 0xff;
    }
    return b;
  };
}

describe('putDecimal writes what decimalRenderer shows', () => {
  it('on random and damaged values of every shape up to DECIMAL(30,10)', () => {
    const random = bytesFrom(40);
    const decoder = new TextDecoder();
    let compared = 0;
    for (let precision = 1; precision <= 30; precision++) {
      for (let scale = 0; scale <= Math.min(precision, 10); scale++) {
        const render = decimalRenderer(precision, scale);
        const plan = decimalPlan(precision, scale);
        const size = decimalSize(precision, scale);
        for (let k = 0; k < 200; k++) {
          const b = random(size + 2);
          // Half of them small values (leading bytes near the sign bit's zero), the others as random.
          if (k % 2 === 0) for (let i = 0; i < Math.min(size - 1, 3); i++) b[1 + i] = b[1] & 0x80 ? 0x80 | (i === 0 ? 0 : 0x7f) : i === 0 ? 0x80 : 0;
          const t = new Uint8Array(plan.room + 8);
          const end = putDecimal(plan, t, 0, b, 1);
          const text = decoder.decode(t.subarray(0, end));
          const shown = render(b, 1, size);
          if (text !== shown) expect(text, `DECIMAL(${precision},${scale}) ${Array.from(b.subarray(1, 1 + size)).join(' ')}`).toBe(shown);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(40000);
  });
});
