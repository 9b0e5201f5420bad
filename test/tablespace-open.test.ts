import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verifyPage } from '../src/core/checksum.ts';
import { bytesSource } from '../src/core/source.ts';
import { summarize } from '../src/core/summary.ts';
import { Tablespace } from '../src/core/tablespace.ts';

const bytes = new Uint8Array(readFileSync(new URL('../public/sample/employees.ibd', import.meta.url)));

describe('Tablespace.open', () => {
  it('gives the summary, the definition and the rows of one source one tablespace', async () => {
    const source = bytesSource(bytes, 'employees.ibd');
    const ts = await Tablespace.open(source);
    expect(await Tablespace.open(source)).toBe(ts);
    // Not encrypted: keys change nothing.
    expect(await Tablespace.open(source, { keys: {} })).toBe(ts);
    expect(await Tablespace.open(bytesSource(bytes, 'employees.ibd'))).not.toBe(ts);
  });

  it('knows the checksums of the pages it has read, as verifyPage finds them', async () => {
    const ts = await Tablespace.open(bytesSource(bytes, 'employees.ibd'));
    const page = ts.pageSize;
    expect(ts.knownChecksum(3)).toBeUndefined();
    await ts.page(3);
    expect(ts.knownChecksum(3)).toBe(verifyPage(bytes.subarray(3 * page, 4 * page), ts.fullCrc32));
  });

  it('summarizes the same through a shared tablespace as through a fresh one', async () => {
    const shared = bytesSource(bytes, 'employees.ibd');
    const ts = await Tablespace.open(shared);
    for (let no = 0; no < ts.pageCount; no++) await ts.page(no);
    expect(await summarize(shared)).toEqual(await summarize(bytesSource(bytes, 'employees.ibd')));
  });
});
