/**
 * Sorting by a column against MariaDB's own `ORDER BY col, id`: a table of 1,500 rows with NULLs and
 * duplicates in columns of every ordered kind (integers signed and unsigned, DECIMAL, DOUBLE, DATE,
 * DATETIME, TIME with negatives, YEAR, TIMESTAMP, ENUM, VARBINARY, BIT, and text in utf8mb4_general_ci,
 * utf8mb4_bin and latin1_swedish_ci with accents, case, trailing spaces and tabs) is decoded from
 * its .ibd and sorted the way the page sorts it (TableView.sortBy: runs of one leaf page sorted in the
 * worker methods, merged from their Blobs); the row order must be the server's, also over a filter's
 * matches. A column whose order is not modelled is refused with its reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alignedBounds } from '../../src/core/readers/parallel.ts';
import { runOptions, runOrder, writeSorted, type ExportOrder } from '../../src/ui/export/export-order.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { inThreadPool } from '../ui/in-thread-pool.ts';
import { lookup, openSortedTable, serverIds, sortedIds as sortedBy, type SortedTable } from './sorted-table.ts';

const TEXTS = ['a', 'A', 'á', 'b', 'B ', 'b', 'ß', 'ss', 'sz', 'ä', 'å', 'ö', 'ø', 'ü', 'y', 'z', 'Z', 'aa', 'a ', 'a\t', '', ' ', 'é', 'e', 'E', 'ê', 'ÿ', 'x1', 'x10', 'x2', '_x', '-x', 'Ö', 'Å'];
const EMOJI = ['😀', '中', 'Ω', 'ω', 'ё', 'Е'];

/** A deterministic pseudo-random sequence (the same table every run). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function rowValues(i: number, rnd: () => number): string {
  const pick = <T,>(a: readonly T[]) => a[Math.floor(rnd() * a.length)];
  const maybe = (v: string) => (rnd() < 0.1 ? 'NULL' : v);
  const text = (pool: readonly string[]) => maybe(`'${pick(pool)}${rnd() < 0.3 ? pick(pool) : ''}'`);
  const n = Math.floor(rnd() * 200) - 100;
  return `(${i}, ${text([...TEXTS, ...EMOJI])}, ${text([...TEXTS, ...EMOJI])}, ${text(TEXTS)}, ${maybe(String(n))}, ${maybe(pick(['0', '1', '9223372036854775808', '18446744073709551615', String(n & 255)]))},
    ${maybe(`${(n * 37.125).toFixed(3)}`)}, ${maybe(pick(['0', '-0', '1e300', '-1e-300', '2.5', '-2.5', '12345.678', String(n)]))},
    ${maybe(`'20${10 + (i % 20)}-0${1 + (n & 7)}-1${n & 7}'`)}, ${maybe(`'2024-02-29 1${n & 7}:0${i % 10}:00.${n & 7}'`)},
    ${maybe(pick(["'-838:59:59'", "'-01:00:00'", "'00:00:00'", "'12:30:00'", "'100:00:00'", "'-100:00:01'"]))}, ${maybe(String(1990 + (n & 15)))},
    ${maybe(`'2020-01-0${1 + (i % 9)} 00:00:0${n & 7}'`)}, ${maybe(pick(["'b'", "'a'", "'c'"]))}, ${maybe(pick(["X''", "X'00'", "X'FF'", "X'0001'", "X'00FF'"]))},
    ${maybe(pick(["b'0'", "b'1'", "b'101'", "b'11111111'"]))})`;
}

const SORTED = ['g', 'bn', 'lat', 'n', 'u', 'd', 'f', 'dd', 'dt', 'tm', 'yr', 'ts', 'e', 'vb', 'bt'];

describe('sorting by a column, as MariaDB orders it', () => {
  let server: MariadbServer;
  let t: SortedTable;
  let serverRows: (string | null)[][];
  const serverOrder = new Map<string, number[]>();

  beforeAll(async () => {
    server = await startMariadb({ pageSize: 4096 });
    await server.query(`CREATE TABLE t (
      id INT PRIMARY KEY,
      g VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci,
      bn VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin,
      lat VARCHAR(20) CHARACTER SET latin1 COLLATE latin1_swedish_ci,
      n INT, u BIGINT UNSIGNED, d DECIMAL(12,3), f DOUBLE, dd DATE, dt DATETIME(3), tm TIME, yr YEAR, ts TIMESTAMP NULL,
      e ENUM('b','a','c'), vb VARBINARY(4), bt BIT(8), s VARCHAR(5) CHARACTER SET utf8mb4 COLLATE utf8mb4_vietnamese_ci
    ) ENGINE=InnoDB`);
    const rnd = random(7);
    const rows = Array.from({ length: 1500 }, (_, i) => rowValues(i * 3 + 1, rnd));
    await server.query(`SET time_zone = '+00:00'; INSERT INTO t VALUES ${rows.map((r) => r.replace(/\)$/, ', NULL)')).join(',\n')}`);
    for (const col of SORTED) serverOrder.set(col, await serverIds(server, `SELECT id FROM t ORDER BY \`${col}\`, id`));
    serverOrder.set('filtered', await serverIds(server, "SELECT id FROM t WHERE bn LIKE BINARY '%a%' ORDER BY g, id"));
    serverOrder.set('filtered desc', await serverIds(server, "SELECT id FROM t WHERE bn LIKE BINARY '%a%' ORDER BY g DESC, id DESC"));
    serverOrder.set('filtered id desc', await serverIds(server, "SELECT id FROM t WHERE bn LIKE BINARY '%a%' ORDER BY id DESC"));
    serverRows = (await server.query("SELECT id, g, n, d FROM t WHERE bn LIKE BINARY '%a%' ORDER BY g DESC, id DESC")).rows as (string | null)[][];
    t = await openSortedTable(server);
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
  });

  const sortedIds = (col: string, filter: Parameters<typeof sortedBy>[2] = null) => sortedBy(t, col, filter);

  it('spans many leaf pages (many runs to merge)', () => {
    expect(t.view.map.rows).toBe(1500);
    expect(t.view.map.leaves.length).toBeGreaterThan(20);
  });

  it.each(SORTED)('ORDER BY %s, id', async (col) => {
    expect(await sortedIds(col)).toEqual(serverOrder.get(col));
  });

  it('sorts only the rows a filter matches', async () => {
    const filter = { kind: 'text' as const, text: 'a', column: t.view.view.columns.indexOf('bn'), matchCase: true };
    expect(await sortedIds('g', filter)).toEqual(serverOrder.get('filtered'));
  });

  it('refuses a column whose order is not modelled, saying why', async () => {
    await expect(sortedIds('s')).rejects.toThrow(/Cannot sort by s: .*collation utf8mb4_vietnamese_ci, whose weights are not implemented/);
  });

  /** A pool of its own with the table open, as an export's. */
  function exportPool() {
    const pool = inThreadPool(lookup(t.spec.table));
    return { pool, gen: pool.setSpec(t.spec) };
  }
  const bnFilter = () => ({ kind: 'text' as const, text: 'a', column: t.view.view.columns.indexOf('bn'), matchCase: true });
  const ndjsonIds = async (parts: (Blob | Uint8Array<ArrayBuffer>)[]) => (await new Blob(parts).text()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);

  it('a filtered export sorted by a non-key column, descending: the server\'s WHERE … ORDER BY g DESC, id DESC, row for row', async () => {
    const { pool, gen } = exportPool();
    const parts: (Blob | Uint8Array<ArrayBuffer>)[] = [];
    const order = { filter: bnFilter(), sort: { column: t.view.view.columns.indexOf('g'), descending: true, key: false } };
    const written = await writeSorted({
      pool, gen, leaves: t.view.map.leaves, order, options: { format: 'ndjson', jsonStrings: true }, as: 'blob', write: async (c) => void parts.push(c), onRows: () => undefined, partRows: 40, runPages: 2,
    });
    const lines = await ndjsonIds(parts);
    expect(written).toBe(serverRows.length);
    expect(parts.length).toBeGreaterThan(3);
    expect(lines.map((l) => Number(l.id))).toEqual(serverOrder.get('filtered desc'));
    expect(lines.map((l) => [String(l.id), l.g, l.n === null ? null : String(l.n), l.d === null ? null : String(l.d)])).toEqual(serverRows);
  });

  it('a filtered export in descending key order: the runs last first, each run\'s rows last first', async () => {
    const { pool, gen } = exportPool();
    const order: ExportOrder = { filter: bnFilter(), sort: { column: 0, descending: true, key: true } };
    const runs = alignedBounds(t.view.map.leaves, 3);
    const nth = runOrder(order, runs.length);
    const parts: (Blob | Uint8Array<ArrayBuffer>)[] = [];
    for (let i = 0; i < runs.length; i++) {
      const [from, to] = runs[nth(i)];
      const run = await pool.run((api) => api.exportLeaves(t.view.map.leaves.slice(from, to), from === 0, runOptions({ format: 'ndjson' }, order), 'blob'), 'low', gen);
      parts.push(run.data);
    }
    expect((await ndjsonIds(parts)).map((l) => Number(l.id))).toEqual(serverOrder.get('filtered id desc'));
  });
});
