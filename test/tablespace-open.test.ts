import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verifyPage } from '../src/core/pages/checksum.ts';
import { blobSource, bytesSource, type ByteSource } from '../src/core/tablespace/source.ts';
import { summarize } from '../src/core/readers/summary.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';

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

describe('Tablespace.readRun', () => {
  // The sample padded with never-written pages to 3 MiB: three 1 MiB chunks.
  const padded = new Uint8Array(3 << 20);
  padded.set(bytes);

  const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
  const image = (no: number, size: number) => padded.subarray(no * size, (no + 1) * size);

  /** A Blob source that counts its reads (of either kind), and fails those longer than `failAbove` bytes. */
  function counted(failAbove = Infinity) {
    const inner = blobSource(new Blob([padded]), 'padded.ibd');
    const reads: number[] = [];
    const source: ByteSource = {
      name: inner.name,
      size: inner.size,
      read(offset, length) {
        reads.push(length);
        return length > failAbove ? Promise.reject(new Error('read failed')) : inner.read(offset, length);
      },
      readInto(offset, length, buffer) {
        reads.push(length);
        return length > failAbove ? Promise.reject(new Error('read failed')) : inner.readInto!(offset, length, buffer);
      },
    };
    return { reads, source };
  }

  it('reads a run of pages at once; page() with the run reads nothing, without it copies the chunk', async () => {
    const { reads, source } = counted();
    const ts = await Tablespace.open(source);
    const chunk = 1 << 20;
    const pages = (3 * chunk) / ts.pageSize;
    reads.length = 0;
    const run = await ts.readRun(1, pages - 2);
    expect(reads).toEqual([3 * chunk - 2 * ts.pageSize]);
    for (let no = 1; no <= pages - 2; no++) expect(same((await ts.page(no, run)).bytes, image(no, ts.pageSize)), `page ${no}`).toBe(true);
    expect(reads).toHaveLength(1);
    // The middle chunk lies whole in the run: copied out of it. The last does not: read. (The first
    // was read when the tablespace was opened, pages 1-3 checked against page 0's flags.)
    const middle = chunk / ts.pageSize + 5;
    const copied = await ts.page(middle);
    expect(reads).toHaveLength(1);
    expect((await ts.page(0)).no).toBe(0);
    expect(reads).toHaveLength(1);
    expect((await ts.page(pages - 1)).no).toBe(pages - 1);
    expect(reads).toHaveLength(2);
    // Released, the run's buffer is read into by the next run: the copy keeps its bytes.
    ts.release(run);
    const next = await ts.readRun(pages - 70, pages - 1);
    expect(run!.bytes.length).toBe(0);
    expect(same(copied.bytes, image(middle, ts.pageSize))).toBe(true);
    expect(same((await ts.page(pages - 1, next)).bytes, image(pages - 1, ts.pageSize))).toBe(true);
    ts.release(next);
  });

  it('leaves runs within one chunk, and failed reads, to page()', async () => {
    const { reads, source } = counted(1 << 20);
    const ts = await Tablespace.open(source);
    const pages = (3 << 20) / ts.pageSize;
    reads.length = 0;
    expect(await ts.readRun(0, 3)).toBeNull();
    expect(reads).toEqual([]);
    expect(await ts.readRun(0, pages - 1)).toBeNull();
    expect(reads).toEqual([3 << 20]);
    expect((await ts.page(pages - 1)).checksum).toBe('empty');
    expect(same((await ts.page(3)).bytes, image(3, ts.pageSize))).toBe(true);
  });

  it('reads a run within one chunk when asked for a pooled one (an export), into a reused buffer', async () => {
    const { reads, source } = counted();
    const ts = await Tablespace.open(source);
    const chunk = 1 << 20;
    const first = chunk / ts.pageSize;
    reads.length = 0;
    expect(await ts.readRun(first, first, true)).toBeNull();
    const run = await ts.readRun(first, first + 9, true);
    expect(reads).toEqual([10 * ts.pageSize]);
    for (let no = first; no <= first + 9; no++) expect(same((await ts.page(no, run)).bytes, image(no, ts.pageSize)), `page ${no}`).toBe(true);
    expect(reads).toHaveLength(1);
    const buffer = run!.bytes.buffer;
    ts.release(run);
    const next = await ts.readRun(first + 10, first + 19, true);
    expect(reads).toHaveLength(2);
    expect(next!.bytes.byteLength).toBe(10 * ts.pageSize);
    expect(same((await ts.page(first + 19, next)).bytes, image(first + 19, ts.pageSize))).toBe(true);
    // The released run's buffer was read into again (moved, as a BYOB read moves it).
    expect(buffer.byteLength).toBe(0);
    ts.release(next);
  });
});
