/**
 * The redo log bounds of the formats this layer measures but does not apply. MariaDB 10.11 here
 * writes only the 10.8 format, so the MariaDB 10.5, MySQL 5.6/5.7/8.0 and 8.0.30+ logs are built from
 * their documented layout (redo-log-builder.ts) — the honest limit of these tests; the recogniser
 * is tested on a real 10.11 ib_logfile0 too, and on garbage, a cut file and an all-zero one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRedoLog, redoLogBounds } from '../../src/core/log/log-bounds-detect.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';
import { startMariadb, type MariadbServer } from '../harness/mariadb.ts';
import { dataBlock, Group, header, put32, put64, seal, type Sum } from './redo-log-builder.ts';

const FORMAT_10_5 = 0x50485953;

/** A checkpoint block of MySQL 5.7 / MariaDB 10.2–10.7: number, LSN, group offset, buffer size. */
function offsetCheckpoint(no: number, lsn: number, offset: number, sum: Sum = 'crc32'): Uint8Array {
  const b = new Uint8Array(512);
  put64(b, 0, no);
  put64(b, 8, lsn);
  put64(b, 16, offset);
  put64(b, 24, 1 << 20);
  return seal(b, sum);
}

/** ut_fold_binary in 64-bit arithmetic, as the engine computes it; its low 32 bits. */
function fold64(b: Uint8Array, from: number, to: number): number {
  const M = (1n << 64n) - 1n;
  let f = 0n;
  for (let i = from; i < to; i++) {
    const x = BigInt(b[i]);
    f = ((((((f ^ x ^ 1653893711n) << 8n) & M) + f) & M ^ 1463735687n) + x) & M;
  }
  return Number(f & 0xffffffffn);
}

function mysql56Checkpoint(no: number, lsn: number, offset: number): Uint8Array {
  const b = new Uint8Array(512);
  put64(b, 0, no);
  put64(b, 8, lsn);
  put32(b, 16, offset % 2 ** 32);
  put32(b, 20, 1 << 20);
  put32(b, 304, Math.floor(offset / 2 ** 32));
  put32(b, 288, fold64(b, 0, 288));
  put32(b, 292, fold64(b, 8, 292));
  return b;
}

describe('MariaDB 10.5-10.7 ib_logfile0', () => {
  const build = (format: number) => {
    const g = new Group(1, 1 << 20, 8192);
    g.files[0].set(header(format, 'MariaDB 10.5.23', 8192, 'crc32'), 0);
    g.files[0].set(offsetCheckpoint(41, 50_000, g.groupOffset(50_000)), 512);
    g.files[0].set(offsetCheckpoint(40, 30_000, g.groupOffset(30_000)), 1536);
    g.write(8192, 200_123, 'crc32');
    return g;
  };

  it('checkpoint: the newer valid block; end: where the valid blocks end', async () => {
    expect(await redoLogBounds(build(FORMAT_10_5).sources())).toEqual({ format: 'MariaDB 10.5', creator: 'MariaDB 10.5.23', checkpointLsn: 50_000, endLsn: 200_123, encrypted: false });
  });

  it('the encrypted variant (innodb_encrypt_log) says so', async () => {
    expect((await redoLogBounds(build((FORMAT_10_5 | 0x80000000) >>> 0).sources()))?.encrypted).toBe(true);
  });

  it('a damaged newest checkpoint leaves the older one; a block failing its checksum ends the log', async () => {
    const g = build(FORMAT_10_5);
    g.files[0][512 + 100] ^= 1;
    const torn = dataBlock(150_016, 512, 'crc32');
    torn[300] ^= 0xff;
    g.put(150_016, torn);
    expect(await redoLogBounds(g.sources())).toMatchObject({ checkpointLsn: 30_000, endLsn: 150_016 });
  });

  it('neither checkpoint valid: an error naming both blocks', async () => {
    const g = build(FORMAT_10_5);
    g.files[0][512 + 100] ^= 1;
    g.files[0][1536 + 100] ^= 1;
    await expect(redoLogBounds(g.sources())).rejects.toThrow(/neither checkpoint block \(bytes 512 and 1536\) of this MariaDB 10.5 log/);
  });
});

