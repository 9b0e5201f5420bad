/**
 * Issue 37, a page torn by the crash: a MariaDB 10.11 datadir (innodb_doublewrite=1) killed while
 * with changes in its log only, in which one page of the table is then torn by hand (the first half
 * of an older image written over it, as a crash mid-write leaves it). The library reads it with its
 * redo log, the page taken whole from ibdata1's doublewrite buffer first, as the server's recovery
 * does; page 0 among them when the buffer
 * holds it; then a server recovers the same torn copy by itself, and its SELECT is the truth for every
 * row. The restored page is counted, and the server says it restored the same page. Once with a
 * plain table, once with a PAGE_COMPRESSED one (the copy compressed, the log applied to it decompressed),
 * once PAGE_COMPRESSED in the original format (innodb_checksum_algorithm=crc32 when created: the copy
 * has no checksum of its own, the page it decompresses to has).
 */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCreateTables } from '../../src/core/definitions/ddl/create-table.ts';
import { Doublewrite } from '../../src/core/log/doublewrite.ts';
import { lsnAt } from '../../src/core/log/doublewrite-slot.ts';
import { recoveryLines } from '../../src/core/log/redo-recovery.ts';
import { scanRedoLog } from '../../src/core/log/redo-scan.ts';
import { crc32c, verifyPage } from '../../src/core/pages/checksum.ts';
import { FIL_PAGE_LSN, u32 } from '../../src/core/pages/fil-header.ts';
import { decompressMariadb, fullCrc32StoredSize } from '../../src/core/pages/page-compression.ts';
import { openTable, type Row } from '../../src/core/readers/table-reader.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { openInnodb } from '../../src/lib/node.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { expectSameRows } from './decode.ts';

const PAGE = 16384;
const ARGS = ['--innodb-doublewrite=1', '--innodb-flush-log-at-trx-commit=1', '--innodb-buffer-pool-size=256M'];

