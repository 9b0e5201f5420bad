/**
 * loadDataEscaped (core/writers/load-data.ts): CSV lines as LOAD DATA reads them back, byte for byte
 * on hand-made lines: backslashes of values doubled, the NULL marker kept, the word NULL quoted, and
 * quoted fields (with doubled quotes, separators and line breaks inside) read as one field.
 */
import { describe, expect, it } from 'vitest';
import { loadDataEscaped } from '../src/core/writers/load-data.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();
const escaped = (csv: string) => dec.decode(loadDataEscaped(enc.encode(csv)));

describe('loadDataEscaped', () => {
  it('doubles a value\'s backslashes, keeps the NULL marker', () => {
    expect(escaped('\\N,a\\b,\\\n')).toBe('\\N,a\\\\b,\\\\\n');
    expect(escaped('1,\\N\n2,\\N\n')).toBe('1,\\N\n2,\\N\n');
    // A literal \N is quoted by the export: escaped, not a NULL.
    expect(escaped('"\\N",x\\N,\\Nx\n')).toBe('"\\\\N",x\\\\N,\\\\Nx\n');
  });

  it('quotes the word NULL, not a longer word nor a quoted one', () => {
    expect(escaped('NULL,NULLS,"NULL",xNULL,NULL\n')).toBe('"NULL",NULLS,"NULL",xNULL,"NULL"\n');
  });

  it('reads a quoted field as one: its separators, line breaks and doubled quotes', () => {
    expect(escaped('"a,\\N\nNULL ""q"" \\",\\N\n')).toBe('"a,\\\\N\nNULL ""q"" \\\\",\\N\n');
    expect(escaped('"""",NULL\n')).toBe('"""","NULL"\n');
  });

  it('hands back the same bytes when nothing changes', () => {
    const plain = enc.encode('1,abc,"x,y"\n');
    expect(loadDataEscaped(plain)).toBe(plain);
  });
});
