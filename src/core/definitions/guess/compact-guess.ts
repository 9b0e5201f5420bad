/**
 * The COMPACT / DYNAMIC guess: of the structures the heap accepts, the one whose system columns are
 * found in the most records; its fixed bytes placed and cut into a layout whose null bits all find a
 * column; every record cut into fields by that layout, and the row format told by off-page values.
 */
import type { Tablespace } from '../../tablespace/tablespace.ts';
import { assignFillerBits, compactLayout } from './compact-layout.ts';
import type { RowFormat } from './create-table-sql.ts';
import { COMPLETE_RECORDS, placeNullFixed, placeVars, type Placement } from './fixed-placement.ts';
import { placeTogether } from './null-placement.ts';
import { partialGuess } from './partial-guess.ts';
import { joinFixedKey, rawKey } from './raw-key.ts';
import { compactSpans, type LayoutField, type RecordFields } from './record-fields.ts';
import { buildResult, type GuessResult } from './result.ts';
import type { Sample } from './sample.ts';
import { compactRecords, type CRec, type Structure } from './structure.ts';
import { findStructures } from './structure-search.ts';
import { findSystem, leadingNotNull, markRowId, NO_SYSTEM_COLUMNS, uncertainKeyNote, type SystemAt } from './system-columns.ts';

export function compactGuess(sample: Sample, tableName: string, rowFormat: RowFormat): GuessResult {
  let candidates: Structure[];
  try {
    candidates = findStructures(sample);
  } catch (e) {
    // no structure: what needs none (a key of fixed-size columns, the system columns), the rest said uncertain
    const partial = partialGuess(sample, tableName, rowFormat, (e as Error).message);
    if (partial === null) throw e;
    return partial;
  }
  const { s: first, sys } = withSystemColumns(candidates, sample);
  // every clustered record has them: without them the layout cannot be what openTable() reads
  if (sys.t < 0) throw new Error(NO_SYSTEM_COLUMNS);
  const { s, layout, notes, keyCut } = completeLayout([first, ...candidates.filter((c) => c !== first && leadingKey(c) === leadingKey(first))], sys, sample);
  if (sys.score < 0.9) notes.unshift(uncertainKeyNote(Math.round(sys.score * 100)));
  if (s.orderUnproven) notes.push(ORDER_NOTE);
  const records: RecordFields[] = [];
  for (const page of sample.pages) for (const o of page.origins) {
    const spans = compactSpans(page.bytes, o, layout, s.nullBytes);
    if (spans !== null) records.push({ bytes: page.bytes, spans });
  }
  const result = buildResult(tableName, offPageFormat(records) ?? rowFormat, sample.pages.length, layout, records, notes);
  if (keyCut > 0) rawKey(result, sys.t, keyCut);
  return result;
}

/** A structure's field layout, what it leaves unsettled, and how many columns its key was joined from (0: not joined). */
interface LaidOut {
  s: Structure;
  layout: LayoutField[];
  notes: string[];
  keyCut: number;
}

/** What the guess says when the lengths did not settle where some NOT NULL variable fields go among the NULL-able ones. */
const ORDER_NOTE = 'where some NOT NULL variable-length columns sit among the NULL-able ones is not proven by the records\' lengths '
  + '(another order reads them about as well; NULL-able columns were put first): if two such columns\' values look exchanged, swap them';

/** Structures tried for a layout whose null bits all find a column. */
const LAYOUT_TRIES = 16;

/**
 * The field layout of the likeliest structure whose null bits all find a column (with few records,
 * several field orders fit the heap, and only some leave room for the bits never seen set), else of
 * the likeliest one.
 */
function completeLayout(structures: readonly Structure[], sys: SystemAt, sample: Sample): LaidOut {
  let fallback: LaidOut | null = null;
  for (const s of structures.slice(0, LAYOUT_TRIES)) {
    const recs = compactRecords(sample.pages, s);
    const layout = compactLayout(recs, s, placement(recs, s, sys));
    // a key of fixed-size columns only: its bytes are certain, where its columns end is not
    const keyCut = sys.kv === 0 ? joinFixedKey(layout, sys.t) : 0;
    markRowId(layout, recs);
    const notes: string[] = [];
    const complete = assignFillerBits(layout, s.nullBytes, notes);
    if (complete) return { s, layout, notes, keyCut };
    fallback ??= { s, layout, notes, keyCut };
  }
  if (fallback === null) throw new Error('no record structure was found');
  return fallback;
}

/**
 * Where the fields go: by the records with no NULL fixed column when there are enough of them, else
 * all placed together (when that search stays within its bound).
 */
function placement(recs: readonly CRec[], s: Structure, sys: SystemAt): Placement {
  // fewer records than that in all: the plain way, which then reads them all (a one-row table)
  const fewComplete = recs.length >= COMPLETE_RECORDS && recs.filter((r) => r.nullBits.size === 0).length < COMPLETE_RECORDS;
  const together = fewComplete ? placeTogether(recs, s, sys) : null;
  if (together !== null) return together;
  const bounds = placeVars(recs, s, sys);
  return { sys, bounds, nullAt: placeNullFixed(recs, s, sys, bounds) };
}

/** Structures with the same NOT NULL variable fields in front find the system columns in the same place. */
function leadingKey(s: Structure): string {
  return `${s.nullBytes}:${s.vars.slice(0, leadingNotNull(s)).map((v) => (v.big ? 'b' : 's')).join('')}`;
}

/** COMPACT keeps a 768-byte prefix of an off-page value in the record, DYNAMIC only the 20-byte pointer. */
function offPageFormat(records: readonly RecordFields[]): RowFormat | null {
  for (const r of records) for (const sp of r.spans) if (sp.extern) return sp.len > EXTERN_REF ? 'COMPACT' : 'DYNAMIC';
  return null;
}

const EXTERN_REF = 20;

/** Distinct leading fields whose system columns are looked for: at most this many (likeliest first). */
const SYSTEM_TRIES = 64;

/**
 * The structure to build on: of those the heap accepts, the one whose DB_TRX_ID/DB_ROLL_PTR are found
 * in the most records, the likeliest of those. With few records the field order is least certain, and a
 * key of variable-length fields puts the system columns where only the right order finds them.
 */
function withSystemColumns(candidates: readonly Structure[], sample: Sample): { s: Structure; sys: SystemAt } {
  let best: { s: Structure; sys: SystemAt } | null = null;
  const seen = new Set<string>();
  for (const s of candidates) {
    // only the NOT NULL fields in front can be key fields: structures that share them find the same
    const key = leadingKey(s);
    if (seen.has(key)) continue;
    if (seen.size >= SYSTEM_TRIES) break;
    seen.add(key);
    const sys = findSystem(compactRecords(sample.pages, s), s, sample.pageSize);
    if (best === null || sys.score > best.sys.score + 1e-9) best = { s, sys };
  }
  if (best === null) throw new Error('no record structure was found');
  return best;
}

/** Without off-page values to tell: DYNAMIC when the space flags say so, or for MariaDB's full_crc32 files, where it is the default. */
export function compactRowFormat(ts: Tablespace): RowFormat {
  return ts.fsp.flags.atomicBlobs || ts.fsp.flags.fullCrc32 ? 'DYNAMIC' : 'COMPACT';
}
