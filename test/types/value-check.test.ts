/**
 * The value checks of every column type (src/core/types/value-check*.ts) on hand-made stored bytes:
 * the edge values of each type pass, and each kind of damage fails with its reason.
 */
import { describe, expect, it } from 'vitest';
import { clusteredLayout } from '../../src/core/records/clustered-index.ts';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import type { Column, ColumnType } from '../../src/core/schema.ts';
import { valueCheckFor } from '../../src/core/values/value-check.ts';

function column(type: ColumnType, extra: Partial<Column> = {}): Column {
  return {
    name: 'c', type, unsigned: false, zerofill: false, nullable: true, length: 0, precision: 0, scale: 0, fsp: 0,
    charset: 'binary', collation: '', values: [], generated: null, invisible: false, defaultSql: null, comment: '', legacyTemporal: false, ...extra,
  };
}

const hex = (h: string): Uint8Array => Uint8Array.from((h.replace(/\s/g, '').match(/../g) ?? []).map((x) => parseInt(x, 16)));
const be = (v: number | bigint, n: number): number[] => Array.from({ length: n }, (_, i) => Number((BigInt(v) >> BigInt(8 * (n - 1 - i))) & 0xffn));

/** The check's verdict on `bytes`, placed at an offset inside a larger buffer as on a page. */
function verdict(c: Column, bytes: ArrayLike<number>, redundant = false): string | null {
  const check = valueCheckFor(c, redundant);
  if (check === null) return null;
  const page = new Uint8Array(bytes.length + 16).fill(0xee);
  page.set(bytes, 7);
  return check(page, 7, bytes.length);
}

const date = (y: number, m: number, d: number): number[] => be(((y * 16 + m) * 32 + d) | 0x800000, 3);

/** DATETIME(fsp) in the 5.6+ format, with `frac` in the fraction's own units. */
function datetime(y: number, mo: number, d: number, h: number, mi: number, s: number, fsp = 0, frac = 0): number[] {
  const ymd = BigInt(((y * 13 + mo) << 5) | d);
  const v = ((ymd << 17n) | BigInt((h << 12) | (mi << 6) | s)) + (1n << 39n);
  return [...be(v, 5), ...be(frac, (fsp + 1) >> 1)];
}

/** TIME(fsp) in the 5.6+ format (temporal.ts), from its packed value hms * 2^24 + microseconds. */
function time(negative: boolean, h: number, mi: number, s: number, micros: number, fsp: number): number[] {
  const packed = (BigInt((h << 12) | (mi << 6) | s) << 24n) + BigInt(micros);
  const signed = negative ? -packed : packed;
  const bytes = (fsp + 1) >> 1;
  if (bytes === 3) return be(signed + (0x800000n << 24n), 6);
  const intPart = signed >> 24n; // floor, as MY_PACKED_TIME_GET_INT_PART
  const fracPart = signed - (signed >> 24n << 24n) - (signed < 0n && signed % (1n << 24n) !== 0n ? 1n << 24n : 0n); // C remainder
  const units = Number(fracPart) / (bytes === 1 ? 10000 : 100);
  return [...be(intPart + 0x800000n, 3), ...(bytes === 0 ? [] : be((units + 256 ** bytes) % 256 ** bytes, bytes))];
}

