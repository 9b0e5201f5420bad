/**
 * The typed filter's parser (src/core/readers/where-parse.ts): what a DBA types after WHERE becomes
 * conditions on output columns, quoted literals read as the server reads them, and anything else is
 * refused saying where (the differential test, where-filter.test.ts, checks what the conditions match).
 */
import { describe, expect, it } from 'vitest';
import { parseWhere } from '../../src/core/readers/where-parse.ts';

const COLUMNS = ['id', 'Salary', 'hired', 'note', 'odd name'];

describe('parsing a typed filter', () => {
  it('reads every kind of condition, joined by AND, column names in any case or backquoted', () => {
    expect(parseWhere("salary >= 100000.50 AND `hired` BETWEEN '2020-01-01' AND \"2020-12-31\" and note is not null", COLUMNS)).toEqual([
      { column: 1, test: '>=', values: ['100000.50'], numeric: [true] },
      { column: 2, test: 'between', values: ['2020-01-01', '2020-12-31'], numeric: [false, false] },
      { column: 3, test: 'not null', values: [], numeric: [] },
    ]);
    expect(parseWhere("id NOT IN (1, -2, +3) AND note NOT LIKE 'a%' AND `odd name` != 'x' AND id IS NULL AND id NOT BETWEEN 1 AND 2", COLUMNS)).toEqual([
      { column: 0, test: 'not in', values: ['1', '-2', '+3'], numeric: [true, true, true] },
      { column: 3, test: 'not like', values: ['a%'], numeric: [false] },
      { column: 4, test: '<>', values: ['x'], numeric: [false] },
      { column: 0, test: 'null', values: [], numeric: [] },
      { column: 0, test: 'not between', values: ['1', '2'], numeric: [true, true] },
    ]);
  });

  it('reads quotes and escapes as the server does, keeping LIKE\'s own \\% and \\_', () => {
    expect(parseWhere("note = 'it''s' AND note = 'a\\'b\\nc' AND note LIKE 'x\\_%' AND note = \"say \"\"hi\"\"\"", COLUMNS).map((c) => c.values[0])).toEqual([
      "it's", "a'b\nc", 'x\\_%', 'say "hi"',
    ]);
  });

  it('refuses what it does not read, saying where', () => {
    expect(() => parseWhere('id > 1 OR id < 0', COLUMNS)).toThrow('OR is not offered: conditions are joined by AND');
    expect(() => parseWhere('salary > ', COLUMNS)).toThrow('expected a value (a number or a quoted text) at the end');
    expect(() => parseWhere('wage > 1', COLUMNS)).toThrow('no column is named wage');
    expect(() => parseWhere('id = now()', COLUMNS)).toThrow('expected a value (a number or a quoted text) at “now”');
    expect(() => parseWhere('id IN (1, 2', COLUMNS)).toThrow('expected ) at the end');
    expect(() => parseWhere('id 5', COLUMNS)).toThrow('expected a comparison (=, <, >, BETWEEN, IN, LIKE, IS NULL) at “5”');
    expect(() => parseWhere("note = 'open", COLUMNS)).toThrow(/cannot read the condition at “'open”/);
    expect(() => parseWhere('id = 1 id = 2', COLUMNS)).toThrow('expected AND at “id”');
  });
});
