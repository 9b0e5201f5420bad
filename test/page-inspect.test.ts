/**
 * src/core/readers/page-inspect.ts on MariaDB tables (COMPACT/DYNAMIC and REDUNDANT): each leaf page's
 * records hold what the server wrote — their extents tile the heap as PAGE_HEAP_TOP and PAGE_GARBAGE
 * account for it, the page directory's groups own every record once, the delete marks are the
 * server's deletes, the values are the server's SELECT for those keys (delete-marked ones seen through
 * an older snapshot, purged ones the rows as they were) and the decoder's own rows of the page; page
 * 0's FSP header and the INODE page agree with INFORMATION_SCHEMA; every page's state is the page
 * map's, on the intact file and on damaged copies; a broken record list is reported at its offset.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection } from 'mariadb';
import { parseCreateTables } from '../src/core/definitions/ddl/create-table.ts';
import { FIL_NULL, PageType } from '../src/core/pages/fil-header.ts';
import { PAGE_NEW_SUPREMUM_END, PAGE_OLD_SUPREMUM_END } from '../src/core/pages/index-page.ts';
import { inspectPage } from '../src/core/readers/page-inspect.ts';
import type { InspectedRecord, PageInspection } from '../src/core/readers/page-inspection.ts';
import { PageMap, PageState } from '../src/core/readers/page-map.ts';
import { summarize } from '../src/core/readers/summary.ts';
import type { TableDef } from '../src/core/schema.ts';
import { bytesSource } from '../src/core/tablespace/source.ts';
import { burst, truncate } from './damage/damage.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';

const ROWS = 3000;
const COLUMNS = '(id INT PRIMARY KEY, name VARCHAR(40), amount DECIMAL(10,2), note TEXT NULL, KEY kn (name))';
const FILL = `SELECT seq, CONCAT('name ', seq), seq / 4, CASE WHEN seq % 500 = 0 THEN REPEAT('long ', 3000) WHEN seq % 9 = 0 THEN NULL ELSE REPEAT('n', seq % 50) END FROM seq_1_to_${ROWS}`;

interface Fixture {
  bytes: Uint8Array;
  table: TableDef;
  map: PageMap;
  root: number;
  /** Leaf pages of the clustered index, in page order. */
  leaves: number[];
  /** The server's rows before any delete, by id. */
  before: Map<string, (string | null)[]>;
}

async function fixture(db: MariadbServer, name: string, bytes: Uint8Array, before: Fixture['before']): Promise<Fixture> {
  const table = parseCreateTables((await db.query(`SHOW CREATE TABLE ${name}`)).rows[0][1] as string)[0];
  const map = new PageMap();
  const s = await summarize(bytesSource(bytes, `${name}.ibd`), { pageMap: map });
  const leaves = Array.from({ length: map.pageCount }, (_, p) => p).filter((p) => map.index[p] === 1 && map.level[p] === 0 && map.state[p] === PageState.VALID);
  return { bytes, table, map, root: s.indexes[0].rootPage, leaves, before };
}

const inspect = (f: Fixture, no: number, withTable = true, source = bytesSource(f.bytes, 't.ibd')) => inspectPage(source, no, { table: withTable ? f.table : null });
const rowsById = async (db: MariadbServer, table: string) => new Map((await db.query(`SELECT * FROM ${table}`)).rows.map((r) => [r[0] as string, r]));
const user = (p: PageInspection) => (p.index?.records ?? []).filter((r) => r.reached !== 'system' && !r.minRec);
const listed = (p: PageInspection) => user(p).filter((r) => r.reached === 'list');
const sample = (pages: readonly number[]) => [...new Set([0, 1, pages.length >> 1, pages.length - 1].map((i) => pages[i]))];

