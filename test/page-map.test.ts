/**
 * src/core/readers/page-map.ts, filled by the summary's scan: on MariaDB tables its counts per page
 * type and per index equal the summary's, and the server's own figures (INNODB_SYS_INDEXES: index
 * ids and root pages; mysql.innodb_index_stats after ANALYZE TABLE: `n_leaf_pages`, the pages in use
 * in the leaf segment, and `size`, the pages both segments reserve, exactly the pages in use while
 * they are fragment pages; INNODB_SYS_TABLESPACES: the file size). On damaged copies (test/damage/
 * damage.ts) the damaged, all-zero and missing pages are marked so and every other page as before,
 * and a page-compressed page that no longer decompresses is unreadable. Filled from the row count's
 * reads instead (page-map-fill.ts: the clustered leaves counted in runs as the page's pool counts
 * them, then the pages the count did not read), the map is the same page for page, on all of these,
 * and the file is read once.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIL_PAGE_DATA, FIL_PAGE_FILE_FLUSH_LSN, FIL_PAGE_TYPE, PageType, u16 } from '../src/core/pages/fil-header.ts';
import { findClusteredRoot } from '../src/core/btree/btree.ts';
import { scanLeafPages } from '../src/core/btree/page-scan.ts';
import { countLeafRows } from '../src/core/readers/leaf-counts.ts';
import { CountedMap, type MappedRange } from '../src/core/readers/page-map-fill.ts';
import { PAGE_STATES, PageMap, PageState } from '../src/core/readers/page-map.ts';
import { summarize, type TablespaceSummary } from '../src/core/readers/summary.ts';
import { parseKeyFile, type EncryptionKeys } from '../src/core/tablespace/encryption.ts';
import { bytesSource, type ByteSource } from '../src/core/tablespace/source.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';
import { burst, truncate, zeroPage } from './damage/damage.ts';
import type { LeafMap } from './damage/intact.ts';
import { startMariadb, type MariadbServer } from './harness/mariadb.ts';

const KEY_FILE = '1;a7addd9adea9978fda19f21e6be987880e68ac92632ca052e5bb42b1a506939a\n2;49c16acc2dffe616710c9ba9a10b94944a737de1beccb52dc1560abfdd67388b\n';
const keyDir = mkdtempSync(join(tmpdir(), 'ibd-page-map-'));
writeFileSync(join(keyDir, 'keys.txt'), KEY_FILE);

async function mapOf(bytes: Uint8Array, keys?: EncryptionKeys): Promise<{ map: PageMap; summary: TablespaceSummary }> {
  const map = new PageMap();
  const summary = await summarize(bytesSource(bytes, 't.ibd'), { pageMap: map, keys });
  return { map, summary };
}

/** `bytes` as a source that adds up what is read from it. */
function counting(bytes: Uint8Array): { source: ByteSource; read: () => number } {
  const inner = bytesSource(bytes, 't.ibd');
  let read = 0;
  const source: ByteSource = {
    name: inner.name,
    size: inner.size,
    read: async (offset, length) => {
      const got = await inner.read(offset, length);
      read += got.length;
      return got;
    },
  };
  return { source, read: () => read };
}

/**
 * The map as the page fills it (page-map-fill.ts): the clustered leaves counted in runs of `run`
 * (reads of `readBytes`), each range read merged, then the rest; and the bytes read for it.
 */
async function countedMapOf(bytes: Uint8Array, run: number, readBytes: number, keys?: EncryptionKeys): Promise<{ map: PageMap; read: number; leaves: number[]; pendingLeaves: number }> {
  const { source, read } = counting(bytes);
  const counter = await Tablespace.open(source, { keys });
  const root = await findClusteredRoot(counter);
  // (the page lists the leaves from the B-tree's level 1; this scan reads the file: not counted)
  const { pages } = await scanLeafPages(counter, root.header.indexId);
  const before = read();
  const keeper = await CountedMap.open(await Tablespace.open(source, { keys }));
  for (let at = 0; at < pages.length; at += run) {
    const mapped: MappedRange[] = [];
    await countLeafRows(counter, pages.slice(at, at + run), { indexId: root.header.indexId, compact: root.header.compact, mode: 'live', readBytes, mapped });
    for (const range of mapped) keeper.merge(range);
  }
  // The leaves the count read are in the map before the rest is read: none is read twice.
  const pendingLeaves = pages.filter((p) => keeper.map.isPending(p)).length;
  await keeper.fillRest();
  return { map: keeper.map, read: read() - before, leaves: pages, pendingLeaves };
}

