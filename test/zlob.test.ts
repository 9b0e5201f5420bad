/**
 * MySQL 8.0 compressed LOBs (ROW_FORMAT=COMPRESSED, page types 25-28), from the documented layout:
 * a first page whose index list names three zlib streams (one in the first page's own data area, one
 * over a chain of two data pages, one in a fragment page), one of them superseded by a newer version
 * the record's reference does not see yet.
 */
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readExternValue } from '../src/core/pages/blob-page.ts';

const SIZE = 16384;
const FIRST = 10;
const INDEX_LIST = 38 + 1 + 1 + 4 + 6 + 4 + 4 + 6 + 4 + 4 + 16;
const INDEX_BEGIN = INDEX_LIST + 48;
const ENTRY = 66;
const FIRST_DATA = INDEX_BEGIN + 100 * ENTRY + 200 * 24;

function page(no: number, type: number, next = 0xffffffff): Uint8Array {
  const p = new Uint8Array(SIZE);
  const dv = new DataView(p.buffer);
  dv.setUint32(4, no);
  dv.setUint32(12, next);
  dv.setUint16(24, type);
  return p;
}

/** Writes a z_index_entry_t at `at` of `p`. */
function entry(p: Uint8Array, at: number, e: { next: [number, number]; versions?: [number, number]; zPage: number; fragId?: number; dataLen: number; zLen: number; version: number }): void {
  const dv = new DataView(p.buffer);
  dv.setUint32(at + 6, e.next[0]);
  dv.setUint16(at + 10, e.next[1]);
  dv.setUint32(at + 12, e.versions ? 1 : 0);
  dv.setUint32(at + 16, e.versions ? e.versions[0] : 0xffffffff);
  dv.setUint16(at + 20, e.versions ? e.versions[1] : 0);
  const o = at + 12 + 16 + 6 + 6 + 4 + 4;
  dv.setUint32(o, e.zPage);
  dv.setUint16(o + 4, e.fragId ?? 0);
  dv.setUint32(o + 6, e.dataLen);
  dv.setUint32(o + 10, e.zLen);
  dv.setUint32(o + 14, e.version);
}

describe('MySQL 8.0 ZLOB', () => {
  it('reads every chunk, from the first page, data pages and a fragment, in the version the reference sees', async () => {
    const text = (n: number, c: string): Uint8Array => new TextEncoder().encode(Array.from({ length: n }, (_, i) => `${c}${i % 97}`).join(','));
    const chunk0 = text(900, 'a');
    const chunk1 = text(9000, 'b');
    const chunk1old = text(8000, 'o');
    const chunk2 = text(60, 'c');
    const [z0, z1, z1old, z2] = [chunk0, chunk1, chunk1old, chunk2].map((c) => new Uint8Array(deflateSync(c)));
    const pages = new Map<number, Uint8Array>();
    const first = page(FIRST, 25);
    const fdv = new DataView(first.buffer);
    const slot = (k: number): number => INDEX_BEGIN + k * ENTRY;
    fdv.setUint32(INDEX_LIST, 3);
    fdv.setUint32(INDEX_LIST + 4, FIRST);
    fdv.setUint16(INDEX_LIST + 8, slot(0));
    entry(first, slot(0), { next: [FIRST, slot(1)], zPage: FIRST, dataLen: chunk0.length, zLen: z0.length, version: 1 });
    entry(first, slot(1), { next: [FIRST, slot(2)], versions: [FIRST, slot(3)], zPage: 11, dataLen: chunk1.length, zLen: z1.length, version: 3 });
    entry(first, slot(2), { next: [0xffffffff, 0], zPage: 13, fragId: 1, dataLen: chunk2.length, zLen: z2.length, version: 1 });
    entry(first, slot(3), { next: [0xffffffff, 0], zPage: 14, dataLen: chunk1old.length, zLen: z1old.length, version: 1 });
    fdv.setUint32(38 + 1 + 1 + 4 + 6 + 4, z0.length);
    first.set(z0, FIRST_DATA);
    pages.set(FIRST, first);
    // chunk 1 over two data pages (version 3, not visible), its old version on page 14.
    const half = z1.length >> 1;
    for (const [no, next, part] of [[11, 12, z1.subarray(0, half)], [12, 0xffffffff, z1.subarray(half)], [14, 0xffffffff, z1old]] as const) {
      const p = page(no, 26, next);
      new DataView(p.buffer).setUint32(39, part.length);
      p.set(part, 49);
      pages.set(no, p);
    }
    // chunk 2 as fragment 1 of a fragment page.
    const frag = page(13, 28);
    const node = 200;
    new DataView(frag.buffer).setUint16(SIZE - 12 - 2, node);
    new DataView(frag.buffer).setUint16(node + 4, 8 + z2.length);
    frag.set(z2, node + 8);
    pages.set(13, frag);

    const ref = new Uint8Array(20);
    const rdv = new DataView(ref.buffer);
    rdv.setUint32(4, FIRST);
    rdv.setUint32(8, 2); // the LOB version the record sees
    const total = chunk0.length + chunk1old.length + chunk2.length;
    rdv.setUint32(16, total);
    const value = await readExternValue(ref, async (no) => pages.get(no) ?? page(no, 0));
    const expected = new Uint8Array(total);
    expected.set(chunk0);
    expected.set(chunk1old, chunk0.length);
    expected.set(chunk2, chunk0.length + chunk1old.length);
    expect(Buffer.from(value).equals(Buffer.from(expected))).toBe(true);

    // Seen from version 3, the newer chunk replaces the old one.
    rdv.setUint32(8, 3);
    rdv.setUint32(16, chunk0.length + chunk1.length + chunk2.length);
    const newer = await readExternValue(ref, async (no) => pages.get(no) ?? page(no, 0));
    expect(new TextDecoder().decode(newer.subarray(chunk0.length, chunk0.length + chunk1.length))).toBe(new TextDecoder().decode(chunk1));
  });
});
