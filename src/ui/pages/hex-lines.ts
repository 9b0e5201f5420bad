/**
 * The page inspector's hex view, as lines: 16 bytes a line, each line cut into runs of bytes of one
 * structure (the inspection's byte ranges, page-inspection.ts) and of one problem (the bytes a check
 * refused, the inspection's problems), so that a 16 KiB page is some thousand lines of a few spans
 * each rather than 16,384 elements.
 */
import type { PageInspection } from '../../../workers/decoder-api.ts';

export interface HexRun {
  hex: string;
  text: string;
  /** The range's kind, '' for bytes no structure covers. */
  kind: string;
  label: string;
  /** The problem (its index in the inspection's problems) whose check refused these bytes, -1 for none. */
  refused: number;
}

export interface HexLine {
  offset: number;
  runs: HexRun[];
}

export const HEX_WIDTH = 16;

/** For each byte, the index of the last of `spans` covering it, -1 for none. */
function owners(length: number, spans: readonly { start: number; end: number }[]): Int32Array {
  const own = new Int32Array(length).fill(-1);
  spans.forEach((r, i) => own.fill(i, Math.max(0, r.start), Math.min(length, r.end)));
  return own;
}

/** For each byte, the first problem refusing it, -1 for none. */
function refusals(p: PageInspection): Int32Array {
  const own = new Int32Array(p.bytes.length).fill(-1);
  for (let i = p.problems.length - 1; i >= 0; i--) for (const b of p.problems[i].bytes) own.fill(i, Math.max(0, b.start), Math.min(p.bytes.length, b.end));
  return own;
}

const hex2 = (b: number) => b.toString(16).padStart(2, '0');
const printable = (b: number) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.');

export function hexLines(p: PageInspection): HexLine[] {
  const own = owners(p.bytes.length, p.ranges);
  const refused = refusals(p);
  const lines: HexLine[] = [];
  for (let offset = 0; offset < p.bytes.length; offset += HEX_WIDTH) {
    const runs: HexRun[] = [];
    const end = Math.min(offset + HEX_WIDTH, p.bytes.length);
    for (let at = offset; at < end; ) {
      const o = own[at];
      const r = refused[at];
      let stop = at;
      while (stop < end && own[stop] === o && refused[stop] === r) stop++;
      const bytes = Array.from(p.bytes.subarray(at, stop));
      const range = o >= 0 ? p.ranges[o] : null;
      runs.push({ hex: bytes.map(hex2).join(' '), text: bytes.map(printable).join(''), kind: range?.kind ?? '', label: range?.label ?? '', refused: r });
      at = stop;
    }
    lines.push({ offset, runs });
  }
  return lines;
}
