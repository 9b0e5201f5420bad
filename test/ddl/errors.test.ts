/**
 * The CREATE TABLE parser's errors: what it expected, what it found, on which line.
 */
import { describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';

describe('errors', () => {
  const cases: [string, string][] = [
    ['CREATE TABLE t (\n  id int,\n  price (10,2)\n)', 'line 3: expected a column type after `price`, found `(`'],
    ['\n\nCREATE TABLE t (a int', 'line 3: expected a `,` or `)` after a column or key definition, found the end of the statement'],
    ['CREATE TABLE t (a int NOT NUL)', 'line 1: expected `NULL`, found `NUL`'],
    ['CREATE TABLE t (a int frobnicate)', 'line 1: expected an attribute of column `a`, `,` or `)`, found `frobnicate`'],
    ['CREATE TABLE t (a varchar)', 'line 1: expected `(` and a length after the type of `a`, found `)`'],
    ['CREATE TABLE t (a decimal(x))', 'line 1: expected a number in the size of `a`, found `x`'],
    ['CREATE TABLE t (a enum(1, 2))', 'line 1: expected a quoted value in the list of `a`, found `1`'],
    ['CREATE TABLE t (a int, KEY k (b))', 'line 1: the key names column `b`, which the table does not have'],
    ['CREATE TABLE t (a int PRIMARY KEY,\n b int, PRIMARY KEY (b))', 'line 2: the table has more than one PRIMARY KEY'],
    ['CREATE TABLE t (a int AS a + 1)', 'line 1: expected the expression of the generated column in parentheses, found `a`'],
    ['CREATE TABLE t', 'line 1: expected `(` after the table name `t`, found the end of the statement'],
    ['CREATE TABLE (a int)', 'line 1: expected a table name, found `(`'],
    ['CREATE TABLE t (a int CHECK (a > 0)', 'line 1: expected a `,` or `)` after a column or key definition, found the end of the statement'],
    ['CREATE TABLE t (a int DEFAULT)', 'line 1: expected a default value, found `)`'],
    ['CREATE TABLE t LIKE nowhere', 'line 1: CREATE TABLE `t` LIKE `nowhere`: `nowhere` is not defined before it'],
    ['CREATE TABLE t (a int) AS SELECT 1', 'line 1: CREATE TABLE … SELECT is not supported: its columns come from the query'],
    ['CREATE TABLE t SELECT 1 AS a', 'line 1: expected `(` after the table name `t`, found `SELECT`'],
  ];
  it.each(cases)('%s', (text, message) => {
    expect(() => parseCreateTables(text)).toThrow(new Error(message));
  });

  it('names the line in a long dump', () => {
    const dump = `${'INSERT INTO x VALUES (1);\n'.repeat(1000)}CREATE TABLE t (\n  a int,\n  b nonsense\n);`;
    expect(() => parseCreateTables(dump)).toThrow('line 1003: expected a column type after `b`, found `nonsense`');
  });
});
