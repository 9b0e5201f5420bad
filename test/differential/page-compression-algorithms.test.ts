/**
 * MariaDB PAGE_COMPRESSED=1 with every innodb_compression_algorithm besides zlib (which
 * page-transforms.test.ts covers): lz4, lzo, lzma, bzip2 and snappy, loaded from Debian's
 * mariadb-plugin-provider-* packages, in both tablespace formats (full_crc32, where the algorithm is
 * in the space flags and LZ4/LZO/Snappy pages carry the extra length byte, and the original format,
 * where each page names its algorithm), at 16K and at the smallest and largest page sizes (4K, 64K).
 * Tables mix compressible rows, off-page values and random
 * bytes (pages that are mostly literals); every value is compared with the server's SELECT.
 *
 * Then the decoders are fuzzed with the real pages: truncated and mutated streams must throw
 * PageCompressionError (or decode to a page of the right size), never anything else, never hang.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIL_PAGE_TYPE, PageType, u16 } from '../../src/core/pages/fil-header.ts';
import { decompressFullCrc32, decompressMariadb, MARIADB_ALGORITHMS, PageCompressionError } from '../../src/core/pages/page-compression.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { Tablespace } from '../../src/core/tablespace/tablespace.ts';
import { lz4DecodeBlock, Lz4Error } from '../../src/core/codecs/lz4.ts';
import { lzo1xDecode, LzoError } from '../../src/core/codecs/lzo.ts';
import { xzDecode, XzError } from '../../src/core/codecs/xz.ts';
import { bzip2Decode, Bzip2Error } from '../../src/core/codecs/bzip2.ts';
import { snappyDecode, SnappyError } from '../../src/core/codecs/snappy.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectServerRows } from './decode.ts';

const PROVIDERS = ['lz4', 'lzo', 'lzma', 'bzip2', 'snappy'];
const providerArgs = PROVIDERS.map((p) => `--plugin-load-add=provider_${p}`);
const ALGORITHMS = Object.fromEntries(Object.entries(MARIADB_ALGORITHMS).map(([n, name]) => [name, Number(n)]));
type Decoder = (src: Uint8Array, start: number, end: number, out: Uint8Array) => number;
/** Each decoder with the error class it throws for damaged data (anything else would be a bug in it). */
const DECODERS: Record<string, [Decoder, new (...args: never[]) => Error]> = {
  lz4: [lz4DecodeBlock, Lz4Error],
  lzo: [lzo1xDecode, LzoError],
  lzma: [xzDecode, XzError],
  bzip2: [bzip2Decode, Bzip2Error],
  snappy: [snappyDecode, SnappyError],
};

/** Compressed pages of each exported table, kept for the fuzzing. */
const samples: { algo: string; server: string; fullCrc32: boolean; page: Uint8Array }[] = [];

async function fill(server: MariadbServer, table: string, rows: number): Promise<void> {
  await server.exec(`CREATE TABLE ${table} (id INT PRIMARY KEY, a VARCHAR(100), b MEDIUMTEXT, r VARBINARY(1200), n INT NULL, d DECIMAL(10,2), KEY (a)) PAGE_COMPRESSED=1`);
  // Compressible text, NULLs, off-page values (every 97th row), and random bytes: a little in every
  // row, 1000 bytes in every 7th row and in every row from 80% of the way on (pages that compress
  // little; they still do, whatever innodb_compression_algorithm, as long as some bytes compress).
  await server.exec(`INSERT INTO ${table} SELECT seq, CONCAT('row ', seq, IF(seq % 7 = 0, ' 😀é', '')),
      CASE WHEN seq % 97 = 0 THEN REPEAT(SHA2(seq, 256), 300) WHEN seq % 11 = 0 THEN NULL ELSE REPEAT('x', seq % 40) END,
      IF(seq % 7 = 0 OR seq > ${Math.floor(rows * 0.8)}, RANDOM_BYTES(1000), RANDOM_BYTES(8)),
      IF(seq % 3 = 0, NULL, seq * 7), seq / 3 FROM seq_1_to_${rows}`);
  await server.exec(`DELETE FROM ${table} WHERE id % 89 = 0; UPDATE ${table} SET a = CONCAT(a, ' upd'), n = NULL WHERE id % 13 = 0;
      UPDATE ${table} SET b = REPEAT('long ', 3000) WHERE id % 250 = 1; INSERT INTO ${table} (id, a) VALUES (${rows + 1}, 'late')`);
}

/** The servers: both tablespace formats at 16K, and the smallest and largest page sizes. */
const SERVERS = {
  'full_crc32 16K': { checksum: 'full_crc32', pageSize: 16384, rows: 3000 },
  'crc32 16K': { checksum: 'crc32', pageSize: 16384, rows: 3000 },
  'crc32 4K': { checksum: 'crc32', pageSize: 4096, rows: 1200 },
  'full_crc32 64K': { checksum: 'full_crc32', pageSize: 65536, rows: 3000 },
} as const;
type ServerName = keyof typeof SERVERS;

