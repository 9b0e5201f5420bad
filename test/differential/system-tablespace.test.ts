/**
 * Tables inside a MariaDB system tablespace (ibdata1 of a server run with --innodb-file-per-table=OFF,
 * see system-tablespace-setup.ts), read by name through the CLI and the library, every value compared
 * with the server's SELECT taken before anything was dropped:
 *  - with each table's .frm (found in shop/ beside ibdata1): every value equal;
 *  - from ibdata1 alone, the definition rebuilt from the InnoDB data dictionary: the column names
 *    equal, and every value equal as it is but where the dictionary keeps less, compared so:
 *      ENUM and SET (`kind`, `tags`): with the server's `kind+0`, `tags+0` (the number stored);
 *      DECIMAL (`balance`, `amount`): the packed bytes shown are decoded with the column's DECIMAL(M,D)
 *        from the server's CREATE TABLE (by the decoder's own renderer) and equal the server's value;
 *      DATETIME(3) (`created`): shown with the 4 digits the stored bytes hold, the server's value with
 *        a trailing 0;
 *  - an .ibd of the same server whose .frm is lost: defined by the dictionary of ../ibdata1;
 *  - --list-tables: names, table and index ids, row formats and exact row counts;
 *  - dropped tables: one dropped while a read view held purge back (its dictionary rows survive,
 *    delete-marked: it is listed and read by name), one dropped before a slow shutdown (purge zeroed
 *    its dictionary rows, as MariaDB 10.6+ does: its index pages, in extents marked free, are found by
 *    the scan and read with its CREATE TABLE, through its root, and with its root zeroed, by its leaves).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import type { Row } from '../../src/core/readers/table-reader.ts';
import { decimalRenderer } from '../../src/core/values/decimal.ts';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { openInnodb } from '../../src/lib/node.ts';
import { blobSource } from '../../src/core/tablespace/source.ts';
import { resolveCached } from '../../workers/list-methods.ts';
import { expectSameRows } from './decode.ts';
import { makeDatadir, type TableCase } from './system-tablespace-setup.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');

let d: Awaited<ReturnType<typeof makeDatadir>>;
const dirs: string[] = [];

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
}

/** NDJSON lines as rows in `columns` order. */
function ndjson(text: string, columns: readonly string[]): Row[] {
  return text.split('\n').filter((l) => l !== '').map((l) => {
    const o = JSON.parse(l) as Record<string, string | null>;
    return columns.map((c) => o[c]);
  });
}

const sorted = (rows: Row[]) => rows.map((r) => JSON.stringify(r)).sort().map((r) => JSON.parse(r) as Row);

function table(name: string): TableCase {
  const t = d.tables.find((x) => x.name === name);
  if (!t) throw new Error(`no table ${name}`);
  return t;
}

const LIVE = ['customers', 'orders_red', 'log_compact', 'uniq_dyn', 'gen_v', 'ft'];

/** Decodes `table`'s rows by name from an ibdata1; checks the run went well. */
function rowsByName(ibdata: string, t: TableCase): { rows: Row[]; stderr: string } {
  const run = cli([ibdata, '--table', `shop/${t.name}`, '--format', 'ndjson', '--json-strings']);
  expect(run.status, run.stderr).toBe(0);
  const rows = ndjson(run.stdout, t.columns);
  return { rows: t.orderBy === null ? sorted(rows) : rows, stderr: run.stderr };
}

const expected = (t: TableCase, rows: Row[]) => (t.orderBy === null ? sorted(rows) : rows);

const decimalColumns = new Map<TableCase, Map<string, { precision: number; scale: number }>>();

/** The DECIMAL(M,D) of each DECIMAL column, from the server's CREATE TABLE. */
function decimals(t: TableCase): Map<string, { precision: number; scale: number }> {
  let found = decimalColumns.get(t);
  if (!found) {
    const [def] = parseCreateTables(t.ddl);
    found = new Map(def.columns.filter((c) => c.type === 'decimal').map((c) => [c.name, { precision: c.precision, scale: c.scale }]));
    decimalColumns.set(t, found);
  }
  return found;
}

