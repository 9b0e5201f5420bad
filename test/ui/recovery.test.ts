/**
 * The page's recovery paths without a browser: the worker methods it calls (listIndexes, then
 * openView / countLeaves / reportLeaves of a raw image through the view spec's `raw` and `index`),
 * and the report's plain-language texts (src/ui/recovery/recovery-report.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { emptyStats, type DecodeStats } from '../../src/core/readers/table-reader.ts';
import { createRecoveryMethods } from '../../workers/recovery-methods.ts';
import { createGuessMethods } from '../../workers/guess-methods.ts';
import type { TableDef } from '../../src/core/schema.ts';
import { createViewerMethods, statsSince } from '../../workers/viewer-methods.ts';
import { passEnd, problemsByPage, rawNotes, reportFigures, reportHeadline } from '../../src/ui/recovery/recovery-report.ts';
import { mergeStats } from '../../src/core/readers/parallel.ts';
import { recoveryReport } from '../../src/core/readers/recovery-target.ts';
import { resolveSchema } from '../../src/core/definitions/schema-source.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';

const dir = join(import.meta.dirname, '../../public/sample');
const whole = new Uint8Array(readFileSync(join(dir, 'employees.ibd')));
const table = parseCreateTables(readFileSync(join(dir, 'employees.sql'), 'utf8'))[0];
const PAGE = 16384;

describe('recovering a raw image in the page', () => {
  it('lists the indexes of a file cut before page 4, and decodes the clustered one through the view spec', async () => {
    const cut = new Blob([whole.slice(4 * PAGE)]);
    const list = await createRecoveryMethods().listIndexes(cut, 'cut.ibd');
    expect(list.pageSize).toBe(PAGE);
    expect(list.indexes.length).toBeGreaterThan(0);
    const clustered = list.indexes[0];
    expect(clustered.open.raw.base).toBe(-4 * PAGE);
    expect(clustered.root).toBeNull(); // page 3, the root, was cut off

    const viewer = createViewerMethods(() => table);
    const opened = await viewer.openView({ ibd: cut, name: 'cut.ibd', table, mode: 'live', raw: clustered.open.raw, index: clustered.open.index });
    expect(opened.info.leafSource).toBe('scan');
    const { leaves } = await viewer.leafPages();
    expect(leaves.length).toBeGreaterThan(0);
    // Counting reads the raw image through the same shifted view: page numbers match the decoder's.
    const { counts } = await viewer.countLeaves(leaves);
    const total = Array.from(counts).reduce((a, b) => a + b, 0);
    expect(total).toBe(300);

    // The report's pass: per run only that run's statistics, adding up to each page once.
    await viewer.decodeLeaves(leaves.slice(0, 1), true); // the grid read the first page already
    const half = Math.ceil(leaves.length / 2);
    const parts = [await viewer.reportLeaves(leaves.slice(0, half)), await viewer.reportLeaves(leaves.slice(half))];
    const report = mergeStats(parts);
    expect(report.pagesRead).toBe(leaves.length);
    expect(report.rowsDecoded).toBe(300);
    expect(report.pagesSkipped).toBe(0);
    // A search's run carries its own statistics too (a search over every leaf completes the report).
    const searched = await viewer.searchLeaves(leaves, true, { kind: 'text', text: 'no such text', column: null, matchCase: false });
    expect(searched.runStats.pagesRead).toBe(leaves.length);
    expect(searched.runStats.rowsDecoded).toBe(300);

    const notes = rawNotes(list, clustered).join('\n');
    expect(notes).toMatch(/pages 0–3 are missing/);
    expect(notes).toMatch(/root page was not found/);
  });
});

describe('guessing the columns of an index found by a scan', () => {
  it('guesses from the raw image\'s pages of that index: the same evidence as the intact file gives', async () => {
    const cut = new Blob([whole.slice(4 * PAGE)]);
    const list = await createRecoveryMethods().listIndexes(cut, 'cut.ibd');
    const clustered = list.indexes[0];
    const registered: TableDef[] = [];
    const methods = createGuessMethods((t) => { registered.push(t); });
    const fromRaw = await methods.guessColumns(cut, 'cut.ibd', clustered.open);
    // pages 0-3 (no leaf among them) are all the cut removed: the guess reads the same 300 records
    const fromFile = await methods.guessColumns(new Blob([whole]), 'cut.ibd');
    expect(fromRaw.recordsSampled).toBe(300);
    expect(fromRaw.fields).toEqual(fromFile.fields);
    expect(fromRaw.createSql).toBe(fromFile.createSql);
    expect(registered.length).toBe(2);
    // and an index id the image does not hold is refused, naming it
    await expect(methods.guessColumns(cut, 'cut.ibd', { ...clustered.open, index: { indexId: 999_999n } })).rejects.toThrow('index 999999');
  });
});

describe('a table chosen by its SDI index in the page', () => {
  const file = join(import.meta.dirname, '../fixtures/mysql-testsuite/mysql80/pk/tb24_sk.ibd');
  it('opens the view on the index the SDI names (ViewSpec.index), as a general tablespace table is', async () => {
    expect(existsSync(file), `${file} (test/fixtures) is missing`).toBe(true);
    const bytes = new Uint8Array(readFileSync(file));
    const resolved = await resolveSchema(bytesSource(bytes, 'tb24_sk.ibd'), []);
    const own = resolved.candidates.find((c) => c.table === resolved.table);
    expect(own?.clusteredIndex).toBeTruthy();
    const table = resolved.table!;
    const viewer = createViewerMethods(() => table);
    const blob = new Blob([bytes]);
    const plain = await viewer.openView({ ibd: blob, name: 'tb24_sk.ibd', table, mode: 'live' });
    const { leaves: plainLeaves } = await viewer.leafPages();
    const opened = await viewer.openView({ ibd: blob, name: 'tb24_sk.ibd', table, mode: 'live', index: own!.clusteredIndex! });
    expect(opened.info.indexId).toBe(own!.clusteredIndex!.indexId);
    expect(opened.info.rootPage).toBe(plain.info.rootPage);
    const { leaves } = await viewer.leafPages();
    expect(Array.from(leaves)).toEqual(Array.from(plainLeaves));
    const { counts } = await viewer.countLeaves(leaves);
    const decoded = await viewer.decodeLeaves(leaves, true);
    expect(decoded.batches.reduce((n, b) => n + b.rows, 0)).toBe(Array.from(counts).reduce((a, b) => a + b, 0));
  });
});

describe('the recovery report texts', () => {
  it('subtracts statistics of one reader', () => {
    const before: DecodeStats = { ...emptyStats(), pagesRead: 3, rowsDecoded: 30, problems: [{ page: 1, record: null, message: 'a' }] };
    const after: DecodeStats = { ...emptyStats(), pagesRead: 5, rowsDecoded: 52, pagesSkipped: 1, problems: [{ page: 1, record: null, message: 'a' }, { page: 9, record: null, message: 'b' }] };
    const d = statsSince(before, after);
    expect(d.pagesRead).toBe(2);
    expect(d.rowsDecoded).toBe(22);
    expect(d.pagesSkipped).toBe(1);
    expect(d.problems).toEqual([{ page: 9, record: null, message: 'b' }]);
  });

  it('groups problems by page, file-wide ones first, without repeats', () => {
    const grouped = problemsByPage([
      { page: 7, record: null, message: 'checksum' },
      { page: null, record: null, message: 'no root' },
      { page: 7, record: 120, message: 'bad record' },
      { page: 3, record: null, message: 'skipped' },
      { page: 7, record: null, message: 'checksum' },
    ]);
    expect(grouped).toEqual([
      { page: null, what: ['no root'] },
      { page: 3, what: ['skipped'] },
      { page: 7, what: ['checksum', 'record at byte 120: bad record'] },
    ]);
  });

  it('says what was read and what was lost', () => {
    const s: DecodeStats = { ...emptyStats(), pagesRead: 10, rowsDecoded: 1000, deletedRecovered: 10, pagesSkipped: 2, recordsFailed: 3 };
    expect(reportFigures(s).find((f) => f.label === 'Rows read (live)')?.value).toBe(990);
    expect(reportFigures(s).find((f) => f.label.startsWith('Pages skipped'))?.bad).toBe(true);
    expect(reportHeadline(s, true)).toBe('Every leaf page was tried: 1,000 rows from 10 pages; 2 pages could not be read, 3 records could not be decoded.');
    expect(reportHeadline({ ...s, pagesSkipped: 0 }, true)).toMatch(/^Every leaf page was read: /);
    expect(reportHeadline({ ...emptyStats(), pagesRead: 1, rowsDecoded: 1 }, false)).toMatch(/^So far: 1 row from 1 page, nothing damaged/);
  });

  it('never calls a pass complete while leaf pages could not be read (a truncated file)', () => {
    const s: DecodeStats = { ...emptyStats(), pagesRead: 12, rowsDecoded: 1775, pagesSkipped: 16 };
    expect(passEnd(s, 28)).toEqual({ complete: false, text: 'Not complete: 12 of 28 leaf pages were read; 16 pages could not be read (see below).' });
    expect(passEnd({ ...s, pagesRead: 28, pagesSkipped: 0 }, 28)).toEqual({ complete: true, text: 'Complete: all 28 leaf pages were read.' });
    expect(recoveryReport('cut.ibd', s)).toMatch(/; INCOMPLETE: 16 of 28 leaf pages could not be read\n$/);
    expect(recoveryReport('cut.ibd', { ...s, pagesSkipped: 0 })).toMatch(/; every leaf page read\n$/);
    // --rows all: the rows of damaged pages are not called live.
    expect(recoveryReport('t.ibd', { ...s, rowsDecoded: 3000, deletedRecovered: 2, damagedRows: 78, damagedPages: 1 })).toContain('rows live 2920, from damaged pages 78, deleted 2 ');
  });
});
