/**
 * The Parquet export of the BUILT page (dist/, `npm run build`) in headless Chromium: 160,000 rows
 * of a real MariaDB table of several types (more than one run of leaf pages, each encoded into its
 * own row group by a worker of the pool and laid out in key order by the page), streamed as a
 * download through the service worker, read back with hyparquet and compared value by value, in
 * order, with the server's SELECT (test/differential/parquet-values.ts); zero dates in the first and
 * the last run written as null and said at the end, their rows counted from the file's first; and
 * read by DuckDB (a strict reader: parquet-duckdb.ts), its types and each value the server's.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { MariadbServer } from '../harness/mariadb.ts';
import { expectSameRows } from '../differential/decode.ts';
import { parquetText, readRaw } from '../differential/parquet-values.ts';
import { duckdbRead } from '../differential/parquet-duckdb.ts';
import { expectOwnOriginOnly, pageSteps, type Session } from './harness.ts';
import { pageTest } from './page-test.ts';
import { tableFiles } from './test-tables.ts';
import { openInnodb } from '../../src/lib/node.ts';

/** About 900 leaf pages: two runs (PARQUET_RUN_PAGES, export-run.svelte.ts), so two row groups, from two workers. */
const ROWS = 160_000;

describe('the page exports Parquet', () => {
  let db: MariadbServer | undefined;
  let session: Session;
  let page: Page;
  let work: string;
  let leaves = 0;
  const env = pageTest('parquet', { mariadb: {} });
  const { waitForTable, clearAll, open, download } = pageSteps(() => page);

  beforeAll(async () => {
    ({ db, session, page, work } = env);
    await db.exec(`CREATE TABLE typed (id INT NOT NULL PRIMARY KEY, bu BIGINT UNSIGNED, amt DECIMAL(20,4), at DATETIME(6), ts TIMESTAMP NULL DEFAULT NULL,
        d DATE, name VARCHAR(40), b VARBINARY(8), f DOUBLE, tm TIME) DEFAULT CHARSET=utf8mb4;
      INSERT INTO typed SELECT seq, seq * 115292150460684, (seq * 7919 % 10000000) / 10000 - 500, TIMESTAMP'2001-01-01 00:00:00' + INTERVAL seq * 997 SECOND + INTERVAL seq MICROSECOND,
        IF(seq % 11 = 0, NULL, TIMESTAMP'2010-06-01 00:00:00' + INTERVAL seq MINUTE), DATE'1900-01-01' + INTERVAL seq DAY,
        IF(seq % 5 = 0, NULL, CONCAT('név ', seq, ' 😀')), UNHEX(LPAD(HEX(seq), 6, '0')), seq / 3, SEC_TO_TIME(CAST(seq AS SIGNED) * 17 - 1000000) FROM seq_1_to_${ROWS};
      SET SESSION sql_mode = '';
      UPDATE typed SET d = '0000-00-00' WHERE id IN (77, 159000);`);
    const t = await tableFiles(db, 'typed', work);
    const file = await openInnodb(t.exported);
    leaves = (await (await file.table(null)).reader.leafPages()).length;
    await file.close();
    await clearAll();
    await open([t.ibd, t.sql]);
    await waitForTable('typed', 'done', 120_000);
  }, 300_000);

  it('streams a Parquet file equal to the server\'s rows', async () => {
    let said = '';
    const bytes = await download('Parquet', 'typed.parquet', async (progress) => {
      said = (await progress.textContent()) ?? '';
    });
    expect(said).toContain('column `d`: 2 values its Parquet type cannot hold, written as null ("0000-00-00"; rows 76, 158999, counted from 0)');
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
    const { meta, rows } = await readRaw(file);
    expect(Number(meta.num_rows)).toBe(ROWS);
    expect(leaves).toBeGreaterThan(512);
    expect(meta.row_groups.length).toBeGreaterThan(1);
    const expected = await db!.query('SELECT * FROM typed ORDER BY id');
    const schema = meta.schema.slice(1);
    expect(schema.map((e) => e.name)).toEqual(expected.columns);
    const zero = new Set([76, 158999]);
    const got = rows.map((row, r) => row.map((v, c) => (zero.has(r) && expected.columns[c] === 'd' && v === null ? expected.rows[r][c] : parquetText(v, schema[c], expected.rows[r][c]))));
    expectSameRows(got, expected.rows, 'typed');
    const path = join(work, 'typed.parquet');
    writeFileSync(path, bytes);
    const duck = await duckdbRead(path, expected);
    expect(duck.thrift).toEqual([]);
    expect(duck.types).toEqual({ id: 'INTEGER', bu: 'UBIGINT', amt: 'DECIMAL(20,4)', at: 'TIMESTAMP', ts: 'TIMESTAMP WITH TIME ZONE', d: 'DATE', name: 'VARCHAR', b: 'BLOB', f: 'DOUBLE', tm: 'VARCHAR' });
    const d = expected.columns.indexOf('d');
    expectSameRows(duck.rows.map((row, r) => row.map((text, c) => (zero.has(r) && c === d && text === null ? expected.rows[r][c] : text))), expected.rows, 'typed (DuckDB)');
    expectOwnOriginOnly(session);
  }, 300_000);
});
