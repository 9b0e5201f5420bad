/**
 * pickTable: the table an .ibd file holds, by its file name.
 */
import { describe, expect, it } from 'vitest';
import { parseCreateTables, pickTable } from '../../src/core/definitions/ddl/create-table.ts';

describe('pickTable', () => {
  const tables = parseCreateTables(`
    CREATE TABLE tb01 (a int);
    CREATE TABLE Orders (a int);
    CREATE TABLE \`my-tab$le\` (a int);
    CREATE TABLE \`été\` (a int);
    CREATE TABLE \`中文\` (a int);
    CREATE TABLE part (a int);
    CREATE TABLE tb01 (a int, b int);`);

  it('matches the file name without .ibd, taking the later of two definitions', () => {
    expect(pickTable(tables, 'tb01.ibd')?.columns).toHaveLength(2);
    expect(pickTable(tables, '/var/lib/mysql/shop/tb01.ibd')?.name).toBe('tb01');
    expect(pickTable(tables, 'C:\\ProgramData\\MySQL\\data\\shop\\Orders.ibd')?.name).toBe('Orders');
  });

  it('decodes @hhhh escapes of the filename charset', () => {
    expect(pickTable(tables, 'my@002dtab@0024le.ibd')?.name).toBe('my-tab$le');
    expect(pickTable(tables, '@4e2d@6587.ibd')?.name).toBe('中文');
  });

  it('lets the two-character escapes of accented letters match any one character', () => {
    expect(pickTable(tables, '@0pt@0p.ibd')?.name).toBe('été');
  });

  it('maps partition files to their table', () => {
    expect(pickTable(tables, 'part#P#p0.ibd')?.name).toBe('part');
    expect(pickTable(tables, 'part#p#p1.ibd')?.name).toBe('part');
    expect(pickTable(tables, 'part#P#p0#SP#p0sp0.ibd')?.name).toBe('part');
  });

  it('falls back to a case-insensitive match', () => {
    expect(pickTable(tables, 'ORDERS.IBD')?.name).toBe('Orders');
  });

  it('returns null when no name matches, even for a single table', () => {
    expect(pickTable(tables, 'nothing.ibd')).toBeNull();
    expect(pickTable(parseCreateTables('CREATE TABLE only_one (a int)'), 'other.ibd')).toBeNull();
    expect(pickTable([], 'x.ibd')).toBeNull();
  });
});
