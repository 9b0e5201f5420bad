/**
 * The CLI's `--page N`: the page inspector's description of one page (core/readers/page-inspect.ts)
 * as text (its state and problems, the checksums, each structure's fields, the records, the page
 * directory, the decoder's rows and a labelled hex dump) or, with `--format ndjson`, as one JSON
 * object (64-bit numbers as decimal text, the page's bytes as hex).
 */
import { inspectPage, type InspectOptions } from '../core/readers/page-inspect.ts';
import type { ChecksumReport, IndexPageInspection, InspectedRecord, InspectProblem, PageInspection, Section } from '../core/readers/page-inspection.ts';
import type { ByteSource } from '../core/tablespace/source.ts';
import { hexDump, legend } from './hex-dump.ts';
import type { WriteText } from './page-map.ts';

const hex32 = (n: number) => `0x${n.toString(16).padStart(8, '0')}`;
const MAX_VALUE_CHARS = 40;

function sectionText(s: Section): string {
  const rows = s.fields.map((f) => `  ${String(f.offset).padStart(6)} ${String(f.size).padStart(4)}  ${f.name.padEnd(40)} ${String(f.value)}${f.note ? `  (${f.note})` : ''}`);
  return `${s.title}\n  offset size  field\n${rows.join('\n')}\n`;
}

function checksumText(c: ChecksumReport): string {
  const lines = [`checksum: ${c.result} (the reader's verdict${c.damaged === null ? '' : `: ${c.damaged}`})`];
  for (const k of c.checks) {
    const places = k.places.map((p) => `at ${p.offset} stored ${hex32(p.stored)} computed ${hex32(p.computed)}`).join('; ');
    lines.push(`  ${k.algorithm.padEnd(30)} ${places}  ${k.matches ? 'matches' : 'no match'}`);
  }
  if (c.lsnMatches !== null) lines.push(`  the end of the page ${c.lsnMatches ? 'repeats' : 'does NOT repeat'} the low 32 bits of FIL_PAGE_LSN`);
  return `${lines.join('\n')}\n`;
}

function valuesText(values: readonly (string | null)[]): string {
  return values.map((v) => (v === null ? 'NULL' : v.length > MAX_VALUE_CHARS ? `${JSON.stringify(v.slice(0, MAX_VALUE_CHARS))}…` : JSON.stringify(v))).join(', ');
}

function recordText(r: InspectedRecord): string {
  const h = r.header;
  const extent = r.start !== null && r.end !== null ? `${r.start}-${r.end}` : '';
  const what = r.values !== null ? valuesText(r.values) : r.error !== null ? `(${r.error})` : r.childPage !== null ? `child page ${r.childPage}` : '';
  const status = h.nFields !== null ? `${h.nFields} fields` : '';
  return `  ${String(r.origin).padStart(6)} ${String(h.heapNo).padStart(5)}  ${r.reached.padEnd(6)} ${r.kind.padEnd(14)} 0x${h.infoBits.toString(16).padStart(2, '0')} ${r.deleted ? 'deleted' : '       '} ${String(h.nOwned).padStart(5)} ${String(h.next).padStart(6)}  ${status.padEnd(9)} ${extent.padEnd(11)} ${what}`.trimEnd();
}

function indexText(ix: IndexPageInspection): string {
  const listed = ix.records.filter((r) => r.reached === 'list').length;
  const free = ix.records.filter((r) => r.reached === 'free').length;
  const out = [
    `records: ${listed} in the record list (key order)${free > 0 ? `, then ${free} in the free list` : ''}${ix.columns ? `; values: ${ix.columns.join(', ')}` : ''}`,
    '  origin  heap  reached kind           info deleted owned   next  fields    bytes       values / child page',
    ...ix.records.map(recordText),
    `records in heap order (heap no@origin): ${ix.heapOrder.map((i) => `${ix.records[i].header.heapNo}@${ix.records[i].origin}`).join(' ')}`,
    `page directory (slot@record, records owned): ${ix.directory.map((d) => `${d.slot}@${d.offset}(${d.owned ?? '?'})`).join(' ')}`,
  ];
  if (ix.clustered === false) out.push('(a page of a secondary index or of the SDI: its values are not decoded)');
  if (ix.decoded) {
    const states = new Map<string, number>();
    for (const row of ix.decoded.rows) states.set(row[row.length - 1] ?? '', (states.get(row[row.length - 1] ?? '') ?? 0) + 1);
    out.push(`the decoder reads ${ix.decoded.rows.length} rows from this page${states.size > 0 ? `: ${[...states].map(([s, n]) => `${n} ${s}`).join(', ')}` : ''}`);
  }
  return `${out.join('\n')}\n`;
}

/** A problem, with the bytes it refused (first–last offsets, inclusive). */
function problemText(x: InspectProblem): string {
  return x.bytes.length === 0 ? x.message : `${x.message} [bytes ${x.bytes.map((b) => `${b.start}–${b.end - 1}`).join(', ')}]`;
}

export function inspectionText(p: PageInspection): string {
  const parts = [`${p.file}, page ${p.page}: ${p.typeName} (type ${p.type}), ${p.state}\n`];
  if (p.problems.length > 0) parts.push(`problems:\n${p.problems.map((x) => `  - ${problemText(x)}`).join('\n')}\n`);
  if (p.checksum) parts.push(checksumText(p.checksum));
  parts.push(...p.sections.map(sectionText));
  if (p.index) parts.push(indexText(p.index));
  if (p.bytes.length > 0) {
    parts.push(`${p.stored ? 'page image (decrypted / decompressed; the stored bytes differ, see --format ndjson)' : 'bytes'}, legend: ${legend(p.ranges)}\n${hexDump(p.bytes, p.ranges)}`);
  }
  return parts.join('\n');
}

const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

export function inspectionJson(p: PageInspection): string {
  return `${JSON.stringify(p, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? toHex(v) : v))}\n`;
}

/** Writes page `no` of `source` described; the exit status: 2 for a page that is damaged, unreadable or missing, else 0. */
export async function writePageInspection(source: ByteSource, no: number, ndjson: boolean, options: InspectOptions, write: WriteText): Promise<number> {
  const p = await inspectPage(source, no, options);
  await write(ndjson ? inspectionJson(p) : inspectionText(p));
  return p.state === 'checksum-bad' || p.state === 'unreadable' || p.state === 'missing' || p.problems.length > 0 ? 2 : 0;
}
