/**
 * What a text writer is (a Write: a field's bytes to its text in a BatchBuilder) and what is known of
 * each beyond its function: its CSV quote check and its fast kind, the way record.ts's line writer
 * puts its values down itself. Also the way back for what no writer handles: a renderer's string.
 */
import type { DecimalPlan } from './digit-text.ts';
import { QUOTE_SCAN, type BatchBuilder } from './row-batch.ts';

export type Write = (b: Uint8Array, o: number, len: number, out: BatchBuilder) => void;

/**
 * Kinds of value that record.ts's line writer puts down itself, through the put* function that the
 * kind's Write calls too (putInt, putDecimal, putDateValue, putUtf8): FAST_NONE for every other
 * writer, which it calls as a Write.
 */
const FAST_NONE = 0;
export const FAST_INT = 1;
export const FAST_DECIMAL = 2;
export const FAST_DATE = 3;
/** UTF-8 CHAR (pad spaces trimmed) and VARCHAR/TEXT. */
export const FAST_CHAR = 4;
export const FAST_VARCHAR = 5;

/** A writer's fast kind with what its put* function needs. */
export interface FastWrite {
  kind: number;
  /** FAST_INT: its size and signedness. */
  bytes: number;
  unsigned: boolean;
  decimal: DecimalPlan | null;
}

export const fastKind = (kind: number, extra: Partial<FastWrite> = {}): FastWrite => ({ kind, bytes: 0, unsigned: false, decimal: null, ...extra });
const NOT_FAST = fastKind(FAST_NONE);

/**
 * What is known of a writer beyond its function: how a separated BatchBuilder tells whether its
 * values need quotes in CSV (QUOTE_NEVER: digits, a sign and a point, or 0x and hex digits;
 * QUOTE_REPORTED: it sets BatchBuilder.special when a value holds a byte that may call for them;
 * QUOTE_SCAN, any other: its values are looked at), and its fast kind.
 */
const traits = new WeakMap<Write, { quoteCheck: number; fast: FastWrite }>();

export function described(w: Write, quoteCheck: number, fast = NOT_FAST): Write {
  traits.set(w, { quoteCheck, fast });
  return w;
}

/** How record.ts's line writer can put down this writer's values itself (FAST_NONE: it cannot). */
export function fastWriteOf(w: Write): FastWrite {
  return traits.get(w)?.fast ?? NOT_FAST;
}

/** How a separated BatchBuilder learns whether this writer's values may need quotes (its quoteChecks). */
export function quoteCheckOf(w: Write): number {
  return traits.get(w)?.quoteCheck ?? QUOTE_SCAN;
}

export const encoder = new TextEncoder();

/** Appends a JS string (ASCII fast, else UTF-8 encoded). */
export function appendString(out: BatchBuilder, s: string): void {
  out.reserve(s.length * 3);
  const t = out.text;
  let p = out.pos;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch >= 0x80) {
      out.pos += encoder.encodeInto(s, t.subarray(out.pos)).written;
      return;
    }
    t[p++] = ch;
  }
  out.pos = p;
}