describe('temporal types (5.6+ formats)', () => {
  it('DATE: zero dates and zero parts pass; year and month are bounded', () => {
    const c = column('date');
    for (const d of [date(0, 0, 0), date(2024, 0, 15), date(9999, 12, 31), date(1000, 1, 1)]) expect(verdict(c, d)).toBeNull();
    expect(verdict(c, date(2024, 14, 1))).toBe('month 14');
    expect(verdict(c, date(12000, 1, 1))).toBe('year 12000');
    // A clear sign bit reads as a year of 16384 or more.
    expect(verdict(c, [0x00, 0x00, 0x00])).toBe('year 16384');
    expect(verdict(c, [0x80, 0x00], true)).toBe('2 bytes, not 3');
  });

  it('DATETIME(fsp): fields, sign bit, fraction units and the unused digit of odd fsp', () => {
    const c = (fsp: number) => column('datetime', { fsp });
    expect(verdict(c(0), datetime(0, 0, 0, 0, 0, 0))).toBeNull();
    expect(verdict(c(0), datetime(9999, 12, 31, 23, 59, 59))).toBeNull();
    expect(verdict(c(6), datetime(9999, 12, 31, 23, 59, 59, 6, 999999))).toBeNull();
    expect(verdict(c(1), datetime(2024, 1, 1, 0, 0, 0, 1, 90))).toBeNull();
    expect(verdict(c(3), datetime(2024, 1, 1, 0, 0, 0, 3, 9990))).toBeNull();
    expect(verdict(c(5), datetime(2024, 1, 1, 0, 0, 0, 5, 999990))).toBeNull();
    expect(verdict(c(0), datetime(2024, 1, 1, 24, 0, 0))).toBe('hour 24');
    expect(verdict(c(0), datetime(2024, 1, 1, 1, 60, 0))).toBe('minute 60');
    expect(verdict(c(0), datetime(2024, 1, 1, 1, 0, 63))).toBe('second 63');
    expect(verdict(c(0), datetime(10082, 0, 0, 0, 0, 0))).toBe('year 10082');
    expect(verdict(c(0), [0x0f, 0, 0, 0, 0])).toBe('sign bit clear');
    expect(verdict(c(2), datetime(2024, 1, 1, 0, 0, 0, 2, 100))).toBe('fraction 100 ≥ 100');
    expect(verdict(c(1), datetime(2024, 1, 1, 0, 0, 0, 1, 91))).toBe('fraction 91 has a digit beyond fsp 1');
    expect(verdict(c(4), datetime(2024, 1, 1, 0, 0, 0, 4, 10000))).toBe('fraction 10000 ≥ 10000');
    expect(verdict(c(6), datetime(2024, 1, 1, 0, 0, 0, 6, 1000000))).toBe('fraction 1000000 ≥ 1000000');
  });

  it('DATETIME in a REDUNDANT record: 8 bytes are MySQL 5.5\'s format', () => {
    const c = column('datetime');
    const v55 = (n: bigint) => be(n + (1n << 63n), 8);
    expect(verdict(c, v55(20240229130500n), true)).toBeNull();
    expect(verdict(c, v55(0n), true)).toBeNull();
    expect(verdict(c, v55(20241329130500n), true)).toBe('month 13');
    expect(verdict(c, v55(20240229250500n), true)).toBe('hour 25');
    expect(verdict(c, datetime(2024, 2, 29, 13, 5, 0), true)).toBeNull();
    expect(verdict(c, [1, 2, 3, 4, 5, 6], true)).toBe('6 bytes, not 5');
  });

  it('TIMESTAMP(fsp): any seconds (to 2106), only the fraction is checked', () => {
    expect(valueCheckFor(column('timestamp'), false)).toBeNull();
    expect(verdict(column('timestamp'), [0xff, 0xff, 0xff, 0xff], true)).toBeNull();
    expect(verdict(column('timestamp', { fsp: 3 }), [0xff, 0xff, 0xff, 0xff, ...be(9990, 2)])).toBeNull();
    expect(verdict(column('timestamp', { fsp: 3 }), [0, 0, 0, 1, ...be(9991, 2)])).toBe('fraction 9991 has a digit beyond fsp 3');
    expect(verdict(column('timestamp', { fsp: 6 }), [0, 0, 0, 1, ...be(1000000, 3)])).toBe('fraction 1000000 ≥ 1000000');
  });

  it('TIME(fsp): ±838:59:59 with every fsp, negative fractions borrowed', () => {
    for (let fsp = 0; fsp <= 6; fsp++) {
      const c = column('time', { fsp });
      const unit = 10 ** (6 - fsp);
      const micros = fsp === 0 ? 0 : 999999 - (999999 % unit);
      for (const negative of [false, true]) {
        expect(verdict(c, time(negative, 838, 59, 59, micros, fsp)), `fsp ${fsp}`).toBeNull();
        expect(verdict(c, time(negative, 0, 0, 0, fsp === 0 ? 0 : unit, fsp)), `fsp ${fsp}`).toBeNull();
        expect(verdict(c, time(negative, 839, 0, 0, 0, fsp)), `fsp ${fsp}`).toBe('hour 839');
        expect(verdict(c, time(negative, 1, 60, 0, 0, fsp)), `fsp ${fsp}`).toBe('minute 60');
        expect(verdict(c, time(negative, 1, 0, 60, 0, fsp)), `fsp ${fsp}`).toBe('second 60');
      }
    }
    // A 1-byte fraction of 100 hundredths (positive), or a borrowed one of 256 - 100 (negative).
    expect(verdict(column('time', { fsp: 2 }), [...be(0x800001, 3), 100])).toBe('fraction 100 ≥ 100');
    expect(verdict(column('time', { fsp: 2 }), [...be(0x800000 - 2, 3), 156])).toBe('fraction 100 ≥ 100');
    expect(verdict(column('time', { fsp: 1 }), [...be(0x800001, 3), 15])).toBe('fraction 15 has a digit beyond fsp 1');
  });

  it('YEAR: every byte is a year', () => {
    expect(valueCheckFor(column('year'), false)).toBeNull();
    expect(verdict(column('year'), [0xff], true)).toBeNull();
    expect(verdict(column('year'), [1, 2], true)).toBe('2 bytes, not 1');
  });
});