/** Server invariants of an INDEX page, read off the inspection. */
function heapAndDirectory(p: PageInspection, compact: boolean): void {
  const ix = p.index;
  if (!ix) throw new Error('no INDEX part');
  const h = ix.header;
  const records = user(p);
  const supremumEnd = compact ? PAGE_NEW_SUPREMUM_END : PAGE_OLD_SUPREMUM_END;
  expect(listed(p).every((r) => r.start !== null && r.end !== null)).toBe(true);
  const extents = records.filter((r) => r.start !== null).map((r) => [r.start as number, r.end as number]).sort((a, b) => a[0] - b[0]);
  // Every record lies in the heap, none over another.
  expect(extents[0][0]).toBeGreaterThanOrEqual(supremumEnd);
  extents.forEach(([start, end], i) => {
    expect(end).toBeGreaterThan(start);
    if (i > 0) expect(start).toBeGreaterThanOrEqual(extents[i - 1][1]);
  });
  expect(extents[extents.length - 1][1]).toBeLessThanOrEqual(h.heapTop);
  // The records in the list take the heap but for PAGE_GARBAGE bytes.
  const size = (r: InspectedRecord) => (r.end as number) - (r.start as number);
  expect(listed(p).reduce((n, r) => n + size(r), 0)).toBe(h.heapTop - supremumEnd - h.garbage);
  // Each record has its own heap number, below PAGE_N_HEAP; the directory's groups own every record once.
  const heapNos = ix.records.map((r) => r.header.heapNo);
  expect(new Set(heapNos).size).toBe(heapNos.length);
  expect(Math.max(...heapNos)).toBeLessThan(h.nHeap);
  expect(ix.directory.reduce((n, d) => n + (d.owned ?? 0), 0)).toBe(h.nRecs + 2);
  const order = ix.records.filter((r) => r.reached !== 'free').map((r) => r.origin);
  const slots = ix.directory.map((d) => order.indexOf(d.offset));
  expect(slots.every((at, i) => at >= 0 && (i === 0 || at > slots[i - 1]))).toBe(true);
}

