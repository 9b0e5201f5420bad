/**
 * A random-access byte source. The decoder never reads a file whole: it asks for the byte ranges
 * it needs (a page, or a run of pages), so a multi-GB .ibd costs only what is being decoded.
 */
export interface ByteSource {
  /** File name as the user knows it (used in every error message). */
  readonly name: string;
  /** Total size in bytes. */
  readonly size: number;
  /** Reads [offset, offset+length), clipped at the end of the source. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** A source over a browser Blob/File, read with Blob.slice() ranges. */
export function blobSource(blob: Blob, name = blob instanceof File ? blob.name : 'blob'): ByteSource {
  return {
    name,
    size: blob.size,
    async read(offset, length) {
      const end = Math.min(blob.size, offset + length);
      if (offset >= end) return new Uint8Array(0);
      return new Uint8Array(await blob.slice(offset, end).arrayBuffer());
    },
  };
}

/** A source over bytes already in memory (tests, small samples). */
export function bytesSource(bytes: Uint8Array, name: string): ByteSource {
  return {
    name,
    size: bytes.length,
    read(offset, length) {
      return Promise.resolve(bytes.subarray(offset, Math.min(bytes.length, offset + length)));
    },
  };
}
