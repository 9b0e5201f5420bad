/**
 * The Snappy encoder (codecs/snappy-encode.ts) against hyparquet-writer's, whose bytes it must equal
 * (Parquet files the same as before it), and back through the decoder (codecs/snappy.ts): random
 * bytes, few distinct bytes, zeros and CSV-like text, at lengths around the format's edges (literal
 * length forms at 60/256/65536, the search margin of 15 bytes, offsets past 65,535).
 */
import { describe, expect, it } from 'vitest';
import { snappyCompress } from 'hyparquet-writer/src/snappy.js';
import { snappyEncode } from '../src/core/codecs/snappy-encode.ts';
import { snappyDecode } from '../src/core/codecs/snappy.ts';
import { rng } from './differential/random-data.ts';

const LENGTHS = [0, 1, 4, 14, 15, 16, 17, 60, 61, 255, 256, 257, 1000, 65535, 65536, 65537, 70000, 200000];

function inputs(length: number, seed: number): Uint8Array[] {
  const r = rng(seed);
  const line = (i: number): string => `${i},${Math.floor(r() * 200000)},${(r() * 1000).toFixed(2)},1996-0${1 + (i % 9)}-1${i % 10},N,O,DELIVER IN PERSON,TRUCK,careful requests\n`;
  let text = '';
  for (let i = 0; text.length < length; i++) text += line(i);
  return [
    Uint8Array.from({ length }, () => Math.floor(r() * 256)),
    Uint8Array.from({ length }, () => Math.floor(r() * 4)),
    new Uint8Array(length),
    new TextEncoder().encode(text).subarray(0, length),
  ];
}

describe('Snappy encoder', () => {
  it('writes the same bytes as hyparquet-writer, and they decode back to the input', () => {
    for (const length of LENGTHS) {
      for (const [k, input] of inputs(length, length + 1).entries()) {
        const encoded = snappyEncode(input);
        expect(Buffer.from(encoded).equals(Buffer.from(snappyCompress(input))), `input ${k} of ${length} bytes`).toBe(true);
        const back = new Uint8Array(length);
        expect(snappyDecode(encoded, 0, encoded.length, back)).toBe(length);
        expect(Buffer.from(back).equals(Buffer.from(input)), `input ${k} of ${length} bytes back`).toBe(true);
      }
    }
  });

  it('compresses repetitive text', () => {
    const [, , zeros, text] = inputs(100000, 7);
    expect(snappyEncode(zeros).length).toBeLessThan(5000);
    expect(snappyEncode(text).length).toBeLessThan(text.length / 2);
  });
});
