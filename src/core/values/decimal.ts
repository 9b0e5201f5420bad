/**
 * DECIMAL(M,D) in MySQL's binary format (strings/decimal.cc, bin2decimal): the integer and fraction
 * parts are each split into groups of 9 digits stored in 4 bytes, with the leftover digits in 1-4
 * bytes; the first byte's top bit is flipped, and negative numbers have every byte inverted.
 */
import { pad, type Render } from './render.ts';

const DIG2BYTES = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4];

export function decimalSize(precision: number, scale: number): number {
  const intg = precision - scale;
  return Math.floor(intg / 9) * 4 + DIG2BYTES[intg % 9] + Math.floor(scale / 9) * 4 + DIG2BYTES[scale % 9];
}

/** One digit group of n bytes at p; `first` is the offset of the field's first byte (top bit flipped). */
export function decimalGroup(b: Uint8Array, p: number, n: number, mask: number, first: number): number {
  let v = 0;
  for (let i = p; i < p + n; i++) v = v * 256 + ((b[i] ^ mask ^ (i === first ? 0x80 : 0)) & 0xff);
  return v;
}

/** How DECIMAL(precision, scale) splits into groups: full 9-digit groups and the leftover bytes/digits. */
export function decimalLayout(precision: number, scale: number) {
  const intg = precision - scale;
  const fracDigits = scale % 9;
  return {
    intFull: Math.floor(intg / 9),
    intLead: DIG2BYTES[intg % 9],
    fracFull: Math.floor(scale / 9),
    fracDigits,
    fracTail: DIG2BYTES[fracDigits],
  };
}

export function decimalRenderer(precision: number, scale: number): Render {
  const { intFull, intLead, fracFull, fracDigits, fracTail } = decimalLayout(precision, scale);
  return (b, o) => {
    const mask = (b[o] & 0x80) === 0 ? 0xff : 0;
    let p = o;
    let int = '';
    if (intLead > 0) {
      const v = decimalGroup(b, p, intLead, mask, o);
      p += intLead;
      if (v !== 0) int = String(v);
    }
    for (let i = 0; i < intFull; i++, p += 4) {
      const v = decimalGroup(b, p, 4, mask, o);
      int = int === '' ? (v === 0 ? '' : String(v)) : int + pad(v, 9);
    }
    let frac = '';
    for (let i = 0; i < fracFull; i++, p += 4) frac += pad(decimalGroup(b, p, 4, mask, o), 9);
    if (fracTail > 0) frac += pad(decimalGroup(b, p, fracTail, mask, o), fracDigits);
    return (mask ? '-' : '') + (int || '0') + (scale > 0 ? '.' + frac : '');
  };
}
