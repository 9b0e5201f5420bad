/**
 * The page map's colours: what a cell (one page, or a run of pages summed up in a PageBucket) is
 * drawn in for each colour mode, and the legend of each mode. The colours are mid-tones, legible on
 * the light and the dark surface alike; damaged, unreadable, missing and free pages stand out in
 * every mode (a cell holding one is drawn in its state colour before anything else).
 */
import type { PageBucket, PageCells } from '../../../workers/decoder-api.ts';

export type ColourMode = 'state' | 'type' | 'index' | 'level' | 'fill' | 'lsn';

export const COLOUR_MODES: { mode: ColourMode; label: string }[] = [
  { mode: 'state', label: 'State' },
  { mode: 'type', label: 'Page type' },
  { mode: 'index', label: 'Index' },
  { mode: 'level', label: 'Level' },
  { mode: 'fill', label: 'Fill' },
  { mode: 'lsn', label: 'LSN age' },
];

export interface LegendItem {
  colour: string;
  label: string;
}

/** Indexed like PAGE_STATES (page-map.ts). */
const STATE_COLOURS = ['#9aa3ad', '#7fa7c9', '#3f9c5a', '#e0362c', '#c9ced6', '#d9a23b', '#7b4fb5', '#b0186b'];
const STATE_LABELS = ['not read', 'not checked', 'valid', 'damaged (checksum wrong, or page 0 not believed)', 'all zero', 'free', 'missing (past the end)', 'unreadable'];
/** States shown whatever the mode, worst first: a cell holding any of them is drawn so. */
const STANDOUT = [3, 7, 6];
/** The order the other states win a cell in (a run with a free page and valid ones is valid). */
const PLAIN = [2, 1, 5, 4, 0];

const TYPE_COLOURS: Record<string, string> = {
  INDEX: '#2f7fc1',
  SDI: '#8a6fd1',
  RTREE: '#3aa6a6',
  FSP_HDR: '#c2571a',
  XDES: '#d98a3b',
  INODE: '#b8863b',
  IBUF_BITMAP: '#7d8a2e',
  IBUF_FREE_LIST: '#9a9a3a',
  ALLOCATED: '#c9ced6',
  UNDO_LOG: '#a4508b',
  SYS: '#5f6b7a',
  TRX_SYS: '#5f6b7a',
};
const OTHER_TYPE = '#6c8f55';
const INDEX_COLOURS = ['#2f7fc1', '#d9822b', '#3f9c5a', '#a4508b', '#3aa6a6', '#b8863b', '#6f62c9', '#c24d4d'];
const LEVEL_COLOURS = ['#3f9c5a', '#2f7fc1', '#d9822b', '#a4508b', '#c24d4d'];
/** Cells with nothing to show in a mode (no B-tree page, no page read). */
export const NONE = '#b7bec8';

/** A cell's state: a standout one if held, else the first plain state held. */
export function cellState(b: PageBucket): number {
  for (const s of STANDOUT) if (b.states[s] > 0) return s;
  return PLAIN.find((s) => b.states[s] > 0) ?? 0;
}

function most(counts: Record<string, number>): string | null {
  let best: string | null = null;
  for (const [key, n] of Object.entries(counts)) if (best === null || n > counts[best]) best = key;
  return best;
}

/** A blue ramp: 0 pale, 1 deep (legible on both surfaces). */
function ramp(t: number, hue: number): string {
  const x = Math.max(0, Math.min(1, t));
  return `hsl(${hue} 65% ${Math.round(78 - x * 45)}%)`;
}

export const typeColour = (name: string) => TYPE_COLOURS[name] ?? OTHER_TYPE;
export const indexColour = (slot: number) => INDEX_COLOURS[slot % INDEX_COLOURS.length];
export const levelColour = (level: number) => LEVEL_COLOURS[Math.min(level, LEVEL_COLOURS.length - 1)];

/** The LSN range the cells span, for the LSN-age ramp. */
export function lsnSpan(cells: PageCells): { min: number; max: number } {
  let min = Infinity;
  let max = 0;
  for (const c of cells.cells) {
    if (c.maxLsn <= 0) continue;
    min = Math.min(min, c.maxLsn);
    max = Math.max(max, c.maxLsn);
  }
  return { min: min === Infinity ? 0 : min, max };
}

/** The colour of cell `i` in `mode`. */
export function cellColour(cells: PageCells, i: number, mode: ColourMode, span: { min: number; max: number }): string {
  const b = cells.cells[i];
  const state = cellState(b);
  if (mode === 'state' || STANDOUT.includes(state)) return STATE_COLOURS[state];
  if (mode === 'type') {
    const t = most(b.types);
    return t === null ? NONE : typeColour(t);
  }
  if (mode === 'index') {
    const id = most(b.indexes);
    return id === null ? NONE : indexColour(cells.indexIds.indexOf(id));
  }
  if (mode === 'level') return cells.levels[i] < 0 ? NONE : levelColour(cells.levels[i]);
  if (mode === 'fill') return b.fill === null ? NONE : ramp(b.fill, 205);
  if (b.maxLsn <= 0) return NONE;
  return ramp(span.max > span.min ? (b.maxLsn - span.min) / (span.max - span.min) : 1, 28);
}

/** The legend of `mode` for these cells. */
export function legend(cells: PageCells, mode: ColourMode): LegendItem[] {
  const standout = STANDOUT.map((s) => ({ colour: STATE_COLOURS[s], label: STATE_LABELS[s] }));
  if (mode === 'state') return STATE_LABELS.map((label, s) => ({ colour: STATE_COLOURS[s], label }));
  const none = { colour: NONE, label: 'nothing to show' };
  if (mode === 'type') {
    const names = new Set(cells.cells.flatMap((c) => Object.keys(c.types)));
    return [...[...names].map((n) => ({ colour: typeColour(n), label: n })), none, ...standout];
  }
  if (mode === 'index') return [...cells.indexIds.map((id, slot) => ({ colour: indexColour(slot), label: `index ${id}` })), none, ...standout];
  if (mode === 'level') {
    const top = Math.max(0, ...cells.levels);
    return [...Array.from({ length: top + 1 }, (_, l) => ({ colour: levelColour(l), label: l === 0 ? 'level 0 (leaves)' : `level ${l}` })), none, ...standout];
  }
  const hue = mode === 'fill' ? 205 : 28;
  const [lo, hi] = mode === 'fill' ? ['empty', 'full'] : ['oldest LSN', 'newest LSN'];
  return [{ colour: ramp(0, hue), label: lo }, { colour: ramp(0.5, hue), label: 'between' }, { colour: ramp(1, hue), label: hi }, none, ...standout];
}

/** Pages per state name of a bucket, the ones held only, in words. */
export function statesText(b: PageBucket): string {
  return b.states.flatMap((n, s) => (n > 0 ? [`${n} ${STATE_LABELS[s]}`] : [])).join(', ');
}