describe('MySQL 5.7 and 5.6: a log group of two files, wrapping round', () => {
  // 64 KiB files: 63488 data bytes each, 126976 in all. The log has gone round once: the newest
  // blocks are in file 0 again, behind them the older lap's.
  const fileSize = 65536;
  const capacity = 2 * (fileSize - 2048);
  const start = 8192;
  const checkpoint = start + capacity - 20_000 + 77;
  const end = start + capacity + 30_000 + 5;

  const build = (sum: Sum, firstHeader: Uint8Array, checkpoints: [Uint8Array, Uint8Array]) => {
    const g = new Group(2, fileSize, start);
    g.write(start, start + capacity, sum); // the older lap, all of it
    g.write(start + capacity, end, sum); // the newer lap, over its start
    g.files[0].set(firstHeader, 0);
    g.files[0].set(checkpoints[0], 512);
    g.files[0].set(checkpoints[1], 1536);
    return g;
  };

  it('5.7 (format 1, CRC-32C): the end is in the newer lap, past the wrap', async () => {
    const g = build('crc32', header(1, 'MySQL 5.7.44', start, 'crc32'), [offsetCheckpoint(9, checkpoint, 0), offsetCheckpoint(8, 9000, 0)]);
    g.files[0].set(offsetCheckpoint(9, checkpoint, g.groupOffset(checkpoint)), 512);
    g.files[0].set(offsetCheckpoint(8, 9000, g.groupOffset(9000)), 1536);
    expect(await redoLogBounds(g.sources())).toEqual({ format: 'MySQL 5.7', creator: 'MySQL 5.7.44', checkpointLsn: checkpoint, endLsn: end, encrypted: false });
  });

  it('5.7 with innodb_log_checksums=OFF: blocks marked, not summed; checkpoints still CRC-32C', async () => {
    const g = build('none', header(1, 'MySQL 5.7.44', start, 'crc32'), [new Uint8Array(512), new Uint8Array(512)]);
    g.files[0].set(offsetCheckpoint(9, checkpoint, g.groupOffset(checkpoint)), 512);
    expect(await redoLogBounds(g.sources())).toMatchObject({ checkpointLsn: checkpoint, endLsn: end });
    // A checkpoint is always CRC-32C: one with the none marker is not believed.
    g.files[0].set(offsetCheckpoint(9, checkpoint, g.groupOffset(checkpoint), 'none'), 512);
    await expect(redoLogBounds(g.sources())).rejects.toThrow(/neither checkpoint block/);
  });

  it('5.6 (format 0): fold-checksummed checkpoints, the 5.6 block sum', async () => {
    const g = build('innodb', header(0, '', start, null), [new Uint8Array(512), new Uint8Array(512)]);
    g.files[0].set(mysql56Checkpoint(12, checkpoint, g.groupOffset(checkpoint)), 512);
    g.files[0].set(mysql56Checkpoint(11, 9000, g.groupOffset(9000)), 1536);
    expect(await redoLogBounds(g.sources())).toEqual({ format: 'MySQL 5.6 or MariaDB 10.1', creator: '', checkpointLsn: checkpoint, endLsn: end, encrypted: false });
  });

  it('a newest block that is full: the older lap\'s block after it ends the log', async () => {
    const aligned = start + capacity + 30_208;
    const g = new Group(2, fileSize, start);
    g.write(start, start + capacity, 'crc32');
    g.write(start + capacity, aligned, 'crc32');
    g.files[0].set(header(1, 'MySQL 5.7.44', start, 'crc32'), 0);
    g.files[0].set(offsetCheckpoint(9, checkpoint, g.groupOffset(checkpoint)), 512);
    expect((await redoLogBounds(g.sources()))?.endLsn).toBe(aligned);
  });

  it('the files in any order, named as the server names them', async () => {
    const g = build('crc32', header(1, 'MySQL 5.7.44', start, 'crc32'), [new Uint8Array(512), new Uint8Array(512)]);
    g.files[0].set(offsetCheckpoint(9, checkpoint, g.groupOffset(checkpoint)), 512);
    expect((await redoLogBounds(g.sources().reverse()))?.endLsn).toBe(end);
  });
});

