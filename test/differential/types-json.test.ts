/**
 * MySQL binary JSON through the whole reader. No MariaDB writes binary JSON, but InnoDB stores a
 * MySQL JSON column exactly like a LONGBLOB: so MariaDB stores binary documents (written by the
 * layout-following test encoder) in a LONGBLOB column, and the file is decoded with DDL that
 * declares the column JSON, as MySQL's would. Short documents stay in the record, long ones go
 * off-page, one takes the large (4-byte offset) form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { Encoder, expected, randomValue, type J } from '../types/json-encoder.ts';
import { decodeFile } from './decode.ts';
import { rng } from './random-data.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('MySQL binary JSON documents in a table', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(['DYNAMIC', 'COMPACT', 'REDUNDANT'])('ROW_FORMAT=%s', async (format) => {
    const r = rng(format.length);
    const values: J[] = [{ a: 1 }, [], {}, 'text', null, true, { big: 'z'.repeat(70000), n: [1, 70000] }, { long: 'é'.repeat(5000) }];
    while (values.length < 300) values.push(randomValue(r, 0));
    const encoder = new Encoder();
    const table = `json_${format.toLowerCase()}`;
    const rows = values.map((v, i) => `(${i}, X'${hex(encoder.document(v))}')`);
    await server.exec(`CREATE TABLE ${table} (id INT PRIMARY KEY, j LONGBLOB, k INT) ROW_FORMAT=${format}; INSERT INTO ${table} (id, j) VALUES ${rows.join(',')}, (1000, NULL);`);
    const { rows: decoded, reader } = await decodeFile(await server.exportTable(table), `CREATE TABLE ${table} (id INT PRIMARY KEY, j JSON, k INT) ROW_FORMAT=${format}`);
    expect(reader.stats.problems).toEqual([]);
    expect(decoded.map((row) => row[1])).toEqual([...values.map(expected), null]);
  });
});
