/**
 * One output file of `ibd-reader DIR -o OUTDIR` (datadir.ts). Most of a datadir's tables are small
 * (the seed's 50,000 of one row each): their output is kept in memory and written with one call when
 * the table ends, as a write stream costs an open, a write and a close on the thread pool and some
 * thirty event handlers for each (a third of the main thread's time at 50,000 tables). A table whose
 * output outgrows SMALL_OUTPUT is streamed from there on. Folders are made once each. On a worker
 * thread (datadir-worker.ts) the output held whole is handed to the main thread, which writes it: two
 * threads creating files in one folder at once spent most of their time in the kernel's open (5,000
 * files: 7 s of each worker's 17).
 */
import { createWriteStream, mkdirSync, writeFileSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

/** Bytes of output held before a table's file is opened as a stream; the memory it costs is this times the tables in flight. */
const SMALL_OUTPUT = 1 << 18;

export type ChunkWrite = (chunk: string | Uint8Array, done?: () => void) => Promise<void> | undefined;

/** Where the output of a table held whole goes when the table ends. */
type Held = (path: string, bytes: Uint8Array) => void;

export class TableFiles {
  private readonly folders = new Set<string>();

  /** `held`: where each output held whole goes (to the main thread); without it, to its file. */
  constructor(private readonly held: Held = (path, bytes) => writeFileSync(path, bytes)) {}

  /** Runs `body` with a write into a new file at `path` (its folder made), closed after. */
  async with<T>(path: string, body: (write: ChunkWrite) => Promise<T>): Promise<T> {
    this.folder(path);
    const file = new TableFile(path, this.held);
    try {
      return await body(file.write);
    } finally {
      await file.end();
    }
  }

  /** A table's output held whole by a worker thread, written to its file. */
  put(path: string, bytes: Uint8Array): void {
    this.folder(path);
    writeFileSync(path, bytes);
  }

  private folder(path: string): void {
    const folder = dirname(path);
    if (this.folders.has(folder)) return;
    mkdirSync(folder, { recursive: true });
    this.folders.add(folder);
  }
}

class TableFile {
  private chunks: Buffer[] = [];
  private size = 0;
  private stream: WriteStream | null = null;

  constructor(private readonly path: string, private readonly whole: Held) {}

  /** `done`: told once the chunk is written (or copied), so its buffer may serve again (RowsOut.write). */
  readonly write: ChunkWrite = (chunk, done) => {
    if (this.stream === null) {
      // Copied: the caller may reuse its buffer once told.
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
      this.chunks.push(bytes);
      this.size += bytes.length;
      done?.();
      if (this.size <= SMALL_OUTPUT) return undefined;
      this.stream = createWriteStream(this.path);
      return this.pass(Buffer.concat(this.chunks), undefined);
    }
    return this.pass(chunk, done);
  };

  private pass(chunk: string | Uint8Array, done: (() => void) | undefined): Promise<void> | undefined {
    const stream = this.stream as WriteStream;
    this.chunks = [];
    return stream.write(chunk, done && (() => done())) ? undefined : new Promise<void>((resolve) => stream.once('drain', resolve));
  }

  async end(): Promise<void> {
    const stream = this.stream;
    if (stream === null) {
      this.whole(this.path, this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks));
      this.chunks = [];
      return;
    }
    await new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.end(resolve);
    });
  }
}
