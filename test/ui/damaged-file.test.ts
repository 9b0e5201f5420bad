/**
 * The worker methods the page reads a damaged table through, in Node, against a whole read of the
 * same file by the decoder (what the CLI prints): the count of every row mode with its damaged pages
 * (viewer-methods countLeaves, leaf-damage.ts), exact also while the grid decodes the same damaged
 * page beside it in the worker; checkDefinition's verdict; and the listing's figures (list-methods).
 */
import { describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { openTable, type RowMode } from '../../src/core/readers/table-reader.ts';
import { DamageTally } from '../../src/ui/recovery/damage.ts';
import { createListMethods } from '../../workers/list-methods.ts';
import { createViewerMethods } from '../../workers/viewer-methods.ts';
import { DEFINITION_MISMATCH } from '../../workers/viewer-api.ts';
import { damagedSample, PAGE, SAMPLE_SQL } from './damaged-sample.ts';

const table = parseCreateTables(SAMPLE_SQL)[0];
/** Leaf page 7 of 6-9, 4 KiB of it overwritten (as the browser test does). */
const damaged = damagedSample(7 * PAGE + 4000, 4096, 12345);

/** A whole read in `mode`, as the CLI makes it: rows and statistics. */
async function wholeRead(bytes: Uint8Array, mode: RowMode) {
  const reader = await openTable(bytesSource(bytes, 'employees.ibd'), table, { mode });
  let rows = 0;
  for await (const batch of reader.batches()) rows += batch.rows;
  return { rows, stats: reader.stats };
}

describe('counting a damaged table in the page', () => {
  for (const mode of ['live', 'deleted', 'both', 'damaged', 'all'] as const) {
    it(`counts in ${mode} mode what a whole read returns, and withholds and loses what it does`, async () => {
      const want = await wholeRead(damaged, mode);
      const viewer = createViewerMethods(() => table);
      await viewer.openView({ ibd: new Blob([damaged]), name: 'employees.ibd', table, mode });
      await viewer.checkDefinition();
      const { leaves } = await viewer.leafPages();
      const tally = new DamageTally(leaves, 11);
      let rows = 0;
      // Run by run, as the page counts (here one leaf a run).
      for (let i = 0; i < leaves.length; i++) {
        const run = await viewer.countLeaves(leaves.slice(i, i + 1));
        tally.add(i, run);
        rows += run.counts[0];
      }
      expect(rows).toBe(want.rows);
      expect(tally.figures).toMatchObject({
        damagedPages: want.stats.damagedPages, damagedRows: want.stats.damagedRows, withheld: want.stats.damagedWithheld, lost: want.stats.recordsFailed, skipped: 0,
      });
      expect(tally.figures.damagedList).toEqual([7]);
      expect(tally.reason(7)).toMatch(/^the page is damaged \(its checksum does not match\)/);
    });
  }

  it('keeps each run\'s figures its own while the grid decodes the damaged page in the same worker', async () => {
    const want = await wholeRead(damaged, 'live');
    const viewer = createViewerMethods(() => table);
    await viewer.openView({ ibd: new Blob([damaged]), name: 'employees.ibd', table, mode: 'live' });
    const { leaves } = await viewer.leafPages();
    const [counted] = await Promise.all([viewer.countLeaves(leaves), viewer.decodeLeaves(leaves.slice(1, 2), false), viewer.decodeLeaves(leaves, true)]);
    expect(counted.damaged).toHaveLength(1);
    expect(counted.damaged[0]).toMatchObject({ at: 1, withheld: want.stats.damagedWithheld, lost: want.stats.recordsFailed, rows: 0 });
  });

  it('counts a truncated copy\'s leaves past the end of the file as unreadable', async () => {
    const cut = damagedSample(0, 0, 1).slice(0, 8 * PAGE + 5000);
    const viewer = createViewerMethods(() => table);
    const opened = await viewer.openView({ ibd: new Blob([cut]), name: 'employees.ibd', table, mode: 'live' });
    const { leaves } = await viewer.leafPages();
    const tally = new DamageTally(leaves, opened.info.pageCount);
    tally.add(0, await viewer.countLeaves(leaves));
    expect(tally.figures).toMatchObject({ skipped: (await wholeRead(cut, 'live')).stats.pagesSkipped, pastEnd: 2, skippedList: [8, 9] });
  });
});

describe('a definition that does not fit', () => {
  const wrong = parseCreateTables('CREATE TABLE employees (id INT NOT NULL, first_name VARCHAR(40) NOT NULL, PRIMARY KEY (id)) ENGINE=InnoDB;')[0];
  // The first leaf (page 6) damaged: only the next one can tell.
  const firstDamaged = damagedSample(6 * PAGE + 3000, 4096, 777);

  it('is a verdict, named so for the page, before any row', async () => {
    const viewer = createViewerMethods(() => wrong);
    await viewer.openView({ ibd: new Blob([firstDamaged]), name: 'employees.ibd', table: wrong, mode: 'live' });
    const verdict = await viewer.checkDefinition().then(() => null, (e: unknown) => e as Error);
    expect(verdict?.name).toBe(DEFINITION_MISMATCH);
    expect(verdict?.message).toMatch(/the table definition does not match the records of this file/);
  });

  it('gives no CSV in Export all tables, but the verdict', async () => {
    const [out] = await createListMethods().exportTables([{ ibd: new File([firstDamaged], 'employees.ibd'), name: 'employees.ibd', frm: null }], [
      { name: 'wrong.sql', blob: new Blob(['CREATE TABLE employees (id INT NOT NULL, first_name VARCHAR(40) NOT NULL, PRIMARY KEY (id)) ENGINE=InnoDB;']) },
    ]);
    expect(out.bytes).toBeNull();
    expect(out.problem).toMatch(/the table definition does not match the records of this file/);
  });
});

describe('the listing of a damaged table', () => {
  it('counts its live rows as a read does, names its damaged pages, and says what its CSV left out', async () => {
    const want = await wholeRead(damaged, 'live');
    const item = { ibd: new File([damaged], 'employees.ibd'), name: 'employees.ibd', frm: null };
    const sql = [{ name: 'employees.sql', blob: new Blob([SAMPLE_SQL]) }];
    const [listed] = await createListMethods().listTables([item], sql, { fullBelow: 1 << 20, csvBelow: 1 << 20 });
    expect(listed.live).toEqual({ rows: want.rows, damagedPages: 1, unreadablePages: 0 });
    expect(listed.csv?.rows).toBe(want.rows);
    expect(listed.csv?.problem).toBe(`1 damaged page (failing the checksum or a structural check): ${want.stats.damagedWithheld} rows from it withheld; ${want.stats.recordsFailed} records unreadable`);
    // An intact file: no count of its own (the summary's is the read's).
    const [intact] = await createListMethods().listTables([{ ...item, ibd: new File([damagedSample(0, 0, 1)], 'employees.ibd') }], sql, { fullBelow: 1 << 20, csvBelow: 0 });
    expect(intact.live).toBeNull();
    expect(intact.summary?.rows).toBe(300);
  });
});
