import { describe, expect, it } from 'vitest';
import { detectKeyFiles, folderOf, keyFileKind, kindOf, pairFiles, parseTableFileName, stemOf, type InputFile } from '../../src/ui/files/pairing.ts';

const f = (path: string): InputFile => ({ file: new File(['x'], path.slice(path.lastIndexOf('/') + 1)), path });

describe('file names', () => {
  it('knows the kinds by extension, in any case', () => {
    expect(['a.ibd', 'B.IBD', 'c.frm', 'd.sql', 'e.cfg', 'f.txt', 'g'].map(kindOf)).toEqual(['ibd', 'ibd', 'frm', 'sql', 'cfg', 'other', 'other']);
    expect(stemOf('db/t.ibd')).toBe('t');
    expect(folderOf('db/x/t.ibd')).toBe('db/x');
    expect(folderOf('t.ibd')).toBe('');
  });

  it('decodes MySQL file-name escapes and partitions', () => {
    expect(parseTableFileName('my@002dtable.ibd')).toEqual({ table: 'my-table', partition: null });
    expect(parseTableFileName('sales#P#p2019.ibd')).toEqual({ table: 'sales', partition: 'p2019' });
    expect(parseTableFileName('sales#p#p1#sp#p1sp0.ibd')).toEqual({ table: 'sales', partition: 'p1 / p1sp0' });
    // 2-character escapes (accented letters) stay as written
    expect(parseTableFileName('caf@0j.ibd').table).toBe('caf@0j');
  });
});

describe('pairFiles', () => {
  it('pairs each .ibd with the .frm and .cfg of the same name in the same folder', () => {
    const files = [
      f('data/shop/orders.ibd'), f('data/shop/orders.frm'), f('data/shop/orders.cfg'),
      f('data/crm/orders.ibd'), f('data/crm/orders.frm'),
      f('data/shop/users.ibd'),
      f('dump.sql'), f('notes.txt'), f('data/shop/ghost.frm'),
    ];
    const p = pairFiles(files);
    expect(p.tables.map((t) => [t.key, t.frm?.path ?? null, t.cfg?.path ?? null])).toEqual([
      ['data/crm/orders.ibd', 'data/crm/orders.frm', null],
      ['data/shop/orders.ibd', 'data/shop/orders.frm', 'data/shop/orders.cfg'],
      ['data/shop/users.ibd', null, null],
    ]);
    expect(p.sqls.map((s) => s.path)).toEqual(['dump.sql']);
    expect(p.ignored.map((s) => s.path)).toEqual(['notes.txt']);
    expect(p.orphans.map((s) => s.path)).toEqual(['data/shop/ghost.frm']);
  });

  it('matches the side files without regard to case (case-folding file systems)', () => {
    const p = pairFiles([f('T1.ibd'), f('t1.frm')]);
    expect(p.tables[0].frm?.path).toBe('t1.frm');
  });
});

describe('encryption key files, told by content', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);

  it('recognises MariaDB key files (plain or encrypted) and MySQL keyrings', () => {
    expect(keyFileKind(bytes('# keys\n1;a7addd9adea9978fda19f21e6be987880e68ac92632ca052e5bb42b1a506939a\n'))).toBe('mariadb');
    expect(keyFileKind(bytes('2;0123456789abcdef0123456789abcdef\n'))).toBe('mariadb');
    expect(keyFileKind(bytes('Salted__12345678……'))).toBe('mariadb-encrypted');
    expect(keyFileKind(bytes('Keyring file version:2.0\0\0\0'))).toBe('mysql');
    expect(keyFileKind(bytes('not a key file\n1;abc'))).toBeNull();
  });

  it('marks them among dropped files and pairs them apart from the tables', async () => {
    const key = { file: new File(['1;0123456789abcdef0123456789abcdef\n'], 'keys.txt'), path: 'keys.txt' };
    const readme = { file: new File(['hello, this is not a key file at all'], 'README.txt'), path: 'README.txt' };
    const files = await detectKeyFiles([key, readme, f('db/t.ibd')]);
    expect(files.map((x) => x.key)).toEqual(['mariadb', undefined, undefined]);
    const p = pairFiles(files);
    expect(p.keys.map((x) => x.path)).toEqual(['keys.txt']);
    expect(p.ignored.map((x) => x.path)).toEqual(['README.txt']);
    expect(p.tables.map((t) => t.key)).toEqual(['db/t.ibd']);
  });
});
