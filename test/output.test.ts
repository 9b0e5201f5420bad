import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { CSV_NULL, csvHeader, csvRows, ndjsonRows } from '../src/core/writers/output.ts';
import type { Row } from '../src/core/readers/table-reader.ts';

describe('csvHeader', () => {
  it('writes the column names as one line', () => {
    expect(csvHeader(['id', 'name', 'created_at'])).toBe('id,name,created_at\n');
  });

  it('quotes names that need it', () => {
    expect(csvHeader(['a,b', 'say "hi"', 'plain'])).toBe('"a,b","say ""hi""",plain\n');
  });

  it('quotes a lone empty column name so the line is not empty', () => {
    expect(csvHeader([''])).toBe('""\n');
  });
});

describe('csvRows', () => {
  it('returns nothing for no rows', () => {
    expect(csvRows([])).toBe('');
  });

  it('ends every line with \\n, the last one too', () => {
    expect(csvRows([['1', 'a'], ['2', 'b']])).toBe('1,a\n2,b\n');
  });

  it('writes NULL as an unquoted \\N and the empty string as an empty field', () => {
    expect(csvRows([[null, '', 'x']])).toBe('\\N,,x\n');
    expect(CSV_NULL).toBe('\\N');
  });

  it('quotes a literal \\N string so it does not read back as NULL', () => {
    expect(csvRows([['\\N', null]])).toBe('"\\N",\\N\n');
  });

  it('quotes commas, quotes, CR and LF', () => {
    const rows: Row[] = [['a,b', 'he said "no"', 'line1\nline2', 'cr\rhere', 'crlf\r\nx']];
    expect(csvRows(rows)).toBe('"a,b","he said ""no""","line1\nline2","cr\rhere","crlf\r\nx"\n');
  });

  it('quotes leading and trailing spaces, keeps tabs and backslashes as they are', () => {
    expect(csvRows([[' lead', 'trail ', 'tab\there', 'back\\slash']])).toBe(
      '" lead","trail ",tab\there,back\\slash\n',
    );
  });

  it('does not rewrite formula-looking values', () => {
    expect(csvRows([['=1+2', '-3', '+4', '@x']])).toBe('=1+2,-3,+4,@x\n');
  });

  it('keeps non-ASCII text: accents, CJK, emoji (astral), RTL, combining marks', () => {
    const rows: Row[] = [['café', '漢字', '😀👍🏽', 'שלום', 'e\u0301', 'ß,ẞ']];
    expect(csvRows(rows)).toBe('café,漢字,😀👍🏽,שלום,e\u0301,"ß,ẞ"\n');
    // UTF-8 when encoded: 😀 is 4 bytes.
    expect(new TextEncoder().encode(csvRows([['😀']])).length).toBe(5);
  });

  it('quotes an empty value in a single-column row so no line is blank', () => {
    expect(csvRows([[''], ['x'], [null]])).toBe('""\nx\n\\N\n');
  });

  it('renders binary hex and numbers as the text they already are', () => {
    expect(csvRows([['0x00FF', '-12.50', '2024-01-02 03:04:05.123456']])).toBe(
      '0x00FF,-12.50,2024-01-02 03:04:05.123456\n',
    );
  });

  it('concatenates chunks into a valid document that parses back to the same values', () => {
    const columns = ['id', 'txt', 'n'];
    const rows: Row[] = [
      ['1', 'plain', null],
      ['2', 'a,"b"\nc', ''],
      ['3', '\\N', '😀'],
    ];
    const text = csvHeader(columns) + csvRows(rows.slice(0, 2)) + csvRows(rows.slice(2));
    const parsed = Papa.parse<string[]>(text, { newline: '\n', skipEmptyLines: true });
    expect(parsed.errors).toEqual([]);
    expect(parsed.data[0]).toEqual(columns);
    // Papaparse drops the quotes, so a parsed `\N` is ambiguous; the raw text is not.
    expect(parsed.data.slice(1)).toEqual([
      ['1', 'plain', '\\N'],
      ['2', 'a,"b"\nc', ''],
      ['3', '\\N', '😀'],
    ]);
    expect(text.split('\n')[4]).toBe('3,"\\N",😀');
  });
});

describe('ndjsonRows', () => {
  it('writes one object per line keyed by column name, NULL as null', () => {
    expect(ndjsonRows(['id', 'name'], [['1', 'a'], ['2', null]])).toBe(
      '{"id":"1","name":"a"}\n{"id":"2","name":null}\n',
    );
  });

  it('returns nothing for no rows', () => {
    expect(ndjsonRows(['id'], [])).toBe('');
  });

  it('keeps the empty string distinct from null', () => {
    const lines = ndjsonRows(['a', 'b'], [['', null]]).trimEnd().split('\n');
    expect(JSON.parse(lines[0])).toEqual({ a: '', b: null });
  });

  it('escapes quotes, backslashes, newlines and control characters; keeps non-ASCII', () => {
    const text = ndjsonRows(['t'], [['say "hi"\\\n\t\u0001'], ['😀 café 漢字']]);
    expect(text.split('\n')).toHaveLength(3);
    const [a, b] = text.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(a).toEqual({ t: 'say "hi"\\\n\t\u0001' });
    expect(b).toEqual({ t: '😀 café 漢字' });
    expect(text).toContain('😀 café 漢字');
  });

  it('treats odd column names as plain keys, __proto__ included, in column order', () => {
    const line = ndjsonRows(['__proto__', 'a "q"', 'constructor'], [['x', 'y', 'z']]);
    expect(line).toBe('{"__proto__":"x","a \\"q\\"":"y","constructor":"z"}\n');
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['__proto__', 'a "q"', 'constructor']);
  });
});
