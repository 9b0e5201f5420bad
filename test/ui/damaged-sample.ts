/**
 * The bundled sample table (public/sample/employees.ibd, 16 KiB pages: leaves 6 to 9) with bytes of a
 * fixed-seed PRNG written over part of it: the damaged files the UI tests (Node and browser) read.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const PAGE = 16384;
export const SAMPLE_DIR = join(import.meta.dirname, '../../public/sample');
export const SAMPLE_SQL = readFileSync(join(SAMPLE_DIR, 'employees.sql'), 'utf8');

/** `length` bytes of a fixed-seed PRNG (a linear congruential one, its high bytes). */
export function randomBytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

/** The sample with `length` random bytes (seed `seed`) at byte `offset`. */
export function damagedSample(offset: number, length: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(readFileSync(join(SAMPLE_DIR, 'employees.ibd')));
  bytes.set(randomBytes(length, seed), offset);
  return bytes;
}