/** A value read with the dictionary's definition, turned into what the server shows (see the header). */
function asServerShows(t: TableCase, column: string, value: string | null): string | null {
  if (value === null) return null;
  const dec = decimals(t).get(column);
  if (dec) {
    const bytes = Uint8Array.from(value.slice(2).match(/../g) ?? [], (h) => parseInt(h, 16));
    return decimalRenderer(dec.precision, dec.scale)(bytes, 0, bytes.length);
  }
  if (t.name === 'customers' && column === 'created') {
    expect(value.endsWith('0'), `${column} ${value}`).toBe(true);
    return value.slice(0, -1);
  }
  return value;
}

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
  d = await makeDatadir();
  dirs.push(d.live, d.shut, d.bare);
});

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('tables of ibdata1 by name, with their .frm', () => {
  it.each(LIVE)('%s: every value equals the server\'s SELECT', (name) => {
    const t = table(name);
    const { rows, stderr } = rowsByName(join(d.shut, 'ibdata1'), t);
    expectSameRows(rows, expected(t, t.rows), name, t.columns);
    expect(stderr).toMatch(new RegExp(`${t.rows.length} rows from \\d+ leaf pages \\(16 KB pages, ${t.rowFormat}`));
  });

  it('a table of 30,000 rows goes through the worker pool (2 threads): its CSV is the server\'s, byte for byte', () => {
    const t = table('customers');
    const out = join(d.shut, 'customers.csv');
    const run = spawnSync(process.execPath, [CLI, join(d.shut, 'ibdata1'), '--table', 'shop/customers', '--threads', '2', '-o', out], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const leaves = Number(/30000 rows from (\d+) leaf pages/.exec(run.stderr)?.[1]);
    expect(leaves).toBeGreaterThanOrEqual(256); // the CLI's threshold for the pool
    const actual = readFileSync(out, 'utf8');
    expect(actual === csvHeader(t.columns) + csvRows(t.rows)).toBe(true);
  });

  it('--schema with a table\'s .frm reads the dictionary table of its name', () => {
    const t = table('orders_red');
    const run = cli([join(d.shut, 'ibdata1'), '--schema', join(d.shut, 'shop/orders_red.frm'), '--format', 'ndjson', '--json-strings']);
    expect(run.status, run.stderr).toBe(0);
    expectSameRows(ndjson(run.stdout, t.columns), t.rows, 'orders_red by its .frm', t.columns);
  });

  it('the library lists the tables by db/table and reads one', async () => {
    const file = await openInnodb(join(d.shut, 'ibdata1'));
    try {
      const names = file.tables().map((e) => e.name);
      for (const name of LIVE) expect(names).toContain(`shop/${name}`);
      const entry = file.definition('shop/uniq_dyn');
      expect(entry.source).toBe('frm');
      const t = table('uniq_dyn');
      const opened = await file.table(entry);
      const rows: Row[] = [];
      for await (const r of opened.rows()) rows.push(t.columns.map((c) => r[c]));
      expectSameRows(rows, t.rows, 'uniq_dyn through the library', t.columns);
      expect((await opened.count()).rows).toBe(t.rows.length);
    } finally {
      await file.close();
    }
  });
  it('the page\'s worker opening one table by its name (resolveCached, chosen) builds its definition alone, the one the whole list has', async () => {
    const ibd = blobSource(new Blob([readFileSync(join(d.shut, 'ibdata1'))]), 'ibdata1');
    const frm = { name: 'shop/uniq_dyn.frm', blob: new Blob([readFileSync(join(d.shut, 'shop/uniq_dyn.frm'))]) };
    const all = await resolveCached(ibd, [frm]);
    const one = await resolveCached(ibd, [frm], 'shop/uniq_dyn');
    expect(all.candidates.map((c) => c.name)).toEqual(expect.arrayContaining(LIVE.map((n) => `shop/${n}`)));
    expect(one.candidates.map((c) => c.name)).toEqual(['shop/uniq_dyn']);
    expect(one.source).toBe('frm');
    expect(one.table).toEqual(all.candidates.find((c) => c.name === 'shop/uniq_dyn')?.table);
    expect(one.candidates[0]?.clusteredIndex).toEqual(all.candidates.find((c) => c.name === 'shop/uniq_dyn')?.clusteredIndex);
    // a name the dictionary does not hold: the whole list, none picked
    const none = await resolveCached(ibd, [frm], 'shop/no_such_table');
    expect(none.table).toBeNull();
    expect(none.candidates.length).toBe(all.candidates.length);
  });
});

describe('tables of ibdata1 from its data dictionary alone (no .frm)', () => {
  it.each(LIVE)('%s: the column names, and every value as the dictionary lets one read it', (name) => {
    const t = table(name);
    const { rows, stderr } = rowsByName(join(d.bare, 'ibdata1'), t);
    const shown = rows.map((r) => r.map((v, c) => asServerShows(t, t.columns[c], v)));
    expectSameRows(shown, expected(t, t.storedRows), `${name} from the dictionary`, t.columns);
    if (name === 'customers') {
      for (const lost of ['`kind`: an ENUM or a SET', '`tags`: an ENUM or a SET', '`balance`: a DECIMAL of 6 bytes', '`created`: fractional digits are kept by pairs: 3 or 4']) {
        expect(stderr).toContain(lost);
      }
    }
  });

  it('--print-ddl gives a CREATE TABLE the DDL reader reads back: every column, the keys, the row format', () => {
    for (const name of LIVE) {
      const t = table(name);
      const run = cli([join(d.bare, 'ibdata1'), '--table', `shop/${name}`, '--print-ddl']);
      expect(run.status, run.stderr).toBe(0);
      const [def] = parseCreateTables(run.stdout);
      const [server] = parseCreateTables(t.ddl);
      expect(def.columns.map((c) => [c.name, c.generated === 'virtual'])).toEqual(server.columns.map((c) => [c.name, c.generated === 'virtual']));
      expect(def.rowFormat).toBe(t.rowFormat);
      expect(def.indexes.map((i) => [i.kind, i.columns.map((k) => `${k.name}${k.prefix ? `(${k.prefix})` : ''}`)]))
        .toEqual(server.indexes.map((i) => [i.kind, i.columns.map((k) => `${k.name}${k.prefix ? `(${k.prefix})` : ''}`)]));
      expect(def.columns.map((c) => c.nullable)).toEqual(server.columns.map((c) => c.nullable));
    }
  });

  it('InnoDB\'s own tables read with the dictionary\'s definition too: SYS_VIRTUAL, as INNODB_SYS_VIRTUAL shows it', () => {
    const run = cli([join(d.bare, 'ibdata1'), '--table', 'SYS_VIRTUAL', '--format', 'ndjson', '--json-strings']);
    expect(run.status, run.stderr).toBe(0);
    expect(d.virtual.length).toBeGreaterThan(0);
    expectSameRows(ndjson(run.stdout, ['TABLE_ID', 'POS', 'BASE_POS']), d.virtual, 'SYS_VIRTUAL');
  });

  it('an .ibd whose .frm is lost is defined by the dictionary of ../ibdata1 (by its space id)', () => {
    const run = cli([join(d.bare, 'shop/fpt.ibd'), '--format', 'ndjson', '--json-strings']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('the table definition is the InnoDB data dictionary\'s: `shop/fpt` of ibdata1');
    expectSameRows(ndjson(run.stdout, d.fpt.columns), d.fpt.rows, 'fpt.ibd by the dictionary', d.fpt.columns);
  });

  it('--dictionary names the system tablespace of an .ibd lying elsewhere', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ibd-fpt-'));
    dirs.push(dir);
    copyFileSync(join(d.bare, 'shop/fpt.ibd'), join(dir, 'fpt.ibd'));
    expect(cli([join(dir, 'fpt.ibd')]).status).toBe(1);
    const run = cli([join(dir, 'fpt.ibd'), '--dictionary', join(d.bare, 'ibdata1'), '--format', 'ndjson', '--json-strings']);
    expect(run.status, run.stderr).toBe(0);
    expectSameRows(ndjson(run.stdout, d.fpt.columns), d.fpt.rows, 'fpt.ibd with --dictionary', d.fpt.columns);
  });
});

interface Listed {
  name?: string;
  state?: string;
  tableId?: string;
  spaceId?: number;
  rowsIn?: string;
  rowFormat?: string;
  rows?: number | null;
  definition?: { source: string };
  indexes?: { name: string; id: string }[];
  droppedIndex?: string;
  records?: number;
  rootPage?: number | null;
  table?: string | null;
}

function listTables(ibdata: string): Listed[] {
  const run = cli([ibdata, '--list-tables', '--format', 'ndjson']);
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Listed);
}

