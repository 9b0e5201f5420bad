/**
 * The REDUNDANT guess: every record stores each field's end offset, so the fields are exact; the
 * system columns are the first 6- and 7-byte pair that looks like DB_TRX_ID + DB_ROLL_PTR, and what
 * comes before them is the key.
 */
import { u16 } from '../../pages/fil-header.ts';
import type { LayoutField, RecordFields, Span } from './record-fields.ts';
import { buildResult, type GuessResult } from './result.ts';
import type { Sample } from './sample.ts';
import { looksLikeSystem, NO_SYSTEM_COLUMNS, uncertainKeyNote } from './system-columns.ts';

/** REDUNDANT: the end offsets give every field exactly (1-byte offsets when the record is short). */
function redundantSpans(b: Uint8Array, o: number): Span[] {
  const n = (u16(b, o - 4) >> 1) & 0x3ff;
  const short = (b[o - 3] & 1) !== 0;
  const spans: Span[] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const v = short ? b[o - 7 - i] : u16(b, o - 8 - 2 * i);
    const end = short ? v & 0x7f : v & 0x3fff;
    const isNull = short ? (v & 0x80) !== 0 : (v & 0x8000) !== 0;
    spans.push({ at: o + start, len: Math.max(0, end - start), isNull, extern: !short && (v & 0x4000) !== 0 });
    start = Math.max(start, end);
  }
  return spans;
}

/** REDUNDANT: field count and lengths are exact; DB_TRX_ID + DB_ROLL_PTR are the first 6- and 7-byte pair that looks like them. */
function redundantSlots(records: readonly RecordFields[], pageSize: number): { slots: LayoutField[]; notes: string[] } {
  const counts = new Map<number, number>();
  for (const r of records) counts.set(r.spans.length, (counts.get(r.spans.length) ?? 0) + 1);
  const n = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const notes = counts.size > 1 ? ['records have different field counts (an instant ADD COLUMN?); the most common count is used'] : [];
  const same = records.filter((r) => r.spans.length === n);
  let sys = -1;
  let bestOk = 0;
  for (let i = 0; i + 1 < n; i++) {
    const ok = same.filter((r) => r.spans[i].len === 6 && r.spans[i + 1].len === 7 && looksLikeSystem(r.bytes, r.spans[i].at, pageSize)).length;
    if (ok > bestOk) [sys, bestOk] = [i, ok];
    if (ok >= same.length * 0.9) break; // the first pair that fits: the key comes before it
  }
  if (sys < 0) throw new Error(NO_SYSTEM_COLUMNS);
  if (bestOk < same.length * 0.9) notes.push(uncertainKeyNote(Math.round((100 * bestOk) / same.length)));
  const rowId = sys === 1 && same.every((r) => r.spans[0].len === 6 && r.bytes[r.spans[0].at] < 0x80);
  const slots = Array.from({ length: n }, (_, i): LayoutField => {
    // NULL values and off-page ones say nothing about a fixed size
    const lens = same.filter((r) => !r.spans[i].isNull).map((r) => r.spans[i].len);
    const fixedLen = lens.length > 0 && lens.every((l) => l === lens[0]) && same.every((r) => !r.spans[i].extern) ? lens[0] : -1;
    const role: LayoutField['role'] = i === sys ? 'trx' : i === sys + 1 ? 'roll' : i < sys ? (rowId ? 'row_id' : 'key') : 'column';
    return { role, fixedLen, big: false, bit: -1 };
  });
  return { slots, notes };
}

export function redundantGuess(sample: Sample, tableName: string): GuessResult {
  const records = sample.pages.flatMap((p) => p.origins.map((o) => ({ bytes: p.bytes, spans: redundantSpans(p.bytes, o) })));
  const { slots, notes } = redundantSlots(records, sample.pageSize);
  return buildResult(tableName, 'REDUNDANT', sample.pages.length, slots, records, notes);
}
