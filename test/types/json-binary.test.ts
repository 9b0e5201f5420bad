/**
 * MySQL's binary JSON (json_binary.h), which no MariaDB can write: hand-assembled documents from the
 * documented layout, and random documents written by a small encoder that follows the same layout
 * (small and large forms, inlined scalars, keys sorted by length then bytes as the server sorts them),
 * each checked against the text the server's SELECT prints.
 */
import { describe, expect, it } from 'vitest';
import { jsonBinaryToText, jsonRenderer } from '../../src/core/values/json-binary.ts';
import { textRenderer } from '../../src/core/values/string.ts';
import { rng } from '../differential/random-data.ts';
import { Encoder, expected, randomValue, type J } from './json-encoder.ts';

const bytes = (hex: string) => Uint8Array.from((hex.replace(/\s+/g, '').match(/../g) ?? []).map((h) => parseInt(h, 16)));
const text = (hex: string) => {
  const b = bytes(hex);
  return jsonBinaryToText(b, 0, b.length);
};

describe('binary JSON documents assembled by hand', () => {
  it('scalars', () => {
    expect(text('04 00')).toBe('null');
    expect(text('04 01')).toBe('true');
    expect(text('04 02')).toBe('false');
    expect(text('05 85 ff')).toBe('-123');
    expect(text('06 ff ff')).toBe('65535');
    expect(text('07 00 00 00 80')).toBe('-2147483648');
    expect(text('08 ff ff ff ff')).toBe('4294967295');
    expect(text('09 00 00 00 00 00 00 00 80')).toBe('-9223372036854775808');
    expect(text('0a ff ff ff ff ff ff ff ff')).toBe('18446744073709551615');
    expect(text('0b 00 00 00 00 00 00 f8 3f')).toBe('1.5');
    expect(text('0b 00 00 00 00 00 00 f0 3f')).toBe('1.0');
    expect(text('0b 00 00 00 00 00 00 59 c0')).toBe('-100.0');
    expect(text('0b 9a 99 99 99 99 99 b9 3f')).toBe('0.1');
    expect(text('0b 00 00 00 00 00 00 00 00')).toBe('0.0');
    expect(text('0c 03 61 62 63')).toBe('"abc"');
    expect(text('0c 00')).toBe('""');
  });

  it('strings are escaped like double_quote(): quote, backslash, named and \\u00XX controls', () => {
    expect(text('0c 08 22 5c 0a 09 01 1f c3 a9')).toBe('"\\"\\\\\\n\\t\\u0001\\u001fé"');
    expect(text('0c 04 f0 9f 98 80')).toBe('"😀"');
  });

  it('a string longer than 127 bytes has a 2-byte length', () => {
    expect(text('0c 80 01' + '61'.repeat(128))).toBe(`"${'a'.repeat(128)}"`);
  });

  it('{"a": 1}: a small object with an inlined INT16', () => {
    // count 1, size 12, key entry (offset 11, length 1), value entry (INT16, 1), key "a"
    expect(text('00 0100 0c00 0b00 0100 05 0100 61')).toBe('{"a": 1}');
  });

  it('[true, "x", 70000]: a small array with an inlined literal, a string and an INT32 by offset', () => {
    // count 3, size 2+2+9+2+4 = 19; entries at 4..12; "x" at 13 (len 1 + 1 byte), int32 at 15
    expect(text('02 0300 1300 04 0100 0c 0d00 07 0f00 01 78 70110100')).toBe('[true, "x", 70000]');
  });

  it('a large object: 4-byte counts and offsets, INT32 inlined', () => {
    // count 1, size 4+4+6+5+1 = 20; key at 19, INT32 -5 inlined
    expect(text('01 01000000 14000000 13000000 0100 07 fbffffff 6b')).toBe('{"k": -5}');
  });

  it('nested containers and the empty ones', () => {
    expect(text('02 0000 0400')).toBe('[]');
    expect(text('00 0000 0400')).toBe('{}');
    // {"a": []}: key at 11, the array (4 bytes) at 12
    expect(text('00 0100 1000 0b00 0100 02 0c00 61 0000 0400')).toBe('{"a": []}');
  });

  it('opaque values: DECIMAL as a number, dates and times quoted with 6 fractional digits, others as base64', () => {
    // DECIMAL(4,2) 12.50: precision 4, scale 2, bin 0x8c 0x32
    expect(text('0f f6 04 04 02 8c 32')).toBe('12.50');
    expect(text('0f f6 04 04 02 73 cd')).toBe('-12.50');
    const packed = (v: bigint) => {
      const b = new Uint8Array(8);
      new DataView(b.buffer).setBigInt64(0, v, true);
      return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
    };
    // DATETIME 2015-01-15 23:24:25.5 (TIME_to_longlong_datetime_packed)
    const ymd = (2015n * 13n + 1n) * 32n + 15n;
    const hms = (23n << 12n) | (24n << 6n) | 25n;
    const datetime = (((ymd << 17n) | hms) << 24n) + 500000n;
    expect(text(`0f 0c 08 ${packed(datetime)}`)).toBe('"2015-01-15 23:24:25.500000"');
    expect(text(`0f 07 08 ${packed(datetime)}`)).toBe('"2015-01-15 23:24:25.500000"');
    expect(text(`0f 0a 08 ${packed((ymd << 17n) << 24n)}`)).toBe('"2015-01-15"');
    const time = ((100n << 12n) | (2n << 6n) | 3n) << 24n;
    expect(text(`0f 0b 08 ${packed(time + 7n)}`)).toBe('"100:02:03.000007"');
    expect(text(`0f 0b 08 ${packed(-(time + 7n))}`)).toBe('"-100:02:03.000007"');
    expect(text('0f fc 03 61 62 63')).toBe('"base64:type252:YWJj"');
    expect(text('0f fc 01 ff')).toBe('"base64:type252:/w=="');
  });
});

