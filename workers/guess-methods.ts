/**
 * Worker methods for "guess the columns" (src/core/definitions/guess/): for an .ibd with no schema source at
 * all, guess each field's type from the records, then let the user correct the column list and decode
 * with it. To be mixed into the decoder worker's API like viewer-methods.ts; `register` adds the
 * resulting table to the worker's tables, so the viewer methods find it by name like any other.
 * Everything returned survives structured cloning.
 */
import { guessColumns, tableFromColumns, type ColumnEdit, type GuessResult } from '../src/core/definitions/guess/index.ts';
import { rawView, type RawTarget } from '../src/core/tablespace/orphan-scan.ts';
import type { TableDef } from '../src/core/schema.ts';
import { blobSource } from '../src/core/tablespace/source.ts';
import { fileSource } from './redo-sources.ts';
import { Tablespace } from '../src/core/tablespace/tablespace.ts';

export type { ColumnEdit, GuessedField, GuessResult } from '../src/core/definitions/guess/index.ts';

/** The table registered by tableFromGuess(), as the page lists tables. */
export interface GuessedTableInfo {
  name: string;
  columnCount: number;
  createSql: string;
}

export interface GuessMethods {
  /**
   * Reads a sample of the file's leaf pages and guesses its columns: per field the observed lengths,
   * NULL count, sample values (hex) and a guessed type, and the CREATE TABLE they make. Registers that
   * table under `name` (the .ibd's name without extension is usual) so it can be decoded right away.
   * Rejects when the file has no rows to guess from or its structure cannot be worked out; where only the
   * key's can, the guess is partial (GuessResult.uncertain) and its table decodes the key alone.
   * `target`: an index chosen from a scan of the file (listIndexes), read as a raw image when `raw` is set.
   */
  guessColumns(ibd: Blob, name: string, target?: { index: { indexId: bigint }; raw?: RawTarget }): Promise<GuessResult>;
  /**
   * Builds the table from a (user-edited) column list and registers it under `tableName`, replacing
   * the guess. Rejects, naming the problem, when a type does not parse.
   */
  tableFromGuess(tableName: string, columns: ColumnEdit[]): Promise<GuessedTableInfo>;
}

export function createGuessMethods(register: (table: TableDef) => void): GuessMethods {
  // Row format per guessed table name, and what a partial guess left out of the records, so an edited
  // column list keeps what the file showed.
  const formats = new Map<string, Pick<GuessResult, 'rowFormat' | 'uncertain'>>();
  const build = (tableName: string, columns: readonly ColumnEdit[]): GuessedTableInfo => {
    const shown = formats.get(tableName);
    const table = tableFromColumns(tableName, columns, shown?.rowFormat ?? 'DYNAMIC', shown?.uncertain?.columns);
    register(table);
    return { name: table.name, columnCount: table.columns.length, createSql: table.createSql };
  };
  return {
    async guessColumns(ibd, name, target) {
      const source = await fileSource(ibd, name, () => blobSource(ibd, name));
      const ts = target?.raw ? Tablespace.openRaw(rawView(source, target.raw.base), target.raw) : await Tablespace.open(source);
      const tableName = name.replace(/\.ibd$/i, '');
      const guess = await guessColumns(ts, tableName, target?.index.indexId);
      formats.set(tableName, { rowFormat: guess.rowFormat, uncertain: guess.uncertain });
      build(tableName, guess.columns);
      return guess;
    },
    async tableFromGuess(tableName, columns) {
      return build(tableName, columns);
    },
  };
}
