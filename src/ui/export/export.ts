/**
 * Where an export goes. The export itself (decoding the file again and formatting CSV / NDJSON / SQL)
 * runs in the workers of its own pool (workers/viewer-methods.ts, `exportLeaves`), which hand over
 * each run as a Blob (its bytes already in the browser's blob store, not in the page); a SaveTarget
 * writes them:
 *
 *  - `pickSaveFile`: the File System Access API (`showSaveFilePicker`, Chromium browsers): each
 *    chunk is written to the chosen file as it comes, so a 20 GB export never sits in memory. Cancel
 *    aborts the write and the browser discards the partial file.
 *  - `streamTarget`: a download the browser writes as the chunks come, served by the page's service
 *    worker (src/sw/download-stream.ts): nothing is kept, and the file is complete when the export
 *    is. Where no service worker controls the page (the very first visit, a browser without them):
 *  - `downloadTarget`: the chunks are kept (browsers keep Blob data outside the page's heap, on disk
 *    when large) and the file is offered as one Blob made of those parts when the export is done.
 */

export type { ExportFormat } from '../../../workers/viewer-api.ts';
import type { ExportFormat } from '../../../workers/viewer-api.ts';
import { DOWNLOAD_PATH, type DownloadMessage, type DownloadReply, type DownloadStart } from '../../sw/download-stream.ts';

export interface SaveTarget {
  readonly kind: 'file' | 'stream' | 'download';
  readonly fileName: string;
  /**
   * A chunk of the output: a Blob made in a worker (its bytes already in the browser's blob store),
   * or, for a stream, bytes (handed on, so no longer the caller's).
   */
  write(chunk: Blob | Uint8Array<ArrayBuffer>): Promise<void>;
  /** A buffer of a chunk written before, given back for the bytes of a later one (a stream's only). */
  spare?(): ArrayBuffer | undefined;
  /** Completes the file (or starts the download). */
  finish(): Promise<void>;
  /** Drops what was written. */
  abort(): Promise<void>;
}

export const FORMAT_INFO: Record<ExportFormat, { label: string; extension: string; mime: string; description: string }> = {
  csv: { label: 'CSV', extension: 'csv', mime: 'text/csv', description: 'CSV file' },
  ndjson: { label: 'NDJSON', extension: 'ndjson', mime: 'application/x-ndjson', description: 'Newline-delimited JSON' },
  sql: { label: 'SQL', extension: 'sql', mime: 'application/sql', description: 'SQL script' },
  parquet: { label: 'Parquet', extension: 'parquet', mime: 'application/vnd.apache.parquet', description: 'Apache Parquet file' },
};

/** A file-name-safe stem from a table name. */
export function exportFileName(table: string, format: ExportFormat): string {
  let stem = '';
  for (const ch of table) stem += ch < ' ' || '\\/:*?"<>|'.includes(ch) ? '_' : ch;
  stem = stem.trim() || 'table';
  return `${stem}.${FORMAT_INFO[format].extension}`;
}

interface SaveFilePickerOptions {
  suggestedName?: string;
  types?: { description: string; accept: Record<string, string[]> }[];
}
type ShowSaveFilePicker = (options?: SaveFilePickerOptions) => Promise<FileSystemFileHandle>;

function picker(): ShowSaveFilePicker | null {
  const fn = (globalThis as { showSaveFilePicker?: ShowSaveFilePicker }).showSaveFilePicker;
  return typeof fn === 'function' ? fn.bind(globalThis) : null;
}

/** True where exports can stream straight into a file the user picks. */
export function canPickSaveFile(): boolean {
  return picker() !== null;
}

/**
 * Asks where to save (must be called from a click). Null when the user closed the dialog.
 * Throws when the browser refuses (e.g. a sandboxed frame).
 */
