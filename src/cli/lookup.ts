/**
 * The CLI's `--key VALUE` and `--from A --to B`: the rows of a key, or of a key range (inclusive,
 * either end open), looked up through the B-tree of the primary key or of the index `--index` names
 * (InnodbTable.lookup), reading only the pages on the path. A composite key is given as its parts
 * separated by commas (`\,` for a comma in a part, `\\` for a backslash); fewer parts than the key
 * has match every key that begins with them. The rows go out as CSV or NDJSON; how the answer was
 * found, where it is not the plain search, is said on stderr (a note per line), with the pages read.
 */
import { anythingAmiss } from '../core/readers/decode-stats.ts';
import type { DecodeStats, KeyRange } from '../core/readers/table-reader.ts';
import { csvBytes } from '../core/writers/csv-bytes.ts';
import { csvHeader, ndjsonOf } from '../core/writers/output.ts';
import { batchRows } from '../core/values/row-batch.ts';
import type { InnodbTable } from '../lib/innodb-table.ts';
import { problemLine } from './problem-lines.ts';
import type { BatchFilter } from '../core/readers/where.ts';
import { whereLine } from './where-option.ts';

/** Writes to the output, with backpressure (a promise to wait for, or nothing). */
export type WriteOut = (chunk: string | Uint8Array) => Promise<void> | undefined;

/** The parts of a key given on the command line: split at unescaped commas. */
export function keyParts(text: string): string[] {
  const parts: string[] = [];
  let part = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length) part += text[++i];
    else if (ch === ',') {
      parts.push(part);
      part = '';
    } else part += ch;
  }
  parts.push(part);
  return parts;
}

/** The range of --key (both ends the key) or --from/--to, or null when none of them is given. */
export function keyRange(key: string | null, from: string | null, to: string | null): KeyRange | null {
  if (key !== null) return { from: keyParts(key), to: keyParts(key) };
  if (from === null && to === null) return null;
  return { from: from === null ? null : keyParts(from), to: to === null ? null : keyParts(to) };
}

export interface LookupOutput {
  format: 'csv' | 'ndjson';
  /** --json-strings: every NDJSON value a string. */
  jsonStrings: boolean;
  /** --count: the number of rows found instead of the rows. */
  count: boolean;
  /** --where: the rows found that it keeps (where-option.ts). */
  keep?: BatchFilter;
  write: WriteOut;
  /** A line on stderr. */
  say(line: string): void;
}

/** Looks `range` up in `table` and writes what it finds; the exit status (2 when a page read was damaged or skipped). */
export async function writeLookup(table: InnodbTable, range: KeyRange, out: LookupOutput): Promise<number> {
  const lookup = await table.lookup(range);
  const { columns } = table;
  let rows = 0;
  if (!out.count && out.format === 'csv') await out.write(csvHeader(columns));
  let found = 0;
  for await (const read of lookup.batches()) {
    found += read.rows;
    const batch = out.keep === undefined ? read : out.keep(read);
    rows += batch.rows;
    if (!out.count) await out.write(out.format === 'csv' ? csvBytes(batch) : ndjsonOf(table.definition, columns, batchRows(batch), { strings: out.jsonStrings }));
  }
  if (out.count) await out.write(`${rows}\n`);
  for (const note of lookup.notes) out.say(`note: ${note}`);
  const s = table.stats;
  const levels = table.info.treeHeight;
  if (out.keep !== undefined) out.say(whereLine(table.info.file, rows, found));
  out.say(`${table.info.file}: ${rows} rows by key; ${lookup.path.length} pages read (a B-tree of ${levels} level${levels === 1 ? '' : 's'}, ${s.pagesRead} leaf pages decoded)`);
  for (const p of s.problems) out.say(`warning: ${problemLine(table.info.file, p)}`);
  const missing = lookupDamage(table.info.file, s);
  if (missing !== null) out.say(`warning: ${missing}`);
  return anythingAmiss(s) ? 2 : 0;
}

/**
 * What a lookup could not read of the leaves its range reaches, said plainly: a key not found there
 * is not a key absent from the table. Null when every leaf read was whole.
 */
export function lookupDamage(file: string, s: DecodeStats): string | null {
  if (s.pagesSkipped + s.damagedPages === 0) return null;
  const withheld = s.damagedWithheld > 0 ? ` (${s.damagedWithheld} of their rows withheld: --rows damaged shows them)` : '';
  return `${file}: of the leaf pages the key's range reaches, ${s.pagesSkipped} could not be read and ${s.damagedPages} are damaged${withheld}: rows of these keys may be missing from this answer`;
}
