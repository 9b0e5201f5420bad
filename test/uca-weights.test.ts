/**
 * The UCA sort keys where no server of the kind is here. MySQL 8.0's utf8mb4_0900_ai_ci: strings
 * in the order of DUCET 9.0.0's own conformance test (a sample of CollationTest_NON_IGNORABLE_SHORT
 * without contractions, which MySQL skips: test/fixtures/uca-0900-order.txt, written by
 * scripts/make-uca-weights.test.ts) must come out in that order at the primary level; Hangul
 * syllables weigh as their jamo, as MySQL decomposes them; it is NO PAD. The collations ordered by
 * MariaDB's weights are checked against the server in test/differential/sort-collations.test.ts;
 * here, which collations are refused and with what reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { columnOrder, compareOrderKeys, type ColumnOrder } from '../src/core/values/order-key.ts';
import { loadUcaLevels, loadUcaWeights } from '../src/core/values/uca-weights.ts';
import { ByteStore } from '../workers/sort-run.ts';

beforeAll(async () => {
  await loadUcaWeights();
  await loadUcaLevels();
});

function orderOf(collation: string): ColumnOrder | { why: string } {
  const table = parseCreateTables(`CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(50) CHARACTER SET utf8mb4 COLLATE ${collation})`)[0];
  return columnOrder(table.columns[1]);
}

function ordered(collation: string): ColumnOrder {
  const order = orderOf(collation);
  if ('why' in order) throw new Error(order.why);
  return order;
}

/** Compares two texts' keys in `order`. */
function compare(order: ColumnOrder, a: string, b: string): number {
  const keys = new ByteStore();
  order.key(a, keys);
  const al = keys.length;
  order.key(b, keys);
  return compareOrderKeys(order.kind, keys.bytes, 0, al, keys.bytes, al, keys.length - al);
}

const fromHex = (line: string) => String.fromCodePoint(...line.split(' ').map((h) => parseInt(h, 16)));

describe('utf8mb4_0900_ai_ci (UCA 9.0.0, as MySQL 8.0 weighs it)', () => {
  const order = () => ordered('utf8mb4_0900_ai_ci');
  const sample = readFileSync(join(import.meta.dirname, 'fixtures/uca-0900-order.txt'), 'utf8').trim().split('\n').map(fromHex);

  it("keeps DUCET 9.0.0's conformance order at the primary level", () => {
    let rises = 0;
    for (let i = 1; i < sample.length; i++) {
      const c = compare(order(), sample[i - 1], sample[i]);
      if (c > 0) expect.fail(`${JSON.stringify(sample[i - 1])} sorts after ${JSON.stringify(sample[i])}`);
      if (c < 0) rises++;
    }
    expect(sample.length).toBeGreaterThan(1500);
    // the primary level tells most of the sample apart, where code points would not keep its order
    expect(rises).toBeGreaterThan(sample.length / 2);
    expect(sample.some((s, i) => i > 0 && s < sample[i - 1])).toBe(true);
  });

  it('weighs a Hangul syllable as its jamo, accents and case not at all, and pads nothing', () => {
    expect(compare(order(), '한', '\u1112\u1161\u11ab')).toBe(0);
    expect(compare(order(), 'Ábç', 'abc')).toBe(0);
    expect(compare(order(), 'a', 'a ')).toBeLessThan(0);
    expect(compare(order(), 'z', 'ä')).toBeGreaterThan(0);
  });
});

describe('the UCA collations of MariaDB and MySQL', () => {
  it('pads with spaces, or not, as the collation says', () => {
    for (const c of ['utf8mb4_unicode_ci', 'utf8mb4_unicode_520_ci', 'utf8mb4_uca1400_ai_ci', 'utf8mb3_unicode_ci']) {
      expect(compare(ordered(c), 'a', 'a   '), c).toBe(0);
      expect(compare(ordered(c), 'a\t', 'a'), c).toBeLessThan(0);
    }
    for (const c of ['utf8mb4_unicode_nopad_ci', 'utf8mb4_unicode_520_nopad_ci', 'utf8mb4_uca1400_nopad_ai_ci']) {
      expect(compare(ordered(c), 'a', 'a '), c).toBeLessThan(0);
    }
  });

  it('refuses the levels and tailorings it does not weigh, naming the collation', () => {
    for (const c of ['utf8mb4_0900_as_cs', 'utf8mb4_0900_as_ci', 'utf8mb4_vietnamese_ci', 'utf8mb4_de_pb_0900_ai_ci', 'utf8mb4_uca1400_persian_ai_ci', 'utf8mb4_uca1400_spanish_as_cs']) {
      expect(orderOf(c), c).toEqual({ why: expect.stringContaining(`collation ${c}, whose weights are not implemented`) });
    }
  });

  it('refuses uca1400 with accents or case where the server\'s choice of sort keys depends on a primary key of unknown size, or pads NO PAD fixed keys', () => {
    const column = (collation: string) => parseCreateTables(`CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(31) CHARACTER SET utf8mb4 COLLATE ${collation})`)[0].columns[1];
    expect(columnOrder(column('utf8mb4_uca1400_as_cs'), { tieBytes: null })).toEqual({ why: expect.stringContaining('depends on the size of that key') });
    expect(columnOrder(column('utf8mb4_uca1400_as_cs'), { tieBytes: 4 })).toMatchObject({ kind: 'bytes' });
    expect(columnOrder(column('utf8mb4_uca1400_as_cs'), { tieBytes: 8 })).toMatchObject({ kind: 'levels16' });
    expect(columnOrder(column('utf8mb4_uca1400_nopad_as_cs'), { tieBytes: 4 })).toEqual({ why: expect.stringContaining('NO PAD padding is not modelled') });
    expect(columnOrder(column('utf8mb4_uca1400_nopad_as_cs'), { tieBytes: 8 })).toMatchObject({ kind: 'nopadLevels16' });
  });
});