describe('temporal types (pre-5.6 formats)', () => {
  const legacy = (type: ColumnType, fsp: number) => column(type, { fsp, legacyTemporal: true });

  it('MySQL 5.5 TIME and DATETIME: decimal-packed fields', () => {
    expect(verdict(legacy('time', 0), be(0x800000 + 8385959, 3))).toBeNull();
    expect(verdict(legacy('time', 0), be(0x800000 - 8385959, 3))).toBeNull();
    expect(verdict(legacy('time', 0), be(0x800000 + 8386000, 3))).toBe('minute 60');
    expect(verdict(legacy('time', 0), be(0x800000 + 126000, 3))).toBe('minute 60');
    expect(verdict(legacy('datetime', 0), be(99991231235959n + (1n << 63n), 8))).toBeNull();
    expect(verdict(legacy('datetime', 0), be(20240132000000n + (1n << 63n), 8))).toBe('day 32');
    expect(verdict(legacy('datetime', 0), be(20240131000000n, 8))).toBe('sign bit clear');
  });

  it('MariaDB 5.3 TIME(fsp), DATETIME(fsp), TIMESTAMP(fsp)', () => {
    const zero = 3020400;
    expect(verdict(legacy('time', 3), be(zero * 1000 + 3020399999, 5))).toBeNull();
    expect(verdict(legacy('time', 3), be(1, 5))).toBeNull();
    expect(verdict(legacy('time', 3), be(0, 5))).toBe('hour 839');
    expect(verdict(legacy('time', 3), be(2 * zero * 1000, 5))).toBe('hour 839');
    const packed = (y: number, mo: number, d: number, fsp: number, units: number) => BigInt(((y * 13 + mo) * 32 + d) * 86400) * 10n ** BigInt(fsp) + BigInt(units);
    expect(verdict(legacy('datetime', 6), be(packed(9999, 12, 31, 6, 86399999999), 8))).toBeNull();
    expect(verdict(legacy('datetime', 6), be(packed(10000, 0, 0, 6, 0), 8))).toBe('year 10000');
    expect(verdict(legacy('datetime', 2), be(packed(0, 0, 0, 2, 0), 6))).toBeNull();
    expect(verdict(legacy('timestamp', 2), [0, 0, 0, 1, 99])).toBeNull();
    expect(verdict(legacy('timestamp', 1), [0, 0, 0, 1, 10])).toBe('fraction 10 ≥ 10');
  });
});

