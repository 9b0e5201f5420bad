/**
 * The checks the page inspector makes of an INDEX page, each problem with the bytes it refuses, for
 * a hex view to single them out: the record list walks to the supremum (else the next pointer that
 * leads out of the page or round in a loop), it holds PAGE_N_RECS records, the page directory
 * matches the list (page0page.cc: slot 0 owns the infimum alone, the last slot is the supremum's,
 * each slot points further along the list than the one before and its record's n_owned counts the
 * records since), and what the leaf decoder refused of a record (the field whose value check failed).
 */
import { FIL_PAGE_END_LSN_OLD_CHKSUM } from '../pages/fil-header.ts';
import { PAGE_HEADER, PAGE_N_RECS } from '../pages/index-page.ts';
import type { IndexPageFields } from '../pages/index-page-fields.ts';
import type { Problem } from './decode-stats.ts';
import { problem, type ByteSpan, type IndexPageInspection, type InspectedRecord, type InspectProblem } from './page-inspection.ts';

/** The next-record pointer: the 2 bytes before a record's origin. */
const NEXT_SIZE = 2;
const SLOT_SIZE = 2;
/** Directory complaints spelt out in a problem; the bytes of all of them are refused. */
const SPELT_OUT = 3;

/** The record list walks, and holds PAGE_N_RECS records. */
export function listProblems(records: readonly InspectedRecord[], listDamage: string | null, h: IndexPageFields): InspectProblem[] {
  const listed = records.filter((r) => r.reached === 'list').length;
  if (listDamage !== null) {
    // records: the infimum, then the list: the last record reached is the infimum for an empty list.
    const last = records[listed];
    return [problem(`the record list is broken: ${listDamage}`, { start: last.origin - NEXT_SIZE, end: last.origin })];
  }
  if (listed === h.nRecs) return [];
  return [problem(`PAGE_N_RECS counts ${h.nRecs} records, the record list holds ${listed}`, { start: PAGE_HEADER + PAGE_N_RECS, end: PAGE_HEADER + PAGE_N_RECS + 2 })];
}

/** The n_owned nibble's byte of the record at `origin`. */
const nOwnedByte = (origin: number, compact: boolean) => origin - (compact ? 5 : 6);

/** The page directory against a record list that walks (`records`: infimum, the list, supremum, the free list). */
export function directoryProblems(size: number, records: readonly InspectedRecord[], directory: IndexPageInspection['directory'], compact: boolean): InspectProblem[] {
  const position = new Map<number, number>();
  for (const r of records) if (r.reached !== 'free') position.set(r.origin, position.size);
  const supremum = position.size - 1;
  const said: string[] = [];
  const bytes: ByteSpan[] = [];
  let before = -1;
  for (const d of directory) {
    const slotAt = size - FIL_PAGE_END_LSN_OLD_CHKSUM - SLOT_SIZE * (d.slot + 1);
    const at = position.get(d.offset);
    const last = d.slot === directory.length - 1;
    let why: string | null = null;
    if (at === undefined) why = `points at ${d.offset}, no record of the list`;
    else if (at <= before) why = `points at ${d.offset}, not after the record of slot ${d.slot - 1}`;
    else if (d.slot === 0 && at !== 0) why = `points at ${d.offset}, not the infimum`;
    else if (last && at !== supremum) why = `is the last and points at ${d.offset}, not the supremum`;
    if (why !== null) {
      said.push(`slot ${d.slot} ${why}`);
      bytes.push({ start: slotAt, end: slotAt + SLOT_SIZE });
      continue;
    }
    const owns = (at as number) - before;
    if (d.owned !== owns) {
      said.push(`slot ${d.slot}'s record at ${d.offset} owns ${d.owned} records, its group has ${owns}`);
      bytes.push({ start: nOwnedByte(d.offset, compact), end: nOwnedByte(d.offset, compact) + 1 });
    }
    before = at as number;
  }
  if (said.length === 0) return [];
  const more = said.length > SPELT_OUT ? ` (and ${said.length - SPELT_OUT} more)` : '';
  return [problem(`the page directory does not match the record list: ${said.slice(0, SPELT_OUT).join('; ')}${more}`, ...bytes)];
}

/** The bytes of a record the decoder refused: the field whose value check failed, else its header (and data, where known). */
function recordBytes(r: InspectedRecord): ByteSpan {
  return r.errorField ?? { start: r.start ?? r.origin - r.header.size, end: r.end ?? r.origin };
}

/**
 * What the leaf decoder's reading of the page found (its problems), and the records of the list
 * whose values fail their checks when read one by one (a page whose checksum holds is decoded without
 * them, so only these show it) up to the first record the decoder refused, each with the record's
 * refused bytes.
 */
export function recordProblems(records: readonly InspectedRecord[], decoded: readonly Problem[]): InspectProblem[] {
  const byOrigin = new Map(records.filter((r) => r.reached !== 'system').map((r) => [r.origin, r]));
  const out = decoded.map((p) => {
    const r = p.record !== null ? byOrigin.get(p.record) : undefined;
    return problem(`${p.record !== null ? `record at ${p.record}: ` : ''}${p.message}`, ...(r ? [recordBytes(r)] : []));
  });
  const named = new Set(decoded.map((p) => p.record));
  for (const r of records) {
    if (r.reached !== 'list') continue;
    // Past a record the decoder refused, the list's pointers lead anywhere (it follows them no further).
    if (named.has(r.origin)) break;
    if (r.errorField !== null) out.push(problem(`record at ${r.origin}: ${r.error}`, r.errorField));
  }
  return out;
}
