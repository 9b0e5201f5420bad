/**
 * A page's bytes as a hex dump with a legend, for the CLI's `--page N`: 16 bytes a line (offsets in
 * decimal, as the inspector gives every offset), then a letter per byte saying which structure
 * holds it (the innermost of the inspector's byte ranges), the bytes as ASCII, and the labels of the
 * ranges that start on the line. Runs of lines alike (free space, zeros) are cut to one `*`, as
 * hexdump -C does.
 */
import type { ByteRange, RangeKind } from '../core/readers/page-inspection.ts';

const LETTERS: Record<RangeKind, [string, string]> = {
  'fil-header': ['F', 'FIL header'],
  'page-header': ['P', 'page header'],
  'fseg-header': ['S', 'file segment header'],
  'system-record': ['I', 'infimum / supremum'],
  'record-header': ['h', 'record header (and null bits, lengths)'],
  record: ['r', 'record data'],
  'free-record-header': ['x', 'deleted record header'],
  'free-record': ['d', 'deleted record data'],
  'free-space': ['.', 'free space'],
  directory: ['D', 'page directory'],
  'fsp-header': ['H', 'FSP header'],
  'inode-entry': ['N', 'INODE entry'],
  'blob-header': ['B', 'BLOB header'],
  'fil-trailer': ['T', 'FIL trailer'],
};

/** The legend of the letters used in `ranges`. */
export function legend(ranges: readonly ByteRange[]): string {
  const kinds = new Set(ranges.map((r) => r.kind));
  return (Object.keys(LETTERS) as RangeKind[]).filter((k) => kinds.has(k)).map((k) => `${LETTERS[k][0]} ${LETTERS[k][1]}`).join(', ');
}

/** A letter per byte: the innermost (shortest) range over it, a space where none is. */
function letters(size: number, ranges: readonly ByteRange[]): string[] {
  const out = new Array<string>(size).fill(' ');
  const owner = new Int32Array(size).fill(0x7fffffff);
  for (const r of ranges) {
    const length = r.end - r.start;
    for (let i = Math.max(0, r.start); i < Math.min(size, r.end); i++) {
      if (length > owner[i]) continue;
      owner[i] = length;
      out[i] = LETTERS[r.kind][0];
    }
  }
  return out;
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const ascii = (b: number) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.');

export function hexDump(bytes: Uint8Array, ranges: readonly ByteRange[]): string {
  const kinds = letters(bytes.length, ranges);
  const starts = new Map<number, string[]>();
  for (const r of ranges) {
    const line = r.start - (r.start % 16);
    starts.set(line, [...(starts.get(line) ?? []), `${r.start}: ${r.label}`]);
  }
  const lines: string[] = [];
  let previous = '';
  let skipping = false;
  for (let at = 0; at < bytes.length; at += 16) {
    const row = Array.from(bytes.subarray(at, at + 16));
    const body = `${row.map((b) => hex(b, 2)).join(' ')}  ${kinds.slice(at, at + 16).join('')}`;
    const labels = starts.get(at);
    if (body === previous && labels === undefined && at + 16 < bytes.length) {
      if (!skipping) lines.push('*');
      skipping = true;
      continue;
    }
    skipping = false;
    previous = body;
    lines.push(`${String(at).padStart(5)}  ${body}  |${row.map(ascii).join('')}|${labels ? `  ${labels.join('; ')}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