describe('DECIMAL', () => {
  const c = column('decimal', { precision: 15, scale: 2 });
  // DECIMAL(15,2): 4 leading digits in 2 bytes, one 9-digit group, 2 fraction digits in 1 byte.
  const positive = (lead: number, group: number, frac: number) => [...be(lead, 2), ...be(group, 4), frac].map((x, i) => (i === 0 ? x ^ 0x80 : x));
  const negative = (lead: number, group: number, frac: number) => positive(lead, group, frac).map((x) => x ^ 0xff);

  it('the largest and smallest values and zero pass', () => {
    expect(verdict(c, positive(9999, 999999999, 99))).toBeNull();
    expect(verdict(c, negative(9999, 999999999, 99))).toBeNull();
    expect(verdict(c, positive(0, 0, 0))).toBeNull();
    // DECIMAL(65,30): 8 leading digits in 4 bytes, 3 + 3 groups of 9, 3 fraction digits in 2 bytes.
    const d65 = column('decimal', { precision: 65, scale: 30 });
    const max65 = [...be(99999999, 4), ...new Array<number[]>(6).fill(be(999999999, 4)).flat(), ...be(999, 2)].map((x, i) => (i === 0 ? x ^ 0x80 : x));
    expect(verdict(d65, max65)).toBeNull();
    expect(verdict(d65, max65.map((x) => x ^ 0xff))).toBeNull();
    expect(verdict(d65, [0x80, ...new Array<number>(29).fill(0)])).toBeNull();
  });

  it('a group of 10 digits, a leading group past M−D digits, a flipped sign bit', () => {
    expect(verdict(c, positive(0, 1200000000, 0))).toBe('digit group 1200000000 ≥ 10^9');
    expect(verdict(c, negative(0, 1000000000, 0))).toBe('digit group 1000000000 ≥ 10^9');
    expect(verdict(c, positive(10000, 0, 0))).toBe('digit group 10000 ≥ 10^4');
    expect(verdict(c, positive(0, 0, 100))).toBe('digit group 100 ≥ 10^2');
    // 1.00 with its sign bit cleared reads as a negative value whose every group is inverted.
    expect(verdict(c, positive(0, 1, 0).map((x, i) => (i === 0 ? x & 0x7f : x)))).toBe('digit group 32767 ≥ 10^4');
  });
});

describe('ENUM, SET, BIT', () => {
  it('ENUM: 0 (the invalid value \'\') to the member count', () => {
    const c = column('enum', { values: ['a', 'b', 'c'] });
    for (const n of [0, 1, 3]) expect(verdict(c, [n])).toBeNull();
    expect(verdict(c, [4])).toBe('member 4 of 3');
    const big = column('enum', { values: Array.from({ length: 300 }, (_, i) => `e${i}`) });
    expect(verdict(big, be(300, 2))).toBeNull();
    expect(verdict(big, be(301, 2))).toBe('member 301 of 300');
    expect(valueCheckFor(column('enum', { values: Array.from({ length: 255 }, (_, i) => `e${i}`) }), false)).toBeNull();
  });

  it('SET: no bit at or above the member count', () => {
    const c = column('set', { values: ['a', 'b', 'c'] });
    expect(verdict(c, [7])).toBeNull();
    expect(verdict(c, [8])).toBe('a member bit at or above 3 is set');
    const s33 = column('set', { values: Array.from({ length: 33 }, (_, i) => `x${i}`) });
    expect(verdict(s33, [0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff])).toBeNull();
    expect(verdict(s33, [0, 0, 0, 2, 0, 0, 0, 0])).toBe('a member bit at or above 33 is set');
    expect(verdict(s33, [0x80, 0, 0, 0, 0, 0, 0, 0])).toBe('a member bit at or above 33 is set');
    expect(valueCheckFor(column('set', { values: Array.from({ length: 64 }, (_, i) => `s${i}`) }), false)).toBeNull();
  });

  it('BIT(n): (n+7)/8 bytes, nothing above bit n', () => {
    expect(verdict(column('bit', { length: 17 }), [1, 0xff, 0xff])).toBeNull();
    expect(verdict(column('bit', { length: 17 }), [2, 0, 0])).toBe('a bit above bit 17 is set');
    expect(verdict(column('bit', { length: 1 }), [1])).toBeNull();
    expect(verdict(column('bit', { length: 1 }), [3])).toBe('a bit above bit 1 is set');
    expect(valueCheckFor(column('bit', { length: 64 }), false)).toBeNull();
    expect(verdict(column('bit', { length: 64 }), [1, 2, 3], true)).toBe('3 bytes, not 8');
  });
});

