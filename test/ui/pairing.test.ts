import { describe, expect, it } from 'vitest';
import type { SystemTable } from '../../workers/decoder-api.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { detectImages, detectKeyFiles, folderOf, holdsIndexPage, keyFileKind, kindOf, pairFiles, parseTableFileName, stemOf, systemPairer, type InputFile } from '../../src/ui/files/pairing.ts';

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

describe('partitioned tables', () => {
  it('groups the partition files of a table in a folder into one table, with its .frm and .par', () => {
    const files = [
      f('d/s#P#p1#SP#p1sp0.ibd'), f('d/s#P#p0#SP#p0sp1.ibd'), f('d/s#P#p0#SP#p0sp0.ibd'), f('d/s.frm'), f('d/s.par'),
      f('d/m8#p#p1.ibd'), f('d/M8#p#p0.ibd'), f('e/s#P#p0.ibd'), f('d/plain.ibd'),
    ];
    const p = pairFiles(files);
    expect(p.tables.map((t) => [t.key, t.name.table, t.partitions?.map((x) => x.path) ?? null, t.frm?.path ?? null, t.par?.path ?? null])).toEqual([
      ['d/M8.ibd', 'M8', ['d/M8#p#p0.ibd', 'd/m8#p#p1.ibd'], null, null],
      ['d/plain.ibd', 'plain', null, null, null],
      ['d/s.ibd', 's', ['d/s#P#p0#SP#p0sp0.ibd', 'd/s#P#p0#SP#p0sp1.ibd', 'd/s#P#p1#SP#p1sp0.ibd'], 'd/s.frm', 'd/s.par'],
      ['e/s.ibd', 's', ['e/s#P#p0.ibd'], null, null],
    ]);
    expect(p.orphans).toEqual([]);
  });
});

describe('the tables of a system tablespace', () => {
  const table = (name: string, storedName: string | null): SystemTable => ({
    name, storedName, state: storedName === null ? 'dropped' : 'live', rowFormat: 'DYNAMIC', indexes: [], rows: 1, countNote: null, source: storedName === null ? null : 'dictionary',
    file: 'ibdata1', frmUnread: false, columnCount: 1, index: { indexId: 30n, rootPage: 3 }, found: null, raw: null, notes: [], definition: null, pending: false,
  });

  it('pairs each with the .frm of its database folder beside ibdata1 (a partition with its table\'s)', () => {
    const files = [f('dd/ibdata1'), f('dd/shop/a.frm'), f('dd/shop/my@002dt.frm'), f('dd/shop/p.frm'), f('dd/shop/fpt.ibd'), f('dd/shop/fpt.frm'), f('dd/ib_logfile0')];
    expect(kindOf('dd/ibdata1')).toBe('system');
    const before = pairFiles(files);
    expect(before.systemFiles.map((s) => s.path)).toEqual(['dd/ibdata1']);
    expect(before.ignored.map((s) => s.path)).toEqual(['dd/ib_logfile0']);
    // before the dictionary is read, the .frm of tables inside ibdata1 are not said to lack an .ibd
    expect(before.orphans).toEqual([]);
    const tables = [table('shop/a', 'shop/a'), table('shop/my-t', 'shop/my@002dt'), table('shop/p#P#p0', 'shop/p#P#p0'), table('shop/b', 'shop/b'), table('dropped index 40', null)];
    const p = pairFiles(files, new Map([['dd/ibdata1', tables]]));
    expect(p.tables.map((t) => [t.key, t.name.table, t.frm?.path ?? null, t.system?.name ?? null])).toEqual([
      ['dd/shop/fpt.ibd', 'fpt', 'dd/shop/fpt.frm', null],
      ['dd/ibdata1#shop/a', 'shop/a', 'dd/shop/a.frm', 'shop/a'],
      ['dd/ibdata1#shop/my-t', 'shop/my-t', 'dd/shop/my@002dt.frm', 'shop/my-t'],
      ['dd/ibdata1#shop/p#P#p0', 'shop/p#P#p0', 'dd/shop/p.frm', 'shop/p#P#p0'],
      ['dd/ibdata1#shop/b', 'shop/b', null, 'shop/b'],
      ['dd/ibdata1#dropped index 40', 'dropped index 40', null, 'dropped index 40'],
    ]);
    expect(p.orphans).toEqual([]);
    // chunk by chunk as the listing hands them over: the same pairs, the files indexed once
    const pairer = systemPairer(files);
    const chunked = [...pairer(files[0], tables.slice(0, 2)), ...pairer(files[0], tables.slice(2))];
    expect(chunked).toEqual(p.tables.filter((t) => t.system));
  });

  it('gives an .ibd without its .frm the ibdata1 of its datadir (its data dictionary may define it), not one with its .frm', () => {
    const p = pairFiles([f('dd/ibdata1'), f('dd/shop/lost.ibd'), f('dd/shop/kept.ibd'), f('dd/shop/kept.frm'), f('other/x/far.ibd'), f('loose.ibd')]);
    expect(p.tables.map((t) => [t.key, t.dictionary?.path ?? null])).toEqual([
      ['dd/shop/kept.ibd', null], ['dd/shop/lost.ibd', 'dd/ibdata1'], ['loose.ibd', null], ['other/x/far.ibd', null],
    ]);
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

describe('files of other names that hold InnoDB pages (a raw disk image)', () => {
  // A disk image: 12 KiB of something else, then the index pages of the sample table, as a file system lays them out.
  const ibd = new Uint8Array(readFileSync(join(import.meta.dirname, '../../public/sample/employees.ibd')));
  const image = new Uint8Array(12 * 1024 + ibd.length - 3 * 16384);
  image.fill(0xaa, 0, 12 * 1024);
  image.set(ibd.subarray(3 * 16384), 12 * 1024);

  it('finds an index page at a 4 KiB boundary by its type and infimum record, and none in other bytes', () => {
    expect(holdsIndexPage(image)).toBe(true);
    expect(holdsIndexPage(ibd.subarray(0, 3 * 16384))).toBe(false); // page 0-2: FSP header, bitmaps, inode
    expect(holdsIndexPage(new Uint8Array(1 << 20))).toBe(false);
    expect(holdsIndexPage(new TextEncoder().encode('infimum '.repeat(2000)))).toBe(false);
  });

  it('offers disk.img as a table, and leaves a text file and a short file ignored', async () => {
    const disk = { file: new File([image], 'disk.img'), path: 'disk.img' };
    const text = { file: new File(['not pages\n'.repeat(1000)], 'notes.txt'), path: 'notes.txt' };
    const tiny = { file: new File([ibd.subarray(3 * 16384, 3 * 16384 + 1000)], 'cut.bin'), path: 'cut.bin' };
    // MySQL's doublewrite file holds index pages of many tables: read with its datadir's log, not as one.
    const dblwr = { file: new File([image], '#ib_16384_0.dblwr'), path: '#ib_16384_0.dblwr' };
    const files = await detectImages([disk, text, tiny, f('db/t.ibd'), dblwr]);
    expect(files.map((x) => x.image)).toEqual([true, undefined, undefined, undefined, undefined]);
    const p = pairFiles(files);
    expect(p.tables.map((t) => [t.key, t.name.table])).toEqual([['db/t.ibd', 't'], ['disk.img', 'disk']]);
    expect(p.ignored.map((x) => x.path)).toEqual(['notes.txt', 'cut.bin', '#ib_16384_0.dblwr']);
  });
});
