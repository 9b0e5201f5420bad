/**
 * The table files the main thread reads rolled forward by their datadir's redo log, by path, so that
 * the CLI's worker threads (pool.ts) read the same recovered pages: a worker's reads of such a file
 * are sent to the main thread, which answers them from its recovered source (core/log/
 * recovered-source.ts) and transfers the bytes. The log is applied once, in the main thread, in the
 * order the batches of the apply were made for (neighbouring pages), while the workers decode.
 *
 * Measured on a crashed datadir (525 MB of log after the checkpoint, a 101 MB table, 1.79 M records
 * to 4,753 pages) against each worker applying the log itself from the main thread's scan handed
 * over: there every worker read every 64 MiB batch of the log again (the leaves of one batch go to
 * all workers), 2 threads took 18.9 CPU-s and 1.13 GB against 11.4 CPU-s and 416 MB on 1 thread.
 * Kept by path because every pool of the CLI is started from the paths of the files it reads.
 */
import { resolve } from 'node:path';
import { pagesReplaced } from '../core/log/redo-recovery.ts';
import type { ByteSource } from '../core/tablespace/source.ts';
import { Tablespace } from '../core/tablespace/tablespace.ts';
import type { InnodbFile } from '../lib/innodb-file.ts';

/** A worker's read of the file, sent to the main thread. */
export interface ServedRead {
  read: number;
  offset: number;
  length: number;
}

/** Its answer: the bytes (transferred), or why they could not be read. */
export interface ServedBytes {
  read: number;
  bytes?: Uint8Array;
  error?: string;
}

/** What a worker knows of a file whose reads the main thread serves: what a ByteSource says of itself. */
export interface ServedFile {
  name: string;
  size: number;
  version?: string;
}

/** A recovered tablespace: its source and its physical page size. */
export interface Recovered {
  source: ByteSource;
  physical: number;
}

const files = new Map<string, Recovered>();

/** The key of a tablespace's data files (an ibdata1 may have several). */
const keyOf = (paths: readonly string[]) => paths.map((p) => resolve(p)).join('\0');

/**
 * Registers `source` (the recovered view of the tablespace whose data files are `paths`): until
 * the returned function is called, pools started on those files have their reads served from it.
 */
export function serveRecovered(paths: readonly string[], source: ByteSource, physical: number): () => void {
  const key = keyOf(paths);
  files.set(key, { source, physical });
  return () => void files.delete(key);
}

/**
 * `file` (whose data files are `paths`) served so when the redo log rolled it forward: the
 * unregistering; null when it is not recovered, or its page 0 does not give its page size (it is
 * then read on the main thread alone).
 */
export async function serveRecoveredFile(file: InnodbFile, paths: readonly string[]): Promise<(() => void) | null> {
  if (!pagesReplaced(file.recovery)) return null;
  const ts = await Tablespace.open(file.source).catch(() => null);
  return ts === null ? null : serveRecovered(paths, file.source, ts.physicalSize);
}

/** The recovered source of a pool's files, or undefined when they are read as they are. */
export function servedSource(paths: readonly string[]): Recovered | undefined {
  return files.get(keyOf(paths));
}

/** The 1 MiB chunks (as the tablespace reads them) holding a run's pages: read here in the order runs are handed out, with the run. */
const CHUNK_BYTES = 1 << 20;

/** Bytes of the file from `offset` on, supplied with a run: the worker's reads inside them need no message. */
export interface Supplied {
  offset: number;
  bytes: Uint8Array;
}

/**
 * The chunks of the file holding `pages` (a run of leaves), read from the recovered source when the
 * run is handed to a worker: runs are handed out in key order, so the log's batches (neighbouring
 * pages) are applied one after the other. Reads answered as the workers ask came in their order,
 * two workers a batch apart: each batch was read again and again (67 CPU-s against 10 on one thread).
 */
export async function suppliedChunks(file: Recovered, pages: readonly number[]): Promise<Supplied[]> {
  const chunks = [...new Set(pages.map((no) => Math.floor((no * file.physical) / CHUNK_BYTES)))];
  return Promise.all(chunks.map(async (c) => ({ offset: c * CHUNK_BYTES, bytes: (await file.source.read(c * CHUNK_BYTES, CHUNK_BYTES)).slice() })));
}

/** Answers a worker's read from `source`, the bytes transferred. */
export async function answerRead(source: ByteSource, request: ServedRead, post: (answer: ServedBytes, transfer: ArrayBuffer[]) => void): Promise<void> {
  try {
    const bytes = await source.read(request.offset, request.length);
    // Copied: a read may return a view of a buffer the source keeps (a cached block), which a transfer would take from it.
    const own = bytes.slice();
    post({ read: request.read, bytes: own }, [own.buffer as ArrayBuffer]);
  } catch (e) {
    post({ read: request.read, error: e instanceof Error ? e.message : String(e) }, []);
  }
}

/** A ByteSource in a worker whose reads the main thread serves (answerRead), through `port`. */
export function servedFile(file: ServedFile, port: { postMessage(m: ServedRead): void }): { source: ByteSource; answered(answer: ServedBytes): void; supplied: Set<Supplied> } {
  let next = 0;
  const waiting = new Map<number, { resolve: (b: Uint8Array) => void; reject: (e: Error) => void }>();
  /** The chunks supplied with the runs in progress (the worker adds and removes them). */
  const supplied = new Set<Supplied>();
  const within = (offset: number, length: number) => {
    const end = Math.min(file.size, offset + length);
    for (const s of supplied) if (offset >= s.offset && end <= s.offset + s.bytes.length) return s.bytes.slice(offset - s.offset, end - s.offset);
    return null;
  };
  const source: ByteSource = {
    ...file,
    read: (offset, length) => new Promise((resolve, reject) => {
      const bytes = within(offset, length);
      if (bytes !== null) return resolve(bytes);
      const read = next++;
      waiting.set(read, { resolve, reject });
      port.postMessage({ read, offset, length });
    }),
  };
  const answered = (answer: ServedBytes): void => {
    const w = waiting.get(answer.read);
    waiting.delete(answer.read);
    if (answer.bytes) w?.resolve(answer.bytes);
    else w?.reject(new Error(answer.error ?? 'the read was not answered'));
  };
  return { source, answered, supplied };
}
