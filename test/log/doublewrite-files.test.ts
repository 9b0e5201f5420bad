/**
 * MySQL 8.0.20+'s doublewrite files (`#ib_<page size>_<n>.dblwr`) and the slot checks every buffer
 * shares. No MySQL server runs here, so these files are built from the documented layout (page-size
 * slots one after another, a smaller physical page at the start of its slot, zeros after it:
 * buf0dblwr.cc) with pages whose checksums are computed as the servers compute them; the slot
 * checks on real pages are test/log/doublewrite.test.ts's (MariaDB 10.11).
 */
import { describe, expect, it } from 'vitest';
import { Doublewrite, dblwrFilePageSize } from '../../src/core/log/doublewrite.ts';
import { readSlot } from '../../src/core/log/doublewrite-slot.ts';
import { crc32c, verifyPage } from '../../src/core/pages/checksum.ts';
import { PageType } from '../../src/core/pages/fil-header.ts';
import { zipPageCrc32 } from '../../src/core/pages/zip-page.ts';
import { bytesSource } from '../../src/core/tablespace/source.ts';

const PAGE = 16384;

function put32(b: Uint8Array, at: number, v: number): void {
  new DataView(b.buffer, b.byteOffset).setUint32(at, v >>> 0);
}

/** A page image with its FIL header filled and a body of varied bytes. */
function page(size: number, spaceId: number, pageNo: number, lsn: number, type: number = PageType.INDEX): Uint8Array {
  const b = new Uint8Array(size);
  for (let i = 38; i < size - 8; i++) b[i] = (i * 31 + pageNo * 7 + lsn) & 0xff;
  put32(b, 4, pageNo);
  put32(b, 8, 0xffffffff);
  put32(b, 12, 0xffffffff);
  put32(b, 20, lsn);
  b[24] = type >> 8;
  b[25] = type & 0xff;
  put32(b, 34, spaceId);
  return b;
}

/** innodb_checksum_algorithm=crc32: in the header and the trailer, the LSN's low half in the trailer too. */
function crc32Page(b: Uint8Array): Uint8Array {
  put32(b, b.length - 4, b[20] * 2 ** 24 + b[21] * 65536 + b[22] * 256 + b[23]);
  const crc = (crc32c(b, 4, 26) ^ crc32c(b, 38, b.length - 8)) >>> 0;
  put32(b, 0, crc);
  put32(b, b.length - 8, crc);
  return b;
}

/** MariaDB full_crc32: CRC-32C of all but the last 4 bytes, in them. */
function fullCrc32Page(b: Uint8Array): Uint8Array {
  put32(b, b.length - 4, crc32c(b, 0, b.length - 4));
  return b;
}

function slotOf(physical: Uint8Array): Uint8Array {
  const s = new Uint8Array(PAGE);
  s.set(physical);
  return s;
}

function file(name: string, slots: Uint8Array[]): ReturnType<typeof bytesSource> {
  const out = new Uint8Array(slots.length * PAGE);
  slots.forEach((s, k) => out.set(s, k * PAGE));
  return bytesSource(out, name);
}

describe('a doublewrite slot', () => {
  it('takes a copy in any format the servers write, sized as stored', () => {
    const classic = readSlot(crc32Page(page(PAGE, 7, 3, 100)));
    expect(classic).toMatchObject({ spaceId: 7, pageNo: 3, lsn: 100, checksum: 'crc32' });
    expect(readSlot(fullCrc32Page(page(PAGE, 8, 4, 101)))).toMatchObject({ spaceId: 8, pageNo: 4, checksum: 'full_crc32' });
    // ROW_FORMAT=COMPRESSED, 8K: the first 8K of the slot are the page.
    const zip = page(8192, 9, 5, 102);
    put32(zip, 0, zipPageCrc32(zip));
    const got = readSlot(slotOf(zip));
    expect(got).toMatchObject({ spaceId: 9, pageNo: 5, checksum: 'zip crc32' });
    expect(typeof got !== 'string' && got.bytes).toEqual(zip);
    // full_crc32 page-compressed: its stored size (here 4K) in the type's low byte, zeros after; its
    // space id is inside the compressed bytes, so a page that decompresses by no algorithm has none
    // (real ones, identified by decompressing, are test/log/doublewrite.test.ts's).
    const compressed = page(4096, 10, 6, 103, 0x8000 | (4096 >> 8));
    expect(readSlot(slotOf(fullCrc32Page(compressed)))).toBe('space unknown');
    // full_crc32 encrypted: the key version in bytes 0-3, the space id encrypted.
    const encrypted = page(PAGE, 11, 7, 104);
    put32(encrypted, 0, 1);
    expect(readSlot(fullCrc32Page(encrypted))).toBe('space unknown');
  });

  it('refuses a torn copy, and says which copies cannot be checked without a key', () => {
    const torn = crc32Page(page(PAGE, 7, 3, 100));
    torn.set(page(PAGE / 2, 7, 3, 50).subarray(0, PAGE / 2));
    expect(verifyPage(torn, false)).toBe('bad');
    expect(readSlot(torn)).toBe('bad checksum');
    expect(readSlot(new Uint8Array(PAGE))).toBe('empty');
    expect(readSlot(page(PAGE, 7, 3, 100, PageType.ENCRYPTED))).toBe('unverifiable');
    expect(readSlot(page(PAGE, 7, 3, 100, PageType.PAGE_COMPRESSED))).toBe('unverifiable');
  });
});

