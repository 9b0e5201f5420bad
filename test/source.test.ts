import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blobSource, ReadBuffers, sharedBlobSource, type ByteSource } from '../src/core/tablespace/source.ts';
import { fileSource } from '../src/node/file-source.ts';

/** A Blob that counts the reads made of it (each `slice` is one read in a browser). */
class CountingBlob extends Blob {
  slices: [number, number][] = [];
  override slice(start?: number, end?: number, type?: string): Blob {
    this.slices.push([start ?? 0, end ?? this.size]);
    return super.slice(start, end, type);
  }
}

const MIB = 1 << 20;

function patterned(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 11)) & 0xff;
  return bytes;
}

describe('blobSource', () => {
  const bytes = patterned(2 * MIB + 12345);

  it('returns exactly the range asked for, inside a block, across blocks and at the end', async () => {
    const source = blobSource(new Blob([bytes]), 'x.ibd');
    for (const [offset, length] of [[0, 4096], [16384, 16384], [MIB - 100, 200], [MIB, MIB], [2 * MIB, 99999], [5, 0], [3 * MIB, 10]]) {
      const got = await source.read(offset, length);
      expect(Buffer.from(got).equals(bytes.subarray(offset, Math.min(bytes.length, offset + length)))).toBe(true);
    }
  });

  it('reads a block once for the small reads inside it, and keeps the last two', async () => {
    const blob = new CountingBlob([bytes]);
    const source = blobSource(blob, 'x.ibd');
    // Opening a table: page 0's first 4 KB, page 0, then the chunk of pages it lies in.
    await Promise.all([source.read(0, 4096), source.read(0, 16384)]);
    await source.read(0, MIB);
    await source.read(3 * 16384, 16384);
    expect(blob.slices).toEqual([[0, MIB]]);
    await source.read(MIB + 5, 10);
    await source.read(2 * MIB, 100);
    // Block 0 is the least recently used of three: read again.
    await source.read(0, 10);
    expect(blob.slices).toEqual([[0, MIB], [MIB, 2 * MIB], [2 * MIB, bytes.length], [0, MIB]]);
    // A read over two blocks goes straight to the file.
    await source.read(MIB - 10, 20);
    expect(blob.slices.at(-1)).toEqual([MIB - 10, MIB + 10]);
  });

  it('shares one source per Blob object and name', () => {
    const blob = new Blob([bytes]);
    expect(sharedBlobSource(blob, 'a.ibd')).toBe(sharedBlobSource(blob, 'a.ibd'));
    expect(sharedBlobSource(blob, 'b.ibd')).not.toBe(sharedBlobSource(blob, 'a.ibd'));
    expect(sharedBlobSource(new Blob([bytes]), 'a.ibd')).not.toBe(sharedBlobSource(blob, 'a.ibd'));
  });
});

describe('readInto', () => {
  const bytes = patterned(MIB + 777);
  const dir = mkdtempSync(join(tmpdir(), 'ibd-source-'));
  const path = join(dir, 'x.ibd');
  writeFileSync(path, bytes);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const sources: [string, () => Promise<ByteSource & { close?: () => Promise<void> }>][] = [
    ['a Blob', () => Promise.resolve(blobSource(new Blob([bytes]), 'x.ibd'))],
    ['a file', () => fileSource(path)],
  ];

  /** source.readInto, which these sources have. */
  const into = (source: ByteSource, offset: number, length: number, buffer: ArrayBuffer) => {
    if (!source.readInto) throw new Error('no readInto');
    return source.readInto(offset, length, buffer);
  };

  for (const [what, open] of sources) {
    it(`reads ${what} into the buffer given, moving it, and clips at the end`, async () => {
      const source = await open();
      const buffer = new ArrayBuffer(MIB);
      const got = await into(source, 1000, 300_000, buffer);
      expect(Buffer.from(got).equals(bytes.subarray(1000, 301_000))).toBe(true);
      // The same memory, moved: the old object is detached, so a view kept from it sees nothing.
      expect(got.buffer.byteLength).toBe(MIB);
      expect(buffer.byteLength).toBe(0);
      const again = await into(source, MIB, 5000, got.buffer);
      expect(Buffer.from(again).equals(bytes.subarray(MIB))).toBe(true);
      expect(again.buffer.byteLength).toBe(MIB);
      // Too small a buffer: a larger one.
      const large = await into(source, 0, bytes.length, again.buffer);
      expect(Buffer.from(large).equals(bytes)).toBe(true);
      await source.close?.();
    });
  }

  it('ReadBuffers hands a buffer given back to the next read, and takes back only its own', async () => {
    const source = blobSource(new Blob([bytes]), 'x.ibd');
    const buffers = new ReadBuffers(1);
    const first = await buffers.read(source, 0, 65536);
    const memory = first.buffer;
    buffers.give(first);
    // A second give of the same bytes is ignored.
    buffers.give(first);
    const second = await buffers.read(source, 65536, 65536);
    expect(memory.byteLength).toBe(0);
    expect(second.buffer.byteLength).toBe(65536);
    expect(Buffer.from(second).equals(bytes.subarray(65536, 131072))).toBe(true);
    // Nothing given back: the next read gets a buffer of its own (the one in use is untouched).
    const third = await buffers.read(source, 0, 10);
    expect(second.buffer.byteLength).toBe(65536);
    expect(Buffer.from(third).equals(bytes.subarray(0, 10))).toBe(true);
    // Bytes not read here are not taken: the next read does not read into (and move) their buffer.
    const foreign = new Uint8Array(65536);
    buffers.give(foreign);
    await buffers.read(source, 0, 4096);
    expect(foreign.buffer.byteLength).toBe(65536);
  });

  it('ReadBuffers reads plainly from a source without readInto', async () => {
    const plain: ByteSource = { name: 'p', size: bytes.length, read: (o, l) => Promise.resolve(bytes.subarray(o, o + l)) };
    const buffers = new ReadBuffers(2);
    const got = await buffers.read(plain, 5, 10);
    expect(got.buffer).toBe(bytes.buffer);
    buffers.give(got);
    expect(bytes.buffer.byteLength).toBeGreaterThan(0);
  });
});
