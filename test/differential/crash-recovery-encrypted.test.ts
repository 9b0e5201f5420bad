/**
 * Issue 37 with an encrypted datadir: the crash-recovery workload (crash-recovery-setup.ts) on a
 * MariaDB 10.11 server with the file_key_management plugin, innodb_encrypt_log=ON (the log's
 * mini-transactions encrypted with key 1) and innodb_encrypt_tables=ON (the tables with key 2),
 * killed with a transaction left open. A second server recovers copy B by itself; our rows from copy
 * A, its log decrypted and applied to the decrypted pages, equal its SELECT. Without key 1 the log
 * cannot be applied, and the user is told so plainly (exit status 2, rows may be stale); with a wrong
 * key 1, told that it does not decrypt. Read whole (`DIR -o`), the log's census is taken once with key
 * 1 and each table's file reads only the stretches holding its records, decrypted from the census's
 * marks: the same recovered pages as a scan of the whole log.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recoveredSource } from '../../src/core/log/recovered-source.ts';
import { scanRedoLog } from '../../src/core/log/redo-scan.ts';
import type { ByteSource } from '../../src/core/tablespace/source.ts';
import { parseKeyFile } from '../../src/core/tablespace/encryption.ts';
import { Tablespace } from '../../src/core/tablespace/tablespace.ts';
import { openSharedRedoLog } from '../../src/lib/node.ts';
import { fileSource } from '../../src/node/file-source.ts';
import type { MariadbServer } from '../harness/mariadb.ts';
import { crashEncrypted, KEY1, KEY2, WRONG1, writeKeyFile } from './crash-encrypted-setup.ts';
import { expectAsServer, expectDirAsServer, TABLES, type Crashed } from './crash-recovery-setup.ts';
import { ndjsonRows } from './undo-setup.ts';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist-cli/ibd-reader.mjs');
const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

const dir = mkdtempSync(join(tmpdir(), 'ibd-redo-keys-'));
const keyFile = (name: string, text: string) => writeKeyFile(dir, name, text);
const ALL = keyFile('keys.txt', KEY1 + KEY2);
const TABLES_ONLY = keyFile('tables-only.txt', KEY2);
const WRONG = keyFile('wrong.txt', WRONG1 + KEY2);
const keys = { mariadb: parseKeyFile(KEY1 + KEY2) };

let crashed: Crashed;
let copyA: string;
let recovered: MariadbServer;
/** The 16 KiB pages in which two sources of one file differ. */
async function differingPages(a: ByteSource, b: ByteSource): Promise<number[]> {
  const differ: number[] = [];
  for (let at = 0; at < a.size; at += 16384) if (Buffer.compare(await a.read(at, 16384), await b.read(at, 16384)) !== 0) differ.push(at / 16384);
  return differ;
}

const countOf = async (table: string) => (await recovered.query(`SELECT COUNT(*) FROM ${table}`)).rows[0][0];

beforeAll(async () => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-cli.mjs')], { cwd: ROOT });
  ({ copy: copyA, recovered, ...crashed } = await crashEncrypted(ALL));
}, 300_000);

