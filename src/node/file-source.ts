/** A ByteSource over a file on disk (Node): positional reads through one file handle. */
import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ByteSource } from '../core/source.ts';

export interface FileSource extends ByteSource {
  close(): Promise<void>;
}

export async function fileSource(path: string): Promise<FileSource> {
  const handle: FileHandle = await open(path, 'r');
  const { size } = await handle.stat();
  return {
    name: basename(path),
    size,
    async read(offset, length) {
      const n = Math.max(0, Math.min(length, size - offset));
      const buf = new Uint8Array(n);
      let done = 0;
      while (done < n) {
        const { bytesRead } = await handle.read(buf, done, n - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return done === n ? buf : buf.subarray(0, done);
    },
    close: () => handle.close(),
  };
}
