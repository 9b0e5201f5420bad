/**
 * Issue 38: a whole datadir as one input, at the seed's shape (many one-row tables inside ibdata1,
 * innodb_file_per_table=OFF, their .frm beside; then every one dropped before a slow shutdown).
 *  - `ibd-reader DIR -o OUT`: every table in OUT/<db>/<table>.ndjson equal to the server's SELECT,
 *    OUT/tables.tsv a line each; `--list-tables DIR` counts each;
 *  - after the DROPs: each dropped table back by its name (its dictionary records carved from the
 *    pages the server freed: dict-freed.ts) as OUT/<db>/<table>.dropped.ndjson, equal to its SELECT
 *    taken before the drop; a tree whose name is lost comes back as #dropped/index-N with the same row.
 * The sizes the quadratic steps showed at (5,000 to 50,000 tables) are measured by bench/datadir-scale.ts.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { datadirCli as cli, makeManyTables, namedDroppedTable, ndjsonRows, outDir, removeOutDirs, sorted, zeroIndexPages, type ManyTables } from './many-tables-setup.ts';

const N = 800;

let made: ManyTables;

interface TsvLine { db: string; table: string; state: string; file: string; index_id: string; rows: string; rows_withheld: string; definition: string; problems: string }

function tsv(text: string): TsvLine[] {
  const [head, ...lines] = text.split('\n').filter((l) => l !== '');
  const names = head.split('\t');
  return lines.map((l) => Object.fromEntries(l.split('\t').map((v, i) => [names[i], v])) as unknown as TsvLine);
}

beforeAll(async () => {
  made = await makeManyTables(N, { filePerTable: false, drop: true });
}, 600_000);

afterAll(() => {
  made?.remove();
  removeOutDirs();
});

describe('a datadir of many tables inside ibdata1', () => {
  it('DIR -o OUT: every table as its own file, equal to the server\'s SELECT; tables.tsv lists each', () => {
    const out = outDir();
    const run = cli([made.live, '-o', out, '--format', 'ndjson', '--json-strings']);
    expect(run.status, run.stderr).toBe(0);
    const listed = tsv(readFileSync(join(out, 'tables.tsv'), 'utf8'));
    for (const [name, want] of made.expected) {
      const [db, table] = name.split('/');
      const rows = ndjsonRows(join(out, db, `${table}.ndjson`), want.columns);
      // a table without a key comes in its hidden row id's order, the server's SELECT in its ORDER BY
      expect(name === 'other/nokey' ? sorted(rows) : rows, name).toEqual(name === 'other/nokey' ? sorted(want.rows) : want.rows);
      const line = listed.find((l) => l.db === db && l.table === table);
      expect(line, name).toMatchObject({ state: 'live', file: 'ibdata1', rows: String(want.rows.length), rows_withheld: '0', definition: 'frm', problems: '' });
    }
  });

  it('--list-tables DIR: a line per table with its exact row count, nothing written', () => {
    const run = cli([made.live, '--list-tables']);
    expect(run.status, run.stderr).toBe(0);
    const listed = tsv(run.stdout);
    for (const [name, want] of made.expected) {
      const [db, table] = name.split('/');
      expect(listed.find((l) => l.db === db && l.table === table)?.rows, name).toBe(String(want.rows.length));
    }
  });
});

describe('the same datadir after every table was dropped (slow shutdown)', () => {
  it('DIR -o OUT: the dropped tables by their names, from the dictionary records on freed pages, equal to their SELECT before the drop', () => {
    const out = outDir();
    const run = cli([made.dropped as string, '-o', out, '--format', 'ndjson', '--json-strings']);
    expect([0, 2], run.stderr).toContain(run.status);
    const listed = tsv(readFileSync(join(out, 'tables.tsv'), 'utf8'));
    // a guessed definition names its columns itself: the first value of each row
    const firsts = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => Object.values(JSON.parse(l) as Record<string, string | null>)[0]);
    const unnamed = existsSync(join(out, '#dropped')) ? readdirSync(join(out, '#dropped')).flatMap((f) => firsts(join(out, '#dropped', f))) : [];
    let byName = 0;
    let guessed = 0;
    for (const [name, want] of made.expected) {
      const [db, table] = name.split('/');
      const path = join(out, db, `${table}.dropped.ndjson`);
      if (existsSync(path)) {
        byName++;
        // the dictionary keeps no DECIMAL precision: with no .frm left, its bytes are shown as hex, and said so
        const columns = want.columns.filter((c) => c !== 'amount');
        const rows = ndjsonRows(path, columns);
        const wanted = want.rows.map((r) => r.filter((_, i) => want.columns[i] !== 'amount'));
        expect(name === 'other/nokey' ? sorted(rows) : rows, name).toEqual(name === 'other/nokey' ? sorted(wanted) : wanted);
        if (want.columns.includes('amount')) expect(ndjsonRows(path, ['amount']).every(([v]) => /^0x[0-9A-F]+$/.test(v ?? '')), name).toBe(true);
        expect(listed.find((l) => l.db === db && l.table === table), name).toMatchObject({ state: 'dropped', file: 'ibdata1', rows: String(want.rows.length) });
      } else if (want.rows.length === 1 && unnamed.includes(want.rows[0][0])) {
        // its name lost with the zeroed records: its tree is still read, as #dropped/index-N
        guessed++;
      }
    }
    // what purge zeroed on the pages still in the trees is lost; what the freed pages kept is most of
    // it; a tree whose page the server reused since is gone with its row
    expect(byName, `${byName} by name, ${guessed} guessed`).toBeGreaterThan(made.expected.size * 0.3);
    expect(byName + guessed).toBeGreaterThan(made.expected.size * 0.9);
    expect(run.stderr).toContain('dropped tables named by the dictionary records on pages the server freed');
  });

  it('a named dropped table none of whose clustered index pages is left: not read, said "its rows are gone" in tables.tsv', () => {
    const victim = namedDroppedTable(made.dropped as string);
    expect(victim, 'a named dropped one-row table').toBeDefined();
    const { db, table, indexId } = victim!;
    const copy = mkdtempSync(join(tmpdir(), 'ibd-gone-'));
    try {
      cpSync(made.dropped as string, copy, { recursive: true });
      // every INDEX page of its clustered index zeroed (as a page the server reused would no longer hold it)
      expect(zeroIndexPages(join(copy, 'ibdata1'), indexId), `pages of index ${indexId}`).toBeGreaterThan(0);
      const out = outDir();
      const run = cli([copy, '-o', out, '--format', 'ndjson', '--json-strings']);
      expect(run.status, run.stderr).toBe(2);
      const line = tsv(readFileSync(join(out, 'tables.tsv'), 'utf8')).find((l) => l.db === db && l.table === table);
      expect(line?.problems, `${db}/${table}`).toContain(`no page of its clustered index ${indexId} is left in ibdata1: its rows are gone`);
      expect(existsSync(join(out, db, `${table}.dropped.ndjson`))).toBe(false);
      // the others are still read: another dropped one-row table by its name
      const other = namedDroppedTable(made.dropped as string, table)!;
      expect(existsSync(join(out, other.db, `${other.table}.dropped.ndjson`)), other.table).toBe(true);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