afterAll(async () => {
  await recovered?.stop();
  await crashed?.server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('an encrypted datadir killed mid-work, its encrypted log applied', () => {
  it('has an encrypted log (FORMAT_ENC_11) and encrypted tables', async () => {
    const log = await fileSource(join(copyA, 'ib_logfile0'));
    const raw = await fileSource(join(copyA, 'test', 't_compact.ibd'));
    try {
      const scan = await scanRedoLog(log, null, undefined, keys);
      expect([scan.header.encryption, scan.unappliable]).toEqual(['stream', null]);
      expect(scan.recordCount).toBeGreaterThan(10_000);
      // The file records decrypt too: the names of the files created and dropped after the checkpoint.
      expect(scan.files.filter((f) => f.op !== 'modify').map((f) => [f.op, f.name])).toEqual([['create', './test/t_new.ibd'], ['delete', './test/t_gone.ibd'], ['create', './test/t_sync.ibd']]);
      // Without the key, the log's end and its records are still found (their lengths are not encrypted).
      const locked = await scanRedoLog(log, null);
      expect(locked.unappliable).toMatch(/cannot be decrypted: .*key 1/);
      expect([locked.bounds.endLsn, locked.mtrCount, locked.recordCount]).toEqual([scan.bounds.endLsn, scan.mtrCount, scan.recordCount]);
      expect(locked.pages.size).toBe(0);
      expect((await Tablespace.open(raw, { keys })).encryption).toBe('MariaDB encryption, key id 2');
    } finally {
      await log.close();
      await raw.close();
    }
    expect(recovered.errorLog()).toMatch(/crash recovery/i);
  }, 120_000);

  for (const table of TABLES) {
    it(`reads ${table} as the server's own recovery leaves it, every row`, () => expectAsServer(recovered, copyA, table, keys), 180_000);
  }

  it('decrypts the same log ranges wherever a batch starts: one batch, or one per page', async () => {
    const raw = await fileSource(join(copyA, 'test', 't_dynamic.ibd'));
    const log = await fileSource(join(copyA, 'ib_logfile0'));
    try {
      const spaceId = (await Tablespace.open(raw, { keys })).fsp.spaceId;
      const scan = await scanRedoLog(log, new Set([spaceId]), undefined, keys);
      // Marks every MiB from the checkpoint: a batch's range is decrypted from the one before it.
      expect(scan.marks.length).toBe(Math.ceil((scan.bounds.endLsn - scan.bounds.checkpointLsn) / (1 << 20)));
      const one = await recoveredSource(raw, scan, spaceId);
      const each = await recoveredSource(raw, scan, spaceId, null, 1);
      expect(await differingPages(each.source, one.source)).toEqual([]);
      expect(one.stats.pagesRecovered).toBeGreaterThan(10);
      expect([each.stats.recordsApplied, each.stats.failed]).toEqual([one.stats.recordsApplied, []]);
    } finally {
      await raw.close();
      await log.close();
    }
  }, 300_000);

  it('CLI: rolls forward and back with the key file (exit 0); as on disk the rows differ', async () => {
    const ibd = join(copyA, 'test', 't_dynamic.ibd');
    const rolled = cli(ibd, '--count', '--key-file', ALL);
    expect(rolled.status, rolled.stderr).toBe(0);
    expect(rolled.stdout.trim()).toBe(await countOf('t_dynamic'));
    expect(rolled.stderr).toMatch(/rolled forward from the checkpoint: \d+ log records applied/);
    const onDisk = cli(ibd, '--count', '--key-file', ALL, '--as-on-disk');
    expect(onDisk.status, onDisk.stderr).toBe(2);
    expect(onDisk.stdout.trim()).not.toBe(await countOf('t_dynamic'));
    // The open transaction's table: its undo log read through the decrypted log, the transaction rolled back.
    const open = cli(join(copyA, 'test', 't_open.ibd'), '--format', 'ndjson', '--json-strings', '--key-file', ALL);
    expect(open.status, open.stderr).toBe(0);
    expect(ndjsonRows(open.stdout, ['id', 'k', 's'])).toEqual((await recovered.query('SELECT id, k, s FROM t_open ORDER BY id')).rows);
    expect(open.stderr).toMatch(/was active at the crash: rolled back, \d+ rows changed/);
  }, 300_000);

  it('CLI: without key 1, or with a wrong one, says the log is not applied and rows may be stale (exit 2)', async () => {
    const ibd = join(copyA, 'test', 't_compact.ibd');
    const noKey = cli(ibd, '--count', '--key-file', TABLES_ONLY);
    expect(noKey.status, noKey.stderr).toBe(2);
    expect(noKey.stderr).toMatch(/the log is not applied: the redo log cannot be decrypted: it is encrypted \(innodb_encrypt_log\) with key 1 .*the key file given has no key 1.*rows may be stale/);
    const wrong = cli(ibd, '--count', '--key-file', WRONG);
    expect(wrong.status, wrong.stderr).toBe(2);
    expect(wrong.stderr).toMatch(/the log is not applied: the redo log does not decrypt with key 1 of the key file given .*wrong key.*rows may be stale/);
  }, 180_000);
});

describe('the encrypted crashed datadir read whole (DIR -o), its log\'s census taken with key 1', () => {
  it('writes each table as the recovering server has it, the open transaction rolled back', async () => {
    const out = mkdtempSync(join(tmpdir(), 'crash-dir-keys-'));
    try {
      const run = cli(copyA, '-o', out, '--format', 'ndjson', '--json-strings', '--key-file', ALL);
      expect(run.status, run.stderr).toBe(0);
      // (the transaction left open, its undo log read through the decrypted log, rolled back in t_open and t_part)
      expect(run.stderr).toMatch(/test\/t_open: transaction \d+ was active at the crash: rolled back, \d+ rows changed/);
      await expectDirAsServer(recovered, out, [...TABLES, 't_open', 't_part']);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 300_000);

  it('indexes from the census the pages a whole scan does, reading only the stretches of the table', async () => {
    const shared = await openSharedRedoLog(copyA, keys);
    const raw = await fileSource(join(copyA, 'test', 't_dynamic.ibd'));
    try {
      const census = shared?.census;
      if (!shared || !census) throw new Error('no census of the encrypted log taken with key 1');
      expect(census.marks.length).toBeGreaterThan(0);
      let read = 0;
      const log: ByteSource = { name: shared.log.name, size: shared.log.size, read: (offset, length) => ((read += length), shared.log.read(offset, length)) };
      const spaceId = (await Tablespace.open(raw, { keys })).fsp.spaceId;
      const fromCensus = await scanRedoLog(log, new Set([spaceId]), undefined, keys, census);
      const whole = await scanRedoLog(shared.log, new Set([spaceId]), undefined, keys);
      expect(fromCensus.unappliable).toBeNull();
      expect(read).toBeLessThan(census.bounds.endLsn - census.bounds.checkpointLsn);
      const a = await recoveredSource(raw, fromCensus, spaceId);
      const b = await recoveredSource(raw, whole, spaceId);
      expect(await differingPages(a.source, b.source)).toEqual([]);
      expect(a.stats.pagesRecovered).toBeGreaterThan(10);
      expect([a.stats.recordsApplied, a.stats.failed]).toEqual([b.stats.recordsApplied, []]);
      // A key 1 that is not the log's takes no census (each file then reads the log itself, and says why).
      const wrong = await openSharedRedoLog(copyA, { mariadb: parseKeyFile(WRONG1 + KEY2) });
      expect(wrong?.census).toBeNull();
      await wrong?.close();
    } finally {
      await raw.close();
      await shared?.close();
    }
  }, 300_000);
});
