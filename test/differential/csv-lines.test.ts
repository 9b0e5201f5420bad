/**
 * CSV straight from the decoder (the export path: separated BatchBuilders, rows that are already
 * their CSV lines, csvBytes) against papaparse's CSV of the server's own SELECT, on values chosen to
 * trip it: a primary key that is not the first column (records hold it first), NULLs in every
 * position, integers and decimals of every digit count and sign, values that need quotes (separators, quotes, line breaks, edge spaces, a literal \N, a
 * byte-order mark) short and long, text in utf8mb4 and latin1, and values stored off-page, in every
 * row format (REDUNDANT records are read by another path).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvBytes } from '../../src/core/writers/csv-bytes.ts';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { csvHeader, csvRows } from '../../src/core/writers/output.ts';
import { BatchBuilder, batchRows } from '../../src/core/values/row-batch.ts';
import { openTable } from '../../src/core/readers/table-reader.ts';
import { csvPages } from '../../src/core/writers/csv-pages.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';

const FORMATS = ['DYNAMIC', 'COMPACT', 'REDUNDANT'];

/** The tricky values, as SQL expressions; row `seq` takes them in turn, column by column at different offsets. */
const VALUES = [
  `'plain'`, `'a,b'`, `'say "hi"'`, `'line\\nbreak'`, `'cr\\rhere'`, `' lead'`, `'trail '`, `'\\\\N'`, `''`,
  `CONCAT(X'EFBBBF', 'bom')`, `'é€😀'`, `REPEAT('x', 70)`, `CONCAT(REPEAT('y', 70), ',z')`, `CONCAT(' ', REPEAT('w', 80))`, 'NULL',
];
const pick = (offset: number) => `ELT(1 + (seq + ${offset}) % ${VALUES.length}, ${VALUES.join(', ')})`;