describe('--list-tables', () => {
  it('each table: its name, row format, indexes (names and ids as the server lists them), where its rows are and how many', () => {
    const listed = listTables(join(d.shut, 'ibdata1'));
    for (const name of LIVE) {
      const t = table(name);
      const row = listed.find((l) => l.name === `shop/${name}`);
      expect(row, name).toMatchObject({ state: 'live', spaceId: 0, rowsIn: 'ibdata1', rowFormat: t.rowFormat, rows: t.rows.length, definition: { source: 'frm' } });
      expect(row?.indexes?.map((i) => [i.name, BigInt(i.id)])).toEqual(t.indexes.map((i) => [i.name, i.id]));
    }
    const fpt = listed.find((l) => l.name === 'shop/fpt');
    expect(fpt?.spaceId).toBeGreaterThan(0);
    expect(fpt?.rowsIn).toBe(`shop/fpt.ibd (space ${fpt?.spaceId})`);
    expect(fpt?.rows).toBeNull();
  });

  it('--list-indexes names each index by the dictionary', () => {
    const run = cli([join(d.shut, 'ibdata1'), '--list-indexes']);
    expect(run.status, run.stderr).toBe(0);
    for (const name of LIVE) {
      for (const ix of table(name).indexes.filter((i) => i.name !== 'f_body')) expect(run.stdout).toMatch(new RegExp(`\\n0 +${ix.id} .* shop/${name}\\.${ix.name}\\n`));
    }
  });

  it('as text by default, one line a table', () => {
    const run = cli([join(d.bare, 'ibdata1'), '--list-tables']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ibdata1: system tablespace; its InnoDB data dictionary lists \d+ tables/);
    expect(run.stdout).toMatch(/\nshop\/orders_red +live +\d+ +ibdata1 +REDUNDANT +2000 +dictionary +PRIMARY \(\d+, \d+\), k_placed/);
  });
});

