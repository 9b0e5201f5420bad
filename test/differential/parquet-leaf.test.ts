/**
 * Trusted leaf pages straight into Parquet's column chunks (writers/parquet-leaf.ts), against the
 * general path (every page decoded into a RowBatch, its cells' text parsed by the chunks), on a
 * table MariaDB wrote whose every column is of a kind the plan takes: the same bytes, row groups cut
 * at the same rows (mid-page, with a small row group), the same values not held (a zero date, whose
 * page the plan leaves to the general path), and with a damaged page among the trusted ones (read
 * the general way, its rows in order between theirs); and the plan's file, footer and all, read by
 * DuckDB with the server's values. That the general path's file holds the server's values is
 * test/differential/parquet-export.test.ts's and parquet-pool.test.ts's.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInnodb } from '../../src/lib/node.ts';
import { ParquetLeaf } from '../../src/core/writers/parquet-leaf.ts';
import { parquetPages } from '../../src/core/writers/parquet-pages.ts';
import { parquetFooter, parquetPart, ParquetRows } from '../../src/core/writers/parquet-rows.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { joined } from '../text-batches.ts';
import { expectSameRows } from './decode.ts';
import { duckdbRead } from './parquet-duckdb.ts';

/** The zero date's row: on a page of its own among trusted ones. */
const ZERO_ID = 7001;

