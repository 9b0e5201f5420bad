/**
 * The damage test's own parts, on the bundled sample (public/sample/employees.ibd and the server's
 * CSV of it, test/fixtures/sample-employees.csv): no server, a second or so. The CSV record split,
 * the record map of the intact file, which records a damaged copy leaves intact, and the judge's
 * verdicts on outputs made wrong on purpose. These hold whatever the decoder does with damage.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvRows } from '../../src/core/writers/output.ts';
import { csvRecords, multisetMinus, parseCsvOutput, rowRecords, splitState } from './csv-records.ts';
import { bitFlip, burst, truncate, zeroPage } from './damage.ts';
import { intactness, mapLeafRecords } from './intact.ts';
import { byState, difference, duplicates, missing, notIn, pagesCalledDamaged, pagesNamed, saysMissing, tallyDamaged, withheldCount, type DamagedTally } from './judge.ts';

const ROOT = join(import.meta.dirname, '../..');
const bytes = new Uint8Array(readFileSync(join(ROOT, 'public/sample/employees.ibd')));
const ddl = readFileSync(join(ROOT, 'public/sample/employees.sql'), 'utf8');
const serverCsv = readFileSync(join(ROOT, 'test/fixtures/sample-employees.csv'), 'utf8');

describe('CSV records', () => {
  it('split where the CLI ends a row: not at a line break inside quotes', () => {
    const rows = [['1', 'a\nb', null], ['2', 'say "hi",\n', ''], ['3', '\\N', 'x']];
    const records = rowRecords(rows);
    expect(records).toEqual(['1,"a\nb",\\N', '2,"say ""hi"",\n",', '3,"\\N",x']);
    expect(csvRecords(csvRows(rows) + 'tail')).toEqual([...records, 'tail']);
    expect(splitState('1,"a,b",damaged')).toEqual({ row: '1,"a,b"', state: 'damaged' });
    expect(multisetMinus(['a', 'a', 'b'], ['a', 'c'])).toEqual(['a', 'b']);
  });

  it('the sample CSV is the server rows, one record per row', () => {
    const { header, records } = parseCsvOutput(serverCsv);
    expect(header?.startsWith('id,first_name')).toBe(true);
    expect(records.length).toBe(300);
  });
});

describe('intact records', async () => {
  const everRows = parseCsvOutput(serverCsv).records;
  const map = await mapLeafRecords({ bytes, ddl, everRows });

  it('every record of the intact file, paired with its server row', () => {
    expect(map.records.length).toBe(300);
    expect(new Set(map.records.map((r) => r.row))).toEqual(new Set(everRows));
    for (const r of map.records) expect(r.size).toBeGreaterThan(20);
    const same = intactness(map, bytes, bytes);
    expect(same.intact.length).toBe(300);
    expect(same.damagedLeaves).toEqual([]);
    expect(same.undamagedLeaves.size).toBe(map.leaves.length);
  });

  it('a burst or a bit flip: the records near it are not intact, the others are', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const copy = seed % 2 ? burst(bytes, map, seed) : bitFlip(bytes, map, seed);
      const state = intactness(map, bytes, copy.bytes);
      expect(state.damagedLeaves.length, copy.what).toBeGreaterThan(0);
      for (const r of map.records) {
        const start = r.page * map.pageSize;
        let touched = false;
        for (let i = r.origin - r.size; i < r.origin + r.size; i++) if (bytes[start + i] !== copy.bytes[start + i]) touched = true;
        expect(state.intact.includes(r), `${copy.what}: page ${r.page}, record at ${r.origin}`).toBe(!touched);
      }
      // A bit flip in a record: that record is never counted intact.
      if (copy.kind === 'bit flip') expect(map.records.length - state.intact.length, copy.what).toBeGreaterThanOrEqual(1);
    }
  });

  it('zeroed and truncated copies', () => {
    const zeroed = intactness(map, bytes, zeroPage(bytes, map, map.leaves[0], 'root zeroed').bytes);
    expect(zeroed.damagedLeaves).toEqual([map.leaves[0]]);
    expect(zeroed.intact.every((r) => r.page !== map.leaves[0])).toBe(true);
    const cut = truncate(bytes, map);
    const short = intactness(map, bytes, cut.bytes);
    const present = cut.bytes.length / map.pageSize;
    expect(short.missingPages).toBe(map.pageCount - present);
    expect(short.intact).toEqual(map.records.filter((r) => r.page < present));
    expect(short.damagedLeaves).toEqual([]);
  });
});

describe('the judge', () => {
  const { records } = parseCsvOutput(serverCsv);
  const truth = new Set(records);

  it('catches a changed value, a lost row, a wrong state', () => {
    const changed = [...records];
    changed[7] = changed[7].replace('@example.com', '@example.con');
    expect(notIn(changed, truth)).toEqual([changed[7]]);
    expect(missing(records, changed.slice(1))).toEqual([records[0], records[7]]);
    expect(duplicates([records[0], records[1], records[0], records[0]])).toEqual([records[0], records[0]]);
    const all = [`${records[0]},live`, `${records[1]},damaged`, `${records[2]},broken`];
    const groups = byState(all);
    expect(groups.get('live')).toEqual([records[0]]);
    expect(groups.get('damaged')).toEqual([records[1]]);
    expect(groups.get('unknown')).toEqual([all[2]]);
    expect(difference([records[0], records[0]], [records[0]])).toEqual({ extra: [records[0]], lacking: [] });
    const t: DamagedTally = { rows: 0, serverRows: 0 };
    tallyDamaged(t, [records[1], changed[7]], truth);
    expect(t).toEqual({ rows: 2, serverRows: 1 });
  });

  it('reads what stderr says', () => {
    expect(withheldCount('t.ibd: 12 rows from damaged pages were withheld (--rows damaged)')).toBe(12);
    expect(withheldCount('1 row from damaged pages was withheld')).toBe(1);
    expect(withheldCount('t.ibd: 7725 rows from 121 leaf pages')).toBeNull();
    expect(pagesNamed('t.ibd, page 0: zeroed\nt.ibd, page 12: x')).toEqual(new Set([0, 12]));
    expect(pagesCalledDamaged('t.ibd, page 0: damaged\nt.ibd, page 3: the root\nt.ibd, page 9: bad checksum')).toEqual(new Set([0, 9]));
    expect(saysMissing('t.ibd: 548 pages are missing past the end of the file', 548)).toBe(true);
    expect(saysMissing('t.ibd: 5480 pages are missing', 548)).toBe(false);
    expect(saysMissing('page 548 is past the end of the file', 548)).toBe(false);
  });
});
