import { describe, expect, it } from 'vitest';
import { parseSpaceFlags } from '../src/core/pages/fsp-header.ts';

// Flag values built bit by bit from the layouts described in fsp0types.h (MySQL, MariaDB 10.2+) and
// MariaDB's fsp_flags_convert_from_101 comment (the 10.1.0-10.1.20 layout).
const POST_ANTELOPE = 1;
const ATOMIC_BLOBS = 1 << 5;
const dynamic = POST_ANTELOPE | ATOMIC_BLOBS;

describe('FSP space flags', () => {
  it('reads the MySQL / MariaDB 10.2+ layout', () => {
    expect(parseSpaceFlags(0)).toMatchObject({ pageSize: 16384, zipSize: 0, fullCrc32: false });
    expect(parseSpaceFlags(dynamic | (4 << 6))).toMatchObject({ pageSize: 8192, atomicBlobs: true });
    expect(parseSpaceFlags(dynamic | (3 << 1))).toMatchObject({ pageSize: 16384, zipSize: 4096 });
    expect(parseSpaceFlags(dynamic | (1 << 16))).toMatchObject({ pageSize: 16384, pageCompression: 1 });
    // MySQL 8: SDI + ENCRYPTION + SHARED bits stay in this layout
    expect(parseSpaceFlags(dynamic | (1 << 14) | (1 << 13) | (1 << 11))).toMatchObject({ pageSize: 16384, sdi: true, encrypted: true });
  });

  it('reads the full_crc32 layout', () => {
    expect(parseSpaceFlags(0x10 | 5)).toMatchObject({ fullCrc32: true, pageSize: 16384, pageCompression: 0 });
    expect(parseSpaceFlags(0x10 | 3 | (1 << 5))).toMatchObject({ fullCrc32: true, pageSize: 4096, pageCompression: 1 });
  });

  it('converts the misplaced MariaDB 10.1.0-10.1.20 layout', () => {
    // PAGE_COMPRESSED=1 level 6, innodb_page_size=16K: bit 6, level at 7-10, PAGE_SSIZE 0
    const compressed16k = dynamic | (1 << 6) | (6 << 7);
    expect(parseSpaceFlags(compressed16k)).toMatchObject({ pageSize: 16384, pageCompression: 1, zipSize: 0, raw: compressed16k });
    // innodb_page_size=4K (ssize 3 at bits 13-16), ATOMIC_WRITES=1 (bits 11-12), DATA_DIR at bit 17:
    // without DATA_DIR this one would read as a valid MySQL 8 16K encrypted SDI file, which wins
    const small = dynamic | (3 << 13) | (1 << 11) | (1 << 17);
    expect(parseSpaceFlags(small)).toMatchObject({ pageSize: 4096, pageCompression: 0 });
    // 64K and compression level 1
    expect(parseSpaceFlags(POST_ANTELOPE | (1 << 6) | (1 << 7) | (7 << 13))).toMatchObject({ pageSize: 65536, pageCompression: 1 });
  });

  it('leaves flags valid in neither layout as they are (the page size check then reports them)', () => {
    // compression bit without a level: not the 10.1 layout; PAGE_SSIZE 1 is not valid either
    expect(parseSpaceFlags(1 << 6).pageSize).toBe(1024);
  });
});
