// The dictionary kept per system tablespace (dictionary-cache.ts): reused only for the same name,
// size, version and header pages (page 0 and page 7), read again otherwise.
import { describe, expect, test } from 'vitest';
import type { Dictionary } from '../src/core/definitions/dictionary/dict-tables.ts';
import { keptDictionary } from '../src/core/definitions/dictionary/dictionary-cache.ts';
import type { ByteSource } from '../src/core/tablespace/source.ts';

const PAGE = 4096;

function sourceOf(bytes: Uint8Array, name: string, version?: string): ByteSource {
  return { name, size: bytes.length, version, read: (o, l) => Promise.resolve(bytes.slice(o, Math.min(bytes.length, o + l))) };
}

function image(fill: number): Uint8Array {
  return new Uint8Array(PAGE * 10).fill(fill);
}

/** A read that makes a fresh dictionary each time and counts its calls. */
function counted() {
  const counter = { calls: 0, read: () => { counter.calls++; return Promise.resolve({ tables: [], problems: [], scrubbed: 0 } as unknown as Dictionary); } };
  return counter;
}

describe('keptDictionary', () => {
  test('the same file asked twice is read once, and both get the same dictionary', async () => {
    const r = counted();
    const bytes = image(1);
    const a = await keptDictionary(sourceOf(bytes, 'ibdata1', 'v1'), PAGE, r.read);
    const b = await keptDictionary(sourceOf(bytes, 'ibdata1', 'v1'), PAGE, r.read);
    expect(r.calls).toBe(1);
    expect(b).toBe(a);
  });

  test('a source without a version is read every time', async () => {
    const r = counted();
    const bytes = image(2);
    await keptDictionary(sourceOf(bytes, 'ibdata1'), PAGE, r.read);
    await keptDictionary(sourceOf(bytes, 'ibdata1'), PAGE, r.read);
    expect(r.calls).toBe(2);
  });

  test('another version, or changed bytes in page 0 or page 7, is read again', async () => {
    const r = counted();
    const bytes = image(3);
    await keptDictionary(sourceOf(bytes, 'ibdata1', 'v3'), PAGE, r.read);
    await keptDictionary(sourceOf(bytes, 'ibdata1', 'v4'), PAGE, r.read);
    expect(r.calls).toBe(2);
    const header = bytes.slice();
    header[7 * PAGE + 100] = 9;
    await keptDictionary(sourceOf(header, 'ibdata1', 'v3'), PAGE, r.read);
    expect(r.calls).toBe(3);
    const first = bytes.slice();
    first[20] = 9;
    await keptDictionary(sourceOf(first, 'ibdata1', 'v4'), PAGE, r.read);
    expect(r.calls).toBe(4);
    // a byte outside the two pages: the same dictionary
    const other = header.slice();
    other[5 * PAGE] = 9;
    await keptDictionary(sourceOf(other, 'ibdata1', 'v3'), PAGE, r.read);
    expect(r.calls).toBe(4);
  });

  test('two dictionaries are kept, the least recently used one let go', async () => {
    const r = counted();
    const [a, b, c] = [image(4), image(5), image(6)];
    await keptDictionary(sourceOf(a, 'a', 'v'), PAGE, r.read);
    await keptDictionary(sourceOf(b, 'b', 'v'), PAGE, r.read);
    await keptDictionary(sourceOf(a, 'a', 'v'), PAGE, r.read);
    await keptDictionary(sourceOf(c, 'c', 'v'), PAGE, r.read);
    expect(r.calls).toBe(3);
    await keptDictionary(sourceOf(a, 'a', 'v'), PAGE, r.read);
    expect(r.calls).toBe(3);
    await keptDictionary(sourceOf(b, 'b', 'v'), PAGE, r.read);
    expect(r.calls).toBe(4);
  });

  test('a read that fails is not kept', async () => {
    let calls = 0;
    const failing = () => { calls++; return Promise.reject(new Error('unreadable')); };
    const bytes = image(7);
    await expect(keptDictionary(sourceOf(bytes, 'x', 'v'), PAGE, failing)).rejects.toThrow('unreadable');
    await expect(keptDictionary(sourceOf(bytes, 'x', 'v'), PAGE, failing)).rejects.toThrow('unreadable');
    expect(calls).toBe(2);
  });
});
