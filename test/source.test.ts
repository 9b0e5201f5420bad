import { describe, expect, it } from 'vitest';
import { blobSource, sharedBlobSource } from '../src/core/source.ts';

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
