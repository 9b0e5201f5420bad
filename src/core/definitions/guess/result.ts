/**
 * What a guess hands back: every field of the clustered record as observed (lengths, NULLs, samples)
 * with its guessed type, the columns proposed and their CREATE TABLE; the TableDef made of it, and
 * a plain-text report of it for the command line.
 */
import type { TableDef } from '../../schema.ts';
import { createTableSql, tableFromColumns, type ColumnEdit, type RowFormat } from './create-table-sql.ts';
import type { LayoutField, RecordFields, Span } from './record-fields.ts';
import { fixedGuess, redundantFixed, varGuess, type Confidence, type TypeGuess } from './type-guess.ts';

/** One field of the clustered index record, as observed and guessed. */
export interface GuessedField {
  /** Column name (c1, c2, …) or DB_ROW_ID / DB_TRX_ID / DB_ROLL_PTR. */
  name: string;
  system: boolean;
  /** Part of the clustering key (PRIMARY KEY column, or DB_ROW_ID). */
  key: boolean;
  /** Same length in every record (a fixed-size type), as far as the records show. */
  fixed: boolean;
  minLength: number;
  maxLength: number;
  /** Records where the field is SQL NULL / stored off-page, out of `records`. */
  nulls: number;
  externs: number;
  records: number;
  /** A few distinct values, as hex of their first bytes. */
  samples: string[];
  /** Guessed SQL type ('' for system fields), e.g. `int`, `varchar(40)`, `char(10) character set latin1`. */
  type: string;
  nullable: boolean;
  confidence: Confidence;
  /** Why this type, in a few words. */
  note: string;
}

export interface GuessResult {
  tableName: string;
  rowFormat: RowFormat;
  pagesSampled: number;
  recordsSampled: number;
  /** Every field of the record in physical order, system fields included. */
  fields: GuessedField[];
  /** The table's columns (system fields left out), as the guess proposes them. */
  columns: ColumnEdit[];
  createSql: string;
  /** What could not be settled, for the user to check. */
  notes: string[];
  /**
   * A partial guess: the columns left out of `fields` and `columns` (not decoded, not shown as values)
   * and why; null when every column of the record was guessed.
   */
  uncertain: { columns: string; why: string } | null;
}

function hex(v: Uint8Array, max = 24): string {
  let s = '';
  for (let i = 0; i < Math.min(v.length, max); i++) s += v[i].toString(16).padStart(2, '0').toUpperCase();
  return v.length > max ? `${s}…` : s;
}

function describeField(slot: LayoutField, spans: readonly (Span | undefined)[], records: readonly RecordFields[], name: string, redundant: boolean): GuessedField {
  const values: Uint8Array[] = [];
  let nulls = 0;
  let externs = 0;
  let min = Infinity;
  let max = 0;
  spans.forEach((sp, i) => {
    if (sp === undefined) return;
    if (sp.isNull) { nulls++; return; }
    if (sp.extern) externs++;
    min = Math.min(min, sp.len);
    max = Math.max(max, sp.len);
    if (!sp.extern) values.push(records[i].bytes.subarray(sp.at, sp.at + sp.len));
  });
  const system = slot.role === 'trx' || slot.role === 'roll' || slot.role === 'row_id';
  const fixed = slot.fixedLen >= 0;
  let g: TypeGuess;
  if (system) g = { type: '', confidence: 'high', note: `${name}, written by InnoDB` };
  else if (fixed) g = redundant ? redundantFixed(values, slot.fixedLen) : fixedGuess(values, slot.fixedLen);
  else g = varGuess(values, externs, max, redundant, slot.big);
  const distinct = [...new Set(values.map((v) => hex(v)))].slice(0, 5);
  return {
    name, system, key: slot.role === 'key' || slot.role === 'row_id', fixed,
    minLength: min === Infinity ? 0 : min, maxLength: max, nulls, externs, records: records.length,
    samples: distinct, type: g.type, nullable: slot.bit >= 0 || (redundant && nulls > 0), confidence: g.confidence, note: g.note,
  };
}

export function buildResult(tableName: string, rowFormat: RowFormat, pages: number, slots: readonly LayoutField[], records: readonly RecordFields[], notes: string[]): GuessResult {
  const redundant = rowFormat === 'REDUNDANT';
  let c = 0;
  const fields = slots.map((slot, i) => {
    const name = slot.role === 'trx' ? 'DB_TRX_ID' : slot.role === 'roll' ? 'DB_ROLL_PTR' : slot.role === 'row_id' ? 'DB_ROW_ID' : `c${++c}`;
    return describeField(slot, records.map((r) => r.spans[i]), records, name, redundant);
  });
  const columns: ColumnEdit[] = fields.filter((f) => !f.system).map((f) => ({ name: f.name, type: f.type, nullable: f.nullable && !f.key, key: f.key }));
  const createSql = createTableSql(tableName, columns, rowFormat);
  return { tableName, rowFormat, pagesSampled: pages, recordsSampled: records.length, fields, columns, createSql, notes, uncertain: null };
}

/** The guessed table, ready for openTable(). */
export function guessedTable(guess: GuessResult): TableDef {
  return tableFromColumns(guess.tableName, guess.columns, guess.rowFormat, guess.uncertain?.columns);
}

/** A plain-text report of the guess: one line per field (for the command line). */
export function formatGuess(guess: GuessResult): string {
  const lines = [`guessed from ${guess.recordsSampled} records on ${guess.pagesSampled} leaf pages (${guess.rowFormat}):`];
  for (const f of guess.fields) {
    const len = f.minLength === f.maxLength ? `${f.maxLength}` : `${f.minLength}..${f.maxLength}`;
    const extra = [f.nulls > 0 ? `${f.nulls} NULL` : '', f.externs > 0 ? `${f.externs} off-page` : ''].filter(Boolean).join(', ');
    lines.push(`  ${f.name.padEnd(12)} ${(f.key ? 'key ' : '    ')}${len.padStart(9)} bytes  ${(f.type || '(system)').padEnd(34)} ${f.confidence.padEnd(6)} ${f.note}${extra ? `; ${extra}` : ''}; e.g. ${f.samples.slice(0, 3).join(' ')}`);
  }
  if (guess.uncertain !== null) lines.push(`  ${'(uncertain)'.padEnd(12)} not decoded: ${guess.uncertain.columns}: ${guess.uncertain.why}`);
  for (const n of guess.notes) lines.push(`  note: ${n}`);
  return lines.join('\n');
}