async function waitClean(srv: MariadbServer): Promise<void> {
  for (let k = 0; k < 300; k++) {
    const { rows } = await srv.query("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'");
    if (rows[0][1] === '0') return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the buffer pool never became clean');
}

/**
 * The table plain, and PAGE_COMPRESSED=1 (full_crc32: the buffer holds its copy compressed, its
 * stored size in its type). `tear`: the bytes of the old image written over the page; a compressed
 * page's stored bytes may fit in the first half, so its first sector is torn instead.
 */
const CASES = [
  { name: 'plain', options: '', tear: PAGE / 2, checksum: 'full_crc32' },
  { name: 'PAGE_COMPRESSED', options: ' PAGE_COMPRESSED=1', tear: 512, checksum: 'full_crc32' },
  { name: 'PAGE_COMPRESSED, original format', options: ' PAGE_COMPRESSED=1', tear: 512, checksum: 'crc32' },
];

/**
 * Whether a page checks out: in full_crc32, its checksum over the bytes stored (a compressed page's,
 * as its type records); in the original format, the classic checksum of the page it decompresses to.
 */
function checksOut(page: Uint8Array, checksum: string): boolean {
  if (checksum === 'crc32') {
    try {
      return verifyPage(decompressMariadb(page), false) === 'crc32';
    } catch {
      return false;
    }
  }
  const size = fullCrc32StoredSize(page);
  return size !== null && u32(page, size - 4) === crc32c(page, 0, size - 4);
}

describe.each(CASES)('a page torn by the crash, restored from the doublewrite buffer ($name)', ({ options, tear, checksum }) => {
  let server: MariadbServer;
  let recovered: MariadbServer | null = null;
  let copy: string;
  let ddl: string;
  let torn: number[];
  let ours: { rows: Row[]; problems: unknown[]; restored: number[]; lines: string[] };

  beforeAll(async () => {
    server = await startMariadb({ extraArgs: ARGS });
    await server.exec(`SET GLOBAL innodb_checksum_algorithm = ${checksum}; CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(300) NOT NULL)${options};
      CREATE TABLE u (id INT PRIMARY KEY, n INT); INSERT INTO u VALUES (1, 0);
      INSERT INTO t SELECT seq, CONCAT('row ', seq, REPEAT('a', seq % 200)) FROM seq_1_to_30000;
      SET GLOBAL innodb_max_dirty_pages_pct_lwm = 0; SET GLOBAL innodb_max_dirty_pages_pct = 0;`);
    await waitClean(server);
    ddl = (await server.query('SHOW CREATE TABLE t')).rows[0][1] as string;
    const oldImage = new Uint8Array(readFileSync(join(server.datadir, 'test', 't.ibd')));
    // u's page stays dirty and holds the checkpoint back: t's pages written next are past it.
    await server.exec('SET GLOBAL innodb_max_dirty_pages_pct = 90; UPDATE u SET n = 1');
    await server.exec("UPDATE t SET v = CONCAT('updated ', v)");
    await server.exec('FLUSH TABLES t FOR EXPORT; UNLOCK TABLES');
    // Committed but not flushed: in the log only, applied over the restored page.
    await server.exec("UPDATE t SET v = CONCAT('again ', v) WHERE id % 3 = 0");
    await server.crash();

    copy = server.copyDatadir();
    const ibd = join(copy, 'test', 't.ibd');
    const ibdata1 = bytesSource(new Uint8Array(readFileSync(join(copy, 'ibdata1'))), 'ibdata1');
    const scan = await scanRedoLog(bytesSource(new Uint8Array(readFileSync(join(copy, 'ib_logfile0'))), 'ib_logfile0'), null);
    const dw = (await Doublewrite.fromSystemTablespace(ibdata1, { lsnRange: { from: scan.bounds.checkpointLsn, to: scan.bounds.endLsn } }))!;
    const space = new DataView(oldImage.buffer).getUint32(34);
    // Pages of t whose copy in the buffer is past the checkpoint and newer than its old image: the
    // newest other than page 0, and page 0 too when it has one (the file's format is read from it).
    const candidates = [...dw.entries()]
      .filter((e) => e.spaceId === space && (e.pageNo + 1) * PAGE <= oldImage.length && lsnAt(oldImage, e.pageNo * PAGE + FIL_PAGE_LSN) < e.lsn)
      .sort((a, b) => b.lsn - a.lsn);
    const other = candidates.find((e) => e.pageNo !== 0);
    expect(other, dw.describe()).toBeDefined();
    torn = [...(candidates.some((e) => e.pageNo === 0) ? [0] : []), other!.pageNo];
    const fd = openSync(ibd, 'r+');
    for (const no of torn) writeSync(fd, oldImage.subarray(no * PAGE, no * PAGE + tear), 0, tear, no * PAGE);
    closeSync(fd);
    const onDisk = readFileSync(ibd);
    for (const no of torn) expect(checksOut(new Uint8Array(onDisk.subarray(no * PAGE, (no + 1) * PAGE)), checksum)).toBe(false);

    // Ours first: the server started next rewrites the copy.
    const file = await openInnodb(ibd, { schema: { name: 't.sql', data: ddl } });
    try {
      const reader = await openTable(file.source, parseCreateTables(ddl)[0]);
      const rows: Row[] = [];
      for await (const batch of reader.rows({ batchSize: 500 })) rows.push(...batch);
      ours = { rows, problems: reader.stats.problems, restored: file.recovery?.applied?.restored ?? [], lines: recoveryLines('t.ibd', file.recovery!) };
    } finally {
      await file.close();
    }
    recovered = await startMariadb({ datadir: copy, extraArgs: ARGS });
  }, 300_000);

  afterAll(async () => {
    await recovered?.stop();
    await server?.stop();
  });

  it('is counted and named, as the server names it', () => {
    expect(ours.restored).toEqual(torn);
    expect(ours.lines).toContain(`t.ibd: ${torn.length} pages restored from the doublewrite buffer (torn by the crash: pages ${torn.join(', ')})`);
    for (const no of torn) expect(recovered!.errorLog()).toMatch(new RegExp(`Recovered page \\[page id: space=\\d+, page number=${no}\\] to './test/t.ibd' from the doublewrite buffer`));
  });

  it('every row as the recovering server has it, no page found damaged', async () => {
    expect(ours.problems).toEqual([]);
    const expected = await recovered!.query('SELECT * FROM t ORDER BY id');
    expectSameRows(ours.rows, expected.rows, 't', expected.columns);
  }, 60_000);
});
