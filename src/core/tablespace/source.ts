/**
 * A random-access byte source. The decoder never reads a file whole: it asks for the byte ranges
 * it needs (a page, or a run of pages), so a multi-GB .ibd costs only what is being decoded.
 */
export interface ByteSource {
  /** File name as the user knows it (used in every error message). */
  readonly name: string;
  /** Total size in bytes. */
  readonly size: number;
  /**
   * What tells these bytes from others of the same name and size, where it is known (a File's
   * lastModified, a file's inode and mtime): what is read from a source with a version may be kept
   * and reused for another source of the same name, size and version (dictionary-cache.ts).
   */
  readonly version?: string;
  /** Reads [offset, offset+length), clipped at the end of the source. */
  read(offset: number, length: number): Promise<Uint8Array>;
  /**
   * Reads [offset, offset+length), clipped at the end of the source, into `buffer` (grown when too
   * small), for a caller that reads large ranges one after another and lets go of each before the
   * next: reusing one buffer spares a fresh allocation per read, whose page faults cost ~30 % of a
   * large Blob read in Chromium. The buffer is moved (detached, as a BYOB stream read does): the
   * bytes come back in a view of a new ArrayBuffer over the same memory, to be passed in next time.
   * Optional: see ReadBuffers.
   */
  readInto?(offset: number, length: number, buffer: ArrayBuffer | undefined): Promise<Uint8Array<ArrayBuffer>>;
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
    version: blob instanceof File ? `modified ${blob.lastModified}` : undefined,
    async read(offset, length) {
      const end = Math.min(blob.size, offset + length);
      if (offset >= end) return new Uint8Array(0);
      const no = Math.floor(offset / BLOCK_BYTES);
      if (Math.floor((end - 1) / BLOCK_BYTES) !== no) return slice(offset, end);
      const base = no * BLOCK_BYTES;
      return (await block(no)).subarray(offset - base, end - base);
    },
    readInto(offset, length, buffer) {
      const end = Math.min(blob.size, offset + length);
      const bytes = Math.max(0, end - offset);
      return streamInto(blob.slice(offset, offset + bytes), scratchBuffer(buffer, bytes));
    },
  };
}

/**
 * Read buffers reused from one large read to the next (see ByteSource.readInto), for readers that
 * let go of a read's bytes before long. Reads that overlap each take their own buffer.
 */
export class ReadBuffers {
  readonly #free: ArrayBuffer[] = [];
  /** The buffers handed out by read(): only those come back. */
  readonly #ours = new WeakSet<ArrayBuffer>();

  constructor(private readonly kept: number) {}

  /** Reads a range into a free buffer (a plain read where the source cannot); give() its bytes back when done. */
  async read(source: ByteSource, offset: number, length: number): Promise<Uint8Array> {
    if (!source.readInto) return source.read(offset, length);
    const bytes = await source.readInto(offset, length, this.#free.pop());
    this.#ours.add(bytes.buffer);
    return bytes;
  }

  /** Takes back the buffer of `bytes` from read(): nothing may read a view of it any more. */
  give(bytes: Uint8Array): void {
    const buffer = bytes.buffer as ArrayBuffer;
    if (this.#ours.delete(buffer) && this.#free.length < this.kept) this.#free.push(buffer);
  }
}

/** This realm's (worker's) read buffers: any source's reads can use them. */
export const readBuffers = new ReadBuffers(2);

/**
 * Reads `count` ranges of `source` one after another (`range(k)` gives the k-th as [offset, length])
 * into this realm's reused read buffers, the next while the caller looks at the current one (a Blob
 * read is mostly waiting on the browser): two reads in flight, into the two buffers a worker keeps
 * (deeper measured no faster for the row count).
 * Each range's bytes are valid until the next is asked for, when their buffer goes back; stopped
 * early, a read still under way gives its buffer back when it ends.
 */
export async function* readAhead(source: ByteSource, count: number, range: (k: number) => [number, number]): AsyncGenerator<Uint8Array> {
  const read = (k: number): Promise<Uint8Array> => readBuffers.read(source, ...range(k));
  let next = count > 0 ? read(0) : null;
  try {
    for (let k = 0; next; k++) {
      const current = next;
      next = k + 1 < count ? read(k + 1) : null;
      const bytes = await current;
      try {
        yield bytes;
      } finally {
        readBuffers.give(bytes);
      }
    }
  } finally {
    next?.then((bytes) => readBuffers.give(bytes), () => undefined);
  }
}

/** A buffer of at least `length` bytes: `buffer` when it is one. */
export function scratchBuffer(buffer: ArrayBuffer | undefined, length: number): ArrayBuffer {
  return buffer && buffer.byteLength >= length ? buffer : new ArrayBuffer(length);
}

/**
 * Blob streams being read, held here until their read ends. Chromium can collect a Blob's stream
 * while a read of it is pending when nothing else refers to it, and that read then never ends: an
 * export whose worker allocated a lot meanwhile saw some of its reads stall for good.
 */
const reading = new Set<ReadableStreamBYOBReader>();

/** Reads `blob` whole into `buffer` with a BYOB stream reader (no copy, and no allocation). */
async function streamInto(blob: Blob, buffer: ArrayBuffer): Promise<Uint8Array<ArrayBuffer>> {
  const reader = blob.stream().getReader({ mode: 'byob' });
  reading.add(reader);
  let at = 0;
  try {
    while (at < blob.size) {
      const { done, value } = await reader.read(new Uint8Array(buffer, at, blob.size - at));
      if (value) {
        buffer = value.buffer;
        at += value.length;
      }
      if (done) break;
    }
  } finally {
    reading.delete(reader);
    // Closed, not just let go: the browser's read of the Blob ends now, not when it is collected.
    await reader.cancel();
  }
  return new Uint8Array(buffer, 0, at);
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
