import type { EncryptionKeys } from './encryption.ts';
import type { Tablespace } from './tablespace.ts';

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
  /**
   * The tablespace last opened over this source, set by Tablespace.open for everyone reading the
   * source to share. (Kept here rather than in a WeakMap keyed by the source: with the tablespace
   * pointing back at its source, 10,000 such entries tripled V8's garbage collection time.)
   */
  opened?: { keys: EncryptionKeys | undefined; tablespace: Promise<Tablespace> };
}

/**
 * Reads that fall inside one aligned block of this size are served from the whole block, read once.
 * In a browser each Blob read costs a few milliseconds whatever its size (measured 3–10 ms in a
 * worker), and opening a table asks for page 0 several times over (its first 4 KB for the page size,
 * the page itself, the 1 MiB chunk the tablespace reads pages by): one block read serves them all.
 * The size matches the tablespace's chunk, so its reads of a chunk are one block too.
 */
const BLOCK_BYTES = 1 << 20;
/** Blocks kept per source (the most recently used). */
const BLOCKS_KEPT = 2;

/** A source over a browser Blob/File, read with Blob.slice() ranges. */
export function blobSource(blob: Blob, name = blob instanceof File ? blob.name : 'blob'): ByteSource {
  // Pending reads are kept too, so two callers asking for one block share one read.
  const blocks = new Map<number, Promise<Uint8Array>>();
  const slice = async (start: number, end: number) => new Uint8Array(await blob.slice(start, end).arrayBuffer());
  const block = (no: number): Promise<Uint8Array> => {
    let got = blocks.get(no);
    if (got) {
      // Re-inserted so the Map's order is least-recently-used first.
      blocks.delete(no);
    } else {
      got = slice(no * BLOCK_BYTES, Math.min(blob.size, (no + 1) * BLOCK_BYTES));
      got.catch(() => blocks.delete(no));
      if (blocks.size >= BLOCKS_KEPT) blocks.delete(blocks.keys().next().value as number);
    }
    blocks.set(no, got);
    return got;
  };
  return {
    name,
    size: blob.size,
    async read(offset, length) {
      const end = Math.min(blob.size, offset + length);
      if (offset >= end) return new Uint8Array(0);
      const no = Math.floor(offset / BLOCK_BYTES);
      if (Math.floor((end - 1) / BLOCK_BYTES) !== no) return slice(offset, end);
      const base = no * BLOCK_BYTES;
      return (await block(no)).subarray(offset - base, end - base);
    },
  };
}

const shared = new WeakMap<Blob, ByteSource>();

/**
 * One blobSource per Blob object, so that its blocks serve every reader of that object: a worker that
 * resolves a table's definition and then opens the table reads page 0 once. (A Blob sent to a worker
 * arrives as a new object with each message, so this never mixes up two calls' files.)
 */
export function sharedBlobSource(blob: Blob, name: string): ByteSource {
  let source = shared.get(blob);
  if (source?.name !== name) {
    source = blobSource(blob, name);
    shared.set(blob, source);
  }
  return source;
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
