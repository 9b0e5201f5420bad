/**
 * The record decoder's run of the value checks (src/core/records/record-checks.ts): its inline tests and
 * runs of 7-bit text give the same verdict as calling every field's check.
 */
import { describe, expect, it } from 'vitest';
import { clusteredLayout } from '../src/core/records/clustered-index.ts';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { checkFailure, failingField } from '../src/core/records/record-checks.ts';

const [table] = parseCreateTables(
  'CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(10), b CHAR(3), d DATE, e DECIMAL(5,2), c VARCHAR(4), l VARCHAR(3) CHARACTER SET latin1, n VARCHAR(5)) DEFAULT CHARSET=utf8mb4;',
);
const layout = clusteredLayout(table, false);
const utf8 = (s: string) => Array.from(new TextEncoder().encode(s));
/** DATE 2024-05-06 and DECIMAL(5,2) 123.45 as stored. */
const DATE = [0x8f, 0xd0, 0xa6];
const DECIMAL = [0x80 | 0x01, 0x17, 0x2d];

/** Lays the named fields' bytes out one after the other (or apart, with `gap` bytes between them), NULL for null. */
function record(values: Record<string, number[] | null>, gap = 0): { page: Uint8Array; at: Int32Array } {
  const page = new Uint8Array(1000);
  const at = new Int32Array(2 * layout.fields.length);
  let p = 10;
  layout.fields.forEach((f, i) => {
    const bytes = f.name in values ? values[f.name] : new Array<number>(f.fixedLen || 1).fill(0);
    if (bytes === null) {
      at[2 * i] = -1;
      return;
    }
    page.set(bytes, p);
    at[2 * i] = p;
    at[2 * i + 1] = bytes.length;
    p += bytes.length + gap;
  });
  return { page, at };
}

const valid = { a: utf8('plain'), b: utf8('abc'), d: DATE, e: DECIMAL, c: utf8('xy'), l: [0xe9, 0xff], n: utf8('n') };

function failing(values: Record<string, number[] | null>, gap = 0): string | null {
  const { page, at } = record({ ...valid, ...values }, gap);
  const i = failingField(layout.fields, layout.checked, page, at);
  return i < 0 ? null : `${layout.fields[i].name}: ${checkFailure.reason}`;
}

describe('failingField', () => {
  it('passes valid records, adjacent or not, NULLs skipped', () => {
    expect(failing({})).toBeNull();
    expect(failing({}, 3)).toBeNull();
    expect(failing({ a: null, c: null })).toBeNull();
    expect(failing({ a: utf8('日本é'), c: utf8('😀') })).toBeNull();
  });

  it('finds the failing field of each kind', () => {
    expect(failing({ d: [0x8f, 0xd1, 0xe6] })).toBe('d: month 15');
    expect(failing({ e: [0x80 | 0x03, 0xe8, 0x00] })).toBe('e: digit group 1000 ≥ 10^3');
    expect(failing({ b: utf8('ab') })).toBe('b: 2 bytes, fewer than the 3 of char(3)');
    expect(failing({ l: [1, 2, 3, 4] })).toBe('l: 4 bytes, more than the 3 of varchar(3)');
    expect(failing({ c: [0x61, 0xff] })).toBe('c: invalid utf8mb4 at byte 1');
    expect(failing({ n: [0xc3] }, 2)).toBe('n: invalid utf8mb4 at byte 0');
  });

  it('after non-7-bit text that is valid, still checks the fields that follow', () => {
    expect(failing({ a: utf8('é'), d: [0x8f, 0xd1, 0xe6] })).toBe('d: month 15');
    expect(failing({ a: utf8('é'), e: [0x80 | 0x03, 0xe8, 0x00] })).toBe('e: digit group 1000 ≥ 10^3');
    expect(failing({ a: utf8('é'), n: [0xff] })).toBe('n: invalid utf8mb4 at byte 0');
    expect(failing({ a: utf8('é'), n: [0xff] }, 1)).toBe('n: invalid utf8mb4 at byte 0');
  });
});