describe('malformed documents are reported, not printed', () => {
  it.each([
    ['an unknown type', '0e 00'],
    ['a truncated integer', '07 01 00'],
    ['a scalar with trailing bytes', '05 01 00 00'],
    ['a container whose size disagrees with the column', '02 0000 0500'],
    ['a value offset past the end', '02 0100 0700 0c 2000'],
    ['a string running past the end', '0c 05 61'],
  ])('%s', (_what, hex) => {
    expect(() => text(hex)).toThrow();
    const b = bytes(hex);
    expect(jsonRenderer(textRenderer('utf8mb4', false))(b, 0, b.length)).toMatch(/^\[unreadable JSON: /);
  });
});

describe('the JSON column renderer', () => {
  const render = jsonRenderer(textRenderer('utf8mb4', false));
  const of = (s: string | Uint8Array) => {
    const b = typeof s === 'string' ? new TextEncoder().encode(s) : s;
    return render(b, 0, b.length);
  };
  it('keeps MariaDB text JSON as written, blank space in front included', () => {
    expect(of('{"a":1,  "b" : [true]}')).toBe('{"a":1,  "b" : [true]}');
    expect(of('\n  [1]')).toBe('\n  [1]');
    expect(of('\t"x"')).toBe('\t"x"');
    expect(of('"é"')).toBe('"é"');
  });
  it('decodes MySQL binary JSON', () => {
    expect(of(bytes('00 0100 0c00 0b00 0100 05 0100 61'))).toBe('{"a": 1}');
  });
});

describe('random documents from a layout-following encoder', () => {
  it('print as the server prints them, in small and large forms', () => {
    const r = rng(42);
    const encoder = new Encoder();
    for (let i = 0; i < 2000; i++) {
      const v = randomValue(r, 0);
      const doc = encoder.document(v);
      expect(jsonBinaryToText(doc, 0, doc.length), JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? String(x) : x))).toBe(expected(v));
    }
  });

  it('a document over 64 KB takes the large form', () => {
    const v: J = { big: 'y'.repeat(70000), list: [1, 2, 70000] };
    const doc = new Encoder().document(v);
    expect(doc[0]).toBe(0x01);
    expect(jsonBinaryToText(doc, 0, doc.length)).toBe(expected(v));
  });
});