describe('CSV from the decoder equals papaparse on the server rows', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  // latin1 text has no fast kind: with utf8mb4 in its place every column has one, and the export's
  // plan straight to CSV lines (readers/leaf-csv.ts) writes the pages it can (not those holding an
  // off-page value, nor the first), with rows deleted among them.
  it.each(FORMATS.map((f) => [f, 'latin1']).concat([['DYNAMIC', 'utf8mb4'], ['COMPACT', 'utf8mb4']]))('%s, %s', async (format, charset) => {
    const table = `csv_${format.toLowerCase()}_${charset}`;
    await server.exec(`CREATE TABLE ${table} (
        note VARCHAR(200) CHARACTER SET utf8mb4, id INT NOT NULL, amount DECIMAL(12,2), latin VARCHAR(100) CHARACTER SET ${charset},
        fixed CHAR(12) CHARACTER SET utf8mb4, day DATE, big TEXT CHARACTER SET utf8mb4,
        tiny TINYINT, u INT UNSIGNED, wide DECIMAL(30,10), PRIMARY KEY (id)
      ) ROW_FORMAT=${format};
      INSERT INTO ${table} SELECT ${pick(0)}, seq, IF(seq % 6 = 0, NULL, seq * 3.25 - 5000), CONVERT(${pick(3)} USING ${charset}), LEFT(${pick(7)}, 12),
        IF(seq % 5 = 0, NULL, DATE'2000-01-01' + INTERVAL seq DAY),
        IF(seq % 97 = 0, REPEAT(CONCAT('long, "text" ', seq), 2000), ${pick(11)}),
        IF(seq % 7 = 0, NULL, CAST(seq % 256 AS SIGNED) - 128), seq * 715827, (CAST(seq AS SIGNED) - 3000) * POW(10, seq % 19) / 1234567 FROM seq_1_to_6000;
      DELETE FROM ${table} WHERE id % 11 = 0;`);
    const ddl = (await server.query(`SHOW CREATE TABLE ${table}`)).rows[0][1] as string;
    const expected = await server.query(`SELECT * FROM ${table} ORDER BY id`);
    const csv = csvHeader(expected.columns) + csvRows(expected.rows);
    const source = await fileSource(await server.exportTable(table));
    try {
      const reader = await openTable(source, parseCreateTables(ddl)[0]);
      const decoder = new TextDecoder();
      // As the CLI writes: batches of rows.
      let viaBatches = csvHeader(reader.columns);
      for await (const batch of reader.batches({ batchSize: 500, separated: true })) viaBatches += decoder.decode(csvBytes(batch));
      expect(viaBatches === csv, 'batches').toBe(true);
      // As the page's export writes: runs of leaf pages decoded into a reused builder.
      const leaves = await reader.leafPages();
      const into = new BatchBuilder(reader.columns.length, 64, reader.info.pageSize, true);
      let viaRuns = csvHeader(reader.columns);
      let lines = 0;
      for (let i = 0; i < leaves.length; i += 5) {
        const batch = await reader.decodePages(leaves.slice(i, i + 5), { first: i === 0, into });
        for (let r = 0; r < batch.rows; r++) if (batch.lines![2 * r] >= 0) lines++;
        viaRuns += decoder.decode(csvBytes(batch));
      }
      expect(viaRuns === csv, 'runs').toBe(true);
      // The fast path was taken: every row is its CSV line (values that need quotes quoted in place)
      // but those with a value holding a quote (the long, off-page values hold one too).
      expect(lines).toBe(expected.rows.filter((row) => !row.some((v) => typeof v === 'string' && v.includes('"'))).length);
      // As the export's workers write it: runs of leaves made into CSV piece by piece (csvPages), two
      // runs at a time each with its own buffers, the CSV buffer too small at first (it grows, keeping
      // the pieces before).
      const buffers = [0, 1].map(() => ({ into: new BatchBuilder(reader.columns.length, 1, 16, true), csv: new Uint8Array(16) }));
      const runs: number[][] = [];
      for (let i = 0; i < leaves.length; i += 20) runs.push(leaves.slice(i, i + 20));
      let viaPieces = csvHeader(reader.columns);
      let rows = 0;
      for (let i = 0; i < runs.length; i += 2) {
        const done = await Promise.all(runs.slice(i, i + 2).map((run, k) => csvPages(reader, run, i + k === 0, buffers[k])));
        for (const { csv: bytes, rows: n } of done) {
          viaPieces += decoder.decode(bytes);
          rows += n;
        }
      }
      expect(viaPieces === csv, 'pieces').toBe(true);
      expect(rows).toBe(expected.rows.length);
      // The same builder then serves a decode into cells (as the page's export of another format
      // reuses it): csvPages' lines-only writing stops with it.
      const again = await reader.decodePages(leaves.slice(20, 40), { into: buffers[0].into });
      const from = (await reader.decodePages(leaves.slice(0, 20))).rows;
      expect(batchRows(again)).toEqual(expected.rows.slice(from, from + again.rows));
      expect(reader.stats.problems).toEqual([]);
    } finally {
      await source.close();
    }
  });

  // One column: an empty value must be quoted (a bare empty line would read as no value at all), as
  // must the values that need it, in every row format.
  it.each(FORMATS)('one column, %s', async (format) => {
    const table = `csv_single_${format.toLowerCase()}`;
    await server.exec(`CREATE TABLE ${table} (v VARCHAR(40) CHARACTER SET utf8mb4 NOT NULL, PRIMARY KEY (v)) ROW_FORMAT=${format};
      INSERT INTO ${table} VALUES (''), (' lead'), ('trail '), ('a,b'), ('say "hi"'), ('\\N'), ('plain'), ('é€'), ('line\nbreak');
      INSERT INTO ${table} SELECT CONCAT('v', seq) FROM seq_1_to_2000;`);
    const ddl = (await server.query(`SHOW CREATE TABLE ${table}`)).rows[0][1] as string;
    const expected = await server.query(`SELECT * FROM ${table} ORDER BY v`);
    const source = await fileSource(await server.exportTable(table));
    try {
      const reader = await openTable(source, parseCreateTables(ddl)[0]);
      const leaves = await reader.leafPages();
      const got = await csvPages(reader, leaves, true, { into: new BatchBuilder(1, 1, 16, true), csv: new Uint8Array(16) });
      expect(new TextDecoder().decode(got.csv)).toBe(csvRows(expected.rows));
      expect(reader.stats.problems).toEqual([]);
    } finally {
      await source.close();
    }
  });
});
