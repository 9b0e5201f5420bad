/**
 * The CLI's `--page-map`: a line per page of the file (number, state, type, index id, level,
 * records, fill, LSN) from the summary's scan with its page map filled (page-map.ts), as an aligned
 * table or, with `--format ndjson`, a JSON object per page. The totals per state go to stderr.
 */
import { PAGE_STATES, PageMap, PageState, type PageMapEntry } from '../core/readers/page-map.ts';
import { summarize } from '../core/readers/summary.ts';
import type { EncryptionKeys } from '../core/tablespace/encryption.ts';
import type { ByteSource } from '../core/tablespace/source.ts';

/** Writes text to the output, with backpressure (a promise to wait for, or nothing). */
export type WriteText = (text: string) => Promise<void> | undefined;

/** Lines per write. */
const LINES_PER_CHUNK = 2000;

const COLUMNS = ['page', 'state', 'type', 'index', 'level', 'records', 'fill', 'lsn'];
const WIDTHS = [8, 13, 18, 8, 6, 8, 7, 0];

function textLine(cells: readonly string[]): string {
  return `${cells.map((c, i) => (i === 1 || i === 2 ? c.padEnd(WIDTHS[i]) : c.padStart(WIDTHS[i]))).join(' ').trimEnd()}\n`;
}

function textOf(e: PageMapEntry): string {
  const dash = (v: number | string | null) => (v === null ? '-' : String(v));
  return textLine([String(e.page), e.state, dash(e.typeName), dash(e.indexId), dash(e.level), dash(e.records), e.fill === null ? '-' : `${(100 * e.fill).toFixed(1)}%`, dash(e.lsn)]);
}

function jsonOf(e: PageMapEntry): string {
  return `${JSON.stringify(e)}\n`;
}

/** The map's pages, LINES_PER_CHUNK lines at a time. */
function* chunks(map: PageMap, line: (e: PageMapEntry) => string): Generator<string> {
  for (let first = 0; first < map.pages; first += LINES_PER_CHUNK) {
    let text = '';
    for (let no = first; no < Math.min(map.pages, first + LINES_PER_CHUNK); no++) text += line(map.entry(no));
    yield text;
  }
}

/** Writes the page map of `source`; the exit status: 2 when pages are damaged, unreadable or missing, else 0. */
export async function writePageMap(source: ByteSource, ndjson: boolean, keys: EncryptionKeys, write: WriteText): Promise<number> {
  const map = new PageMap();
  const summary = await summarize(source, { pageMap: map, keys });
  if (!ndjson) await write(textLine(COLUMNS));
  for (const text of chunks(map, ndjson ? jsonOf : textOf)) await write(text);
  const totals = map.totals();
  const states = PAGE_STATES.map((name, i) => [name, totals.states[i]] as const).filter(([, n]) => n > 0);
  process.stderr.write(`${source.name}: ${map.pages} pages (${map.pageSize / 1024} KB): ${states.map(([name, n]) => `${n} ${name}`).join(', ')}\n`);
  for (const p of [summary.spaceHeader, summary.truncation?.message, ...summary.problems]) if (p) process.stderr.write(`warning: ${source.name}: ${p}\n`);
  const damaged = totals.states[PageState.CHECKSUM_BAD] + totals.states[PageState.UNREADABLE] + totals.states[PageState.MISSING];
  // Flags that disagree with the pages withhold nothing (the pages are read as they are, as the rows are): said, exit status 0.
  return damaged > 0 || summary.problems.length > 0 || summary.page0Damaged ? 2 : 0;
}
