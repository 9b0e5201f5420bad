/**
 * The writers of DATE and DATETIME (MySQL 5.6+ format) as the server shows them, digits put down a
 * word at a time; values their renderers show otherwise (a year above 9999, older storage formats)
 * go through the renderer. DATE has a fast kind: record.ts's line writer calls putDateValue itself.
 */
import { textView } from './byte-views.ts';
import { DIGITS4, putPadded, SCRATCH } from './digit-text.ts';
import type { Render } from './render.ts';
import { QUOTE_SCAN } from './row-batch.ts';
import { appendString, described, fastKind, FAST_DATE, type Write } from './writer-traits.ts';

/**
 * DATE at o (3 bytes, sign bit flipped, day in bits 0-4, month 5-8, year above; see renderDate) as
 * YYYY-MM-DD at p; returns the position after it, or -1 for a year above 9999 (the renderer's).
 */
export function putDateValue(t: Uint8Array, p: number, b: Uint8Array, o: number): number {
  const v = ((b[o] << 16) | (b[o + 1] << 8) | b[o + 2]) ^ 0x800000;
  const year = v >> 9;
  if (year > 9999) return -1;
  return putDate(t, p, year, (v >> 5) & 15, v & 31);
}

export function dateWriter(render: Render): Write {
  const write: Write = (b, o, len, out) => {
    out.reserve(10);
    const p = putDateValue(out.text, out.pos, b, o);
    if (p < 0) appendString(out, render(b, o, len));
    else out.pos = p;
  };
  return described(write, QUOTE_SCAN, fastKind(FAST_DATE));
}

/** YYYY-MM-DD at p for a year of 0..9999 (month and day below 100); returns the position after it. */
function putDate(t: Uint8Array, p: number, year: number, month: number, day: number): number {
  const view = textView(t);
  view.setInt32(p, DIGITS4[year], true);
  // "-MM-" as one word: the month's two digits (the top half of its 4-digit word) between dashes.
  view.setInt32(p + 4, 45 | ((DIGITS4[month] >>> 16) << 8) | (45 << 24), true);
  view.setInt16(p + 8, DIGITS4[day] >>> 16, true);
  return p + 10;
}

/** DATETIME(fsp), MySQL 5.6+ format (see datetimeRenderer); unusual values go through the renderer. */
export function datetimeWriter(fsp: number, render: Render): Write {
  const fracBytes = (fsp + 1) >> 1;
  return (b, o, len, out) => {
    // Other lengths are older storage formats: the renderer knows them.
    if (len !== 5 + fracBytes) return appendString(out, render(b, o, len));
    let v = 0;
    for (let i = 0; i < 5; i++) v = v * 256 + b[o + i];
    v -= 0x8000000000;
    let micros = 0;
    for (let i = 0; i < fracBytes; i++) micros = micros * 256 + b[o + 5 + i];
    micros *= fracBytes === 1 ? 10000 : fracBytes === 2 ? 100 : 1;
    const ymdPart = Math.floor(v / 131072);
    const ym = ymdPart >> 5;
    if (v < 0 || micros > 999999 || ym / 13 > 9999) return appendString(out, render(b, o, len));
    const hmsPart = v % 131072;
    out.reserve(26 + SCRATCH);
    const t = out.text;
    let p = putDate(t, out.pos, Math.floor(ym / 13), ym % 13, ymdPart & 31);
    t[p++] = 32;
    p = putPadded(t, p, hmsPart >> 12, 2);
    t[p++] = 58;
    p = putPadded(t, p, (hmsPart >> 6) & 63, 2);
    t[p++] = 58;
    p = putPadded(t, p, hmsPart & 63, 2);
    if (fsp > 0) {
      t[p++] = 46;
      // The first fsp digits of the 6-digit microseconds, as the renderer's pad(micros, 6).slice(0, fsp).
      p = putPadded(t, p, Math.floor(micros / 10 ** (6 - fsp)), fsp);
    }
    out.pos = p;
  };
}
