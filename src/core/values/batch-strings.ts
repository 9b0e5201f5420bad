/**
 * A RowBatch's text as one string, without one TextDecoder call per cell. In Chromium each decode()
 * call costs microseconds of binding overhead, which for millions of cells is tens of seconds;
 * decoding a batch's whole text once and slicing cells out of the one string is ~100× cheaper. Byte
 * offsets of cells become UTF-16 offsets through a map, built only when the text is not plain ASCII.
 * Used by the page's grid and search (ui/grid/batch-text.ts) and the Parquet writer.
 */
import type { RowBatch } from './row-batch.ts';

export interface BatchText {
  str: string;
  /** UTF-16 offset of every byte offset of the text (length + 1 entries); null when all ASCII. */
  map: Uint32Array | null;
}

// ignoreBOM: a first cell that starts with U+FEFF keeps it (and the offsets stay those of the bytes).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** UTF-16 offsets of every byte offset of `text`, or null when it is all ASCII (then they are equal). */
export function unitOffsets(text: Uint8Array, str: string): Uint32Array | null {
  if (str.length === text.length) return null;
  const map = new Uint32Array(text.length + 1);
  let unit = 0;
  for (let i = 0; i < text.length; i++) {
    map[i] = unit;
    const b = text[i];
    // A lead byte (not 10xxxxxx) starts a character; 4-byte ones are two UTF-16 units.
    if ((b & 0xc0) !== 0x80) unit += b >= 0xf0 ? 2 : 1;
  }
  map[text.length] = unit;
  return map;
}

export function batchText(batch: RowBatch): BatchText {
  const str = decoder.decode(batch.text);
  return { str, map: unitOffsets(batch.text, str) };
}

/** The text at byte offsets [start, end) of the batch's text. */
export function textSlice(bt: BatchText, start: number, end: number): string {
  return bt.map ? bt.str.slice(bt.map[start], bt.map[end]) : bt.str.slice(start, end);
}
