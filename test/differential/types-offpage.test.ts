/**
 * Off-page values: rows with several multi-megabyte TEXT/BLOB values in each row format MariaDB
 * writes (REDUNDANT and COMPACT keep a 768-byte prefix in the record, DYNAMIC only the 20-byte
 * reference), compared with the server by length and MD5 (the values are too big to diff usefully).
 * The values are built by the server from SHA-256 digests, so every 64 bytes differ and a part read
 * from the wrong page or in the wrong order cannot go unnoticed; the UTF-8 text has 4-byte characters
 * that straddle page boundaries. A damaged chain must cost only its cell, not the row.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIL_PAGE_TYPE, PageType, u16 } from '../../src/core/pages/fil-header.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { decodeFile } from './decode.ts';

const md5 = (data: string | Uint8Array) => createHash('md5').update(data).digest('hex');
const hexBytes = (hex: string) => Buffer.from(hex.slice(2), 'hex');

/** Total: 20 rows × 3 columns × 2-5 MB, split over the three row formats. */
const ROWS: Record<string, number> = { DYNAMIC: 10, COMPACT: 5, REDUNDANT: 5 };

/** A value of about `mb` megabytes: SHA-256 hex digests, with an emoji after every 7th in the text column. */
function bigValue(id: number, column: string, mb: number, emoji: boolean): string {
  const digests = Math.round((mb * 1024 * 1024) / 64);
  const piece = `SHA2(CONCAT(${id}, '${column}', seq), 256)`;
  return `(SELECT GROUP_CONCAT(${emoji ? `${piece}, IF(seq % 7 = 0, '😀é', '')` : piece} SEPARATOR '') FROM seq_1_to_${digests})`;
}

describe('multi-megabyte off-page values', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384 });
  });
  afterAll(async () => {
    await server?.stop();
  });

  async function fill(table: string, format: string): Promise<void> {
    await server.exec(`CREATE TABLE ${table} (id INT PRIMARY KEY, t LONGTEXT CHARACTER SET utf8mb4, b LONGBLOB, l MEDIUMTEXT CHARACTER SET latin1, note VARCHAR(20)) ROW_FORMAT=${format}`);
    for (let id = 1; id <= ROWS[format]; id++) {
      const mb = (k: number) => 2 + ((id * 7 + k * 3) % 4) + 0.37 * k;
      await server.exec(`SET SESSION group_concat_max_len = 64 * 1024 * 1024; INSERT INTO ${table} VALUES (${id}, ${bigValue(id, 't', mb(0), true)}, UNHEX(${bigValue(id, 'b', mb(1) / 2, false)}), ${bigValue(id, 'l', mb(2), false)}, 'row ${id}')`);
    }
    // A short row between the long ones: inline values next to off-page ones.
    await server.exec(`INSERT INTO ${table} VALUES (100, 'short 😀', X'00FF', 'é', NULL)`);
  }

  it.each(Object.keys(ROWS))('ROW_FORMAT=%s', async (format) => {
    const table = `big_${format.toLowerCase()}`;
    await fill(table, format);
    const expected = (await server.query(`SELECT id, LENGTH(t), MD5(t), LENGTH(b), MD5(b), MD5(CONVERT(l USING utf8mb4)), note FROM ${table} ORDER BY id`)).rows;
    const ddl = (await server.query(`SHOW CREATE TABLE ${table}`)).rows[0][1] as string;
    const { rows, reader } = await decodeFile(await server.exportTable(table), ddl);
    expect(reader.stats.problems).toEqual([]);
    const actual = rows.map(([id, t, b, l, note]) => [id, String(Buffer.byteLength(t!)), md5(t!), String(b!.length / 2 - 1), md5(hexBytes(b!)), md5(l!), note]);
    expect(actual).toEqual(expected);
    expect(Number(expected[0][1])).toBeGreaterThan(2 << 20);
  });

  it('a BLOB page lost from a chain costs only that cell, marked as unreadable', async () => {
    const table = 'big_damaged';
    await server.exec(`CREATE TABLE ${table} (id INT PRIMARY KEY, b LONGBLOB, n INT) ROW_FORMAT=DYNAMIC`);
    await server.exec(`SET SESSION group_concat_max_len = 64 * 1024 * 1024; INSERT INTO ${table} VALUES (1, UNHEX(${bigValue(1, 'x', 0.5, false)}), 11), (2, 'small', 22)`);
    const ddl = (await server.query(`SHOW CREATE TABLE ${table}`)).rows[0][1] as string;
    const ibd = await server.exportTable(table);
    const file = readFileSync(ibd);
    const pageSize = 16384;
    const blobPages: number[] = [];
    for (let p = 0; p < file.length / pageSize; p++) if (u16(file, p * pageSize + FIL_PAGE_TYPE) === PageType.BLOB) blobPages.push(p);
    expect(blobPages.length).toBeGreaterThan(2);
    // An all-zero page reads as a valid, never-written page: the chain breaks there.
    file.fill(0, blobPages[1] * pageSize, (blobPages[1] + 1) * pageSize);
    writeFileSync(ibd, file);
    const { rows, reader } = await decodeFile(ibd, ddl);
    expect(rows.map((r) => [r[0], r[2]])).toEqual([['1', '11'], ['2', '22']]);
    expect(rows[0][1]).toMatch(/^\[unreadable: column `b`: .*page \d+/);
    expect(rows[1][1]).toBe('0x736D616C6C');
    expect(reader.stats.problems).toHaveLength(1);
  });
});