/** Where two maps differ, page by page (index ids compared by value, not slot). */
function differences(got: PageMap, want: PageMap): string[] {
  const out: string[] = [];
  expect([got.pageCount, got.missing, got.pageSize]).toEqual([want.pageCount, want.missing, want.pageSize]);
  for (let p = 0; p < want.pageCount && out.length < 10; p++) {
    const a = JSON.stringify(got.entry(p));
    const b = JSON.stringify(want.entry(p));
    if (a !== b) out.push(`page ${p}: ${a} against ${b}`);
  }
  return out;
}

/** The clustered index's pages as test/damage's helpers take them (its leaves and level-1 pages). */
function leafMapOf(map: PageMap, summary: TablespaceSummary): LeafMap {
  const of = (level: number) => Array.from({ length: map.pageCount }, (_, p) => p).filter((p) => map.index[p] === 1 && map.level[p] === level && map.state[p] === PageState.VALID);
  return { pageSize: map.pageSize, pageCount: map.pageCount, root: summary.indexes[0].rootPage, level1: of(1), leaves: of(0), records: [] };
}

describe.each([
  { pageSize: 16384, checksum: 'full_crc32' as const },
  { pageSize: 4096, checksum: 'crc32' as const },
])('page map of MariaDB tables ($pageSize bytes, $checksum)', ({ pageSize, checksum }) => {
  let db: MariadbServer;
  let intact: Uint8Array;
  beforeAll(async () => {
    db = await startMariadb({ pageSize, checksum, extraArgs: ['--plugin-load-add=file_key_management', `--file-key-management-filename=${join(keyDir, 'keys.txt')}`] });
    // Flushed before the deletes: the pages the merges free keep their old images on disk.
    await db.exec(`CREATE TABLE pm (id INT PRIMARY KEY, a VARCHAR(60), b INT, KEY kb (b), KEY ka (a)) ENGINE=InnoDB;
      INSERT INTO pm SELECT seq, CONCAT('value number ', seq), seq % 500 FROM seq_1_to_30000;
      FLUSH TABLES pm FOR EXPORT; UNLOCK TABLES;
      DELETE FROM pm WHERE id BETWEEN 5000 AND 15000 OR (id > 20000 AND id % 4 <> 0);
      SET GLOBAL innodb_max_purge_lag_wait = 0;
      CREATE TABLE small (id INT PRIMARY KEY, v VARCHAR(30), KEY kv (v)) ENGINE=InnoDB;
      INSERT INTO small SELECT seq, CONCAT('v', seq) FROM seq_1_to_2000;
      ANALYZE TABLE pm, small;`);
    intact = new Uint8Array(readFileSync(await db.exportTable('pm')));
  });
  afterAll(async () => {
    await db?.stop();
  });

  it('counts pages per type and per index as the summary does', async () => {
    const { map, summary: s } = await mapOf(intact);
    const totals = map.totals();
    expect(totals.types).toEqual(s.pageTypes);
    expect(totals.states[PageState.FREE]).toBe(s.freePages);
    expect(s.freePages).toBeGreaterThan(0);
    expect(map.pages).toBe(s.pageCount);
    // Every page in use is valid, the others free or never written.
    const inUse = Object.values(s.pageTypes).reduce((a, b) => a + b, 0);
    expect(totals.states).toEqual(PAGE_STATES.map((state) => ({ valid: inUse, free: s.freePages, 'all-zero': s.pageCount - inUse - s.freePages })[state as string] ?? 0));
    const levels = map.levels();
    s.indexes.forEach((index, i) => {
      const pages = levels[i].pages;
      expect(levels[i].indexId).toBe(index.indexId);
      expect(pages.reduce((a, b) => a + b, 0)).toBe(index.pages);
      expect(totals.indexes[index.indexId]).toBe(index.pages);
      expect(pages[0]).toBe(index.leafPages);
      expect(pages.length).toBe(index.height);
      let leafRecords = 0;
      for (let p = 0; p < map.pageCount; p++) if (map.index[p] === i + 1 && map.level[p] === 0 && map.state[p] === PageState.VALID) leafRecords += map.records[p];
      expect(leafRecords).toBe(index.leafRecords);
    });
    // Freed pages keep their old images: the map still tells what they were.
    const stale = Array.from({ length: map.pageCount }, (_, p) => map.entry(p)).filter((e) => e.state === 'free' && e.typeName === 'INDEX');
    expect(stale.length).toBeGreaterThan(0);
    // Buckets add up to the whole.
    const buckets = map.buckets(100);
    expect(buckets.reduce((n, b) => n + b.pages, 0)).toBe(map.pages);
    expect(PAGE_STATES.map((_, i) => buckets.reduce((n, b) => n + b.states[i], 0))).toEqual(totals.states);
    expect(buckets.reduce((n, b) => n + b.btreePages, 0)).toBe(totals.btreePages);
  });

  it('agrees with the server: index ids and root pages, leaf pages and sizes, the file size', async () => {
    const samplePages = Number((await db.query('SELECT @@innodb_stats_persistent_sample_pages')).rows[0][0]);
    const compared = new Set<string>();
    for (const table of ['pm', 'small']) {
      const bytes = table === 'pm' ? intact : new Uint8Array(readFileSync(await db.exportTable(table)));
      const { map, summary: s } = await mapOf(bytes);
      const indexes = await db.query(`SELECT i.INDEX_ID, i.NAME, i.PAGE_NO FROM information_schema.INNODB_SYS_INDEXES i JOIN information_schema.INNODB_SYS_TABLES t USING (TABLE_ID) WHERE t.NAME = 'test/${table}' ORDER BY i.INDEX_ID`);
      expect(s.indexes.map((x) => [x.indexId, x.rootPage]), table).toEqual(indexes.rows.map(([id, , page]) => [id, Number(page)]));
      const levels = map.levels();
      const stats = await db.query(`SELECT index_name, stat_name, stat_value FROM mysql.innodb_index_stats WHERE database_name = 'test' AND table_name = '${table}' AND stat_name IN ('n_leaf_pages', 'size')`);
      const stat = (name: string, what: string) => Number(stats.rows.find((r) => r[0] === name && r[1] === what)?.[2]);
      for (const [id, name, root] of indexes.rows) {
        const slot = map.indexIds.indexOf(id as string);
        const pages = levels[slot].pages;
        const inUse = pages.reduce((a, b) => a + b, 0);
        const entry = map.entry(Number(root));
        expect([entry.indexId, entry.level, entry.state], `${table}.${name}`).toEqual([id, pages.length - 1, 'valid']);
        // ANALYZE counts the leaf segment's pages in use only when it samples the leaves; when it scans
        // them all (fewer than innodb_stats_persistent_sample_pages × n_uniq leaves), it keeps the
        // previous n_leaf_pages (dict0stats.cc dict_stats_analyze_index).
        const nUniq = name === 'PRIMARY' ? 1 : 2;
        if (pages[0] >= samplePages * nUniq) expect(pages[0], `${table}.${name}: n_leaf_pages`).toBe(stat(name as string, 'n_leaf_pages'));
        // The pages both segments reserve: as many as are in use while a segment has fragment pages
        // only (32 at most, as in \`small\`), whole extents after (and after the deletes, in pm).
        const size = stat(name as string, 'size');
        if (table === 'small') expect(inUse, `${table}.${name}: size`).toBe(size);
        else expect(inUse, `${table}.${name}: size`).toBeLessThanOrEqual(size);
        compared.add(`${table}.${name}`);
      }
      const space = await db.query(`SELECT SPACE, FILE_SIZE FROM information_schema.INNODB_SYS_TABLESPACES WHERE NAME = 'test/${table}'`);
      expect([s.spaceId, map.pageCount * map.pageSize], table).toEqual([Number(space.rows[0][0]), Number(space.rows[0][1])]);
    }
    expect(compared.size).toBe(5);
  });

  it('marks damaged, all-zero and missing pages, the others as in the intact file', async () => {
    const { map: before, summary } = await mapOf(intact);
    const leaves = leafMapOf(before, summary);
    const freePage = before.state.indexOf(PageState.FREE);
    const same = (after: PageMap, except: (p: number) => string | null) => {
      const wrong: string[] = [];
      for (let p = 0; p < before.pageCount; p++) {
        const want = except(p) ?? PAGE_STATES[before.state[p]];
        if (after.entry(p).state !== want) wrong.push(`page ${p}: ${after.entry(p).state}, not ${want}`);
      }
      return wrong;
    };
    for (const seed of [1, 2, 3]) {
      const copy = burst(intact, leaves, seed);
      const { map } = await mapOf(copy.bytes);
      expect(same(map, (p) => (copy.pages.includes(p) ? 'checksum-bad' : null)), copy.what).toEqual([]);
    }
    const leaf = leaves.leaves[leaves.leaves.length >> 1];
    const zeroed = await mapOf(zeroPage(intact, leaves, leaf, 'level-1 page zeroed').bytes);
    expect(same(zeroed.map, (p) => (p === leaf ? 'all-zero' : null))).toEqual([]);
    // A free page is free whatever it holds.
    const zeroedFree = await mapOf(zeroPage(intact, leaves, freePage, 'level-1 page zeroed').bytes);
    expect(same(zeroedFree.map, () => null)).toEqual([]);
    const cut = truncate(intact, leaves);
    const { map: cutMap, summary: cutSummary } = await mapOf(cut.bytes);
    const cutAt = cut.bytes.length / pageSize;
    expect(cutMap.pageCount).toBe(cutAt);
    expect(cutMap.pages).toBe(before.pageCount);
    expect(cutMap.missing).toBe(cutSummary.truncation?.missingPages);
    expect(same(cutMap, (p) => (p >= cutAt ? 'missing' : null))).toEqual([]);
    expect(cutMap.totals().states[PageState.MISSING]).toBe(before.pageCount - cutAt);
  });

  it('reads encrypted and page-compressed tables through the tablespace, and marks a page that does not decompress unreadable', async () => {
    await db.exec(`CREATE TABLE enc (id INT PRIMARY KEY, v VARCHAR(100), KEY kv (v)) ENGINE=InnoDB ENCRYPTED=YES ENCRYPTION_KEY_ID=2;
      INSERT INTO enc SELECT seq, REPEAT(CHAR(65 + seq % 26), 80) FROM seq_1_to_3000;
      CREATE TABLE pc (id INT PRIMARY KEY, v VARCHAR(100), KEY kv (v)) ENGINE=InnoDB PAGE_COMPRESSED=1;
      INSERT INTO pc SELECT seq, REPEAT(CHAR(65 + seq % 26), 80) FROM seq_1_to_3000;`);
    const encBytes = new Uint8Array(readFileSync(await db.exportTable('enc')));
    // Without its keys no page but page 0 can be read: the summary says which key it wants.
    await expect(mapOf(encBytes)).rejects.toThrow(/key id 2/);
    const enc = await mapOf(encBytes, { mariadb: parseKeyFile(KEY_FILE) });
    expect(enc.map.totals().types).toEqual(enc.summary.pageTypes);
    expect(enc.map.totals().states[PageState.VALID]).toBe(Object.values(enc.summary.pageTypes).reduce((a, b) => a + b, 0));
    const bytes = new Uint8Array(readFileSync(await db.exportTable('pc')));
    const { map: intactMap, summary } = await mapOf(bytes);
    expect(intactMap.totals().types).toEqual(summary.pageTypes);
    // A leaf page's compressed stream, its first bytes overwritten: it no longer decompresses. (Not
    // the first leaf: the first page of a file segment is read to find the B-tree roots.)
    const leaves = leafMapOf(intactMap, summary).leaves;
    const leaf = leaves[leaves.length >> 1];
    const stored = bytes.subarray(leaf * pageSize, (leaf + 1) * pageSize);
    const fullCrc32 = checksum === 'full_crc32';
    expect(fullCrc32 ? (u16(stored, FIL_PAGE_TYPE) & 0x8000) !== 0 : u16(stored, FIL_PAGE_TYPE) === PageType.PAGE_COMPRESSED).toBe(true);
    const damaged = bytes.slice();
    damaged.fill(0xff, leaf * pageSize + (fullCrc32 ? FIL_PAGE_FILE_FLUSH_LSN : FIL_PAGE_DATA + 2), leaf * pageSize + FIL_PAGE_DATA + 18);
    const { map } = await mapOf(damaged);
    for (let p = 0; p < map.pageCount; p++) expect(map.entry(p).state, `page ${p}`).toBe(p === leaf ? 'unreadable' : intactMap.entry(p).state);
    expect(map.entry(leaf).typeName).toBeNull();
    // A segment's first page that does not decompress: the summary goes on, marks it and says so. The
    // secondary index's root: that index goes unlisted, the rows are counted. The clustered index's:
    // no index is taken for the rows.
    const unreadRoot = async (root: number) => {
      const copy = bytes.slice();
      copy.fill(0xff, root * pageSize + (fullCrc32 ? FIL_PAGE_FILE_FLUSH_LSN : FIL_PAGE_DATA + 2), root * pageSize + FIL_PAGE_DATA + 18);
      return mapOf(copy);
    };
    const [clustered, secondary] = summary.indexes;
    const lost = await unreadRoot(secondary.rootPage);
    expect(lost.summary.complete).toBe(true);
    expect(lost.map.entry(secondary.rootPage).state).toBe('unreadable');
    expect(lost.summary.indexes.map((i) => [i.indexId, i.clustered])).toEqual([[clustered.indexId, true]]);
    expect(lost.summary.rows).toBe(summary.rows);
    expect(lost.summary.problems[0]).toMatch(new RegExp(`^page ${secondary.rootPage}, the first page of a file segment .*cannot be read .*: an index rooted there, if any, is not listed$`));
    const noRows = await unreadRoot(clustered.rootPage);
    expect(noRows.map.entry(clustered.rootPage).state).toBe('unreadable');
    expect(noRows.summary.indexes.map((i) => [i.indexId, i.clustered])).toEqual([[secondary.indexId, false]]);
    expect(noRows.summary.rows).toBeNull();
    expect(noRows.summary.problems[0]).toMatch(/it may be the clustered index's root, so no index is taken for the table's rows and they are not counted$/);
  });

  it('is the same, page for page, filled from the row count\'s reads and the pages it did not read, the file read once', async () => {
    const { map: want, summary } = await mapOf(intact);
    expect(want.totals().states[PageState.FREE]).toBeGreaterThan(0);
    // Small runs and reads: ranges end at run boundaries and between leaves; and as the page counts.
    for (const [run, readBytes] of [[16, 64 * pageSize], [4096, 16 << 20]]) {
      const { map, read } = await countedMapOf(intact, run, readBytes);
      expect(differences(map, want), `runs of ${run}`).toEqual([]);
      expect(map.totals()).toEqual(want.totals());
      expect(map.levels()).toEqual(want.levels());
      // The file once, and a few MiB for page 0, the descriptor pages and the roots (a Tablespace reads 1 MiB around a page).
      expect(read, `runs of ${run}`).toBeGreaterThanOrEqual(intact.length);
      expect(read, `runs of ${run}`).toBeLessThan(intact.length + 8 * (1 << 20));
    }
    // On damaged copies too: burst, a leaf or a free page zeroed, cut short.
    const leaves = leafMapOf(want, summary);
    const copies = [1, 2, 3].map((seed) => burst(intact, leaves, seed));
    copies.push(zeroPage(intact, leaves, leaves.leaves[leaves.leaves.length >> 1], 'level-1 page zeroed'));
    copies.push(zeroPage(intact, leaves, want.state.indexOf(PageState.FREE), 'level-1 page zeroed'));
    copies.push(truncate(intact, leaves));
    for (const copy of copies) expect(differences((await countedMapOf(copy.bytes, 64, 64 * pageSize)).map, (await mapOf(copy.bytes)).map), copy.what).toEqual([]);
  });

  it('is the same filled from the count on encrypted and page-compressed tables (read through the Tablespace)', async () => {
    const keys = { mariadb: parseKeyFile(KEY_FILE) };
    const enc = new Uint8Array(readFileSync(await db.exportTable('enc')));
    const pc = new Uint8Array(readFileSync(await db.exportTable('pc')));
    for (const [bytes, what, keyed] of [[enc, 'encrypted', keys], [pc, 'page-compressed', undefined]] as const) {
      const counted = await countedMapOf(bytes, 64, 1 << 20, keyed);
      expect(differences(counted.map, (await mapOf(bytes, keyed)).map), what).toEqual([]);
      // Its leaves were decrypted or decompressed once, by the count, not again for the map.
      expect(counted.leaves.length, what).toBeGreaterThan(20);
      expect(counted.pendingLeaves, what).toBe(0);
    }
  });
});

afterAll(() => rmSync(keyDir, { recursive: true, force: true }));
