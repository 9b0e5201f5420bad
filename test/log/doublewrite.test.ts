/**
 * The doublewrite buffer of a real MariaDB 10.11 (innodb_doublewrite=1) after a crash during a flush,
 * in both page formats (full_crc32, and crc32 for MySQL-compatible tablespaces): every copy it gives
 * passes its checksum and is the page its header names; where the data file already has that LSN it
 * has the very same bytes. A page torn by hand (the first half of an older image written over it)
 * comes back whole from copyOf, and the server's own recovery of that datadir says it took the same
 * page from the same buffer.
 */
import { closeSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Doublewrite } from '../../src/core/log/doublewrite.ts';
import { lsnAt } from '../../src/core/log/doublewrite-slot.ts';
import { verifyPage } from '../../src/core/pages/checksum.ts';
import { FIL_PAGE_LSN } from '../../src/core/pages/fil-header.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { Tablespace } from '../../src/core/tablespace/tablespace.ts';
import { fileSource } from '../../src/node/file-source.ts';
import { startMariadb, type ChecksumAlgorithm, type MariadbServer } from '../harness/mariadb.ts';

const DOUBLEWRITE = ['--innodb-doublewrite=1', '--innodb-flush-log-at-trx-commit=1'];
const PAGE = 16384;

async function waitClean(srv: MariadbServer): Promise<void> {
  for (let k = 0; k < 300; k++) {
    const { rows } = await srv.query("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'");
    if (rows[0][1] === '0') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the buffer pool never became clean');
}

/** Space id → file, for every tablespace of the datadir. */
async function spaceFiles(datadir: string): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  const walk = async (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) await walk(path);
      else if (/\.ibd$|^ibdata1$|^undo\d+$/.test(e.name)) {
        const src = await fileSource(path);
        try {
          out.set((await Tablespace.open(src)).fsp.spaceId, path);
        } finally {
          await src.close();
        }
      }
    }
  };
  await walk(datadir);
  return out;
}

function pageOf(path: string, pageNo: number, files = new Map<string, Buffer>()): Uint8Array {
  let bytes = files.get(path);
  if (!bytes) files.set(path, (bytes = readFileSync(path)));
  return new Uint8Array(bytes.subarray(pageNo * PAGE, (pageNo + 1) * PAGE));
}

/** The buffer of the datadir's ibdata1 as it is now (read whole: a server started on it later rewrites it). */
async function openBuffer(ibdata1: Uint8Array, lsnRange?: { from: number; to: number }): Promise<Doublewrite> {
  const dw = await Doublewrite.fromSystemTablespace(bytesSource(ibdata1, 'ibdata1'), { lsnRange });
  expect(dw).not.toBeNull();
  return dw!;
}

const ibdata1Of = (datadir: string) => new Uint8Array(readFileSync(join(datadir, 'ibdata1')));