describe('FLOAT, DOUBLE, VECTOR', () => {
  const f32 = (x: number) => Array.from(new Uint8Array(new Float32Array([x]).buffer));
  const f64 = (x: number) => Array.from(new Uint8Array(new Float64Array([x]).buffer));

  it('finite values pass, NaN and ±Infinity do not', () => {
    for (const x of [0, -0, 1.5, -3.4e38, 1e-45]) expect(verdict(column('float'), f32(x))).toBeNull();
    for (const x of [0, Number.MAX_VALUE, -Number.MIN_VALUE]) expect(verdict(column('double'), f64(x))).toBeNull();
    for (const x of [NaN, Infinity, -Infinity]) {
      expect(verdict(column('float'), f32(x))).toBe('not a finite float');
      expect(verdict(column('double'), f64(x))).toBe('not a finite double');
    }
  });

  it('VECTOR(n): whole float32s, at most n of them, all finite', () => {
    const c = column('vector', { length: 3 });
    expect(verdict(c, [...f32(1), ...f32(-2), ...f32(3)])).toBeNull();
    expect(verdict(c, [...f32(1), ...f32(NaN)])).toBe('dimension 1 is not a finite float');
    expect(verdict(c, [1, 2, 3])).toBe('3 bytes, not whole float32s');
    expect(verdict(c, new Array<number>(16).fill(0))).toBe('4 dimensions, more than 3');
  });
});

