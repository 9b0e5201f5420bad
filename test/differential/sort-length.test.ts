/**
 * max_sort_length: MariaDB 10.11 compares only the first 1024 bytes of a text's sort key (its
 * default), so rows whose texts share a long prefix tie there and come in primary-key order. Seen on
 * the server: of a UCA collation the key is its weights (512 primary weights, whatever the size of
 * the characters); of `_general_ci`, `_bin` and latin1 the first 1024 bytes of the text in its
 * charset (1024 ASCII letters, 512 'é', 342 '中': a character that starts in them counts; 1024 of any latin1 letter); of a binary string its first 1024 bytes less
 * the field's length bytes (VARBINARY(3300) and BLOB 1022, MEDIUMBLOB 1021, LONGBLOB 1020), then its
 * length; a UCA column that fits in 1024 bytes (the server packs its keys) is compared whole. Texts of n repeated characters then 'b' (the lower id) or 'a', for n around those bounds, sorted as the page sorts them, must come in the server's
 * `ORDER BY col, id`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { openSortedTable, serverIds, sortedIds, type SortedTable } from './sorted-table.ts';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { compareOrderKeys, loadColumnOrder, type ColumnOrder } from '../../src/core/values/order-key.ts';
import { ByteStore } from '../../workers/sort-run.ts';

function keyOf(order: ColumnOrder, text: string): Uint8Array {
  const out = new ByteStore();
  order.key(text, out);
  return out.bytes.slice(0, out.length);
}

const COLUMNS: [string, string][] = [
  ['uc', 'VARCHAR(1100) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci'],
  ['u14np', 'VARCHAR(1100) CHARACTER SET utf8mb4 COLLATE utf8mb4_uca1400_nopad_ai_ci'],
  ['w2', 'VARCHAR(1100) CHARACTER SET ucs2 COLLATE ucs2_unicode_520_ci'],
  ['gc', 'VARCHAR(1100) CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci'],
  ['bn', 'TEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin'],
  ['l1', 'VARCHAR(1100) CHARACTER SET latin1 COLLATE latin1_swedish_ci'],
];
const BINARY_COLUMNS: [string, string][] = [['vb', 'VARBINARY(3300)'], ['bl', 'BLOB'], ['mb', 'MEDIUMBLOB'], ['lb', 'LONGBLOB']];
const LENGTHS = [1, 300, 340, 341, 342, 510, 511, 512, 513, 700, 1019, 1020, 1021, 1022, 1023, 1024, 1025, 1090];
const CHARS = ['a', 'é', '中'];

/** `s` in `charset` (latin1 has no '中': 'ø' instead). */
function text(s: string, charset: string): string {
  const chars = charset === 'latin1' ? s.replaceAll('中', 'ø') : s;
  return `CONVERT(CONVERT(X'${Buffer.from(chars, 'utf8').toString('hex')}' USING utf8mb4) USING ${charset})`;
}

describe('sorting by text sharing a long prefix, as MariaDB compares its first max_sort_length bytes', () => {
  let server: MariadbServer;
  let t: SortedTable;
  const serverOrder = new Map<string, number[]>();

  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384 });
    await server.query(`CREATE TABLE t (id INT PRIMARY KEY, ${[...COLUMNS, ...BINARY_COLUMNS].map(([c, type]) => `${c} ${type}`).join(', ')}) ENGINE=InnoDB`);
    const texts = CHARS.flatMap((ch) => LENGTHS.flatMap((n) => ['b', 'a', 'A'].map((last) => ch.repeat(n) + last)));
    const charsets = { uc: 'utf8mb4', u14np: 'utf8mb4', w2: 'ucs2', gc: 'utf8mb4', bn: 'utf8mb4', l1: 'latin1' } as Record<string, string>;
    // the binary columns hold the texts backwards, a longer value at a lower id: ties on the cut prefix then order by length, not by id
    const rows = texts.map((s, i) => {
      const bytes = `X'${Buffer.from(texts[texts.length - 1 - i], 'utf8').toString('hex')}'`;
      return `(${i + 1}, ${COLUMNS.map(([c]) => text(s, charsets[c])).join(', ')}, ${BINARY_COLUMNS.map(() => bytes).join(', ')})`;
    });
    await server.query(`INSERT INTO t VALUES ${rows.join(',\n')}`);
    for (const [col] of [...COLUMNS, ...BINARY_COLUMNS]) serverOrder.set(col, await serverIds(server, `SELECT id FROM t ORDER BY \`${col}\`, id`));
    t = await openSortedTable(server);
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('has texts the server ties on (they come in id order) and others it does not', () => {
    const uc = serverOrder.get('uc')!;
    // 'a'×1 + 'b' (id 1) after 'a'×1 + 'a' (id 2): compared whole; 'a'×1090 + 'b' before: tied
    expect(uc.indexOf(1)).toBeGreaterThan(uc.indexOf(2));
    const long = LENGTHS.length * 3 - 3 + 1;
    expect(uc.indexOf(long)).toBeLessThan(uc.indexOf(long + 1));
  });

  it('compares a UCA column that fits in 1024 bytes whole, however many weights its characters have', async () => {
    // U+FDFB weighs 16 primary weights in utf8mb4_unicode_ci: 100 of them are 1,600, beyond a fixed key's 512
    await server.query(`CREATE TABLE w (id INT PRIMARY KEY, u VARCHAR(256) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci) ENGINE=InnoDB`);
    await server.query(`INSERT INTO w VALUES (1, CONCAT(REPEAT(_utf32 0xFDFB, 100), 'b')), (2, CONCAT(REPEAT(_utf32 0xFDFB, 100), 'a')), (3, REPEAT(_utf32 0xFDFB, 100))`);
    const table = parseCreateTables((await server.query('SHOW CREATE TABLE w')).rows[0][1] as string)[0];
    const order = await loadColumnOrder(table.columns[1], { tieBytes: 4 });
    if ('why' in order) throw new Error(order.why);
    const keys = (await server.query('SELECT id, u FROM w')).rows.map((r) => ({ id: Number(r[0]), key: keyOf(order, String(r[1])) }));
    keys.sort((a, b) => compareOrderKeys(order.kind, a.key, 0, a.key.length, b.key, 0, b.key.length) || a.id - b.id);
    expect(keys.map((k) => k.id)).toEqual(await serverIds(server, 'SELECT id FROM w ORDER BY u, id'));
    expect(keys.map((k) => k.id)).toEqual([3, 2, 1]);
  });

  it.each([...COLUMNS, ...BINARY_COLUMNS].map(([c]) => c))('ORDER BY %s, id', async (col) => {
    expect(await sortedIds(t, col)).toEqual(serverOrder.get(col));
  });
});
