/**
 * A typed filter's conditions (where-parse.ts) made into a test of decoded rows, run by the workers
 * where the text filter runs (searches, sorts, exports). Values are compared by their column's
 * type through the column's sort key (src/core/values/order-key.ts, its values compared whole):
 * integers and DECIMAL exactly as numerals, FLOAT/DOUBLE as the server's doubles (realTest), dates and times as such (a
 * literal made to the column's form first: `'2020-01-01'` of a DATETIME is its midnight), text by
 * its collation (what the server's `=` and `<` use: `'apple ' = 'APPLE'` in `utf8mb4_general_ci`),
 * ENUM and SET as their text (as the server compares them with a string). LIKE goes character by
 * character, each compared by the collation's weight as the server's LIKE does (`%`, `_`, `\`
 * escapes). NULL matches no comparison, as in SQL. A test a type cannot take (a binary column's
 * bytes against text, a literal that is not of the column's type) is refused, naming why.
 */
import type { Column } from '../schema.ts';
import type { RowBatch } from '../values/row-batch.ts';
import { selectRows } from '../values/batch-edit.ts';
import { compareOrderKeys, KeyBuffer, loadColumnOrder, type ColumnOrder, type OrderKind } from '../values/order-key.ts';
import { isFixedZone } from '../values/time-zone.ts';
import { batchText } from '../values/batch-strings.ts';
import type { WhereCondition } from './where-parse.ts';

/** Appends the rows of `batch` every condition holds for to `out` (ascending). */
export type RowTest = (batch: RowBatch, out: number[]) => void;

function keyOf(order: ColumnOrder, text: string): Uint8Array {
  const sink = new KeyBuffer();
  order.key(text, sink);
  return sink.bytes.slice(0, sink.length);
}

const NUMERIC = new Set(['tinyint', 'bool', 'smallint', 'mediumint', 'int', 'bigint', 'decimal', 'float', 'double']);
const UNCOMPARED = new Set(['binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob', 'bit', 'json', 'vector', 'geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon', 'geometrycollection']);
const NUMERAL = /^[-+]?(?:\d+\.?\d*|\.\d+)$/;
/** FLOAT and DOUBLE take scientific notation too (their keys are made from the number). */
const FLOAT_NUMERAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

