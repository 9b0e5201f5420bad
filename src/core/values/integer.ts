/**
 * Integer columns (TINYINT..BIGINT, YEAR-like small ints). InnoDB stores them big-endian, and flips the
 * sign bit of signed ones so that byte order equals numeric order (row0mysql.cc).
 */
import type { Render } from './render.ts';

/** Reads `len` (1..6) bytes big-endian as an unsigned number. */
export function readUintBE(b: Uint8Array, o: number, len: number): number {
  let v = 0;
  for (let i = 0; i < len; i++) v = v * 256 + b[o + i];
  return v;
}

export function integerRenderer(bytes: number, unsigned: boolean): Render {
  if (bytes === 8) return unsigned ? renderUint64 : renderInt64;
  const bias = 2 ** (bytes * 8 - 1);
  if (unsigned) return (b, o) => String(readUintBE(b, o, bytes));
  return (b, o) => String(readUintBE(b, o, bytes) - bias);
}

const TWO32 = 4294967296;

function renderUint64(b: Uint8Array, o: number): string {
  const hi = readUintBE(b, o, 4);
  const lo = readUintBE(b, o + 4, 4);
  // Below 2^53 a double is exact; above it, fall back to BigInt.
  return hi < 0x200000 ? String(hi * TWO32 + lo) : String((BigInt(hi) << 32n) | BigInt(lo));
}

function renderInt64(b: Uint8Array, o: number): string {
  const hi = (readUintBE(b, o, 4) ^ 0x80000000) | 0;
  const lo = readUintBE(b, o + 4, 4);
  if (hi >= -0x200000 && hi < 0x200000) return String(hi * TWO32 + lo);
  return String((BigInt(hi) << 32n) + BigInt(lo));
}
