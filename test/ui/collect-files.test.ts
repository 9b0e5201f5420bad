/**
 * The drop walk (src/ui/files/collect-files.ts) over a stand-in for the browser's DataTransfer entries:
 * folders are walked depth-first with their paths, readEntries() is called until it returns nothing
 * (browsers hand out at most 100 entries a call), and loose files keep their names.
 */
import { describe, expect, it } from 'vitest';
import { collectDropped, collectPicked } from '../../src/ui/files/collect-files.ts';

interface FakeEntry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?: (ok: (f: File) => void) => void;
  createReader?: () => { readEntries: (ok: (e: FakeEntry[]) => void) => void };
}

const file = (name: string): FakeEntry => ({ isFile: true, isDirectory: false, name, file: (ok) => ok(new File([name], name)) });

function dir(name: string, children: FakeEntry[], perCall = 2): FakeEntry {
  return {
    isFile: false,
    isDirectory: true,
    name,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (ok) => {
          const batch = children.slice(at, at + perCall);
          at += batch.length;
          setTimeout(() => ok(batch), 0);
        },
      };
    },
  };
}

function dataTransfer(entries: FakeEntry[]): DataTransfer {
  const items = entries.map((e) => ({ kind: 'file', webkitGetAsEntry: () => e, getAsFile: () => null }));
  return { items, files: [] } as unknown as DataTransfer;
}

describe('collectDropped', () => {
  it('walks dropped folders with their paths, and keeps loose files', async () => {
    const dt = dataTransfer([
      dir('datadir', [dir('shop', [file('t.ibd'), file('t.frm'), file('t.cfg'), file('dump.sql'), dir('empty', [])]), file('ib_logfile0')]),
      file('extra.sql'),
    ]);
    const got = await collectDropped(dt);
    expect(got.map((f) => f.path)).toEqual([
      'datadir/shop/t.ibd', 'datadir/shop/t.frm', 'datadir/shop/t.cfg', 'datadir/shop/dump.sql', 'datadir/ib_logfile0', 'extra.sql',
    ]);
    expect(got[0].file.name).toBe('t.ibd');
  });

  it('falls back to the file list without entries', async () => {
    const f = new File(['x'], 'a.ibd');
    const got = await collectDropped({ items: [], files: [f] } as unknown as DataTransfer);
    expect(got).toEqual([{ file: f, path: 'a.ibd' }]);
  });
});

describe('collectPicked', () => {
  it('uses the folder-relative path of a folder pick', () => {
    const f = new File(['x'], 't.ibd');
    Object.defineProperty(f, 'webkitRelativePath', { value: 'db/t.ibd' });
    const g = new File(['y'], 'u.sql');
    expect(collectPicked([f, g] as unknown as FileList)).toEqual([
      { file: f, path: 'db/t.ibd' },
      { file: g, path: 'u.sql' },
    ]);
  });
});
