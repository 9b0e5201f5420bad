/**
 * A key of fixed-size columns only, cut into several: where its columns end is not in their values
 * (two full-range numbers side by side look like one, or like three), so such a key is shown as its
 * raw bytes, which are certain, as one binary(N) column rather than cut, in the full guess and the
 * partial one alike.
 */
import { createTableSql } from './create-table-sql.ts';
import type { LayoutField } from './record-fields.ts';
import type { GuessResult } from './result.ts';

/**
 * Makes the first `keyBytes` bytes one key field when the layout cut them into several fixed ones.
 * Returns how many columns they looked like, or 0 when the key is left as it is.
 */
export function joinFixedKey(layout: LayoutField[], keyBytes: number): number {
  const cut = layout.filter((f) => f.role === 'key').length;
  if (cut < 2 || layout.slice(0, cut).some((f) => f.role !== 'key' || f.fixedLen < 0)) return 0;
  layout.splice(0, cut, { fixedLen: keyBytes, big: false, bit: -1, role: 'key' });
  return cut;
}

/** The joined key of `bytes` bytes as one binary column, said in a note. */
export function rawKey(result: GuessResult, bytes: number, cut: number): void {
  const type = `binary(${bytes})`;
  Object.assign(result.fields[0], { type, confidence: 'low', note: 'the key\'s bytes, raw (shown as hex)' });
  result.columns[0].type = type;
  result.createSql = createTableSql(result.tableName, result.columns, result.rowFormat);
  result.notes.push(`the key's ${bytes} bytes look like ${cut} columns, but where they end is not certain from their values: the key is shown as its raw bytes (binary(${bytes}), as hex); give its columns' types to read them`);
}
