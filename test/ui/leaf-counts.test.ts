import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { countLeafRows, readRanges, UNCOUNTED } from '../../src/core/readers/leaf-counts.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { openTable } from '../../src/core/readers/table-reader.ts';
import { Tablespace } from '../../src/core/tablespace/tablespace.ts';

describe('rows per leaf page, without decoding', () => {
  it('reads neighbouring pages together, in bounded ranges', () => {
    expect(readRanges([3, 4, 5, 9, 200, 201], 4, 100)).toEqual([[3, 9], [200, 201]]);
    expect(readRanges([1, 2, 3, 4, 5], 1, 2)).toEqual([[1, 2], [3, 4], [5, 5]]);
    expect(readRanges([], 4, 10)).toEqual([]);
  });

  it('counts what the decoder returns, per page, in the order asked', async () => {
    const dir = join(import.meta.dirname, '../../public/sample');
    const source = bytesSource(new Uint8Array(readFileSync(join(dir, 'employees.ibd'))), 'employees.ibd');
    const table = parseCreateTables(readFileSync(join(dir, 'employees.sql'), 'utf8'))[0];
    const reader = await openTable(source, table);
    const leaves = await reader.leafPages();
    const ts = await Tablespace.open(source);
    const options = { indexId: reader.info.indexId, compact: true };
    const live = await countLeafRows(ts, [...leaves].reverse(), { ...options, mode: 'live' });
    const decoded = await Promise.all(leaves.map(async (p, i) => (await reader.decodePages([p], { first: i === 0 })).rows));
    expect(Array.from(live).reverse()).toEqual(decoded);
    expect(live.reduce((a, b) => a + b, 0)).toBe(300);
    // One page per read: many ranges, each read while the one before is counted.
    const onePerRead = await countLeafRows(ts, leaves, { ...options, mode: 'live', readBytes: ts.pageSize });
    expect(leaves.length).toBeGreaterThan(2);
    expect(Array.from(onePerRead)).toEqual(decoded);
    await expect(countLeafRows(ts, leaves, { ...options, mode: 'live', readBytes: ts.pageSize, signal: AbortSignal.abort() })).rejects.toThrow();
    expect(Array.from(await countLeafRows(ts, leaves, { ...options, mode: 'deleted' }))).toEqual(leaves.map(() => 0));
    // A page that is not a leaf of the index is not counted (the decoder skips it too).
    expect(Array.from(await countLeafRows(ts, [0], { ...options, mode: 'both' }))).toEqual([UNCOUNTED]);
  });
});