describe('dropped tables', () => {
  it('dropped while purge was held back: listed as dropped, read by name with the dictionary\'s definition', () => {
    const t = table('dropped_live');
    const row = listTables(join(d.live, 'ibdata1')).find((l) => l.name === 'shop/dropped_live');
    expect(row).toMatchObject({ state: 'dropped', rows: t.rows.length, definition: { source: 'dictionary' } });
    const { rows, stderr } = rowsByName(join(d.live, 'ibdata1'), t);
    expect(stderr).toContain('shop/dropped_live was dropped (its data dictionary rows are delete-marked)');
    expectSameRows(rows, t.rows, 'dropped_live', t.columns);
  });

  it('dropped before a slow shutdown: its dictionary rows zeroed by purge, its index found in the freed extents and read with its CREATE TABLE', async () => {
    const t = table('dropped_purged');
    const listed = listTables(join(d.shut, 'ibdata1'));
    // What purge left: neither dropped table has a dictionary row any more; both indexes are found.
    expect(listed.some((l) => l.name === 'shop/dropped_purged' || l.name === 'shop/dropped_live')).toBe(false);
    const found = listed.find((l) => l.droppedIndex === String(d.removed.purgedIndex));
    expect(found).toMatchObject({ records: t.rows.length, table: null });
    expect(found?.rootPage).not.toBeNull();
    expect(listed.some((l) => l.droppedIndex === String(d.removed.liveIndex))).toBe(true);
    const file = await openInnodb(join(d.shut, 'ibdata1'));
    try {
      expect(file.dictionary?.scrubbed).toBeGreaterThan(0);
    } finally {
      await file.close();
    }
    const sql = join(d.shut, 'dropped_purged.sql');
    writeFileSync(sql, t.ddl);
    const run = cli([join(d.shut, 'ibdata1'), '--schema', sql, '--index-id', String(d.removed.purgedIndex), '--format', 'ndjson', '--json-strings']);
    expect(run.status, run.stderr).toBe(0);
    expectSameRows(ndjson(run.stdout, t.columns), t.rows, 'dropped_purged', t.columns);

    // Its root page overwritten too (zeroed in a copy): the leaves, in extents marked free, are found by a scan.
    const bytes = readFileSync(join(d.shut, 'ibdata1'));
    bytes.fill(0, (found?.rootPage as number) * 16384, ((found?.rootPage as number) + 1) * 16384);
    const zeroed = join(d.shut, 'zeroed-ibdata1');
    writeFileSync(zeroed, bytes);
    const scanned = cli([zeroed, '--schema', sql, '--index-id', String(d.removed.purgedIndex), '--format', 'ndjson', '--json-strings']);
    expect(scanned.status, scanned.stderr).toBe(2);
    expect(scanned.stderr).toContain(`no B-tree root was found; the leaf pages of index ${d.removed.purgedIndex} were found by scanning the whole file`);
    expectSameRows(sorted(ndjson(scanned.stdout, t.columns)), sorted(t.rows), 'dropped_purged without its root', t.columns);
  });
});

