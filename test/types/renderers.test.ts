/**
 * Renderers for what the MariaDB differential tests cannot produce (MySQL-only types and display
 * attributes the DDL parser does not carry yet), and the storage of every column type.
 */
import { describe, expect, it } from 'vitest';
import { decoderFor } from '../../src/core/values/charset.ts';
import { columnStorage } from '../../src/core/values/column-storage.ts';
import type { Column, ColumnType } from '../../src/core/schema.ts';
import { renderInet6, renderUuid } from '../../src/core/values/network.ts';

const bytes = (hex: string) => Uint8Array.from((hex.replace(/[\s-]/g, '').match(/../g) ?? []).map((h) => parseInt(h, 16)));

function column(type: ColumnType, extra: Partial<Column> = {}): Column {
  return {
    name: 'c', type, unsigned: false, zerofill: false, nullable: true, length: 0, precision: 0, scale: 0, fsp: 0,
    charset: 'binary', collation: '', values: [], generated: null, invisible: false, defaultSql: null, comment: '', legacyTemporal: false, ...extra,
  };
}

function render(c: Column, hex: string, redundant = false): string {
  const b = bytes(hex);
  return columnStorage(c, redundant).render(b, 0, b.length);
}

describe('every column type has a storage', () => {
  const all: ColumnType[] = [
    'tinyint', 'smallint', 'mediumint', 'int', 'bigint', 'decimal', 'float', 'double', 'bit', 'bool',
    'date', 'time', 'datetime', 'timestamp', 'year', 'char', 'varchar', 'binary', 'varbinary',
    'tinytext', 'text', 'mediumtext', 'longtext', 'tinyblob', 'blob', 'mediumblob', 'longblob',
    'enum', 'set', 'json', 'geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring',
    'multipolygon', 'geometrycollection', 'inet4', 'inet6', 'uuid', 'vector',
  ];
  it.each(all)('%s', (type) => {
    const c = column(type, { length: 10, precision: 10, charset: ['char', 'varchar', 'text', 'enum', 'set'].some((t) => type.endsWith(t)) ? 'utf8mb4' : 'binary', values: ['a'] });
    for (const redundant of [false, true]) expect(() => columnStorage(c, redundant)).not.toThrow();
  });
});

describe('MySQL-only types and attributes', () => {
  it('VECTOR(n) (MySQL 9): a BLOB of n float32s, shown as the bytes SELECT returns', () => {
    const s = columnStorage(column('vector', { length: 3 }), false);
    expect(s.fixedLen).toBe(0);
    expect(s.bigCol).toBe(true);
    expect(render(column('vector', { length: 2 }), '0000803f 000000c0')).toBe('0x0000803F000000C0');
  });

  it('YEAR(2) (MySQL before 5.7.5) shows two digits', () => {
    const y2 = column('year', { length: 2 });
    expect([render(y2, '00'), render(y2, '46'), render(y2, '64'), render(y2, 'ff')]).toEqual(['00', '70', '00', '55']);
    expect(render(column('year'), '46')).toBe('1970');
  });

  it('ZEROFILL pads to the display width the DDL gives', () => {
    expect(render(column('int', { zerofill: true, unsigned: true, length: 5 }), '0000002a')).toBe('00042');
    expect(render(column('int', { zerofill: true, unsigned: true }), '0000002a')).toBe('0000000042');
    expect(render(column('smallint', { zerofill: true, unsigned: true, length: 2 }), '3039')).toBe('12345');
  });
});