describe.each<ChecksumAlgorithm>(['full_crc32', 'crc32'])('the doublewrite buffer of ibdata1 after a crash (MariaDB 10.11, %s)', (checksum) => {
  let server: MariadbServer;
  /** The table's file as it was after the first flush: older images of its pages. */
  let oldImage: Uint8Array;
  const fullCrc32 = checksum === 'full_crc32';

  beforeAll(async () => {
    server = await startMariadb({ checksum, extraArgs: DOUBLEWRITE });
    await server.exec(`CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(300) NOT NULL);
      CREATE TABLE u (id INT PRIMARY KEY, n INT); INSERT INTO u VALUES (1, 0);
      INSERT INTO t SELECT seq, CONCAT('row ', seq, REPEAT('a', seq % 200)) FROM seq_1_to_30000;
      SET GLOBAL innodb_max_dirty_pages_pct_lwm = 0; SET GLOBAL innodb_max_dirty_pages_pct = 0;`);
    await waitClean(server);
    oldImage = new Uint8Array(readFileSync(join(server.datadir, 'test', 't.ibd')));
    // From here pages are written only when asked: u's page stays dirty, which holds the log's
    // checkpoint before it, so the copies of t's pages written next are all past the checkpoint
    // (where recovery looks for them).
    await server.exec('SET GLOBAL innodb_max_dirty_pages_pct = 90; UPDATE u SET n = 1');
    await server.exec("UPDATE t SET v = CONCAT('updated ', v)");
    await server.exec('FLUSH TABLES t FOR EXPORT; UNLOCK TABLES');
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
    expect(buffer.slots).toBe(128);
    expect(buffer.size).toBeGreaterThan(10);
    const files = await spaceFiles(server.datadir);
    let same = 0;
    const read = new Map<string, Buffer>();
    for (const e of buffer.entries()) {
      const copy = buffer.copyOf(e.spaceId, e.pageNo)!;
      const path = files.get(e.spaceId);
      expect(path, `space ${e.spaceId}`).toBeDefined();
      expect(copy.length).toBe(PAGE);
      expect(verifyPage(copy, fullCrc32)).toBe(fullCrc32 ? 'full_crc32' : 'crc32');
      expect(e.checksum).toBe(fullCrc32 ? 'full_crc32' : 'crc32');
      expect(lsnAt(copy, FIL_PAGE_LSN)).toBe(e.lsn);
      const onDisk = pageOf(path!, e.pageNo, read);
      if (lsnAt(onDisk, FIL_PAGE_LSN) === e.lsn) {
        expect(onDisk).toEqual(copy);
        same++;
      }
    }
    // Most batches reached their data files before the crash.
    expect(same).toBeGreaterThan(0);
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

  it('gives the intact page for a page torn in its data file, and the server recovers it from the same buffer', async () => {
    const copyDir = server.copyDatadir();
    const ibd = join(copyDir, 'test', 't.ibd');
    const ibdata1 = ibdata1Of(copyDir);
    const dw = await openBuffer(ibdata1);
    const tSpace = [...(await spaceFiles(copyDir)).entries()].find(([, p]) => p === ibd)![0];
    // The newest copy of a page of t that has an older image from before the update: the newest is
    // the likeliest to be past the log's checkpoint, where the server's recovery looks.
    const target = [...dw.entries()]
      .filter((e) => e.spaceId === tSpace && (e.pageNo + 1) * PAGE <= oldImage.length && lsnAt(oldImage, e.pageNo * PAGE + FIL_PAGE_LSN) < e.lsn)
      .sort((a, b) => b.lsn - a.lsn)[0];
    expect(target, dw.describe()).toBeDefined();
    const { pageNo, lsn } = target;
    const fd = openSync(ibd, 'r+');
    writeSync(fd, oldImage.subarray(pageNo * PAGE, pageNo * PAGE + PAGE / 2), 0, PAGE / 2, pageNo * PAGE);
    closeSync(fd);
    expect(verifyPage(pageOf(ibd, pageNo), fullCrc32)).toBe('bad');
    const intact = dw.copyOf(tSpace, pageNo)!;
    expect(verifyPage(intact, fullCrc32)).not.toBe('bad');
    expect(lsnAt(intact, FIL_PAGE_LSN)).toBe(lsn);

    const recovered = await startMariadb({ datadir: copyDir, checksum, extraArgs: DOUBLEWRITE });
    try {
      expect((await recovered.query('SELECT COUNT(*) FROM t')).rows).toEqual([['30000']]);
      const log = recovered.errorLog();
      const from = Number(/recovery from checkpoint LSN=(\d+)/.exec(log)?.[1]);
      const to = Number(/End of log at LSN=(\d+)/.exec(log)?.[1]);
      expect(lsn, `the copy is older than the log's checkpoint ${from}: the server does not look at it`).toBeGreaterThanOrEqual(from);
      expect(log).toMatch(new RegExp(`Recovered page \\[page id: space=${tSpace}, page number=${pageNo}\\] to './test/t.ibd' from the doublewrite buffer`));
      // Within the log's range the same copy is the one given; outside it, copies are set aside.
      const ranged = await openBuffer(ibdata1, { from, to });
      expect(ranged.copyOf(tSpace, pageNo)).toEqual(intact);
      const outside = [...dw.entries()].filter((e) => e.lsn < from || e.lsn > to).length;
      expect(ranged.size).toBe(dw.size - outside);
    } finally {
      await recovered.stop();
    }
  });
});