describe('MySQL 8.0 before 8.0.30: ib_logfile0/1', () => {
  it('the checkpoint places its LSN in the group, as in 5.7', async () => {
    const g = new Group(2, 65536, 8192);
    const capacity = 2 * 63488;
    const ckpt = 8192 + capacity + 5000;
    g.write(8192, 8192 + capacity + 10_000 + 9, 'crc32');
    g.files[0].set(header(4, 'MySQL 8.0.26', 8192 + capacity, 'crc32'), 0);
    g.files[0].set(offsetCheckpoint(31, ckpt, g.groupOffset(ckpt)), 1536);
    g.files[0].set(offsetCheckpoint(30, ckpt - 3000, g.groupOffset(ckpt - 3000)), 512);
    expect(await redoLogBounds(g.sources())).toEqual({ format: 'MySQL 8.0', creator: 'MySQL 8.0.26', checkpointLsn: ckpt, endLsn: 8192 + capacity + 10_009, encrypted: false });
  });

  it('a checkpoint offset past the files: a file is missing', async () => {
    const g = new Group(2, 65536, 8192);
    g.write(8192, 20_000, 'crc32');
    g.files[0].set(header(4, 'MySQL 8.0.26', 8192, 'crc32'), 0);
    g.files[0].set(offsetCheckpoint(3, 9000, 3 * 65536 + 4096), 512);
    await expect(redoLogBounds(g.sources())).rejects.toThrow(/outside the data of its 2 files of 65536 bytes: a log file is missing/);
  });

  it('says the log is encrypted when its encryption block is there', async () => {
    const g = new Group(1, 65536, 8192);
    g.write(8192, 9000, 'crc32');
    g.files[0].set(header(3, 'MySQL 8.0.18', 8192, 'crc32'), 0);
    g.files[0].set(offsetCheckpoint(1, 8704, g.groupOffset(8704)), 512);
    g.files[0].set([0x6c, 0x43, 0x43], 1024); // "lCC"
    expect(await redoLogBounds(g.sources())).toMatchObject({ checkpointLsn: 8704, endLsn: 9000, encrypted: true });
  });
});

describe('MySQL 8.0.30+: #innodb_redo/#ib_redoN', () => {
  const size = 65536;
  /** File #ib_redo<no> holding the data from `start`, the log ending at `end`; checkpoint `ckpt` in its header when given. */
  const redoFile = (no: number, start: number, end: number, ckpt: number | null, flags = 0) => {
    const g = new Group(1, size, start);
    g.write(start, Math.min(end, start + size - 2048), 'crc32');
    const h = header(6, 'MySQL 8.0.36', start, null);
    put32(h, 48, flags);
    g.files[0].set(seal(h, 'crc32'), 0);
    if (ckpt !== null) {
      const c = new Uint8Array(512);
      put64(c, 8, ckpt);
      g.files[0].set(seal(c, 'crc32'), 512);
    }
    return bytesSource(g.files[0], `#ib_redo${no}`);
  };

  it('the newest checkpoint of all files, and the end in the file after it', async () => {
    const a = 8192 + 10 * 63488;
    const b = a + 63488;
    const end = b + 4000 + 3;
    const files = [redoFile(11, b, end, b + 100), redoFile(10, a, end, a + 600), bytesSource(new Uint8Array(size), '#ib_redo12_tmp')];
    expect(await redoLogBounds(files)).toEqual({ format: 'MySQL 8.0.30+', creator: 'MySQL 8.0.36', checkpointLsn: b + 100, endLsn: end, encrypted: false });
  });

  it('refuses a log written with redo logging disabled, and one missing the checkpoint\'s file', async () => {
    const a = 8192;
    await expect(redoLogBounds([redoFile(0, a, a + 3000, a + 10, 2)])).rejects.toThrow(/redo logging was disabled/);
    await expect(redoLogBounds([redoFile(3, a + 63488, a + 70_000, a + 10)])).rejects.toThrow(/no redo file holds the checkpoint LSN/);
  });
});

describe('recognising a log', () => {
  let server: MariadbServer;
  beforeAll(async () => {
    server = await startMariadb();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('a real MariaDB 10.11 ib_logfile0 is routed to the 10.8 reader', async () => {
    const real = bytesSource(new Uint8Array(readFileSync(join(server.datadir, 'ib_logfile0'))), 'ib_logfile0');
    expect(await readRedoLog([real])).toEqual({ kind: 'mariadb-10.8' });
    expect(await redoLogBounds([real])).toBeNull();
  });

  it('garbage, a cut file and an all-zero log', async () => {
    const junk = new Uint8Array(65536).map((_, i) => (i * 7919) & 0xff);
    await expect(redoLogBounds([bytesSource(junk, 'ib_logfile0')])).rejects.toThrow(/not an InnoDB redo log: its format field is 0x/);
    await expect(redoLogBounds([bytesSource(new Uint8Array(1000), 'ib_logfile0')])).rejects.toThrow(/1000 bytes, shorter than the 2048-byte header .* it is cut/);
    expect(await readRedoLog([bytesSource(new Uint8Array(1 << 20), 'ib_logfile0')])).toEqual({
      kind: 'empty', bounds: { format: 'never written (all zeros)', creator: '', checkpointLsn: 0, endLsn: 0, encrypted: false },
    });
    await expect(redoLogBounds([])).rejects.toThrow(/no redo log file given/);
  });
});