describe('MariaDB types by their documented layouts', () => {
  it('UUID: versions 1-5 of the RFC variant are stored with their groups reversed', () => {
    // node, clock-seq, time-hi, time-mid, time-low
    expect(renderUuid(bytes('aabbccddeeff 8899 1677 4455 00112233'.replace(/ /g, '')), 0, 16)).toBe('00112233-4455-1677-8899-aabbccddeeff');
    expect(renderUuid(bytes('00112233445566778899aabbccddeeff'), 0, 16)).toBe('00112233-4455-6677-8899-aabbccddeeff');
    expect(renderUuid(bytes('00000000000000000000000000000000'), 0, 16)).toBe('00000000-0000-0000-0000-000000000000');
  });

  it('INET6: the longest zero run (the first of equals) as ::, IPv4-mapped and -compatible tails dotted', () => {
    const cases: [string, string][] = [
      ['00000000000000000000000000000000', '::'],
      ['00000000000000000000000000000001', '::1'],
      ['00010000000000000000000000000000', '1::'],
      ['00010000000200000000000000000003', '1:0:2::3'],
      ['00010000000000020000000000000003', '1:0:0:2::3'],
      ['00010000000000020003000000000004', '1::2:3:0:0:4'],
      ['00010000000200030004000500060007', '1::2:3:4:5:6:7'],
      ['00000000000000000000ffff01020304', '::ffff:1.2.3.4'],
      ['00000000000000000000000001020304', '::1.2.3.4'],
      ['20010db8000000000000000000000001', '2001:db8::1'],
    ];
    expect(cases.map(([hex]) => renderInet6(bytes(hex), 0, 16))).toEqual(cases.map(([, text]) => text));
  });
});

describe('temporal formats', () => {
  it('DATETIME in a REDUNDANT record of 8 bytes is MySQL 5.5\'s format, even unmarked', () => {
    const dt = column('datetime');
    expect(render(dt, '800012689C2CA719', true)).toBe('2024-05-06 07:08:09');
    expect(render(dt, '8000000000000000', true)).toBe('0000-00-00 00:00:00');
  });

  it('columns marked legacyTemporal use the pre-5.6 sizes and layouts', () => {
    const legacy = (type: ColumnType, fsp: number) => ({ ...column(type, { fsp }), legacyTemporal: true });
    expect(columnStorage(legacy('datetime', 0), false).fixedLen).toBe(8);
    expect(columnStorage(legacy('datetime', 5), false).fixedLen).toBe(7);
    expect(columnStorage(legacy('time', 5), false).fixedLen).toBe(5);
    expect(columnStorage(legacy('timestamp', 3), false).fixedLen).toBe(6);
    expect(render(legacy('time', 0), '7FD825')).toBe('-01:02:03');
    expect(render(legacy('time', 1), '01CC4EED')).toBe('-01:02:03.5');
    expect(render(legacy('datetime', 6), '0102807565392A80')).toBe('2024-05-06 07:08:09.123456');
    expect(render(legacy('timestamp', 3), '663881D9007B')).toBe('2024-05-06 07:08:09.123');
  });

  it('TIME(fsp) in the 5.6 format: negative values borrow a second for the fraction', () => {
    // -00:00:01.25 with fsp 2: integer part -2 (0x7FFFFE), fraction byte -25 as unsigned (0xE7)
    expect(render(column('time', { fsp: 2 }), '7FFFFEE7')).toBe('-00:00:01.25');
    expect(render(column('time', { fsp: 1 }), '7FFFFF00')).toBe('-00:00:01.0');
    expect(render(column('time', { fsp: 4 }), '7FFFFFFC18')).toBe('-00:00:00.1000');
    expect(render(column('time', { fsp: 6 }), '7FFFFFFFFC18')).toBe('-00:00:00.001000');
    expect(render(column('time'), 'B46EFB')).toBe('838:59:59');
  });
});

describe('text', () => {
  it('UTF-32 code points outside Unicode become ?', () => {
    expect(decoderFor('utf32')!(bytes('00000061 00110000 0001F600'), 0, 12)).toBe('a?😀');
  });
  it('a leading byte order mark is text like any other', () => {
    expect(decoderFor('utf8mb4')!(bytes('efbbbf61'), 0, 4)).toBe('\ufeffa');
    expect(decoderFor('utf16')!(bytes('feff0061'), 0, 4)).toBe('\ufeffa');
    expect(decoderFor('utf16le')!(bytes('fffe6100'), 0, 4)).toBe('\ufeffa');
  });
  it('CHAR in UCS-2 and UTF-16 loses its trailing pad spaces', () => {
    const ucs2 = column('char', { charset: 'ucs2', length: 4 });
    expect(render(ucs2, '00610020 00200020')).toBe('a');
    expect(render(column('char', { charset: 'utf32', length: 3 }), '0001F600 00000020 00000020')).toBe('😀');
  });
});
