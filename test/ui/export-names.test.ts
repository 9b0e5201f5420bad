/** Where "Export all tables" writes each table (src/ui/export/export-names.ts). */
import { describe, expect, it } from 'vitest';
import { ExportPaths, exportName } from '../../src/ui/export/export-names.ts';
import type { InputFile, PairedTable } from '../../src/ui/files/pairing.ts';
import type { SystemTable } from '../../workers/decoder-api.ts';

const input = (path: string): InputFile => ({ file: new File([], path.slice(path.lastIndexOf('/') + 1)), path });

function system(name: string, state: 'live' | 'dropped', source: 'dictionary' | null): SystemTable {
  return {
    name, storedName: source === null ? null : name, state, rowFormat: 'DYNAMIC', indexes: [], rows: 1, countNote: null, source, file: 'ibdata1', frmUnread: false, columnCount: 1,
    index: { indexId: 28n, rootPage: 3 }, found: null, raw: null, notes: [], definition: null, pending: false,
  };
}

function inIbdata(t: SystemTable, chosen: string | null = null) {
  const paired: PairedTable = { key: `dd/ibdata1#${t.name}`, ibd: input('dd/ibdata1'), name: { table: t.name, partition: null }, frm: null, cfg: null, system: t };
  return { path: `dd/${t.name}`, paired, chosen };
}

describe('export names', () => {
  it('a table of ibdata1 after its name; a dropped one .dropped; an unknown tree after its index, or the definition chosen for it', () => {
    expect(exportName(inIbdata(system('shop/a', 'live', 'dictionary')))).toBe('dd/shop/a');
    expect(exportName(inIbdata(system('shop/b', 'dropped', 'dictionary')))).toBe('dd/shop/b.dropped');
    expect(exportName(inIbdata(system('dropped index 28', 'dropped', null)))).toBe('dd/#dropped/index-28');
    expect(exportName(inIbdata(system('dropped index 28', 'dropped', null), 'orders'))).toBe('dd/#dropped/orders');
  });

  it('a partitioned table after its table, not its first partition', () => {
    const first = input('db/t#P#p0.ibd');
    const paired: PairedTable = { key: 'db/t.ibd', ibd: first, name: { table: 't', partition: null }, frm: null, cfg: null, partitions: [first, input('db/t#P#p1.ibd')] };
    expect(new ExportPaths().of({ path: first.path, paired, chosen: null }, 'csv')).toBe('db/t.csv');
  });

  it('a name taken twice in one export gets a number', () => {
    const paths = new ExportPaths();
    const t = inIbdata(system('dropped index 28', 'dropped', null), 'orders');
    expect([paths.of(t, 'csv'), paths.of(t, 'csv'), paths.of(t, 'sql')]).toEqual(['dd/#dropped/orders.csv', 'dd/#dropped/orders-2.csv', 'dd/#dropped/orders.sql']);
  });
});
