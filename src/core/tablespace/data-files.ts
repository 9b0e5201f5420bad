/**
 * The system tablespace in several data files (innodb_data_file_path=ibdata1:12M;ibdata2:1G:autoextend):
 * its page numbers run on across the files, the first page of ibdata2 following the last of ibdata1,
 * and only ibdata1 starts with the space header (whose FSP_SIZE counts the pages of them all). Read
 * as one byte source, the decoder sees the one tablespace the server sees.
 */
import type { ByteSource } from './source.ts';

/** The files one after another, as one source (the one file itself when there is only one). */
export function dataFilesSource(files: readonly ByteSource[]): ByteSource {
  if (files.length === 1) return files[0];
  const starts: number[] = [];
  let size = 0;
  for (const f of files) {
    starts.push(size);
    size += f.size;
  }
  /** The file holding byte `offset`. */
  const fileAt = (offset: number) => {
    let k = files.length - 1;
    while (k > 0 && starts[k] > offset) k--;
    return k;
  };
  return {
    name: files.map((f) => f.name).join(' + '),
    size,
    version: files.every((f) => f.version !== undefined) ? files.map((f) => f.version).join(' + ') : undefined,
    async read(offset, length) {
      const end = Math.min(size, offset + length);
      if (offset >= end) return new Uint8Array(0);
      const k = fileAt(offset);
      // Within one file (nearly every read: a page never straddles two): its own bytes, no copy.
      if (end <= starts[k] + files[k].size) return files[k].read(offset - starts[k], end - offset);
      const out = new Uint8Array(end - offset);
      for (let i = k; i < files.length && starts[i] < end; i++) {
        const from = Math.max(offset, starts[i]);
        out.set(await files[i].read(from - starts[i], Math.min(end, starts[i] + files[i].size) - from), from - offset);
      }
      return out;
    },
  };
}
