/**
 * Damaged copies of MariaDB-written tables (REDUNDANT, COMPACT, DYNAMIC; 3-level B-trees), read with
 * the CLI and judged against the server's own rows and against the records the intact file holds:
 *
 *  - the default output (`--rows live`) holds only server rows, byte for byte, each once, and every
 *    row of every leaf page left untouched;
 *  - `--rows all` holds the row of every record whose bytes are intact (intact.ts computes which),
 *    whatever its state, and its `damaged` rows are mostly (9 in 10) server rows;
 *  - `--count` prints the number of rows the same `--rows` mode writes; the exit status is 2 when
 *    anything is damaged, withheld or unreadable, 0 for the intact file;
 *  - page 0 zeroed names page 0 and no other page; a truncated file says how many pages are missing;
 *  - a definition that does not fit the file gives no rows, exit status 1 and says so.
 *
 * One server makes the tables and is stopped once they are exported; each copy is written to a
 * folder of its own and read by the CLI with one thread, one run per core at a time. Every `--rows`
 * mode runs on the intact files and on one copy of each kind of damage; the others run `live` and `all`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { readFspHeader } from '../../src/core/pages/fsp-header.ts';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { openTable, ROW_STATE_COLUMN, type DecodeStats } from '../../src/core/readers/table-reader.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { buildCli, countRows, exportRows, MODES, STATE_MODES, writeInput, type CliInput, type Exported, type Mode } from './cli.ts';
import { headerRecord, rowRecords } from './csv-records.ts';
import { bitFlip, burst, truncate, zeroPage, type DamagedCopy, type DamageKind } from './damage.ts';
import { changedOffsets, intactness, mapLeafRecords, type Intactness, type LeafMap } from './intact.ts';
import { byState, difference, duplicates, firstFew, missing, notIn, pagesCalledDamaged, pagesNamed, saysMissing, stderrHead, tallyDamaged, withheldCount, withoutState, type DamagedTally } from './judge.ts';
import { makeTables, TABLE_NAMES, type TableFixture } from './tables.ts';

const ROWS = 8000;

interface Prepared {
  fixture: TableFixture;
  map: LeafMap;
  /** CSV records of the server's rows after the deletes, and of every row before them. */
  live: Set<string>;
  ever: Set<string>;
  everRecords: string[];
}

/** The runs of some `--rows` modes on one file: rows written, and what --count printed. */
type ModeRuns = Map<Mode, { rows: Exported; count: number | null; countStatus: number | null }>;

interface Case {
  kind: DamageKind;
  seed: number;
}

const CASES: Case[] = [
  ...[1, 2, 3, 4].map((seed) => ({ kind: 'burst' as const, seed })),
  ...[1, 2, 3].map((seed) => ({ kind: 'bit flip' as const, seed })),
  ...(['page 0 zeroed', 'root zeroed', 'level-1 page zeroed', 'truncated'] as const).map((kind) => ({ kind, seed: 1 })),
];
const KINDS = [...new Set(CASES.map((c) => c.kind))];

/** Every mode runs on the first copy of each kind of damage, of one table (they take turns). */
function everyMode(table: string, c: Case): boolean {
  return c.seed === 1 && TABLE_NAMES.indexOf(table) === KINDS.indexOf(c.kind) % TABLE_NAMES.length;
}

function damagedCopy(p: Prepared, c: Case, tableIndex: number): DamagedCopy {
  const { bytes } = p.fixture;
  const seed = 1000 * (tableIndex + 1) + c.seed;
  switch (c.kind) {
    case 'burst': return burst(bytes, p.map, seed);
    case 'bit flip': return bitFlip(bytes, p.map, seed);
    case 'page 0 zeroed': return zeroPage(bytes, p.map, 0, c.kind);
    case 'root zeroed': return zeroPage(bytes, p.map, p.map.root, c.kind);
    case 'level-1 page zeroed': return zeroPage(bytes, p.map, p.map.level1[0], c.kind);
    case 'truncated': return truncate(bytes, p.map);
  }
}

