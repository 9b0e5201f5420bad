/**
 * A MySQL binary JSON writer for tests, written from json_binary.h (the small form when every offset
 * fits in 16 bits, else the large one; literals and 16-bit integers inlined, 32-bit ones too in the
 * large form; object keys sorted by length, then bytes), the text the server prints for each value,
 * and random values to feed them.
 */

export type J = null | boolean | number | bigint | string | J[] | { [k: string]: J } | { double: number };

/** A writer that follows json_binary.h: picks the small form when every offset fits in 16 bits. */
export class Encoder {
  document(v: J): Uint8Array {
    const [type, bytes] = this.value(v);
    return Uint8Array.from([type, ...bytes]);
  }

  private le(v: number | bigint, n: number): number[] {
    let x = BigInt(v);
    const r: number[] = [];
    for (let i = 0; i < n; i++, x >>= 8n) r.push(Number(x & 0xffn));
    return r;
  }

  private varLen(n: number): number[] {
    const r: number[] = [];
    do {
      r.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
      n >>= 7;
    } while (n > 0);
    return r;
  }

  value(v: J): [number, number[]] {
    if (v === null) return [0x04, [0]];
    if (v === true) return [0x04, [1]];
    if (v === false) return [0x04, [2]];
    if (typeof v === 'bigint') return v < 0n ? [0x09, this.le(v, 8)] : [0x0a, this.le(v, 8)];
    if (typeof v === 'number') {
      if (v >= -32768 && v <= 32767) return [0x05, this.le(v, 2)];
      if (v >= 0 && v <= 65535) return [0x06, this.le(v, 2)];
      if (v >= -(2 ** 31) && v < 2 ** 31) return [0x07, this.le(v, 4)];
      if (v >= 0 && v < 2 ** 32) return [0x08, this.le(v, 4)];
      return [0x09, this.le(BigInt(v), 8)];
    }
    if (typeof v === 'string') {
      const b = [...new TextEncoder().encode(v)];
      return [0x0c, [...this.varLen(b.length), ...b]];
    }
    if (Array.isArray(v)) return this.container(v.map((x) => ['', x]), false);
    if ('double' in v && typeof v.double === 'number') {
      const b = new Uint8Array(8);
      new DataView(b.buffer).setFloat64(0, v.double, true);
      return [0x0b, [...b]];
    }
    const keys = Object.keys(v).sort((a, b) => byteLength(a) - byteLength(b) || (a < b ? -1 : a > b ? 1 : 0));
    return this.container(keys.map((k) => [k, (v as Record<string, J>)[k]]), true);
  }

  private container(entries: [string, J][], isObject: boolean): [number, number[]] {
    const small = this.layout(entries, isObject, false);
    return small ?? this.layout(entries, isObject, true)!;
  }

  private layout(entries: [string, J][], isObject: boolean, large: boolean): [number, number[]] | null {
    const w = large ? 4 : 2;
    const max = large ? 2 ** 32 : 2 ** 16;
    const header = 2 * w + (isObject ? entries.length * (w + 2) : 0) + entries.length * (1 + w);
    const keys = entries.map(([k]) => [...new TextEncoder().encode(k)]);
    let offset = header + keys.reduce((n, k) => n + k.length, 0);
    const keyEntries: number[] = [];
    let keyOffset = header;
    for (const k of keys) {
      keyEntries.push(...this.le(keyOffset, w), ...this.le(k.length, 2));
      keyOffset += k.length;
    }
    const valueEntries: number[] = [];
    const values: number[] = [];
    for (const [, v] of entries) {
      const [type, b] = this.value(v);
      const inline = type === 0x04 || type === 0x05 || type === 0x06 || (large && (type === 0x07 || type === 0x08));
      if (inline) valueEntries.push(type, ...b, ...new Array<number>(w - b.length).fill(0));
      else {
        valueEntries.push(type, ...this.le(offset, w));
        values.push(...b);
        offset += b.length;
      }
    }
    if (offset >= max) return null;
    const body = [...this.le(entries.length, w), ...this.le(offset, w), ...(isObject ? keyEntries : []), ...valueEntries, ...keys.flat(), ...values];
    return [(isObject ? 0x00 : 0x02) | (large ? 1 : 0), body];
  }
}

function byteLength(s: string): number {
  return new TextEncoder().encode(s).length;
}

/** How the server prints a value (Json_wrapper::to_string), for the generator's values. */
export function expected(v: J): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean' || typeof v === 'bigint' || typeof v === 'number') return String(v);
  if (typeof v === 'string') return JSON.stringify(v).replace(/\\u00([0-9A-F]{2})/gi, (_m, h: string) => `\\u00${h.toLowerCase()}`);
  if (Array.isArray(v)) return `[${v.map(expected).join(', ')}]`;
  if ('double' in v && typeof v.double === 'number') return DOUBLES.get(v.double) ?? '';
  const keys = Object.keys(v).sort((a, b) => byteLength(a) - byteLength(b) || (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}: ${expected((v as Record<string, J>)[k])}`).join(', ')}}`;
}

/** Doubles and how my_gcvt prints them (plain notation for exponents -14..15), ".0" added to integral ones. */
const DOUBLES = new Map<number, string>([[1, '1.0'], [-2.5, '-2.5'], [0.1, '0.1'], [1e300, '1e300'], [1.5e-7, '0.00000015'], [1e-20, '1e-20'], [123456789012345680000, '1.2345678901234568e20'], [3.14159, '3.14159']]);

export function randomValue(r: () => number, depth: number): J {
  const x = r();
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  if (depth > 3 || x < 0.5) {
    return pick<() => J>([
      () => null, () => true, () => false,
      () => Math.floor(r() * 65536) - 32768, () => Math.floor(r() * 2 ** 32) - 2 ** 31, () => Math.floor(r() * 2 ** 32),
      () => BigInt(Math.floor(r() * 2 ** 53)) * 1000n, () => -BigInt(Math.floor(r() * 2 ** 53)) * 1000n,
      () => ({ double: pick([...DOUBLES.keys()]) }),
      () => pick(['', 'abc', 'é😀', 'quote " and \\', 'line\nbreak\ttab\u0001', 'x'.repeat(200), '中文']),
    ])();
  }
  const n = Math.floor(r() * 6);
  if (x < 0.75) return Array.from({ length: n }, () => randomValue(r, depth + 1));
  const o: Record<string, J> = {};
  for (let i = 0; i < n; i++) o[pick(['a', 'b', 'key', 'long key name', 'é', 'ab', String(i)])] = randomValue(r, depth + 1);
  return o;
}

