/**
 * Redo logs of the formats no server here writes (MariaDB 10.5, MySQL 5.6/5.7/8.0), built in the test
 * from their documented layout (log0log.h, log0constants.h): 512-byte blocks numbered from their
 * LSN, a file header, checkpoint blocks. The checksums and the geometry are computed here on their
 * own (not with the reader's helpers), so a reader that gets the layout wrong fails.
 */
import { crc32c } from '../../src/core/pages/checksum.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';

export type Sum = 'crc32' | 'innodb' | 'none';

export const put32 = (b: Uint8Array, at: number, v: number) => new DataView(b.buffer, b.byteOffset).setUint32(at, v >>> 0);
export const put64 = (b: Uint8Array, at: number, v: number) => {
  put32(b, at, Math.floor(v / 2 ** 32));
  put32(b, at + 4, v % 2 ** 32);
};

function innodbSum(b: Uint8Array): number {
  let sum = 1n;
  let sh = 0n;
  for (let i = 0; i < 508; i++) {
    const x = BigInt(b[i]);
    sum &= 0x7fffffffn;
    sum += x + (x << sh);
    sh = sh === 24n ? 0n : sh + 1n;
  }
  return Number(sum & 0xffffffffn);
}

export function seal(b: Uint8Array, sum: Sum): Uint8Array {
  put32(b, 508, sum === 'crc32' ? crc32c(b, 0, 508) : sum === 'none' ? 0xdeadbeef : innodbSum(b));
  return b;
}

/** The data block starting at `lsn`, `used` bytes of it written. */
export function dataBlock(lsn: number, used: number, sum: Sum): Uint8Array {
  const b = new Uint8Array(512);
  put32(b, 0, ((lsn / 512) % 2 ** 30) + 1);
  b[4] = used >> 8;
  b[5] = used & 0xff;
  b[7] = 12;
  put32(b, 8, 7);
  for (let i = 12; i < used && i < 508; i++) b[i] = (i * 13 + lsn / 512) & 0xff;
  return seal(b, sum);
}

export function header(format: number, creator: string, startLsn: number, sum: Sum | null): Uint8Array {
  const b = new Uint8Array(512);
  put32(b, 0, format);
  put64(b, 8, startLsn);
  for (let i = 0; i < creator.length; i++) b[16 + i] = creator.charCodeAt(i);
  return sum === null ? b : seal(b, sum);
}

/** A MySQL 5.7 checkpoint block: number, LSN, group offset, buffer size; CRC-32C. */
export function checkpoint57(no: number, lsn: number, offset: number): Uint8Array {
  const b = new Uint8Array(512);
  put64(b, 0, no);
  put64(b, 8, lsn);
  put64(b, 16, offset);
  put64(b, 24, 1 << 20);
  return seal(b, 'crc32');
}

/** A group of `n` files of `fileSize` bytes whose data starts at LSN `startLsn` in file 0 (offset 2048). */
export class Group {
  readonly files: Uint8Array[];
  readonly perFile: number;

  constructor(readonly n: number, readonly fileSize: number, readonly startLsn: number) {
    this.files = Array.from({ length: n }, () => new Uint8Array(fileSize));
    this.perFile = fileSize - 2048;
  }

  /** Where the data byte of `lsn` is: [file, offset], the group wrapping round. */
  where(lsn: number): [number, number] {
    const data = (lsn - this.startLsn) % (this.n * this.perFile);
    return [Math.floor(data / this.perFile), 2048 + (data % this.perFile)];
  }

  /** The offset of `lsn` in the group, headers counted (LOG_CHECKPOINT_OFFSET). */
  groupOffset(lsn: number): number {
    const [f, off] = this.where(lsn);
    return f * this.fileSize + off;
  }

  /** Full blocks from `from` up to `end`, the last partly written. */
  write(from: number, end: number, sum: Sum): void {
    for (let lsn = from - (from % 512); lsn < end; lsn += 512) this.put(lsn, dataBlock(lsn, Math.min(512, end - lsn), sum));
  }

  put(lsn: number, block: Uint8Array): void {
    const [f, off] = this.where(lsn);
    this.files[f].set(block, off);
  }

  sources(name = (k: number) => `ib_logfile${k}`) {
    return this.files.map((b, k) => bytesSource(b, name(k)));
  }
}
