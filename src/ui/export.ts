/**
 * Builds the downloads from the rows held by the page. The text is built in chunks, yielding to the
 * event loop between them so the page stays responsive for a million rows, and handed to the browser
 * as a Blob (encoded as UTF-8, no byte-order mark).
 */
import { csvHeader, csvRows, ndjsonRows } from '../core/output.ts';
import type { Row } from '../core/table-reader.ts';

export type ExportFormat = 'csv' | 'ndjson';

const CHUNK_ROWS = 20_000;

const yieldToPage = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

export async function buildExport(
  format: ExportFormat,
  columns: readonly string[],
  rows: readonly Row[],
  onProgress?: (done: number, total: number) => void,
): Promise<Blob> {
  const parts: string[] = [];
  if (format === 'csv') parts.push(csvHeader(columns));
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
    const chunk = rows.slice(i, i + CHUNK_ROWS);
    parts.push(format === 'csv' ? csvRows(chunk) : ndjsonRows(columns, chunk));
    onProgress?.(Math.min(rows.length, i + CHUNK_ROWS), rows.length);
    if (i + CHUNK_ROWS < rows.length) await yieldToPage();
  }
  const type = format === 'csv' ? 'text/csv;charset=utf-8' : 'application/x-ndjson;charset=utf-8';
  return new Blob(parts, { type });
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

/** A file-name-safe stem from a table name. */
export function exportFileName(table: string, format: ExportFormat): string {
  let stem = '';
  for (const ch of table) stem += ch < ' ' || '\\/:*?"<>|'.includes(ch) ? '_' : ch;
  stem = stem.trim() || 'table';
  return `${stem}.${format === 'csv' ? 'csv' : 'ndjson'}`;
}
