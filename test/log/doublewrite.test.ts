/**
 * The doublewrite buffer of a real MariaDB 10.11 (innodb_doublewrite=1) after a crash during a flush,
 * in both page formats (full_crc32, and crc32 for MySQL-compatible tablespaces): every copy it gives
 * passes its checksum and is the page its header names; where the data file already has that LSN it
 * has the very same bytes. A page torn by hand (the first half of an older image written over it)
 * comes back whole from copyOf, and the server's own recovery of that datadir says it took the same
 * page from the same buffer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Doublewrite } from '../../src/core/log/doublewrite.ts';
import { lsnAt } from '../../src/core/log/doublewrite-slot.ts';
import { crc32c, verifyPage } from '../../src/core/pages/checksum.ts';
import { FIL_PAGE_DATA, FIL_PAGE_LSN, FIL_PAGE_TYPE, u16, u32 } from '../../src/core/pages/fil-header.ts';
import { decompressMariadb } from '../../src/core/pages/page-compression.ts';
import { verifyZipPage } from '../../src/core/pages/zip-page.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { Tablespace } from '../../src/core/tablespace/tablespace.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { startMariadb, type ChecksumAlgorithm, type MariadbServer } from '../harness/mariadb.ts';

const DOUBLEWRITE = ['--innodb-doublewrite=1', '--innodb-flush-log-at-trx-commit=1'];

async function waitClean(srv: MariadbServer): Promise<void> {
  for (let k = 0; k < 300; k++) {
    const { rows } = await srv.query("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'");
    if (rows[0][1] === '0') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the buffer pool never became clean');
}

/** A tablespace of the datadir: its file, its page size as stored, its checksum format. */
interface SpaceFile {
  path: string;
  physical: number;
  fullCrc32: boolean;
  zip: boolean;
}

/** Space id → file, for every tablespace of the datadir. */
async function spaceFiles(datadir: string): Promise<Map<number, SpaceFile>> {
  const out = new Map<number, SpaceFile>();
  const walk = async (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) await walk(path);
      else if (/\.ibd$|^ibdata1$|^undo\d+$/.test(e.name)) {
        const src = await fileSource(path);
        try {
          const ts = await Tablespace.open(src);
          out.set(ts.fsp.spaceId, { path, physical: ts.physicalSize, fullCrc32: ts.fullCrc32, zip: ts.physicalSize !== ts.pageSize });
        } finally {
          await src.close();
        }
      }
    }
  };
  await walk(datadir);
  return out;
}

function pageOf(file: SpaceFile, pageNo: number, files = new Map<string, Buffer>()): Uint8Array {
  let bytes = files.get(file.path);
  if (!bytes) files.set(file.path, (bytes = readFileSync(file.path)));
  return new Uint8Array(bytes.subarray(pageNo * file.physical, (pageNo + 1) * file.physical));
}

/**
 * Whether a page passes the checksum of its own tablespace's format, as the server checks it: a
 * ROW_FORMAT=COMPRESSED page at its zip size, a full_crc32 page over the bytes its type says it
 * stores (less for a page-compressed one), any other with the crc32/innodb checksums.
 */
function validInItsFile(page: Uint8Array, file: SpaceFile): boolean {
  if (file.zip) return ['crc32', 'innodb'].includes(verifyZipPage(page));
  if (file.fullCrc32) {
    const type = u16(page, FIL_PAGE_TYPE);
    const stored = type & 0x8000 ? (type & 0xff) << 8 : page.length;
    return u32(page, stored - 4) === crc32c(page, 0, stored - 4);
  }
  // page-compressed in the original format: the checksum of the page it decompresses to
  return ['crc32', 'innodb'].includes(verifyPage(u16(page, FIL_PAGE_TYPE) === 34354 ? decompressMariadb(page) : page, false));
}

/** The bytes of a copy the data file must hold as they are: a page-compressed page's stored ones (the rest of its page may be left as it was). */
function storedBytes(page: Uint8Array, file: SpaceFile): number {
  const type = u16(page, FIL_PAGE_TYPE);
  if (file.fullCrc32) return type & 0x8000 ? (type & 0xff) << 8 : page.length;
  return type === 34354 ? FIL_PAGE_DATA + 2 + u16(page, FIL_PAGE_DATA) : page.length;
}

/** The buffer of the datadir's ibdata1 as it is now (read whole: a server started on it later rewrites it). */
async function openBuffer(ibdata1: Uint8Array, lsnRange?: { from: number; to: number }): Promise<Doublewrite> {
  const dw = await Doublewrite.fromSystemTablespace(bytesSource(ibdata1, 'ibdata1'), { lsnRange });
  expect(dw).not.toBeNull();
  return dw!;
}

const ibdata1Of = (datadir: string) => new Uint8Array(readFileSync(join(datadir, 'ibdata1')));

/** The pages of ibdata1 of type FIL_PAGE_PAGE_COMPRESSED (34354): only doublewrite slots hold them (the system tablespace is never page-compressed). */
function pageCompressedSlots(ibdata1: Uint8Array, page: number): number {
  let n = 0;
  for (let o = 0; o + page <= ibdata1.length; o += page) if (u16(ibdata1, o + FIL_PAGE_TYPE) === 34354) n++;
  return n;
}

