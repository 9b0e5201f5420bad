/**
 * The page inspector's hex view, as lines: 16 bytes a line, each line cut into runs of bytes of one
 * structure (the inspection's byte ranges, page-inspection.ts), so that a 16 KiB page is some
 * thousand lines of a few spans each rather than 16,384 elements.
 */
import type { PageInspection } from '../../../workers/decoder-api.ts';

export interface HexRun {
  hex: string;
  text: string;
  /** The range's kind, '' for bytes no structure covers. */
  kind: string;
  label: string;
}

export interface HexLine {
  offset: number;
  runs: HexRun[];
}

const WIDTH = 16;

/** For each byte, the index of the innermost (last given) range covering it, -1 for none. */
function owners(p: PageInspection): Int32Array {
  const own = new Int32Array(p.bytes.length).fill(-1);
  p.ranges.forEach((r, i) => own.fill(i, Math.max(0, r.start), Math.min(p.bytes.length, r.end)));
  return own;
}

const hex2 = (b: number) => b.toString(16).padStart(2, '0');
const printable = (b: number) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.');

export function hexLines(p: PageInspection): HexLine[] {
  const own = owners(p);
  const lines: HexLine[] = [];
  for (let offset = 0; offset < p.bytes.length; offset += WIDTH) {
    const runs: HexRun[] = [];
    const end = Math.min(offset + WIDTH, p.bytes.length);
    for (let at = offset; at < end; ) {
      const o = own[at];
      let stop = at;
      while (stop < end && own[stop] === o) stop++;
      const bytes = Array.from(p.bytes.subarray(at, stop));
      const range = o >= 0 ? p.ranges[o] : null;
      runs.push({ hex: bytes.map(hex2).join(' '), text: bytes.map(printable).join(''), kind: range?.kind ?? '', label: range?.label ?? '' });
      at = stop;
    }
    lines.push({ offset, runs });
  }
  return lines;
}
