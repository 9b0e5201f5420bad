/**
 * A dropped table whose B-tree had merged pages before the drop, read back from the freed extents
 * of ibdata1 (MariaDB, --innodb-file-per-table=OFF). A merge frees the emptied leaf but leaves its
 * old image on disk (its records an old copy of rows that live on, or were deleted): once the table
 * is dropped every page of it is free, so only the leaf list tells the freed leaf from the others
 * (src/core/btree/leaf-chain.ts).
 *
 * Which leaves are stale is computed from the file itself: every leaf page of the index minus those
 * the B-tree (from its root) reaches. With the root overwritten (zeroed in a copy), the leaves can
 * only be found by scanning: the live rows must still be exactly the server's last SELECT, and the
 * stale leaves' records come back only as rows of state `damaged`, counted.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '../../src/core/readers/table-reader.ts';
import { mergedAndDropped, PAGE, staleRecords, type MergedDrop } from './dropped-merged-setup.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

let dir: string;
let drop: MergedDrop;
let rows: Row[];
let indexId: bigint;

const cli = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

/** Every ['id', 'label'] row of NDJSON output, and the `_row_state` of each. */
function read(text: string): { rows: Row[]; states: string[] } {
  const lines = text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, string | null>);
  return { rows: lines.map((o) => [o.id, o.label]), states: lines.map((o) => o._row_state ?? 'live') };
}

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
  dir = mkdtempSync(join(tmpdir(), 'ibd-merged-'));
  drop = await mergedAndDropped();
  ({ rows, indexId } = drop);
  writeFileSync(join(dir, 'merged.sql'), `${drop.ddl};`);
  writeFileSync(join(dir, 'ibdata1'), drop.ibdata1);
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a dropped table whose leaves were merged before the drop', () => {
  it('read from its root: the B-tree reaches only the current leaves, the rows are the server\'s', () => {
    const run = cli([join(dir, 'ibdata1'), '--schema', join(dir, 'merged.sql'), '--index-id', String(indexId), '--format', 'ndjson', '--json-strings']);
    expect(run.status, run.stderr).toBe(0);
    expect(read(run.stdout).rows).toEqual(rows);
  });

  it('its root overwritten: the leaves a merge freed are told apart by the leaf list, their records only rows of state damaged', () => {
    // The file's leaves hold more records than the table had: the current leaves hold its rows (purge
    // is done), the others, which a merge freed, old copies.
    const stale = staleRecords(drop);
    expect(stale).toBeGreaterThan(0);

    const bytes = Buffer.from(drop.ibdata1);
    bytes.fill(0, drop.rootPage * PAGE, (drop.rootPage + 1) * PAGE);
    const zeroed = join(dir, 'zeroed-ibdata1');
    writeFileSync(zeroed, bytes);
    for (const threads of ['1', '2']) {
      const live = cli([zeroed, '--schema', join(dir, 'merged.sql'), '--index-id', String(indexId), '--format', 'ndjson', '--json-strings', '--threads', threads]);
      expect(live.status, live.stderr).toBe(2);
      expect(live.stderr).toContain('out of its index\'s leaf list');
      const got = read(live.stdout).rows;
      expect(got.map((r) => JSON.stringify(r)).sort()).toEqual(rows.map((r) => JSON.stringify(r)).sort());

      const everything = read(cli([zeroed, '--schema', join(dir, 'merged.sql'), '--index-id', String(indexId), '--format', 'ndjson', '--json-strings', '--rows', 'all', '--threads', threads]).stdout);
      const damaged = everything.states.filter((s) => s === 'damaged').length;
      // Every old copy is back, of state damaged: the freed pages are intact, their lists read whole.
      expect(damaged).toBe(stale);

      const count = cli([zeroed, '--schema', join(dir, 'merged.sql'), '--index-id', String(indexId), '--count', '--threads', threads]);
      expect(count.stdout.trim().split('\n')[0], count.stderr).toBe(String(rows.length));
    }
  });
});