describe.each<[ChecksumAlgorithm, number]>([
  ['full_crc32', 16384],
  ['crc32', 16384],
  ['full_crc32', 4096],
])('the doublewrite buffer of ibdata1 after a crash (MariaDB 10.11, %s, %i-byte pages)', (checksum, PAGE) => {
  let server: MariadbServer;
  const fullCrc32 = checksum === 'full_crc32';

  beforeAll(async () => {
    server = await startMariadb({ checksum, pageSize: PAGE, extraArgs: DOUBLEWRITE });
    // Beside t, a ROW_FORMAT=COMPRESSED table (its copies are smaller than a slot) and a
    // page-compressed one (full_crc32 records the stored size in the page type).
    const zipSize = Math.min(8, PAGE / 1024 / 2);
    await server.exec(`CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(300) NOT NULL);
      CREATE TABLE u (id INT PRIMARY KEY, n INT); INSERT INTO u VALUES (1, 0);
      CREATE TABLE z (id INT PRIMARY KEY, v VARCHAR(300)) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=${zipSize};
      CREATE TABLE pc (id INT PRIMARY KEY, v VARCHAR(300)) PAGE_COMPRESSED=1;
      INSERT INTO t SELECT seq, CONCAT('row ', seq, REPEAT('a', seq % 200)) FROM seq_1_to_30000;
      INSERT INTO z SELECT seq, CONCAT('zip ', seq, REPEAT('z', seq % 100)) FROM seq_1_to_1000;
      INSERT INTO pc SELECT seq, CONCAT('pc ', seq, REPEAT('p', seq % 100)) FROM seq_1_to_6000;
      SET GLOBAL innodb_max_dirty_pages_pct_lwm = 0; SET GLOBAL innodb_max_dirty_pages_pct = 0;`);
    await waitClean(server);
    // From here pages are written only when asked: u's page stays dirty, which holds the log's
    // checkpoint before it, so the copies of t's pages written next are all past the checkpoint
    // (where recovery looks for them).
    await server.exec('SET GLOBAL innodb_max_dirty_pages_pct = 90; UPDATE u SET n = 1');
    await server.exec("UPDATE t SET v = CONCAT('updated ', v)");
    await server.exec('FLUSH TABLES t FOR EXPORT; UNLOCK TABLES');
    // Each batch is written from the buffer's first slot on: the last, smaller ones (pc's, then z's,
    // smaller still) leave some of the copies before them.
    await server.exec("UPDATE z SET v = CONCAT('updated ', v); UPDATE pc SET v = CONCAT('updated ', v)");
    await server.exec('FLUSH TABLES pc FOR EXPORT; UNLOCK TABLES');
    await server.exec('FLUSH TABLES z FOR EXPORT; UNLOCK TABLES');
    // The crash lands while the next change is being made.
    const busy = server.exec("UPDATE t SET v = CONCAT('again ', v) WHERE id % 3 = 0").catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
    await server.crash();
    await busy;
  }, 300_000);

  afterAll(async () => {
    await server.stop();
  });

  it('holds page copies that pass their checksums and are the pages their headers name', async () => {
    const buffer = await openBuffer(ibdata1Of(server.datadir));
    // Two blocks of an extent each: 64 pages of 16K, 256 of 4K (FSP_EXTENT_SIZE).
    expect(buffer.slots).toBe(PAGE === 16384 ? 128 : 512);
    expect(buffer.size).toBeGreaterThan(10);
    const files = await spaceFiles(server.datadir);
    const same = new Map<string, number>();
    const read = new Map<string, Buffer>();
    for (const e of buffer.entries()) {
      const copy = buffer.copyOf(e.spaceId, e.pageNo)!;
      const file = files.get(e.spaceId);
      expect(file, `space ${e.spaceId}`).toBeDefined();
      expect(copy.length).toBe(file!.physical);
      expect(validInItsFile(copy, file!), `page ${e.pageNo} of ${file!.path} (${e.checksum})`).toBe(true);
      expect(lsnAt(copy, FIL_PAGE_LSN)).toBe(e.lsn);
      const onDisk = pageOf(file!, e.pageNo, read);
      if (lsnAt(onDisk, FIL_PAGE_LSN) === e.lsn) {
        const compared = storedBytes(copy, file!);
        expect(onDisk.subarray(0, compared)).toEqual(copy.subarray(0, compared));
        const name = file!.path.replace(/.*\//, '');
        same.set(name, (same.get(name) ?? 0) + 1);
      }
    }
    // A batch reached its data files before the crash: its copies are those pages, byte for byte.
    // (Which tables the last batches held depends on the flush's timing: not asserted per table.)
    expect([...same.values()].reduce((a, b) => a + b, 0), JSON.stringify([...same])).toBeGreaterThan(0);
    // The page-compressed table's copies carry no checksum of their own outside full_crc32: each is
    // taken by the one of the page it decompresses to (where a slot still holds one: later batches
    // may have written over every pc copy).
    expect(buffer.rejected.unverifiable).toBe(0);
    if (!fullCrc32 && pageCompressedSlots(ibdata1Of(server.datadir), PAGE) > 0) expect([...buffer.entries()].some((e) => e.checksum === 'crc32 (page-compressed)'), buffer.describe()).toBe(true);
    expect(buffer.copyOf(0xfffffff0, 1)).toBeNull();
    expect(buffer.describe()).toMatch(/\d+ page copies that pass their checksums/);
  });

  it('reads the header from its repeat when the first is damaged, and says null when neither is there', async () => {
    const ibdata1 = ibdata1Of(server.datadir);
    const whole = await openBuffer(ibdata1);
    const header = 5 * PAGE + PAGE - 200;
    ibdata1.fill(0, header + 10, header + 22);
    const fromRepeat = await openBuffer(ibdata1);
    expect(fromRepeat.size).toBe(whole.size);
    expect(fromRepeat.where).toBe(whole.where);
    ibdata1.fill(0, header + 22, header + 34);
    expect(await Doublewrite.fromSystemTablespace(bytesSource(ibdata1, 'ibdata1'))).toBeNull();
  });
  // A torn page restored from this buffer, judged by a server recovering the same torn copy:
  // test/differential/crash-recovery-torn.test.ts (its copies are made past the log's checkpoint).

});
