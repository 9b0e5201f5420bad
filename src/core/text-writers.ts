/**
 * Byte writers: the fast path from page bytes to the UTF-8 text of a cell, written straight into a
 * BatchBuilder with no intermediate string for the common types (integers, UTF-8 and latin1 text,
 * binary as hex). Every other type goes through its string renderer. Each writer produces exactly the
 * text its renderer would (a unit test holds them to it).
 */
import { charsetInfo, decoderFor } from './charset.ts';
import type { Column } from './schema.ts';
import type { BatchBuilder } from './row-batch.ts';
import { renderHex, type Render } from './types/render.ts';

export type Write = (b: Uint8Array, o: number, len: number, out: BatchBuilder) => void;

const encoder = new TextEncoder();

const INT_BYTES: Record<string, number> = { tinyint: 1, bool: 1, smallint: 2, mediumint: 3, int: 4, bigint: 8 };
const TEXT_TYPES = new Set(['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'json']);

export function writerFor(c: Column | null, render: Render): Write {
  if (render === renderHex) return writeHex;
  if (c === null) return fromRender(render);
  const intBytes = INT_BYTES[c.type];
  if (intBytes !== undefined && !c.zerofill && intBytes <= 4) return intWriter(intBytes, c.unsigned);
  if (TEXT_TYPES.has(c.type)) {
    const padded = c.type === 'char';
    if (c.charset === 'utf8mb4' || c.charset === 'utf8mb3') return utf8Writer(padded, render);
    const table = singleByteTable(c.charset);
    if (table !== null) return singleByteWriter(table, padded);
  }
  return fromRender(render);
}

/** Appends a JS string (ASCII fast, else UTF-8 encoded). */
function appendString(out: BatchBuilder, s: string): void {
  out.reserve(s.length * 3);
  const t = out.text;
  let p = out.pos;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch >= 0x80) {
      out.pos += encoder.encodeInto(s, t.subarray(out.pos)).written;
      return;
    }
    t[p++] = ch;
  }
  out.pos = p;
}


function fromRender(render: Render): Write {
  return (b, o, len, out) => appendString(out, render(b, o, len));
}

/** Decimal digits of a non-negative safe integer, written backwards from the end of a scratch area. */
function appendUint(out: BatchBuilder, v: number): void {
  out.reserve(20);
  const t = out.text;
  let digits = 1;
  for (let x = v; x >= 10; x = Math.floor(x / 10)) digits++;
  let p = out.pos + digits;
  out.pos = p;
  do {
    const q = Math.floor(v / 10);
    t[--p] = 48 + (v - q * 10);
    v = q;
  } while (v > 0);
}

function intWriter(bytes: number, unsigned: boolean): Write {
  const bias = 2 ** (bytes * 8 - 1);
  return (b, o, _len, out) => {
    let v = 0;
    for (let i = 0; i < bytes; i++) v = v * 256 + b[o + i];
    if (!unsigned) v -= bias;
    if (v < 0) {
      out.reserve(1);
      out.text[out.pos++] = 45; // '-'
      v = -v;
    }
    appendUint(out, v);
  };
}

const HEX_DIGITS = new TextEncoder().encode('0123456789ABCDEF');

const writeHex: Write = (b, o, len, out) => {
  out.reserve(2 + 2 * len);
  const t = out.text;
  let p = out.pos;
  t[p++] = 48; // 0
  t[p++] = 120; // x
  for (let i = o; i < o + len; i++) {
    t[p++] = HEX_DIGITS[b[i] >> 4];
    t[p++] = HEX_DIGITS[b[i] & 15];
  }
  out.pos = p;
};

/** CHAR values lose their trailing pad spaces, as the server shows them. */
function trimmedLength(b: Uint8Array, o: number, len: number): number {
  while (len > 0 && b[o + len - 1] === 0x20) len--;
  return len;
}

/**
 * UTF-8 text is already in output form: copied as is when it is plain ASCII; anything else goes
 * through the renderer, so invalid byte sequences become U+FFFD exactly as the string path shows them.
 */
function utf8Writer(padded: boolean, render: Render): Write {
  return (b, o, len, out) => {
    if (padded) len = trimmedLength(b, o, len);
    for (let i = o; i < o + len; i++) {
      if (b[i] >= 0x80) {
        appendString(out, render(b, o, len));
        return;
      }
    }
    out.reserve(len);
    out.text.set(b.subarray(o, o + len), out.pos);
    out.pos += len;
  };
}

const singleByteTables = new Map<string, Uint8Array[]>();

/**
 * For a single-byte charset (latin1 = Windows-1252, cp1250, koi8r, …): the UTF-8 bytes of each of the
 * 256 byte values, taken from the charset's own decoder so both paths agree.
 */
function singleByteTable(charset: string): Uint8Array[] | null {
  const decode = decoderFor(charset);
  if (decode === null || charsetInfo(charset).mbmaxlen !== 1) return null;
  let table = singleByteTables.get(charset);
  if (!table) {
    const one = new Uint8Array(1);
    table = Array.from({ length: 256 }, (_, i) => {
      one[0] = i;
      return encoder.encode(decode(one, 0, 1));
    });
    singleByteTables.set(charset, table);
  }
  return table;
}

function singleByteWriter(table: Uint8Array[], padded: boolean): Write {
  return (b, o, len, out) => {
    if (padded) len = trimmedLength(b, o, len);
    out.reserve(3 * len);
    const t = out.text;
    let p = out.pos;
    for (let i = o; i < o + len; i++) {
      const u = table[b[i]];
      if (u.length === 1) t[p++] = u[0];
      else for (let k = 0; k < u.length; k++) t[p++] = u[k];
    }
    out.pos = p;
  };
}
