/**
 * How a value goes into JSON (NDJSON exports, the grid's "Rows as JSON"): a number where a JSON
 * number holds it exactly, else a string of the server's text.
 *
 *  - Integers: a number when a safe integer (|n| < 2^53: a double holds each exactly, and no other
 *    integer parses to the same double), else a string (BIGINT, BIGINT UNSIGNED beyond).
 *  - DECIMAL, FLOAT, DOUBLE: the server's text itself as the number (`1.50` stays `1.50`, as
 *    MariaDB's own JSON_OBJECT() writes it), where parsing it as a double loses nothing: the double
 *    prints back as the same decimal value. A DECIMAL with more digits than a double holds is a string.
 *  - BIT: the number `SELECT col+0` shows (the server's SELECT sends the bits as raw bytes, which the
 *    client shows as bytes or, with --binary-as-hex, as 0x hex; `col+0` is the value they stand for,
 *    and mysqldump writes it as b'…' bits), a string of its digits from 2^53 on.
 *  - Anything else, and a value that is not a number of its type (an `[unreadable: …]` mark): a JSON
 *    string of its text. With `strings`, every value is the string CSV shows (BIT as 0x hex too): the
 *    NDJSON of before numbers were written as numbers.
 */
import type { Column, TableDef } from '../schema.ts';
import { systemColumnOf } from '../readers/system-columns.ts';

/** How the values of one output column are written in JSON. */
export type JsonKind = 'integer' | 'number' | 'bit' | 'string';

export interface JsonOptions {
  /** Every value as a JSON string of the text CSV shows (BIT as 0x hex). */
  strings?: boolean;
}

const INTEGER_TYPES = new Set(['tinyint', 'bool', 'smallint', 'mediumint', 'int', 'bigint']);
const NUMBER_TYPES = new Set(['decimal', 'float', 'double']);

function kindOf(c: Column | undefined, strings: boolean): JsonKind {
  if (c === undefined || strings) return 'string';
  if (c.type === 'bit') return 'bit';
  if (INTEGER_TYPES.has(c.type)) return 'integer';
  return NUMBER_TYPES.has(c.type) ? 'number' : 'string';
}

/** Whether a column none of the table's is a system column (readers/system-columns.ts) that is a whole number: DB_TRX_ID, page and heap number. */
const systemInteger = (name: string) => [0, 2, 3].includes(systemColumnOf(name));

/** The JSON kind of each output column (matched to the table definition by name; the system numbers integers; others are strings). */
export function jsonColumns(table: TableDef | null, outputColumns: readonly string[], options: JsonOptions = {}): JsonKind[] {
  const byName = new Map<string, Column>((table?.columns ?? []).map((c) => [c.name.toLowerCase(), c]));
  const strings = options.strings === true;
  return outputColumns.map((name) => {
    const c = byName.get(name.toLowerCase());
    return c === undefined && !strings && systemInteger(name) ? 'integer' : kindOf(c, strings);
  });
}

const TWO_53 = 2 ** 53;
/** A JSON integer of up to 16 digits (more are beyond 2^53 anyway). */
const INTEGER = /^-?(?:0|[1-9]\d{0,15})$/;
/** JSON's number grammar (RFC 8259): no `+`, no leading zeros, no bare `.`. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** Every decimal of up to 15 significant digits comes back from the nearest double (DBL_DIG). */
const DOUBLE_DIGITS = 15;
const SMALLEST_NORMAL = 2.2250738585072014e-308;
const BIT_HEX = /^0x[0-9A-Fa-f]{1,16}$/;
/** Hex digits whose value is always below 2^53. */
const SAFE_HEX_DIGITS = 13;

/** Whether `text` (an integer column's value) is a safe integer: below 2^53 its double is exact (at 2^53 + 1 it rounds to 2^53). */
function exactInteger(text: string): boolean {
  if (!INTEGER.test(text)) return false;
  return text.length <= 15 || Math.abs(Number(text)) < TWO_53;
}

/** Significant digits of a decimal's text (leading and trailing zeros aside), counted without copying it. */
function significantDigits(text: string): number {
  let first = -1;
  let last = -1;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x65 || ch === 0x45) break; // e, E
    if (ch < 0x30 || ch > 0x39) continue; // sign, point
    count++;
    if (ch !== 0x30) {
      if (first < 0) first = count;
      last = count;
    }
  }
  return first < 0 ? 0 : last - first + 1;
}

/** A decimal's value as sign, significant digits and the exponent of the first: `-1.50` and `-15e-1` alike. */
function decimalValue(text: string): string {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (m === null) return text;
  const whole = m[2];
  const digits = whole + (m[3] ?? '');
  const lead = digits.search(/[1-9]/);
  if (lead < 0) return '0';
  const significant = digits.slice(lead).replace(/0+$/, '');
  return `${m[1]}${significant}e${Number(m[4] ?? 0) + whole.length - lead}`;
}

/** Whether `text` (a DECIMAL, FLOAT or DOUBLE) is a JSON number whose double prints back as the same value. */
function exactNumber(text: string): boolean {
  if (!JSON_NUMBER.test(text)) return false;
  const n = Number(text);
  if (!Number.isFinite(n)) return false;
  if (significantDigits(text) <= DOUBLE_DIGITS && (n === 0 || Math.abs(n) >= SMALLEST_NORMAL)) return true;
  return decimalValue(String(n)) === decimalValue(text);
}

/** A BIT value (`0x` + its bytes in hex) as the unsigned number it stands for, or null when it is not one. */
function bitNumber(text: string): number | bigint | null {
  if (!BIT_HEX.test(text)) return null;
  if (text.length - 2 > SAFE_HEX_DIGITS) {
    const big = BigInt(text);
    return big < BigInt(TWO_53) ? Number(big) : big;
  }
  let n = 0;
  for (let i = 2; i < text.length; i++) {
    const ch = text.charCodeAt(i) | 0x20; // a digit, or a lower-case letter
    n = n * 16 + (ch <= 0x39 ? ch - 0x30 : ch - 0x57);
  }
  return n;
}

/** One value as JSON text. */
export function jsonValue(text: string | null | undefined, kind: JsonKind): string {
  if (text === null || text === undefined) return 'null';
  switch (kind) {
    case 'integer': return exactInteger(text) ? text : JSON.stringify(text);
    case 'number': return exactNumber(text) ? text : JSON.stringify(text);
    case 'bit': {
      const n = bitNumber(text);
      if (n === null) return JSON.stringify(text);
      return typeof n === 'number' ? String(n) : `"${n}"`;
    }
    default: return JSON.stringify(text);
  }
}
