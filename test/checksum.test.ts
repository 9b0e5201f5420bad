/**
 * CRC-32C against a bit-at-a-time reference (the polynomial itself, no tables): lengths around the
 * 16-byte steps of the sliced loop, odd offsets (unaligned words), and the page sizes' ranges. Every
 * page any other test reads checks it against real servers' pages too.
 */
import { describe, expect, it } from 'vitest';
import { crc32c } from '../src/core/pages/checksum.ts';
import { rng } from './differential/random-data.ts';

function reference(b: Uint8Array, start: number, end: number): number {
  let crc = 0xffffffff;
  for (let i = start; i < end; i++) {
    crc ^= b[i];
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Deterministic noise, from the differential tests' seeded generator. */
function noise(length: number, seed: number): Uint8Array {
  const r = rng(seed);
  return Uint8Array.from({ length }, () => Math.floor(r() * 256));
}

describe('CRC-32C', () => {
  it('gives the check value of "123456789"', () => {
    expect(crc32c(new TextEncoder().encode('123456789'), 0, 9)).toBe(0xe3069283);
  });

  it('equals the bitwise reference for short and long ranges at any alignment', () => {
    const b = noise(70_000, 12345);
    const lengths = [0, 1, 3, 4, 7, 15, 16, 17, 20, 31, 32, 35, 63, 64, 65, 135, 1000, 2047, 2048, 2049, 3000, 4092, 4096, 4099, 8180, 16376, 16380, 16384, 32764, 65532];
    for (const length of lengths) {
      for (const offset of [0, 1, 2, 3, 4, 38]) {
        expect(crc32c(b, offset, offset + length), `length ${length} at ${offset}`).toBe(reference(b, offset, offset + length));
      }
    }
  });

  it('equals the reference inside a view that does not start on a word boundary', () => {
    const b = noise(20_000, 777).subarray(5);
    for (const [start, end] of [[0, 16380], [38, 16376], [4, 26], [1, 9001]]) expect(crc32c(b, start, end)).toBe(reference(b, start, end));
  });
});
