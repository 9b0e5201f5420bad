/**
 * One output file of `ibd-reader DIR -o OUTDIR` (datadir.ts). Most of a datadir's tables are small
 * (the seed's 50,000 of one row each): their output is kept in memory and written with one call when
 * the table ends, as a write stream costs an open, a write and a close on the thread pool and some
 * thirty event handlers for each (a third of the main thread's time at 50,000 tables). A table whose
 * output outgrows SMALL_OUTPUT is streamed from there on. Folders are made once each.
 */
import { createWriteStream, mkdirSync, writeFileSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';

/** Bytes of output held before a table's file is opened as a stream; the memory it costs is this times the tables in flight. */
const SMALL_OUTPUT = 1 << 18;

export type ChunkWrite = (chunk: string | Uint8Array, done?: () => void) => Promise<void> | undefined;

export class TableFiles {
  private readonly folders = new Set<string>();

  /** Runs `body` with a write into a new file at `path` (its folder made), closed after. */
  async with<T>(path: string, body: (write: ChunkWrite) => Promise<T>): Promise<T> {
    const folder = dirname(path);
    if (!this.folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      this.folders.add(folder);
    }
    const file = new TableFile(path);
    try {
      return await body(file.write);
    } finally {
      await file.end();
    }
  }
}

class TableFile {
  private held: Buffer[] = [];
  private size = 0;
  private stream: WriteStream | null = null;

  constructor(private readonly path: string) {}

  /** `done`: told once the chunk is written (or copied), so its buffer may serve again (RowsOut.write). */
  readonly write: ChunkWrite = (chunk, done) => {
    if (this.stream === null) {
      // Copied: the caller may reuse its buffer once told.
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
      this.held.push(bytes);
      this.size += bytes.length;
      done?.();
      if (this.size <= SMALL_OUTPUT) return undefined;
      this.stream = createWriteStream(this.path);
      return this.pass(Buffer.concat(this.held), undefined);
    }
    return this.pass(chunk, done);
  };

  private pass(chunk: string | Uint8Array, done: (() => void) | undefined): Promise<void> | undefined {
    const stream = this.stream as WriteStream;
    this.held = [];
    return stream.write(chunk, done && (() => done())) ? undefined : new Promise<void>((resolve) => stream.once('drain', resolve));
  }

  async end(): Promise<void> {
    const stream = this.stream;
    if (stream === null) {
      writeFileSync(this.path, this.held.length === 1 ? this.held[0] : Buffer.concat(this.held));
      this.held = [];
      return;
    }
    await new Promise<void>((resolve, reject) => {
      stream.once('error', reject);
      stream.end(resolve);
    });
  }
}
