/**
 * A crashed MySQL 8.0.30+ datadir built for the tests of torn pages (test/log/doublewrite-mysql.test.ts,
 * test/browser/dblwr-mysql.test.ts): a real MySQL 8.0 table file (test/fixtures/mysql-testsuite's
 * tb01.ibd, whose rows the fixture tests prove equal to MySQL's) with a page torn here, a
 * `#innodb_redo/#ib_redo10` built from its documented layout (redo-log-builder.ts) whose checkpoint is
 * before the torn page's LSN and whose end after it (an unclean stop), and `#ib_<page size>_<n>.dblwr`
 * files laid out as buf0dblwr.cc writes them: page-size slots one after another, zeros where never written.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { crc32c } from '../../src/core/pages/checksum.ts';
import { checkpoint57, Group, header, put32, put64, seal } from './redo-log-builder.ts';

export const FIXTURE = join(resolve(import.meta.dirname, '../..'), 'test/fixtures/mysql-testsuite/mysql80/simple/tb01.ibd');
export const PAGE = 16384;
/** tb01.ibd's clustered index: one leaf, its root, page 4. */
export const LEAF = 4;

export const intact = new Uint8Array(readFileSync(FIXTURE));
export const pageOf = (bytes: Uint8Array, no: number) => bytes.slice(no * PAGE, (no + 1) * PAGE);
const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset);
export const LEAF_LSN = view(intact).getUint32(LEAF * PAGE + 16) * 2 ** 32 + view(intact).getUint32(LEAF * PAGE + 20);

/** A MySQL 8.0.30+ #ib_redoN whose checkpoint is before `lsn` (a torn page's) and whose end is after it: an unclean stop. */
function redoLog(lsn: number): Uint8Array {
  const start = Math.floor((lsn - 20000) / 512) * 512;
  const g = new Group(1, 65536, start);
  g.write(start, lsn + 3000, 'crc32');
  g.files[0].set(seal(header(6, 'MySQL 8.0.36', start, null), 'crc32'), 0);
  const c = new Uint8Array(512);
  put64(c, 8, start + 600);
  g.files[0].set(seal(c, 'crc32'), 512);
  return g.files[0];
}

/** A MySQL 5.7 ib_logfile0 and ib_logfile1 of the same checkpoint and end. */
function logFiles57(): Uint8Array[] {
  const start = Math.floor((LEAF_LSN - 20000) / 512) * 512;
  const g = new Group(2, 65536, start);
  g.write(start, LEAF_LSN + 3000, 'crc32');
  g.files[0].set(header(1, 'MySQL 5.7.44', start, 'crc32'), 0);
  g.files[0].set(checkpoint57(7, start + 600, g.groupOffset(start + 600)), 512);
  return g.files;
}

/** A doublewrite file of `slots` page-size slots holding `pages` at the slots given, the rest zeros (never written). */
export function dblwrFile(slots: number, pages: [number, Uint8Array][]): Uint8Array {
  const out = new Uint8Array(slots * PAGE);
  for (const [slot, page] of pages) out.set(page, slot * PAGE);
  return out;
}

/** tb01.ibd with `page` as its page `no`. */
export function withPage(no: number, page: Uint8Array): Uint8Array {
  const b = intact.slice();
  b.set(page, no * PAGE);
  return b;
}

/** The leaf torn: its second half zeros (the write stopped half way). */
export function halfZeroed(): Uint8Array {
  const p = pageOf(intact, LEAF);
  p.fill(0, PAGE / 2);
  return p;
}

/** innodb_checksum_algorithm=crc32 made again after a change: header, trailer and the trailer's LSN half. */
export function resealCrc32(b: Uint8Array): void {
  view(b).setUint32(b.length - 4, view(b).getUint32(20));
  const crc = (crc32c(b, 4, 26) ^ crc32c(b, 38, b.length - 8)) >>> 0;
  view(b).setUint32(0, crc);
  view(b).setUint32(b.length - 8, crc);
}

/**
 * The datadir `dir` holding db/tb01.ibd as `table` (or db/`name`.ibd), a log whose range holds `lsn`
 * (tb01's leaf's), and the doublewrite files given (name → bytes); the table's path.
 */
export function tornDatadir(dir: string, table: Uint8Array, dblwr: Record<string, Uint8Array>, name = 'tb01', lsn = LEAF_LSN): string {
  mkdirSync(join(dir, 'db'), { recursive: true });
  mkdirSync(join(dir, '#innodb_redo'), { recursive: true });
  writeFileSync(join(dir, `db/${name}.ibd`), table);
  writeFileSync(join(dir, '#innodb_redo/#ib_redo10'), redoLog(lsn));
  for (const [file, bytes] of Object.entries(dblwr)) writeFileSync(join(dir, file), bytes);
  return join(dir, `db/${name}.ibd`);
}

/**
 * A MySQL 5.7 datadir: db/tb01.ibd as `table`, ib_logfile0 and 1, and an ibdata1 whose TRX_SYS page
 * (5) names its doublewrite blocks at pages 64-127 and 128-191 (trx0sys.h), holding `copies` at the
 * slots given (pages 64 on); its page 0 is tb01's made space 0. The table's path.
 */
export function tornDatadir57(dir: string, table: Uint8Array, copies: [number, Uint8Array][]): string {
  mkdirSync(join(dir, 'db'), { recursive: true });
  writeFileSync(join(dir, 'db/tb01.ibd'), table);
  logFiles57().forEach((f, k) => writeFileSync(join(dir, `ib_logfile${k}`), f));
  const system = new Uint8Array(192 * PAGE);
  const page0 = pageOf(intact, 0);
  put32(page0, 34, 0);
  put32(page0, 38, 0);
  resealCrc32(page0);
  system.set(page0, 0);
  const header = 5 * PAGE + PAGE - 200;
  put32(system, header + 10, 536853855);
  put32(system, header + 14, 64);
  put32(system, header + 18, 128);
  for (const [slot, page] of copies) system.set(page, (64 + slot) * PAGE);
  writeFileSync(join(dir, 'ibdata1'), system);
  return join(dir, 'db/tb01.ibd');
}
