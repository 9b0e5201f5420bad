/**
 * The .zip of "Export all tables" (src/ui/export/zip.ts): a round trip through fflate's reader, and the
 * archive as Info-ZIP's `unzip` (installed by scripts/test.sh) tests and lists it, names with folders
 * and UTF-8 included.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ZipWriter } from '../../src/ui/export/zip.ts';
import { csvPathOf } from '../../src/ui/export/export-all.svelte.ts';

const enc = new TextEncoder();

describe('zip', () => {
  it('writes entries that read back, and that unzip accepts', async () => {
    const zip = new ZipWriter();
    const files: [string, string][] = [['t1.csv', 'i\n1\n'], ['db/t2.csv', 'i\n2\n'], ['café/ü.csv', ''], ['big.csv', 'x,y\n'.repeat(50_000)]];
    for (const [name, text] of files) zip.add(name, enc.encode(text));
    expect(zip.entries).toBe(4);
    const bytes = new Uint8Array(await zip.finish().arrayBuffer());
    const back = unzipSync(bytes);
    expect(Object.keys(back).sort()).toEqual(files.map(([n]) => n).sort());
    for (const [name, text] of files) expect(new TextDecoder().decode(back[name])).toBe(text);

    const dir = mkdtempSync(join(tmpdir(), 'zip-test-'));
    try {
      writeFileSync(join(dir, 'a.zip'), bytes);
      const r = spawnSync('unzip', ['-t', join(dir, 'a.zip')], { encoding: 'utf8' });
      expect(r.error, 'unzip must be installed (scripts/test.sh installs it)').toBeUndefined();
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(/No errors detected/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says so when the archive would pass 65,535 files', () => {
    const zip = new ZipWriter();
    const empty = new Uint8Array(0);
    for (let i = 0; i < 0xffff; i++) zip.add(`t${i}.csv`, empty);
    expect(() => zip.add('one-more.csv', empty)).toThrow(/at most 65535 files/);
  });

  it('names each table’s CSV after its .ibd path', () => {
    expect(csvPathOf('t1.ibd')).toBe('t1.csv');
    expect(csvPathOf('shop/orders.ibd')).toBe('shop/orders.csv');
    expect(csvPathOf('db/t#P#p0.ibd')).toBe('db/t#P#p0.csv');
    expect(csvPathOf('a/../b:c.ibd')).toBe('a/_/b_c.csv');
  });
});