describe('Parquet straight from trusted leaf pages, against MariaDB', () => {
  let server: MariadbServer;
  let ibd: string;

  beforeAll(async () => {
    server = await startMariadb({ pageSize: 4096 });
    await server.exec(`
      CREATE TABLE fast (id INT PRIMARY KEY, amount DECIMAL(12,2), small SMALLINT, tiny TINYINT UNSIGNED, mid MEDIUMINT, u INT UNSIGNED,
        d DATE, code CHAR(4), name VARCHAR(60), price DECIMAL(15,4) NOT NULL, frac DECIMAL(4,4)) DEFAULT CHARSET=utf8mb4;
      INSERT INTO fast SELECT seq, IF(seq % 11 = 0, NULL, CAST(seq % 100000 AS SIGNED) / 100 - 500), CAST(seq % 65536 AS SIGNED) - 32768, seq % 256, CAST(seq AS SIGNED) * 97 - 4000000, seq * 214741,
        IF(seq % 13 = 0, NULL, DATE'1900-01-01' + INTERVAL seq * 3 DAY), ELT(1 + seq % 4, 'a', 'bb ', 'çé', NULL),
        IF(seq % 7 = 0, NULL, CONCAT('name ', seq, IF(seq % 3 = 0, ' é😀', ''))), CAST(seq AS SIGNED) * 12345.6789 - 99999999.5, IF(seq % 2 = 0, -0.0001 * CAST(seq % 10000 AS SIGNED), 0.0001 * (seq % 10000))
        FROM seq_1_to_20000;
      SET SESSION sql_mode = '';
      UPDATE fast SET d = '0000-00-00' WHERE id = ${ZERO_ID};`);
    ibd = await server.exportTable('fast');
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** The file's Parquet both ways, row groups of `groupRows` rows (or `groupBytes` of cell text): the general path's and the plan's bytes, with how many rows the plan took. */
  async function bothWays(path: string, groupRows: number, groupBytes?: number): Promise<{ general: Uint8Array; direct: Uint8Array; notHeld: [string, string]; taken: number; rows: number; bad: number; groups: number }> {
    const lib = await openInnodb(path);
    try {
      const { reader, definition } = await lib.table(null);
      const pages = await reader.leafPages();
      const columns = reader.columns;
      const one = new ParquetRows(definition, columns, { rowGroupRows: groupRows, rowGroupBytes: groupBytes });
      const batch = await reader.decodePages(pages, { first: true });
      const general = joined([one.add(batch), one.flush()]);
      const hook = new ParquetLeaf(new ParquetRows(definition, columns, { rowGroupRows: groupRows, rowGroupBytes: groupBytes }));
      const rest = await reader.decodePages(pages, { first: true, hook });
      const direct = joined([...hook.parts, hook.rows.add(rest), hook.rows.flush()]);
      expect(hook.rows.groups().rows).toBe(batch.rows);
      expect(JSON.stringify(hook.rows.groups().rowGroups, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v))).toBe(JSON.stringify(one.groups().rowGroups, (_, v: unknown) => (typeof v === 'bigint' ? String(v) : v)));
      return { general, direct, notHeld: [JSON.stringify(one.notHeld()), JSON.stringify(hook.rows.notHeld())], taken: batch.rows - rest.rows, rows: batch.rows, bad: reader.stats.badChecksums, groups: one.groups().rowGroups.length };
    } finally {
      await lib.close();
    }
  }

  it('the same bytes as the general path, row groups cut mid-page by rows or bytes, the zero date not held and named', async () => {
    // Cut by rows, by none, and by the bytes of the cells' text (which the plan counts without writing it).
    for (const [groupRows, groupBytes] of [[333], [100_000], [1 << 30, 54_321]]) {
      const { general, direct, notHeld, taken, rows, groups } = await bothWays(ibd, groupRows, groupBytes);
      if (groupBytes !== undefined) expect(groups).toBeGreaterThan(20);
      expect(rows).toBe(20_000);
      // The plan took most pages (not the first, nor the zero date's, nor those after it in the last batch).
      expect(taken).toBeGreaterThan(rows / 2);
      expect(direct.length).toBe(general.length);
      expect(Buffer.from(direct).equals(Buffer.from(general))).toBe(true);
      expect(notHeld[1]).toBe(notHeld[0]);
      expect(notHeld[1]).toContain(`"column":"d","count":1,"rows":[${ZERO_ID - 1}]`);
    }
  });

  it('the plan\'s file read by DuckDB: the server\'s values (the zero date a null), in several row groups', async () => {
    const lib = await openInnodb(ibd);
    const file = join(dirname(ibd), 'fast-plan.parquet');
    try {
      const { reader, definition } = await lib.table(null);
      const pages = await reader.leafPages();
      const hook = new ParquetLeaf(new ParquetRows(definition, reader.columns, { rowGroupRows: 1000 }));
      const rest = await reader.decodePages(pages, { first: true, hook });
      // Most rows went the plan's way (all pages but the first and the zero date's, and what follows it in its batch).
      expect(rest.rows).toBeLessThan(5000);
      const body = joined([...hook.parts, hook.rows.add(rest), hook.rows.flush()]);
      const groups = hook.rows.groups();
      expect(groups.rowGroups.length).toBe(20);
      writeFileSync(file, joined([body, parquetFooter(definition, reader.columns, groups)]));
    } finally {
      await lib.close();
    }
    const expected = await server.query('SELECT * FROM fast ORDER BY id');
    const d = expected.columns.indexOf('d');
    const zero = expected.rows[ZERO_ID - 1];
    expect([zero[0], zero[d]]).toEqual([String(ZERO_ID), '0000-00-00']);
    // A zero date is no date Parquet holds: written as a null, and named (the first test).
    zero[d] = null;
    const duck = await duckdbRead(file, expected);
    expect(duck.thrift).toEqual([]);
    expect(duck.types).toMatchObject({ id: 'INTEGER', amount: 'DECIMAL(12,2)', d: 'DATE', name: 'VARCHAR', price: 'DECIMAL(15,4)' });
    expectSameRows(duck.rows, expected.rows, 'the plan\'s file (DuckDB)', expected.columns);
  });

  it('a damaged page among trusted ones: read the general way, its rows in order, the same bytes', async () => {
    const lib = await openInnodb(ibd);
    const pages = await (await lib.table(null)).reader.leafPages();
    await lib.close();
    const bytes = readFileSync(ibd);
    const pageNo = pages[Math.floor(pages.length / 2)];
    // A byte in the middle of the page's records: its checksum no longer holds.
    bytes[pageNo * 4096 + 2000] ^= 0x55;
    // Beside its .frm (the definition), as the server's files are.
    const dir = join(dirname(ibd), 'damaged');
    mkdirSync(dir, { recursive: true });
    copyFileSync(ibd.replace(/\.ibd$/, '.frm'), join(dir, 'fast.frm'));
    const damaged = join(dir, 'fast.ibd');
    writeFileSync(damaged, bytes);
    const { general, direct, taken, rows, bad } = await bothWays(damaged, 500);
    expect(bad).toBeGreaterThan(0);
    expect(taken).toBeGreaterThan(rows / 2);
    expect(Buffer.from(direct).equals(Buffer.from(general))).toBe(true);
  });

  it('parquetPages (the CLI\'s run) writes what parquetPart writes of the decoded run', async () => {
    const lib = await openInnodb(ibd);
    try {
      const { reader, definition } = await lib.table(null);
      const pages = await reader.leafPages();
      const spec = { columns: reader.columns, partition: null };
      for (const [from, to] of [[0, 40], [40, pages.length]]) {
        const run = pages.slice(from, to);
        const direct = await parquetPages(reader, definition, run, from === 0, spec);
        const general = parquetPart(definition, spec.columns, await reader.decodePages(run, { first: from === 0 }));
        expect(Buffer.from(direct.bytes).equals(Buffer.from(general.bytes))).toBe(true);
        expect(direct.part.size).toBe(general.part.size);
      }
    } finally {
      await lib.close();
    }
  });
});
