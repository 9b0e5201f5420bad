/**
 * What the decoder worker finds out about a table's definition (`readSchema`, `resolveSchema` of
 * decoder-api.ts, and the batch listing of list-methods.ts): the tables defined by the files given,
 * which one matches the .ibd, and where it comes from. Its own module because both the worker's API
 * and the listing methods it is made of speak of them.
 */
import type { DefinitionSourceKind, SchemaSourceKind } from '../src/core/definitions/schema-source.ts';

export type { DefinitionSourceKind, SchemaSourceKind };

/** One table definition found (a CREATE TABLE of the .sql file, or one from resolveSchema). */
export interface TableChoice {
  name: string;
  columnCount: number;
  /** Set by resolveSchema ('dictionary': a table of a system tablespace, from its InnoDB data dictionary). */
  source?: DefinitionSourceKind;
  /**
   * From the SDI of a file holding several tables (general tablespace, mysql.ibd), or the data
   * dictionary of a system tablespace: the table's clustered index, to decode with (ViewSpec.index;
   * a root of null: looked for).
   */
  clusteredIndex?: { rootPage: number | null; indexId: bigint } | null;
  /** The file it is defined in (a .sql's path, the .frm, the system tablespace). */
  file?: string;
}

/** A file the user gave besides the .ibd (.frm, .sql…), with its name (a Blob has none). */
export interface NamedBlob {
  name: string;
  blob: Blob;
}

export interface SchemaResult {
  /** Every table defined in the .sql text, in file order. */
  tables: TableChoice[];
  /** The table whose name matches the .ibd file name, or the only table; null when the user must choose. */
  picked: string | null;
}

/** What resolveSchema found. */
export interface ResolvedSchemaResult extends SchemaResult {
  /** Where `picked` comes from; null when nothing describes the .ibd (see `error`). */
  source: DefinitionSourceKind | null;
  /** The file `picked` was read from (the .ibd itself for its data dictionary). */
  file: string | null;
  /** Sources that disagree with the chosen one, files that could not be read: to show the user. */
  warnings: string[];
  /** Why no table was picked: no definition at all, or none named like the .ibd (then `tables` offers the choice). */
  error: string | null;
}
