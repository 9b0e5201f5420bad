/**
 * Character sets against MariaDB 10.11's own conversions: every byte of every single-byte charset,
 * every valid sequence of every multi-byte CJK charset (what the server's CONVERT(... USING utf32)
 * gives, compared with what ibd-reader's decoder gives for the same bytes), and a table holding
 * every byte of every single-byte charset, decoded from its .ibd and compared with SELECT.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decoderFor } from '../../src/core/values/charset.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectSameAsServer, quote } from '../types/compare.ts';

const hex2 = (n: number) => n.toString(16).padStart(2, '0');
const ALL_BYTES = Array.from({ length: 256 }, (_, i) => hex2(i)).join('');
const CJK = ['big5', 'gbk', 'gb2312', 'sjis', 'cp932', 'ujis', 'eucjpms', 'euckr'];

/** Code points of the utf32 hex the server returns. */
function codePoints(hex: string): number[] {
  return (hex.match(/.{8}/g) ?? []).map((h) => parseInt(h, 16));
}

/** Every 2-byte sequence (and EUC-JP's 3-byte 0x8F ones), grouped by their leading bytes. */
function sequenceGroups(charset: string): number[][][] {
  const prefixes: number[][] = [];
  for (let lead = 0x81; lead <= 0xfe; lead++) prefixes.push([lead]);
  if (charset === 'ujis' || charset === 'eucjpms') for (let row = 0xa1; row <= 0xfe; row++) prefixes.push([0x8f, row]);
  return prefixes.map((p) => Array.from({ length: 0xfe - 0x40 + 1 }, (_, t) => [...p, 0x40 + t]));
}

describe('MariaDB 10.11 character sets', () => {
  let server: MariadbServer;
  let singleByte: string[];
  beforeAll(async () => {
    server = await startMariadb({ pageSize: 16384 });
    singleByte = (await server.query("SELECT character_set_name FROM information_schema.character_sets WHERE maxlen = 1 AND character_set_name <> 'binary' ORDER BY 1")).rows.map((r) => r[0] as string);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('every byte of every single-byte charset converts as the server converts it', async () => {
    expect(singleByte.length).toBeGreaterThan(20);
    for (const cs of singleByte) {
      const hex = (await server.query(`SELECT HEX(CONVERT(CONVERT(X'${ALL_BYTES}' USING ${cs}) USING utf32))`)).rows[0][0] as string;
      const expected = String.fromCodePoint(...codePoints(hex));
      const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
      expect(decoderFor(cs)?.(bytes, 0, 256), cs).toBe(expected);
    }
  });

  it.each(CJK)('every valid %s sequence converts as the server converts it', async (cs) => {
    const decode = decoderFor(cs)!;
    const wrong: string[] = [];
    for (const group of sequenceGroups(cs)) {
      const sql = "SET SESSION sql_mode='';SELECT " + group.map((q) => `HEX(CONVERT(CONVERT(X'${q.map(hex2).join('')}' USING ${cs}) USING utf32))`).join(',');
      const row = (await server.query(sql)).rows[0];
      group.forEach((seq, i) => {
        const cps = codePoints((row[i] as string | null) ?? '');
        // '?' is what the server makes of bytes it cannot map: no stored value converts to it.
        if (cps.length !== 1 || cps[0] === 0x3f) return;
        const mine = decode(Uint8Array.from(seq), 0, seq.length);
        if (mine !== String.fromCodePoint(cps[0])) wrong.push(`${seq.map(hex2).join('')}: server U+${cps[0].toString(16)}, decoded ${JSON.stringify(mine)}`);
      });
    }
    expect(wrong.slice(0, 20), `${wrong.length} sequences differ`).toEqual([]);
  });

  it('UTF-16, UTF-16LE, UCS-2 and UTF-32 text, supplementary characters included', async () => {
    const text = 'aé€中😀𝄞\u0000\uffff';
    for (const cs of ['ucs2', 'utf16', 'utf16le', 'utf32']) {
      const sample = cs === 'ucs2' ? text.replace(/[\u{10000}-\u{10ffff}]/gu, '') : text;
      const hex = (await server.query(`SELECT HEX(CONVERT(${quoteString(sample)} USING ${cs}))`)).rows[0][0] as string;
      const bytes = Uint8Array.from((hex.match(/../g) ?? []).map((h) => parseInt(h, 16)));
      expect(decoderFor(cs)?.(bytes, 0, bytes.length), cs).toBe(sample);
    }
  });

  it.each(['REDUNDANT', 'DYNAMIC'])('a table of every byte in every single-byte charset, ROW_FORMAT=%s', async (format) => {
    const table = `bytes_${format.toLowerCase()}`;
    const cols = singleByte.map((cs) => `${quote(cs)} VARCHAR(64) CHARACTER SET ${cs}`);
    const rows = [0, 1, 2, 3].map((r) => `(${r}, ${singleByte.map(() => `X'${ALL_BYTES.slice(r * 128, r * 128 + 128)}'`).join(', ')})`);
    await server.exec(`SET SESSION sql_mode=''; CREATE TABLE ${table} (id INT PRIMARY KEY, ${cols.join(', ')}) ROW_FORMAT=${format}; INSERT INTO ${table} VALUES ${rows.join(', ')};`);
    await expectSameAsServer(server, table);
  });
});

function quoteString(s: string): string {
  return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").split('\u0000').join('\\0') + "'";
}