describe("MySQL 8.0.20+'s doublewrite files", () => {
  it('the page size comes from the name', () => {
    expect(dblwrFilePageSize('#ib_16384_0.dblwr')).toBe(16384);
    expect(dblwrFilePageSize('/data/#ib_4096_7.dblwr')).toBe(4096);
    expect(dblwrFilePageSize('ibdata1')).toBeNull();
  });

  it('give the newest copy of each page across the files, and count the slots not used', async () => {
    const older = crc32Page(page(PAGE, 7, 3, 100));
    const newer = crc32Page(page(PAGE, 7, 3, 200));
    const other = crc32Page(page(PAGE, 7, 4, 150));
    const torn = crc32Page(page(PAGE, 7, 5, 300));
    torn.fill(0x5a, PAGE / 2);
    const dw = await Doublewrite.fromFiles([
      file('#ib_16384_0.dblwr', [older, other, new Uint8Array(PAGE), torn]),
      file('#ib_16384_1.dblwr', [newer, page(PAGE, 7, 6, 400, PageType.ENCRYPTED)]),
    ]);
    expect(dw.slots).toBe(6);
    expect(dw.size).toBe(2);
    expect(dw.copyOf(7, 3)).toEqual(newer);
    expect(dw.copyOf(7, 4)).toEqual(other);
    expect(dw.copyOf(7, 5)).toBeNull();
    expect(dw.copyOf(8, 3)).toBeNull();
    expect(dw.rejected).toMatchObject({ empty: 1, 'bad checksum': 1, unverifiable: 1 });
    expect(dw.describe()).toBe('the doublewrite buffer (#ib_16384_0.dblwr, #ib_16384_1.dblwr): 6 slots, 2 page copies that pass their checksums; not used: 1 empty, 1 bad checksum, 1 unverifiable');
  });

  it('keep to the log\'s LSN range when given one', async () => {
    const dw = await Doublewrite.fromFiles([file('#ib_16384_0.dblwr', [crc32Page(page(PAGE, 7, 3, 100)), crc32Page(page(PAGE, 7, 3, 200))])], { lsnRange: { from: 50, to: 150 } });
    expect(dw.size).toBe(1);
    expect(dw.copyOf(7, 3)?.[23]).toBe(100);
    expect(dw.rejected['outside the LSN range']).toBe(1);
  });

  it('pass over the slots of other tablespaces unchecked when asked for some only', async () => {
    const mine = crc32Page(page(PAGE, 7, 3, 100));
    const tornOther = crc32Page(page(PAGE, 8, 3, 100));
    tornOther.fill(0, PAGE / 2);
    const dw = await Doublewrite.fromFiles([file('#ib_16384_0.dblwr', [mine, crc32Page(page(PAGE, 8, 4, 100)), tornOther])], { spaceIds: new Set([7]) });
    expect(dw.size).toBe(1);
    expect(dw.copyOf(7, 3)).toEqual(mine);
    expect(dw.rejected).toMatchObject({ 'other tablespaces': 2, 'bad checksum': 0 });
  });

  it('need a page size: from the name, else given', async () => {
    const bytes = [crc32Page(page(PAGE, 7, 3, 100))];
    await expect(Doublewrite.fromFiles([file('copy.dblwr', bytes)])).rejects.toThrow(/page size of this doublewrite file is not known/);
    expect((await Doublewrite.fromFiles([file('copy.dblwr', bytes)], { pageSize: PAGE })).size).toBe(1);
  });
});