describe('text', () => {
  const text = (type: ColumnType, charset: string, length = 0) => column(type, { charset, length });
  const utf8 = (s: string) => Array.from(new TextEncoder().encode(s));

  it('utf8mb4 and utf8mb3: well-formed sequences; utf8mb3 has no 4-byte ones', () => {
    const mb4 = text('varchar', 'utf8mb4', 20);
    const mb3 = text('varchar', 'utf8mb3', 20);
    for (const s of ['', 'plain ascii text', 'é日本ß€', '\u07ff\uffff']) {
      expect(verdict(mb4, utf8(s))).toBeNull();
      expect(verdict(mb3, utf8(s))).toBeNull();
    }
    expect(verdict(mb4, utf8('a😀'))).toBeNull();
    expect(verdict(mb3, utf8('a😀'))).toBe('invalid utf8mb3 at byte 1');
    // Encoded surrogates: the server stores them.
    expect(verdict(mb4, [0xed, 0xa0, 0x80])).toBeNull();
    const bad: [number[], number][] = [[[0x80], 0], [[0x61, 0xc1, 0xbf], 1], [[0xe0, 0x9f, 0x80], 0], [[0xf0, 0x8f, 0x80, 0x80], 0], [[0xf4, 0x90, 0x80, 0x80], 0], [[0x61, 0x62, 0xe6, 0x97], 2], [[0xc3, 0x41], 0], [[0xf5, 0x80, 0x80, 0x80], 0]];
    for (const [bytes, at] of bad) expect(verdict(mb4, bytes), JSON.stringify(bytes)).toBe(`invalid utf8mb4 at byte ${at}`);
    // Past 8 bytes of ASCII (the fast skip) the sequences are still read.
    expect(verdict(mb4, [...utf8('abcdefghijk'), 0xff])).toBe('invalid utf8mb4 at byte 11');
  });

  it('lengths: VARCHAR(n) ≤ n × mbmaxlen, CHAR(n) between n × mbminlen and n × mbmaxlen in COMPACT, n × mbmaxlen in REDUNDANT', () => {
    expect(verdict(text('varchar', 'utf8mb4', 10), new Array<number>(40).fill(0x61))).toBeNull();
    expect(verdict(text('varchar', 'utf8mb4', 10), new Array<number>(300).fill(0x61))).toBe('300 bytes, more than the 40 of varchar(10)');
    expect(verdict(text('varchar', 'latin1', 10), new Array<number>(11).fill(0xe9))).toBe('11 bytes, more than the 10 of varchar(10)');
    expect(verdict(text('char', 'utf8mb4', 5), utf8('abcde'))).toBeNull();
    expect(verdict(text('char', 'utf8mb4', 5), utf8('abcd'))).toBe('4 bytes, fewer than the 5 of char(5)');
    expect(verdict(text('char', 'utf8mb4', 5), utf8('abcd'.padEnd(20)), true)).toBeNull();
    expect(verdict(text('char', 'utf8mb4', 5), utf8('abcde'), true)).toBe('5 bytes, fewer than the 20 of char(5)');
    expect(verdict(text('char', 'latin1', 3), [0x61, 0x62], true)).toBe('2 bytes, fewer than the 3 of char(3)');
    // A fixed-length CHAR of a single-byte charset has its length by the COMPACT layout: no check.
    expect(valueCheckFor(text('char', 'latin1', 3), false)).toBeNull();
    expect(valueCheckFor(text('char', 'binary', 3), false)).toBeNull();
    // ... unless it is over 768 bytes, which InnoDB lays out as variable-length.
    expect(verdict(text('char', 'utf32', 255), new Array<number>(1016).fill(0))).toBe('1016 bytes, fewer than the 1020 of char(255)');
    expect(verdict(text('tinytext', 'latin1'), new Array<number>(256).fill(0x61))).toBe('256 bytes, more than the 255 of tinytext');
    expect(verdict(text('text', 'utf8mb4'), new Array<number>(3000).fill(0x61))).toBeNull();
  });

  it('ucs2, utf16, utf16le, utf32: whole code units, surrogates paired (utf16)', () => {
    expect(verdict(text('varchar', 'ucs2', 4), hex('0041d800'))).toBeNull();
    expect(verdict(text('varchar', 'ucs2', 4), hex('004100'))).toBe('3 bytes, not whole ucs2 characters');
    expect(verdict(text('varchar', 'utf16', 4), hex('0041d83dde00'))).toBeNull();
    expect(verdict(text('varchar', 'utf16', 4), hex('0041d83d0041'))).toBe('invalid utf16 at byte 2');
    expect(verdict(text('varchar', 'utf16', 4), hex('de00'))).toBe('invalid utf16 at byte 0');
    expect(verdict(text('varchar', 'utf16', 4), hex('d83d'))).toBe('invalid utf16 at byte 0');
    expect(verdict(text('varchar', 'utf16le', 4), hex('3dd800de'))).toBeNull();
    expect(verdict(text('varchar', 'utf16le', 4), hex('00de'))).toBe('invalid utf16le at byte 0');
    expect(verdict(text('varchar', 'utf32', 4), hex('0010ffff0000d800'))).toBeNull();
    expect(verdict(text('varchar', 'utf32', 4), hex('00110000'))).toBe('invalid utf32 at byte 0');
    expect(verdict(text('varchar', 'utf32', 4), hex('000041'))).toBe('3 bytes, not whole utf32 code points');
  });

  it('the CJK charsets: lead bytes with their trail bytes', () => {
    const cases: [string, string, string][] = [
      ['sjis', '41b182a0', '80'], ['sjis', '8140', '8120'], ['cp932', 'fc40', 'fd'], ['gbk', '8140fefe', '817f'], ['gbk', '41', 'ff'],
      ['big5', 'a140f9fe', 'a120'], ['gb2312', 'a1a1f7fe', 'a140'], ['euckr', '8141b0a1', '8130'], ['ujis', '8ea18fa1a1a4a2', '8ee0'],
      ['eucjpms', 'a1a1', '8fa1'], ['gb18030', '81308130fe39fe39', '8130'], ['gb18030', '8140', '80'],
    ];
    for (const [cs, good, bad] of cases) {
      expect(verdict(text('varchar', cs, 10), hex(good)), `${cs} ${good}`).toBeNull();
      expect(verdict(text('varchar', cs, 10), [0x61, ...hex(bad)]), `${cs} ${bad}`).toBe(`invalid ${cs} at byte 1`);
    }
  });

  it('single-byte charsets take every byte (ascii too, as the server stores it)', () => {
    for (const cs of ['latin1', 'ascii', 'cp1251', 'swe7']) expect(verdict(text('varchar', cs, 4), [0x80, 0xff, 0x00, 0x41])).toBeNull();
  });

  it('binary strings: lengths only', () => {
    expect(valueCheckFor(column('binary', { length: 4 }), false)).toBeNull();
    expect(verdict(column('binary', { length: 4 }), [1, 2, 3], true)).toBe('3 bytes, not 4');
    expect(verdict(column('varbinary', { length: 4 }), [0xff, 0xff, 0xff, 0xff])).toBeNull();
    expect(verdict(column('varbinary', { length: 4 }), [1, 2, 3, 4, 5])).toBe('5 bytes, more than the 4 of varbinary(4)');
    expect(verdict(column('tinyblob'), new Array<number>(256).fill(0xff))).toBe('256 bytes, more than the 255 of tinyblob');
    expect(valueCheckFor(column('longblob'), false)).toBeNull();
  });
});

