/**
 * "Guess the columns": infer a table definition from the records alone, for an .ibd with no schema
 * source at all. The result is an ordinary TableDef (built through the DDL parser from a generated
 * CREATE TABLE), so the rows decode through openTable() with its heap accounting, and the user can
 * correct any column (name, type text, nullability, key) and decode again with tableFromColumns().
 *
 * REDUNDANT records store every field's end offset: the fields are exact. COMPACT/DYNAMIC records
 * store only a null bitmap and the lengths of variable-size fields, so the structure is searched for:
 * on a page without garbage the records tile the heap back to back, so for records A, B adjacent in
 * the heap, origin(B) − origin(A) = dataLength(A) + extraLength(B), and the first one starts right
 * after the supremum. A hypothesis (null-bitmap bytes, variable-length fields and which null bit and
 * 1-or-2-byte length each has) fixes every record's extra and variable lengths; it is kept only if
 * what is left of every record, its fixed part, is the same size in all of them (less the fixed
 * columns its null bits mark NULL; on pages with garbage, most of them and none smaller). Orders of
 * fields that read the same length bytes are told apart by which one's lengths follow another's null
 * bit, and by where DB_TRX_ID + DB_ROLL_PTR (recognised by their layout) are found, which splits the
 * key from the rest. The fixed bytes are then placed around the variable fields where they line up
 * best across records (least entropy, text fields holding text, NULL-able fields in null-bit order),
 * and each fixed run is cut into columns where the values' numeric ranges are smallest. Types are
 * then guessed from each field's bytes. Full-range random values on both sides of a boundary between
 * two fixed columns carry no sign of it: such a boundary can come out a byte off. On a wide table the
search is cut; then which null bits are the variable fields' is told by the first records' header
sizes and their order by how their lengths follow the other null bits (one structure per set of bits).
 *
 * This module is the entry: guessColumns() and what the callers use of the result. The steps live
 * beside it: sample.ts (the leaf pages read), record-fields.ts (a record's field boundaries),
 * redundant-guess.ts, and for COMPACT structure.ts / structure-search.ts (the structure the heap
 * accounts for; var-bits.ts and var-order.ts when it is cut), system-columns.ts, fixed-placement.ts and
 * null-placement.ts, fixed-columns.ts, compact-layout.ts, raw-key.ts and compact-guess.ts; type-guess.ts (the types), result.ts and create-table-sql.ts (what is handed back).
 */
import { IbdError } from '../../errors.ts';
import type { Tablespace } from '../../tablespace/tablespace.ts';
import { compactGuess, compactRowFormat } from './compact-guess.ts';
import { redundantGuess } from './redundant-guess.ts';
import type { GuessResult } from './result.ts';
import { samplePages, type KnownIndex } from './sample.ts';

export { tableFromColumns, type ColumnEdit } from './create-table-sql.ts';
export { formatGuess, guessedTable, type GuessedField, type GuessResult } from './result.ts';

/**
 * Guesses the columns of the table in `ts` from its records alone: its clustered index, or index
 * `indexId` when given (one chosen from a scan of a raw image).
 */
export async function guessColumns(ts: Tablespace, tableName: string, indexId?: bigint, known?: KnownIndex): Promise<GuessResult> {
  const sample = await samplePages(ts, indexId, known);
  if (sample.pages.length === 0) throw new IbdError(ts.source.name, 'no leaf page with records was found: there are no rows to guess the columns from');
  try {
    if (sample.compact) return compactGuess(sample, tableName, compactRowFormat(ts));
    return redundantGuess(sample, tableName);
  } catch (e) {
    if (e instanceof IbdError) throw e;
    throw new IbdError(ts.source.name, `the columns could not be guessed: ${(e as Error).message}`);
  }
}
