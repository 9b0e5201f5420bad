/**
 * JSON's values (json-values.ts) at their edges: which texts become JSON numbers and which stay strings.
 * The server's side of it is test/differential/ndjson-numbers.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { jsonColumns, jsonValue } from '../src/core/writers/json-values.ts';

describe('JSON values', () => {
  const [table] = parseCreateTables('CREATE TABLE t (i BIGINT UNSIGNED, d DECIMAL(30,10), g DOUBLE, b BIT(64), s VARCHAR(5))');

  it('types the columns by the definition; every one a string when strings are asked for, and the columns it lacks', () => {
    expect(jsonColumns(table, ['i', 'D', 'g', 'b', 's', '_row_state'])).toEqual(['integer', 'number', 'number', 'bit', 'string', 'string']);
    expect(jsonColumns(table, ['i', 'b'], { strings: true })).toEqual(['string', 'string']);
    expect(jsonColumns(null, ['i'])).toEqual(['string']);
  });

  it('writes integers below 2^53 as numbers, from 2^53 on as strings', () => {
    expect(jsonValue('-9007199254740991', 'integer')).toBe('-9007199254740991');
    expect(jsonValue('9007199254740992', 'integer')).toBe('"9007199254740992"');
    expect(jsonValue('18446744073709551615', 'integer')).toBe('"18446744073709551615"');
    expect(jsonValue('[unreadable: 3 bytes]', 'integer')).toBe('"[unreadable: 3 bytes]"');
    expect(jsonValue(null, 'integer')).toBe('null');
  });

  it('writes a decimal as the server\'s text where its double prints back as the same value', () => {
    expect(jsonValue('1.50', 'number')).toBe('1.50');
    expect(jsonValue('0.000000000000000000000000001', 'number')).toBe('0.000000000000000000000000001');
    expect(jsonValue('1.2345678901234568e20', 'number')).toBe('1.2345678901234568e20');
    expect(jsonValue('0.1234567890123456789', 'number')).toBe('"0.1234567890123456789"');
    expect(jsonValue('99999999999999999', 'number')).toBe('"99999999999999999"');
    // Not JSON's number grammar: a string.
    expect(jsonValue('.5', 'number')).toBe('".5"');
  });

  it('writes a BIT as its number, a string of its digits from 2^53 on, other text as a string', () => {
    expect(jsonValue('0x0119', 'bit')).toBe('281');
    expect(jsonValue('0x001FFFFFFFFFFFFF', 'bit')).toBe('9007199254740991');
    expect(jsonValue('0x0020000000000000', 'bit')).toBe('"9007199254740992"');
    expect(jsonValue('0xFFFFFFFFFFFFFFFF', 'bit')).toBe('"18446744073709551615"');
    expect(jsonValue('[unreadable: x]', 'bit')).toBe('"[unreadable: x]"');
  });
});