describe('MariaDB PAGE_COMPRESSED with every compression provider', () => {
  const servers = {} as Record<ServerName, MariadbServer>;
  beforeAll(async () => {
    await Promise.all(Object.entries(SERVERS).map(async ([name, { checksum, pageSize }]) => {
      servers[name as ServerName] = await startMariadb({ checksum, pageSize, extraArgs: providerArgs });
    }));
    for (const srv of Object.values(servers)) {
      const loaded = (await srv.query("SELECT PLUGIN_NAME FROM information_schema.PLUGINS WHERE PLUGIN_NAME LIKE 'provider\\_%' AND PLUGIN_STATUS = 'ACTIVE'")).rows.map((r) => r[0]);
      expect(loaded.sort(), 'the mariadb-plugin-provider-* packages are installed (scripts/test.sh installs them)').toEqual(PROVIDERS.map((p) => `provider_${p}`).sort());
    }
  });
  afterAll(async () => {
    await Promise.all(Object.values(servers).map((srv) => srv.stop()));
  });

  const cases = PROVIDERS.flatMap((algo) => (Object.keys(SERVERS) as ServerName[]).map((server) => [algo, server] as const));
  it.each(cases)('%s, %s', async (algo, server) => {
    const srv = servers[server];
    const { checksum, rows } = SERVERS[server];
    const table = `pc_${algo}`;
    // The tests of one server run one after the other: in the original format each page takes the
    // algorithm set when it is written, so the table is exported before the next one changes it.
    await srv.exec(`SET GLOBAL innodb_compression_algorithm = ${algo}`);
    await fill(srv, table, rows);
    const { reader } = await expectServerRows(srv, table, 'id');
    expect(reader.stats.badChecksums).toBe(0);

    // The file really holds pages compressed with this algorithm.
    const file = new Uint8Array(readFileSync(await srv.exportTable(table)));
    const ts = await Tablespace.open(bytesSource(file, `${table}.ibd`));
    expect(ts.fullCrc32).toBe(checksum === 'full_crc32');
    if (ts.fullCrc32) expect(MARIADB_ALGORITHMS[ts.fsp.flags.pageCompression]).toBe(algo);
    let compressed = 0;
    const size = ts.physicalSize;
    for (let no = 3; no < ts.pageCount; no++) {
      const page = file.subarray(no * size, (no + 1) * size);
      const type = u16(page, FIL_PAGE_TYPE);
      if (ts.fullCrc32 ? type & 0x8000 : type === PageType.PAGE_COMPRESSED) {
        if (!ts.fullCrc32) expect(MARIADB_ALGORITHMS[u16(page, 32)], `page ${no}'s algorithm`).toBe(algo);
        // Samples for the fuzzing: pages spread over the file (text, random bytes, BLOB pages).
        if (compressed++ % 10 === 0 && compressed < 40) samples.push({ algo, server, fullCrc32: ts.fullCrc32, page: page.slice() });
      }
    }
    expect(compressed, 'compressed pages').toBeGreaterThan(20);
  });

  it('fuzz: damaged streams throw PageCompressionError, never crash or hang', () => {
    expect(new Set(samples.map((s) => `${s.algo} ${s.server}`)).size).toBe(cases.length);
    const ROUNDS = 40;
    let seed = 12345;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    let failures = 0;
    let decoded = 0;
    const started = performance.now();
    for (const { algo, server, fullCrc32, page } of samples) {
      const decode = (p: Uint8Array): Uint8Array => (fullCrc32 ? decompressFullCrc32(p, ALGORITHMS[algo]) : decompressMariadb(p));
      expect(decode(page).length).toBe(page.length);
      // The stream's extent: full_crc32 up to the checksum, the original format by its length field.
      const streamStart = fullCrc32 ? 26 : 40;
      const streamEnd = fullCrc32 ? (page[FIL_PAGE_TYPE + 1] << 8) - 4 : 40 + u16(page, 38);
      for (let round = 0; round < ROUNDS; round++) {
        const p = page.slice();
        const kind = round % 4;
        if (kind === 0) {
          // Flip 1-4 bytes of the stream.
          for (let k = random(4); k >= 0; k--) p[streamStart + random(streamEnd - streamStart)] ^= 1 + random(255);
        } else if (kind === 1) {
          // Truncate: a shorter recorded length (the original format) or a zeroed tail.
          const cut = streamStart + random(streamEnd - streamStart);
          if (fullCrc32) p.fill(0, cut, streamEnd);
          else new DataView(p.buffer).setUint16(38, cut - 40);
        } else if (kind === 2) {
          // A longer recorded length (reads past the stream: padding, then the end of the page).
          if (fullCrc32) p[streamEnd - 1] = random(256);
          else new DataView(p.buffer).setUint16(38, Math.min(page.length - 40, streamEnd - 40 + 1 + random(600)));
        } else {
          // Random garbage over a stretch of the stream.
          const at = streamStart + random(streamEnd - streamStart);
          for (let k = at; k < Math.min(streamEnd, at + 1 + random(64)); k++) p[k] = random(256);
        }
        const what = `${algo} (${server}), round ${round}`;
        try {
          expect(decode(p).length).toBe(page.length);
          decoded++;
        } catch (e) {
          if (!(e instanceof PageCompressionError)) throw new Error(`${what}: ${String(e)}`);
          failures++;
        }
        // The decoder alone, on the stream as the page now records it: its own error or a full page.
        const [decoder, DecoderError] = DECODERS[algo];
        let end = streamEnd;
        if (fullCrc32 && ['lz4', 'lzo', 'snappy'].includes(algo)) end = p[streamEnd - 1] ? streamEnd + 4 + p[streamEnd - 1] - 0x100 - 5 : streamEnd - 1;
        else if (!fullCrc32) end = 40 + u16(p, 38);
        if (end <= streamStart) continue;
        const out = new Uint8Array(page.length);
        try {
          decoder(p, streamStart, end, out);
        } catch (e) {
          if (!(e instanceof DecoderError)) throw new Error(`${what}, ${algo} decoder: ${String(e)}`);
        }
      }
    }
    expect(failures).toBeGreaterThan(samples.length * ROUNDS / 3);
    expect(decoded + failures).toBe(samples.length * ROUNDS);
    expect(performance.now() - started).toBeLessThan(60_000);
  });
});