describe('JSON, geometry, INET4/INET6/UUID', () => {
  it('JSON: MySQL binary documents parse; MariaDB text is utf8mb4', () => {
    const c = column('json');
    // {"a": 1}: small object, 1 element, 12 bytes; key at 11 (1 byte); value int16 1 inline.
    expect(verdict(c, hex('00 0100 0c00 0b00 0100 05 0100 61'))).toBeNull();
    expect(verdict(c, hex('00 0100 0d00 0b00 0100 05 0100 61'))).toBe('json: the document says it holds 13 bytes, the column holds 12');
    expect(verdict(c, hex('0e'))).toBe('json: unknown value type 0xe');
    expect(verdict(c, [...new TextEncoder().encode('{"a": "é"}')])).toBeNull();
    expect(verdict(c, [0x7b, 0xff, 0x7d])).toBe('invalid utf8mb4 at byte 1');
    expect(verdict(c, [])).toBeNull();
  });

  it('geometry: SRID, then WKB with byte order 0/1, types 1-7 and counts that fit', () => {
    const c = column('geometry');
    const point = '01 01000000 000000000000f03f 0000000000000040';
    expect(verdict(c, hex(`00000000 ${point}`))).toBeNull();
    expect(verdict(c, hex('e6100000 00 00000002 00000002 3ff0000000000000 4000000000000000 4008000000000000 4010000000000000'))).toBeNull();
    expect(verdict(c, hex(`00000000 01 07000000 02000000 ${point} 01 03000000 01000000 00000000`))).toBeNull();
    expect(verdict(c, hex('00000000 01 07000000 00000000'))).toBeNull();
    expect(verdict(c, hex(`00000000 02${point.slice(2)}`))).toBe('byte order 2');
    expect(verdict(c, hex('00000000 01 08000000 00000000'))).toBe('geometry type 8');
    expect(verdict(c, hex('00000000 01 02000000 03000000 000000000000f03f 0000000000000040'))).toBe('a point count runs past the end of the geometry');
    expect(verdict(c, hex(`00000000 ${point} 00`))).toBe('bytes follow the end of the geometry');
    expect(verdict(c, hex('00000000 01 01'))).toBe('6 bytes, too few for a geometry');
    expect(verdict(c, hex('00000000 01 06000000 ffffffff'))).toBe('the geometry ends early');
  });

  it('INET4, INET6, UUID: any bytes of their size', () => {
    for (const type of ['inet4', 'inet6', 'uuid'] as const) expect(valueCheckFor(column(type), false)).toBeNull();
    expect(verdict(column('inet6'), new Array<number>(15).fill(0), true)).toBe('15 bytes, not 16');
    expect(verdict(column('inet4'), [1, 2, 3, 4], true)).toBeNull();
  });

  it('integers: no check (a length check in REDUNDANT records)', () => {
    for (const type of ['tinyint', 'smallint', 'mediumint', 'int', 'bigint'] as const) expect(valueCheckFor(column(type), false)).toBeNull();
    expect(verdict(column('int'), [1, 2, 3], true)).toBe('3 bytes, not 4');
  });
});

describe('layouts', () => {
  it('every column field gets its check, system fields and key prefixes none', () => {
    const [table] = parseCreateTables('CREATE TABLE t (a INT, b VARCHAR(20), c DATE, d TEXT, PRIMARY KEY (b(4)));');
    const layout = clusteredLayout(table, false);
    const byName = (name: string) => layout.fields.filter((f) => f.name === name).map((f) => f.check !== null);
    expect(byName('DB_TRX_ID')).toEqual([false]);
    expect(byName('DB_ROLL_PTR')).toEqual([false]);
    expect(byName('a')).toEqual([false]);
    expect(byName('b')).toEqual([false, true]); // the key prefix, then the whole column
    expect(byName('c')).toEqual([true]);
    expect(Array.from(layout.checked.fields, (i) => layout.fields[i].name)).toEqual(['b', 'c', 'd']);
  });
});