/**
 * The table's own definition with one column's type changed. INT -> BIGINT changes the record sizes
 * (COMPACT's heap accounting catches it; a REDUNDANT record stores its field ends, so only a check of
 * the field lengths against the types can). MEDIUMINT -> DATE keeps the sizes, but most MEDIUMINT
 * values are not dates. (DATE -> MEDIUMINT is not among them: it keeps the sizes and every 3 bytes
 * are some MEDIUMINT, so nothing in the records can tell it from the right definition.)
 */
const TYPE_CHANGES: { what: string; from: RegExp; to: string }[] = [
  { what: 'INT -> BIGINT', from: /`n` int\(\d+\)/, to: '`n` bigint(20)' },
  { what: 'MEDIUMINT -> DATE (same size)', from: /`m` mediumint\(\d+\)( unsigned)?/, to: '`m` date' },
];

async function libraryStats(bytes: Uint8Array, ddl: string): Promise<DecodeStats> {
  const reader = await openTable(bytesSource(bytes, 'copy.ibd'), parseCreateTables(ddl)[0]);
  for await (const batch of reader.batches()) void batch;
  return reader.stats;
}

describe('damaged copies of MariaDB-written tables, read with the CLI', () => {
  let server: MariadbServer | undefined;
  let dir: string;
  const prepared = new Map<string, Prepared>();
  /** Damaged rows of `--rows all` and how many of them are server rows, per kind of damage. */
  const damagedRows = new Map<DamageKind, DamagedTally>(KINDS.map((k) => [k, { rows: 0, serverRows: 0 }]));

  beforeAll(async () => {
    buildCli();
    dir = mkdtempSync(join(tmpdir(), 'ibd-damage-'));
    server = await startMariadb();
    const fixtures = await makeTables(server, ROWS);
    await server.stop();
    for (const fixture of fixtures) {
      const everRecords = rowRecords(fixture.everRows);
      const map = await mapLeafRecords({ bytes: fixture.bytes, ddl: fixture.ddl, everRows: everRecords });
      prepared.set(fixture.name, { fixture, map, live: new Set(rowRecords(fixture.liveRows)), ever: new Set(everRecords), everRecords });
    }
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const get = (name: string): Prepared => {
    const p = prepared.get(name);
    if (!p) throw new Error(`table ${name} was not prepared`);
    return p;
  };

  /** Runs `modes`: each one's rows, and its --count. */
  async function runModes(input: CliInput, modes: readonly Mode[]): Promise<ModeRuns> {
    const runs = await Promise.all(modes.map(async (mode) => {
      const [rows, count] = await Promise.all([exportRows(input, mode), countRows(input, mode)]);
      return [mode, { rows, count: count.count, countStatus: count.run.status }] as const;
    }));
    return new Map(runs);
  }

  /** What holds for every mode run: its header, its --count, its exit status. */
  function expectModes(runs: ModeRuns, columns: string[], status: number, what: string): void {
    for (const [mode, { rows, count, countStatus }] of runs) {
      const header = headerRecord(STATE_MODES.has(mode) ? [...columns, ROW_STATE_COLUMN] : columns);
      expect.soft(rows.header, `${what}, --rows ${mode}: the header (stderr: ${stderrHead(rows.run.stderr)})`).toBe(header);
      expect.soft(count, `${what}, --rows ${mode}: --count prints the number of rows written`).toBe(rows.records.length);
      expect.soft(rows.run.status, `${what}, --rows ${mode}: exit status`).toBe(status);
      expect.soft(countStatus, `${what}, --rows ${mode} --count: exit status`).toBe(status);
    }
  }

  describe.each(TABLE_NAMES)('%s', (name) => {
    const tableIndex = TABLE_NAMES.indexOf(name);

    it('the intact file: every mode gives the server rows, exit status 0', async () => {
      const p = get(name);
      const { fixture, map } = p;
      // The harness itself: a 3-level tree, every record paired with a server row, all of them intact.
      expect(map.level1.length).toBeGreaterThanOrEqual(2);
      expect(map.records.length).toBe(fixture.everRows.length);
      const state = intactness(map, fixture.bytes, fixture.bytes);
      expect(state.intact.length).toBe(map.records.length);
      expect(state.undamagedLeaves.size).toBe(map.leaves.length);
      expect(state.missingPages).toBe(0);
      // Page 0's FSP_SIZE: the pages the tablespace has, so the pages a truncated copy lacks are the ones past its end.
      expect(readFspHeader(fixture.bytes).size).toBe(map.pageCount);

      const input = writeInput(join(dir, name, 'intact'), name, fixture.bytes, fixture.ddl);
      const runs = await runModes(input, MODES);
      expectModes(runs, fixture.columns, 0, 'intact');
      const stated = fixture.everRows.map((r, i) => [...r, p.live.has(p.everRecords[i]) ? 'live' : 'delete-marked']);
      const expected: Record<Mode, string> = {
        live: csvHeader(fixture.columns) + csvRows(fixture.liveRows),
        deleted: csvHeader([...fixture.columns, ROW_STATE_COLUMN]) + csvRows(stated.filter((r) => r.at(-1) === 'delete-marked')),
        both: csvHeader([...fixture.columns, ROW_STATE_COLUMN]) + csvRows(stated),
        damaged: csvHeader(fixture.columns),
        all: csvHeader([...fixture.columns, ROW_STATE_COLUMN]) + csvRows(stated),
      };
      for (const [mode, { rows }] of runs) {
        expect.soft(rows.run.stdout === expected[mode], `intact, --rows ${mode}: the server's rows, byte for byte, in key order`).toBe(true);
        expect.soft(withheldCount(rows.run.stderr), `intact, --rows ${mode}: nothing withheld`).toBeNull();
      }
    });

    it.each(CASES)('$kind ($seed)', async (c) => {
      const p = get(name);
      const { fixture, map } = p;
      const copy = damagedCopy(p, c, tableIndex);
      const state = intactness(map, fixture.bytes, copy.bytes);
      const what = `${name}, ${copy.what}`;
      // The harness: the damage is there, and intact records are left to judge by.
      for (const page of copy.pages) expect(changedOffsets(fixture.bytes, copy.bytes, page, map.pageSize)?.length, `${what}: page ${page} changed`).toBeGreaterThan(0);
      if (c.kind === 'truncated') expect(state.missingPages).toBeGreaterThan(0);
      expect(state.intact.length).toBeGreaterThan(0);

      const input = writeInput(join(dir, name, `${c.kind.replace(/\W+/g, '-')}-${c.seed}`), name, copy.bytes, fixture.ddl);
      const runs = await runModes(input, everyMode(name, c) ? MODES : ['live', 'all']);
      expectModes(runs, fixture.columns, 2, what);
      const live = runs.get('live')?.rows;
      const all = runs.get('all')?.rows;
      if (!live || !all) throw new Error('live and all always run');
      expectLive(p, state, live, what);
      const damaged = expectAll(p, state, all, live, what);
      tallyDamaged(damagedRows.get(c.kind) as DamagedTally, damaged, p.ever);
      expect.soft(withheldCount(live.run.stderr), `${what}: stderr of --rows live says how many rows from damaged pages were withheld`).toBe(damaged.length > 0 ? damaged.length : null);
      if (runs.size > 2) expectOtherModes(p, state, runs, all, what);

      if (c.kind === 'page 0 zeroed') {
        expect.soft(pagesNamed(live.run.stderr).has(0), `${what}: page 0 is named (stderr: ${stderrHead(live.run.stderr)})`).toBe(true);
        const others = [...pagesCalledDamaged(live.run.stderr + all.run.stderr)].filter((n) => n !== 0);
        expect.soft(firstFew(others.map(String)), `${what}: pages other than page 0 called damaged (stderr: ${stderrHead(live.run.stderr)})`).toBe('none');
        const stats = await libraryStats(copy.bytes, fixture.ddl).catch((e: unknown) => (e as Error).message);
        expect.soft(typeof stats === 'string' ? stats : stats.badChecksums, `${what}: the library opens the copy, and counts no bad checksum but page 0's`).toBeLessThanOrEqual(1);
      }
      if (c.kind === 'truncated') {
        expect.soft(saysMissing(live.run.stderr, state.missingPages), `${what}: stderr says that ${state.missingPages} pages are missing (stderr: ${stderrHead(live.run.stderr)})`).toBe(true);
      }
    });

    it.each(TYPE_CHANGES.map((t) => t.what).concat('another table\'s CREATE TABLE'))('a wrong definition, %s: no rows, exit status 1, "does not match"', async (change) => {
      const { fixture } = get(name);
      const other = get(TABLE_NAMES[(tableIndex + 1) % TABLE_NAMES.length]).fixture.ddl;
      const t = TYPE_CHANGES.find((x) => x.what === change);
      const ddl = t ? fixture.ddl.replace(t.from, t.to) : other;
      expect(ddl, 'the definition was changed').not.toBe(fixture.ddl);
      const input = writeInput(join(dir, name, `wrong-${change.replace(/\W+/g, '-')}`), name, fixture.bytes, ddl);
      const out = await exportRows(input, 'live');
      expect.soft(out.records.length, `${name}, ${change}: rows written`).toBe(0);
      expect.soft(out.run.status, `${name}, ${change}: exit status`).toBe(1);
      expect.soft(/does not match/i.test(out.run.stderr), `${name}, ${change}: the verdict on stderr (${stderrHead(out.run.stderr)})`).toBe(true);
    });
  });

  it.each(['burst', 'bit flip'] as const)('%s: at least 9 of 10 damaged rows of --rows all are server rows', (kind) => {
    const t = damagedRows.get(kind) as DamagedTally;
    console.log(`${kind}: ${t.serverRows} of ${t.rows} damaged rows are server rows`);
    expect(t.rows, 'damaged rows (the damaged pages hold intact records)').toBeGreaterThan(0);
    expect(t.serverRows).toBeGreaterThanOrEqual(0.9 * t.rows);
  });

  /** --rows live: only server rows, and every row of the leaf pages left untouched. */
  function expectLive(p: Prepared, state: Intactness, live: Exported, what: string): void {
    expect.soft(firstFew(notIn(live.records, p.live)), `${what}, --rows live: rows that are not server rows`).toBe('none');
    expect.soft(firstFew(duplicates(live.records)), `${what}, --rows live: rows written twice`).toBe('none');
    const untouched = p.map.records.filter((r) => !r.deleted && state.undamagedLeaves.has(r.page)).map((r) => r.row);
    expect.soft(firstFew(missing(untouched, live.records)), `${what}, --rows live: rows of untouched leaf pages missing`).toBe('none');
  }

  /** --rows all: every intact record's row; its live rows are the default output. Returns its damaged rows. */
  function expectAll(p: Prepared, state: Intactness, all: Exported, live: Exported, what: string): string[] {
    const groups = byState(all.records);
    expect.soft(firstFew(groups.get('unknown') ?? []), `${what}, --rows all: rows without a known state`).toBe('none');
    expect.soft(firstFew(missing(state.intact.map((r) => r.row), withoutState(all.records))), `${what}, --rows all: rows of intact records missing`).toBe('none');
    const d = difference(groups.get('live') ?? [], live.records);
    expect.soft(firstFew([...d.extra, ...d.lacking]), `${what}: the rows --rows all calls live are those of --rows live`).toBe('none');
    const deleted = [...(groups.get('delete-marked') ?? []), ...(groups.get('purged') ?? [])];
    expect.soft(firstFew(notIn(deleted, p.ever)), `${what}, --rows all: deleted rows that never were server rows`).toBe('none');
    return groups.get('damaged') ?? [];
  }

  /** deleted, both, damaged: each the part of --rows all it names. */
  function expectOtherModes(p: Prepared, state: Intactness, runs: ModeRuns, all: Exported, what: string): void {
    const groups = byState(all.records);
    const part = (states: string[]) => all.records.filter((r) => states.some((s) => r.endsWith(`,${s}`)));
    const same = (mode: Mode, expected: string[]) => {
      const d = difference(runs.get(mode)?.rows.records ?? [], expected);
      expect.soft(firstFew([...d.extra, ...d.lacking]), `${what}, --rows ${mode}: the rows of --rows all it names`).toBe('none');
    };
    same('deleted', part(['delete-marked', 'purged']));
    same('both', part(['live', 'delete-marked', 'purged']));
    same('damaged', groups.get('damaged') ?? []);
    const deletedIntact = p.map.records.filter((r) => r.deleted && state.undamagedLeaves.has(r.page)).map((r) => r.row);
    expect.soft(firstFew(missing(deletedIntact, withoutState(runs.get('deleted')?.rows.records ?? []))), `${what}, --rows deleted: delete-marked rows of untouched pages missing`).toBe('none');
  }
});
