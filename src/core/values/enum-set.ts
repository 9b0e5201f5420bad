/**
 * ENUM and SET. The server hands InnoDB their integer codes, stored as unsigned big-endian integers:
 * an ENUM's 1-based member number (0 for the "invalid value" empty string), a SET's member bitmap.
 */
import { readUintBE } from './integer.ts';
import type { Render } from './render.ts';

/** 1 byte for up to 255 members, else 2. */
export function enumSize(members: number): number {
  return members < 256 ? 1 : 2;
}

/** (members+7)/8 bytes, with 5..8 rounded up to 8 (Field_set::pack_length). */
export function setSize(members: number): number {
  const len = (members + 7) >> 3;
  return len > 4 ? 8 : len;
}

export function enumRenderer(values: readonly string[]): Render {
  return (b, o, len) => {
    const n = readUintBE(b, o, len);
    return n === 0 ? '' : (values[n - 1] ?? '');
  };
}

export function setRenderer(values: readonly string[]): Render {
  return (b, o, len) => {
    let s = '';
    // The lowest bit is the first member; the last stored byte holds the lowest bits.
    for (let i = 0; i < values.length; i++) {
      const byte = b[o + len - 1 - (i >> 3)];
      if (byte & (1 << (i & 7))) s = s === '' ? values[i] : s + ',' + values[i];
    }
    return s;
  };
}