/** `literal` in the text form the column's cells have, so that their keys compare; throws when it is not of the type. */
function asColumnText(c: Column, literal: string): string {
  const t = c.type;
  const bad = (what: string) => new Error(`${c.name} is ${t.toUpperCase()}: “${literal}” is not ${what}`);
  if (NUMERIC.has(t)) {
    const floating = t === 'float' || t === 'double';
    if (!(floating ? FLOAT_NUMERAL : NUMERAL).test(literal)) throw bad(floating ? 'a number' : 'a number written without an exponent');
    return literal.replace(/^\+/, '');
  }
  if (t === 'year') {
    if (!/^\d{4}$/.test(literal)) throw bad('a year (YYYY)');
    return literal;
  }
  if (t === 'date') {
    if (!/^\d{4}-\d\d-\d\d$/.test(literal)) throw bad('a date (YYYY-MM-DD)');
    return literal;
  }
  if (t === 'datetime' || t === 'timestamp') {
    const m = /^(\d{4}-\d\d-\d\d)(?:[ T](\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?)?$/.exec(literal);
    if (!m) throw bad('a date and time (YYYY-MM-DD[ HH:MM:SS[.ffffff]])');
    return `${m[1]} ${m[2] ?? '00:00:00'}${fraction(m[3] ?? '', c.fsp)}`;
  }
  if (t === 'time') {
    const m = /^(-?\d{1,3}:\d\d:\d\d)(?:\.(\d{1,6}))?$/.exec(literal);
    if (!m) throw bad('a time (HH:MM:SS[.ffffff])');
    return `${m[1]}${fraction(m[2] ?? '', c.fsp)}`;
  }
  return literal;
}

/**
 * Fractional seconds as the column shows them (`fsp` digits); digits beyond it kept when not zeros, so
 * that a value of the column compares below such a literal (as the server compares the two).
 */
function fraction(digits: string, fsp: number): string {
  const kept = digits.replace(/0+$/, '');
  const width = Math.max(fsp, kept.length);
  return width === 0 ? '' : `.${kept.padEnd(width, '0')}`;
}

/** The order a condition compares the column's values by: ENUM and SET as text of their collation. */
async function conditionOrder(c: Column): Promise<ColumnOrder> {
  const asText = c.type === 'enum' || c.type === 'set' ? { ...c, type: 'varchar' as const } : c;
  const order = await loadColumnOrder(asText, { whole: true });
  if ('why' in order) throw new Error(`${c.name} cannot be compared: ${order.why}`);
  return order;
}

/** Tests one cell's text (never NULL) as a condition says. */
type CellTest = (text: string) => boolean;

function compareTest(order: ColumnOrder, cond: WhereCondition, c: Column): CellTest {
  const keys = cond.values.map((v) => keyOf(order, asColumnText(c, v)));
  const sink = new KeyBuffer();
  const { kind } = order;
  const against = (text: string, key: Uint8Array) => {
    sink.length = 0;
    order.key(text, sink);
    return compareOrderKeys(kind, sink.bytes, 0, sink.length, key, 0, key.length);
  };
  const k = keys[0];
  switch (cond.test) {
    case '=': return (t) => against(t, k) === 0;
    case '<>': return (t) => against(t, k) !== 0;
    case '<': return (t) => against(t, k) < 0;
    case '<=': return (t) => against(t, k) <= 0;
    case '>': return (t) => against(t, k) > 0;
    case '>=': return (t) => against(t, k) >= 0;
    case 'between': return (t) => against(t, k) >= 0 && against(t, keys[1]) <= 0;
    case 'not between': return (t) => against(t, k) < 0 || against(t, keys[1]) > 0;
    case 'in': return (t) => keys.some((key) => against(t, key) === 0);
    case 'not in': return (t) => keys.every((key) => against(t, key) !== 0);
    default: throw new Error(`${cond.test} is not a comparison`);
  }
}

/** Decimals at or above which the server keeps no fixed decimals (NOT_FIXED_DEC). */
const NOT_FIXED_DEC = 39;

/** A literal's decimals as the server counts them, or null for none fixed (a quoted text, a number with an exponent). */
function literalDecimals(text: string, numeric: boolean): number | null {
  if (!numeric || /e/i.test(text)) return null;
  const dot = text.indexOf('.');
  const decimals = dot < 0 ? 0 : text.length - dot - 1;
  return decimals < NOT_FIXED_DEC ? decimals : null;
}

/**
 * FLOAT and DOUBLE compared as the server compares them (Arg_comparator, Item_func_between, in_double):
 * the stored value as a double against the literal as a double, so that a FLOAT holding 1.1 is not
 * `= 1.1` (it holds 1.100000023841858). A FLOAT's cell shows 6 significant digits: its value is taken
 * as the single-precision number nearest to them, which is the stored one unless more digits were
 * stored. A FLOAT(M,D) or DOUBLE(M,D) against a number without exponent in =, <>, <, <=, >, >= (and
 * an IN or NOT IN of one value, which the server makes = and <>) is equal within half a unit of the
 * last decimal of the finer of the two (compare_real_fixed); BETWEEN and an IN of several values compare exactly.
 */
function realTest(cond: WhereCondition, c: Column): CellTest {
  const single = c.type === 'float';
  const value = (t: string) => (single ? Math.fround(Number(t)) : Number(t));
  const literals = cond.values.map((v) => Number(asColumnText(c, v)));
  const exact = cond.test === 'between' || cond.test === 'not between' || ((cond.test === 'in' || cond.test === 'not in') && cond.values.length > 1);
  const within = cond.values.map((v, i) => {
    const decimals = c.precision > 0 && !exact ? literalDecimals(v, cond.numeric[i]) : null;
    return decimals === null ? 0 : 5 / 10 ** (Math.max(c.scale, decimals) + 1);
  });
  const cmp = (v: number, i: number) => {
    const l = literals[i];
    if (v === l || Math.abs(v - l) < within[i]) return 0;
    return v < l ? -1 : 1;
  };
  switch (cond.test) {
    case '=': return (t) => cmp(value(t), 0) === 0;
    case '<>': return (t) => cmp(value(t), 0) !== 0;
    case '<': return (t) => cmp(value(t), 0) < 0;
    case '<=': return (t) => cmp(value(t), 0) <= 0;
    case '>': return (t) => cmp(value(t), 0) > 0;
    case '>=': return (t) => cmp(value(t), 0) >= 0;
    case 'between': return (t) => cmp(value(t), 0) >= 0 && cmp(value(t), 1) <= 0;
    case 'not between': return (t) => cmp(value(t), 0) < 0 || cmp(value(t), 1) > 0;
    case 'in': return (t) => literals.some((_, i) => cmp(value(t), i) === 0);
    case 'not in': return (t) => literals.every((_, i) => cmp(value(t), i) !== 0);
    default: throw new Error(`${cond.test} is not a comparison`);
  }
}

/** A LIKE pattern's parts: any run (%), any one character (_), or a character compared by its key. */
type LikePart = { any: 'run' | 'one' } | { key: Uint8Array };

/** LIKE by the collation's weight of each character (keys cached per character: a column has few). */
function likeTest(order: ColumnOrder | null, pattern: string, negate: boolean): CellTest {
  const kind: OrderKind = order?.kind ?? 'bytes';
  const cache = new Map<number, Uint8Array>();
  const charKey = (cp: number): Uint8Array => {
    let key = cache.get(cp);
    if (key === undefined) {
      const ch = String.fromCodePoint(cp);
      key = order === null ? new TextEncoder().encode(ch) : keyOf(order, ch);
      // A character without weight (ignorable) still has to match itself alone.
      if (key.length === 0) key = Uint8Array.of(0, ...new TextEncoder().encode(ch));
      if (cache.size < 65536) cache.set(cp, key);
    }
    return key;
  };
  const parts: LikePart[] = [];
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i];
    if (ch === '%') parts.push({ any: 'run' });
    else if (ch === '_') parts.push({ any: 'one' });
    else if (ch === '\\' && i + 1 < chars.length) parts.push({ key: charKey(chars[++i].codePointAt(0) as number) });
    else parts.push({ key: charKey(ch.codePointAt(0) as number) });
  }
  const same = (a: Uint8Array, b: Uint8Array) => a === b || compareOrderKeys(kind, a, 0, a.length, b, 0, b.length) === 0;
  const text: Uint8Array[] = [];
  return (t) => {
    text.length = 0;
    for (const ch of t) text.push(charKey(ch.codePointAt(0) as number));
    return matchLike(parts, text, same) !== negate;
  };
}

