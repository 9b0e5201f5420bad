/**
 * Torn pages restored from a doublewrite buffer where the redo log is not applied (MySQL 5.6-8.0's
 * logs, which this reader measures only): as MySQL's recovery does before it applies its log
 * (dblwr::recv::recover, buf0dblwr.cc), a page of the file that fails its checksum or is all zeros,
 * and whose intact copy the buffer holds (ibdata1's, or MySQL 8.0.20+'s `#ib_<page size>_<n>.dblwr`
 * files), is read as that copy. Only the buffer's pages are looked at, not the whole file. The
 * rest of the file is read as it is: the log's changes after its checkpoint are still not applied.
 */
import type { EncryptionKeys } from '../tablespace/encryption.ts';
import { openDecryptor } from '../tablespace/encryption.ts';
import type { ByteSource } from '../tablespace/source.ts';
import { Tablespace } from '../tablespace/tablespace.ts';
import { FIL_PAGE_LSN } from '../pages/fil-header.ts';
import { lsnAt } from './doublewrite-slot.ts';
import { tornPagesRestored, type DoublewriteBuffer } from './recovered-source.ts';

/** `raw` with the pages of `pages` (by page number, each `physical` bytes) read from there instead; `note` added to its version. */
export function withPagesReplaced(raw: ByteSource, pages: ReadonlyMap<number, Uint8Array>, physical: number, note: string): ByteSource {
  const read = async (offset: number, length: number) => {
    const bytes = await raw.read(offset, length);
    let copy: Uint8Array | null = null;
    for (let no = Math.floor(offset / physical), end = Math.ceil((offset + bytes.length) / physical); no < end; no++) {
      const page = pages.get(no);
      if (page === undefined) continue;
      // The source's bytes may be its cached block: patched in a copy.
      copy ??= bytes.slice();
      const at = no * physical - offset;
      const from = Math.max(0, -at);
      copy.set(page.subarray(from, Math.min(page.length, bytes.length - at)), at + from);
    }
    return copy ?? bytes;
  };
  return { name: raw.name, size: raw.size, version: raw.version === undefined ? undefined : `${raw.version}, ${note}`, read };
}

/**
 * The intact copy of page 0 of a file whose page 0 is torn (the tablespace opened from its other
 * pages, which give its space id and page size): the buffer's copy of that page, of that size, not
 * older than the LSN the torn page's header says; null when there is none.
 */
async function page0Copy(raw: ByteSource, ts: Tablespace, buffer: DoublewriteBuffer): Promise<Uint8Array | null> {
  const copy = buffer.copyOf(ts.fsp.spaceId, 0);
  if (copy === null || copy.length !== ts.physicalSize || raw.size < copy.length) return null;
  return lsnAt(copy, FIL_PAGE_LSN) >= lsnAt(await raw.read(0, copy.length), FIL_PAGE_LSN) ? copy : null;
}

/**
 * The file `raw` with its torn pages read from `buffer`'s intact copies, and their page numbers: a
 * torn page 0 first (the file's format is read from it), then the others; the file itself, none
 * restored, when its format is not known or it holds none the buffer has.
 */
export async function doublewriteRestored(raw: ByteSource, buffer: DoublewriteBuffer, keys?: EncryptionKeys): Promise<{ source: ByteSource; restored: number[] }> {
  const none = { source: raw, restored: [] };
  let ts = await Tablespace.open(raw, { keys }).catch(() => null);
  if (ts === null) return none;
  const page0 = ts.page0Damaged === null ? null : await page0Copy(raw, ts, buffer);
  const file = page0 === null ? raw : withPagesReplaced(raw, new Map([[0, page0]]), page0.length, 'page 0 from the doublewrite buffer');
  if (page0 !== null) ts = await Tablespace.open(file, { keys }).catch(() => null);
  if (ts === null || ts.page0Damaged !== null) return none;
  // An encrypted page's checksum is of its plaintext: without its key, whether it is torn is not known.
  const decryptor = ts.encryption === null ? null : await openDecryptor(file, ts.fsp, ts.physicalSize, keys);
  if (decryptor?.problem) return page0 === null ? none : { source: file, restored: [0] };
  const layout = { physical: ts.physicalSize, fullCrc32: ts.fullCrc32, zip: ts.fsp.flags.zipSize !== 0, decryptor, compression: ts.fullCrc32 ? ts.fsp.flags.pageCompression : 0 };
  const pages = await tornPagesRestored(raw, buffer, ts.fsp.spaceId, layout);
  if (page0 !== null) pages.set(0, page0);
  if (pages.size === 0) return none;
  const restored = [...pages.keys()].sort((a, b) => a - b);
  return { source: withPagesReplaced(raw, pages, layout.physical, `pages ${restored.join(', ')} from the doublewrite buffer`), restored };
}
