/**
 * A partial COMPACT guess, for when no record structure is found (a wide table: more NULL-able and
 * variable-length columns than the structure search sorts out): the part of the record that needs no
 * structure. The null bitmap and the variable fields' lengths are stored before the origin, so a key of
 * fixed-size columns (NOT NULL, as key columns are) and DB_TRX_ID + DB_ROLL_PTR after it sit at the same
 * offsets in every record whatever the rest is; the system columns are recognised by their layout, which
 * gives the key's size. That much is decoded. Every column after DB_ROLL_PTR is uncertain (how many there
 * are, their sizes, types and null bits): they are left out of the table and named so, never shown as
 * values. A key that looks like several columns is shown as its raw bytes (binary(N)): where its
 * columns end is not in their values. A key with a variable-length column moves the system columns from record to record: then
 * there is no partial guess either.
 */
import { compactLayout } from './compact-layout.ts';
import type { RowFormat } from './create-table-sql.ts';
import { joinFixedKey, rawKey } from './raw-key.ts';
import { compactSpans, type RecordFields } from './record-fields.ts';
import { buildResult, type GuessResult } from './result.ts';
import type { Sample } from './sample.ts';
import type { CRec, Structure } from './structure.ts';
import { looksLikeSystem, markRowId, uncertainKeyNote, type SystemAt } from './system-columns.ts';

/** InnoDB's limit on an index key (DYNAMIC/COMPRESSED, 16 KiB pages): the system columns are looked for no further. */
const MAX_KEY_BYTES = 3072;
/** Records the system columns are looked for in, as in the full guess. */
const SYSTEM_SAMPLE = 1000;
/** Share of records with the system columns at one offset below which the key is not told at all. */
const MIN_SCORE = 0.9;

/** Where DB_TRX_ID starts at one offset from the origin in the most records (the nearest of equals). */
function fixedSystem(recs: readonly CRec[], pageSize: number): SystemAt {
  const sample = recs.slice(0, SYSTEM_SAMPLE);
  let best: SystemAt = { t: -1, kv: 0, score: 0 };
  for (let t = 1; t <= MAX_KEY_BYTES; t++) {
    let ok = 0;
    for (const r of sample) if (looksLikeSystem(r.b, r.o + t, pageSize)) ok++;
    const score = ok / sample.length;
    if (score > best.score) best = { t, kv: 0, score };
    if (score === 1) break;
  }
  return best;
}

/**
 * The key and system columns of every sampled record, with the rest of the record said to be uncertain
 * because `why` (the structure search's answer); null when the key is not of fixed-size columns.
 */
export function partialGuess(sample: Sample, tableName: string, rowFormat: RowFormat, why: string): GuessResult | null {
  const recs: CRec[] = sample.pages.flatMap((p) => p.origins.map((o) => ({ b: p.bytes, o, lens: [], externs: [], nullBits: new Set<number>() })));
  if (recs.length === 0) return null;
  const sys = fixedSystem(recs, sample.pageSize);
  if (sys.score < MIN_SCORE) return null;
  const s: Structure = { nullBytes: 0, vars: [], fixedLen: sys.t + 13, fixedBits: new Map() };
  const layout = compactLayout(recs, s, { sys, bounds: [], nullAt: new Map() });
  const cut = joinFixedKey(layout, sys.t);
  markRowId(layout, recs);
  const records: RecordFields[] = [];
  for (const r of recs) {
    const spans = compactSpans(r.b, r.o, layout, 0);
    if (spans !== null) records.push({ bytes: r.b, spans });
  }
  const notes = sys.score < 1 ? [uncertainKeyNote(Math.round(sys.score * 100))] : [];
  const result = buildResult(tableName, rowFormat, sample.pages.length, layout, records, notes);
  if (cut > 0) rawKey(result, sys.t, cut);
  const keyBytes = `the key (the first ${sys.t} bytes of every record) and DB_TRX_ID/DB_ROLL_PTR after it`;
  result.uncertain = {
    columns: 'every column after DB_ROLL_PTR (how many there are, their types and which may be NULL)',
    why: `${why.replace(/;? give its CREATE TABLE$/, '')}. Only ${keyBytes} are at the same place in every record whatever the other columns are, so only they are decoded; the other columns are left out, not guessed: give the table's CREATE TABLE to read them`,
  };
  return result;
}
