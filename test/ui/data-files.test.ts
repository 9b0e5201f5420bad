import { describe, expect, it } from 'vitest';
import { systemSpaces, withDataFilesJoined } from '../../src/ui/files/data-files.ts';
import type { InputFile } from '../../src/ui/files/pairing.ts';

const f = (path: string, text = 'x'): InputFile => ({ file: new File([text], path.slice(path.lastIndexOf('/') + 1), { lastModified: 1 }), path });

describe('the data files of a system tablespace dropped together', () => {
  it('ibdata1 with the numbered files of its folder, in order, up to a gap', () => {
    const files = [f('dd/ibdata3'), f('dd/ibdata1'), f('dd/ibdata2'), f('dd/ibdata5'), f('other/ibdata2'), f('x/ibdata1')];
    const spaces = systemSpaces(files);
    expect(spaces.map((s) => [s.first.path, s.more.map((m) => m.path)])).toEqual([['dd/ibdata1', ['dd/ibdata2', 'dd/ibdata3']], ['x/ibdata1', []]]);
  });

  it('joins them into one File read across them, the same File for the same files', async () => {
    const joined = new Map<string, File>();
    const files = [f('dd/ibdata1', 'abc'), f('dd/ibdata2', 'def'), f('dd/shop/t.frm')];
    const once = withDataFilesJoined(files, joined);
    expect(once.map((i) => [i.path, i.file.name, i.dataFiles])).toEqual([['dd/ibdata1', 'ibdata1', ['dd/ibdata2']], ['dd/shop/t.frm', 't.frm', undefined]]);
    expect(await once[0].file.slice(2, 5).text()).toBe('cde');
    expect(withDataFilesJoined(files, joined)[0].file).toBe(once[0].file);
    // given again (another copy), a new File
    const again = withDataFilesJoined([f('dd/ibdata1', 'abc'), { ...f('dd/ibdata2', 'def'), file: new File(['deg'], 'ibdata2', { lastModified: 2 }) }], joined);
    expect(await again[0].file.text()).toBe('abcdeg');
    // ibdata1 alone is itself
    const alone = f('dd/ibdata1');
    expect(withDataFilesJoined([alone], joined)[0]).toBe(alone);
  });
});