/** Whether `text` (characters' keys) matches `parts`: greedy with one backtrack point per run (%). */
function matchLike(parts: readonly LikePart[], text: readonly Uint8Array[], same: (a: Uint8Array, b: Uint8Array) => boolean): boolean {
  let p = 0;
  let t = 0;
  let starP = -1;
  let starT = 0;
  while (t < text.length) {
    const part = parts[p];
    if (part && 'key' in part && same(part.key, text[t])) {
      p++;
      t++;
    } else if (part && 'any' in part && part.any === 'one') {
      p++;
      t++;
    } else if (part && 'any' in part) {
      starP = p++;
      starT = t;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else {
      return false;
    }
  }
  while (p < parts.length && 'any' in parts[p] && (parts[p] as { any: string }).any === 'run') p++;
  return p === parts.length;
}

/**
 * The test of `conditions` (all must hold) over rows whose output columns are `columns`, defined by
 * `table`'s columns; TIMESTAMP shown in `zone` compares by its text only in a zone without summer time.
 */
export async function compileWhere(conditions: readonly WhereCondition[], columns: readonly string[], table: readonly Column[], zone: string): Promise<RowTest> {
  const tests: { column: number; nulls: 'only' | 'never' | 'fail'; cell: CellTest | null }[] = [];
  for (const cond of conditions) {
    const name = columns[cond.column];
    const c = table.find((d) => d.name.toLowerCase() === name?.toLowerCase());
    if (!c) throw new Error(`${name ?? cond.column} is not a column of the table`);
    if (cond.test === 'null' || cond.test === 'not null') {
      tests.push({ column: cond.column, nulls: cond.test === 'null' ? 'only' : 'never', cell: null });
      continue;
    }
    if (UNCOMPARED.has(c.type) || c.charset === 'binary' && !NUMERIC.has(c.type) && !['date', 'datetime', 'timestamp', 'time', 'year', 'enum', 'set'].includes(c.type)) {
      throw new Error(`${c.name} is ${c.type.toUpperCase()}: only IS NULL and IS NOT NULL are offered for it`);
    }
    if (c.type === 'timestamp' && !isFixedZone(zone)) throw new Error(`${c.name} is TIMESTAMP shown in ${zone}, whose clocks go back an hour a year: show it in UTC to compare it`);
    const like = cond.test === 'like' || cond.test === 'not like';
    const textual = !NUMERIC.has(c.type) && !['date', 'datetime', 'timestamp', 'time', 'year'].includes(c.type);
    if (!like && (c.type === 'float' || c.type === 'double')) {
      tests.push({ column: cond.column, nulls: 'fail', cell: realTest(cond, c) });
      continue;
    }
    const order = like && !textual ? null : await conditionOrder(c);
    const cell = like ? likeTest(order, cond.values[0], cond.test === 'not like') : compareTest(order as ColumnOrder, cond, c);
    tests.push({ column: cond.column, nulls: 'fail', cell });
  }
  return (batch, out) => {
    const { str, map } = batchText(batch);
    const { cols, cells, nulls } = batch;
    for (let r = 0; r < batch.rows; r++) {
      let all = true;
      for (let k = 0; k < tests.length && all; k++) {
        const test = tests[k];
        const at = r * cols + test.column;
        const isNull = nulls[at] === 1;
        if (test.cell === null) {
          all = isNull === (test.nulls === 'only');
          continue;
        }
        if (isNull) {
          all = false;
          continue;
        }
        const s = map ? map[cells[2 * at]] : cells[2 * at];
        const e = map ? map[cells[2 * at + 1]] : cells[2 * at + 1];
        all = test.cell(str.slice(s, e));
      }
      if (all) out.push(r);
    }
  };
}

/** A typed filter as it is handed to worker threads: its conditions, and the zone TIMESTAMP values are shown in. */
export interface RowWhere {
  conditions: WhereCondition[];
  zone: string;
}

/** The rows of a batch `where` holds for, as a batch of their own (the batch itself when all do). */
export type BatchFilter = (batch: RowBatch) => RowBatch;

/** `where` over rows whose output columns are `columns`, defined by `table`'s columns, as a filter of batches. */
export async function whereFilter(where: RowWhere, columns: readonly string[], table: readonly Column[]): Promise<BatchFilter> {
  const test = await compileWhere(where.conditions, columns, table, where.zone);
  const keep: number[] = [];
  return (batch) => {
    keep.length = 0;
    test(batch, keep);
    return keep.length === batch.rows ? batch : selectRows(batch, keep);
  };
}