export async function pickSaveFile(fileName: string, format: ExportFormat): Promise<SaveTarget | null> {
  const show = picker();
  if (!show) throw new Error('This browser cannot save straight to a file.');
  const info = FORMAT_INFO[format];
  let handle: FileSystemFileHandle;
  try {
    handle = await show({
      suggestedName: fileName,
      types: [{ description: info.description, accept: { [info.mime]: [`.${info.extension}`] } }],
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') return null;
    throw err;
  }
  const writable = await handle.createWritable();
  let closed = false;
  return {
    kind: 'file',
    fileName: handle.name,
    write: (chunk) => writable.write(chunk),
    async finish() {
      closed = true;
      await writable.close();
    },
    async abort() {
      if (closed) return;
      closed = true;
      await writable.abort().catch(() => undefined);
    },
  };
}

/** Given-back buffers kept for later chunks (more come back than runs start while the stream catches up). */
const MAX_SPARES = 4;
/** How long the service worker has to answer before the export falls back to a Blob download. */
const STREAM_READY_MS = 2000;
/** Messages to the service worker while a download streams (an idle worker may be stopped after 30 s). */
const KEEP_ALIVE_MS = 10_000;

/**
 * A download written as the chunks come, through the service worker that controls the page; null
 * when none does or it does not answer. `onCancel`: the user cancelled the download in the browser.
 */
export async function streamTarget(fileName: string, format: ExportFormat, onCancel: () => void): Promise<SaveTarget | null> {
  const worker = typeof navigator !== 'undefined' ? navigator.serviceWorker?.controller : null;
  if (!worker) return null;
  const { port1: port, port2 } = new MessageChannel();
  // Chunks the stream has asked for and not yet had; a write waits for one.
  let wanted = 0;
  // Buffers of written chunks the worker has copied and given back.
  const spares: ArrayBuffer[] = [];
  let cancelled = false;
  let wake: (() => void) | null = null;
  const ready = new Promise<boolean>((resolve) => {
    port.onmessage = (e: MessageEvent<DownloadReply>) => {
      if (typeof e.data === 'object') {
        if (spares.length < MAX_SPARES) spares.push(e.data.spare);
        return;
      }
      if (e.data === 'ready') resolve(true);
      else if (e.data === 'pull') wanted++;
      else {
        cancelled = true;
        onCancel();
      }
      wake?.();
    };
    setTimeout(() => resolve(false), STREAM_READY_MS);
  });
  const id = crypto.randomUUID();
  const start: DownloadStart = { type: 'download-stream', id, fileName, mime: `${FORMAT_INFO[format].mime};charset=utf-8` };
  worker.postMessage(start, [port2]);
  if (!(await ready)) {
    port.close();
    return null;
  }
  // The frame's request is answered with the stream, as an attachment: the browser saves it.
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.src = `${DOWNLOAD_PATH}${id}/${encodeURIComponent(fileName)}`;
  document.body.append(frame);
  const keepAlive = setInterval(() => worker.postMessage({ type: 'keep-alive' }), KEEP_ALIVE_MS);
  let closed = false;
  const close = (last: DownloadMessage) => {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    port.postMessage(last);
    port.close();
    // The browser has the download by now; the frame only carried its request.
    setTimeout(() => frame.remove(), KEEP_ALIVE_MS);
  };
  return {
    kind: 'stream',
    fileName,
    async write(chunk) {
      const bytes = chunk instanceof Blob ? new Uint8Array(await chunk.arrayBuffer()) : chunk;
      while (wanted === 0 && !cancelled) await new Promise<void>((resolve) => (wake = resolve));
      if (cancelled) throw new Error('The download was cancelled in the browser.');
      wanted--;
      port.postMessage({ chunk: bytes } satisfies DownloadMessage, [bytes.buffer]);
    },
    spare: () => spares.pop(),
    finish() {
      close({ end: true });
      return Promise.resolve();
    },
    abort() {
      close({ abort: 'The export was cancelled.' });
      return Promise.resolve();
    },
  };
}

/** Collects the chunks as Blob parts and downloads them as one file at the end. */
export function downloadTarget(fileName: string, format: ExportFormat): SaveTarget {
  let parts: BlobPart[] = [];
  return {
    kind: 'download',
    fileName,
    write(chunk) {
      parts.push(chunk);
      return Promise.resolve();
    },
    finish() {
      const blob = new Blob(parts, { type: `${FORMAT_INFO[format].mime};charset=utf-8` });
      parts = [];
      saveBlob(blob, fileName);
      return Promise.resolve();
    },
    abort() {
      parts = [];
      return Promise.resolve();
    },
  };
}

/** Saves a Blob through a temporary link (no server involved). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoking at once can cancel the save in some browsers; a minute is plenty.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