describe.each([
  { pageSize: 16384, checksum: 'full_crc32' as const },
  { pageSize: 4096, checksum: 'crc32' as const },
])('page inspector on MariaDB tables ($pageSize bytes, $checksum)', ({ pageSize, checksum }) => {
  let db: MariadbServer;
  let snapshot: Connection;
  let ins: Fixture;
  let red: Fixture;
  beforeAll(async () => {
    db = await startMariadb({ pageSize, checksum });
    await db.exec(`CREATE TABLE ins ${COLUMNS} ENGINE=InnoDB; INSERT INTO ins ${FILL};
      CREATE TABLE red ${COLUMNS} ENGINE=InnoDB ROW_FORMAT=REDUNDANT; INSERT INTO red ${FILL};`);
    const before = await rowsById(db, 'ins');
    // Purged: deleted, and purge has run (the records go to the free list). Delete-marked: deleted
    // while an older snapshot is open, so purge keeps them in the record list.
    await db.exec('DELETE FROM ins WHERE id % 7 = 0; SET GLOBAL innodb_max_purge_lag_wait = 0;');
    const mariadb = await import('mariadb');
    snapshot = await mariadb.createConnection({ socketPath: db.socket, user: 'root', database: 'test' });
    await snapshot.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
    await snapshot.query('SELECT COUNT(*) FROM ins');
    await db.exec('DELETE FROM ins WHERE id % 11 = 0');
    ins = await fixture(db, 'ins', new Uint8Array(readFileSync(await db.exportTable('ins'))), before);
    red = await fixture(db, 'red', new Uint8Array(readFileSync(await db.exportTable('red'))), await rowsById(db, 'red'));
  });
  afterAll(async () => {
    await snapshot?.end();
    await db?.stop();
  });

  it.each(['ins', 'red'])('describes the leaf pages of %s: records, heap, directory, values', async (name) => {
    const f = name === 'ins' ? ins : red;
    const seen = { deleteMarked: 0, purged: 0, offPage: 0 };
    for (const no of sample(f.leaves)) {
      const p = await inspect(f, no);
      const ix = p.index;
      expect([p.state, p.typeName, p.problems, ix?.clustered], `page ${no}`).toEqual(['valid', 'INDEX', [], true]);
      if (!ix) continue;
      heapAndDirectory(p, ix.header.compact);
      const list = listed(p);
      expect(list.length).toBe(ix.header.nRecs);
      // The values are the server's rows, in key order: the live ones as SELECT shows them now, the
      // delete-marked ones (the server's deletes, exactly) as they were.
      const ids = list.map((r) => (r.values as (string | null)[])[0] as string);
      expect(list.map((r) => r.values), `page ${no}`).toEqual(ids.map((id) => f.before.get(id)));
      const live = list.filter((r) => !r.deleted).map((r) => r.values);
      expect(live).toEqual((await db.query(`SELECT * FROM ${name} WHERE id IN (${ids.join(',')}) ORDER BY id`)).rows);
      expect(list.filter((r) => r.deleted).map((r) => Number(r.values?.[0]))).toEqual(ids.map(Number).filter((id) => name === 'ins' && id % 11 === 0));
      // Records of the free list (purged deletes, and the records a page split moved to another page)
      // that still decode are rows as they were; the decoder's rows of the page are the records'.
      for (const r of user(p).filter((x) => x.reached === 'free' && x.values !== null)) {
        expect(r.values).toEqual(f.before.get(r.values?.[0] as string));
        seen.purged++;
      }
      seen.deleteMarked += list.filter((r) => r.deleted).length;
      seen.offPage += list.filter((r) => (r.values?.[3]?.length ?? 0) > 10000).length;
      const decoded = ix.decoded?.rows ?? [];
      expect(decoded.filter((row) => row.at(-1) === 'live' || row.at(-1) === 'delete-marked').map((row) => row.slice(0, -1))).toEqual(list.map((r) => r.values));
      expect(decoded.filter((row) => row.at(-1) === 'delete-marked').length).toBe(list.filter((r) => r.deleted).length);
      // Without a definition: the same records and headers, no values.
      const bare = await inspect(f, no, false);
      expect(bare.index?.records.map((r) => [r.origin, r.reached, r.header])).toEqual(ix.records.map((r) => [r.origin, r.reached, r.header]));
      expect(user(bare).every((r) => r.values === null && (r.start === null) === ix.header.compact)).toBe(true);
    }
    if (name === 'ins') {
      expect(seen.deleteMarked).toBeGreaterThan(0);
      expect(seen.purged).toBeGreaterThan(0);
    }
    // Values stored off-page (BLOB pages) came back whole.
    expect(seen.offPage).toBeGreaterThan(0);
  });

  it('describes the node pointers of the root: their child pages are the level below', async () => {
    const p = await inspect(red, red.root, false);
    const children = listed(p).map((r) => r.childPage);
    expect(children.length).toBeGreaterThan(1);
    for (const child of children) expect(red.map.entry(child as number).level).toBe((p.index?.header.level ?? 0) - 1);
    // With the definition the COMPACT root says the same.
    const compactRoot = await inspect(ins, ins.root);
    const compactChildren = listed(compactRoot).map((r) => r.childPage as number);
    expect(new Set(compactChildren.filter((c) => ins.map.entry(c).level === 0)).size).toBe(compactChildren.length);
  });

  it('describes page 0, the INODE page and a BLOB page as the server has them', async () => {
    const space = (await db.query("SELECT SPACE, FILE_SIZE FROM information_schema.INNODB_SYS_TABLESPACES WHERE NAME = 'test/ins'")).rows[0];
    const p0 = await inspect(ins, 0);
    const field = (p: PageInspection, name: string) => p.sections.flatMap((s) => s.fields).find((x) => x.name === name)?.value;
    expect([field(p0, 'FSP_SPACE_ID'), field(p0, 'FSP_SIZE'), field(p0, 'FIL_PAGE_SPACE_ID')]).toEqual([Number(space[0]), Number(space[1]) / pageSize, Number(space[0])]);
    expect(p0.checksum?.result).toBe(checksum);
    expect(p0.checksum?.checks.find((c) => c.algorithm === checksum)?.matches).toBe(true);
    expect(p0.checksum?.lsnMatches).toBe(true);
    const inUse = Number(p0.sections.find((s) => s.title.startsWith('extent descriptors'))?.fields[0].value);
    expect(inUse).toBe(ins.map.pageCount - ins.map.totals().states[PageState.FREE] - ins.map.totals().states[PageState.ALL_ZERO]);
    const roots = (await db.query("SELECT PAGE_NO FROM information_schema.INNODB_SYS_INDEXES i JOIN information_schema.INNODB_SYS_TABLES t USING (TABLE_ID) WHERE t.NAME = 'test/ins'")).rows.map((r) => Number(r[0]));
    const inode = await inspect(ins, 2);
    const firstFrags = inode.sections.flatMap((s) => s.fields).filter((x) => x.name === 'FSEG_FRAG_ARR[0]').map((x) => x.value);
    for (const root of roots) expect(firstFrags).toContain(root);
    const blob = ins.map.type.indexOf(PageType.BLOB);
    expect(blob).toBeGreaterThan(0);
    const b = await inspect(ins, blob);
    const partLen = field(b, 'BTR_BLOB_HDR_PART_LEN') as number;
    const next = field(b, 'BTR_BLOB_HDR_NEXT_PAGE_NO') as number;
    expect(partLen).toBeGreaterThan(0);
    expect(partLen).toBeLessThanOrEqual(pageSize - 38 - 8 - 8);
    if (next !== FIL_NULL) expect(ins.map.entry(next).typeName).toBe('BLOB');
  });

  it('gives every page the state the page map gives it, intact, damaged and cut', async () => {
    const leafMap = { pageSize, pageCount: red.map.pageCount, root: red.root, level1: [], leaves: red.leaves, records: [] };
    const copies = [red.bytes, burst(red.bytes, leafMap, 1).bytes, burst(red.bytes, leafMap, 2).bytes, truncate(red.bytes, leafMap).bytes];
    for (const bytes of copies) {
      const map = new PageMap();
      const source = bytesSource(bytes, 'red.ibd');
      await summarize(source, { pageMap: map });
      for (let no = 0; no < map.pages; no++) expect((await inspect(red, no, false, source)).state, `page ${no}`).toBe(map.entry(no).state);
    }
    await expect(inspect(red, red.map.pages + 5)).rejects.toThrow(/there is no page/);
  });

  it('reports where a broken record list breaks, and what the decoder makes of the page', async () => {
    const no = ins.leaves[ins.leaves.length >> 1];
    const intact = await inspect(ins, no);
    const third = listed(intact)[2];
    // The third record's next pointer (COMPACT: relative) sent 3 bytes short of the page's end.
    const bytes = ins.bytes.slice();
    const at = no * pageSize + third.origin - 2;
    const rel = (pageSize - 3 - third.origin + 0x10000) & 0xffff;
    bytes[at] = rel >> 8;
    bytes[at + 1] = rel & 0xff;
    const p = await inspect(ins, no, true, bytesSource(bytes, 'ins.ibd'));
    expect(p.state).toBe('checksum-bad');
    expect(p.index?.listDamage).toBe(`a record pointer points outside the page (offset ${pageSize - 3})`);
    // The bytes refused: the pointer itself.
    expect(p.problems).toContainEqual({ message: `the record list is broken: a record pointer points outside the page (offset ${pageSize - 3})`, bytes: [{ start: third.origin - 2, end: third.origin }] });
    expect(p.index?.decoded?.problems.some((x) => x.message.startsWith('the page is damaged'))).toBe(true);
    expect(listed(p).map((r) => [r.origin, r.values])).toEqual(listed(intact).slice(0, 3).map((r) => [r.origin, r.values]));
    const checks = p.checksum?.checks.find((c) => c.algorithm === checksum);
    expect(checks?.matches).toBe(false);
  });
});
