/** A ByteSource over a file on disk (Node): positional reads through one file handle. */
import { open, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { scratchBuffer, type ByteSource } from '../core/tablespace/source.ts';

export interface FileSource extends ByteSource {
  close(): Promise<void>;
}

export async function fileSource(path: string): Promise<FileSource> {
  const handle: FileHandle = await open(path, 'r');
  const { size, dev, ino, mtimeMs } = await handle.stat();
  /** Reads [offset, offset + length) into `buf` (clipped at the end of the file). */
  const readTo = async (buf: Uint8Array<ArrayBuffer>, offset: number, length: number) => {
    const n = Math.max(0, Math.min(length, size - offset));
    let done = 0;
    while (done < n) {
      const { bytesRead } = await handle.read(buf, done, n - done, offset + done);
      if (bytesRead === 0) break;
      done += bytesRead;
    }
    return buf.subarray(0, done);
  };
  return {
    name: basename(path),
    size,
    version: `${dev}:${ino}:${mtimeMs}`,
    read: (offset, length) => readTo(new Uint8Array(Math.max(0, Math.min(length, size - offset))), offset, length),
    readInto(offset, length, buffer) {
      // Moved as a Blob's BYOB read moves it, so a view kept from the last read cannot see new bytes.
      const scratch = scratchBuffer(buffer, Math.max(0, Math.min(length, size - offset)));
      return readTo(new Uint8Array(structuredClone(scratch, { transfer: [scratch] })), offset, length);
    },
    close: () => handle.close(),
  };
}
