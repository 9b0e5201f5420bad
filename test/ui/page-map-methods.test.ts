/**
 * The page map's worker methods (workers/page-map-methods.ts) on the bundled sample and a damaged
 * copy: the cells add up to the core's summarize of the same file, the map a summary filled is the
 * one answered from (the summary worker's own, or a small file's from the listing worker's full
 * summary: no second scan), the map the row count's reads fill is complete when the count ends,
 * and the inspector decodes a leaf with the table's definition.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { PageMap, PageState } from '../../src/core/readers/page-map.ts';
import { summarize } from '../../src/core/readers/summary.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { createListMethods } from '../../workers/list-methods.ts';
import { createPageMapMethods, PageMapStore } from '../../workers/page-map-methods.ts';
import { createViewerMethods } from '../../workers/viewer-methods.ts';
import { damagedSample, PAGE, SAMPLE_DIR, SAMPLE_SQL } from './damaged-sample.ts';

const table = parseCreateTables(SAMPLE_SQL)[0];
const sample = new Uint8Array(readFileSync(join(SAMPLE_DIR, 'employees.ibd')));

async function coreTotals(bytes: Uint8Array) {
  const map = new PageMap();
  await summarize(bytesSource(bytes, 'employees.ibd'), { pageMap: map });
  return map.totals();
}

describe('page map worker methods', () => {
  it('answer cells that add up to the core map, from the map the summary filled', async () => {
    const store = new PageMapStore();
    const viewer = createViewerMethods(() => table, store);
    const methods = createPageMapMethods(store);
    const ibd = new File([sample], 'employees.ibd');
    await viewer.summarize(ibd, 'employees.ibd');
    // No second pass: the file is not read again for its map.
    ibd.slice = () => {
      throw new Error('read again');
    };
    const cells = await methods.pageCells(ibd, 'employees.ibd', 4);
    const want = await coreTotals(sample);
    expect(cells.pages).toBe(sample.length / PAGE);
    const states = want.states.map((_, i) => cells.cells.reduce((n, c) => n + c.states[i], 0));
    expect(states).toEqual(want.states);
    expect(cells.levels.length).toBe(cells.cells.length);
    const total = await methods.pageRange(ibd, 'employees.ibd', 0, cells.pages);
    expect(total).toEqual(want);
  });

  it('waits for the summary scan to come, answers from its map as it fills, reading the file once', async () => {
    const reads = (ibd: File) => {
      const slice = ibd.slice.bind(ibd);
      let n = 0;
      ibd.slice = (...args) => (n++, slice(...args));
      return () => n;
    };
    const alone = new File([sample], 'employees.ibd');
    const once = reads(alone);
    await createViewerMethods(() => table, new PageMapStore()).summarize(alone, alone.name);
    const store = new PageMapStore();
    const viewer = createViewerMethods(() => table, store);
    const methods = createPageMapMethods(store);
    const ibd = new File([sample], 'employees.ibd');
    const count = reads(ibd);
    // Asked before the scan starts: answered once it does, from the map it fills.
    const early = methods.pageCells(ibd, ibd.name, 4, undefined, true);
    await new Promise((r) => setTimeout(r, 50));
    expect(count()).toBe(0);
    await viewer.summarize(ibd, ibd.name);
    expect((await early).pages === 0 || (await early).pages === sample.length / PAGE).toBe(true);
    const last = await methods.pageCells(ibd, ibd.name, 4);
    expect(last.complete).toBe(true);
    expect(await methods.pageRange(ibd, ibd.name, 0, last.pages)).toEqual(await coreTotals(sample));
    expect(count()).toBe(once());
  });

  it('fills the map from the row count\'s reads (the pool worker\'s) and the pages it did not read, complete when the count ends', async () => {
    const counter = createViewerMethods(() => table);
    const store = new PageMapStore();
    const methods = createPageMapMethods(store);
    const ibd = new File([sample], 'employees.ibd');
    await counter.openView({ ibd, name: ibd.name, table, mode: 'live' });
    const { leaves } = await counter.leafPages();
    await methods.countedMapStart(ibd, ibd.name);
    const early = methods.pageCells(ibd, ibd.name, 4, undefined, true);
    let mapped = 0;
    for (let at = 0; at < leaves.length; at += 2) {
      const counted = await counter.countLeaves(leaves.slice(at, at + 2), true);
      mapped += counted.mapped?.reduce((n, r) => n + r.map.pageCount, 0) ?? 0;
      await methods.countedMapPages(ibd, ibd.name, structuredClone(counted.mapped ?? []));
    }
    expect(mapped).toBeGreaterThanOrEqual(leaves.length);
    expect((await early).complete).toBe(false);
    await methods.countedMapEnd(ibd, ibd.name, true);
    const cells = await methods.pageCells(ibd, ibd.name, 4);
    expect(cells.complete).toBe(true);
    expect(await methods.pageRange(ibd, ibd.name, 0, cells.pages)).toEqual(await coreTotals(sample));
    // The summary's scan that follows leaves the count's map as it is.
    await createViewerMethods(() => table, store).summarize(ibd, ibd.name);
    expect(await methods.pageRange(ibd, ibd.name, 0, cells.pages)).toEqual(await coreTotals(sample));
    // A count that stops leaves no map: the next question gets a scan of its own.
    const other = new File([sample], 'other.ibd');
    await methods.countedMapStart(other, other.name);
    await methods.countedMapEnd(other, other.name, false);
    await new Promise((r) => setTimeout(r, 0));
    expect(store.has(other, other.name)).toBe(false);
  });

  it('answers the panel opened as the count starts from the count\'s map, with no scan of its own', async () => {
    const methods = createPageMapMethods(new PageMapStore());
    const ibd = new File([sample], 'employees.ibd');
    await methods.countedMapStart(ibd, ibd.name);
    // The summary is over (not coming): before the fix this started a whole scan, answered complete.
    const cells = await methods.pageCells(ibd, ibd.name, 4);
    expect(cells.complete).toBe(false);
    expect(cells.cells.reduce((n, c) => n + c.states[PageState.PENDING], 0)).toBeGreaterThan(0);
    await methods.countedMapEnd(ibd, ibd.name, true);
    expect((await methods.pageCells(ibd, ibd.name, 4)).complete).toBe(true);
  });

  it('stops a scan of its own the panel started when the count\'s map replaces it, and answers from that map', async () => {
    const methods = createPageMapMethods(new PageMapStore());
    const ibd = new File([sample], 'employees.ibd');
    // The summary's pass streams its ranges (ByteSource.readInto); held until the count's map is made.
    let release = () => undefined as void;
    const held = new Promise<void>((r) => (release = r));
    let streams = 0;
    const slice = ibd.slice.bind(ibd);
    ibd.slice = (...args) => {
      const part = slice(...args);
      const stream = part.stream.bind(part);
      part.stream = () => {
        streams++;
        const body = stream();
        return new ReadableStream({ type: 'bytes', async pull(c) {
          await held;
          const reader = body.getReader();
          for (let r = await reader.read(); !r.done; r = await reader.read()) c.enqueue(r.value);
          c.close();
        } }) as ReturnType<Blob['stream']>;
      };
      return part;
    };
    const panel = methods.pageCells(ibd, ibd.name, 4);
    await new Promise((r) => setTimeout(r, 50));
    expect(streams).toBe(1);
    await methods.countedMapStart(ibd, ibd.name);
    await new Promise((r) => setTimeout(r, 50));
    release();
    const cells = await panel;
    // Before the fix the scan went on to the end and the panel got its map, complete, the file read twice.
    expect(cells.complete).toBe(false);
    expect(cells.cells.reduce((n, c) => n + c.states[PageState.PENDING], 0)).toBeGreaterThan(0);
    expect(streams).toBe(1);
    await methods.countedMapEnd(ibd, ibd.name, true);
    expect((await methods.pageCells(ibd, ibd.name, 4)).complete).toBe(true);
  });

  it('names the trees by the definition: PRIMARY, then each secondary index as --index finds it', async () => {
    const methods = createPageMapMethods(new PageMapStore());
    const ibd = new Blob([sample]);
    const summary = await summarize(bytesSource(sample, 'employees.ibd'));
    const names = await methods.indexNames(ibd, 'employees.ibd', table);
    expect(names.map((n) => [n.indexId, n.name, n.clustered])).toEqual([
      [summary.indexes[0].indexId, 'PRIMARY', true],
      [summary.indexes[1].indexId, 'uq_email', false],
      [summary.indexes[2].indexId, 'idx_department', false],
    ]);
  });

  it('answers a small file from the map its listing summary filled, reading it no more', async () => {
    const ibd = new File([sample], 'employees.ibd');
    const [listed] = await createListMethods().listTables([{ ibd, name: ibd.name, frm: null }], [], { fullBelow: 1 << 20, csvBelow: 0 });
    expect(listed.summary?.complete).toBe(true);
    expect(listed.pageMap?.pageCount).toBe(sample.length / PAGE);
    const methods = createPageMapMethods(new PageMapStore());
    await methods.keepPageMap(ibd, ibd.name, structuredClone(listed.pageMap!));
    ibd.slice = () => {
      throw new Error('read again');
    };
    const cells = await methods.pageCells(ibd, ibd.name, 1200);
    expect(cells.indexIds).toEqual(listed.summary?.indexes.map((i) => i.indexId));
    expect(await methods.pageRange(ibd, ibd.name, 0, cells.pages)).toEqual(await coreTotals(sample));
    expect((await methods.pageLevels(ibd, ibd.name)).map((t) => t.pages.reduce((a, b) => a + b, 0))).toEqual(listed.summary?.indexes.map((i) => i.pages));
  });

  it('marks a damaged page and inspects a leaf with the definition', async () => {
    const methods = createPageMapMethods(new PageMapStore());
    const ibd = new Blob([damagedSample(7 * PAGE + 4000, 4096, 12345)]);
    expect((await methods.pageEntry(ibd, 'employees.ibd', 7)).state).toBe('checksum-bad');
    const [clustered] = await methods.pageLevels(ibd, 'employees.ibd');
    expect(clustered.damaged).toBe(1);
    expect(clustered.fill.length).toBe(clustered.pages.length);
    for (const f of clustered.fill) expect(f).toBeGreaterThan(0);
    // A B-tree node's pages by cell: each level's marks add up to its page count, on the cells of its pages.
    const cells = await methods.pageCells(ibd, 'employees.ibd', 5);
    for (const [level, pages] of clustered.pages.entries()) {
      const marks = await methods.pageMarks(ibd, 'employees.ibd', cells.pagesPerCell, clustered.indexId, level);
      expect(marks.length).toBe(cells.cells.length);
      expect(marks.reduce((n, m) => n + m, 0)).toBe(pages);
      for (const [i, m] of marks.entries()) if (m > 0) expect(cells.cells[i].indexes[clustered.indexId]).toBeGreaterThanOrEqual(m);
    }
    const whole = await methods.pageMarks(ibd, 'employees.ibd', 1, clustered.indexId, null);
    expect(whole.reduce((n, m) => n + m, 0)).toBe(clustered.pages.reduce((a, b) => a + b, 0));
    expect((await methods.pageEntry(ibd, 'employees.ibd', 7)).indexId).toBe(clustered.indexId);
    expect(whole[7]).toBe(1);
    const leaf = await methods.inspectPage(new Blob([sample]), 'employees.ibd', 6, undefined, table);
    expect(leaf.index?.decoded?.rows.length).toBeGreaterThan(0);
  });
});
