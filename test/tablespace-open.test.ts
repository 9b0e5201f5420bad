import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verifyPage } from '../src/core/checksum.ts';
import { bytesSource } from '../src/core/source.ts';
import { summarize } from '../src/core/summary.ts';
import { Tablespace } from '../src/core/tablespace.ts';

const bytes = new Uint8Array(readFileSync(new URL('../public/sample/employees.ibd', import.meta.url)));

describe('Tablespace.open', () => {
  it('gives the summary, the definition and the rows of one source one tablespace', async () => {
    const source = bytesSource(bytes, 'employees.ibd');
    const ts = await Tablespace.open(source);
    expect(await Tablespace.open(source)).toBe(ts);
    // Not encrypted: keys change nothing.
    expect(await Tablespace.open(source, { keys: {} })).toBe(ts);
    expect(await Tablespace.open(bytesSource(bytes, 'employees.ibd'))).not.toBe(ts);
  });

  it('knows the checksums of the pages it has read, as verifyPage finds them', async () => {
    const ts = await Tablespace.open(bytesSource(bytes, 'employees.ibd'));
    const page = ts.pageSize;
    expect(ts.knownChecksum(3)).toBeUndefined();
    await ts.page(3);
    expect(ts.knownChecksum(3)).toBe(verifyPage(bytes.subarray(3 * page, 4 * page), ts.fullCrc32));
  });

  it('summarizes the same through a shared tablespace as through a fresh one', async () => {
    const shared = bytesSource(bytes, 'employees.ibd');
    const ts = await Tablespace.open(shared);
    for (let no = 0; no < ts.pageCount; no++) await ts.page(no);
    expect(await summarize(shared)).toEqual(await summarize(bytesSource(bytes, 'employees.ibd')));
  });
});

describe('Tablespace.prefetch', () => {
  // The sample padded with never-written pages to 3 MiB: three 1 MiB chunks.
  const padded = new Uint8Array(3 << 20);
  padded.set(bytes);

  const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);

  /** A source that counts its reads, and fails those longer than `failAbove` bytes. */
  function counted(failAbove = Infinity) {
    const inner = bytesSource(padded, 'padded.ibd');
    const reads: number[] = [];
    return {
      reads,
      source: {
        name: inner.name,
        size: inner.size,
        read(offset: number, length: number) {
          reads.push(length);
          return length > failAbove ? Promise.reject(new Error('read failed')) : inner.read(offset, length);
        },
      },
    };
  }

  it('reads the chunks of a run of pages at once, and page() then reads nothing', async () => {
    const { reads, source } = counted();
    const ts = await Tablespace.open(source);
    const chunk = 1 << 20;
    const pages = (3 * chunk) / ts.pageSize;
    reads.length = 0;
    await ts.prefetch(1, pages - 2);
    expect(reads).toEqual([3 * chunk]);
    for (let no = 0; no < pages; no++) expect(same((await ts.page(no)).bytes, padded.subarray(no * ts.pageSize, (no + 1) * ts.pageSize)), `page ${no}`).toBe(true);
    expect(reads).toEqual([3 * chunk]);
  });

  it('leaves runs within one chunk, and failed reads, to page()', async () => {
    const { reads, source } = counted(1 << 20);
    const ts = await Tablespace.open(source);
    const pages = (3 << 20) / ts.pageSize;
    reads.length = 0;
    await ts.prefetch(0, 3);
    expect(reads).toEqual([]);
    await ts.prefetch(0, pages - 1);
    expect(reads).toEqual([3 << 20]);
    expect((await ts.page(pages - 1)).checksum).toBe('empty');
    expect(same((await ts.page(3)).bytes, bytes.subarray(3 * ts.pageSize, 4 * ts.pageSize))).toBe(true);
  });
});
