/**
 * Where an export goes. The export itself (decoding the file again and formatting CSV / NDJSON / SQL)
 * runs in the workers of its own pool (workers/viewer-methods.ts, `exportLeaves`), which hand over
 * each run as a Blob (its bytes already in the browser's blob store, not in the page); a SaveTarget
 * writes them:
 *
 *  - `pickSaveFile`: the File System Access API (`showSaveFilePicker`, Chromium browsers): each
 *    chunk is written to the chosen file as it comes, so a 20 GB export never sits in memory. Cancel
 *    aborts the write and the browser discards the partial file.
 *  - `downloadTarget`: elsewhere, the chunks are kept (browsers keep Blob data outside the page's
 *    heap, on disk when large) and the file is offered as one Blob made of those parts when the
 *    export is done.
 */

export type { ExportFormat } from '../../workers/viewer-api.ts';
import type { ExportFormat } from '../../workers/viewer-api.ts';

export interface SaveTarget {
  readonly kind: 'file' | 'download';
  readonly fileName: string;
  /** A chunk of the output (made in a worker: its bytes are already in the browser's blob store). */
  write(chunk: Blob): Promise<void>;
  /** Completes the file (or starts the download). */
  finish(): Promise<void>;
  /** Drops what was written. */
  abort(): Promise<void>;
}

export const FORMAT_INFO: Record<ExportFormat, { label: string; extension: string; mime: string; description: string }> = {
  csv: { label: 'CSV', extension: 'csv', mime: 'text/csv', description: 'CSV file' },
  ndjson: { label: 'NDJSON', extension: 'ndjson', mime: 'application/x-ndjson', description: 'Newline-delimited JSON' },
  sql: { label: 'SQL', extension: 'sql', mime: 'application/sql', description: 'SQL script' },
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

/** Collects the chunks as Blob parts and downloads them as one file at the end. */
export function downloadTarget(fileName: string, format: ExportFormat): SaveTarget {
  let parts: Blob[] = [];
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
